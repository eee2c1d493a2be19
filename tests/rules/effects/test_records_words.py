"""sim.rules.effects.words on records of the table: what the unit card and the import report say
of a rule is generated from its grants, so it says exactly what the engine does."""

from __future__ import annotations

from sim.rules.effects import table
from sim.rules.effects.words import grant_words, record_words


def test_an_army_rule_with_a_choice_and_a_part_left_out():
    assert record_words(table.by_key("oath-of-moment")) == [
        "Oath of Moment (army rule): Each Command phase mark one enemy unit; attacks against it may re-roll the "
        "hit roll.",
        "  - re-roll hit rolls for every unit of the army while the other unit is the one chosen for this rule",
        "  - not modelled: the extra +1 to wound with a Codex: Space Marines detachment is not modelled",
    ]


def test_a_leader_ability():
    assert [grant_words(g) for g in table.by_key("sanguinary-priest").grants] == [
        "Feel No Pain 5+ for its unit while the bearer is leading a unit"]
    assert [grant_words(g) for g in table.by_key("blood-chalice").grants] == [
        "+1 to AP for its unit with melee attacks while the bearer is leading a unit"]


def test_an_aura_narrowed_by_keywords():
    assert [grant_words(g) for g in table.by_key("deadly-unity").grants] == [
        "+1 to hit rolls for friendly units within 6\" (ANATHEMA PSYKANA only)"]


def test_an_enemy_aura_and_a_detachment_rule():
    assert [grant_words(g) for g in table.by_key("harbingers-of-dread").grants][:1] == [  # (then Dread picks)
        "-1 to Leadership for enemy units within 9\""]
    assert [grant_words(g) for g in table.by_key("relentless-rage").grants] == [
        "+1 to Attacks for every unit of the army (WORLD EATERS only) with melee attacks while it made a charge "
        "move this turn",
        "+2 to Strength for every unit of the army (WORLD EATERS only) with melee attacks while it made a charge "
        "move this turn",
    ]


def test_a_return_at_the_end_of_the_command_phase():
    assert [grant_words(g) for g in table.by_key("reanimation-protocols").grants] == [
        "regains D3 wounds at the end of each phase for every unit of the army in the command phase in its "
        "army's turn"]


def test_the_shadow_of_chaos_and_warp_rifts_in_words():
    words = [grant_words(g) for g in table.by_key("the-shadow-of-chaos").grants]
    assert words[0].startswith("+1 to battle-shock rolls for every unit of the army while it is within the domain")
    assert words[1].startswith("one wounded model regains up to D3 wounds after it passes a battle-shock test")
    assert words[1].endswith("while it is not BATTLELINE")
    assert words[2].startswith("regains D3 models after it passes a battle-shock test for every unit of the army "
                               "(BATTLELINE only)")
    assert words[3].startswith("-1 to battle-shock rolls for every enemy unit while")
    assert words[4].startswith("D3 mortal wounds to it after it fails a battle-shock test for every enemy unit")
    assert grant_words(table.by_key("warp-rifts").grants[0]).startswith(
        "may be set up by Deep Strike more than 6\" from enemy models (not 8\") for every unit of the army while "
        "it is wholly within the domain of the rule's army")
    assert grant_words(table.by_key("flow-of-magic").grants[0]) == (
        "re-roll wound rolls of 1 for every unit of the army while the attack is a psychic attack while it is not "
        "wholly within the domain of the rule's army")
