"""The random player's Shooting draws (sim.players.random_player._ShootOptions): the targets
within some reach of a unit (could_shoot_candidates) are kept while no model moves or comes
onto the battlefield (the spatial index's layout_version), a superset of those within reach
after a removal. Every pair drawn is answered as with the targets asked afresh: in a
constructed removal, and over whole random battles (every kept answer holds the fresh one,
and the battles' events are the same with the keeping turned off)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from phased import mission_scenario, model, unit, weapon
from scen import kill
from sim.battle import Battle
from sim.commands import StartBattle
from sim.players import play_battle
from sim.players import random_player as RP
from sim.plan.common import could_shoot_candidates
from sim.rules.dice import ForcedDice
from sim.scenario.load import load_scenario
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[2]
WEAPONS = {"pistol": weapon(12, 1, 3, 4, 0, 1, "[PISTOL]")}


def test_a_removal_keeps_the_targets_and_a_drawn_pair_out_of_reach_now_is_refused():
    # (the target's near model 8" from the shooter, its other one 30" away: killing the near
    # one takes the unit out of the pistol's 12")
    red = [unit("sh", model([(10, 10)], ["pistol"]))]
    blue = [unit("t", model([(18.5, 10)], ["pistol"]), model([(40, 10)], ["pistol"]))]
    with Battle(mission_scenario(red, blue, weapons=WEAPONS), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        b._enter()
        u, t = b.units["sh"], b.units["t"]
        kept: dict = {}
        opts = RP._ShootOptions(b, [u], [t], None, kept)
        assert opts.near(u) == frozenset({t}) and opts[0] is not None
        layout = W.spatial().layout_version
        kill(b, "t/1")
        b._enter()
        assert W.spatial().layout_version == layout     # (a removal: the kept targets stand)
        assert could_shoot_candidates(u, [t]) == []
        opts = RP._ShootOptions(b, [u], [t], None, kept)
        assert opts.near(u) == frozenset({t})           # (kept: a superset now)
        assert opts[0] is None                          # (refused as if asked afresh)
        assert opts[1] is not None and len(opts) == 2   # (End Phase)


def _spec(seed_players=("random", "random")):
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    return dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=seed_players))


def _events(spec, seed):
    out = []
    with Battle(spec, seed=seed) as b:
        b.listeners.append(lambda e: out.append(e))
        play_battle(b, spec)
    return out


def test_kept_targets_hold_every_target_in_reach_and_change_no_choice(monkeypatch):
    spec = _spec()
    kept_near = RP._ShootOptions.near
    asked = reused = wider = 0

    def checked(self, u):
        nonlocal asked, reused, wider
        fresh = frozenset(could_shoot_candidates(u, self.enemies))
        got = self.kept.get(u)
        near = kept_near(self, u)
        asked += 1
        reused += got is not None and self.kept[u] is got
        wider += near != fresh
        assert fresh <= near, (u, fresh, near)
        return near

    with monkeypatch.context() as m:
        m.setattr(RP._ShootOptions, "near", checked)
        kept = [_events(spec, seed) for seed in (1, 2)]
    assert asked > 50 and reused > 0
    # the same battles with every unit's targets asked afresh at each choice
    with monkeypatch.context() as m:
        m.setattr(RP._ShootOptions, "near", lambda self, u: frozenset(could_shoot_candidates(u, self.enemies)))
        fresh = [_events(spec, seed) for seed in (1, 2)]
    assert kept == fresh


def test_the_draw_loop_passing_over_pairs_out_of_reach_draws_as_asking_each_option(monkeypatch):
    """RandomPlayer._draw_shot skips a drawn pair whose target is out of every reach without
    building the option: the battles are those of the plain loop asking ``options[i]`` of every
    draw (the same draws from the player's stream, the same commands)."""
    from sim.players.base import Choice
    from sim.commands import EndPhase
    spec = _spec()
    fast = [_events(spec, seed) for seed in (1, 2)]

    def plain(self, battle, options, order):
        while order:
            i = order.pop(int(self.rng.random() * len(order)))
            cmd = options[i]
            if cmd is not None and battle.check(cmd) is None:
                return Choice(cmd, self.name)
        return Choice(EndPhase(), self.name)

    with monkeypatch.context() as m:
        m.setattr(RP.RandomPlayer, "_draw_shot", plain)
        slow = [_events(spec, seed) for seed in (1, 2)]
    assert fast == slow and any(e["type"] == "attacks resolved" for e in fast[0])
