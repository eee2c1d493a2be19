"""06.02 Mortal wounds: one at a time, model selection order (wounded non-CHARACTER,
non-CHARACTER, wounded CHARACTER, CHARACTER), spill-over, stop when the unit is destroyed."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sim.rules.allocation import TargetModel
from sim.rules.mortal import mortal_wound_target, resolve_mortal_wounds


def M(id, W=2, rem=None, char=False):
    return TargetModel(id, W, W if rem is None else rem, 3, None, char)


def rem_of(models):
    return {m.id: m.remaining for m in models}


def losses(steps):
    """resolve_mortal_wounds' records (one per mortal wound) as [(model id, wounds lost)],
    merged per consecutive model."""
    out = []
    for s in steps:
        if out and out[-1][0] == s["model"]:
            out[-1] = (s["model"], out[-1][1] + s["lost"])
        else:
            out.append((s["model"], s["lost"]))
    return out


def test_06_02_order_wounded_non_character_first():
    models = [M("cap", W=5, rem=1, char=True), M("a"), M("b", rem=1)]
    assert mortal_wound_target(models, rem_of(models)) == "b"


def test_06_02_then_any_non_character_in_listed_order():
    models = [M("cap", W=5, rem=1, char=True), M("a"), M("b")]
    assert mortal_wound_target(models, rem_of(models)) == "a"


def test_06_02_then_wounded_character():
    models = [M("cap", W=5, char=True), M("lt", W=5, rem=3, char=True), M("a", rem=0)]
    assert mortal_wound_target(models, rem_of(models)) == "lt"


def test_06_02_then_any_character():
    models = [M("a", rem=0), M("cap", W=5, char=True), M("lt", W=5, char=True)]
    assert mortal_wound_target(models, rem_of(models)) == "cap"


def test_06_02_none_when_destroyed():
    models = [M("a", rem=0), M("cap", W=5, rem=-2, char=True)]
    assert mortal_wound_target(models, rem_of(models)) is None


def test_06_02_spill_one_at_a_time_through_the_order():
    """7 mortal wounds at [cap W3 (wounded to 2), a W2, b W2 (wounded to 1)]:
    b 1, a 2, cap 2 (destroyed), the 6th and 7th are lost."""
    models = [M("cap", W=3, rem=2, char=True), M("a"), M("b", rem=1)]
    remaining = rem_of(models)
    out = resolve_mortal_wounds(7, models, remaining)
    assert losses(out) == [("b", 1), ("a", 2), ("cap", 2)]
    assert [s["destroyed"] for s in out] == [True, False, True, False, True]
    assert remaining == {"cap": 0, "a": 0, "b": 0}


def test_06_02_partial_spill_leaves_wounded_model():
    models = [M("a", W=3), M("b", W=3)]
    remaining = rem_of(models)
    assert losses(resolve_mortal_wounds(4, models, remaining)) == [("a", 3), ("b", 1)]
    assert remaining == {"a": 0, "b": 2}


@given(st.lists(st.tuples(st.integers(1, 5), st.integers(0, 4), st.booleans()), min_size=1, max_size=8),
       st.integers(0, 30))
def test_06_02_invariants(specs, n):
    models = [TargetModel(f"m{i}", w, max(w - lost, 1), 3, None, ch) for i, (w, lost, ch) in enumerate(specs)]
    remaining = rem_of(models)
    total = sum(remaining.values())
    out = losses(resolve_mortal_wounds(n, models, remaining))
    assert all(v >= 0 for v in remaining.values())
    assert sum(k for _m, k in out) == min(n, total)
    # no CHARACTER model loses a wound while a non-CHARACTER model is alive
    chars = {m.id for m in models if m.character}
    first_char = next((i for i, (mid, _k) in enumerate(out) if mid in chars), None)
    if first_char is not None:
        # every non-CHARACTER model is dead by then: all non-CHARACTER losses precede
        assert all(mid in chars for mid, _k in out[first_char:])
        assert all(remaining[m.id] == 0 for m in models if not m.character)


def test_24_12_feel_no_pain_is_rolled_per_mortal_wound():
    """06.02 + 24.12: each mortal wound goes to the model 06.02 picks and is offered to its Feel
    No Pain; a saved one is not lost and the next goes to the same (now or still wounded) model."""
    from sim.rules.dice import ForcedDice
    models = [TargetModel("a", 2, 2, 3, None, False), TargetModel("b", 2, 2, 3, None, False)]
    remaining = {"a": 2, "b": 2}
    dice = ForcedDice([5, 2, 6, 1])  # FNP 5+: saved, lost, saved, lost
    steps = resolve_mortal_wounds(4, models, remaining, {"a": 5, "b": 5}, dice)
    assert [(s["model"], s["lost"], s["fnp"]) for s in steps] == [
        ("a", 0, [5]), ("a", 1, [2]), ("a", 0, [6]), ("a", 1, [1])]
    assert remaining == {"a": 0, "b": 2}
    assert steps[-1]["destroyed"] and dice.remaining == 0
