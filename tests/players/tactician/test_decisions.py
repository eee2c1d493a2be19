"""The tactician's answers to decisions (issue 27 item 1): a Command Re-roll where it pays (a
failed charge roll a new roll would likely make; a high-value shot) and never where it cannot
(a passed roll, a hopeless one, a trivial die); no stratagem it cannot pay for; Insane Bravery
for a unit holding an objective; [PRECISION] at the most valuable CHARACTER; the defender's
allocation order keeping the special weapon's bearer alive; every answer deterministic."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from phased import mission_scenario, model, unit, weapon
from scen import of_type, row, scenario, wounds
from sim.battle import Battle
from sim.commands import DeclareCharge, EndPhase, Selection, Shoot, StartBattle
from sim.decisions import DecisionRequest
from sim.players import play_battle
from sim.players.tactician import TacticianPlayer
from sim.players.tactician import decisions
from sim.rules.dice import ForcedDice
from sim.scenario.load import load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[3]
WEAPONS = {
    "gun": weapon(24, 1, 3, 4, 0, 1),
    "blade": weapon("melee", 2, 3, 4, 0, 1),
    "lascannon": weapon(48, 1, 3, 12, -3, "D6+1"),
    "rifle": weapon(24, 2, 3, 4, 0, 1),
}


def _battle(red, blue, dice, *, phase, cp=(2, 2), objectives=None):
    spec = mission_scenario(red, blue, weapons=WEAPONS, objectives=objectives)
    b = Battle(spec, dice=ForcedDice(list(dice)))
    b.run_command(StartBattle())
    b.turn_state.cp = [0, 0]
    while str(b.turn_state.phase) != phase:
        b.run_command(EndPhase())
    b.turn_state.cp = list(cp)
    return b


def _by(b, sides=(0,)):
    """Decisions of ``sides`` answered by tacticians (the others: their defaults)."""
    players = {s: TacticianPlayer(s, b, b.scenario) for s in sides}
    return lambda req: players[req.player].answer(b, req) if req.player in players else req.default


def _rerolls(b):
    return [e for e in of_type(b, "stratagem") if e["stratagem"] == "Command Re-roll"]


# --- Command Re-roll of a charge roll ---------------------------------------------------------------

def _charge(dice, gap_centres=9.0, cp=(2, 2)):
    red = [unit("r", model((20, 20), ["blade"]))]
    blue = [unit("b", model((20, 20 + gap_centres), ["blade"]))]
    b = _battle(red, blue, dice, phase="charge", cp=cp)
    b.run_command(DeclareCharge("r"), _by(b))
    return b


def test_a_failed_charge_roll_needing_8_is_re_rolled():
    # 9" between centres, 32 mm bases: 7.74" apart, a roll of 8 needed (42%); 2+3 fails
    with _charge([2, 3, 4, 4]) as b:
        (used,) = _rerolls(b)
        assert [e["answer"] for e in of_type(b, "decision") if e["kind"] == "stratagem"] == ["use"]
        assert used["about"] == "charge roll 5" and b.turn_state.cp[0] == 1
        assert [e["roll"] for e in of_type(b, "charge") if e["result"] == "declared"] == [8]


def test_a_passed_charge_roll_is_not_re_rolled():
    with _charge([5, 5]) as b:
        assert _rerolls(b) == [] and b.turn_state.cp[0] == 2
        assert [d for d in of_type(b, "decision") if d["kind"] == "stratagem"][0]["answer"] == "decline"


def test_a_hopeless_charge_is_not_re_rolled():
    # 12.9" between centres: 11.64" apart, 12 needed (3%): the CP is kept
    with _charge([1, 1], gap_centres=12.9) as b:
        assert _rerolls(b) == [] and b.turn_state.cp[0] == 2


# --- Command Re-roll of a hit roll -------------------------------------------------------------------

def _shot(weapon_name, target_kw, dice, cp=(2, 2)):
    red = [unit("r1", model((20, 10), [weapon_name]))]
    blue = [unit("b1", model((20, 30), ["gun"], **target_kw), **({"points": 240} if "W" in target_kw else {}))]
    b = _battle(red, blue, dice, phase="shooting", cp=cp)
    b.run_command(Shoot("r1", (Selection("r1/1", weapon_name, "b1"),)), _by(b))
    return b


def test_a_missed_lascannon_shot_at_a_costly_tank_is_re_rolled():
    # hit 1 (a miss), re-rolled 5; wound 6; save 1; damage 6+1: the tank loses 7 wounds
    with _shot("lascannon", {"W": 12, "T": 10, "Sv": 3}, [1, 5, 6, 1, 6]) as b:
        (used,) = _rerolls(b)
        assert used["about"].startswith("pool 0 hit 0") and b.turn_state.cp[0] == 1


def test_a_missed_rifle_shot_at_a_cheap_model_is_not_re_rolled():
    with _shot("gun", {}, [1]) as b:
        assert _rerolls(b) == [] and b.turn_state.cp[0] == 2


# --- the CP budget ---------------------------------------------------------------------------------

def test_no_re_roll_without_the_cp():
    # the failed charge of test_a_failed_charge_roll_needing_8_is_re_rolled, with no CP: the
    # offer is not made (15.01); asked anyway, the tactician declines (the default would use it)
    with _charge([2, 3], cp=(0, 0)) as b:
        assert _rerolls(b) == []
        t = TacticianPlayer(0, b, b.scenario)
        req = DecisionRequest("stratagem", "Command Re-roll: r charge roll 5", 0, ["use", "decline"], "use",
                              context={"stratagem": "Command Re-roll", "target": "r", "roll": "charge"})
        assert t.answer(b, req) == "decline"
        b.turn_state.cp = [2, 2]
        assert t.answer(b, req) == "use"


def _overwatch_answer(target_points, cp):
    """Blue's answer to Fire Overwatch (15.08) at the end of red's Movement phase: ten riflemen
    (20 snap shots, only 6s hit) at five red models 20" away."""
    red = [unit("r", model([(10 + 1.5 * i, 10) for i in range(5)], ["gun"], Sv=4), name="Raiders",
                points=target_points)]
    blue = [unit("b", model([(10 + 1.5 * i, 30) for i in range(10)], ["rifle"]), name="Wardens")]
    with _battle(red, blue, [], phase="movement", cp=(0, cp)) as b:
        b._enter()
        req = DecisionRequest("stratagem", "Fire Overwatch", 1, ["b -> r", "decline"], "decline",
                              context={"stratagem": "Fire Overwatch"})
        return TacticianPlayer(1, b, b.scenario).answer(b, req)


def test_fire_overwatch_when_the_snap_shots_are_worth_the_cp():
    # 20 shots x 1/6 x 1/2 x 1/2 = 0.83 models expected: at 30 points a model, 25 points
    assert _overwatch_answer(150, cp=3) == "b -> r"
    # at 4 points a model, 3.3 points: not worth a CP
    assert _overwatch_answer(20, cp=3) == "decline"
    assert _overwatch_answer(150, cp=0) == "decline"


def test_explosives_at_the_unit_its_mortal_wounds_are_worth_most():
    # three mortal wounds expected (15.05): three 20-point models of b1, or 3 of b2's 12 wounds
    # (a 120-point model: 30 points), or three 2-point models of b3
    red = [unit("r", model((20, 10), ["gun"]))]
    blue = [unit("b1", model(row(10, 16, 4), ["gun"]), points=80),
            unit("b2", model((30, 16), ["gun"], W=12, T=10), points=120),
            unit("b3", model(row(40, 16, 4), ["gun"]), points=8)]
    options = ["r -> b1", "r -> b2", "r -> b3", "decline"]
    with _battle(red, blue, [], phase="shooting", cp=(3, 0)) as b:
        b._enter()
        t = TacticianPlayer(0, b, b.scenario)
        req = DecisionRequest("stratagem", "Explosives", 0, options, "decline", context={"stratagem": "Explosives"})
        assert t.answer(b, req) == "r -> b1"
        req.options = ["r -> b3", "decline"]
        assert t.answer(b, req) == "decline"


def test_insane_bravery_for_a_unit_on_an_objective_only():
    red = [unit("r", model((20, 20), ["gun"], Ld=8))]
    blue = [unit("b", model((40, 40), ["blade"]))]
    req = DecisionRequest("stratagem", "Insane Bravery: r battle-shock roll", 0, ["use", "decline"], "decline",
                          context={"stratagem": "Insane Bravery", "target": "r"})
    near = [{"name": "here", "at": [20, 21], "kind": "central"}]
    far = [{"name": "there", "at": [50, 5], "kind": "central"}]
    with _battle(red, blue, [], phase="movement", cp=(2, 2), objectives=near) as b:
        b._enter()
        assert TacticianPlayer(0, b, b.scenario).answer(b, req) == "use"
    with _battle(red, blue, [], phase="movement", cp=(2, 2), objectives=far) as b:
        b._enter()
        assert TacticianPlayer(0, b, b.scenario).answer(b, req) == "decline"


# --- [PRECISION] and allocation -----------------------------------------------------------------------

def test_precision_picks_the_most_valuable_character():
    lord = unit("lord", model((10, 10), ["gun"], keywords=("CHARACTER",), W=4, name="Lord"),
                name="Lord", abilities="Leader", leads="guard", points=150)
    aide = unit("aide", model((10, 12), ["gun"], keywords=("CHARACTER",), W=4, name="Aide"),
                name="Aide", abilities="Support", leads="guard", points=40)
    guard = unit("guard", model([(12, 10), (13.5, 10)], ["gun"]), name="Guard", points=40)
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": [unit("r", model((10, 30), ["gun"]))]},
                       {"name": "B", "units": [lord, aide, guard]}]}
    spec = parse_scenario(data, "test.toml")
    with Battle(spec) as b:
        b._enter()
        chars = [m for m in b.models if m.startswith(("lord", "aide"))]
        t = TacticianPlayer(0, b, spec)
        said = []
        t.on_explain = said.append
        for options in (chars, list(reversed(chars))):
            req = DecisionRequest("precision", "pool 0", 0, options + ["decline"], options[0])
            assert b.models[t.answer(b, req)] == b.models[next(m for m in chars if m.startswith("lord"))]
        # explained in names: the characters' own, never their ids
        assert [e.chosen for e in said] == ["Lord", "Lord"]
        assert [o.label for o in said[0].options] == ["Lord", "Aide"]


def test_the_defender_keeps_the_special_weapon_bearer_for_last():
    # the gunner (W2, a lascannon) is listed first: by default its group is first (05.03, Part A
    # ruling 9); the tactician allocates to the riflemen's group first
    squad = unit("b1", model((20, 30), ["lascannon"], W=2, Sv=4, name="Gunner"),
                 model([(22, 30), (23.5, 30), (25, 30)], ["gun"], Sv=4, name="Rifleman"), points=100)
    red = [unit("r1", model((20, 10), ["gun"]))]
    orders = []
    for sides in ((), (1,)):  # the default, then the tactician
        # hit 6, wound 6, save 1
        with _battle(red, [squad], [6, 6, 1], phase="shooting") as b:
            b.run_command(Shoot("r1", (Selection("r1/1", "gun", "b1"),)), _by(b, sides=sides))
            (alloc,) = of_type(b, "allocation order")
            orders.append(alloc["order"])
            lost = (wounds(b, "b1/1"), wounds(b, "b1/2"))
    assert orders == [["b1/1", "b1/2"], ["b1/2", "b1/1"]]
    assert lost == (2, 0)  # (the tactician's: a rifleman fell, the gunner is whole)


# --- determinism -------------------------------------------------------------------------------------

def test_the_tactician_s_decisions_are_the_same_for_a_seed():
    spec = load_scenario(ROOT / "scenarios/battle_default.toml")
    s = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("tactician", "tactician")))
    seen = []
    for _ in range(2):
        with Battle(s, seed=11, record_dice=False) as b:
            play_battle(b, s)
            seen.append([(e["player"], e["stratagem"], e["about"]) for e in of_type(b, "stratagem")])
    assert seen[0] == seen[1] and seen[0]


def test_an_unjudged_kind_takes_its_default():
    spec = scenario(WEAPONS, [unit("r", model((10, 10), ["gun"]))], [unit("b", model((30, 30), ["gun"]))])
    with Battle(spec) as b:
        b._enter()
        req = DecisionRequest("duplicate", "pool 0", 0, ["a", "b"], "b")
        assert decisions.answer(TacticianPlayer(0, b, spec), b, req) == "b"


def test_a_re_roll_s_explanation_counts_pools_and_dice_from_1():
    """--explain reads as people do (issue 28 item 2): the re-rolled die of the lascannon's hit
    roll (pool 0, die 0 in the log) is "pool 1, hit die 1"."""
    red = [unit("r1", model((20, 10), ["lascannon"]))]
    blue = [unit("b1", model((20, 30), ["gun"], W=12, T=10, Sv=3), points=240)]
    with _battle(red, blue, [1, 5, 6, 1, 6], phase="shooting") as b:
        tac = TacticianPlayer(0, b, b.scenario)
        said = []
        tac.on_explain = said.append
        b.run_command(Shoot("r1", (Selection("r1/1", "lascannon", "b1"),)),
                      lambda req: tac.answer(b, req) if req.player == 0 else req.default)
        (used,) = _rerolls(b)
        assert used["about"].startswith("pool 0 hit 0")  # (the log keeps the machine's count)
        text = "\n".join(e.text() for e in said)
        assert "Command Re-roll" in text and "pool 1, hit die 1 (rolled 1)" in text, text
        assert "pool 0" not in text, text
