"""The players' quick look at a move before Battle.check (sim.players.options.quick_refusal):
True only for a move the rules refuse (03.01 the battlefield edge and other models' bases;
09.05-09.07 a move ends unengaged; Part A ruling 13 an end over a light or dense feature; 13.06
a path across a dense feature the unit may not cross), so a player that skips the check of such
a move chooses as if it had checked it. Constructed positions for each reason and for moves it
must let through, and every move the random, default and tactician players try in whole
battles (the default table, and the full-size armies among the invented catalogues' terrain),
each judged by both."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import esper
import pytest

from scen import model, row, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Move, SelectToMove
from sim.components import Position
from sim.players import options as O
from sim.players import play_battle
from sim.rules import compiled as C
from sim.scenario.load import load_scenario, parse_scenario
from sim.world import queries as W

WEAPONS = {"claws": weapon("melee", 1, 4, 4, 0, 1)}
ROOT = Path(__file__).resolve().parents[2]


def spec():
    ours = unit("ours", model(row(10, 10, 3), ["claws"], M=20))
    friends = unit("friends", model((20, 10), ["claws"]))
    theirs = unit("theirs", model((30, 10), ["claws"]))
    return scenario(WEAPONS, [ours, friends], [theirs])


def shifted(b, uid, dx, dy, mode="normal"):
    b._enter()
    to = []
    for m in W.unit_models(b.units[uid]):
        p = esper.component_for_entity(m, Position)
        to.append((W.model_id(m), p.x + dx, p.y + dy))
    return Move(uid, tuple(to), mode)


@pytest.mark.parametrize("dx,dy,why", [
    (-9.5, 0.0, "over the battlefield edge"),        # (its first model's centre 0.5" from the edge)
    (0.0, -9.9, "over the battlefield edge"),
    (7.0, 0.0, "overlapping the base"),              # (its third model onto the friendly model)
    (14.0, 0.5, "engagement range"),                 # (its third model 1" from the enemy's base)
])
def test_a_move_it_calls_refused_is_refused_by_the_rules(dx, dy, why):
    with Battle(spec()) as b:
        cmd = shifted(b, "ours", dx, dy)
        assert O.quick_refusal(b, cmd)
        assert why in b.check(cmd)


@pytest.mark.parametrize("dx,dy", [
    (0.0, 3.0), (-8.0, 0.0),     # (legal: 1.37" from the edge)
    (4.0, 0.0),                  # (legal: clear of the friendly model)
    (13.3, 0.0),                 # (legal: its third model 2.4" from the enemy's base)
])
def test_a_move_it_lets_through_is_left_to_the_rules(dx, dy):
    with Battle(spec()) as b:
        cmd = shifted(b, "ours", dx, dy)
        assert not O.quick_refusal(b, cmd) and b.check(cmd) is None


def test_only_moves_with_places_are_looked_at():
    with Battle(spec()) as b:
        b._enter()
        assert not O.quick_refusal(b, SelectToMove("ours", "advance"))
        assert not O.quick_refusal(b, Move("ours", (), "normal"))
        assert not O.quick_refusal(b, Move("ours", (("nobody", 1.0, 1.0),), "normal"))


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_a_place_that_is_no_finite_number_is_left_to_the_rules(bad):
    # (even with another of its models over the edge: the check names what is wrong)
    with Battle(spec()) as b:
        cmd = shifted(b, "ours", -9.5, 0.0)
        first, (mid, x, y), rest = cmd.to[0], cmd.to[1], cmd.to[2:]
        assert O.quick_refusal(b, cmd)
        for place in ((mid, bad, y), (mid, x, bad)):
            odd = Move("ours", (first, place) + rest, "normal")
            assert not O.quick_refusal(b, odd) and b.check(odd) is not None


WALL = [[15, 5], [17, 5], [17, 15], [15, 15]]
WOODS = [[4, 20], [10, 20], [10, 26], [4, 26]]


def terrain_spec(keywords, fly_keyword=False):
    """A unit of three round bases at (10..13, 10), a dense wall (no height given: 13.06) at
    x 15-17, y 5-15 and woods (a light feature) at (4-10, 20-26), nobody else near."""
    kw = tuple(keywords) + (("FLY",) if fly_keyword else ())
    ours = unit("ours", model(row(10, 10, 3), ["claws"], M=20), keywords=kw)
    theirs = unit("theirs", model((55, 40), ["claws"]))
    return parse_scenario({
        "battle": {"name": "test", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
        "terrain": [{"name": "wall", "area": WALL, "features": [{"category": "dense", "polygon": WALL}]},
                    {"name": "woods", "area": WOODS, "features": [{"category": "light", "polygon": WOODS}]}],
        "armies": [{"name": "A", "units": [ours]}, {"name": "B", "units": [theirs]}]}, "test.toml")


@pytest.mark.parametrize("keywords,dx,dy,why", [
    ("MOUNTED", 8.0, 0.0, "its path crosses a dense feature of 'wall'"),   # (over the wall, ending clear)
    ("MOUNTED", -3.0, 12.0, "into a light feature of 'woods'"),            # (its models in the woods)
    ("INFANTRY", 6.0, 0.0, "into a dense feature of 'wall'"),    # (13.06: across, but not onto it)
])
def test_a_move_ending_in_or_crossing_a_feature_is_called_refused(keywords, dx, dy, why):
    with Battle(terrain_spec([keywords])) as b:
        cmd = shifted(b, "ours", dx, dy)
        assert O.quick_refusal(b, cmd)
        assert why in b.check(cmd)


def test_infantry_crossing_a_dense_feature_or_a_flight_is_left_to_the_rules():
    with Battle(terrain_spec(["INFANTRY"])) as b:
        cmd = shifted(b, "ours", 8.0, 0.0)      # (13.06: INFANTRY cross dense features)
        assert not O.quick_refusal(b, cmd) and b.check(cmd) is None
    with Battle(terrain_spec(["MOUNTED"], fly_keyword=True)) as b:
        cmd = dataclasses.replace(shifted(b, "ours", 8.0, 0.0), fly=True)   # (21.03: over every feature)
        assert not O.quick_refusal(b, cmd) and b.check(cmd) is None


def test_a_base_just_clear_of_a_feature_or_within_the_margin_is_left_to_the_rules():
    r = 16 / 25.4
    with Battle(terrain_spec(["MOUNTED"])) as b:
        # (its third model's base 0.01" short of the wall: legal)
        cmd = shifted(b, "ours", 15 - 13 - r - 0.01, 0.0)
        assert not O.quick_refusal(b, cmd) and b.check(cmd) is None
        # (into the wall by less than the look's margin beyond TOUCH: refused by the rules alone)
        cmd = shifted(b, "ours", 15 - 13 - r + 5e-4, 0.0)
        assert not O.quick_refusal(b, cmd) and "a dense feature of 'wall'" in b.check(cmd)


def play_judged(monkeypatch, name, players, seed, rounds=None, record=None):
    """Play a battle of ``scenarios/{name}.toml`` with every quick look the players make (of
    commands of ``record`` only, given one) answered by both it and Battle.check, which must
    refuse whatever the look calls refused: (the commands looked at, those called refused).
    The look's compiled kernels (``movement.bases_refused`` and ``movement.round_features_refuse``,
    where built) run in ``check`` mode: every call compared with its numpy reference to the bit
    (sim.rules.compiled), as the golden replays compare the rules' kernels (no replay has
    players to call them)."""
    kerns = [C.KERNELS[n] for n in ("movement.bases_refused", "movement.round_features_refuse")]
    checked = [k.checked for k in kerns]
    for k in kerns:
        k.set_mode("check")
    try:
        out = _play_judged(monkeypatch, name, players, seed, rounds, record)
    finally:
        for k in kerns:
            k.set_mode(C._mode)
    for k, before in zip(kerns, checked):
        if k.compiled is not None and (record is None or k is kerns[0]):
            assert k.checked > before, k.name
    return out


def _play_judged(monkeypatch, name, players, seed, rounds, record):
    real = O.quick_refusal
    looked, said = [], []

    def both(battle, cmd):
        quick = real(battle, cmd)
        if record is None or cmd.record is record:
            looked.append(cmd)
            if quick:
                said.append(cmd)
                assert battle.check(cmd) is not None, cmd
        return quick
    monkeypatch.setattr(O, "quick_refusal", both)
    s = load_scenario(ROOT / f"scenarios/{name}.toml")
    mission = dataclasses.replace(s.mission, players=players)
    if rounds is not None:
        mission = dataclasses.replace(mission, rounds=rounds)
    s = dataclasses.replace(s, mission=mission)
    with Battle(s, seed=seed) as b:
        play_battle(b, s)
    return looked, said


@pytest.mark.parametrize("name,players,seed,rounds,least", [
    ("battle_default", ("random", "random"), 3, None, 3),
    ("battle_default", ("default", "random"), 4, None, 3),
    ("battle_default", ("tactician", "random"), 5, None, 3),
    # (the full-size armies' default players: round bases crossing and ending in the ruins and
    # containers of the ladder's table, two battle rounds)
    ("ladder/full_size", ("default", "default"), 1, 2, 20),
])
def test_every_move_it_calls_refused_in_whole_battles_is_refused(monkeypatch, name, players, seed, rounds, least):
    """Each call the players make is answered by both: whenever the quick look says refused,
    Battle.check refuses too (and the look says it often enough for this to mean something)."""
    _looked, said = play_judged(monkeypatch, name, players, seed, rounds)
    assert len(said) >= least


@pytest.mark.parametrize("name", ["deployment", "ladder/full_size"])
def test_every_scout_move_it_calls_refused_is_refused(monkeypatch, name):
    """24.32 The default player's scout moves (sim.commands.deploy.default_scout) are looked at
    first too: each one the quick look calls refused (a base over the edge, on another unit's, or
    within 8" of an enemy), Battle.check refuses. The battles' deployments only (26 steps 7-11)."""
    from sim.commands import SCOUT_MOVE
    looked, said = play_judged(monkeypatch, name, ("default", "default"), 1, rounds=1, record=SCOUT_MOVE)
    assert looked and len(said) >= 2
