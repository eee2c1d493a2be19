"""04.02 could_shoot_at, the necessary condition players and Fire Overwatch's offer (15.08)
read before planning a shot (could_shoot: several targets at once): the unit's ranged reach
(kept per unit while the same models live) and the distances of the spatial index first,
line of sight only for a target in reach.
Its answers are those of the plain check (a model that sees the unit and has it within reach,
read off the visibility index) for every pair of units, at every phase of whole random battles."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from phased import mission_scenario, model, unit, weapon
from scen import kill
from sim.battle import Battle
from sim.commands import StartBattle
from sim.plan.common import (INDIRECT_REACH, could_shoot, could_shoot_all, could_shoot_at, could_shoot_candidates,
                              ranged_reach)
from sim.players import play_battle
from sim.rules.abilities import Hook
from sim.rules.dice import ForcedDice
from sim.rules.geometry import distance_matrix
from sim.scenario.load import load_scenario
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[2]
WEAPONS = {"long gun": weapon(36, 1, 3, 4, 0, 1), "pistol": weapon(12, 1, 3, 4, 0, 1, "[PISTOL]"),
           "mortar": weapon(48, 1, 3, 4, 0, 1, "[INDIRECT FIRE]"), "blade": weapon("melee", 2, 3, 4, 0, 1)}


def _plain_parts(battle, u, e):
    """What the plain check reads of ``u`` against ``e`` whatever the distance asked: None (no
    ranged weapon, or a unit without models), True ([INDIRECT FIRE]), or the longest range and,
    per model of ``u``, whether it sees one of ``e``'s models and its distances to them."""
    weapons = [w for m in W.unit_models(u) for w in W.weapons_of(m) if not w.is_melee]
    if not weapons:
        return None
    if any(w.has(Hook.INDIRECT) for w in weapons):
        return True
    idx = battle.visibility.index
    rows = np.array([W.model_row(m) for m in W.unit_models(u)], dtype=np.intp)
    cols = np.array([W.model_row(m) for m in W.unit_models(e)], dtype=np.intp)
    if not len(rows) or not len(cols):
        return None
    sub = np.ix_(rows, cols)
    # (every distance measured, a far pair's too, without touching the index: the matrix holds a
    # far pair's bound until a reader asks, sim.rules.distance_rows; its entries are these bits)
    dist = distance_matrix([idx.fps[i] for i in rows], [idx.fps[j] for j in cols])
    return max(w.range for w in weapons), idx.visible[sub].any(axis=1), dist


def _plain(parts, within=None) -> bool:
    """The check without its shortcuts (what could_shoot_at answered before them), from
    _plain_parts (read once for the three distances asked of a pair at an event)."""
    if parts is None or parts is True:
        return bool(parts)
    reach, sees, dist = parts
    if within is not None:
        reach = min(reach, within)
    # (04.02: a model that sees one of the unit's models and has one in reach)
    return bool((sees & (dist <= reach + 1e-6).any(axis=1)).any())


def test_04_02_ranged_reach_follows_the_living_models():
    red = [unit("r1", model([(10, 10)], ["long gun"]), model([(11.5, 10)], ["pistol", "blade"])),
           unit("r2", model([(10, 14)], ["blade"])),
           unit("r3", model([(14, 14)], ["mortar"]), model([(15.5, 14)], ["pistol"]))]
    blue = [unit("b1", model([(30, 30)], ["pistol"]))]
    with Battle(mission_scenario(red, blue, weapons=WEAPONS), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        b._enter()
        assert ranged_reach(b.units["r1"]) == 36
        assert ranged_reach(b.units["r2"]) is None
        assert ranged_reach(b.units["r3"]) == INDIRECT_REACH
        kill(b, "r1/1")  # the long gun is lost with its model: the pistol is all that is left
        assert ranged_reach(b.units["r1"]) == 12
        kill(b, "r3/1")
        assert ranged_reach(b.units["r3"]) == 12


def test_04_02_could_shoot_at_answers_as_the_plain_check_through_whole_battles():
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("random", "random")))
    checked = in_reach = pruned = 0
    for seed in (3, 4):
        with Battle(spec, seed=seed) as b:
            def on_event(e, b=b):
                nonlocal checked, in_reach, pruned
                if e["type"] != "phase":
                    return
                for u in W.all_units():
                    enemies = W.enemy_units(u)
                    parts = [_plain_parts(b, u, t) for t in enemies]
                    for within in (None, 24.0, 6.0):
                        plain = [t for t, p in zip(enemies, parts) if _plain(p, within)]
                        assert could_shoot(b, u, enemies, within) == plain, (e, u, within)
                        assert [t for t in enemies if could_shoot_at(b, u, t, within)] == plain
                        # (could_shoot's first step, which the random player asks once per unit:
                        # every target it accepts among them, in order)
                        cands = could_shoot_candidates(u, enemies, within)
                        assert [t for t in cands if t in plain] == plain, (e, u, within)
                        assert [t for t in enemies if t in cands] == cands
                        checked += len(enemies)
                        in_reach += len(plain)
                        pruned += len(enemies) - len(cands)
            b.listeners.append(on_event)
            play_battle(b, spec)
    assert checked > 1000 and 0 < in_reach < checked  # (both answers were seen)
    assert pruned > 0  # (the first step left some targets out)


def test_04_02_could_shoot_all_is_could_shoot_of_each_unit_through_whole_battles():
    """could_shoot_all (Fire Overwatch's offer asks it of every unit of a side at once) answers
    as could_shoot of each unit, at every phase of whole random battles, asked first (its one
    block resolves the line of sight it needs itself), for every side, with and without a
    distance the shooting type limits the target to."""
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("random", "random")))
    asked = accepted = 0
    for seed in (5, 6):
        with Battle(spec, seed=seed) as b:
            def on_event(e, b=b):
                nonlocal asked, accepted
                if e["type"] != "phase":
                    return
                first = W.all_units()[0]
                for enemies in (W.enemy_units(first), W.enemy_units(W.enemy_units(first)[0])):
                    units = W.enemy_units(enemies[0])   # (one side; enemies: the other)
                    for within in (24.0, None, 6.0):
                        got = could_shoot_all(b, units, enemies, within)
                        assert got == {u: could_shoot(b, u, enemies, within) for u in units}, (e, within)
                        asked += len(units) * len(enemies)
                        accepted += sum(map(len, got.values()))
            b.listeners.append(on_event)
            play_battle(b, spec)
    assert asked > 1000 and 0 < accepted < asked


def test_04_02_could_shoot_all_asks_a_unit_read_another_way_of_could_shoot():
    """A unit with an [INDIRECT FIRE] weapon, one without a ranged weapon and one with no model
    left are answered by could_shoot itself; the others by the block, all in one answer."""
    red = [unit("r1", model([(10, 10)], ["long gun"]), model([(11.5, 10)], ["pistol", "blade"])),
           unit("r2", model([(10, 14)], ["blade"])),
           unit("r3", model([(14, 14)], ["mortar"])),
           unit("r4", model([(20, 14)], ["pistol"]))]
    blue = [unit("b1", model([(30, 30)], ["pistol"])), unit("b2", model([(12, 20)], ["pistol"]))]
    with Battle(mission_scenario(red, blue, weapons=WEAPONS), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        b._enter()
        kill(b, "r4/1")
        units = [b.units[u] for u in ("r1", "r2", "r3", "r4")]
        enemies = [b.units["b1"], b.units["b2"]]
        got = could_shoot_all(b, units, enemies)
        assert got == {u: could_shoot(b, u, enemies) for u in units}
        assert got[b.units["r3"]] == enemies and got[b.units["r2"]] == got[b.units["r4"]] == []
        assert got[b.units["r1"]] == [b.units["b1"], b.units["b2"]]
        assert could_shoot_all(b, units, enemies, 12.0)[b.units["r1"]] == [b.units["b2"]]


WALL = [[18, 5], [34, 5], [34, 5.5], [18, 5.5]]  # a solid wall (dense terrain, 13.05)


def _seen_far_hidden_near():
    """A pistol (12") model south of a wall; the target unit: one model 7" away behind the wall
    (hidden, in range) and one 20" away on the open side (seen, out of range). The target unit
    is visible to the model (its far model) and within range (its near one): 04.02 allows it."""
    from sim.scenario.load import parse_scenario
    from scen import model as smodel, unit as sunit
    return parse_scenario({
        "battle": {"name": "split", "seed": 1, "board": [60, 44]},
        "terrain": [{"name": "wall", "area": WALL, "features": [{"category": "dense", "polygon": WALL}]}],
        "weapons": WEAPONS,
        "armies": [{"name": "A", "units": [sunit("sh", smodel([(26, 2)], ["pistol"]))]},
                   {"name": "B", "units": [sunit("t", smodel([(26, 9), (46, 2)], ["pistol"]))]}],
    }, "split.toml")


def test_04_02_could_shoot_at_a_unit_one_model_of_which_is_seen_and_another_in_range():
    """04.02 asks the target UNIT visible to the model and within range of it: the model seen
    and the model in range may differ. could_shoot_at is a necessary condition of the plan, so
    it keeps such a target (it used to ask one model both seen and in range, and Fire
    Overwatch's offer and the players skipped a legal shot)."""
    from sim.commands import Selection, Shoot
    with Battle(_seen_far_hidden_near()) as b:
        b._enter()
        b.visibility.refresh()
        sh, t = b.units["sh"], b.units["t"]
        idx = b.visibility.index
        near, far = W.model_row(W.unit_models(t)[0]), W.model_row(W.unit_models(t)[1])
        me = W.model_row(W.unit_models(sh)[0])
        assert not idx.visible[me, near] and idx.visible[me, far]  # (the layout is as described)
        assert idx.dist[me, near] <= 12 < idx.dist[me, far]
        assert b.check(Shoot("sh", (Selection("sh/1", "pistol", "t"),))) is None  # (the plan allows it)
        assert could_shoot_at(b, sh, t)
        assert could_shoot(b, sh, [t]) == [t] == could_shoot_all(b, [sh], [t])[sh]
        assert not could_shoot_at(b, sh, t, within=4.0)  # (nothing of it within 4")
