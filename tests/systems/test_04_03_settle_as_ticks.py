"""04.03 A pool's steps run in one call (AttackResolutionSystem.settle, what
Battle.step_until_blocked runs) give the very events of one step a tick (Battle.tick, what the
sandbox steps through): several pools at two targets, random D, [PRECISION] at a CHARACTER,
[SUSTAINED HITS], [DEVASTATING WOUNDS], a unit destroyed part-way (its later attacks lost)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scen import model, row, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Selection, Shoot

WEAPONS = {
    "rifle": weapon(24, 3, 3, 4, 0, 1, "[SUSTAINED HITS 1]"),
    "melta": weapon(36, 2, 3, 9, -4, "D6", "[DEVASTATING WOUNDS]"),
    "sniper": weapon(36, 2, 2, 5, -2, "D3", "[PRECISION]"),
}


def _spec(seed: int):
    shooters = unit("sh", model(row(10, 10, 3), ["rifle", "melta", "sniper"]))
    t = unit("t", model(row(10, 30, 4), [], W=2, Sv=4),
             model((17, 30), [], W=4, Sv=3, keywords=("CHARACTER",), role="leader", ids=["boss"]))
    u = unit("u", model(row(30, 30, 3), [], W=1, Sv=5))
    return scenario(WEAPONS, [shooters], [t, u], seed=seed)


def _events(seed: int, one_step_a_tick: bool) -> list[dict]:
    sels = []
    for i in (1, 2, 3):
        sels += [Selection(f"sh/{i}", "rifle", "t"), Selection(f"sh/{i}", "melta", "u" if i == 3 else "t"),
                 Selection(f"sh/{i}", "sniper", "t")]
    with Battle(_spec(seed)) as b:
        b.submit(Shoot("sh", tuple(sels)))
        if one_step_a_tick:
            for _ in range(500):
                if not b.busy:
                    break
                if b.pending is not None:
                    b.answer(b.pending.default)
                b.tick()
            assert not b.busy
        else:
            b.resolve()
        return b.events


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31))
def test_04_03_settle_gives_the_events_of_one_step_a_tick(seed):
    ticked = _events(seed, True)
    assert any(e["type"] == "damage" for e in ticked)
    assert _events(seed, False) == ticked


def test_04_03_settle_meets_the_steps_that_wait():
    """Seed 5: a [PRECISION] pool (the attacker's choice, and the allocation orders, answered
    with their defaults) among the pools resolved, one way and the other alike."""
    ticked = _events(5, True)
    assert {"damage", "precision", "decision"} <= {e["type"] for e in ticked}
    assert _events(5, False) == ticked
