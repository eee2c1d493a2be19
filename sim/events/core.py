"""The battle's own events: its input (commands, refusals, decisions), its dice and the end of
a turn. Declarations only (sim.events.schema says how to read them)."""

from typing import Annotated, Any, NotRequired, TypedDict

from sim import events as ev
from sim.events.schema import registrar

DECLARED: dict[str, type] = {}
declare = registrar(DECLARED)


class Event(TypedDict):
    """What every event holds."""

    type: Annotated[str, "the event's type: one of the names sim.events declares"]


CommandReroll = TypedDict("CommandReroll", {  # ("from" is a Python keyword)
    "die": Annotated[int, "the index of the die re-rolled, in the roll as its event lists it"],
    "from": Annotated[int, "its result before the re-roll"],
    "to": Annotated[int, "its result after"],
})
CommandReroll.__doc__ = "15.02 A Command Re-roll of one die: which die, and its result before and after."

# a model placed: [model id, x, y] (inches; a list in the logs)
Placed = tuple[str, float, float]
# a model turned: [model id, degrees] (03.01 the facing it was set up or moved to; a list in the logs)
Faced = tuple[str, float]


def faced(face) -> dict:
    """The ``face`` field of a move's or set-up's event for a command's ``face`` ((model id,
    degrees), ...): nothing when it turned no model, so an event without a turn reads as before."""
    return {"face": [[mid, a] for mid, a in face]} if face else {}


@declare(ev.DICE)
class Dice(Event):
    """01.05 Dice rolled (every roll of the battle's dice stream, in order: Battle._on_roll)."""

    purpose: Annotated[str, "what the roll is for, in words for people ('hit rolls', 'charge roll "
                            "squad'): never parsed, a reader that needs to know reads the event the "
                            "roll belongs to"]
    results: Annotated[list[int], "each die's result, in the order rolled"]


@declare(ev.COMMAND)
class Command(Event):
    """A command accepted (Battle.submit); the replay log writes it as its command line."""

    command: Annotated[dict[str, Any], "the command as its record writes it (sim.commands.to_dict)"]


@declare(ev.REFUSED)
class Refused(Event):
    """A command refused: nothing else happened (Battle.submit)."""

    command: Annotated[dict[str, Any], "the command as its record writes it (sim.commands.to_dict)"]
    reason: Annotated[str, "why, citing the rule"]


@declare(ev.DECISION)
class Decision(Event):
    """A decision answered (Battle.answer)."""

    kind: Annotated[str, "the request's kind (DecisionRequest.kind: 'precision', 'stratagem', ...)"]
    key: Annotated[str, "the request's key: which one ('pool 0', 'Command Re-roll: squad hit 1: 2')"]
    player: Annotated[int, "the deciding player's index (0 or 1)"]
    answer: Annotated[Any, "the answer accepted (one of the request's options, or an order of them)"]
    scripted: NotRequired[Annotated[Any, "the script's standing answer, when fitting it to the request "
                                         "changed it (sim.plan.answers.fit_scripted_answer)"]]
    note: NotRequired[Annotated[str, "how the script's answer was fitted (with scripted)"]]


@declare(ev.LEFT_OUT)
class LeftOut(Event):
    """The models a script step's targets shorthand did not select, and why (sim.players.resolve)."""

    step: Annotated[str, "the script step ('script[3]')"]
    unit: Annotated[str, "the unit's id"]
    models: Annotated[list[tuple[str, str, str, str]], "[model id, weapon, target unit, why not] for each "
                                                       "model and weapon left out"]


@declare(ev.TURN)
class Turn(Event):
    """The end of a turn: the per-turn state is reset (sim.phases.upkeep.roll_over_turn)."""

    turn: Annotated[int, "the battle's turn count, from 1, after this end of turn"]
    phased: NotRequired[Annotated[bool, "true in a battle with a mission (its phase events tell the "
                                        "turn: the report prints nothing for this one)"]]
