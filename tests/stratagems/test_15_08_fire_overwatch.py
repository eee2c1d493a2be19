"""15.08 Fire Overwatch in a battle: at the end of the opponent's Movement phase the player may
have one unengaged, non-TITANIC unit shoot with 15.09 snap shooting (1 CP) at one visible enemy
unit within 24"; hits only on an unmodified 6 (no critical hits, modifiers ignored), out of
phase (07.02.01); within the 15.01 limits (CP, once per phase, one stratagem per unit per phase,
never on the player's own battle-shocked unit); the default policy declines (Part A ruling 25)."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit, weapon
from scen import of_type
from sim.battle import Battle
from sim.commands import EndPhase, Selection, Shoot, StartBattle
from sim.errors import PlanError
from sim.plan import plan_shoot
from sim.rules.dice import ForcedDice
from sim.world import queries as W

WEAPONS = {"gun": weapon(24, 1, 2, 4, 0, 1, "[HEAVY]"),
           "long gun": weapon(36, 1, 3, 4, 0, 1),
           "lethal gun": weapon(24, 1, 3, 4, 0, 1, "[LETHAL HITS, SUSTAINED HITS 1]"),
           "pistol": weapon(12, 1, 3, 4, 0, 1, "[PISTOL]"),
           "blade": weapon("melee", 2, 3, 4, 0, 1)}
TARGET_LOCK = [{"roll": "hit", "value": 1, "source": "Target lock"}]


def _battle(red, blue, dice, cp=1):
    b = Battle(mission_scenario(red, blue, weapons=WEAPONS), dice=ForcedDice(dice))
    b.run_command(StartBattle())
    b.turn_state.cp = [0, cp]
    return b


def _use(answer, weapons=None):
    """Blue's answers: the given Fire Overwatch option (and weapons); defaults otherwise."""
    def f(req):
        if req.kind == "stratagem" and answer in req.options:
            return answer
        if req.kind == "weapons" and weapons is not None:
            return weapons
        return req.default
    return f


def _offered(b) -> list:
    """The options of the Fire Overwatch decisions asked so far."""
    return [e for e in of_type(b, "decision") if e["kind"] == "stratagem" and e["key"] == "Fire Overwatch"]


def _options(red, blue, setup=None, cp=1):
    """The options blue is offered at the end of red's first Movement phase."""
    seen = []
    with _battle(red, blue, [], cp=cp) as b:
        if setup:
            b._enter()
            setup(b)

        def peek(req):
            if req.kind == "stratagem" and req.key == "Fire Overwatch":
                seen.append(list(req.options))
            return req.default
        b.run_command(EndPhase(), peek)
    return seen[0] if seen else None


def test_15_08_snap_shooting_hits_only_on_an_unmodified_6_and_pays_1_cp():
    # BS 2+ with a +1 to hit (Target lock) and [HEAVY] (stationary): all ignored under snap shooting
    red = [unit("r1", model((20, 5), ["blade"], W=1, Sv=3))]
    blue = [unit("b1", model([(16, 26), (18, 26), (20, 26), (22, 26), (24, 26)], ["gun"]), modifiers=TARGET_LOCK)]
    with _battle(red, blue, [1, 2, 3, 5, 6, 4, 1]) as b:
        b.run_command(EndPhase(), _use("b1 -> r1"))
        (used,) = of_type(b, "stratagem")
        assert (used["stratagem"], used["target"], used["cp"], used["cp_left"]) == ("Fire Overwatch", "b1", 1, 0)
        assert b.turn_state.cp[1] == 0
        (stype,) = of_type(b, "shooting type")
        assert stype["shooting_type"] == "snap" and stype["eligible"]["snap"] is True
        (pool,) = of_type(b, "pool")
        assert pool["modifiers"] == [] and pool["hit_mod"] == 0 and pool["snap"] is True
        (hits,) = of_type(b, "hit rolls")
        assert hits["rolls"] == [1, 2, 3, 5, 6] and hits["hits"] == 1 and hits["criticals"] == 0
        assert of_type(b, "model destroyed")[0]["model"] == "r1/1"
        b._enter()
        st = W.unit_state(b.units["b1"])
        assert st.ranged_attacks_this_turn and not st.snap_shooting  # (13.09: it has shot this turn)
        assert str(b.turn_state.phase) == "shooting" and b.turn_state.active == 0


def test_15_08_the_6_is_not_critical_for_lethal_or_sustained_hits():
    red = [unit("r1", model([(20, 5), (22, 5)], ["blade"]))]
    blue = [unit("b1", model([(20, 26), (22, 26)], ["lethal gun"]))]
    with _battle(red, blue, [6, 6, 1, 1]) as b:
        b.run_command(EndPhase(), _use("b1 -> r1"))
        (hits,) = of_type(b, "hit rolls")
        assert (hits["hits"], hits["criticals"], hits["sustained"], hits["lethal"]) == (2, 0, 0, 0)
        (wounds,) = of_type(b, "wound rolls")
        assert wounds["rolls"] == [1, 1] and wounds["auto"] == 0  # (no lethal auto-wound)


@pytest.mark.parametrize("y,offered", [(30.5, False), (28.5, True)])
def test_15_08_only_an_enemy_unit_within_24_inches_of_the_unit(y, offered):
    # a 36" gun, the target 24.24" (y 30.5) or 22.24" (y 28.5) away edge to edge
    red = [unit("r1", model((20, 5), ["blade"]))]
    blue = [unit("b1", model((20, y), ["long gun"]))]
    assert (_options(red, blue) == ["b1 -> r1", "decline"]) is offered


def test_15_08_one_target_per_shooting_and_only_when_granted():
    red = [unit("r1", model((20, 5), ["blade"])), unit("r2", model((30, 5), ["blade"]))]
    blue = [unit("b1", model([(20, 20), (22, 20)], ["gun"]))]
    assert _options(red, blue) == ["b1 -> r1", "b1 -> r2", "decline"]
    with _battle(red, blue, []) as b:
        b._enter()
        both = Shoot("b1", (Selection("b1/1", "gun", "r1"), Selection("b1/2", "gun", "r2")), "snap")
        with pytest.raises(PlanError, match="only for a unit a rule lets use it"):
            plan_shoot(b, both)
        W.unit_state(b.units["b1"]).snap_shooting = True
        with pytest.raises(PlanError, match="only one enemy unit"):
            plan_shoot(b, both)
        one = Shoot("b1", (Selection("b1/1", "gun", "r1"), Selection("b1/2", "gun", "r1")), "snap")
        assert plan_shoot(b, one).shooting_type == "snap"
        with pytest.raises(PlanError, match="snap shooting, and only that"):
            plan_shoot(b, Shoot("b1", one.selections, "normal"))


def test_15_08_the_default_policy_declines():
    red = [unit("r1", model((20, 5), ["blade"]))]
    blue = [unit("b1", model((20, 20), ["gun"]))]
    with _battle(red, blue, []) as b:
        b.run_command(EndPhase())
        (d,) = _offered(b)
        assert d["answer"] == "decline" and d["player"] == 1
        assert of_type(b, "stratagem") == [] and of_type(b, "hit rolls") == [] and b.turn_state.cp[1] == 1


def test_15_08_not_offered_without_the_cp_or_after_one_use_this_phase():
    red = [unit("r1", model((20, 5), ["blade"]))]
    blue = [unit("b1", model((20, 20), ["gun"]))]
    assert _options(red, blue, cp=0) is None
    assert _options(red, blue, setup=lambda b: b.turn_state.stratagems_used[1].append("Fire Overwatch")) is None
    assert _options(red, blue) == ["b1 -> r1", "decline"]


def test_15_01_which_units_it_can_target():
    red = [unit("r1", model((20, 5), ["blade"])),
           unit("r-tank", model((40, 14), ["blade"], base_mm=60), keywords=("MONSTER",))]
    blue = [unit("b-shocked", model((10, 20), ["gun"])),
            unit("b-other", model((14, 20), ["gun"])),  # targeted by another stratagem this phase
            unit("b-titan", model((20, 20), ["gun"], base_mm=60), keywords=("TITANIC",)),
            unit("b-engaged", model((40, 16.5), ["gun"])),  # engaged with r-tank
            unit("b1", model((26, 20), ["gun"]))]

    def setup(b):
        W.unit_state(b.units["b-shocked"]).battle_shocked = True
        b.turn_state.stratagem_targets[1].append("b-other")
    # r-tank is engaged (with b-engaged): 17.03 does not apply out of phase, so no one targets it
    assert _options(red, blue, setup) == ["b1 -> r1", "decline"]


def test_15_08_the_player_picks_the_weapons():
    red = [unit("r1", model((20, 5), ["blade"]))]
    blue = [unit("b1", model([(20, 16), (22, 16)], ["gun", "long gun"]))]
    with _battle(red, blue, [2, 2]) as b:
        b.run_command(EndPhase(), _use("b1 -> r1", ["long gun"]))
        (w,) = [e for e in of_type(b, "decision") if e["kind"] == "weapons"]
        assert w["answer"] == ["long gun"]
        (sel,) = of_type(b, "weapons selected")
        assert [s[1] for s in sel["selections"]] == ["long gun", "long gun"]
    with _battle(red, blue, [2, 2, 2, 2]) as b:  # (the default: every weapon that can fire)
        b.run_command(EndPhase(), _use("b1 -> r1"))
        (sel,) = of_type(b, "weapons selected")
        assert sorted(s[1] for s in sel["selections"]) == ["gun", "gun", "long gun", "long gun"]


def test_15_08_a_pistol_is_not_fired_with_the_other_guns():
    # 24.07: a model picks its [PISTOL] weapons or its others, never both; the offer picks the others
    red = [unit("r1", model((20, 5), ["blade"]))]
    blue = [unit("b1", model((20, 14), ["gun", "pistol"]))]
    with _battle(red, blue, [2]) as b:
        b.run_command(EndPhase(), _use("b1 -> r1"))
        (sel,) = of_type(b, "weapons selected")
        assert [s[1] for s in sel["selections"]] == ["gun"]
        assert [e for e in of_type(b, "decision") if e["kind"] == "weapons"] == []  # (one weapon: no question)


def test_15_08_only_in_the_opponents_movement_phase():
    # blue's own Movement phase: red (no CP) is asked nothing, blue is never offered it
    red = [unit("r1", model((20, 5), ["blade"]))]
    blue = [unit("b1", model((20, 20), ["gun"]))]
    with _battle(red, blue, []) as b:
        b.turn_state.cp = [0, 5]
        while b.turn_state.active == 0:
            b.run_command(EndPhase())
        while str(b.turn_state.phase) != "shooting":
            b.run_command(EndPhase())
        assert len(_offered(b)) == 1 and _offered(b)[0]["player"] == 1  # (red's Movement phase only)


def test_15_08_a_pair_is_offered_when_any_model_can_fire_and_its_selections_are_made_once_chosen():
    # b1's first model carries only a blade; its second a gun: the offer reads past the first
    # (sim.plan.snap.can_snap), and the shooting chosen fires the second model's gun alone
    from sim.plan.snap import can_snap, snap_selections
    red = [unit("r1", model((20, 5), ["blade"]))]
    blue = [unit("b1", model((20, 16), ["blade"]), model((22, 16), ["gun"])),
            unit("b2", model((40, 16), ["blade"]))]
    with _battle(red, blue, []) as b:
        b._enter()
        r1 = b.units["r1"]
        for uid, fires in (("b1", True), ("b2", False)):
            u = b.units[uid]
            assert can_snap(b, u, r1) is fires
            assert bool(snap_selections(b, u, r1)) is fires
    assert _options(red, blue) == ["b1 -> r1", "decline"]
    with _battle(red, blue, [2]) as b:
        b.run_command(EndPhase(), _use("b1 -> r1"))
        (sel,) = of_type(b, "weapons selected")
        assert [s[:2] for s in sel["selections"]] == [["b1/2", "gun"]]
