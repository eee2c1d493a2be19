"""05.03 Save rolls: allocation groups (one per CHARACTER; others by W, Sv, InSv) and the three
constraints on the allocation order; 05.04.01 the current allocation group."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sim.rules.allocation import (TargetModel, allocation_groups, current_group, default_order,
                                  order_problems, select_model)


def M(id, W=2, rem=None, Sv=3, InSv=None, char=False):
    return TargetModel(id, W, W if rem is None else rem, Sv, InSv, char)


def keys(groups):
    return [g.key for g in groups]


def test_05_03_groups_by_w_sv_insv_and_one_per_character():
    models = [M("a"), M("b"), M("c", W=3), M("d", Sv=4), M("e", InSv=4), M("f"),
              M("cap", W=5, char=True), M("lt", W=5, char=True)]
    gs = allocation_groups(models)
    assert [(g.key, g.members, g.character) for g in gs] == [
        ("a", ("a", "b", "f"), False), ("c", ("c",), False), ("d", ("d",), False),
        ("e", ("e",), False), ("cap", ("cap",), True), ("lt", ("lt",), True)]


def test_05_03_identical_characters_are_separate_groups():
    gs = allocation_groups([M("x", char=True), M("y", char=True)])
    assert keys(gs) == ["x", "y"]


def test_05_03_destroyed_models_are_never_grouped():
    gs = allocation_groups([M("a", rem=0), M("b"), M("c", rem=0, char=True)])
    assert [(g.key, g.members) for g in gs] == [("b", ("b",))]


def test_05_03_wounded_model_does_not_split_its_group():
    gs = allocation_groups([M("a"), M("b", rem=1)])
    assert [(g.key, g.members) for g in gs] == [("a", ("a", "b"))]


# --- order constraints -----------------------------------------------------------------


def test_05_03_wounded_non_character_group_forced_first():
    models = [M("a"), M("h", W=3), M("h2", W=3, rem=1)]
    gs = allocation_groups(models)
    assert keys(gs) == ["a", "h"]
    assert default_order(gs, models) == ("h", "a")
    assert order_problems(gs, ["h", "a"], models) == []
    probs = order_problems(gs, ["a", "h"], models)
    assert len(probs) == 1 and "h" in probs[0] and "first" in probs[0]


def test_05_03_faq_several_wounded_groups_any_order_among_themselves():
    models = [M("a"), M("a2", rem=1), M("b", Sv=4), M("b2", Sv=4, rem=1), M("c", W=3)]
    gs = allocation_groups(models)
    assert order_problems(gs, ["a", "b", "c"], models) == []
    assert order_problems(gs, ["b", "a", "c"], models) == []
    assert order_problems(gs, ["a", "c", "b"], models) != []
    assert order_problems(gs, ["c", "a", "b"], models) != []


def test_05_03_no_character_before_non_character():
    models = [M("cap", W=5, char=True), M("a"), M("b", Sv=4)]
    gs = allocation_groups(models)
    assert order_problems(gs, ["a", "b", "cap"], models) == []
    assert order_problems(gs, ["b", "a", "cap"], models) == []
    assert order_problems(gs, ["a", "cap", "b"], models) != []
    assert order_problems(gs, ["cap", "a", "b"], models) != []
    assert default_order(gs, models) == ("a", "b", "cap")


def test_05_03_wounded_character_not_before_non_character_even_if_wounded():
    models = [M("cap", W=5, rem=2, char=True), M("a")]
    gs = allocation_groups(models)
    assert order_problems(gs, ["cap", "a"], models) != []
    assert default_order(gs, models) == ("a", "cap")


def test_05_03_wounded_character_groups_before_unwounded_ones():
    models = [M("a"), M("cap", W=5, char=True), M("lt", W=4, rem=1, char=True)]
    gs = allocation_groups(models)
    assert default_order(gs, models) == ("a", "lt", "cap")
    assert order_problems(gs, ["a", "lt", "cap"], models) == []
    assert order_problems(gs, ["a", "cap", "lt"], models) != []


def test_05_03_order_must_list_each_group_once():
    models = [M("a"), M("b", Sv=4)]
    gs = allocation_groups(models)
    assert order_problems(gs, ["a"], models) != []
    assert order_problems(gs, ["a", "a"], models) != []
    assert order_problems(gs, ["a", "b", "zz"], models) != []
    assert order_problems(gs, ["a", "b", "b"], models) != []


def test_05_03_attached_unit_example_non_characters_before_character():
    """Rulebook-style attached unit: a CHARACTER leader plus two non-CHARACTER groups (different
    Sv): both non-CHARACTER groups before the CHARACTER, in either order."""
    models = [M("leader", W=5, Sv=3, InSv=4, char=True), M("vet", W=2, Sv=3),
              M("vet2", W=2, Sv=3), M("gun", W=3, Sv=3)]
    gs = allocation_groups(models)
    assert keys(gs) == ["leader", "vet", "gun"]
    assert default_order(gs, models) == ("vet", "gun", "leader")
    assert order_problems(gs, ["gun", "vet", "leader"], models) == []
    assert order_problems(gs, ["vet", "leader", "gun"], models) != []


def test_part_a_9_default_order_keeps_declared_order_where_legal():
    models = [M("a"), M("b", Sv=4), M("c", W=3, rem=2), M("cap", W=5, char=True)]
    gs = allocation_groups(models)
    # declared b, a, cap, c: c is wounded and must come first; otherwise b before a
    assert default_order(gs, models, ["b", "a", "cap", "c"]) == ("c", "b", "a", "cap")


# --- current group, model selection ---------------------------------------------------------


def test_05_04_01_current_group_advances_when_wiped():
    models = [M("a"), M("a2"), M("b", Sv=4)]
    gs = allocation_groups(models)
    order = ("a", "b")
    assert current_group(order, {"a": True, "a2": True, "b": True}, gs) == "a"
    assert current_group(order, {"a": False, "a2": True, "b": True}, gs) == "a"
    assert current_group(order, {"a": False, "a2": False, "b": True}, gs) == "b"
    assert current_group(order, {"a": False, "a2": False, "b": False}, gs) is None


def test_24_28_precision_group_overrides_until_destroyed():
    models = [M("a"), M("cap", W=4, char=True)]
    gs = allocation_groups(models)
    assert current_group(("a", "cap"), {"a": True, "cap": True}, gs, precision="cap") == "cap"
    assert current_group(("a", "cap"), {"a": True, "cap": False}, gs, precision="cap") == "a"


def test_05_04_select_model_wounded_first_else_listed_order():
    W = {"a": 2, "b": 2, "c": 2}
    assert select_model(("a", "b", "c"), {"a": 2, "b": 2, "c": 2}, W) == "a"
    assert select_model(("a", "b", "c"), {"a": 2, "b": 2, "c": 1}, W) == "c"
    assert select_model(("a", "b", "c"), {"a": 0, "b": 2, "c": 2}, W) == "b"
    assert select_model(("a", "b"), {"a": 0, "b": -1}, W) is None


# --- invariants -----------------------------------------------------------------------------

model_st = st.builds(
    lambda w, lost, sv, insv, char: (w, max(min(w - lost, w), 0), sv, insv, char),
    st.integers(1, 4), st.integers(0, 4), st.integers(2, 6), st.sampled_from([None, 4, 5]),
    st.booleans())


@given(st.lists(model_st, min_size=1, max_size=10), st.randoms(use_true_random=False))
def test_05_03_default_order_always_legal(specs, rnd):
    models = [TargetModel(f"m{i}", w, rem, sv, insv, ch) for i, (w, rem, sv, insv, ch) in enumerate(specs)]
    gs = allocation_groups(models)
    preferred = [g.key for g in gs]
    rnd.shuffle(preferred)
    assert order_problems(gs, default_order(gs, models), models) == []
    assert order_problems(gs, default_order(gs, models, preferred), models) == []
    for g in gs:  # groups never hold destroyed models
        assert all(next(m for m in models if m.id == i).remaining > 0 for i in g.members)
