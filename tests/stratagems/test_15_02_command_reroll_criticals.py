"""15.02 Command Re-roll of a die that already succeeded, in a battle: a hit that is not a
critical hit is offered when a critical hit does more ([LETHAL HITS] taken, [SUSTAINED HITS]),
a wound that is not a critical wound when a critical wound does more ([DEVASTATING WOUNDS];
[ANTI]'s threshold counted); never a critical result, never without such an ability, never a
hit roll under indirect shooting. (Which dice: sim.rules.command_reroll, through the registry's
hooks; the helpers: test_15_02_command_reroll_attacks.)"""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit, weapon
from scen import of_type, wounds
from sim.battle import Battle
from sim.commands import EndPhase, Selection, Shoot, StartBattle
from sim.rules.dice import ForcedDice
from sim.stratagems import command_reroll as CR

WEAPONS = {
    "gun": weapon(24, 1, 3, 4, 0, 1),                                   # hits on 3+, wounds T4 on 4+
    "lethal gun": weapon(24, 1, 3, 4, 0, 1, "[LETHAL HITS]"),
    "sustained gun": weapon(24, 1, 3, 4, 0, 1, "[SUSTAINED HITS 1]"),
    "devastating gun": weapon(24, 1, 3, 4, 0, 1, "[DEVASTATING WOUNDS]"),
    "lethal devastating gun": weapon(24, 1, 3, 4, 0, 1, "[LETHAL HITS, DEVASTATING WOUNDS]"),
    "anti gun": weapon(24, 1, 3, 4, 0, 1, "[ANTI-INFANTRY 4+, DEVASTATING WOUNDS]"),
    "lethal mortar": weapon(48, 1, 2, 4, 0, 1, "[INDIRECT FIRE, LETHAL HITS]"),
    "blade": weapon("melee", 2, 3, 4, 0, 1),
}


def _battle(gun: str, dice, cp=(1, 0)):
    """Red's Shooting phase in round 1 with ``gun`` at b1 (W1, Sv 3+), the CP set as it starts."""
    spec = mission_scenario([unit("r1", model((20, 10), [gun]))], [unit("b1", model((20, 20), ["blade"]))],
                            weapons=WEAPONS)
    b = Battle(spec, dice=ForcedDice(list(dice)))
    b.run_command(StartBattle())
    b.turn_state.cp = [0, 0]
    while str(b.turn_state.phase) != "shooting":
        b.run_command(EndPhase())
    b.turn_state.cp = list(cp)
    return b


def _offers(seen: list, option: str | None = None, lethal: str | None = None):
    """Answers ``option`` to the Command Re-roll offering it (keeping each one's options in
    ``seen``), ``lethal`` to the [LETHAL HITS] choice; the defaults otherwise."""
    def f(req):
        if req.kind == "stratagem" and req.key.startswith(CR.NAME):
            seen.append((req.context["roll"], req.options))
            return option if option in req.options else req.default
        if req.kind == "lethal_hits" and lethal is not None:
            return lethal
        return req.default
    return f


def _shoot(b, gun, answer, shooting_type=None):
    b.run_command(Shoot("r1", (Selection("r1/1", gun, "b1"),), shooting_type), answer)


def test_15_02_a_non_critical_hit_with_lethal_hits_re_rolled_into_a_critical_wounds_automatically():
    seen = []
    # hit 4 (a hit, not critical): offered; re-rolled to 6, a critical hit: it wounds
    # automatically (no wound roll); save 1: b1/1 destroyed
    with _battle("lethal gun", [4, 6, 1]) as b:
        _shoot(b, "lethal gun", _offers(seen, "pool 0 hit 0: 4"))
        assert seen == [("hit", ["pool 0 hit 0: 4", "decline"])]
        (hits,) = of_type(b, "hit rolls")
        assert hits["rolls"] == [6] and hits["criticals"] == 1 and hits["lethal"] == 1
        assert hits["command_reroll"] == {"die": 0, "from": 4, "to": 6}
        (w,) = of_type(b, "wound rolls")
        assert w["rolls"] == [] and w["auto"] == 1 and w["wounds"] == 1
        assert [p for p, _ in b.dice.log] == ["hit rolls", "hit rolls (Command Re-roll)", "save rolls"]
        assert b.turn_state.cp[0] == 0 and wounds(b, "b1/1") == 0


@pytest.mark.parametrize("gun,offered", [("gun", False), ("devastating gun", False), ("lethal gun", True),
                                         ("sustained gun", True)])
def test_15_02_a_non_critical_hit_is_offered_only_when_a_critical_hit_does_more(gun, offered):
    seen = []
    # hit 4, wound 1 (failed: offered, declined), no more dice
    with _battle(gun, [4, 1]) as b:
        _shoot(b, gun, _offers(seen))
        assert [roll for roll, _ in seen] == (["hit", "wound"] if offered else ["wound"])


def test_15_02_lethal_hits_declined_makes_no_critical_hit_worth_a_re_roll():
    # [LETHAL HITS] and [DEVASTATING WOUNDS]: the attacker declines the automatic wounds, so a
    # critical hit is a hit; hit 4 not offered; wound 4 (not critical) offered
    seen = []
    with _battle("lethal devastating gun", [4, 4, 6]) as b:
        _shoot(b, "lethal devastating gun", _offers(seen, lethal="decline"))
        assert seen == [("wound", ["pool 0 wound 0: 4", "decline"])]
    seen = []
    with _battle("lethal devastating gun", [4, 1]) as b:  # taken: the hit 4 is offered
        _shoot(b, "lethal devastating gun", _offers(seen, lethal="take"))
        assert [roll for roll, _ in seen] == ["hit", "wound"]


def test_15_02_a_non_critical_wound_with_devastating_wounds_re_rolled_into_mortal_wounds():
    seen = []
    # hit 4; wound 4 (a wound, not critical): offered; re-rolled to 6, a critical wound: a mortal
    # wound, no save roll
    with _battle("devastating gun", [4, 4, 6]) as b:
        _shoot(b, "devastating gun", _offers(seen, "pool 0 wound 0: 4"))
        assert seen == [("wound", ["pool 0 wound 0: 4", "decline"])]
        (w,) = of_type(b, "wound rolls")
        assert w["rolls"] == [6] and w["devastating"] == 1
        assert w["command_reroll"] == {"die": 0, "from": 4, "to": 6}
        assert "save rolls" not in [p for p, _ in b.dice.log]
        assert wounds(b, "b1/1") == 0


@pytest.mark.parametrize("gun", ["gun", "lethal gun"])
def test_15_02_a_non_critical_wound_without_a_critical_wound_ability_is_not_offered(gun):
    seen = []
    with _battle(gun, [4, 4, 6]) as b:  # hit 4 (declined if offered), wound 4, save 6
        _shoot(b, gun, _offers(seen))
        assert "wound" not in [roll for roll, _ in seen]


def test_15_02_anti_lowers_what_is_critical_already():
    # [ANTI-INFANTRY 4+] against INFANTRY: a wound 4 is a critical wound already, not offered;
    # a wound 3 fails and is offered
    seen = []
    with _battle("anti gun", [4, 4]) as b:
        _shoot(b, "anti gun", _offers(seen))
        assert seen == [] and of_type(b, "wound rolls")[0]["devastating"] == 1
    with _battle("anti gun", [4, 3]) as b:
        _shoot(b, "anti gun", _offers(seen))
        assert seen == [("wound", ["pool 0 wound 0: 3", "decline"])]


@pytest.mark.parametrize("gun", ["lethal gun", "sustained gun"])
def test_15_02_a_critical_hit_is_never_offered(gun):
    seen = []
    # hit 6 (critical): then a save 6 for the automatic wound, or wound 6s and saves 6 for the
    # sustained hits (critical wounds do nothing more here)
    with _battle(gun, [6] + [6] * 4) as b:
        _shoot(b, gun, _offers(seen))
        assert seen == []
        assert of_type(b, "hit rolls")[0]["criticals"] == 1


@pytest.mark.parametrize("roll", [2, 4])
def test_15_02_an_indirect_hit_roll_is_never_offered_even_with_lethal_hits(roll):
    seen = []
    # 10.07: no hit re-roll under indirect shooting, a failed die (2) or a non-critical hit (4)
    with _battle("lethal mortar", [roll, 1, 1]) as b:
        _shoot(b, "lethal mortar", _offers(seen), "indirect")
        (pool,) = of_type(b, "pool")
        assert "hit" not in [r for r, _ in seen]
        assert of_type(b, "hit rolls")[0]["rolls"] == [roll]
    assert pool["target"] == "b1"
