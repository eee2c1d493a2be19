"""The events of moving (09, 11, 12, 20) and of the models removed for coherency (03.03), and
what readers may rely on beyond each event's own fields (``charge_dice``). Declarations only,
besides that reader (sim.events.schema says how to read them)."""

from typing import Annotated, Literal, NotRequired

from sim import events as ev
from sim.events.core import Event, Faced, Placed
from sim.events.schema import registrar

DECLARED: dict[str, type] = {}
declare = registrar(DECLARED)


@declare(ev.SELECTED_TO_MOVE)
class SelectedToMove(Event):
    """09.02 A unit selected to move, with its move type; 09.06 an advance's roll is made now."""

    unit: Annotated[str, "the unit's id"]
    mode: Annotated[str, "the move type (sim.rules.movement.moves.MoveType: 'normal', 'advance', ...)"]
    advance_roll: NotRequired[Annotated[int, "an advance's D6 (after any Command Re-roll)"]]


@declare(ev.MOVED)
class Moved(Event):
    """09 A unit's move made (or, selected and never moved, a move of 0\": 09.02)."""

    unit: Annotated[str, "the unit's id"]
    mode: Annotated[str, "the move type (MoveType)"]
    to: Annotated[list[Placed], "each model moved and where it ends"]
    advance_roll: Annotated[int | None, "the advance roll, for an advance"]
    distance: Annotated[float, "the furthest any model moved, in inches (to 6 places)"]
    fly: NotRequired[Annotated[bool, "true: taking to the skies (21.03)"]]
    note: NotRequired[Annotated[str, "why nothing moved"]]
    face: NotRequired[Annotated[list[Faced], "each model turned and the facing it ends at, degrees (03.01)"]]


@declare(ev.MOVE_NOT_MADE)
class MoveNotMade(Event):
    """09.06 / 03.01 A free-play advance whose roll left it illegal: no model moves."""

    unit: Annotated[str, "the unit's id"]
    mode: Annotated[str, "'advance'"]
    advance_roll: Annotated[int, "the advance roll"]
    reason: Annotated[str, "why the move the roll left is illegal, citing the rule"]


@declare(ev.STATIONARY)
class RemainedStationary(Event):
    """09.02.01 The units the active player never selected to move remained stationary."""

    player: Annotated[str, "the active player's name"]
    units: Annotated[list[str], "the units' ids"]
    rule: Annotated[str, "'09.02.01'"]


@declare(ev.INGRESS)
class Ingress(Event):
    """20.04 A unit set up from strategic reserves."""

    unit: Annotated[str, "the unit's id"]
    to: Annotated[list[Placed], "each model and where it is set up"]
    oversized: NotRequired[Annotated[list[str], "the models set up touching a battlefield edge (03.02.02)"]]
    face: NotRequired[Annotated[list[Faced], "each model turned and the facing it ends at, degrees (03.01)"]]


@declare(ev.EMBARKED)
class Embarked(Event):
    """18.02 A unit embarked in a transport right after its move (off the battlefield now)."""

    unit: Annotated[str, "the unit's id"]
    transport: Annotated[str, "the transport's unit id"]


@declare(ev.DISEMBARKED)
class Disembarked(Event):
    """18.04 / 18.05 A unit set up out of its transport, in the mode the rules gave
    (sim.rules.transport.DisembarkMode); an emergency disembark's models that could not be set
    up are destroyed."""

    unit: Annotated[str, "the unit's id"]
    transport: Annotated[str, "the transport's unit id"]
    mode: Annotated[str, "'rapid disembark', 'tactical disembark', 'combat disembark' or 'emergency disembark'"]
    to: Annotated[list[Placed], "each model set up and where"]
    destroyed: NotRequired[Annotated[list[str], "18.05 the models that could not be set up, destroyed"]]
    engaged: NotRequired[Annotated[list[str], "the enemy units it was set up engaged with (18.04 Combat, 18.05)"]]
    battle_shocked: NotRequired[Annotated[bool, "true: battle-shocked now (18.04 Combat, 18.05)"]]
    face: NotRequired[Annotated[list[Faced], "each model turned and the facing it ends at, degrees (03.01)"]]


@declare(ev.DESTROYED_EMPTY)
class EmptyTransportDestroyed(Event):
    """18.01 A DEDICATED TRANSPORT with no unit embarked when the battle starts is destroyed,
    with no 'when destroyed' rules."""

    unit: Annotated[str, "the transport's unit id"]
    rule: Annotated[str, "'18.01'"]


@declare(ev.CHARGE)
class Charge(Event):
    """11.02 A charge declared and its roll made; then its move made or not made (11.04); or a
    Heroic Intervention's (15.11: no declared event). The dice of a declared charge's roll are
    the last dice event recorded before it (its Command Re-roll's when one was made: a decision
    or a stratagem may come between): ``charge_dice`` reads them."""

    unit: Annotated[str, "the charging unit's id"]
    roll: Annotated[int, "the charge roll: the 2D6's total, after any re-roll"]
    result: Annotated[Literal["declared", "made", "not made"], "what this event says: the roll made "
                                                               "(declared), then the move made or not"]
    targets: NotRequired[Annotated[list[str], "the charge's targets (empty when not made)"]]
    to: NotRequired[Annotated[list[Placed], "each model moved and where it ends (made)"]]
    fly: NotRequired[Annotated[bool, "true: taking to the skies (21.03)"]]
    note: NotRequired[Annotated[str, "a Heroic Intervention's, with its mode"]]
    face: NotRequired[Annotated[list[Faced], "each model turned and the facing it ends at, degrees (03.01)"]]


def charge_dice(events, unit: str) -> tuple[int, ...]:
    """The dice of ``unit``'s latest charge roll (its Command Re-roll's, if one was made): the
    last dice event before the unit's latest declared charge event. () if it has none."""
    declared = False
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if declared:
            if e["type"] == ev.DICE:
                return tuple(e["results"])
        elif e["type"] == ev.CHARGE and e["unit"] == unit and e["result"] == "declared":
            declared = True
    return ()


@declare(ev.PILED_IN)
class PiledIn(Event):
    """12.02 / 12.03 A pile-in move made (an overrun fight's too, 12.06)."""

    unit: Annotated[str, "the unit's id"]
    to: Annotated[list[Placed], "each model moved and where it ends"]
    note: NotRequired[Annotated[str, "an overrun fight's (12.06)"]]
    face: NotRequired[Annotated[list[Faced], "each model turned and the facing it ends at, degrees (03.01)"]]


@declare(ev.CONSOLIDATED)
class Consolidated(Event):
    """12.07 / 12.08 A consolidation move made."""

    unit: Annotated[str, "the unit's id"]
    to: Annotated[list[Placed], "each model moved and where it ends"]
    face: NotRequired[Annotated[list[Faced], "each model turned and the facing it ends at, degrees (03.01)"]]


@declare(ev.OVERRUN)
class OverrunFight(Event):
    """12.06 A unit selected to fight with the overrun fight type."""

    unit: Annotated[str, "the unit's id"]
    rule: Annotated[str, "'12.06'"]


@declare(ev.COHERENCY_REMOVED)
class CoherencyRemoval(Event):
    """03.03 End of turn: the models a unit out of coherency loses."""

    unit: Annotated[str, "the unit's id"]
    models: Annotated[list[str], "the models removed"]
    rule: Annotated[str, "'03.03'"]
