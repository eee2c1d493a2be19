"""24.02 Duplicated abilities never stack: one copy per weapon is chosen in Select Weapons, each
time the unit attacks. Numbered abilities are duplicates whatever their numbers ([SUSTAINED HITS
1] vs [SUSTAINED HITS 2]) and keyword forms are duplicates whatever their keywords. Default
(README): the highest value; the choice is asked as a 'duplicate' decision."""

from __future__ import annotations

from scen import model, of_type, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Selection, Shoot
from sim.rules.dice import ForcedDice

WEAPONS = {
    "storm gun": weapon(24, 1, 3, 4, 0, 1, "[SUSTAINED HITS 1, SUSTAINED HITS 2]"),
    "mixed gun": weapon(24, 1, 3, 4, 0, 1, "[SUSTAINED HITS 1, SUSTAINED HITS 2: VEHICLE]"),
    "melta pair": weapon(24, 1, 3, 4, 0, "D3", "[MELTA 1, MELTA 3]"),
    "rapid pair": weapon(24, 1, 3, 4, 0, 1, "[RAPID FIRE 1, RAPID FIRE 2]"),
    "knife": weapon("melee", 1, 4, 4, 0, 1),
}


def spec(kw=("INFANTRY",), at=(10, 30)):
    sh = unit("sh", model((10, 10), list(WEAPONS)))
    t = unit("t", model(at, ["knife"], W=20, Sv=7, base_mm=60), keywords=kw)
    return scenario(WEAPONS, [sh], [t])


def run(sp, name, rolls, answer=None):
    b = Battle(sp, dice=ForcedDice(rolls))
    b.run_command(Shoot("sh", (Selection("sh/1", name, "t"),)), answer=answer)
    return b


def test_24_02_sustained_hits_1_and_2_default_highest_never_both():
    # a critical hit: 2 extra hits (not 1 + 2 = 3); wound rolls for 3 hits; saves for 3 wounds
    with run(spec(), "storm gun", [6, 4, 4, 4, 1, 1, 1]) as b:
        (dec,) = of_type(b, "decision")
        assert (dec["kind"], dec["answer"]) == ("duplicate", "SUSTAINED HITS 2")
        assert of_type(b, "pool")[0]["abilities"] == ["SUSTAINED HITS 2"]
        assert of_type(b, "hit rolls")[0]["sustained"] == 2


def test_24_02_the_attacker_may_choose_the_lower_copy():
    pick1 = lambda r: "SUSTAINED HITS 1" if r.kind == "duplicate" else r.default  # noqa: E731
    with run(spec(), "storm gun", [6, 4, 4, 1, 1], answer=pick1) as b:
        assert of_type(b, "hit rolls")[0]["sustained"] == 1


def test_24_02_decision_is_offered_each_time_the_unit_attacks():
    from sim.commands import EndTurn
    with Battle(spec(), dice=ForcedDice([1, 1])) as b:
        b.run_command(Shoot("sh", (Selection("sh/1", "storm gun", "t"),)))
        b.run_command(EndTurn())
        b.run_command(Shoot("sh", (Selection("sh/1", "storm gun", "t"),)))
        assert len([d for d in of_type(b, "decision") if d["kind"] == "duplicate"]) == 2


def test_24_02_default_is_a_copy_that_applies_to_the_target():
    """[SUSTAINED HITS 1, SUSTAINED HITS 2: VEHICLE] against INFANTRY: the VEHICLE copy cannot apply,
    so the default must be SUSTAINED HITS 1 (defaulting to the inapplicable copy would leave the
    weapon with no SUSTAINED HITS at all)."""
    with run(spec(("INFANTRY",)), "mixed gun", [6, 4, 4, 1, 1]) as b:
        (dec,) = of_type(b, "decision")
        assert dec["answer"] == "SUSTAINED HITS 1"
        assert of_type(b, "hit rolls")[0]["sustained"] == 1


def test_24_02_against_the_keyword_the_higher_conditional_copy_is_the_default():
    with run(spec(("VEHICLE",)), "mixed gun", [6, 4, 4, 4, 1, 1, 1]) as b:
        assert of_type(b, "hit rolls")[0]["sustained"] == 2


def test_24_02_melta_duplicates_default_highest():
    with run(spec(at=(10, 20)), "melta pair", [3, 4, 1, 1]) as b:  # D3 rolls 1 -> 1 + 3
        assert of_type(b, "pool")[0]["D"] == "D3+3"
        assert of_type(b, "damage")[0]["steps"][0]["damage"] == 4


def test_24_02_rapid_fire_duplicates_do_not_stack():
    with run(spec(at=(10, 20)), "rapid pair", [1, 1, 1]) as b:
        assert of_type(b, "pool")[0]["dice"] == 3  # A1 + 2, not A1 + 1 + 2
