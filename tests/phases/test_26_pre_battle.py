"""26 steps 5-11 A battle deployed by the rules: the roles (a roll-off's winner chooses), battle
formations (declared in secret, revealed together; the reserves cap), deployment (alternating,
Defender first; TITANIC; wholly within the zone; 24.20 Infiltrators), the first-turn roll-off,
pre-battle rules (24.31 Scouts, 24.32 the scout move) and then battle round 1."""

from __future__ import annotations

import pytest

from phased import WEAPONS, model, unit
from scen import of_type
from sim.battle import Battle
from sim.commands import DeclareFormations, Deploy, EndPhase, Ingress, Move, ScoutMove, StartBattle
from sim.errors import Refusal
from sim.rules.dice import ForcedDice
from sim.rules.turn import PreBattleStep
from sim.scenario.load import parse_scenario


def waiting(n: int, **kw) -> dict:
    """A model entry of ``n`` models with no positions (they wait to be deployed)."""
    m = model([(0, 0)] * n, ["gun"], **kw)
    del m["at"]
    return m


def spec(red, blue, **mission):
    m = {"deployment": "rules", "first": "red", "defender": "red"}
    m.update(mission)
    for k in [k for k, v in m.items() if v is None]:
        del m[k]
    data = {"battle": {"name": "pre-battle", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": red}, {"name": "B", "units": blue}], "mission": m}
    return parse_scenario(data, "test.toml")


def to(uid: str, *pts) -> tuple:
    return tuple((f"{uid}/{i + 1}", float(x), float(y)) for i, (x, y) in enumerate(pts))


def row(uid: str, n: int, x: float, y: float) -> tuple:
    return to(uid, *[(x + 1.5 * i, y) for i in range(n)])


def two_a_side(**mission):
    red = [unit("r1", waiting(2)), unit("r2", waiting(2))]
    blue = [unit("b1", waiting(2)), unit("b2", waiting(2))]
    return spec(red, blue, **mission)


def formations(b, red=(), blue=()):
    held = {"red": tuple(red), "blue": tuple(blue)}
    for _ in range(2):  # (the Defender declares first)
        side = ("red", "blue")[b.turn_state.chooser]
        b.run_command(DeclareFormations(side, held[side]))


# --- 26 step 5 --------------------------------------------------------------------------------

def test_26_05_the_roll_off_winner_chooses_the_roles_and_the_zones_go_with_them():
    dice = ForcedDice([2, 5])  # blue wins
    with Battle(two_a_side(defender=None), dice=dice) as b:
        b.submit(StartBattle())
        b.step_until_blocked()
        req = b.pending
        assert req.kind == "role" and req.player == 1 and req.options == ["defender", "attacker"]
        b.answer("defender")
        b.step_until_blocked()
        ts = b.turn_state
        assert ts.the_defender() == 1 and ts.pre_battle == PreBattleStep.FORMATIONS and ts.chooser == 1
        # blue deploys in the zone the mission wrote for its Defender (y 0-12), red in the other
        assert ts.zones()[1][0] == (0.0, 0.0) and ts.zones()[0][0] == (0.0, 32.0)
        homes = {o.name: o.owner for o in ts.objectives if o.kind == "home"}
        assert sorted(homes.values()) == [0, 1]
        assert next(o for o in ts.objectives if o.kind == "home" and o.y < 22).owner == 1
        (roles,) = of_type(b, "roles")
        assert roles["defender"] == "blue" and roles["chosen_by"] == "blue"


def test_26_05_a_named_defender_needs_no_roll_off():
    dice = ForcedDice([])
    with Battle(two_a_side(), dice=dice) as b:
        b.run_command(StartBattle())
        assert b.turn_state.the_defender() == 0 and b.turn_state.zones() == b.turn_state.mission.zones
        assert dice.log == []


# --- 26 step 7 --------------------------------------------------------------------------------

def test_26_07_formations_are_revealed_only_once_both_are_declared():
    with Battle(two_a_side()) as b:
        b.run_command(StartBattle())
        with pytest.raises(Refusal, match=r"red's turn to declare"):
            b.submit(DeclareFormations("blue"))
        b.run_command(DeclareFormations("red", ("r2",)))
        assert of_type(b, "battle formations") == [] and b.turn_state.chooser == 1
        b.run_command(DeclareFormations("blue"))
        shown = of_type(b, "battle formations")
        assert [(e["player"], e["reserves"]) for e in shown] == [("red", ["r2"]), ("blue", [])]
        b._enter()
        from sim.world import queries as W
        assert W.in_reserves(b.units["r2"]) and not W.undeployed(b.units["r2"])
        assert W.undeployed(b.units["r1"]) and not W.in_reserves(b.units["r1"])
        assert b.turn_state.pre_battle == PreBattleStep.DEPLOY


def test_20_01_formations_keep_the_reserves_cap():
    with Battle(two_a_side()) as b:
        b.run_command(StartBattle())
        with pytest.raises(Refusal, match=r"at most 1.*20.01"):
            b.submit(DeclareFormations("red", ("r1", "r2")))
        with pytest.raises(Refusal, match=r"b1 is not red's unit"):
            b.submit(DeclareFormations("red", ("b1",)))


# --- 26 step 8 --------------------------------------------------------------------------------

def test_26_08_players_alternate_defender_first_then_one_sets_up_the_rest():
    red = [unit("r1", waiting(2)), unit("r2", waiting(2)), unit("r3", waiting(2))]
    blue = [unit("b1", waiting(2))]
    with Battle(spec(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        formations(b)
        order = []
        for cmd in (Deploy("r1", row("r1", 2, 10, 6)), Deploy("b1", row("b1", 2, 10, 38)),
                    Deploy("r2", row("r2", 2, 20, 6)), Deploy("r3", row("r3", 2, 30, 6))):
            order.append(b.turn_state.chooser)
            b.run_command(cmd)
        assert order == [0, 1, 0, 0]
        # everything is set up: the first player (named: red) has no Scouts, so the battle began
        assert b.turn_state.pre_battle is None and b.turn_state.round == 1


def test_26_08_a_deployment_turn_is_the_players_alone():
    with Battle(two_a_side(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        formations(b)
        with pytest.raises(Refusal, match=r"red's turn in the deployment"):
            b.submit(Deploy("b1", row("b1", 2, 10, 38)))
        with pytest.raises(Refusal, match=r"not accepted before the battle"):
            b.submit(Move("r1", row("r1", 2, 10, 6)))


def test_26_08_a_titanic_unit_costs_its_players_next_deployment_turn():
    red = [unit("r1", waiting(1, base_mm=100), keywords=("VEHICLE", "TITANIC")), unit("r2", waiting(2))]
    blue = [unit("b1", waiting(2)), unit("b2", waiting(2))]
    with Battle(spec(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        formations(b)
        b.run_command(Deploy("r1", to("r1", (20, 4))))
        b.run_command(Deploy("b1", row("b1", 2, 10, 38)))
        assert b.turn_state.chooser == 1  # (red's turn was the one the TITANIC unit cost)
        b.run_command(Deploy("b2", row("b2", 2, 20, 38)))
        assert b.turn_state.chooser == 0


def test_26_08_a_unit_is_set_up_wholly_within_its_zone():
    with Battle(two_a_side(), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        formations(b)
        with pytest.raises(Refusal, match=r"r1/1 is not wholly within its deployment zone \(across its edge\)"):
            b.submit(Deploy("r1", row("r1", 2, 10, 11.9)))
        with pytest.raises(Refusal, match=r"sets up every model of r1 once"):
            b.submit(Deploy("r1", row("r1", 1, 10, 6)))
        b.run_command(Deploy("r1", row("r1", 2, 10, 11.3)))
        b.run_command(Deploy("b1", row("b1", 2, 10, 38)))
        with pytest.raises(Refusal, match=r"set up already"):
            b.submit(Deploy("r1", row("r1", 2, 10, 6)))


def test_24_20_infiltrators_set_up_more_than_8_from_the_enemy_zone_and_models():
    red = [unit("r1", waiting(2), abilities="Infiltrators"), unit("r2", waiting(2))]
    blue = [unit("b1", waiting(2)), unit("b2", waiting(2))]
    with Battle(spec(red, blue, defender="blue"), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        formations(b)
        b.run_command(Deploy("b1", row("b1", 2, 10, 6)))  # blue defends: zone y 0-12
        # 8" from the enemy zone's edge exactly is within 8": refused; 8.01" is fine
        near = 12 + 8 + 16 / 25.4  # (a 32 mm base: its radius)
        with pytest.raises(Refusal, match=r"8.00\" from the enemy deployment zone.*24.20"):
            b.submit(Deploy("r1", row("r1", 2, 40, near)))
        b.run_command(Deploy("r1", row("r1", 2, 40, near + 0.01)))
        (e,) = of_type(b, "deployed")[1:]
        assert e["infiltrators"] is True


def test_26_08_the_default_set_up_is_the_command_it_checked_so_its_submission_is_not_checked_again(monkeypatch):
    """sim.commands.deploy.default_deploy returns the very Deploy it checked: Battle.submit
    knows its verdict (nothing happened since) and does not work it out again."""
    from sim import commands as C
    from sim.commands import default_deploy
    with Battle(two_a_side(defender="blue"), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        formations(b)
        calls = []
        real = C.validate   # (as Battle.check and Battle.submit call it)
        monkeypatch.setattr(C, "validate", lambda battle, cmd: calls.append(cmd) or real(battle, cmd))
        cmd = default_deploy(b, b.units["b1"])
        assert cmd is not None and calls and calls[-1] is cmd
        n = len(calls)
        b.run_command(cmd)
        assert len(calls) == n and of_type(b, "deployed")[0]["unit"] == "b1"


def test_24_20_a_unit_without_infiltrators_cannot_set_up_outside_its_zone():
    with Battle(two_a_side(defender="blue"), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        formations(b)
        b.run_command(Deploy("b1", row("b1", 2, 10, 6)))
        with pytest.raises(Refusal, match=r"not wholly within its deployment zone"):
            b.submit(Deploy("r1", row("r1", 2, 40, 25)))


# --- 26 steps 10-11 ---------------------------------------------------------------------------

def _scouts_battle(dice=None, **mission):
    red = [unit("r1", waiting(2), abilities='Scouts 6"'), unit("r2", waiting(2), abilities='Scouts 6"')]
    blue = [unit("b1", waiting(2), abilities="Infiltrators")]
    b = Battle(spec(red, blue, **mission), dice=dice or ForcedDice([]))
    b.run_command(StartBattle())
    formations(b, red=("r2",))
    b.run_command(Deploy("r1", row("r1", 2, 10, 11)))
    b.run_command(Deploy("b1", row("b1", 2, 10, 21)))  # (24.20: 8.37" from red's zone, 8.74" from r1)
    return b


def test_24_32_a_scout_move_is_at_most_x_and_ends_more_than_8_from_the_enemy():
    with _scouts_battle() as b:
        assert b.turn_state.pre_battle == PreBattleStep.RULES and b.turn_state.chooser == 0
        with pytest.raises(Refusal, match=r"may move at most 6\" in a move \(24.32\)"):
            b.submit(ScoutMove("r1", row("r1", 2, 16.1, 11)))  # 6.1"
        # 21 - 12 - 1.26 (two radii) = 7.74": within 8" of b1
        with pytest.raises(Refusal, match=r"7.74\" from b1/1; a scout move ends more than 8\" from every enemy "
                                          r"unit \(24.32\)"):
            b.submit(ScoutMove("r1", row("r1", 2, 10, 12)))
        b.run_command(ScoutMove("r1", row("r1", 2, 16, 11)))
        (e,) = of_type(b, "scouted")
        assert e["distance"] == 6.0 and b.turn_state.chooser == 0  # (blue has no Scouts: red goes on)
        with pytest.raises(Refusal, match=r"used its Scouts ability"):
            b.submit(ScoutMove("r1", row("r1", 2, 17, 11)))


def test_24_32_the_players_quick_look_refuses_a_scout_move_within_8_and_lets_a_legal_one_through():
    """sim.players.options.quick_refusal on scout moves (the default player's look before its
    check): 7.74" from b1 is refused, as the check refuses it; 8.4" and 8.74" are left to the
    check, which accepts them; a set-up from strategic reserves is not looked at."""
    from sim.players import options as O
    with _scouts_battle() as b:
        near = ScoutMove("r1", row("r1", 2, 10, 12))
        assert O.quick_refusal(b, near) and "7.74\" from b1/1" in b.check(near)
        for cmd in (ScoutMove("r1", row("r1", 2, 10, 11.34)), ScoutMove("r1", row("r1", 2, 16, 11))):
            assert not O.quick_refusal(b, cmd) and b.check(cmd) is None
        assert not O.quick_refusal(b, ScoutMove("r2", row("r2", 2, 30, 6)))


def test_24_31_scouts_from_reserves_set_up_wholly_within_the_zone_and_then_the_battle_begins():
    with _scouts_battle() as b:
        with pytest.raises(Refusal, match=r"not wholly within its deployment zone"):
            b.submit(ScoutMove("r2", row("r2", 2, 30, 14)))
        b.run_command(ScoutMove("r2", row("r2", 2, 30, 6)))
        (e,) = of_type(b, "scouted")
        assert e["from_reserves"] is True
        b.run_command(EndPhase())  # red ends its pre-battle rules: r1 does not scout
        ts = b.turn_state
        assert ts.pre_battle is None and ts.round == 1 and ts.starting_strength
        assert of_type(b, "battle start")[0]["first"] == "red"


def test_24_31_a_unit_outside_its_zone_cannot_scout():
    red = [unit("r1", waiting(2), abilities=['Scouts 6"', "Infiltrators"])]
    blue = [unit("b1", waiting(2))]
    with Battle(spec(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        formations(b)
        b.run_command(Deploy("r1", row("r1", 2, 10, 22)))  # infiltrated: outside its zone
        b.run_command(Deploy("b1", row("b1", 2, 40, 40)))
        with pytest.raises(Refusal, match=r"not wholly within its deployment zone, so it cannot make a scout"):
            b.submit(ScoutMove("r1", row("r1", 2, 10, 20)))


def test_26_10_the_first_turn_roll_off_comes_before_the_pre_battle_rules():
    dice = ForcedDice([1, 6])  # blue goes first
    with _scouts_battle(dice=dice, first=None) as b:
        assert b.turn_state.first == 1
        # blue has no Scouts unit: red resolves its pre-battle rules
        assert b.turn_state.chooser == 0
        b.run_command(EndPhase())
        assert b.turn_state.round == 1 and b.turn_state.active == 1


# --- 24.09 Deep Strike ------------------------------------------------------------------------

def test_24_09_deep_strike_arrives_anywhere_more_than_8_from_the_enemy():
    red = [unit("r1", waiting(2)), unit("r2", waiting(2), abilities="Deep Strike"), unit("r3", waiting(2))]
    blue = [unit("b1", waiting(2)), unit("b2", waiting(2)), unit("b3", waiting(2), abilities="Deep Strike")]
    with Battle(spec(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        formations(b, red=("r2",), blue=("b3",))
        b.run_command(Deploy("r1", row("r1", 2, 10, 6)))
        b.run_command(Deploy("b1", row("b1", 2, 10, 38)))
        b.run_command(Deploy("r3", row("r3", 2, 50, 6)))
        b.run_command(Deploy("b2", row("b2", 2, 50, 38)))
        ts = b.turn_state
        while not (ts.round == 2 and ts.active == 0 and str(ts.phase) == "movement"):
            b.run_command(EndPhase())
        # never within 8" of an enemy model
        with pytest.raises(Refusal, match=r"more than 8\" from all enemy"):
            b.submit(Ingress("r2", row("r2", 2, 10, 31)))
        # the middle of the table, 20" from the nearest edge: only Deep Strike allows it
        b.run_command(Ingress("r2", row("r2", 2, 30, 22)))
        (e,) = of_type(b, "ingress")
        assert "oversized" not in e


def test_24_09_a_unit_without_deep_strike_keeps_to_the_edges():
    red = [unit("r1", waiting(2)), unit("r2", waiting(2))]
    blue = [unit("b1", waiting(2))]
    with Battle(spec(red, blue), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        formations(b, red=("r2",))
        b.run_command(Deploy("r1", row("r1", 2, 10, 6)))
        b.run_command(Deploy("b1", row("b1", 2, 10, 38)))
        ts = b.turn_state
        while not (ts.round == 2 and ts.active == 0 and str(ts.phase) == "movement"):
            b.run_command(EndPhase())
        with pytest.raises(Refusal, match=r"wholly within 6\" of an edge \(20.04\)"):
            b.submit(Ingress("r2", row("r2", 2, 30, 22)))
