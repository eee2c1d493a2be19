"""A rule's dice options (sim.rules.effects.vocabulary.DICE_OPTIONS; Blessings of Khorne, the World
Eaters' army rule): at the start of each battle round its player rolls ``dice`` D6, then activates
up to ``picks`` of the rule's options that the roll affords, each paid with dice of its own (a die
pays for one option only); an option activated acts until the round ends (its grants read the
OPTION condition). Pure: how an option is written, what a roll affords, the default answer.

An option is named in the choice's ``options`` and paid as its ``needs`` (in the same order) say:
``"double 5+ or triple 2+"`` needs two dice showing the same value of 5 or more, or three the same
of 2 or more (``double 1+`` is any double)."""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

from sim.rules.effects import vocabulary as V
from sim.rules.effects.vocabulary import parse_need  # (re-exported: the vocabulary checks the needs with it)

NONE = V.NO_OPTION  # the answer activating no option
JOIN = V.OPTION_JOIN  # an answer activating several: their names joined so


def parse_options(choice) -> list[tuple[str, tuple[tuple[int, int], ...]]]:
    """(name, ways to pay) of each option of a DICE_OPTIONS choice, in its order."""
    return [(n, parse_need(t)) for n, t in zip(choice.options, choice.needs)]


def option_names(choice) -> list[str]:
    return list(choice.options)


def _payable(needs: Sequence[tuple[tuple[int, int], ...]], counts: dict[int, int]) -> bool:
    """Every option of ``needs`` (its ways to pay) paid with dice of its own from ``counts``
    (value -> dice showing it)."""
    if not needs:
        return True
    first, rest = needs[0], needs[1:]
    for n, low in first:
        for v in range(low, 7):
            if counts.get(v, 0) >= n:
                counts[v] -= n
                ok = _payable(rest, counts)
                counts[v] += n
                if ok:
                    return True
    return False


def affordable(choice, rolled: Sequence[int]) -> list[tuple[str, ...]]:
    """Every set of at most ``choice.picks`` options the dice ``rolled`` pay for together (each
    with dice of its own), in the record's order: the singles first, then the pairs..."""
    opts = parse_options(choice)
    counts: dict[int, int] = {}
    for r in rolled:
        counts[r] = counts.get(r, 0) + 1
    out = []
    for k in range(1, choice.picks + 1):
        for combo in combinations(range(len(opts)), k):
            if _payable([opts[i][1] for i in combo], counts):
                out.append(tuple(opts[i][0] for i in combo))
    return out


def answer_text(names: Sequence[str]) -> str:
    return JOIN.join(names) if names else NONE


def answers(choice, rolled: Sequence[int]) -> list[str]:
    """The decision's options: each affordable set as its answer text, then "none"."""
    return [answer_text(c) for c in affordable(choice, rolled)] + [NONE]


def default_answer(choice, rolled: Sequence[int], acting: frozenset | None = None) -> str:
    """The default player's answer: the affordable set with the most options that act (``acting``:
    the names of the options some grant reads; None: every option), then the one whose acting
    options come latest in the record (the options needing rarer rolls, listed last, do more),
    then the most options, ties to the first; "none" when the roll affords nothing."""
    order = {n: i for i, n in enumerate(option_names(choice))}
    acts = set(order) if acting is None else acting

    def rank(c):
        useful = [n for n in c if n in acts]
        return len(useful), sum(order[n] for n in useful), len(c)

    best = max(affordable(choice, rolled), key=rank, default=())
    return answer_text(best)


def acting_options(record) -> frozenset:
    """The options of a record's DICE_OPTIONS choice that some grant of it reads (OPTION)."""
    return frozenset(c[1] for g in record.grants for c in g.when.conditions if c[0] == V.OPTION)


def value_of(answer: str) -> list[str] | None:
    """The value kept for an answer (Resources.rule_choices): the names activated, None for none."""
    return None if answer == NONE else answer.split(JOIN)
