"""The events of the mission's steps before battle round 1 (26 steps 5-11), in a battle whose
armies deploy by the rules: the roles, the battle formations, each unit set up, the pre-battle
rules (Scouts). Declarations only (sim.events.schema says how to read them)."""

from typing import Annotated, NotRequired

from sim import events as ev
from sim.events.core import Event, Faced, Placed
from sim.events.schema import registrar

DECLARED: dict[str, type] = {}
declare = registrar(DECLARED)


@declare(ev.ROLES)
class Roles(Event):
    """26 step 5 Who is Defender (deploys first) and who Attacker (the roll-off's dice before
    it, when there was one)."""

    defender: Annotated[str, "the Defender"]
    attacker: Annotated[str, "the Attacker"]
    chosen_by: NotRequired[Annotated[str, "the roll-off's winner, who chose the roles"]]


@declare(ev.PRE_BATTLE)
class PreBattle(Event):
    """26 steps 7, 8, 11 A pre-battle step begins, and who acts first in it."""

    step: Annotated[str, "the step (sim.rules.turn.PreBattleStep)"]
    player: Annotated[str, "the player who acts first"]


@declare(ev.FORMATIONS)
class Formations(Event):
    """26 step 7 A player's battle formations, revealed once both have declared."""

    player: Annotated[str, "the player"]
    reserves: Annotated[list[str], "the units that start in strategic reserves"]
    embarked: NotRequired[Annotated[dict[str, str], "18.01 each unit that starts embarked: its transport's id"]]


@declare(ev.DEPLOYED)
class Deployed(Event):
    """26 step 8 A unit set up wholly within its deployment zone (or, Infiltrators, 24.20,
    away from the enemy)."""

    unit: Annotated[str, "the unit's id"]
    player: Annotated[str, "its player"]
    to: Annotated[list[Placed], "each model and where it is set up"]
    infiltrators: NotRequired[Annotated[bool, "set up by 24.20 Infiltrators"]]
    oversized: NotRequired[Annotated[list[str], "the models set up touching their battlefield edge (03.02.02)"]]
    face: NotRequired[Annotated[list[Faced], "each model turned and the facing it ends at, degrees (03.01)"]]


@declare(ev.SCOUTED)
class Scouted(Event):
    """24.31 A unit's pre-battle Scouts ability: a scout move (24.32), or its set-up from
    strategic reserves wholly within its deployment zone."""

    unit: Annotated[str, "the unit's id"]
    player: Annotated[str, "its player"]
    to: Annotated[list[Placed], "each model and where it ends"]
    distance: NotRequired[Annotated[float, "the scout move's maximum distance, inches"]]
    from_reserves: NotRequired[Annotated[bool, "set up from strategic reserves"]]
    face: NotRequired[Annotated[list[Faced], "each model turned and the facing it ends at, degrees (03.01)"]]


ROLL_OFF = " roll-off ("  # (sim.phases.battle_round.roll_off's purpose: "<why> roll-off (red, blue)")


def roll_off(e: dict) -> tuple[str, list[int]] | None:
    """01.05.05 A roll-off's dice event: (what it decides, as its purpose words have it: "first
    turn", "Attacker and Defender"; the two players' dice), or None for any other event."""
    if e.get("type") != ev.DICE or len(e.get("results", ())) != 2:
        return None
    purpose = str(e.get("purpose", ""))
    if ROLL_OFF not in purpose:
        return None
    return purpose.split(ROLL_OFF)[0], list(e["results"])
