"""The pure rules of a permission to shoot or charge after a move (sim.rules.effects.eligibility)
and what it lifts in the shooting types' eligibility (sim.rules.shooting, 10.04-10.07, 09.06/09.07)."""

from __future__ import annotations

from hypothesis import given, strategies as st

from sim.rules import shooting as SH
from sim.rules.effects import eligibility as EL
from sim.rules.effects import vocabulary as V


def test_needed_names_the_permissions_each_move_calls_for():
    assert EL.needed(EL.SHOOT, False, False) == ()
    assert EL.needed(EL.SHOOT, True, False) == (V.SHOOT_AFTER_ADVANCE,)
    assert EL.needed(EL.CHARGE, False, True) == (V.CHARGE_AFTER_FALL_BACK,)
    assert not EL.lifted([V.SHOOT_AFTER_ADVANCE], EL.SHOOT, False, False)  # (nothing to lift)
    assert not EL.lifted([V.SHOOT_AFTER_ADVANCE], EL.SHOOT, False, True)  # (the wrong move)
    assert EL.lifted([V.CHARGE_AFTER_FALL_BACK, V.SHOOT_AFTER_ADVANCE], EL.CHARGE, False, True)


facts = st.tuples(*[st.booleans()] * 7).map(lambda t: SH.ShooterFacts(*t))  # (nothing lifted, no snap)


@given(facts, st.booleans(), st.booleans())
def test_a_lifted_bar_never_takes_a_shooting_type_away_and_lifts_only_its_move(f, adv, fb):
    before = SH.shooting_type_eligibility(f)
    after = SH.shooting_type_eligibility(f._replace(advance_lifted=adv, fall_back_lifted=fb))
    assert all(after[t] is None for t, why in before.items() if why is None)
    if not f.advanced and not f.fell_back:
        assert dict(after) == dict(before)  # (a unit that did neither: nothing changes)
    if f.fell_back and not fb:
        assert all(why is not None for why in after.values())  # (09.07 still bars it)
    if f.advanced and adv and not f.fell_back and not f.engaged:
        assert after[SH.NORMAL] is None  # (10.04: unengaged, and advancing no longer bars it)
