"""The choices rules ask of their players (sim.rules.effects.vocabulary.RuleChoice), pure: when
one is asked, what may be answered, the default player's answer, and when a choice made stops
holding. The battle asks them as ``rule_choice`` decisions at the start of the choice's phase
in its player's turn (sim.phases.rule_choices)."""

from __future__ import annotations

from typing import Sequence

from sim.rules.effects import vocabulary as V

CALL, DECLINE = "call", "decline"
CALL_RANGE = 12.0  # the default player calls a CALL rule once an enemy unit is this close...
CALL_BY_ROUND = 3  # ...or in this battle round at the latest


def uses_left(choice: V.RuleChoice, used: int) -> bool:
    """The rule may still be chosen: unlimited (uses 0), or fewer uses made than it allows."""
    return choice.uses <= 0 or used < choice.uses


def options(choice: V.RuleChoice, enemies: Sequence[str]) -> list:
    """What may be answered: PICK_ENEMY an enemy unit on the battlefield (its id); PICK_FRIEND an
    eligible friendly unit (``enemies`` are then those candidates' ids); PICK_OPTION one of the
    rule's options (by name); CALL "call" or "decline". An empty list: nothing to pick, the choice
    is not asked."""
    if choice.kind in (V.PICK_ENEMY, V.PICK_FRIEND):
        return list(enemies)
    if choice.kind == V.PICK_OPTION:
        return list(choice.options)
    return [CALL, DECLINE]


def default_answer(choice: V.RuleChoice, enemies: Sequence[tuple[str, float]], round_: int):
    """The default player's answer: PICK_ENEMY the enemy unit nearest its units (the one they
    can most likely attack; ``enemies``: (unit id, distance) in unit order, ties to the first);
    PICK_FRIEND the eligible friendly unit nearest a bearer (``enemies``: (unit id, distance to
    the nearest bearer) of the candidates); PICK_OPTION the first option the record lists (the
    one it finds best most often); CALL "call" once an enemy unit is within 12" of one of its
    units, or from battle round 3."""
    if choice.kind in (V.PICK_ENEMY, V.PICK_FRIEND):
        return min(enemies, key=lambda e: e[1])[0] if enemies else None
    if choice.kind == V.PICK_OPTION:
        return choice.options[0]
    near = any(d <= CALL_RANGE for _u, d in enemies)
    return CALL if near or round_ >= CALL_BY_ROUND else DECLINE


def default_friends(rec: V.RuleRecord, candidates: Sequence[str]):
    """The default player's next pick of a PICK_FRIENDS choice: none (V.DONE) for a
    rule that takes the units picked off the battlefield (TO_RESERVES: it keeps them fighting),
    else the first candidate in unit order (a deployment ability is worth having)."""
    if not candidates or any(g.what.kind == V.TO_RESERVES for g in rec.grants):
        return V.DONE
    return candidates[0]


def value_of(choice: V.RuleChoice, answer):
    """The value kept for an answer (Resources.rule_choices): the unit id picked (enemy or
    friendly) or the option's name, True for a call, None for a decline (nothing is kept)."""
    if choice.kind in (V.PICK_ENEMY, V.PICK_FRIEND, V.PICK_OPTION):
        return answer
    return True if answer == CALL else None


def friend_grant(rec: V.RuleRecord) -> V.Grant | None:
    """The grant of a PICK_FRIEND rule whose range and keywords say which friendly units may be
    picked (its first CHOSEN_FRIEND grant)."""
    return next((g for g in rec.grants if g.who == V.CHOSEN_FRIEND), None)


def expired(lasts: str, made_round: int, made_player: int, now_round: int, now_player: int,
            owner: int, phase: str) -> bool:
    """Whether a choice made in battle round ``made_round``, ``made_player``'s turn, no longer
    holds at the start of ``phase`` of ``now_player``'s turn in ``now_round``: THIS_TURN once
    another turn begins; THIS_ROUND once another round begins; UNTIL_YOUR_NEXT_COMMAND at the
    start of its owner's next Command phase; UNTIL_NEXT_CHOICE never (the next choice replaces
    it)."""
    if lasts == V.THIS_TURN:
        return (now_round, now_player) != (made_round, made_player)
    if lasts == V.THIS_ROUND:
        return now_round != made_round
    if lasts == V.UNTIL_YOUR_NEXT_COMMAND:
        return now_player == owner and phase == "command" and (now_round, now_player) != (made_round, made_player)
    return False


# option choices that keep their picks (V.KEPT) and choices asked in some battle rounds only
def options_left(choice: V.RuleChoice, picked) -> list[str]:
    """The options of a KEPT PICK_OPTION choice not picked yet (``picked``: the picks kept so far,
    of its rule or of the rule it adds to), in the record's order."""
    picked = [picked] if isinstance(picked, str) else picked
    return [o for o in choice.options if o not in picked]


def picked_value(before, answer: str) -> list[str]:
    """The options in force once ``answer`` is picked: the earlier picks, then it."""
    before = [before] if isinstance(before, str) else before
    return [*(before or []), answer]


def asked_in_round(choice: V.RuleChoice, round_: int, asked: bool) -> bool:
    """A choice limited to some battle rounds (``rounds``) is asked in those only, once each
    (``asked``: already answered in this round); others every time."""
    if not choice.rounds:
        return True
    return round_ in choice.rounds and not asked


def round_key(choice_key: str, round_: int) -> str:
    """The Resources.rule_uses key marking a choice limited to some rounds as answered in one."""
    return f"{choice_key}|round {round_}"
