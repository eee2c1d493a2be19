"""01.04 sim.world.queries.unit_nearest (could_shoot's reach test, one pass over the models on
the battlefield) against the distance matrix's block for each unit, through moves and destroyed
models: the same floats, and no unit without a living model."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sim.battle import Battle
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
                if W.index_size(W.living(u).index):
                    assert W.unit_nearest(W.living(u).index) == brute(u)
            if kind == "ask":
                continue
            ent = b.models[mid]
            if not W.alive(ent):
                continue
            if kind == "kill":
                kill(b, mid)
            else:
                M.move_model(ent, round(x, 2), round(y, 2))
