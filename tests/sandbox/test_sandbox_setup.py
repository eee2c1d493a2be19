"""Set-up mode: terrain and units placed, moved, duplicated and removed through posted events;
the table saves as a scenario that loads back identical (what `sim check` accepts)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pygame
import pytest

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
    # a unit placed onto other models is set up where the placement solver finds room nearest
    # the pointer (clear of every base: the loader checks), then removed again
    d.click_button("unit:1:brutes")
    x0, y0 = new.models[0].x, new.models[0].y
    d.click(d.model_pos(new.models[0].id))
    brutes = next((u for u in sb.spec.units if u.id.startswith("brutes")), None)
    assert brutes is not None, sb.status
    assert all(math.hypot(m.x - x0, m.y - y0) < 8.0 for m in brutes.models)
    assert min(math.hypot(m.x - x0, m.y - y0) for m in brutes.models) < 3.0
    d.key(pygame.K_DELETE)
    assert brutes.id not in {u.id for u in sb.spec.units}
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


def test_set_a_dense_feature_height_and_save_it(make):
    """Part A ruling 12 in set-up: the selected area's dense features get a height from the
    panel's buttons or the H key (the status and the panel say what it means), the table saves
    it (a library piece keeps its piece form, with ``height``) and loads back the same; the
    piece's own height is written as no height at all."""
    d = make(ROOT / "tests" / "sandbox" / "data" / "precision_hazard.toml")
    sb = d.sb
    d.key(pygame.K_F2)
    i = next(k for k, a in enumerate(sb.spec.terrain) if a.name == "ruins")
    d.click(sb.camera.to_screen(38, 16.5))          # inside the ruins' area, clear of models and walls
    assert sb.setup.terrain == i and 'dense: 5" tall; H changes it' in sb.status, sb.status
    assert d.button("setup:height:5").get_object_ids()[-1] == "#toggle_on"        # the piece's own 5"
    assert d.button("setup:height:2").get_object_ids()[-1] == "#toggle"
    assert "low" in d.button("setup:height:2").tool_tip_text
    sb.actions[d.button("setup:height:2")]()        # (the panel's button: bottom of a scrolled panel)
    d.pump(2)
    assert [f.height for f in sb.spec.terrain[i].features] == [2.0, 2.0], sb.status
    assert sb.setup.terrain == i and "2\" tall" in sb.status
    assert d.button("setup:height:2").get_object_ids()[-1] == "#toggle_on"
    text = Path(sb.save_table()).read_text()
    assert 'piece = "ruins"' in text and "height = 2\n" in text
    _same_table(load_scenario(sb.save_table()), sb.spec)
    d.key(pygame.K_h, "h")                           # H: the next height offered
    assert [f.height for f in sb.spec.terrain[i].features] == [3.0, 3.0], sb.status
    d.key(pygame.K_h, "h")
    d.key(pygame.K_h, "h")
    assert [f.height for f in sb.spec.terrain[i].features] == [5.0, 5.0]
    assert "height =" not in spec_toml(sb.spec)      # (the piece's own)
    # an area with no dense feature offers no height
    j = next(k for k, a in enumerate(sb.spec.terrain) if a.name == "woods")
    d.click(sb.camera.to_screen(12, 36))
    assert sb.setup.terrain == j and not any(n.startswith("setup:height") and b.alive()
                                             for n, b in sb.names.items())
    d.key(pygame.K_h, "h")
    assert "no dense feature" in sb.status


def test_heights_of_a_drawn_area_round_trip_per_feature():
    """An area given as polygons keeps each dense feature's own height through an edit (moved,
    a height set) and a save; a light feature never has one; an area with no dense feature is
    refused a height."""
    from sim.rules.terrain import Feature, TerrainArea
    from sim.sandbox import table_edit as TE
    spec = load_scenario(DEFAULT)
    wall = ((40.0, 20.0), (44.0, 20.0), (44.0, 20.5), (40.0, 20.5))
    post = ((40.0, 23.0), (40.5, 23.0), (40.5, 23.5), (40.0, 23.5))
    hedge = ((42.0, 22.0), (44.0, 22.0), (44.0, 22.5), (42.0, 22.5))
    area = TerrainArea("yard", ((39.0, 19.0), (45.0, 19.0), (45.0, 24.0), (39.0, 24.0)),
                       (Feature("dense", wall, 1.5), Feature("dense", post), Feature("light", hedge)))
    spec = TE.checked(dataclasses.replace(spec, terrain=spec.terrain + (area,)))
    k = len(spec.terrain) - 1
    assert [f.height for f in spec.terrain[k].features] == [1.5, None, None]
    moved = TE.move_terrain(spec, k, 1.0, 0.0)
    assert [f.height for f in moved.terrain[k].features] == [1.5, None, None]
    assert "height = 1.5" in spec_toml(moved)
    tall = TE.set_terrain_height(moved, k, 6.0)
    assert [f.height for f in tall.terrain[k].features] == [6.0, 6.0, None]
    _same_table(TE.checked(tall), tall)
    woods = next(n for n, a in enumerate(spec.terrain) if not a.solid_features)
    with pytest.raises(TE.EditError, match="no dense feature"):
        TE.set_terrain_height(spec, woods, 2.0)


def test_a_unit_placed_by_hand_where_there_is_no_room_is_refused_with_the_reason():
    from sim.sandbox import table_edit as TE
    lib, _w = TE.load_library()
    spec = load_scenario(DEFAULT)
    tpl = max(lib, key=lambda u: len(u.models))
    tiny = dataclasses.replace(spec, board=(3.0, 3.0), units=(), terrain=())
    with pytest.raises(TE.EditError, match=r"sq in free there, the unit's bases need"):
        TE.unit_spots(tiny, tpl, 1.5, 1.5)
    at = TE.unit_spots(dataclasses.replace(spec, units=(), terrain=()), tpl, 20.0, 20.0)
    assert len(at) == len(tpl.models)


def test_a_saved_battle_keeps_its_transports_and_what_they_carry():
    """18.01 / 26 step 7: a table saved from a battle writes each transport's capacity and the
    units embarked in it (their living models), so the saved table starts as the battle stood:
    only the dedicated transport that was empty is destroyed at its start."""
    import tomllib

    from sim.battle import Battle
    from sim.commands import StartBattle
    from sim.sandbox.save_table import spec_from_world, spec_toml
    from sim.scenario.load import parse_scenario
    spec = load_scenario(ROOT / "scenarios/transport.toml")
    with Battle(spec) as b:
        saved, notes = spec_from_world(b)
        text = spec_toml(saved, notes)
    again = parse_scenario(tomllib.loads(text), "saved.toml")
    before = {u.id: (u.transport, u.embarked, len(u.models)) for u in spec.units}
    assert {u.id: (u.transport, u.embarked, len(u.models)) for u in again.units} == before
    with Battle(again) as b:
        b.run_command(StartBattle())
        assert [e["unit"] for e in b.events if e["type"] == "empty transport destroyed"] == ["husk"]


def test_a_table_saved_before_the_battle_starts_is_the_scenario_and_loads(make):
    """26 steps 5-11: during battle formations and deployment the units not yet set up have no
    place on the table; the table is saved as the scenario (the choices are the replay's), not as
    an army without its waiting units, which the loader refused."""
    from sim.commands import StartBattle
    d = make(ROOT / "scenarios" / "deployment.toml")
    sb = d.sb
    sb.battle.run_command(StartBattle())
    assert sb.battle.turn_state.pre_battle is not None
    path = sb.save_table()
    assert "as the scenario" in sb.status
    again = load_scenario(path)
    assert [u.id for u in again.units] == [u.id for u in sb.spec.units]
