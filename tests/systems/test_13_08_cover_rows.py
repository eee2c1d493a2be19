"""13.08 BattleVisibility.benefit_of_cover_rows (every model of a shooting unit at once, as
plan_shoot reads it) gives, per model, exactly benefit_of_cover's answer for that one model:
for every pair of opposing units of every scenario, every ranged weapon and every shooting
type (Stealth 24.33, [IGNORES COVER] 24.18 and [INDIRECT FIRE] 10.07 included), before and
after models are lost (the rows are then no longer one contiguous block)."""

from __future__ import annotations

from pathlib import Path

import esper
import pytest

from sim.battle import Battle
from sim.components import Position, Unit
from sim.rules.shooting import SHOOTING_TYPES
from sim.scenario.load import load_scenario, parse_scenario
from sim.world import mutations as M
from sim.world import queries as W

from scen import kill, model, row, unit, weapon

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios").glob("*.toml"))


def _check_every_pair(b: Battle) -> None:
    vis = b.visibility
    for shooter in b.units.values():
        lv = W.living(shooter)
        if not lv.slots:
            continue
        owner = esper.component_for_entity(shooter, Unit).owner
        weapons = {id(w): w for m in lv.models for w in W.weapons_of(m) if not w.is_melee}
        for target in b.units.values():
            if esper.component_for_entity(target, Unit).owner == owner or W.unit_destroyed(target):
                continue
            for w in weapons.values():
                for stype in SHOOTING_TYPES:
                    rows = vis.benefit_of_cover_rows(lv.index, target, w, stype)
                    one = [vis.benefit_of_cover(mid, target, w, stype) for mid in lv.ids]
                    assert rows == one, (shooter, target, w.name, stype)


WOOD = [[16, 16], [24, 16], [24, 24], [16, 24]]


def _mixed():
    """Cover every way: a unit inside a wood (terrain), one half in it, a Stealth unit in the
    open, weapons with [INDIRECT FIRE] and [IGNORES COVER], and a one-model unit."""
    return parse_scenario({
        "battle": {"name": "cover rows", "seed": 1, "board": [60, 44]},
        "terrain": [{"name": "wood", "area": WOOD, "features": [{"category": "light", "polygon": WOOD}]}],
        "weapons": {"rifle": weapon(36, 1, 3, 4, 0, 1),
                    "mortar": weapon(48, 1, 4, 4, 0, 1, "[INDIRECT FIRE]"),
                    "flare": weapon(24, 1, 3, 4, 0, 1, "[IGNORES COVER]")},
        "armies": [
            {"name": "A", "units": [unit("sh", model(row(14, 36, 5), ["rifle", "mortar", "flare"])),
                                    unit("one", model((17, 39), ["rifle"]))]},
            {"name": "B", "units": [unit("wood", model(row(17, 20, 4), ["rifle"])),
                                    unit("half", model(row(21, 23, 4), ["rifle"])),
                                    unit("ghosts", model(row(30, 30, 3), ["rifle"]), abilities="Stealth")]},
        ],
    }, "cover_rows.toml")


SPECS = [(p.stem, lambda p=p: load_scenario(p)) for p in SCENARIOS] + [("mixed", _mixed)]


@pytest.mark.parametrize("spec", [s for _n, s in SPECS], ids=[n for n, _s in SPECS])
def test_13_08_cover_rows_match_one_model_at_a_time(spec):
    with Battle(spec()) as b:
        _check_every_pair(b)
        # lose every other model of every unit (each keeps at least one): index rows with gaps
        for ent in list(b.units.values()):
            for mid in W.living(ent).ids[1::2]:
                kill(b, mid)
        b.visibility.refresh()
        _check_every_pair(b)


def test_13_08_the_mixed_scenario_covers_every_case():
    """The answers above include cover from terrain (both ways, and for a single model whose
    flags are mixed), from Stealth, from indirect shooting, and none through [IGNORES COVER]
    (else the test would not exercise them)."""
    with Battle(_mixed()) as b:
        vis, sh = b.visibility, W.living(b.units["sh"])
        rifle, mortar, flare = W.weapons_of(sh.models[0])
        wood, half, ghosts = (b.units[u] for u in ("wood", "half", "ghosts"))
        # a single attacking model (read as one list) whose view of a unit's models is mixed
        one = W.living(b.units["one"])
        flags = vis.index.cover[one.index, W.living(half).index].tolist()
        assert True in flags[0] and False in flags[0]
        assert vis.benefit_of_cover_rows(one.index, half, rifle, "normal") == [False]
        assert all(vis.benefit_of_cover_rows(sh.index, wood, rifle, "normal"))
        assert False in vis.benefit_of_cover_rows(sh.index, half, rifle, "normal")
        assert all(vis.benefit_of_cover_rows(sh.index, ghosts, rifle, "normal"))
        assert all(vis.benefit_of_cover_rows(sh.index, half, mortar, "indirect"))
        assert False in vis.benefit_of_cover_rows(sh.index, half, mortar, "normal")
        assert not any(vis.benefit_of_cover_rows(sh.index, wood, flare, "normal"))
        assert not any(vis.benefit_of_cover_rows(sh.index, ghosts, flare, "normal"))
        assert not any(vis.benefit_of_cover_rows(sh.index, half, flare, "normal"))


def _enemy_pairs(b: Battle) -> list[tuple[int, int]]:
    return [(s, t) for s in b.units.values() for t in b.units.values()
            if esper.component_for_entity(s, Unit).owner != esper.component_for_entity(t, Unit).owner
            and W.living(s).slots and W.living(t).slots]


@pytest.mark.parametrize("spec", [s for n, s in SPECS if n in ("battle_default", "mixed")],
                         ids=[n for n, _s in SPECS if n in ("battle_default", "mixed")])
def test_13_08_resolve_cover_works_out_every_pair_asked_and_changes_no_answer(spec):
    """BattleVisibility.resolve_cover (what the tactician asks before weighing its attacks):
    every entry cover reads for the (unit, target) pairs given is known after it (moves leave
    them unknown) but for pairs with a base that is not round (those the one-pair kernel alone
    settles, left to the cover reads), and the answers read then are the rule's, model by
    model, as without it (before and after losses)."""
    with Battle(spec()) as b:
        for step in range(2):
            if step:
                for ent in list(b.units.values()):
                    for mid in W.living(ent).ids[1::2]:
                        kill(b, mid)
            moved = [W.living(ent).models[0] for ent in b.units.values()]
            for m in moved:  # (each unit's first model a little aside: its pairs unknown again)
                p = esper.component_for_entity(m, Position)
                M.move_model(m, p.x + 0.7, p.y - 0.4)
            b.changes.moved(moved)
            vis = b.visibility
            assert not vis.index._fv_known.all()
            idx = vis.index
            vis.resolve_cover(_enemy_pairs(b))
            for s, t in _enemy_pairs(b):
                rows, cols = W.index_rows(W.living(s).index), W.index_rows(W.living(t).index)
                block = idx._fv_known[rows[:, None], cols] | (idx.hideable & idx.within_any)[cols][None, :]
                block |= ~(idx.round[rows][:, None] & idx.round[cols][None, :])
                assert block.all(), (s, t)
            _check_every_pair(b)
