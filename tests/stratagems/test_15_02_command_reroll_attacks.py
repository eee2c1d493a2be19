"""15.02 Command Re-roll after the attack sequence's rolls and the hazard rolls: 1 CP, either
player's turn, just after a friendly roll for the number of attacks, a hit, wound, save (the
defender's), damage or hazard roll; one die of a roll of several. Offered only when it can
matter (a die some face of which gives a better result: a failed one, one below its highest
face; a non-critical hit or wound when a critical one does more:
test_15_02_command_reroll_criticals) and the 15.01 limits allow it (the CP, once per phase per
player, one stratagem per unit per phase, not on a battle-shocked unit); never for a die
re-rolled already (01.05.02, [TWIN-LINKED], re-roll 1s); the default policy declines (Part A ruling 25).
Free play tracks no CP: nothing is offered."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit, weapon
from scen import of_type, scenario, wounds
from sim.battle import Battle
from sim.commands import EndPhase, SelectToMove, Selection, Shoot, StartBattle
from sim.decisions import DecisionRequest, Scripted
from sim.players.resolve import answer_from
from sim.rules.dice import DiceExpr, ForcedDice
from sim.rules.sequence import PoolState, hit_rerollable, wound_rerollable
from sim.rules import command_reroll as RR
from sim.stratagems import command_reroll as CR
from sim.world import queries as W

WEAPONS = {
    "gun": weapon(24, 1, 3, 4, 0, 1),                       # hits on 3+, wounds T4 on 4+
    "guns": weapon(24, 3, 3, 4, 0, 1),
    "twin gun": weapon(24, 1, 3, 4, 0, 1, "[TWIN-LINKED]"),
    "steady gun": weapon(24, 1, 3, 4, 0, 1, "[REROLL HITS 1]"),
    "sure gun": weapon(24, 1, 3, 4, 0, 1, "[REROLL WOUNDS 1]"),
    "lascannon": weapon(24, 1, 3, 4, 0, "D6"),
    "storm": weapon(24, "D6", 3, 4, 0, 1),
    "plasma": weapon(24, 1, 3, 4, 0, 1, "[HAZARDOUS]"),
    "blade": weapon("melee", 2, 3, 4, 0, 1),
}


def _spec(red_weapons=("gun",), blue_W=1, blue_Sv=3, red2=False):
    red = [unit("r1", model((20, 10), list(red_weapons)))]
    if red2:
        red.append(unit("r2", model((30, 10), ["gun"])))
    blue = [unit("b1", model((20, 20), ["blade"], W=blue_W, Sv=blue_Sv))]
    return mission_scenario(red, blue, weapons=WEAPONS)


def _shooting(spec, dice, cp=(1, 0), setup=None):
    """Red's Shooting phase in round 1, the CP set as it starts (no CP before: nothing else
    is offered on the way)."""
    b = Battle(spec, dice=ForcedDice(list(dice)))
    b.run_command(StartBattle())
    b.turn_state.cp = [0, 0]
    while str(b.turn_state.phase) != "shooting":
        b.run_command(EndPhase())
    b.turn_state.cp = list(cp)
    if setup:
        b._enter()
        setup(b)
    return b


def _shoot(b, weapon_name="gun", answer=None, unit_id="r1"):
    b.run_command(Shoot(unit_id, (Selection(f"{unit_id}/1", weapon_name, "b1"),)), answer)


def _asked(b) -> list[dict]:
    return [e for e in of_type(b, "decision") if e["kind"] == "stratagem" and e["key"].startswith(CR.NAME)]


def _choose(option: str, seen: list | None = None):
    """Answers ``option`` to the request that offers it (the others: their default); keeps each
    Command Re-roll request in ``seen``."""
    def f(req):
        if seen is not None and req.kind == "stratagem" and req.key.startswith(CR.NAME):
            seen.append(req)
        return option if option in req.options else req.default
    return f


def test_15_02_a_failed_hit_re_rolled_hits():
    seen = []
    # hit 1 (fails), re-rolled 5; wound 4; save 1: b1/1 destroyed
    with _shooting(_spec(), [1, 5, 4, 1]) as b:
        _shoot(b, answer=_choose("pool 0 hit 0: 1", seen))
        (req,) = seen
        assert req.player == 0 and req.options == ["pool 0 hit 0: 1", "decline"] and req.default == "decline"
        (hits,) = of_type(b, "hit rolls")
        assert hits["rolls"] == [5] and hits["hits"] == 1
        assert hits["command_reroll"] == {"die": 0, "from": 1, "to": 5}
        (used,) = of_type(b, "stratagem")
        assert (used["stratagem"], used["target"], used["cp"], used["cp_left"]) == (CR.NAME, "r1", 1, 0)
        assert [p for p, _ in b.dice.log][:2] == ["hit rolls", "hit rolls (Command Re-roll)"]
        assert b.turn_state.cp[0] == 0
        assert wounds(b, "b1/1") == 0


def test_15_02_declined_by_default_the_miss_stands():
    with _shooting(_spec(), [1]) as b:
        _shoot(b)
        (d,) = _asked(b)
        assert d["answer"] == "decline" and d["player"] == 0
        (hits,) = of_type(b, "hit rolls")
        assert hits["hits"] == 0 and "command_reroll" not in hits
        assert of_type(b, "stratagem") == [] and b.turn_state.cp[0] == 1


def test_15_02_a_hit_roll_without_a_failed_die_is_not_offered():
    with _shooting(_spec(), [3, 6, 6]) as b:  # hit 3 (hits), wound 6, save 6
        _shoot(b)
        assert _asked(b) == []


def test_15_02_one_die_of_several():
    seen = []
    # hits 1 4 2: dice 0 and 2 failed; die 2 re-rolled to 6 (a critical hit); wounds 1 1
    with _shooting(_spec(("guns",)), [1, 4, 2, 6, 1, 1], cp=(2, 0)) as b:
        b.run_command(Shoot("r1", (Selection("r1/1", "guns", "b1"),)), _choose("pool 0 hit 2: 2", seen))
        hit_req = seen[0]
        assert hit_req.options == ["pool 0 hit 0: 1", "pool 0 hit 2: 2", "decline"]
        (hits,) = of_type(b, "hit rolls")
        assert hits["rolls"] == [1, 4, 6] and hits["hits"] == 2 and hits["criticals"] == 1
        assert [r for p, r in b.dice.log if "Command Re-roll" in p] == [(6,)]  # one die only
        assert b.turn_state.cp[0] == 1
        # the wound roll's failures are not offered again: Command Re-roll is once per phase
        assert len(seen) == 1


def test_15_02_a_save_is_re_rolled_by_the_defender():
    seen = []
    # hit 4, wound 4, save 1 (fails Sv 3+): blue is asked, re-rolls it to 5: saved
    with _shooting(_spec(blue_W=1), [4, 4, 1, 5], cp=(0, 1)) as b:
        _shoot(b, answer=_choose("pool 0 save 0: 1", seen))
        (req,) = seen
        assert req.player == 1 and req.options == ["pool 0 save 0: 1", "decline"]
        (sv,) = of_type(b, "save rolls")
        assert sv["rolls"] == [5] and sv["command_reroll"] == {"die": 0, "from": 1, "to": 5}
        (used,) = of_type(b, "stratagem")
        assert (used["player"], used["target"], used["cp_left"]) == ("blue", "b1", 0)
        (dmg,) = of_type(b, "damage")
        assert dmg["steps"][0]["saved"] is True
        assert wounds(b, "b1/1") == 1


def test_15_02_a_save_that_no_result_could_pass_is_not_offered():
    # Sv 7+ cannot be passed (no invulnerable save): a re-roll changes nothing
    with _shooting(_spec(blue_Sv=7), [4, 4, 3], cp=(0, 1)) as b:
        _shoot(b)
        assert _asked(b) == []


def test_15_02_a_damage_roll_re_rolled():
    seen = []
    # hit 4, wound 4, save 1, damage 2 (of 6 wounds left): re-rolled to 5
    with _shooting(_spec(("lascannon",), blue_W=6), [4, 4, 1, 2, 5]) as b:
        _shoot(b, "lascannon", _choose("pool 0 damage 0: 2", seen))
        (req,) = seen
        assert req.options == ["pool 0 damage 0: 2", "decline"] and "on b1/1" in req.key
        (dmg,) = of_type(b, "damage")
        step = dmg["steps"][0]
        assert step["damage"] == 5 and step["lost"] == 5
        assert step["command_reroll"] == {"die": 0, "from": 2, "to": 5}
        assert wounds(b, "b1/1") == 1
        assert [p for p, _ in b.dice.log][-1] == "damage roll (Command Re-roll)"


@pytest.mark.parametrize("roll,blue_W,offered", [(2, 2, False), (6, 7, False), (4, 6, True), (1, 6, True)])
def test_15_02_a_damage_roll_is_offered_only_below_its_highest_face_and_short_of_the_wounds_left(
        roll, blue_W, offered):
    # 2 wounds left: a 2 already takes them all; a 6 is the highest face; a 4 or a 1 of 6 wounds
    # left: a higher face takes more
    with _shooting(_spec(("lascannon",), blue_W=blue_W), [4, 4, 1, roll]) as b:
        _shoot(b, "lascannon")
        assert len(_asked(b)) == (1 if offered else 0)


def test_15_02_an_attack_count_roll_re_rolled():
    seen = []
    # D6 attacks: 2, re-rolled to 5; five hit rolls, all 6 (no failed die); wounds 1 x5 (the
    # phase's Command Re-roll is used: not offered)
    with _shooting(_spec(("storm",)), [2, 5] + [6] * 5 + [1] * 5) as b:
        _shoot(b, "storm", _choose("pool 0 attacks 0: 2", seen))
        (req,) = seen
        assert req.options == ["pool 0 attacks 0: 2", "decline"]
        (pool,) = of_type(b, "pool")
        assert pool["dice"] == 5 and pool["command_reroll"] == {"die": 0, "from": 2, "to": 5}
        assert [p for p, _ in b.dice.log][:2] == ["attacks (storm)", "attacks (storm) (Command Re-roll)"]
        (hits,) = of_type(b, "hit rolls")
        assert len(hits["rolls"]) == 5


@pytest.mark.parametrize("roll,offered", [(6, False), (4, True)])
def test_15_02_an_attack_count_roll_is_offered_below_its_highest_face(roll, offered):
    # D6 attacks; then every hit, wound and save roll a 6 (no ability of the gun makes a
    # critical matter: none of them is offered)
    with _shooting(_spec(("storm",)), [roll] + [6] * roll * 3) as b:
        _shoot(b, "storm")
        assert [d["key"] for d in _asked(b)] == ([f"{CR.NAME}: r1 pool 0 attacks roll"] if offered else [])


def test_15_02_a_failed_hazard_roll_re_rolled():
    seen = []
    # hit 1 (fails: offered, declined by this answer), then the hazard roll 1, re-rolled to 4
    with _shooting(_spec(("plasma",)), [1, 1, 4]) as b:
        _shoot(b, "plasma", _choose("hazard 0: 1", seen))
        assert [r.options for r in seen] == [["pool 0 hit 0: 1", "decline"], ["hazard 0: 1", "decline"]]
        (hz,) = of_type(b, "hazard rolls")
        assert hz["rolls"] == [4] and hz["failures"] == 0 and hz["mortal_wounds"] == 0
        assert hz["command_reroll"] == {"die": 0, "from": 1, "to": 4}
        assert wounds(b, "r1/1") == 1
        assert b.turn_state.cp[0] == 0


def test_15_02_a_desperate_escape_hazard_roll_re_rolled():
    red = [unit("r1", model([(10, 10), (11.5, 10)], ["gun"], Ld=7))]
    spec = mission_scenario(red, [unit("b1", model((10, 11.5), ["gun"]))])
    # hazard rolls 1 and 5; the 1 re-rolled to 6; the battle-shock roll 4 + 4
    with Battle(spec, dice=ForcedDice([1, 5, 6, 4, 4])) as b:
        b.run_command(StartBattle())  # (red's Command phase has nothing to do: its Movement phase)
        assert str(b.turn_state.phase) == "movement"
        b.turn_state.cp = [1, 0]
        b.run_command(SelectToMove("r1", "desperate escape"), _choose("hazard 0: 1"))
        (hz,) = of_type(b, "hazard rolls")
        assert hz["rolls"] == [6, 5] and hz["mortal_wounds"] == 0
        assert hz["command_reroll"] == {"die": 0, "from": 1, "to": 6}


def test_15_01_once_per_phase_per_player():
    # r1: hit 1, re-rolled 1 again (a die is re-rolled once: not offered again); r2: hit 1, not offered
    with _shooting(_spec(red2=True), [1, 1, 1], cp=(3, 0)) as b:
        _shoot(b, answer=_choose("pool 0 hit 0: 1"))
        _shoot(b, answer=_choose("pool 0 hit 0: 1"), unit_id="r2")
        assert [d["key"] for d in _asked(b)] == [f"{CR.NAME}: r1 pool 0 hit roll"]
        assert len(of_type(b, "stratagem")) == 1 and b.turn_state.cp[0] == 2


def test_15_01_once_per_phase_is_each_players_own():
    # red re-rolls its hit roll 1 (4); wound 4; blue re-rolls its save roll 1 (5) in the same phase
    with _shooting(_spec(), [1, 4, 4, 1, 5], cp=(1, 1)) as b:
        _shoot(b, answer=lambda req: req.options[0] if req.key.startswith(CR.NAME) else req.default)
        assert [u["player"] for u in of_type(b, "stratagem")] == ["red", "blue"]


def test_01_05_02_a_wound_die_re_rolled_by_twin_linked_is_not_offered():
    # hit 4; wound 1, twin-linked re-roll 2: still failed, and never re-rolled again
    with _shooting(_spec(("twin gun",)), [4, 1, 2]) as b:
        _shoot(b, "twin gun")
        assert _asked(b) == []
        (w,) = of_type(b, "wound rolls")
        assert w["rolls"] == [2] and w["rerolled"] == [2]
    # without [TWIN-LINKED] the failed wound roll is offered
    with _shooting(_spec(), [4, 1]) as b:
        _shoot(b)
        (d,) = _asked(b)
        assert d["key"] == f"{CR.NAME}: r1 pool 0 wound roll"


def test_01_05_02_a_die_re_rolled_by_a_re_roll_1s_ability_is_not_offered():
    # hit 1, re-rolled (the ability) to 2: still failed, never re-rolled again
    with _shooting(_spec(("steady gun",)), [1, 2]) as b:
        _shoot(b, "steady gun")
        assert _asked(b) == []
        (h,) = of_type(b, "hit rolls")
        assert h["rolls"] == [2] and h["rerolled"] == [2]
    # a failed 2 is not the ability's to re-roll: it is offered
    with _shooting(_spec(("steady gun",)), [2]) as b:
        _shoot(b, "steady gun")
        (d,) = _asked(b)
        assert d["key"] == f"{CR.NAME}: r1 pool 0 hit roll"
    # hit 4; wound 1, re-rolled (the ability) to 3: still failed, never re-rolled again
    with _shooting(_spec(("sure gun",)), [4, 1, 3]) as b:
        _shoot(b, "sure gun")
        assert _asked(b) == []
        (w,) = of_type(b, "wound rolls")
        assert w["rolls"] == [3] and w["rerolled"] == [3]


def test_15_02_sequence_helpers_name_the_dice_a_re_roll_could_change():
    p = PoolState(4, 3, 4, 0, DiceExpr(0, 0, 1), 4)
    assert hit_rerollable(p, [1, 2, 3, 6]) == [0, 1]
    p.snap = True  # 15.09: no hit re-rolls
    assert hit_rerollable(p, [1, 2, 3, 6]) == []
    p.snap, p.hit_fail_below = False, 6  # 10.07 indirect shooting: no hit re-rolls
    assert hit_rerollable(p, [1, 2]) == []
    p.hit_fail_below = 0
    assert wound_rerollable(p, [1, 3, 4, 2], {1: 3}) == [0, 3]


def test_15_02_not_offered_with_no_cp():
    with _shooting(_spec(), [1], cp=(0, 0)) as b:
        _shoot(b)
        assert _asked(b) == []


def test_15_01_not_offered_to_a_battle_shocked_unit():
    def shock(b):
        W.unit_state(b.units["r1"]).battle_shocked = True
    with _shooting(_spec(), [1], setup=shock) as b:
        _shoot(b)
        assert _asked(b) == []
    def shock_blue(b):
        W.unit_state(b.units["b1"]).battle_shocked = True
    with _shooting(_spec(), [4, 4, 1], cp=(0, 1), setup=shock_blue) as b:
        _shoot(b)
        assert _asked(b) == []


def test_15_01_not_offered_for_a_unit_already_targeted_this_phase():
    def targeted(b):
        b.turn_state.stratagem_targets[0].append("r1")
    with _shooting(_spec(), [1], cp=(2, 0), setup=targeted) as b:
        _shoot(b)
        assert _asked(b) == []


def test_15_02_free_play_offers_nothing():
    spec = scenario(WEAPONS, [unit("r1", model((20, 10), ["gun"]))], [unit("b1", model((20, 20), ["blade"]))])
    with Battle(spec, dice=ForcedDice([1])) as b:
        b.run_command(Shoot("r1", (Selection("r1/1", "gun", "b1"),)))
        assert _asked(b) == [] and b.turn_state is None


def _req(roll, options, player=0, pool=0):
    dice = {o: int(o.split(": ")[0].rsplit(" ", 1)[1]) for o in options}
    return DecisionRequest("stratagem", f"{CR.NAME}: r1 pool {pool} {roll} roll", player, list(options) + ["decline"],
                           "decline", context={"stratagem": CR.NAME, "target": "r1", "use": options[0],
                                               "roll": roll, "dice": dice, "pool": pool})


def test_15_02_script_answers_name_the_die():
    req = _req("hit", ["pool 0 hit 1: 1", "pool 0 hit 3: 2"])
    assert RR.fit_script(req, "hit") == ("pool 0 hit 1: 1", "'hit' stands for 'pool 0 hit 1: 1'")
    assert RR.fit_script(req, "hit 3")[0] == "pool 0 hit 3: 2"
    assert RR.fit_script(req, "pool 0 hit 3: 2") == ("pool 0 hit 3: 2", None)
    assert RR.fit_script(req, "wound") == ("decline", None)  # (another roll's answer)
    assert RR.fit_script(req, "pool 1 hit") == ("decline", None)  # (another pool's)
    answer, note = RR.fit_script(req, "hit 2")
    assert answer == "decline" and "not a die offered here" in note
    # another stratagem's answer stands for that one: a decline here, without a note
    assert RR.fit_script(req, "r1 -> b1") == ("decline", None)
    charge = DecisionRequest("stratagem", f"{CR.NAME}: r1 charge roll 4", 0, ["use", "decline"], "decline",
                             context={"stratagem": CR.NAME, "target": "r1", "roll": "charge"})
    assert RR.fit_script(charge, "r1 -> b1") is None  # (fitted as before: with a note)
    assert RR.fit_script(charge, "hit") == ("decline", None)


def test_15_02_a_save_answer_in_the_attackers_step_is_the_defenders():
    answer = answer_from({"stratagem": "save"}, side=0)
    assert answer(_req("save", ["pool 0 save 0: 1"], player=1)) == Scripted("save")
    assert answer(_req("hit", ["pool 0 hit 0: 1"], player=1)) == "decline"
    other = answer_from({"stratagem": "hit"}, side=0)
    assert other(_req("save", ["pool 0 save 0: 1"], player=1)) == "decline"


def test_15_02_a_scripted_save_answer_in_a_battle():
    with _shooting(_spec(), [4, 4, 1, 6], cp=(0, 1)) as b:
        _shoot(b, answer=answer_from({"stratagem": "save"}, side=0))
        (d,) = _asked(b)
        assert d["answer"] == "pool 0 save 0: 1" and d["scripted"] == "save"
        assert of_type(b, "save rolls")[0]["rolls"] == [6]


@pytest.mark.parametrize("answer,ok", [("hit", True), ("pool 0 hit 2", True), ("save 1", True),
                                       ("pool 1 damage 0: 3", True), ("hazard", True),
                                       ("hit two", False), ("charge 1", False)])
def test_15_02_a_script_may_name_a_die_when_it_is_read(answer, ok):
    from sim.errors import ScenarioError
    from sim.scenario.load import parse_scenario
    data = {"battle": {"name": "t", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": [unit("r1", model((20, 10), ["gun"]))]},
                       {"name": "B", "units": [unit("b1", model((20, 20), ["blade"]))]}],
            "mission": {"first": "red", "deployed": False},
            "script": [{"shoot": "r1", "targets": {"gun": "b1"}, "decisions": {"stratagem": answer}}]}
    if ok:
        parse_scenario(data, "test.toml")
    else:
        with pytest.raises(ScenarioError, match=r"Command Re-roll, 15.02"):
            parse_scenario(data, "test.toml")
