"""01.04 sim.world.queries.unit_nearest (could_shoot's reach test, one pass over the models on
the battlefield) against the distance matrix's block for each unit, through moves and destroyed
models: the same floats, and no unit without a living model; its kept copy (unit_nearest_kept)
and sim.plan.moves.unit_gap (read from it) the same after every step, unit_within (one
unit's distance to another against a distance, measured alone) the same answers, and units_near (from
the units' boxes) holding every unit within the distance asked."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sim.battle import Battle
from sim.plan.moves import unit_gap
from sim.world import mutations as M
from sim.world import queries as W
from scen import kill, model, row, scenario, unit, weapon

WEAPONS = {"gun": weapon(24, 1, 3, 4, 0, 1)}
IDS = [f"{u}/{i}" for u in ("a1", "a2", "b1", "b2") for i in (1, 2, 3)]


def spec():
    return scenario(WEAPONS,
                    [unit("a1", model(row(10, 10, 3), ["gun"])), unit("a2", model(row(10, 13, 3), ["gun"]))],
                    [unit("b1", model(row(10, 25.5, 3), ["gun"])), unit("b2", model(row(27.5, 10.5, 3), ["gun"]))])


def brute(u: int) -> dict[int, float]:
    rows = W.living(u).index
    dist = W.spatial().dist
    return {t: float(W.block(dist, rows, W.living(t).index).min())
            for t in W.all_units() if W.index_size(W.living(t).index)}


def gap_brute(u: int, others: list[int]) -> float | None:
    """The closest distance between a living model of ``u`` and one of ``others``, pair by pair."""
    mine, theirs = W.unit_models(u), [m for t in others for m in W.unit_models(t)]
    return min((W.model_distance(a, b) for a in mine for b in theirs), default=None)


step = st.one_of(
    st.tuples(st.just("move"), st.sampled_from(IDS), st.floats(6, 40), st.floats(6, 30)),
    st.tuples(st.just("kill"), st.sampled_from(IDS), st.just(0.0), st.just(0.0)))


@settings(max_examples=60, deadline=None)
@given(st.lists(step, max_size=12))
def test_unit_nearest_is_the_block_minimum(steps):
    with Battle(spec()) as b:
        b._enter()
        units = W.all_units()
        for kind, mid, x, y in steps + [("ask", "", 0.0, 0.0)]:
            for u in units:
                # (asked first: after a move or a removal, before anything is kept for the
                # layout, measured alone)
                want = brute(u) if W.index_size(W.living(u).index) else {}
                for t in units:
                    for inches in (1.0, 6.0, 12.0, 30.0):
                        assert W.unit_within(u, t, inches) == (t in want and want[t] <= inches)
                for inches in (1.0, 6.0, 12.0):  # (units_near: a superset of those within)
                    near = W.units_near(u, units, inches)
                    assert [t for t in units if t in near] == near
                    assert {t for t, v in want.items() if v <= inches + 1e-6} <= set(near)
                    assert set(near) <= set(want)
                if W.index_size(W.living(u).index):
                    assert W.unit_nearest(W.living(u).index) == brute(u) == W.unit_nearest_kept(u)
                else:
                    assert W.unit_nearest_kept(u) == {}
                for others in (units, units[2:], units[:1]):
                    assert unit_gap(u, others) == gap_brute(u, others)

            if kind == "ask":
                continue
            ent = b.models[mid]
            if not W.alive(ent):
                continue
            if kind == "kill":
                kill(b, mid)
            else:
                M.move_model(ent, round(x, 2), round(y, 2))
