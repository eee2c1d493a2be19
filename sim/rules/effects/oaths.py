"""Oaths (a record's OATH grant switches them on; Imperial Knights' Code Chivalric is the one in
the data), pure: before the battle the army swears an oath of one Deed and one Quality, each
selected or rolled on a D6 (the rule's table below); the Quality's ability acts all battle (the
record's grants under the condition "oath quality"); the first time the Deed is done the oath is
fulfilled: the army is Honoured until the battle ends (the condition "honoured", for the rules
that read it) and gains the OATH grant's CP, one more if the deed or the quality was rolled
(those CP are not held to the [EC] cap of 1 CP per battle round from other sources).

Which deed is done is judged from facts the battle reads at the deed's moment (:class:`DeedFacts`);
sim.phases.oaths asks the choice, reads the facts and keeps the oath in Resources.oaths."""

from __future__ import annotations

from dataclasses import dataclass

RANDOM = "random"  # the answer that rolls a part of the oath instead of selecting it

# when a deed is judged
END_OF_TURN = "end of turn"  # the end of every turn
END_OF_ENEMY_TURN = "end of the opponent's turn"
END_OF_ROUND = "end of battle round"

# what a deed asks (its completion test, deed_done)
TALLY = "tally"  # more enemy units destroyed this battle round than its number
REALM = "realm"  # more objective markers controlled than the opponent
TYRANT = "tyrant"  # the enemy CHARACTER model picked at the start of the battle is destroyed


@dataclass(frozen=True, slots=True)
class Deed:
    key: str
    name: str  # as printed
    rolls: tuple[int, ...]  # the D6 results that roll it
    moment: str  # when it is judged
    summary: str  # our words
    short: str = ""  # a few words


@dataclass(frozen=True, slots=True)
class Quality:
    key: str
    name: str
    rolls: tuple[int, ...]
    summary: str
    short: str = ""


DEEDS = {d.key: d for d in (
    Deed(TYRANT, "We vow to lay low the tyrant...", (1, 2), END_OF_TURN,
         "pick an enemy CHARACTER model at the start of the battle; done at the end of a turn once it is destroyed",
         "the CHARACTER picked destroyed"),
    Deed(REALM, "We swear to reclaim the realm...", (3, 4), END_OF_ENEMY_TURN,
         "done at the end of the opponent's turn while your army holds more objective markers than theirs",
         "more objectives at the end of their turn"),
    Deed(TALLY, "We pledge to reap a great tally...", (5, 6), END_OF_ROUND,
         "done at the end of a battle round in which more enemy units were destroyed than its number",
         "more enemy units destroyed in a round than its number"),
)}

VALOUR, EAGER, LEGACY = "valour", "eager", "legacy"
QUALITIES = {q.key: q for q in (
    Quality(VALOUR, "...with our martial valour risen over all.", (1, 2),
            "one hit roll and one wound roll re-rolled each time a model shoots or fights (not modelled: no effect)",
            "(not modelled)"),
    Quality(EAGER, "...and we are eager for the challenge.", (3, 4), "+2\" Move, +1 to Advance and Charge rolls",
            "+2\" M, +1 Advance and Charge"),
    Quality(LEGACY, "...yet shall our legacy be unsullied.", (5, 6), "+2 OC and Leadership improved by 1",
            "+2 OC, Ld 1 better"),
)}

DEFAULT_DEED, DEFAULT_QUALITY = REALM, EAGER  # the default player's oath (a deed any army with objectives can do)


@dataclass(frozen=True, slots=True)
class DeedFacts:
    """What a deed's test reads at its moment, for the army that swore it."""

    moment: str  # the moment now: END_OF_TURN, or END_OF_ROUND (which is also a turn's end)
    own_turn: bool  # the turn that ends is the army's own
    battle_round: int
    enemy_units_destroyed_this_round: int = 0  # destroyed this battle round, returned since or not
    objectives_controlled: int = 0
    objectives_controlled_by_opponent: int = 0
    tyrant_destroyed: bool = False  # the CHARACTER model picked for TYRANT is destroyed


def options(table: dict) -> list[str]:
    """What may be answered for a part of the oath: each entry's key (table order), or RANDOM."""
    return [*table, RANDOM]


def oath_options() -> list[str]:
    """The answers to the oath decision: "<deed> / <quality>", each part a key or RANDOM."""
    return [f"{d} / {q}" for d in options(DEEDS) for q in options(QUALITIES)]


def legend() -> list[str]:
    """What each part of an oath answer names, in short (the sandbox shows it over the options)."""
    def part(table):
        return "; ".join(f"{k} ({e.rolls[0]}-{e.rolls[-1]}) {e.short}" for k, e in table.items())
    return [f"deeds: {part(DEEDS)}", f"qualities: {part(QUALITIES)}", f"{RANDOM}: rolled on a D6, one more CP"]


def parse(answer: str) -> tuple[str, str]:
    """An oath answer's (deed, quality) parts ("realm / eager" -> ("realm", "eager")). Raises
    ValueError naming what is expected."""
    parts = [p.strip() for p in str(answer).split("/")]
    if len(parts) != 2 or parts[0] not in options(DEEDS) or parts[1] not in options(QUALITIES):
        raise ValueError(f"an oath is \"<deed> / <quality>\" with a deed of {options(DEEDS)} and a quality of "
                         f"{options(QUALITIES)}, not {answer!r}")
    return parts[0], parts[1]


def rolled(table: dict, d6: int) -> str:
    """The entry of ``table`` a D6 result rolls."""
    for key, entry in table.items():
        if d6 in entry.rolls:
            return key
    raise ValueError(f"no entry for a D6 of {d6}")


def reward(cp: int, randomly: bool) -> int:
    """The CP an oath fulfilled gains: the OATH grant's ``cp``, one more when the deed or the
    quality was rolled at random."""
    return cp + 1 if randomly else cp


def judged_now(deed: str, moment: str, own_turn: bool) -> bool:
    """The deed is judged at this moment (END_OF_ROUND comes after that turn's END_OF_TURN)."""
    m = DEEDS[deed].moment
    if m == END_OF_TURN:
        return moment == END_OF_TURN
    if m == END_OF_ENEMY_TURN:
        return moment == END_OF_TURN and not own_turn
    return moment == END_OF_ROUND


def deed_done(deed: str, f: DeedFacts) -> bool:
    """Whether ``deed`` is done now (at its moment: judged_now; else False)."""
    if not judged_now(deed, f.moment, f.own_turn):
        return False
    if deed == TALLY:
        return f.enemy_units_destroyed_this_round > f.battle_round
    if deed == REALM:
        return f.objectives_controlled > f.objectives_controlled_by_opponent
    if deed == TYRANT:
        return f.tyrant_destroyed
    raise ValueError(f"unknown deed {deed!r}")


def progress(deed: str, f: DeedFacts) -> str:
    """Where the deed stands at its moment, in words (the log's ``deed`` event)."""
    if deed == TALLY:
        return (f"{f.enemy_units_destroyed_this_round} enemy unit(s) destroyed this battle round "
                f"(more than {f.battle_round} needed)")
    if deed == REALM:
        return f"{f.objectives_controlled} objective marker(s) controlled against {f.objectives_controlled_by_opponent}"
    return "the CHARACTER picked is destroyed" if f.tyrant_destroyed else "the CHARACTER picked is not destroyed"
