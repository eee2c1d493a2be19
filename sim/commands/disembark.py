"""18.04 The Disembark command: a unit embarked in a transport is set up out of it in its
player's Movement phase, in the mode the rules give (Rapid, Tactical or Combat: the command
names only where the models go, and the rules say which mode that is), each model where the
command says, checked as any set-up (03.02) and as 18.04 says. The automatic players' choice
(``default_disembark``) lives here too."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import esper

from sim.commands.base import FACE, TO, UNIT, CommandRecord, on_grid
from sim.components import Unit
from sim.plan import transport as PT
from sim.rules import transport as TR
from sim.rules.movement.moves import MoveType
from sim.rules.turn import Phase
from sim.systems import transport as ST
from sim.systems.removal import remove_casualties
from sim.world import queries as W


@dataclass(frozen=True, slots=True)
class Disembark:
    """18.04 A disembark move: the unit leaves its transport, each of its living models set up
    at its position. Its mode is the rules' (sim.rules.transport.disembark_mode)."""

    unit: str
    to: tuple[tuple[str, float, float], ...]
    face: tuple = ()  # (model id, degrees): 03.01 the facing a model is set up at, if not its own

    __post_init__ = on_grid  # (every position on the measuring grid, sim.rules.grid)


def _check(battle, cmd: Disembark) -> None:
    PT.disembark_check(battle, cmd)


def mode_of(battle, cmd: Disembark) -> str:
    """The mode of a Disembark its check accepted: Rapid after the transport's normal or
    ingress move; else Tactical when its placement is a tactical one (the check refused any
    other while one was possible), else Combat."""
    ent = battle.units[cmd.unit]
    t = W.embarked_in(ent)
    if W.unit_state(t).move_type in (MoveType.NORMAL, MoveType.INGRESS):
        return TR.DisembarkMode.RAPID
    if not PT.placement_problems(battle, ent, t, TR.DisembarkMode.TACTICAL, cmd.to, cmd.face):
        return TR.DisembarkMode.TACTICAL
    return TR.DisembarkMode.COMBAT


def _apply(battle, cmd: Disembark):
    """18.04 The unit is set up (sim.systems.transport.set_up); a Combat disembark's hazard
    rolls follow, one per model (06.03; the rule does not say when: made once the unit is set
    up, docs/rules-additions.md 18.04), their casualties removed at once, then the unit is
    battle-shocked."""
    ent = battle.units[cmd.unit]
    t = W.embarked_in(ent)
    mode = mode_of(battle, cmd)
    ST.set_up(battle, ent, t, mode, cmd.to, face=cmd.face)
    if TR.hazard_rolls_for(mode):
        dead = yield from ST.hazard_rolls(battle, ent, mode)
        if dead:
            yield from remove_casualties(battle)
    if TR.battle_shocked_after(mode) and W.alive_models(ent):
        W.unit_state(ent).battle_shocked = True


def _describe(c: dict) -> None:
    return None  # (its event says it, with the mode: sim.replay.report)


# --- the automatic players' disembark ------------------------------------------------------

def _mode(battle, ent: int, tactical_possible) -> tuple[str | None, str | None]:
    """18.04 (the mode, None) the unit would disembark in now, or (None, why not): embarked in a
    transport on the battlefield, with a model left, and the transport's move this phase
    (sim.rules.transport.disembark_mode; ``tactical_possible`` asked only for the mode)."""
    t = W.embarked_in(ent)
    if t is None:
        return None, "it is not embarked in a transport (18.04)"
    name = esper.component_for_entity(t, Unit).id
    if W.off_table(t):
        return None, f"{name} is not on the battlefield (18.04)"
    if not W.alive_models(ent):
        return None, "it has no model left"
    tst = W.unit_state(t)
    return TR.disembark_mode(name, move_selected=tst.move_selected, move_type=tst.move_type,
                             advanced=tst.advanced, fell_back=tst.fell_back, tactical_possible=tactical_possible)


def disembark_refusal(battle, ent: int) -> str | None:
    """Why the unit cannot disembark now as its transport's move tells (18.04), found without
    laying its models out (None: it may try; whether a layout round its transport is legal is
    the solver's and the check's, ``default_disembark``): what the sandbox's Disembark buttons,
    made again after each command, are greyed with."""
    return _mode(battle, ent, lambda: True)[1]


def disembark_options(battle, ent: int, towards: tuple[float, float] | None = None,
                      limit: int | None = None) -> list:
    """The Disembarks the unit could make now, as the solver lays them out round its transport
    (sim.plan.transport.full_layouts, in the mode the rules give), the one starting from the
    direction of ``towards`` (a point) first; the first ``limit`` of them (None: all), the
    directions after the last one taken not searched. Not checked against the phase: the
    players check."""
    return list(itertools.islice(_options(battle, ent, towards), limit))


def _options(battle, ent: int, towards: tuple[float, float] | None = None):
    """``disembark_options`` one at a time, each direction's layout searched when it is read."""
    t = W.embarked_in(ent)
    mode, why = _mode(battle, ent, lambda: PT.tactical_possible(battle, ent, t))
    if why:
        return
    directions = PT.DIRECTIONS
    if towards is not None:
        fps = PT.transport_footprints(t)
        cx, cy = sum(f.x for f in fps) / len(fps), sum(f.y for f in fps) / len(fps)
        directions = (("towards", math.atan2(towards[1] - cy, towards[0] - cx)),) + PT.DIRECTIONS
    uid = esper.component_for_entity(ent, Unit).id
    for _name, to in PT.iter_full_layouts(battle, ent, t, mode, directions):
        yield Disembark(uid, to)


def default_disembark(battle, ent: int, towards: tuple[float, float] | None = None):
    """The automatic players' disembark: the solver's layout starting from the side of
    ``towards`` (else the first direction that fits); None when none fits or the rules allow
    none now (checked with Battle.check)."""
    for cmd in _options(battle, ent, towards):  # (the first legal: the later directions not searched)
        if battle.check(cmd) is None:
            return cmd
    return None


DISEMBARK = CommandRecord(
    "disembark", Disembark, "18.04", "set up a unit out of its transport (a disembark move, in its mode)",
    (UNIT, TO, FACE), check=_check, apply=_apply, describe=_describe, phase=Phase.MOVEMENT, script_step="disembark")
