"""How the effects of datasheet abilities, army rules and detachment rules that act outside the
attack sequence change the battle (sim.rules.effects.vocabulary): pure functions of the effects
that act (sim.world.rule_effects.acting finds them) and of the numbers the phases read. One home
for each: a unit's Move (09.05-09.07), its advance roll (09.06), its charge roll (11.02), its OC
(14.02; battle-shocked: '-', 01.07), its Leadership (01.06, 02.02.01) and battle-shock roll
(01.07), re-rolls of those rolls (01.05.02), mortal wounds on a trigger (06.02), wounds regained
and models returned (with where a returned model is set up), and a stratagem's CP cost (15.01).
The choices a rule asks (RuleChoice) are sim.rules.effects.choices."""

from __future__ import annotations

import math
from typing import Iterable, Sequence

from sim.rules import command as CMD
from sim.rules.coherency import COHERENCY_LINK, COHERENCY_SPAN
from sim.rules.effects import vocabulary as V
from sim.rules.geometry import ENGAGEMENT_RANGE, Footprint, distance

# the rolls whose re-rolls are asked here (the attack sequence's are sim.rules.sequence's)
PHASE_ROLLS = ("advance", "charge", "battle-shock")
_WHICH_RANK = {V.ONES: 1, V.FAILED: 2, V.ANY: 3}


def modifier(effects: Iterable[V.Effect], stat: str) -> int:
    """The sum of the MODIFY effects on ``stat`` (02.02.01: modifiers are cumulative)."""
    return sum(e.value for e in effects if e.kind == V.MODIFY and e.stat == stat)


def kept_modifiers(effects: Iterable[V.Effect], stat: str) -> tuple[list[V.Effect], list[V.Effect]]:
    """A unit that may ignore any or all modifiers to ``stat`` (an IGNORE_MODIFIERS effect acts on
    it): the MODIFY effects it keeps (every bonus) and those it ignores (every penalty: ignoring
    a bonus never helps it), as (kept, ignored)."""
    kept, ignored = [], []
    for e in effects:
        (ignored if e.kind == V.MODIFY and e.stat == stat and e.value < 0 else kept).append(e)
    return kept, ignored


def modified_move(M: int, mod: int) -> int:
    """02.02.01 A Move characteristic after modifiers: never below 1" (caps after all modifiers;
    a model with no Move, 0, stays so)."""
    if int(M) <= 0:
        return int(M)
    return max(1, int(M) + int(mod))


CHARGE_CAP = 12  # 02.02.01 / 11.02: a charge roll is capped at 12 after modifiers


def modified_roll(total: int, mod: int, cap: int | None = None) -> int:
    """01.05.04 An advance or charge roll after modifiers (the dice's total plus the sum of
    modifiers), never below 0 and, given a ``cap`` (a charge roll's CHARGE_CAP, 02.02.01), never
    above it."""
    out = max(0, int(total) + int(mod))
    return out if cap is None else min(cap, out)


def modified_oc(oc: int, mod: int, shocked: bool) -> int | None:
    """14.02 / 01.07 A model's OC after modifiers: '-' (None) while battle-shocked, which nothing
    raises; else never below 0 (sim.rules.command.oc_while)."""
    return CMD.oc_while(int(oc) + int(mod), shocked)


def modified_leaderships(lds: Sequence[int], improve: int) -> list[int]:
    """02.02.01 Each model's Ld after modifiers (+1 improves: 7+ becomes 6+; never 4+ or better
    nor 9+ or worse: sim.rules.command.modified_ld)."""
    return [CMD.modified_ld(ld, improve) for ld in lds]


def battle_shock_passes(total: int, mod: int, lds: Sequence[int]) -> bool:
    """01.06 / 01.07 A battle-shock roll with a modifier to the roll: 2D6 plus ``mod`` against the
    unit's best Ld."""
    return CMD.leadership_passes(int(total) + int(mod), lds)


def reroll_which(effects: Iterable[V.Effect], stat: str) -> str | None:
    """The broadest REROLL of ``stat`` among the effects (ANY before FAILED before ONES), or
    None (01.05.02: a die is re-rolled once at most, so only one applies)."""
    best = None
    for e in effects:
        if e.kind == V.REROLL and e.stat == stat and (best is None or _WHICH_RANK[e.which] > _WHICH_RANK[best]):
            best = e.which
    return best


def automatic_reroll(which: str, dice: Sequence[int], failed: bool) -> list[int] | None:
    """01.05.02 A re-roll that needs no choice: FAILED re-rolls the whole roll when it failed
    (a battle-shock roll, a charge roll that reaches no enemy); ONES re-rolls the dice showing 1.
    Returns the indices of the dice re-rolled (None: none; ANY is the player's choice:
    ``default_reroll``)."""
    if which == V.FAILED:
        return list(range(len(dice))) if failed else None
    if which == V.ONES:
        ones = [i for i, d in enumerate(dice) if d == 1]
        return ones or None
    return None


def default_reroll(stat: str, dice: Sequence[int], failed: bool) -> bool:
    """The default player's answer to "re-roll it?" for a roll the rule lets it re-roll at will
    (ANY): a failed battle-shock roll, a charge roll that reaches no enemy unit, an advance roll
    of 1 or 2."""
    if stat == "advance":
        return sum(dice) <= 2
    return bool(failed)


def triggered_mortal_wounds(roll_needed: int, die: int | None) -> bool:
    """06.02 A MORTAL_WOUNDS effect on a trigger goes off on a D6 of ``roll_needed`` or more (0:
    always, no die rolled)."""
    return roll_needed <= 0 or (die is not None and die >= roll_needed)


def regain(n: int, wounded: Sequence[tuple[str, int, int]],
           destroyed: Sequence[tuple[str, int]]) -> tuple[dict, list]:
    """A RETURN of ``n`` wounds (the community reading of 11th-edition reanimation): each point
    first heals a wounded living model by 1 (the most wounds lost first, then listed order);
    once none is wounded it returns a destroyed model (listed order) with 1 wound left, which
    the points left over heal like any other. ``wounded``: (model id, wounds left, W) of each
    living model, listed order; ``destroyed``: (model id, W) of each destroyed model that could
    come back. Returns ({model id: wounds gained}, [model ids returned, in order]); a returned
    model's gain counts its first wound."""
    left = {mid: rem for mid, rem, _w in wounded}
    full = {mid: w for mid, _rem, w in wounded}
    order = [mid for mid, _rem, _w in wounded]
    gains: dict[str, int] = {}
    back: list[str] = []
    queue = list(destroyed)
    for _ in range(max(0, int(n))):
        hurt = [m for m in order if left[m] < full[m]]
        if hurt:
            m = min(hurt, key=lambda k: (left[k] - full[k], order.index(k)))
            left[m] += 1
            gains[m] = gains.get(m, 0) + 1
            continue
        if not queue:
            break
        m, w = queue.pop(0)
        back.append(m)
        order.append(m)
        left[m], full[m] = 1, int(w)
        gains[m] = 1
    return gains, back


def regain_one(n: int, wounded: Sequence[tuple[str, int, int]]) -> dict:
    """A RETURN of ONE_MODEL: one wounded living model regains up to ``n`` lost wounds (never
    above its W; no destroyed model returns): the one that lost the most wounds (ties: listed
    order). ``wounded``: (model id, wounds left, W) of each living model. Returns {model id:
    wounds gained} (empty when none is wounded)."""
    hurt = [(rem - w, i, mid, w - rem) for i, (mid, rem, w) in enumerate(wounded) if rem < w]
    if not hurt or n <= 0:
        return {}
    _gap, _i, mid, lost = min(hurt)
    return {mid: min(int(n), lost)}


def place_returned(fp: Footprint, unit: Sequence[Footprint], others: Sequence[Footprint],
                   enemies: Sequence[Footprint], board: tuple[float, float], gap: float = 0.25) -> tuple[float, float] | None:
    """Where a returned model is set up: touching-distance ``gap`` from a living model of its
    unit (so within 2" of one: in coherency, 03.03, and within 9" of every other), wholly on the
    battlefield, on no other base and not within engagement range (03.04) of an enemy model.
    Tried around each living model in listed order, at twelve bearings from 0 degrees; the
    first that fits is taken. None: no place fits (the model stays destroyed)."""
    W_, H_ = float(board[0]), float(board[1])
    r_new = fp.bounding_radius
    for host in unit:
        ring = host.bounding_radius + r_new + gap
        for k in range(12):
            a = math.radians(30 * k)
            x, y = host.x + ring * math.cos(a), host.y + ring * math.sin(a)
            if x - r_new < 0 or y - r_new < 0 or x + r_new > W_ or y + r_new > H_:
                continue
            cand = fp.moved(x, y)
            if any(distance(cand, o) <= 0.0 for o in others):
                continue
            if any(distance(cand, e) <= ENGAGEMENT_RANGE for e in enemies):
                continue
            if not any(distance(cand, u) <= COHERENCY_LINK for u in unit):
                continue
            if any(distance(cand, u) > COHERENCY_SPAN for u in unit):
                continue
            return round(x, 4), round(y, 4)
    return None


def stratagem_cost_modifier(effects: Iterable[V.Effect], name: str) -> int:
    """15.01 The modifier to a stratagem's CP cost for a unit from the STRATAGEM_COST effects
    acting on it (those naming this stratagem, or every one: ability ""); the cost itself, with
    15.01.01's bounds (raised by at most 1, never below 0), is sim.rules.stratagems.cost."""
    return sum(e.value for e in effects if e.kind == V.STRATAGEM_COST and e.ability in ("", name))
