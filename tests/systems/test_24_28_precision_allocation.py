"""PrecisionAllocationSystem: 24.28 [PRECISION] with Part A ruling 4. At the start of the
Allocation Order step of a pool holding PRECISION attacks, the attacker may pick a CHARACTER group
holding a CHARACTER visible to one of the pool's attacking models; it is the current group until
the pool is resolved or the group destroyed, then the declared order resumes."""

from __future__ import annotations

import pytest

from scen import model, of_type, row, scenario, unit, weapon, wounds
from sim.battle import Battle
from sim.commands import Selection, Shoot
from sim.errors import Refusal
from sim.rules.dice import ForcedDice

WEAPONS = {
    "sniper": weapon(36, 2, 2, 5, -2, 1, "[PRECISION]"),
    "long rifle": weapon(36, 2, 2, 6, -2, 1, "[PRECISION]"),
    "rifle": weapon(36, 2, 2, 5, -2, 1),
    "needle": weapon(36, 1, 2, 5, -2, 3, "[PRECISION, DEVASTATING WOUNDS]"),
    "claws": weapon("melee", 1, 4, 4, 0, 1),
}


def spec(leader_role="leader", target_units=None, shooter_weapons=("sniper", "long rifle", "rifle", "needle")):
    snipers = unit("snipers", model(row(10, 10, 2), list(shooter_weapons)))
    squad = unit("squad",
                 model((10, 30), ["claws"], W=3, keywords=("CHARACTER",), role=leader_role, ids=["captain"]),
                 model((11.5, 30), ["claws"], W=4, keywords=("CHARACTER",), role=leader_role, ids=["lt"]),
                 model(row(13, 30, 3), ["claws"], W=1, ids=["g1", "g2", "g3"]))
    return scenario(WEAPONS, [snipers], target_units or [squad])


def shoot(*sels):
    return Shoot("snipers", tuple(Selection(m, w, t) for m, w, t in sels))


TWO_SNIPERS = shoot(("snipers/1", "sniper", "squad"), ("snipers/2", "sniper", "squad"))
# 4 dice: hits 4 4 4 4 (BS2), wounds 4 4 4 4 (S5 vs T4: 3+), saves 1 1 1 1 (fail)
DICE4 = [4] * 8 + [1] * 4


def damage_models(b, pool=0):
    return [s.get("model") for s in of_type(b, "damage")[pool]["steps"]]


def test_24_28_default_choice_fewest_wounds_then_declared_order_resumes():
    with Battle(spec(), dice=ForcedDice(DICE4)) as b:
        b.run_command(TWO_SNIPERS)
        (pr,) = of_type(b, "precision")
        assert (pr["visible"], pr["chosen"]) == (["captain", "lt"], "captain")
        decisions = of_type(b, "decision")
        assert [(d["kind"], d["player"], d["answer"]) for d in decisions if d["kind"] == "precision"] == [
            ("precision", 0, "captain")]
        # the captain (W3) is the current group until destroyed; then g1 (declared order)
        assert damage_models(b) == ["captain", "captain", "captain", "g1"]
        assert (wounds(b, "captain"), wounds(b, "lt"), wounds(b, "g1"), wounds(b, "g2")) == (0, 4, 0, 1)


def test_24_28_two_characters_the_chosen_one():
    with Battle(spec(), dice=ForcedDice(DICE4)) as b:
        b.run_command(TWO_SNIPERS, answer=lambda r: "lt" if r.kind == "precision" else r.default)
        assert damage_models(b) == ["lt"] * 4
        assert wounds(b, "lt") == 0 and wounds(b, "captain") == 3


def test_24_28_decline_keeps_declared_order():
    with Battle(spec(), dice=ForcedDice(DICE4)) as b:
        b.run_command(TWO_SNIPERS, answer=lambda r: "decline" if r.kind == "precision" else r.default)
        assert of_type(b, "precision")[0]["chosen"] is None
        assert damage_models(b) == ["g1", "g2", "g3", "captain"]


def _sight(b, visible) -> None:
    """Who sees whom, forced: ``visible(observer, target)`` for each pair of models, asked pair by
    pair (model_visible) or for several at once (seen_by_any)."""
    b.visibility.model_visible = visible
    b.visibility.seen_by_any = lambda observers, targets: [any(visible(o, t) for o in observers) for t in targets]


def test_24_28_answer_must_be_a_visible_character_or_decline():
    with Battle(spec(), dice=ForcedDice(DICE4)) as b:
        b.submit(TWO_SNIPERS)
        b.step_until_blocked()
        assert b.pending.kind == "precision"
        assert b.pending.options == ["captain", "lt", "decline"]
        with pytest.raises(Refusal):
            b.answer("g1")


def test_part_a_4_visible_to_only_one_attacking_model_is_enough():
    with Battle(spec(), dice=ForcedDice(DICE4)) as b:
        _sight(b, lambda obs, tgt: tgt != "captain" or obs == "snipers/2")
        b.run_command(TWO_SNIPERS)
        assert of_type(b, "precision")[0]["visible"] == ["captain", "lt"]
        assert damage_models(b)[0] == "captain"


def test_part_a_4_attacking_models_are_those_with_dice_in_the_pool():
    """snipers/1 fires a non-PRECISION rifle (another pool); only it sees the captain, so the
    PRECISION pool of snipers/2 can only pick the lieutenant."""
    with Battle(spec(), dice=ForcedDice([4, 4, 4, 4, 1, 1] + [4, 4, 4, 4, 1, 1])) as b:
        _sight(b, lambda obs, tgt: tgt != "captain" or obs == "snipers/1")
        b.run_command(shoot(("snipers/1", "rifle", "squad"), ("snipers/2", "sniper", "squad")))
        pools = of_type(b, "pool")
        assert [p["weapons"] for p in pools] == [["rifle"], ["sniper"]]
        (pr,) = of_type(b, "precision")
        assert (pr["pool"], pr["visible"], pr["chosen"]) == (1, ["lt"], "lt")


def test_24_28_not_visible_no_choice():
    with Battle(spec(), dice=ForcedDice(DICE4)) as b:
        _sight(b, lambda obs, tgt: tgt not in ("captain", "lt"))
        b.run_command(TWO_SNIPERS)
        assert [d for d in of_type(b, "decision") if d["kind"] == "precision"] == []
        (pr,) = of_type(b, "precision")
        assert (pr["visible"], pr["chosen"]) == ([], None)
        assert damage_models(b) == ["g1", "g2", "g3", "captain"]


def test_24_28_a_new_pool_a_new_choice():
    cmd = shoot(("snipers/1", "sniper", "squad"), ("snipers/2", "long rifle", "squad"))
    answers = iter(["lt", "captain"])
    with Battle(spec(), dice=ForcedDice([4, 4, 4, 4, 1, 1] * 2)) as b:
        b.run_command(cmd, answer=lambda r: next(answers) if r.kind == "precision" else r.default)
        prs = of_type(b, "precision")
        assert [(p["pool"], p["chosen"]) for p in prs] == [(0, "lt"), (1, "captain")]
        assert damage_models(b, 0) == ["lt", "lt"]
        assert damage_models(b, 1) == ["captain", "captain"]


def test_24_28_choice_lasts_only_for_its_pool():
    """Pool 0 picks the lieutenant; pool 1 declines: pool 1 follows the declared order."""
    cmd = shoot(("snipers/1", "sniper", "squad"), ("snipers/2", "long rifle", "squad"))
    answers = iter(["lt", "decline"])
    with Battle(spec(), dice=ForcedDice([4, 4, 4, 4, 1, 1] * 2)) as b:
        b.run_command(cmd, answer=lambda r: next(answers) if r.kind == "precision" else r.default)
        assert damage_models(b, 1) == ["g1", "g2"]


def test_24_28_non_attached_unit_holding_a_character():
    with Battle(spec(leader_role="bodyguard"), dice=ForcedDice(DICE4)) as b:
        b.run_command(TWO_SNIPERS)
        assert damage_models(b) == ["captain", "captain", "captain", "g1"]


def test_04_03_faq_precision_not_applicable_without_character_pools_with_twin():
    target = unit("mob", model(row(10, 30, 4), ["claws"], W=1, Sv=7))
    with Battle(spec(target_units=[target]), dice=ForcedDice([1, 1, 1, 1])) as b:
        b.run_command(shoot(("snipers/1", "sniper", "mob"), ("snipers/2", "rifle", "mob")))
        (pool,) = of_type(b, "pool")
        assert pool["dice"] == 4 and pool["weapons"] == ["rifle", "sniper"]
        assert of_type(b, "precision") == []


def test_04_03_precision_applicable_against_a_character_pools_apart():
    with Battle(spec(), dice=ForcedDice([1, 1, 1, 1])) as b:
        b.run_command(shoot(("snipers/1", "sniper", "squad"), ("snipers/2", "rifle", "squad")))
        assert [p["weapons"] for p in of_type(b, "pool")] == [["sniper"], ["rifle"]]


def test_part_a_4_devastating_wounds_go_to_the_chosen_group_first():
    """needle: A1 D3 [PRECISION, DEVASTATING WOUNDS]; a critical wound (6) becomes 3 mortal
    wounds on the chosen lieutenant (W4), not on the bodyguards."""
    with Battle(spec(), dice=ForcedDice([4, 6])) as b:
        b.run_command(shoot(("snipers/1", "needle", "squad")),
                      answer=lambda r: "lt" if r.kind == "precision" else r.default)
        assert [(s["model"], s["lost"]) for s in of_type(b, "damage")[0]["steps"]] == [("lt", 3)]
        assert wounds(b, "lt") == 1 and wounds(b, "g1") == 1


def test_part_a_4_default_is_the_character_with_fewest_remaining_wounds():
    """The lieutenant (W4) wounded down to 2 now has fewer wounds left than the captain (3)."""
    import esper
    from sim.components import Wounds
    with Battle(spec(), dice=ForcedDice(DICE4)) as b:
        esper.component_for_entity(b.models["lt"], Wounds).remaining = 2
        b.run_command(TWO_SNIPERS)
        assert of_type(b, "precision")[0]["chosen"] == "lt"
        assert damage_models(b) == ["lt", "lt", "g1", "g2"]


def test_24_28_precision_overrides_a_wounded_bodyguard_group():
    """g1 (W2) is wounded, so the bodyguards' group is forced first in the declared order; the
    chosen CHARACTER group is still current until destroyed, then the wounded g1 is picked."""
    import esper
    from sim.components import Wounds
    squad = unit("squad",
                 model((10, 30), ["claws"], W=3, keywords=("CHARACTER",), role="leader", ids=["captain"]),
                 model(row(11.5, 30, 3), ["claws"], W=2, ids=["g1", "g2", "g3"]))
    with Battle(spec(target_units=[squad]), dice=ForcedDice(DICE4)) as b:
        esper.component_for_entity(b.models["g2"], Wounds).remaining = 1
        b.run_command(TWO_SNIPERS)
        assert of_type(b, "allocation order")[0]["order"] == ["g1", "captain"]
        assert damage_models(b) == ["captain", "captain", "captain", "g2"]
