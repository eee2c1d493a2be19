"""Issue 26 in the sandbox: the unit card lists the unit's modelled rules (source, the choice in
force, per grant whether it acts now or why not) apart from its inert labels; an aura is drawn
on hover; drawing never changes the world; a saved table reloads with its rules; a decision the
panel has no dialog for (a rule's choice) is shown with the rule and units by name."""

from __future__ import annotations

import tomllib

import esper
import pygame
from pygame_gui.elements import UILabel
from sim.sandbox.widgets import TextLine

from sandbox_support import ROOT
from sim.components import UnitRules
from sim.decisions import DecisionRequest
from sim.rules.effects import vocabulary as V
from sim.sandbox import rules_card as RC
from sim.sandbox.decision_panel import option_text
from sim.sandbox.save_table import table_toml
from sim.scenario.load import parse_scenario

SHOWCASE = ROOT / "scenarios" / "rules_showcase.toml"


def _card_labels(sb) -> list[str]:
    return [e.text for e in sb.card_flow.scroll.get_container().elements if isinstance(e, (UILabel, TextLine))]


def _card_text(sb) -> str:
    """The card's labels as one text (a wrapped line reads on across its labels)."""
    return " ".join(_card_labels(sb))


def _choose(sb, player: str, key: str, value, rnd: int = 1) -> None:
    """Put a rule's choice in force as the battle keeps it (sim.world.rule_effects)."""
    sb.battle._enter()
    sb.battle.resources.rule_choices[f"{player}:{key}"] = {"value": value, "round": rnd,
                                                           "player": 0 if player == "red" else 1}
    sb.dirty.add("card")


def test_card_lists_an_army_rule_not_called_yet(make):
    d = make(SHOWCASE)
    sb = d.sb
    d.click_model("mob/1")
    assert "rule:waaagh:mob" in sb.names
    text = _card_text(sb)
    assert "army rule  |  not called (1 use left)" in text
    assert "+1 to Strength (melee) \u2013 not now: not called" in text
    assert "a 5+ invulnerable save \u2013 not now: not called" in text
    assert "may declare a charge in a turn it advanced \u2013 not now: not called" in text
    tip = sb.names["rule:waaagh:mob"].tool_tip_text
    assert tip.startswith("<b>Waaagh!</b> (army rule)") and "invulnerable" in tip


def test_card_shows_the_choice_in_force(make):
    d = make(SHOWCASE)
    sb = d.sb
    _choose(sb, "blue", "waaagh", True, rnd=2)
    d.click_model("boss/1")
    text = _card_text(sb)
    assert "army rule  |  called in round 2" in text
    assert "a 5+ invulnerable save \u2013 acts now" in text
    assert "+1 to Attacks (melee) \u2013 acts on melee attacks" in text
    _choose(sb, "red", "oath-of-moment", "mob")
    d.click_model("wardens/1")
    text = _card_text(sb)
    assert "army rule  |  marked Raider Mob" in text
    assert "re-roll hit rolls \u2013 acts on attacks at Raider Mob" in text


def test_oath_without_a_mark_says_why(make):
    d = make(SHOWCASE)
    sb = d.sb
    lines = RC.rule_lines(sb.battle, sb.battle.units["champion"])
    assert [(r.name, r.source, r.choice, r.state) for r in lines] == [
        ("Oath of Moment", "army rule", "no unit marked yet", RC.NOT)]
    assert lines[0].grants[0].why == "not now: no unit marked yet"


def test_a_unit_without_rules_shows_none(make):
    d = make(ROOT / "scenarios" / "objective_contested.toml")
    sb = d.sb
    d.click_model("squad/1")
    assert not [n for n in sb.names if n.startswith("rule:")]
    assert "Rules" not in _card_labels(sb)


def test_labels_are_shown_apart_from_rules(make, tmp_path):
    text = SHOWCASE.read_text().replace('keywords = ["INFANTRY", "MOB"]',
                                        'keywords = ["INFANTRY", "MOB"]\nlabels = ["Ramshackle Charge"]')
    p = tmp_path / "labelled.toml"
    p.write_text(text)
    d = make(p)
    sb = d.sb
    d.click_model("mob/1")
    parts = _card_labels(sb)
    assert "Rules" in parts and "Not modelled (labels)" in parts and "Ramshackle Charge" in parts
    assert parts.index("Rules") < parts.index("Not modelled (labels)")


def _aura_record():
    return V.RuleRecord("test-aura", ("Test Banner",), V.DATASHEET, "Friendly units near the bearer hit better.",
                        grants=(V.Grant(V.Effect(V.MODIFY, "hit", 1), V.AURA, range=6.0),))


def test_an_aura_reaching_a_unit_and_its_ring(make):
    d = make(SHOWCASE)
    sb = d.sb
    sb.battle._enter()
    champ = sb.battle.units["champion"]
    held = esper.component_for_entity(champ, UnitRules).held
    esper.add_component(champ, UnitRules(held + (V.Held(_aura_record(), ("champion/1",)),)))
    lines = RC.rule_lines(sb.battle, sb.battle.units["wardens"])  # within 6" of the Champion
    aura = [r for r in lines if r.key == "test-aura"]
    assert aura and aura[0].source == "aura of Oath Champion" and aura[0].state == RC.ACTS
    assert aura[0].grants[0].why == "acts now"
    assert not [r for r in RC.rule_lines(sb.battle, sb.battle.units["boss"]) if r.key == "test-aura"]
    own = [r for r in RC.rule_lines(sb.battle, champ) if r.key == "test-aura"][0]
    assert own.source == "datasheet: Champion" and own.aura == 6.0
    rings, label = RC.aura_rings(sb.battle, sb.scene, sb.camera, "test-aura", "champion")
    assert [r.model for r in rings] == ["champion/1"] and label == 'Test Banner: aura 6"'
    # hovering its chip on the card draws the ring (and changes nothing)
    d.click_model("champion/1")
    before = sb.battle.state_hash()
    chip = sb.names["rule:test-aura:champion"]
    d.move(chip.rect.center)
    d.pump(2)
    assert RC.hovered_rule(sb) == ("test-aura", "champion")
    assert sb._aura_rings.rings and sb.battle.state_hash() == before


def test_drawing_the_rules_never_changes_the_world(make):
    d = make(SHOWCASE)
    sb = d.sb
    _choose(sb, "red", "oath-of-moment", "mob")
    _choose(sb, "blue", "waaagh", True)
    sb.update(1 / 60)
    before, n = sb.battle.state_hash(), len(sb.battle.events)
    for uid in ("wardens", "champion", "mob", "boss"):
        sb.select(uid, sb.scene.living(uid)[0].id)
        sb.update(1 / 60)
        sb.draw()
        chip = next(b for k, b in sb.names.items() if k.startswith("rule:"))
        d.move(chip.rect.center)
        d.pump(2)
        assert sb.battle.state_hash() == before, uid
    assert len(sb.battle.events) == n


def test_a_saved_table_reloads_with_its_rules(make, tmp_path):
    text = SHOWCASE.read_text().replace(  # one model of the mob with a rule of its own
        '{ name = "Raider", count = 8,', '{ name = "Raider", id = "mob/1", rules = ["reanimation-protocols"], '
        'base_mm = 32, M = 6, T = 5, Sv = 5, W = 1, Ld = 7, OC = 2, weapons = ["raider slugga", "raider choppa"], '
        'at = [[15.5, 22]] },\n  { name = "Raider", count = 8,')
    p = tmp_path / "with_model_rule.toml"
    p.write_text(text)
    d = make(p)
    saved = table_toml(d.sb.battle)
    assert 'rules = ["oath-of-moment"]' in saved and 'rules = ["waaagh"]' in saved
    assert 'rules = ["reanimation-protocols"]' in saved
    back = parse_scenario(tomllib.loads(saved), "saved.toml")
    orig = d.sb.battle.scenario
    assert [a.rules for a in back.armies] == [a.rules for a in orig.armies] == [("oath-of-moment",), ("waaagh",)]
    rules = {ms.id: ms.rules for us in back.units for ms in us.models}
    assert rules == {ms.id: ms.rules for us in orig.units for ms in us.models}
    assert rules["mob/1"] == ("reanimation-protocols",) and rules["mob/2"] == ()
    # a unit whose every model holds the same rules writes them once, on the unit
    same = SHOWCASE.read_text().replace('name = "Boss",', 'name = "Boss", rules = ["reanimation-protocols"],')
    d2 = make(_write(tmp_path / "same.toml", same))
    saved2 = table_toml(d2.sb.battle)
    unit_part = saved2.split('id = "boss"')[1].split("models = [")[0]
    assert 'rules = ["reanimation-protocols"]' in unit_part
    back2 = parse_scenario(tomllib.loads(saved2), "saved2.toml")
    assert [ms.rules for us in back2.units if us.id == "boss" for ms in us.models] == [("reanimation-protocols",)]


def _write(p, text):
    p.write_text(text)
    return p


def test_a_rule_choice_decision_names_units(make):
    """The rule choices the battle asks (sim.phases.rule_choices), answered in the panel: the
    Oath's enemy units by name; the answer is in force on the card."""
    d = make(SHOWCASE)
    sb = d.sb
    d.key(pygame.K_e, "e")  # start the battle: red's Command phase asks the Oath's mark
    for _ in range(20):
        if sb.battle.pending is not None:
            break
        d.pump(1)
    req = sb.battle.pending
    assert req is not None and req.kind == "rule_choice", req
    labels = " ".join(e.text for e in sb.orders_flow.scroll.get_container().elements if isinstance(e, (UILabel, TextLine)))
    assert "Oathsworn Wardens: Oath of Moment: pick the enemy unit to mark" in labels
    assert "Oath of Moment (army rule)" in labels
    assert d.button("answer:mob").text == "Raider Mob" and d.button("answer:boss").text == "Raider Boss"
    d.click_button("answer:boss")
    assert sb.battle.resources.rule_choices["red:oath-of-moment"]["value"] == "boss"
    d.click_model("wardens/1")
    assert "army rule  |  marked Raider Boss" in _card_text(sb)


def test_a_call_and_a_reroll_decision_in_words(make):
    d = make(SHOWCASE)
    sb = d.sb
    sb.battle.pending = DecisionRequest("rule_choice", "blue:waaagh round 1", 1, ["call", "decline"], "decline",
                                        prompt="Waaagh!: Call the Waaagh! now (once per battle)?",
                                        context={"rule": "waaagh", "choice": V.CALL})
    sb.dirty.add("orders")
    try:
        d.pump(2)
        assert d.button("answer:call").text == "Call it now" and d.button("answer:decline").text == "Decline"
        sb.battle.pending = DecisionRequest("rule_reroll", "waaagh: mob charge", 1, ["reroll", "decline"], "reroll",
                                            prompt="Waaagh!: re-roll mob's charge roll [1, 2]?",
                                            context={"rule": "waaagh", "roll": "charge", "unit": "mob"})
        sb.dirty.add("orders")
        d.pump(2)
        labels = " ".join(e.text for e in sb.orders_flow.scroll.get_container().elements if isinstance(e, (UILabel, TextLine)))
        assert "re-roll Raider Mob's charge roll [1, 2]?" in labels and "mob's" not in labels
        assert d.button("answer:reroll").text == "Re-roll"
    finally:
        sb.battle.pending = None


def test_option_words(make):
    d = make(SHOWCASE)
    sb = d.sb
    assert option_text(sb, "mob") == "Raider Mob"
    assert option_text(sb, ["mob", "boss"]) == "Raider Mob, Raider Boss"
    assert option_text(sb, "mob/3") == "Raider 3 of Raider Mob"  # (a model by its name and its unit's: sim.names)
    assert option_text(sb, "decline") == "Decline" and option_text(sb, "unheard-of") == "unheard-of"
    # a ritual's answer by the ritual's and the unit's names
    assert option_text(sb, "doombolt at mob +D6") == "Doombolt (Psychic) at Raider Mob, with a third die"
    assert option_text(sb, "twist-of-fate at mob") == "Twist of Fate (Psychic) at Raider Mob"
    assert option_text(sb, "none") == "None" and option_text(sb, "tea at noon") == "tea at noon"
    pygame.event.clear()


def test_one_line_per_rule_when_space_is_short(make, monkeypatch):
    monkeypatch.setattr(RC, "DETAIL_GRANTS", 0)
    d = make(SHOWCASE)
    sb = d.sb
    d.click_model("mob/1")
    labels = _card_labels(sb)
    assert "not called (1 use left)  |  not now" in labels, [t for t in labels if "army" in t]
    assert not [t for t in labels if "Strength" in t]  # (the effects are in the rule's hover)
    assert "+1 to Strength" in sb.names["rule:waaagh:mob"].tool_tip_text


def test_library_tip_shows_rules_apart_from_labels():
    from sim.sandbox.setup_mode import library_tip
    from sim.scenario.spec import ModelSpec
    import dataclasses
    fields = {f.name for f in dataclasses.fields(ModelSpec)}
    assert {"rules", "labels"} <= fields

    class Tpl:
        labels = ("Big Shout",)
        models = (type("M", (), {"rules": ("waaagh",), "labels": ("Ramshackle",)})(),) * 2
    assert library_tip(Tpl) == "2 models<br>rules: Waaagh!<br>not modelled: Ramshackle, Big Shout"


def test_a_limited_grant_used_says_so(make):
    d = make(SHOWCASE)
    sb = d.sb
    sb.battle._enter()
    rec = V.RuleRecord("test-once", ("Test Once",), V.DATASHEET, "Once per battle its unit charges further.",
                       grants=(V.Grant(V.Effect(V.MODIFY, "charge", 1), V.UNIT, V.When(limit=V.ONCE_PER_BATTLE)),))
    boss = sb.battle.units["boss"]
    held = esper.component_for_entity(boss, UnitRules).held
    esper.add_component(boss, UnitRules(held + (V.Held(rec),)))
    line = [r for r in RC.rule_lines(sb.battle, boss) if r.key == "test-once"][0]
    assert line.grants[0].why == "acts now"
    sb.battle.resources.rule_uses["blue:test-once@boss|battle"] = 1  # (a datasheet ability: its unit's own uses)
    line = [r for r in RC.rule_lines(sb.battle, boss) if r.key == "test-once"][0]
    assert (line.state, line.grants[0].why) == (RC.NOT, "not now: used (once per battle)")


def test_kept_option_picks_in_words_on_the_card(make):
    """Dread abilities picked so far (a PICK_OPTION choice that keeps its picks) on the card."""
    from sim.rules.effects import table
    d = make(SHOWCASE)
    sb = d.sb
    sb.battle._enter()
    rec = table.by_key("harbingers-of-dread")
    assert RC.choice_words(rec, 0) == "no option chosen yet (Despair, Doom, Dismay, Darkness)"
    _choose(sb, "red", "harbingers-of-dread", ["Despair", "Doom"])
    assert RC.choice_words(rec, 0) == "Despair, Doom chosen"
    pygame.event.clear()
def test_an_oath_is_sworn_in_the_decision_panel_and_shown_on_the_card(make, tmp_path):
    """Code Chivalric's oath (sim.phases.oaths) asked as the battle starts: every answer a button,
    the legend of deeds and qualities above them; the answer sworn and its qualities on the card."""
    text = SHOWCASE.read_text().replace('rules = ["Oath of Moment"]', 'rules = ["Code Chivalric"]')
    d = make(_write(tmp_path / "oath.toml", text))
    sb = d.sb
    d.key(pygame.K_e, "e")
    for _ in range(20):
        if sb.battle.pending is not None:
            break
        d.pump(1)
    req = sb.battle.pending
    assert req is not None and req.kind == "oath", req
    labels = " ".join(e.text for e in sb.orders_flow.scroll.get_container().elements if isinstance(e, (UILabel, TextLine)))
    assert "Code Chivalric: swear the oath" in labels
    assert "deeds: tyrant (1-2)" in labels and "legacy (5-6) +2 OC" in labels
    assert d.button("answer:random / random").text == "random"
    assert sb.orders_flow.scroll.rect.contains(d.button("answer:random / random").rect)  # (a grid: all in view)
    d.click_button("answer:tally / legacy")
    for _ in range(20):
        if "red" in sb.battle.resources.oaths:
            break
        d.pump(1)
    assert sb.battle.resources.oaths["red"]["deed"] == "tally"
    assert sb.battle.resources.oaths["red"]["quality"] == "legacy"
    d.click_model("wardens/1")
    assert "oath: tally, legacy  |  acts now" in _card_text(sb)
    tip = sb.names["rule:code-chivalric:wardens"].tool_tip_text
    assert "+2 to Objective Control" in tip and "legacy be unsullied" in tip and "acts now" in tip
    assert "Move" in tip and "not now: while its army's oath has the quality" in tip


def test_hovering_a_rule_that_reads_the_domain_tints_it(make):
    """The Shadow of Chaos on the Champion: hovering its chip tints red's domain (its deployment
    zone alone: nothing is controlled yet) and changes nothing."""
    from sim.rules.effects import table
    d = make(SHOWCASE)
    sb = d.sb
    sb.battle._enter()
    champ = sb.battle.units["champion"]
    held = esper.component_for_entity(champ, UnitRules).held
    esper.add_component(champ, UnitRules(held + (V.Held(table.by_key("the-shadow-of-chaos")),)))
    line = [r for r in RC.rule_lines(sb.battle, champ) if r.key == "the-shadow-of-chaos"][0]
    assert line.domain and "its army's domain on the table" in RC.rule_tip(line)
    d.click_model("champion/1")
    before = sb.battle.state_hash()
    d.move(sb.names["rule:the-shadow-of-chaos:champion"].rect.center)
    d.pump(2)
    layer = sb._aura_rings._domain
    assert layer is not None and sb._aura_rings.label == "The Shadow of Chaos: domain (own deployment zone)"
    inside, outside = sb.camera.to_screen(5, 5), sb.camera.to_screen(5, 15)
    assert layer.get_at((round(inside[0]), round(inside[1]))).a > 0
    assert layer.get_at((round(outside[0]), round(outside[1]))).a == 0
    assert sb.battle.state_hash() == before
    assert RC.domain_areas(sb.battle, "oath-of-moment", "champion") == (None, "")
