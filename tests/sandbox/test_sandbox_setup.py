"""Set-up mode: terrain and units placed, moved, duplicated and removed through posted events;
the table saves as a scenario that loads back identical (what `sim check` accepts)."""

from __future__ import annotations

import pygame

from sandbox_support import ROOT, all_scenarios
from sim.replay.log import replay
from sim.sandbox.save_table import spec_toml
from sim.scenario.load import load_scenario

DEFAULT = ROOT / "scenarios" / "default.toml"


def _same_table(a, b) -> None:
    assert a.board == b.board and a.armies == b.armies
    assert a.terrain == b.terrain
    assert a.units == b.units
    assert a.weapons == b.weapons
    assert a.mission == b.mission  # (a whole battle stays one: its [mission] table is saved too)


def test_set_up_a_table_and_save_it(make):
    d = make(DEFAULT)
    sb = d.sb
    d.key(pygame.K_F2)
    assert sb.mode == "setup"
    n_terrain, n_units = len(sb.spec.terrain), len(sb.spec.units)
    # a terrain piece from the palette, rotated with R and the wheel, placed by a click
    d.click_button("terrain:woods")
    at = sb.camera.to_screen(30, 22)
    d.move(at)
    d.pump(1)
    d.key(pygame.K_r, "r")
    d.post(pygame.MOUSEWHEEL, x=0, y=1, flipped=False)
    d.pump(1)
    d.click(at)
    assert len(sb.spec.terrain) == n_terrain + 1, sb.status
    from sim.sandbox.save_table import piece_params
    name, x, y, rot = piece_params(sb.spec.terrain[-1])
    assert (name, x, y, rot) == ("woods", 30, 22, 30)
    d.key(pygame.K_ESCAPE)
    # a unit from the library for each army
    d.click_button("unit:0:command")
    d.click(sb.camera.to_screen(30, 41))
    assert len(sb.spec.units) == n_units + 1, sb.status
    units = {u.id: u for u in sb.spec.units}
    new = units["command"]
    assert new.owner == 0 and new.id == "command" and len(new.models) == 5
    assert any(m.character for m in new.models)
    d.click_button("unit:1:walker")
    d.click(sb.camera.to_screen(55, 4))
    assert len(sb.spec.units) == n_units + 2, sb.status
    walker = next(u for u in sb.spec.units if u.id not in units)
    assert walker.owner == 1 and walker.models[0].profile.W == 12
    # a placement that overlaps models is refused with the loader's reason, nothing changes
    d.click_button("unit:1:brutes")
    before = sb.spec
    d.click(d.model_pos(new.models[0].id))
    assert sb.spec is before and "overlap" in sb.status
    d.key(pygame.K_ESCAPE)
    # duplicate the command squad (D), place the copy, then remove it (Del)
    d.click_model(new.models[1].id)
    assert sb.selected_unit == "command"
    d.key(pygame.K_d, "d")
    d.click(sb.camera.to_screen(45, 41))
    assert "command-2" in {u.id for u in sb.spec.units}, sb.status
    assert sb.selected_unit == "command-2"
    d.key(pygame.K_DELETE)
    assert "command-2" not in {u.id for u in sb.spec.units}
    # drag the walker 2" to the left
    wid = walker.models[0].id
    x0 = sb.scene.models[wid].x
    a = d.model_pos(wid)
    d.drag(a, (a[0] - 2 * sb.camera.scale, a[1]))
    assert abs(sb.scene.models[wid].x - (x0 - 2)) < 0.26, sb.status
    # every edit started a fresh battle from the table: nothing has happened in it
    assert sb.battle.commands_done == 0 and sb.battle.scenario is sb.spec
    # save: a scenario file that loads back identical
    path = sb.save_table()
    loaded = load_scenario(path)
    _same_table(loaded, sb.spec)
    assert spec_toml(loaded) == spec_toml(sb.spec)
    d.key(pygame.K_F2)
    assert sb.mode == "battle"


def test_saved_tables_round_trip_every_scenario(tmp_path):
    from sim.sandbox.table_edit import checked
    for p in all_scenarios():
        spec = load_scenario(p)
        _same_table(checked(spec), spec)


def test_a_replay_on_an_edited_table_verifies(make):
    d = make(ROOT / "tests" / "sandbox" / "data" / "precision_hazard.toml")
    sb = d.sb
    d.key(pygame.K_F2)
    d.click_button("terrain:barricade")
    d.click(sb.camera.to_screen(30, 20))
    assert sb.edited, sb.status
    d.key(pygame.K_F2)
    d.click_model("snipers/1")
    a = d.model_pos("snipers/1")
    d.drag(a, (a[0] + 2 * sb.camera.scale, a[1]))
    assert sb.battle.commands_done == 1
    n, div = replay(sb.save_replay())
    assert n == 1 and div is None
