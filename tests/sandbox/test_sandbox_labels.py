"""Names on the table at every window size (issue 28 item 9, sim.sandbox.labels and
screen_layout): on shipped scenarios at 800x600, 1024x700, 1600x1000 and 2560x1440 no label
overlaps another label or a model, every unit in sight is named, the names of units out of sight
are not drawn when zoomed; the attacked models' mark is a colour no army uses; the table grows
into a wide window and a short one; the VP stay on the strip at 800x600."""

from __future__ import annotations

import pygame
import pytest

from sandbox_support import ROOT
from sim.sandbox import style as S
from sim.sandbox.labels import OBJECTIVE, UNIT, Request, place, table_area

SIZES = [(800, 600), (1024, 700), (1600, 1000), (2560, 1440)]
SCENARIOS = ["battle_default.toml", "default.toml", "objective_contested.toml"]


def _bases(sb) -> dict:
    out = {}
    cam = sb.camera
    for m in sb.scene.models.values():
        if m.alive:
            x, y = cam.to_screen(m.x, m.y)
            r = m.fp.length * 0.5 * cam.scale
            if m.fp.shape == "round":  # (inset a pixel: rounding)
                out[m.id] = pygame.Rect(round(x - r) + 1, round(y - r) + 1, round(2 * r) - 2, round(2 * r) - 2)
    return out


def _overlaps(sb) -> list[str]:
    placed = sb.table_labels.placed
    bases = _bases(sb)
    bad = []
    for i, a in enumerate(placed):
        if not sb.camera.viewport.contains(a.rect):
            bad.append(f"{a.kind} {a.key} at {a.rect} leaves the table {sb.camera.viewport}")
        for b in placed[i + 1:]:
            if a.rect.colliderect(b.rect):
                bad.append(f"{a.kind} {a.key} {a.rect} overlaps {b.kind} {b.key} {b.rect}")
        for mid, r in bases.items():
            if a.rect.colliderect(r):
                bad.append(f"{a.kind} {a.key} {a.rect} covers model {mid}")
    return bad


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_no_label_overlaps_a_label_or_a_model(sized, scenario, size):
    sb = sized(scenario, size)
    assert _overlaps(sb) == []
    units = {p.key for p in sb.table_labels.placed if p.kind == UNIT}
    alive = {u for u, v in sb.scene.units.items() if not v.destroyed and sb.scene.living(u)}
    assert units == alive, f"unnamed: {sorted(alive - units)}"
    if sb.battle.turn_state is not None and sb.battle.turn_state.objectives:
        assert {p.key for p in sb.table_labels.placed if p.kind == OBJECTIVE} == \
            {o.name for o in sb.battle.turn_state.objectives}


@pytest.mark.parametrize("scenario", sorted(p.name for p in (ROOT / "scenarios").glob("*.toml")))
def test_every_shipped_scenario_at_800x600(sized, scenario):
    sb = sized(scenario, (800, 600))
    assert _overlaps(sb) == []
    units = {p.key for p in sb.table_labels.placed if p.kind == UNIT}
    assert units == {u for u, v in sb.scene.units.items() if not v.destroyed and sb.scene.living(u)}


def test_labels_of_units_out_of_sight_are_not_drawn_when_zoomed(sized):
    sb = sized("battle_default.toml", (1024, 700))
    vp = sb.camera.viewport
    sb.camera.zoom_at((vp.x + 5, vp.y + 5), 4.0)
    sb.update(1 / 60)
    sb.draw()
    shown = {p.key for p in sb.table_labels.placed if p.kind == UNIT}
    for uid in sb.scene.units:
        xs = [sb.camera.to_screen(m.x, m.y) for m in sb.scene.living(uid)]
        if xs and all(not vp.inflate(40, 40).collidepoint(p) for p in xs):
            assert uid not in shown, f"{uid} is out of sight but named"
    assert shown and _overlaps(sb) == []


def test_a_label_with_no_free_spot_nearby_gets_a_leader_line():
    vp = pygame.Rect(0, 0, 400, 300)
    surf = pygame.Surface((60, 12))
    box = pygame.Rect(180, 140, 20, 20)
    around = [pygame.Rect(100, 100, 200, 100)]  # (everything next to the box is taken)
    (p,) = place([Request(UNIT, "u", surf, box)], around, vp)
    assert not p.rect.colliderect(around[0]) and p.leader is not None
    optional = place([Request("terrain", "t", surf, box, must=False)], [vp], vp)
    assert optional == []  # (an optional name with no room is left out)


def test_the_attacked_models_mark_is_no_army_colour():
    for colours in [((178, 58, 52), (52, 96, 158)), ((214, 60, 220), (40, 210, 240)), ((250, 70, 230), (150, 250, 50))]:
        mark = S.attack_mark(colours)
        assert all(sum((a - b) ** 2 for a, b in zip(mark, c)) > 150 ** 2 for c in colours), (mark, colours)
    assert S.attack_mark(((178, 58, 52), (52, 96, 158))) != S.ILLEGAL


def test_the_table_grows_into_a_wide_window_and_a_short_one(sized):
    wide = sized("battle_default.toml", (2560, 1440))
    bw = wide.camera.length(wide.spec.board[0])
    assert bw > 0.55 * 2560, bw
    assert wide.rects["log"].x >= wide.rects["table"].right  # (the log and dice beside the table)
    small = sized("battle_default.toml", (800, 600))
    assert small.camera.length(32 / 25.4) >= 9.0  # (a 32 mm base, px)
    mid = sized("battle_default.toml", (1024, 700))
    assert mid.camera.length(25 / 25.4) >= 9.0
    for sb in (wide, small, mid):
        r = sb.rects
        assert not r["table"].colliderect(r["log"]) and not r["table"].colliderect(r["dice"])
        assert not r["action"].colliderect(r["table"])


def test_victory_points_stay_on_the_strip_at_800x600(sized):
    sb = sized("battle_default.toml", (800, 600))
    assert any(g.startswith("VP") for g in sb.tracker_shown), sb.tracker_shown
    assert any(g.startswith("CP") for g in sb.tracker_shown)


def test_a_tip_does_not_cover_what_it_describes():
    from sim.sandbox.overlays import tip_rect
    window = pygame.Rect(0, 0, 800, 600)
    unit = pygame.Rect(300, 280, 260, 40)  # (a wide unit, the cursor on its middle)
    r = tip_rect((420, 300), (220, 60), window, unit)
    assert not r.colliderect(unit) and window.contains(r)
    corner = pygame.Rect(700, 520, 90, 70)  # (at the window's corner: a place still found)
    r = tip_rect((760, 560), (220, 60), window, corner)
    assert not r.colliderect(corner) and window.contains(r)


def test_the_hover_tip_of_a_model_leaves_its_unit_visible(sized):
    sb = sized("battle_default.toml", (1024, 700))
    from sim.sandbox.labels import hovered_box
    m = next(iter(sb.scene.living(sb.spec.units[0].id)))
    sb.mouse = tuple(round(v) for v in sb.camera.to_screen(m.x, m.y))
    sb.hover_model, sb.hover_unit = m.id, m.unit
    box = hovered_box(sb)
    assert box is not None and box.collidepoint(sb.mouse)
    from sim.sandbox.overlays import tip_rect
    r = tip_rect(sb.mouse, (200, 40), pygame.Rect((0, 0), sb.size), box, sb.scale)
    assert not r.colliderect(box)


def test_a_name_with_no_spot_clear_of_the_other_names_is_left_out_unless_pinned():
    """Where every spot round a unit is taken, its name goes where it covers no other name (a base
    rather than text); where every spot covers a name placed before, a unit's name is left out
    (text over text reads as neither), but a pinned one (the selected unit's) is written, and
    placed before the others."""
    vp = pygame.Rect(0, 0, 400, 300)
    surf = pygame.Surface((60, 12))
    box = pygame.Rect(180, 140, 20, 20)
    names = [Request(UNIT, f"n{i}", surf, pygame.Rect(100 + 20 * i, 40, 10, 10), pinned=False) for i in range(4)]
    bases = [pygame.Rect(0, 0, 400, 300)]   # (every spot covers a base: the name takes one still)
    (p,) = place([Request(UNIT, "u", surf, box, pinned=False)], bases, vp)
    assert p.key == "u"
    # bases everywhere but the spot above the box, which a corner of a name placed before covers:
    # the name goes on the bases, not on the other name (it went there when a name cost 4 px of
    # base a px)
    above = pygame.Rect(156, 125, 68, 12)
    bases = [pygame.Rect(0, 0, 400, 125), pygame.Rect(0, 137, 400, 163), pygame.Rect(0, 125, 156, 12),
             pygame.Rect(224, 125, 176, 12)]
    corner = pygame.Rect(156, 125, 2, 2)
    (p,) = place([Request(UNIT, "u", surf, box)], bases, vp, taken=(corner,))
    assert not p.rect.colliderect(corner) and p.rect != above
    # every spot beside the box covered by names placed before: left out, or written if pinned
    taken = tuple(pygame.Rect(x, y, 70, 14) for x in range(0, 400, 70) for y in range(0, 300, 14))
    assert place([Request(UNIT, "u", surf, box, pinned=False)], [], vp, taken=taken) == []
    (p,) = place([Request(UNIT, "u", surf, box, pinned=True)], [], vp, taken=taken)
    assert p.key == "u" and p.rect.colliderect(box.inflate(200, 200))
    # bases everywhere; a large model's wounds written under the first spot: the name goes on
    # the bases beside it, not on the count
    count = pygame.Rect(170, 126, 40, 10)
    (p,) = place([Request(UNIT, "u", surf, box)], [pygame.Rect(0, 0, 400, 300)], vp, marks=(count,))
    assert not p.rect.colliderect(count)
    (p,) = place([Request(UNIT, "u", surf, box)], [pygame.Rect(0, 0, 400, 300)], vp)
    assert p.rect.colliderect(count)   # (without the mark the first spot takes it)
    # selecting a unit moves no other name where its own has room: the plain order stands
    sel = Request(UNIT, "sel", surf, pygame.Rect(130, 40, 10, 10), pinned=True)
    plain = place(names + [Request(UNIT, "sel", surf, sel.box, pinned=False)], [], vp)
    assert [(p.key, p.rect) for p in place(names + [sel], [], vp)] == [(p.key, p.rect) for p in plain]
    # where the pinned name could only go over another, the pinned ones are placed first
    one_row = pygame.Rect(0, 0, 80, 14)
    a = Request(UNIT, "a", surf, pygame.Rect(30, 1, 4, 4), pinned=False)
    assert [p.key for p in place([a, Request(UNIT, "b", surf, pygame.Rect(34, 1, 4, 4), pinned=False)], [],
                                 one_row)] == ["a"]
    assert [p.key for p in place([a, Request(UNIT, "b", surf, pygame.Rect(34, 1, 4, 4), pinned=True)], [],
                                 one_row)] == ["b"]


def test_a_crowded_table_writes_no_name_over_another_and_says_how_many_it_left_out(tmp_path):
    """Two 40-unit armies deployed by the rules in an 800x600 window: no name covers another, the
    selected unit is named, and the hint under the table counts the units whose names were left
    out (each named in the hover tip of its models)."""
    import sys
    from sim.commands import StartBattle
    from sim.players.loop import make_player
    from sim.players.resolve import submit_and_resolve
    from sim.sandbox.app import Sandbox
    from sim.sandbox.labels import HINT
    sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests" / "importers")]
    import full_size
    import make_armies
    path = tmp_path / "crowded.toml"
    path.write_text(make_armies.scenario(full_size.write(tmp_path / "catalogues"), "Ember Pact", "Glass Choir",
                                         seed=3, points=4000, units=40))
    pygame.init()
    sb = Sandbox(str(path), pygame.display.set_mode((800, 600)), size=(800, 600), save_dir=tmp_path)
    try:
        b = sb.battle
        players = [make_player("default", side, b, b.scenario) for side in (0, 1)]

        def answer(r):
            return players[r.player].answer(b, r)

        submit_and_resolve(b, b.scenario, "start", StartBattle(), answer, None)
        while b.turn_state.round == 0:
            c = players[b.turn_state.chooser].choose(b)
            submit_and_resolve(b, b.scenario, c.where, c.command, c.answer or answer, None, c.step, c.left_out)
        def drawn():
            for _ in range(2):
                sb.update(1 / 60)
                sb.draw()
            placed = sb.table_labels.placed
            for i, a in enumerate(placed):
                for other in placed[i + 1:]:
                    assert not a.rect.colliderect(other.rect), f"{a.kind} {a.key} over {other.kind} {other.key}"
            named = {p.key for p in placed if p.kind == UNIT}
            shown = {u for u, v in sb.scene.units.items() if not v.destroyed and sb.scene.living(u)}
            assert len(shown) >= 60
            assert len(shown - named) == sb.table_labels.hidden > 0
            (hint,) = [p for p in placed if p.kind == HINT]
            assert sb.camera.viewport.contains(hint.rect) and hint.rect.bottom >= table_area(sb.camera).bottom
            return named, shown

        named, shown = drawn()
        unnamed = sorted(shown - named)[0]
        sb.select(unnamed)
        named, shown = drawn()
        assert unnamed in named   # (the selected unit's name is pinned)
        # the large models' wounds counts are marks the names cover last
        from sim.sandbox.labels import wound_marks
        marks = wound_marks(sb.camera, sb.scene)
        big = [m for m in sb.scene.models.values() if m.alive and m.W > 10]
        assert big and len(marks) == len(big)
        for m, box in zip(big, marks):
            x, y = sb.camera.to_screen(m.x, m.y)
            assert box.left < x < box.right and y <= box.top < y + m.fp.length * sb.camera.scale
        # a large model drawn elsewhere (a staged move's ghost): its count's box goes with it
        m = big[0]
        moved = wound_marks(sb.camera, sb.scene, {m.id: m.fp.moved(m.x + 3.0, m.y - 2.0)})
        assert moved[1:] == marks[1:]
        assert abs(moved[0].x - marks[0].x - 3.0 * sb.camera.scale) <= 1
        assert abs(moved[0].y - marks[0].y + 2.0 * sb.camera.scale) <= 1
    finally:
        sb.battle.close()
