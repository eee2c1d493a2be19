"""15.02 Command Re-roll: which dice are worth offering (sim.rules.command_reroll). A die is
offered when some face of it gives a better result under the rules the step applies: a failed
hit or wound; a hit or wound that is not critical when an ability acting in the pool does more
with a critical one (the registry's hooks); an attack-count or damage die below its highest
face. Never a hit roll under indirect or snap shooting, nor with [TORRENT]."""

from __future__ import annotations

from hypothesis import given, strategies as st

from sim.rules import abilities as AB
from sim.rules.abilities import Hook
from sim.rules.abilities.registry import REGISTRY, WEAPON
from sim.rules.attack import CRITICAL, FAIL, SUCCESS, hit_result, wound_result
from sim.rules.command_reroll import better_faces, critical_matters, raisable
from sim.rules.dice import DiceExpr, ForcedDice
from sim.rules.pools import apply_pool_effects
from sim.rules.sequence import PoolState, hit_rerollable, judge_hits, judge_wounds, wound_rerollable

D1 = DiceExpr(0, 0, 1)
HIT_3 = (None,) + tuple(hit_result(f, 3) for f in range(1, 7))  # fails 1-2, hits 3-5, critical 6


def _pool(acting=()) -> PoolState:
    p = PoolState(4, 3, 4, 0, D1, 4)  # hits on 3+, wounds T4 on 4+
    p.acting = frozenset(acting)
    return p


def test_15_02_better_faces_a_failed_face_always_a_success_only_when_a_critical_counts():
    assert better_faces(HIT_3, False) == {1, 2}
    assert better_faces(HIT_3, True) == {1, 2, 3, 4, 5}
    # a critical is never bettered; nor is anything when every face is alike
    assert 6 not in better_faces(HIT_3, True)
    assert better_faces((None,) + (FAIL,) * 6, True) == frozenset()
    # [ANTI] 4+ against its keyword: 4-6 are critical wounds already
    anti = (None,) + tuple(wound_result(f, 4, 4, 0, 4) for f in range(1, 7))
    assert better_faces(anti, True) == {1, 2, 3}


@given(st.lists(st.sampled_from([FAIL, SUCCESS, CRITICAL]), min_size=6, max_size=6), st.booleans())
def test_15_02_better_faces_offers_exactly_the_faces_another_face_betters(results, counts):
    faces = (None, *results)
    rank = {f: (r if counts else min(r, SUCCESS)) for f, r in enumerate(results, 1)}
    better = better_faces(faces, counts)
    for f in range(1, 7):
        assert (f in better) == any(rank[g] > rank[f] for g in range(1, 7))
    assert not any(results[f - 1] == CRITICAL for f in better)
    if not counts:
        assert all(results[f - 1] == FAIL for f in better)


def test_15_02_critical_matters_reads_the_registry_hooks():
    assert critical_matters(frozenset({Hook.CRITICAL_HIT_EFFECT}), Hook.CRITICAL_HIT_EFFECT)
    assert not critical_matters(frozenset({Hook.CRITICAL_WOUND_MORTALS}), Hook.CRITICAL_HIT_EFFECT)
    assert not critical_matters(frozenset(), Hook.CRITICAL_WOUND_MORTALS)


def test_15_02_raisable_every_face_but_the_highest():
    assert [raisable(v, 6) for v in range(1, 7)] == [True] * 5 + [False]
    assert [raisable(v, 3) for v in range(1, 4)] == [True, True, False]


def test_15_02_hit_rerollable_a_non_critical_hit_only_when_a_critical_hit_counts():
    rolls = [1, 2, 3, 5, 6]
    assert hit_rerollable(_pool(), rolls) == [0, 1]
    assert hit_rerollable(_pool({Hook.CRITICAL_WOUND_MORTALS}), rolls) == [0, 1]  # (a wound's, not a hit's)
    assert hit_rerollable(_pool({Hook.CRITICAL_HIT_EFFECT}), rolls) == [0, 1, 2, 3]
    # never under 15.09 snap shooting, 10.07 indirect shooting or [TORRENT], criticals or not
    for attr, value in (("snap", True), ("hit_fail_below", 4), ("torrent", True)):
        p = _pool({Hook.CRITICAL_HIT_EFFECT})
        setattr(p, attr, value)
        assert hit_rerollable(p, rolls) == [], attr


def test_15_02_wound_rerollable_a_non_critical_wound_only_when_a_critical_wound_counts():
    rolls = [1, 3, 4, 5, 6]
    assert wound_rerollable(_pool(), rolls) == [0, 1]
    assert wound_rerollable(_pool({Hook.CRITICAL_HIT_EFFECT}), rolls) == [0, 1]
    assert wound_rerollable(_pool({Hook.CRITICAL_WOUND_MORTALS}), rolls) == [0, 1, 2, 3]
    assert wound_rerollable(_pool({Hook.CRITICAL_WOUND_MORTALS}), rolls, {2: 4}) == [0, 1, 3]  # 01.05.02
    p = _pool({Hook.CRITICAL_WOUND_MORTALS})
    p.critical_wound_on = 4  # 24.03: 4+ critical already
    assert wound_rerollable(p, rolls) == [0, 1]


def _ability(r):
    text = {"count": f"{r.name} 2", "dice": f"{r.name} 1", "keyword roll": f"{r.name}-VEHICLE 4+"}.get(r.value, r.name)
    (a,) = AB.parse_weapon_abilities(text, "w")
    return a


def _acting(abilities, answer=None) -> PoolState:
    p = _pool()
    assert apply_pool_effects(abilities, p, lambda choice: answer or choice.otherwise)
    return p


def test_15_02_the_critical_hooks_match_what_each_ability_does_with_a_critical():
    """Every ability in the registry whose pool effect makes a critical hit (wound) do more than
    a hit (wound) has the hook the offer reads, and no other: a new ability keyed on critical
    results is offered for by its record alone."""
    def hit_outcome(p, face):
        rec = judge_hits(p, [face], ForcedDice([]))
        return rec["hits"], rec["lethal"], rec["sustained"]

    def wound_outcome(p, face):
        rec = judge_wounds(p, [face], {})
        return rec["wounds"], rec["devastating"]

    keyed = {Hook.CRITICAL_HIT_EFFECT: set(), Hook.CRITICAL_WOUND_MORTALS: set()}
    for r in REGISTRY.values():
        if r.scope != WEAPON or r.pool is None:
            continue
        p = _acting((_ability(r),))
        if hit_outcome(p, 6) != hit_outcome(p, 5):
            keyed[Hook.CRITICAL_HIT_EFFECT].add(r.name)
        if wound_outcome(p, 6) != wound_outcome(p, 5):
            keyed[Hook.CRITICAL_WOUND_MORTALS].add(r.name)
        for hook in keyed:
            assert (r.name in keyed[hook]) == (hook in p.acting), (r.name, hook)
    assert keyed[Hook.CRITICAL_HIT_EFFECT] and keyed[Hook.CRITICAL_WOUND_MORTALS]


def test_15_02_an_ability_whose_choice_is_declined_does_not_act():
    lethal = next(_ability(r) for r in REGISTRY.values() if r.choice is not None)
    devastating = _ability(AB.with_hook(Hook.CRITICAL_WOUND_MORTALS))
    taken = _acting((lethal, devastating), "take")
    assert Hook.CRITICAL_HIT_EFFECT in taken.acting and taken.lethal
    declined = _acting((lethal, devastating), lethal.spec.choice.off)
    assert Hook.CRITICAL_HIT_EFFECT not in declined.acting and not declined.lethal
    assert Hook.CRITICAL_WOUND_MORTALS in declined.acting
    assert hit_rerollable(declined, [4]) == [] and hit_rerollable(taken, [4]) == [0]
