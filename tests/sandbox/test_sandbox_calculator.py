"""The odds calculator panel (issue 28 item 11), driven by posted events: two units picked from
the table, the range and the conditions toggled, the same figures as `sim odds --attacker
--defender` (sim.analysis.calculator); a catalogue's datasheets among the choices once one is
browsed."""

from __future__ import annotations

import pygame

from sandbox_support import ROOT, shot
from sim.analysis import calculator as C

SHOTS = ROOT / "tests" / "sandbox" / "screenshots"
SCENARIO = ROOT / "scenarios" / "battle_default.toml"
CAT = ROOT / "tests" / "importers" / "data" / "cat_xml" / "Ashen Concord.cat"


def _pick(sb, uid):
    from sim.names import unit_names
    us = next(u for u in sb.spec.units if u.id == uid)  # (named as the table names it: "Raider Mob (1)")
    return C.Pick(us, dict(sb.spec.weapons), tuple(sb.spec.armies[us.owner].rules), "", unit_names(sb.spec.units)[uid])


def test_calculator_panel_gives_the_command_lines_figures(make):
    d = make(SCENARIO)
    sb = d.sb
    first = sb.spec.units[0]
    d.click_model(first.models[0].id)
    assert sb.selected_unit == first.id
    d.click_button("bar:calculator")
    calc = sb.calculator
    assert calc.open
    att, dfn = calc.choices[calc.attacker], calc.choices[calc.defender]
    assert att[1] == first.id  # (the selected unit attacks)
    enemy = next(u for u in sb.spec.units if u.id == dfn[1])
    assert enemy.owner != first.owner
    d.pump(2)
    want = C.columns(_pick(sb, first.id), _pick(sb, enemy.id), C.Conditions(range=12.0))
    assert calc.lines() == C.text(want, C.Conditions(range=12.0)).split("\n")
    assert any(line.startswith("destroy the unit") and "%" in line for line in calc.lines())
    d.click_button("calc:cover")
    d.click_button("calc:range+")
    d.pump(2)
    cond = C.Conditions(range=18.0, cover=True)
    assert calc.conditions() == cond
    assert calc.lines() == C.text(C.columns(_pick(sb, first.id), _pick(sb, enemy.id), cond), cond).split("\n")
    d.click_button("calc:charged")
    d.pump(2)
    assert calc.conditions().melee and "fight, charged" in calc.lines()[0]
    SHOTS.mkdir(exist_ok=True)
    shot(sb.draw(), SHOTS / "calculator_panel.png")
    d.click_button("bar:calculator")
    assert not calc.open


def test_a_browsed_catalogues_datasheets_are_choices(make):
    d = make(SCENARIO)
    sb = d.sb
    sheets = [{"name": "Ember Hounds", "refused": None}, {"name": "Furnace Strider", "refused": None}]
    sb.catalogue = {"path": str(CAT), "sheets": sheets, "search": "", "adding": None, "focus": False}
    d.click_button("bar:calculator")
    calc = sb.calculator
    assert "Ember Hounds (catalogue)" in calc.choices
    calc.choose(sb, attacker="Ember Hounds (catalogue)")
    d.click_button("calc:charged")
    d.pump(2)
    assert calc.lines()[1].strip().startswith("Ember Hounds") and not calc.error


def test_the_panels_own_catalogue_pick(make):
    import pygame_gui
    d = make(SCENARIO)
    sb = d.sb
    d.click_button("bar:calculator")
    calc = sb.calculator
    assert not any(c[0] == "catalogue" for c in calc.choices.values())
    d.click_button("calc:catalogue")
    dialog = calc._dialog
    assert dialog is not None and dialog.alive()
    d.post(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(CAT), ui_element=dialog)
    d.pump(2)
    assert "Furnace Strider (catalogue)" in calc.choices and calc.open
    assert sb.mode == "battle"  # (not taken for a replay to open)
    calc.choose(sb, defender="Furnace Strider (catalogue)")
    d.pump(2)
    assert "Furnace Strider" in calc.lines()[2] and not calc.error
