"""Rules that move units into strategic reserves, bring destroyed units back through them, act on
units that arrived from them, or confer a deployment ability (helper "reserves"), in battles with
forced dice: Gate of Infinity (TO_RESERVES picked at the end of the opponent's Fight phase), Cult
Ambush (RESURGE from a pool), A Perfect Ambush (weapon abilities while ARRIVED) and Verminous Haze
(UNIT_ABILITY Infiltrators picked at battle formations)."""

from __future__ import annotations

import esper
import pytest

from phased import WEAPONS, mission_scenario, model, unit, weapon
from scen import of_type, scenario
from sim.battle import Battle
from sim.commands import (DeclareFormations, Deploy, EndPhase, Fight, Selection, Shoot, StartBattle)
from sim.commands.ingress import default_ingress
from sim.components import Stats, Wounds
from sim.errors import Refusal
from sim.players.resolve import answer_from
from sim.rules.abilities import Hook
from sim.rules.dice import ForcedDice
from sim.rules.effects import vocabulary as V
from sim.scenario.load import parse_scenario
from sim.world import queries as W
from sim.world import rule_effects as RE

WS = dict(WEAPONS, tickle=weapon("melee", 1, 6, 1, 0, 1), burner=weapon(36, 5, 2, 8, -4, 1))


class Asked:
    """An answer function that keeps each request (and the battle's moment when it was asked)
    and answers from a script step's decisions."""

    def __init__(self, b, decisions):
        self.b, self.answer, self.requests = b, answer_from(decisions), []

    def __call__(self, req):
        ts = self.b.turn_state
        self.requests.append((req, *((None,) * 3 if ts is None else (ts.round, ts.active, str(ts.phase)))))
        return self.answer(req)

    def of(self, kind):
        return [r for r in self.requests if r[0].kind == kind]


# --- Gate of Infinity --------------------------------------------------------------------------

GATE = ["gate-of-infinity"]


def _gate(size=None, rounds=4):
    red = [unit("g1", model((10, 5), ["gun"]), rules=GATE), unit("g2", model((20, 5), ["gun"]), rules=GATE),
           unit("g3", model((40, 20), ["tickle"]), rules=GATE)]
    blue = [unit("b1", model((40, 21.3), ["tickle"])), unit("b2", model((50, 40), ["gun"]))]
    spec = mission_scenario(red, blue, rounds=rounds, weapons=WS)
    if size is not None:
        import dataclasses
        spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, size=size))
    return spec


def _step(b, ans):
    """End the phase (or the part of a Fight-phase step); g3 and b1, engaged, fight first (their
    one attack misses on the forced 1)."""
    try:
        b.run_command(EndPhase(), ans)
    except Refusal:
        uid, tgt = ("g3", "b1") if b.turn_state.chooser == 0 else ("b1", "g3")
        b.run_command(Fight(uid, (Selection(f"{uid}/1", "tickle", tgt),)), ans)


def _until(b, ans, round_, active, phase_):
    for _ in range(200):
        ts = b.turn_state
        if (ts.round, ts.active, str(ts.phase)) == (round_, active, phase_):
            return
        _step(b, ans)
    raise AssertionError("never reached")


def test_gate_of_infinity_two_unengaged_units_into_reserves_at_the_end_of_the_opponents_fight_phase():
    with Battle(_gate(), dice=ForcedDice([1] * 40)) as b:
        ask = Asked(b, {"rule_choice": ["g3", "g1", "g2"]})  # (g3 is engaged: never offered)
        b.run_command(StartBattle(), ask)
        _until(b, ask, 2, 0, "movement")
        asked = ask.of("rule_choice")
        # asked at the end of blue's Fight phase only (never in red's own turn), one unit at a time
        assert [(r, a, p) for _q, r, a, p in asked] == [(1, 1, "fight"), (1, 1, "fight")]
        assert asked[0][0].options == ["g1", "g2", V.DONE] and asked[1][0].options == ["g2", V.DONE]
        assert asked[0][0].player == 0 and asked[0][0].default == V.DONE
        assert [e["value"] for e in of_type(b, "rule choice")][:1] == [["g1", "g2"]]
        moved = [e for e in of_type(b, "rule effect") if e["rule"] == "Gate of Infinity"]
        assert [e["unit"] for e in moved] == ["g1", "g2"]
        assert W.in_reserves(b.units["g1"]) and W.in_reserves(b.units["g2"])
        assert not W.in_reserves(b.units["g3"]) and W.unit_models(b.units["g3"])
        # round 2, red's Movement phase: g1 arrives again by an ingress move
        _until(b, ask, 2, 0, "movement")
        cmd = default_ingress(b, b.units["g1"], 0)
        b.run_command(cmd, ask)
        assert not W.in_reserves(b.units["g1"]) and of_type(b, "ingress")[-1]["unit"] == "g1"
        # g2, put back by a rule, is not destroyed at the end of battle round 3 (20.03)
        done = answer_from({"rule_choice": V.DONE})
        _until(b, done, 4, 0, "movement")
        assert W.in_reserves(b.units["g2"]) and W.alive_models(b.units["g2"])
        assert not [e for e in of_type(b, "unit destroyed") if e["unit"] == "g2"]


@pytest.mark.parametrize("size, most", [("incursion", 2), ("onslaught", 4)])
def test_gate_of_infinity_picks_at_most_the_battle_sizes_number(size, most):
    red = [unit(f"g{i}", model((5 + 6 * i, 5), ["gun"]), rules=GATE) for i in range(1, 6)]
    blue = [unit("b1", model((50, 40), ["gun"]))]
    spec = mission_scenario(red, blue, rounds=2, weapons=WS)
    import dataclasses
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, size=size))
    with Battle(spec, dice=ForcedDice([])) as b:
        ask = Asked(b, {"rule_choice": [f"g{i}" for i in range(1, 6)]})
        b.run_command(StartBattle(), ask)
        _until(b, ask, 2, 0, "movement")
        assert len(ask.of("rule_choice")) == most
        assert sum(W.in_reserves(b.units[f"g{i}"]) for i in range(1, 6)) == most


def test_gate_of_infinity_declined_by_default_and_nothing_moves():
    with Battle(_gate(), dice=ForcedDice([1] * 40)) as b:
        ans = answer_from({})
        b.run_command(StartBattle(), ans)
        _until(b, ans, 2, 0, "movement")
        assert [e["value"] for e in of_type(b, "rule choice")] == [False]
        assert not any(W.in_reserves(b.units[u]) for u in ("g1", "g2", "g3"))


# --- Cult Ambush -------------------------------------------------------------------------------

def _ambush(n=5, keywords=("INFANTRY", "ABERRANTS")):
    ab = unit("ab", model([(10 + 1.5 * i, 30) for i in range(n)], ["gun"], T=3, Sv=6), keywords=keywords,
              rules=["cult-ambush"])
    sh = unit("sh", model((10, 10), ["burner"], W=10))
    return scenario(WS, [sh], [ab])


def _shoot(b, ans):
    """sh's burner at ab: each attack hits (2+) and wounds (2+) on a forced 6; no save (AP-4 v 6+).
    (Free play: sh may shoot again, as in another turn.)"""
    b._enter()
    W.unit_state(b.units["sh"]).selected_to_shoot = False
    b.run_command(Shoot("sh", (Selection("sh/1", "burner", "ab"),)), ans)


def test_cult_ambush_brings_a_destroyed_unit_back_whole_into_reserves_for_its_points():
    with Battle(_ambush(), dice=ForcedDice([6] * 200)) as b:
        ask = Asked(b, {})  # (the default: bring it back)
        _shoot(b, ask)
        u = b.units["ab"]
        (req,) = [r for r, *_ in ask.of("rule_choice")]
        assert req.player == 1 and req.options == ["call", "decline"] and req.default == "call"
        assert "spend 4 of 10" in req.prompt
        assert of_type(b, "unit destroyed")[-1]["unit"] == "ab"
        (e,) = [e for e in of_type(b, "rule effect") if e["rule"] == "Cult Ambush"]
        assert e["unit"] == "ab" and "for 4 points (6 left)" in e["effect"]
        assert W.in_reserves(u) and len(W.alive_models(u)) == 5
        assert all(esper.component_for_entity(m, Wounds).remaining == esper.component_for_entity(m, Stats).W
                   for m in W.alive_models(u))
        assert b.resources.rule_uses["blue:cult-ambush|pool"] == 4
        assert W.unit_state(u).repositioned


def test_cult_ambush_declined_leaves_the_unit_destroyed_and_the_pool_whole():
    with Battle(_ambush(), dice=ForcedDice([6] * 200)) as b:
        _shoot(b, answer_from({"rule_choice": "decline"}))
        assert not W.alive_models(b.units["ab"]) and not W.in_reserves(b.units["ab"])
        assert "blue:cult-ambush|pool" not in b.resources.rule_uses


def test_cult_ambush_costs_by_starting_strength_and_unlisted_units_never_come_back():
    with Battle(_ambush(n=10), dice=ForcedDice([6] * 200)) as b:  # ten Aberrants: 8 of 10 points
        _shoot(b, answer_from({}))
        _shoot(b, answer_from({}))
        assert len(W.alive_models(b.units["ab"])) == 10 and W.in_reserves(b.units["ab"])
        assert b.resources.rule_uses["blue:cult-ambush|pool"] == 8
    with Battle(_ambush(keywords=("INFANTRY",)), dice=ForcedDice([6] * 200)) as b:
        _shoot(b, answer_from({}))
        assert not W.alive_models(b.units["ab"]) and not of_type(b, "rule effect")


def test_cult_ambush_pool_runs_out():
    """Five Aberrants cost 4 of the 10 points: back twice, then 2 points left are not enough."""
    from sim.world import mutations as M
    with Battle(_ambush(), dice=ForcedDice([6] * 400)) as b:
        u = b.units["ab"]
        for back in (True, True, False):
            if W.in_reserves(u):  # (set it up again where it stood, to be shot again)
                b._enter()
                M.set_up(u, [(m, 10 + 1.5 * i, 30) for i, m in enumerate(W.alive_models(u))])
            _shoot(b, answer_from({}))
            assert W.in_reserves(u) is back
        assert b.resources.rule_uses["blue:cult-ambush|pool"] == 8


# --- A Perfect Ambush ---------------------------------------------------------------------------

def _perfect(rules=("a-perfect-ambush",)):
    red = [unit("cult", model((5, 5), ["gun"]), keywords=("INFANTRY", "GENESTEALER CULTS"), reserves=True,
                rules=list(rules)), unit("r2", model((30, 2), ["gun"]))]
    blue = [unit("t", model((30, 30), ["gun"], W=100, Sv=7))]
    return mission_scenario(red, blue, rounds=3, weapons=dict(WS, gun=weapon(36, 10, 3, 4, 0, 1)))


def _abilities(b, uid):
    b._enter()
    return sorted(a.grant.what.ability for a in RE.acting(b, b.units[uid], (V.WEAPON_ABILITY,), attack="ranged"))


def test_a_perfect_ambush_abilities_after_arriving_exact_odds_and_gone_after_the_next_fight_phase():
    from sim.odds import engine as E
    for rules, expected in ((("a-perfect-ambush",), 10 * (5 / 6) / 2), ((), 10 * (2 / 3) / 2)):
        with Battle(_perfect(rules), dice=ForcedDice([])) as b:
            ans = answer_from({})
            b.run_command(StartBattle(), ans)
            _until(b, ans, 2, 0, "movement")
            if rules:
                assert _abilities(b, "cult") == []  # (not yet arrived)
            b.run_command(default_ingress(b, b.units["cult"], 0), ans)
            _until(b, ans, 2, 0, "shooting")
            if rules:
                assert _abilities(b, "cult") == ["IGNORES COVER", "SUSTAINED HITS 1"]
                assert W.unit_state(b.units["cult"]).arrived == (2, 0)
            # A10 BS3+ S4 v T4, no save: 10 x 2/3 x 1/2; SUSTAINED HITS 1: a 6 hits twice, 10 x 5/6 x 1/2
            o = E.for_command(b, Shoot("cult", (Selection("cult/1", "gun", "t"),)))
            assert o.method == "exact"
            assert o.targets[0].damage.mean == pytest.approx(expected, abs=1e-12)
            if rules:
                _until(b, ans, 2, 0, "fight")
                assert _abilities(b, "cult") == ["IGNORES COVER", "SUSTAINED HITS 1"]
                _until(b, ans, 2, 1, "shooting")  # (its Fight phase is over)
                assert _abilities(b, "cult") == []
            else:
                assert W.unit_state(b.units["cult"]).arrived is None  # (kept only where a rule reads it)


# --- Verminous Haze ----------------------------------------------------------------------------

def _waiting(n, **kw):
    m = model([(0, 0)] * n, ["gun"], **kw)
    del m["at"]
    return m


def _haze():
    pm = ("INFANTRY", "PLAGUE MARINES")
    red = [unit("p1", _waiting(2), keywords=pm, rules=["verminous-haze"]),
           unit("r2", _waiting(2), rules=["verminous-haze"]),
           unit("p3", _waiting(2), keywords=pm, rules=["verminous-haze"]),
           unit("p4", _waiting(2), keywords=pm, rules=["verminous-haze"])]
    blue = [unit("b1", _waiting(2))]
    m = {"deployment": "rules", "first": "red", "defender": "blue"}
    data = {"battle": {"name": "haze", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": red}, {"name": "B", "units": blue}], "mission": m}
    return parse_scenario(data, "test.toml")


def _row(uid, n, x, y):
    return tuple((f"{uid}/{i + 1}", float(x + 1.5 * i), float(y)) for i in range(n))


def test_verminous_haze_a_picked_plague_marines_unit_deploys_as_infiltrators():
    with Battle(_haze(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        ask = Asked(b, {"rule_choice": ["r2", "p3", "p4"]})  # (r2 is no PLAGUE MARINES unit: never offered)
        for _ in range(2):
            side = ("red", "blue")[b.turn_state.chooser]
            b.run_command(DeclareFormations(side, ()), ask)
        asked = [r for r, *_ in ask.of("rule_choice")]
        assert asked[0].options == ["p1", "p3", "p4", V.DONE] and asked[0].default == "p1"
        assert len(asked) == 2  # (at most two)
        assert [e["value"] for e in of_type(b, "rule choice")] == [["p3", "p4"]]
        b.run_command(Deploy("b1", _row("b1", 2, 10, 6)))  # blue defends: zone y 0-12
        near = 12 + 8 + 16 / 25.4 + 0.01  # (8.01" from blue's zone)
        with pytest.raises(Refusal, match=r"not wholly within its deployment zone"):
            b.submit(Deploy("p1", _row("p1", 2, 40, near)))  # (not picked: no Infiltrators)
        b.run_command(Deploy("p3", _row("p3", 2, 40, near)))
        assert of_type(b, "deployed")[-1]["infiltrators"] is True


def test_verminous_haze_default_picks_the_first_two_plague_marines_units():
    with Battle(_haze(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        for _ in range(2):
            side = ("red", "blue")[b.turn_state.chooser]
            b.run_command(DeclareFormations(side, ()))
        assert b.resources.rule_choices["red:verminous-haze"]["value"] == ["p1", "p3"]
        assert W.every_model_has(b.units["p1"], Hook.DEPLOYS_FORWARD)
        assert not W.every_model_has(b.units["p4"], Hook.DEPLOYS_FORWARD)


# --- players and replays -----------------------------------------------------------------------

def test_gate_of_infinity_in_whole_battles_by_the_players_replays_byte_for_byte(tmp_path):
    """The default battle with Gate of Infinity on the first army: the random player picks units
    at the end of the opponent's Fight phases (the default declines), and the log replays."""
    import dataclasses
    from pathlib import Path
    from sim.players import play_battle
    from sim.replay.log import Recorder, replay, write_log
    from sim.scenario.load import load_scenario
    root = Path(__file__).resolve().parents[2]
    text = (root / "scenarios/battle_default.toml").read_text()
    head, sep, rest = text.partition("[[armies]]\n")
    name_line, nl, tail = rest.partition("\n")
    path = tmp_path / "gate.toml"
    path.write_text(head + sep + name_line + nl + 'rules = ["gate-of-infinity"]\n' + tail)
    spec = load_scenario(path)
    picked = {}
    for players in (("default", "default"), ("random", "random")):
        s = dataclasses.replace(spec, script=(), mission=dataclasses.replace(spec.mission, players=players))
        with Battle(s, seed=11) as b:
            rec = Recorder(b, str(path))
            play_battle(b, s, rec)
            assert b.turn_state.over
            choices = [e for e in b.events if e["type"] == "rule choice" and e["value"] is not None]
            picked[players[0]] = [e["value"] for e in choices]
            log = write_log(tmp_path / f"{players[0]}.jsonl", rec)
        n, div = replay(log)
        assert div is None and n == b.commands_done
    assert picked["default"] and all(v is False for v in picked["default"])
    assert any(isinstance(v, list) for v in picked["random"])


def test_gate_of_infinity_answered_by_the_script_step_that_ends_the_opponents_fight_phase():
    """Red's end_phase steps (the last ends its part of blue's Fight phase) carry the answer: a
    list of units, one picked a request, then "done"."""
    from sim.players.runner import play
    red = [unit("g1", model((10, 5), ["gun"]), rules=GATE), unit("g2", model((20, 5), ["gun"]), rules=GATE)]
    blue = [unit("b1", model((50, 40), ["gun"]))]
    script = [{"end_phase": "red", "decisions": {"rule_choice": ["g2"]}} for _ in range(7)]
    spec = mission_scenario(red, blue, script=script, rounds=1)
    with Battle(spec, seed=3) as b:
        play(b, spec)
        asked = [(e["key"], e["answer"]) for e in of_type(b, "decision") if e["kind"] == "rule_choice"]
        assert asked == [("red:gate-of-infinity round 1 pick 1", "g2"), ("red:gate-of-infinity round 1 pick 2", V.DONE)]
        assert [e["unit"] for e in of_type(b, "rule effect")] == ["g2"]
        # (the battle ends with round 1: a unit still in reserves then is destroyed, 20.01.02)
        assert [e["by"] for e in of_type(b, "unit destroyed")] == ["still in strategic reserves (20.01.02)"]


def test_verminous_haze_chosen_by_the_scenario_in_a_placed_battle_and_a_bad_list_refused():
    """A battle whose armies are placed by the scenario asks no battle-formations choice: its
    ``chosen`` names the units picked (a list of friendly unit ids)."""
    from sim.errors import ScenarioError
    pm = ("INFANTRY", "PLAGUE MARINES")
    red = [unit("p1", model((10, 5), ["gun"]), keywords=pm), unit("p2", model((20, 5), ["gun"]), keywords=pm)]
    blue = [unit("b1", model((50, 40), ["gun"]))]

    def spec(chosen):
        data = {"battle": {"name": "haze", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
                "armies": [{"name": "A", "units": red, "rules": ["verminous-haze"], "chosen": chosen},
                           {"name": "B", "units": blue}]}
        return parse_scenario(data, "test.toml")

    with Battle(spec({"verminous-haze": ["p2"]}), dice=ForcedDice([])) as b:
        b._enter()
        assert W.every_model_has(b.units["p2"], Hook.DEPLOYS_FORWARD)
        assert not W.every_model_has(b.units["p1"], Hook.DEPLOYS_FORWARD)
    for bad in (["p1", "p2", "p1"], ["b1"], "p1", []):
        with pytest.raises(ScenarioError, match="a list of 1 to 2 ids of friendly units"):
            spec({"verminous-haze": bad})


def test_cult_ambush_a_unit_back_in_reserves_arrives_by_an_ingress_move_and_outlasts_round_3():
    ab = unit("ab", model([(10 + 1.5 * i, 30) for i in range(5)], ["gun"], T=3, Sv=6),
              keywords=("INFANTRY", "ABERRANTS"), rules=["cult-ambush"])
    sh = unit("sh", model((10, 10), ["burner"], W=10))
    spec = mission_scenario([ab], [sh], rounds=4, weapons=WS)
    with Battle(spec, dice=ForcedDice([6] * 15)) as b:
        ans = answer_from({})
        b.run_command(StartBattle(), ans)
        _until(b, ans, 1, 1, "shooting")
        b.run_command(Shoot("sh", (Selection("sh/1", "burner", "ab"),)), ans)
        u = b.units["ab"]
        assert W.in_reserves(u) and b.resources.rule_uses["red:cult-ambush|pool"] == 4
        _until(b, ans, 4, 0, "movement")  # (kept in reserves past the end of round 3)
        assert W.in_reserves(u) and not [e for e in of_type(b, "unit destroyed") if "reserves" in e.get("by", "")]
        b.run_command(default_ingress(b, u, 0), ans)
        assert len(W.unit_models(u)) == 5 and "ABERRANTS" in W.unit_keywords(u)
