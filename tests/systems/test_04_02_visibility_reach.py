"""04.02 The visibility index's reach per model (BattleVisibility._set_reach, which models'
pairs are resolved together after a move): its unit's longest ranged weapon among all its
models (sim.plan.common.reach_of), those still to be set up included, so a battle whose
armies are deployed by the rules batches its sight as one set up beforehand. Only which
pairs are resolved together depends on it, never an answer (tests/rules/visibility/
test_06_01_lazy_sight.py); this pins that the reach is the weapons' and not 0."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.battle import Battle
from sim.plan.common import INDIRECT_REACH, ranged_reach, reach_of
from sim.rules.abilities.parse import parse_weapon_abilities
from sim.rules.dice import parse_dice_expr
from sim.rules.profiles import WeaponProfile
from sim.scenario.load import load_scenario
from sim.world import queries as W


ROOT = Path(__file__).resolve().parents[2]


def _w(name, range_, abilities=""):
    one = parse_dice_expr("1")
    return WeaponProfile(name, range_, one, 3, 4, 0, one, parse_weapon_abilities(abilities, name))


def test_reach_of_is_the_longest_ranged_weapon():
    assert reach_of([]) is None
    assert reach_of([_w("claw", None)]) is None
    assert reach_of([_w("a", 24), _w("b", 36), _w("claw", None)]) == 36
    assert reach_of([_w("a", 24), _w("m", 48, "INDIRECT FIRE")]) == INDIRECT_REACH


def _reach_by_unit(b: Battle) -> dict:
    idx = b.visibility.index
    out = {}
    for uid, u in b.units.items():
        roster = W.roster(u)
        got = {float(idx.reach[idx.row[mid]]) for mid in roster.ids if mid in idx.row}
        out[uid] = (roster, got)
    return out


def test_reach_is_set_for_units_not_yet_deployed():
    with Battle(load_scenario(ROOT / "scenarios/deployment.toml"), seed=1) as b:
        assert not any(W.living(u).slots for u in b.units.values())   # (nobody set up yet)
        reaches = _reach_by_unit(b)
        assert any(got and max(got) > 0 for _r, got in reaches.values())
        for uid, (roster, got) in reaches.items():
            r = reach_of(w for ws in roster.weapons for w in ws)
            assert got <= {0.0 if r is None else r}, uid


@pytest.mark.parametrize("name", ["battle_default.toml", "ladder/full_size.toml"])
def test_reach_is_the_rules_reach_of_every_model(name):
    with Battle(load_scenario(ROOT / "scenarios" / name), seed=1) as b:
        for uid, (roster, got) in _reach_by_unit(b).items():
            r = reach_of(w for ws in roster.weapons for w in ws)
            assert got <= {0.0 if r is None else r}, uid
            if W.living(b.units[uid]).slots and len(W.living(b.units[uid]).slots) == len(roster.ids):
                assert r == ranged_reach(b.units[uid])   # (every model alive: the rule's reach)


@pytest.mark.parametrize("seed", [1, 2])
def test_06_01_seen_by_any_is_any_pair_visible(seed):
    """BattleVisibility.seen_by_any (24.28's visible CHARACTERs, one block) answers, for each
    target model, whether model_visible holds for some observer: on the default table, every
    unit's models against every enemy unit's, and with no observer or no target."""
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    with Battle(spec, seed=seed) as b:
        vis = b.visibility
        units = W.all_units()
        for u in units:
            mine = [W.model_id(m) for m in W.unit_models(u)]
            for e in W.enemy_units(u):
                theirs = [W.model_id(m) for m in W.unit_models(e)]
                want = [any(vis.model_visible(a, t) for a in mine) for t in theirs]
                assert vis.seen_by_any(mine, theirs) == want
                assert vis.seen_by_any(mine[:1], theirs) == [vis.model_visible(mine[0], t) for t in theirs]
        assert vis.seen_by_any([], theirs) == [False] * len(theirs)
        assert vis.seen_by_any(mine, []) == []
