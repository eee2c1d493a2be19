"""Set-up mode's "Catalogue..." (issue 17), driven by posted pygame events: the file dialog, the
datasheets listed, the search box filtering them as you type, a datasheet added to an army in
its deployment zone clear of every base; a garbage file gives the importer's one-line error
and changes nothing."""

from __future__ import annotations

from itertools import combinations

import pygame

from sandbox_support import ROOT, shot
from sim.importers import list_datasheets
from sim.importers.scenario import _zones
from sim.rules.geometry import distance
from sim.rules.polygons import point_in_polygon

CATALOGUE = ROOT / "tests" / "importers" / "data" / "cat_xml" / "Ashen Concord.cat"
SHOTS = ROOT / "tests" / "sandbox" / "screenshots"
TABLE = ROOT / "scenarios" / "default.toml"


def _pick(d, path) -> None:
    """Set-up mode, Catalogue..., the file picked in the dialog and its OK clicked."""
    sb = d.sb
    if sb.mode != "setup":
        d.key(pygame.K_F2)
    assert sb.mode == "setup"
    sb.catalogue_start = str(path)  # (the dialog opens on this file, as after browsing to it)
    d.click_button("catalogue:open")
    dlg = sb._catalogue_dialog
    assert dlg is not None and dlg.alive()
    d.click(dlg.ok_button.rect.center)
    assert sb._catalogue_dialog is None


def _sheets(sb) -> list[str]:
    return sorted(k.split(":", 2)[2] for k, b in sb.names.items()
                  if k.startswith("catalogue:sheet:") and b.alive() and b.visible)


def _type(d, text: str) -> None:
    for ch in text:
        d.post(pygame.KEYDOWN, key=ord(ch), unicode=ch, mod=0, scancode=0)  # (not a set-up hotkey here)
        d.post(pygame.TEXTINPUT, text=ch)
        d.post(pygame.KEYUP, key=ord(ch), unicode=ch, mod=0, scancode=0)
        d.pump(2)


def _snapshot(sb):
    return sb.battle.state_hash(), [(u.id, u.owner, tuple((m.id, m.x, m.y) for m in u.models)) for u in sb.spec.units]


def test_catalogue_search_and_add(make):
    d = make(TABLE)
    sb = d.sb
    _pick(d, CATALOGUE)
    names = sorted(s["name"] for s in list_datasheets(CATALOGUE))
    assert len(names) >= 3
    assert _sheets(sb) == names
    assert "Sv" in d.button(f"catalogue:sheet:{names[0]}").text  # a short statline
    # the search box filters as you type (case-insensitive)
    d.click(sb._catalogue_entry.rect.center)
    assert sb.catalogue_typing()
    units_before = _snapshot(sb)
    _type(d, "eMbEr")
    assert sb.catalogue["search"] == "eMbEr"
    assert _sheets(sb) == [n for n in names if "ember" in n.casefold()] == ["Ember Hounds"]
    assert sb._catalogue_entry.get_text() == "eMbEr" and sb.catalogue_typing()  # (kept the focus)
    assert _snapshot(sb) == units_before  # (the letters were no set-up hotkeys: D duplicates)
    d.key(pygame.K_BACKSPACE)
    d.key(pygame.K_BACKSPACE)
    d.key(pygame.K_BACKSPACE)
    assert sb.catalogue["search"] == "eM"
    assert _sheets(sb) == [n for n in names if "em" in n.casefold()]
    # a datasheet clicked, then the red army
    red_before = {u.id for u in sb.spec.units if u.owner == 0}
    blue_before = [u.id for u in sb.spec.units if u.owner == 1]
    d.click_button("catalogue:sheet:Ember Hounds")
    assert sb.catalogue["adding"] == "Ember Hounds"
    d.pump(2)
    SHOTS.mkdir(exist_ok=True)
    shot(sb.draw(), SHOTS / "catalogue.png")
    d.click_button("catalogue:red")
    assert sb.status.startswith("added Ember Hounds"), sb.status
    red = [u for u in sb.spec.units if u.owner == 0]
    new = [u for u in red if u.id not in red_before]
    assert len(new) == 1 and new[0].name == "Ember Hounds"
    assert {u.id for u in red} >= red_before  # the army's units kept
    assert [u.id for u in sb.spec.units if u.owner == 1] == blue_before
    zone = _zones(sb.spec)[0]
    for m in new[0].models:
        assert point_in_polygon((m.x, m.y), zone) > 0, (m.id, m.x, m.y)
        assert sb.scene.models[m.id].alive
    sb.battle._enter()
    fps = {m.id: sb.scene.models[m.id].fp for u in sb.spec.units for m in u.models}
    mine = {m.id for m in new[0].models}
    for a, b in combinations(fps, 2):
        if a in mine or b in mine:
            assert distance(fps[a], fps[b]) > 0, (a, b)  # no base overlapped
    assert sb.catalogue is not None  # still browsing: another can be added
    # a second one to the same army is placed clear of the first
    d.click_button("catalogue:sheet:Ember Hounds")
    d.click_button("catalogue:red")
    again = [u for u in sb.spec.units if u.owner == 0 and u.name == "Ember Hounds"]
    assert len(again) == 2 and len({u.id for u in again}) == 2
    sb.battle._enter()
    fps = {m.id: sb.scene.models[m.id].fp for u in sb.spec.units for m in u.models}
    for a, b in combinations(fps, 2):
        assert distance(fps[a], fps[b]) > 0, (a, b)
    d.click_button("catalogue:close")
    assert sb.catalogue is None and "import:open" in sb.names


def test_garbage_catalogue_changes_nothing(make, tmp_path):
    d = make(TABLE)
    sb = d.sb
    d.key(pygame.K_F2)
    before = _snapshot(sb)
    garbage = tmp_path / "garbage.cat"
    garbage.write_bytes(b"\x00\xffnot a catalogue <<<")
    _pick(d, garbage)
    assert sb.status.startswith("catalogue failed: ") and "\n" not in sb.status, sb.status
    assert garbage.name in sb.status
    assert sb.catalogue is None
    assert _snapshot(sb) == before


def test_an_aircraft_datasheet_is_listed_refused_and_not_added(make, tmp_path):
    """Part A ruling 28: the catalogue's AIRCRAFT datasheet is listed (its tip says why it is
    refused); clicking it says so in the status bar, asks for no army and changes nothing."""
    import json
    import shutil
    folder = tmp_path / "cat"
    shutil.copytree(ROOT / "tests" / "importers" / "data" / "cat_json", folder)
    path = folder / "Ashen Concord.json"
    doc = json.loads(path.read_text())
    entry = next(e for e in doc["catalogue"]["sharedSelectionEntries"] if e["name"] == "Furnace Strider")
    entry["categoryLinks"].append({"id": "cl-air", "name": "Aircraft", "targetId": "cat-air"})
    path.write_text(json.dumps(doc))
    d = make(TABLE)
    sb = d.sb
    _pick(d, path)
    assert "Furnace Strider" in _sheets(sb)
    assert d.button("catalogue:sheet:Furnace Strider").tool_tip_text.startswith(
        "refused: AIRCRAFT are not in this version (Part A ruling 28)")
    before = _snapshot(sb)
    d.click_button("catalogue:sheet:Furnace Strider")
    assert sb.catalogue["adding"] is None
    assert "catalogue:red" not in sb.names or not sb.names["catalogue:red"].alive()
    assert sb.status == "Furnace Strider cannot be added: AIRCRAFT are not in this version (Part A ruling 28)"
    assert _snapshot(sb) == before
    d.click_button("catalogue:sheet:Ember Hounds")
    assert sb.catalogue["adding"] == "Ember Hounds"
