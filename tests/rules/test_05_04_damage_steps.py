"""05.04 damage_steps, the one home of the damage step (inflict_damage drives it with no
re-roll; a battle with a mission may take a Command Re-roll, 15.02, at each damage roll worth
re-rolling): it stops only at a random damage roll short of the model's remaining wounds, and
a re-roll's die replaces the old one before the wounds are lost."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sim.rules.allocation import TargetModel, allocation_groups, default_order
from sim.rules.dice import Dice, ForcedDice, parse_dice_expr
from sim.rules.sequence import DamageRoll, DamageState, PoolState, damage_steps

MODEL = st.tuples(st.integers(1, 6), st.integers(2, 6), st.sampled_from([None, 4, 5]), st.booleans(),
                  st.integers(0, 5))


def _setup(models, precision, fnp, save_mod):
    tms = tuple(TargetModel(f"m{i}", W, W, Sv, InSv, char) for i, (W, Sv, InSv, char, _f) in enumerate(models))
    gs = allocation_groups(tms)
    prec = next((g.key for g in gs if precision and any(m.character for m in tms if m.id in g.members)), None)
    fnps = {m.id: 4 + f % 3 for m, (*_x, f) in zip(tms, models) if fnp and f % 2}
    state = DamageState(tms, {m.id: m.remaining for m in tms}, gs, default_order(gs, tms), prec, fnp=fnps)
    smods = {m.id: (i % 3) - 1 for i, m in enumerate(tms)} if save_mod else None
    return state, {m.id: m.Sv for m in tms}, {m.id: m.InSv for m in tms}, smods


def _logged(seed):
    log = []
    return Dice(seed, listener=lambda purpose, results: log.append((purpose, results))), log


@settings(max_examples=300, deadline=None)
@given(models=st.lists(MODEL, min_size=1, max_size=6), D=st.sampled_from(["1", "2", "D3", "D6", "D6+1", "2D6", "D3+1"]),
       saves=st.lists(st.integers(1, 6), max_size=12), mortal=st.integers(0, 3), AP=st.integers(-3, 0),
       precision=st.booleans(), fnp=st.booleans(), save_mod=st.booleans(), seed=st.integers(0, 10_000))
def test_05_04_damage_steps_stops_only_where_a_re_roll_could_matter(models, D, saves, mortal, AP, precision, fnp,
                                                                      save_mod, seed):
    """It stops only at a random damage roll whose total is short of the model's remaining
    wounds (inflict_damage drives it the same way with every answer None)."""
    state, Sv, InSv, smods = _setup(models, precision, fnp, save_mod)
    p = PoolState(dice=0, skill=3, S=4, AP=AP, D=parse_dice_expr(D), T=4)
    p.wounds, p.mortal_criticals = len(saves), mortal
    dice, _log = _logged(seed)
    steps = damage_steps(p, sorted(saves), state, dice, Sv, InSv, smods)
    try:
        q = steps.send(None)
        while True:
            assert isinstance(q, DamageRoll) and p.D.is_random
            assert sum(q.dice) + p.D.k < q.remaining
            q = steps.send(None)
    except StopIteration:
        pass


def test_05_04_a_damage_roll_re_rolled_replaces_its_die_before_wounds_are_lost():
    tm = (TargetModel("a", 6, 6, 3, None, False),)
    gs = allocation_groups(tm)
    state = DamageState(tm, {"a": 6}, gs, default_order(gs, tm), None)
    p = PoolState(dice=0, skill=3, S=4, AP=0, D=parse_dice_expr("D6"), T=4)
    p.wounds = 1
    steps = damage_steps(p, [1], state, ForcedDice([2]), {"a": 3}, {"a": None})
    q = steps.send(None)
    assert q == DamageRoll("a", (2,), p.D, 6)
    try:
        steps.send({"die": 0, "from": 2, "to": 5})
    except StopIteration as done:
        (rec,) = done.value
    assert rec["damage"] == 5 and rec["lost"] == 5 and rec["command_reroll"] == {"die": 0, "from": 2, "to": 5}
    assert state.remaining["a"] == 1
