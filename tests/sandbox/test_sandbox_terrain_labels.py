"""Terrain names stay on their feature (issue 28 item 9, sim.sandbox.labels): a terrain area's
name is written on the area or touching it, never pushed elsewhere by the labels placed before
it (at 800x600 "crater field" was drawn 3 inches from its crater with a leader line, and the
lower "armoured container" sat on the woods beside it, reading as the woods' name); where no
spot is free the name is shortened or left out and the hover tip names the area."""

from __future__ import annotations

import pygame
import pytest

from sim.sandbox.labels import TERRAIN, Request, place, rect_polygon_distance, terrain_requests

SIZES = [(800, 600), (1024, 700), (1600, 900), (2560, 1440)]
SCENARIOS = ["battle_default.toml", "default.toml", "rules_showcase.toml"]


def _shapes(sb):
    cam = sb.camera
    return [[tuple(cam.to_screen(x, y)) for x, y in a.polygon] for a in sb.spec.terrain]


def _terrain_label_faults(sb) -> list[str]:
    reach = max(2, round(3 * sb.scale)) + 2
    shapes = _shapes(sb)
    bad = []
    for p in sb.table_labels.placed:
        if p.kind != TERRAIN:
            continue
        i = int(p.key)
        name = sb.spec.terrain[i].name
        d = rect_polygon_distance(tuple(p.rect), shapes[i])
        if d > reach or p.leader is not None:
            bad.append(f"{name} #{i} at {p.rect} is {d:.0f} px from its area")
        for j, other in enumerate(shapes):
            if j != i and rect_polygon_distance(tuple(p.rect), other) == 0:
                bad.append(f"{name} #{i} at {p.rect} lies on {sb.spec.terrain[j].name} #{j}")
    return bad


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_terrain_name_is_on_or_touching_its_area_and_on_no_other(sized, scenario, size):
    sb = sized(scenario, size)
    assert _terrain_label_faults(sb) == []
    assert any(p.kind == TERRAIN for p in sb.table_labels.placed)  # (names are still written)


def test_zoomed_in_terrain_names_stay_on_their_areas(sized):
    sb = sized("battle_default.toml", (1024, 700))
    cam = sb.camera
    for at, z in (((12, 10), 2.5), ((30, 22), 3.0)):
        cam.zoom_at(tuple(round(v) for v in cam.to_screen(*at)), z)
        sb.update(1 / 60)
        sb.draw()
        assert _terrain_label_faults(sb) == []
        cam.zoom_at(tuple(round(v) for v in cam.to_screen(*at)), 1 / z)


def test_a_crowded_terrain_name_is_shortened_then_left_out():
    vp = pygame.Rect(0, 0, 400, 300)
    area = [(150, 100), (250, 100), (250, 140), (150, 140)]
    full, short = pygame.Surface((120, 12)), pygame.Surface((50, 12))
    box = pygame.Rect(150, 100, 100, 40)
    # (everything around the area but a small spot under its middle is taken)
    blockers = [pygame.Rect(0, 0, 400, 100), pygame.Rect(0, 100, 150, 300), pygame.Rect(250, 100, 150, 300),
                pygame.Rect(150, 100, 100, 40), pygame.Rect(150, 160, 100, 140)]
    q = Request(TERRAIN, "0", full, box, must=False, short=short, touch=area)
    (p,) = place([q], blockers, vp)
    assert p.short and p.surf is short and p.leader is None
    assert rect_polygon_distance(tuple(p.rect), area) <= 5
    assert place([q], blockers + [pygame.Rect(150, 140, 100, 20)], vp) == []  # (no room at all: left out)


def test_the_hover_tip_names_an_area_whose_name_is_not_written_in_full(sized):
    sb = sized("battle_default.toml", (800, 600))  # ("armoured container" shortened there)
    cam = sb.camera
    full = {int(p.key) for p in sb.table_labels.placed if p.kind == TERRAIN and not p.short}
    vp = cam.viewport
    hidden = None
    for i, a in enumerate(sb.spec.terrain):
        if i in full:
            continue
        cx = sum(x for x, _ in a.polygon) / len(a.polygon)
        cy = sum(y for _, y in a.polygon) / len(a.polygon)
        pt = tuple(round(v) for v in cam.to_screen(cx, cy))
        if vp.collidepoint(pt):
            hidden = (a.name, pt)
            break
    assert hidden is not None
    sb.mouse = hidden[1]
    sb.hover_unit = sb.hover_model = None
    assert f"{hidden[0]} (terrain area)" in sb._tip_lines(sb.look())
    shown = next(p for p in sb.table_labels.placed if p.kind == TERRAIN and not p.short)
    a = sb.spec.terrain[int(shown.key)]
    cx = sum(x for x, _ in a.polygon) / len(a.polygon)
    cy = sum(y for _, y in a.polygon) / len(a.polygon)
    sb.mouse = tuple(round(v) for v in cam.to_screen(cx, cy))
    assert not any("(terrain area)" in s for s in sb._tip_lines(sb.look()))


def test_terrain_requests_shorten_long_names():
    from types import SimpleNamespace
    from sim.sandbox.labels import abbreviation
    assert abbreviation("armoured container") == "armoured\u2026"
    assert abbreviation("ruins") is None
    cam = SimpleNamespace(scale=10.0, to_screen=lambda x, y: (x * 10.0, y * 10.0))
    area = SimpleNamespace(name="crater field", polygon=((1, 1), (5, 1), (5, 4)))
    pygame.init()
    (q,) = terrain_requests(cam, [area], 1.0)
    assert q.short is not None and q.touch and q.avoid == ()


@pytest.mark.parametrize("size", [(2560, 1440), (1024, 700)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_models_hover_tip_leaves_its_units_name_visible(sized, size):
    """Hovering the second Raider Sharpshooter under Xvfb at 2560x1440: the tip sat on the
    unit's name "Raider Sharpshooters" (clear of the models below, the Raider Gunners)."""
    sb = sized("battle_default.toml", size)
    uid = next(u.id for u in sb.spec.units if u.name == "Raider Sharpshooters")
    for m in list(sb.scene.living(uid)):
        sb.mouse = tuple(round(v) for v in sb.camera.to_screen(m.x, m.y))
        sb.hover_model, sb.hover_unit = m.id, m.unit
        sb.draw()
        assert sb.tip_box is not None
        label = sb.label_rects[uid]
        assert not sb.tip_box.colliderect(label), (m.id, sb.tip_box, label)


def test_no_terrain_tip_over_a_move_waiting_to_be_confirmed(sized):
    """Under Xvfb at 800x600 a refused drag left its snap suggestion over the shortened
    "armoured..." and the terrain tip covered the unit's name while Enter/Esc was awaited."""
    sb = sized("battle_default.toml", (800, 600))
    short = next(p for p in sb.table_labels.placed if p.kind == TERRAIN and p.short)
    a = sb.spec.terrain[int(short.key)]
    cx = sum(x for x, _ in a.polygon) / len(a.polygon)
    cy = sum(y for _, y in a.polygon) / len(a.polygon)
    sb.mouse = tuple(round(v) for v in sb.camera.to_screen(cx, cy))
    sb.hover_unit = sb.hover_model = None
    look = sb.look()
    assert f"{a.name} (terrain area)" in sb._tip_lines(look)
    m = next(iter(sb.scene.models.values()))
    look.ghosts[m.id] = (0.5, 0.0)
    assert not any("(terrain area)" in s for s in sb._tip_lines(look))


def test_a_zone_name_without_room_in_full_is_shortened(sized):
    """At 800x600 neither deployment zone was named (no room for "Raiders' deployment zone");
    the short "Raiders' zone" fits inside the zone."""
    from sim.sandbox.labels import ZONE
    sb = sized("battle_default.toml", (800, 600))
    zones = [p for p in sb.table_labels.placed if p.kind == ZONE]
    assert zones and all(p.short for p in zones)
    big = sized("battle_default.toml", (1600, 900))
    assert {p.key for p in big.table_labels.placed if p.kind == ZONE and not p.short} == {"0", "1"}
