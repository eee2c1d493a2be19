"""Set-up mode's "Import army..." (issue 17), driven by posted pygame events: the file dialog,
the army question, the units in that army's deployment zone without overlap, the report in
the panel; a garbage or hostile file gives the importer's one-line error and changes nothing."""

from __future__ import annotations

import zipfile
from itertools import combinations

import pygame

from sandbox_support import ROOT, shot
from sim.importers import load_roster
from sim.importers.scenario import _zones
from sim.rules.geometry import distance
from sim.rules.polygons import point_in_polygon

ROSTER = ROOT / "tests" / "importers" / "data" / "ashen.ros"
SHOTS = ROOT / "tests" / "sandbox" / "screenshots"
TABLE = ROOT / "scenarios" / "default.toml"


def _pick(d, path) -> None:
    """Set-up mode, Import army..., the file picked in the dialog and its OK clicked."""
    sb = d.sb
    if sb.mode != "setup":
        d.key(pygame.K_F2)
    assert sb.mode == "setup"
    sb.import_start = str(path)  # (the dialog opens on this file, as after browsing to it)
    d.click_button("import:open")
    dlg = sb._import_dialog
    assert dlg is not None and dlg.alive()
    d.click(dlg.ok_button.rect.center)
    assert sb.importing == str(path)


def _snapshot(sb):
    return sb.battle.state_hash(), [(u.id, u.owner, tuple((m.id, m.x, m.y) for m in u.models)) for u in sb.spec.units]


def test_import_army_places_the_roster_in_its_zone(make):
    d = make(TABLE)
    sb = d.sb
    blue_before = [u.id for u in sb.spec.units if u.owner == 1]
    _pick(d, ROSTER)
    d.click_button("import:red")
    army, report = load_roster(ROSTER)
    red = [u for u in sb.spec.units if u.owner == 0]
    assert "imported ashen.ros" in sb.status, sb.status
    assert len(red) == len(army.units) and {u.name for u in red} == {u.name for u in army.units}
    assert [u.id for u in sb.spec.units if u.owner == 1] == blue_before  # the other army kept
    zone = _zones(sb.spec)[0]
    models = [(m, u) for u in red for m in u.models]
    for m, _u in models:
        assert point_in_polygon((m.x, m.y), zone) > 0, (m.id, m.x, m.y)
        assert sb.scene.models[m.id].alive  # on the table
    sb.battle._enter()
    fps = {m.id: sb.scene.models[m.id].fp for m, _u in models}
    for a, b in combinations(fps, 2):
        assert distance(fps[a], fps[b]) > 0, (a, b)  # no two bases overlap
    # the report is in the panel: inert labels and base sizes
    assert sb.import_report and any("inert" in x for x in sb.import_report)
    assert any("base of" in x for x in sb.import_report)
    assert [t for t, oid in sb._log_items if oid == "#import"] == sb.import_report
    d.pump(2)
    SHOTS.mkdir(exist_ok=True)
    shot(sb.draw(), SHOTS / "import_army.png")


def test_garbage_and_hostile_files_change_nothing(make, tmp_path):
    d = make(TABLE)
    sb = d.sb
    d.key(pygame.K_F2)
    before = _snapshot(sb)
    garbage = tmp_path / "garbage.ros"
    garbage.write_bytes(b"\x00\xffnot a roster <<<")
    bomb = tmp_path / "bomb.rosz"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("bomb.ros", b"<" + b"a" * (40 * 1024 * 1024))
    laughs = tmp_path / "laughs.ros"
    laughs.write_text('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
                      '<!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><roster>&lol2;</roster>')
    for bad in (garbage, bomb, laughs):
        _pick(d, bad)
        d.click_button("import:blue")
        assert sb.status.startswith("import failed: ") and "\n" not in sb.status, sb.status
        assert bad.name in sb.status
        assert _snapshot(sb) == before
        assert not getattr(sb, "import_report", None)
