"""Issue 15, the sandbox's moves: the live verdict while dragging (Battle.check's refusal, and a
release that commits only a legal move), an advance rolled before its drag in a battle with a
mission (the ring is M + the roll), a charge that is made and one that fails, pile-in and
consolidation confirming the solvers' placements, the measuring tape and weapon range rings.
Driven through posted pygame events (tests/sandbox/conftest.py's Driver); a few set-up steps
(starting the battle, ending phases) go through the sandbox's own door, ``submit``."""

from __future__ import annotations

import math
from pathlib import Path

import esper
import pygame
import pytest

from sandbox_support import DATA, shot
from sim.commands import EndPhase, StartBattle
from sim.components import Unit
from sim.world import queries as W
from sim.phases.state import Phase
from sim.plan import moves as MV
from sim.rules import geometry
from sim.sandbox import range_rings as RR
from sim.sandbox import style as S
from sim.sandbox.move_preview import ghost_key
from sim.commands import charge_command, consolidate_command, pile_in_command

MISSION = DATA / "extra" / "moves_mission.toml"
PILE_IN = DATA / "extra" / "pile_in.toml"


def _settle(d) -> None:
    """Answer any decision with its default through the panel, until none waits."""
    for _ in range(6):
        if d.sb.battle.pending is None:
            break
        d.click_button("default")
        d.pump(2)


def mission(make, seed: int, phase: Phase = Phase.MOVEMENT):
    d = make(MISSION, seed=seed)
    sb = d.sb
    assert sb.submit(StartBattle())
    sb.finish()
    _settle(d)
    while sb.battle.turn_state.phase != phase:
        assert sb.submit(EndPhase()), sb.status
        sb.finish()
        _settle(d)
    d.pump(2)
    return d


def where(sb, uid: str) -> dict:
    return {m.id: (m.x, m.y) for m in sb.scene.living(uid)}


def hold(d, a, b, steps: int = 8) -> None:
    """Press at ``a`` and drag to ``b`` without releasing; the pointer then rests a frame (the
    preview asks the battle about where it rests)."""
    a = (int(a[0]), int(a[1]))
    d.move(a)
    d.post(pygame.MOUSEBUTTONDOWN, pos=a, button=1)
    d.pump(1)
    for i in range(1, steps + 1):
        d.move((int(a[0] + (b[0] - a[0]) * i / steps), int(a[1] + (b[1] - a[1]) * i / steps)), buttons=(1, 0, 0))
        d.pump(1)
    d.pump(1)


def release(d, b) -> None:
    d.post(pygame.MOUSEBUTTONUP, pos=(int(b[0]), int(b[1])), button=1)
    d.pump(3)


def colour_near(surf, centre, radius: int, rgb) -> int:
    """How many pixels of exactly ``rgb`` lie in the square of ``radius`` about ``centre``."""
    n = 0
    cx, cy = int(centre[0]), int(centre[1])
    for x in range(cx - radius, cx + radius + 1):
        for y in range(cy - radius, cy + radius + 1):
            if surf.get_rect().collidepoint(x, y) and tuple(surf.get_at((x, y)))[:3] == tuple(rgb):
                n += 1
    return n


# --- the verdict while dragging --------------------------------------------------------------

def test_a_drag_into_engagement_range_shows_why_and_the_release_moves_nothing(make):
    d = mission(make, seed=5)
    sb = d.sb
    before = where(sb, "squad")
    n_events = len(sb.battle.events)
    a = d.model_pos("squad/3")
    m = sb.scene.models["squad/3"]
    b = sb.camera.to_screen(m.x, m.y + 3.5)  # 1.24" from the mob: within engagement range
    hold(d, a, b)
    v = sb.verdict
    assert v.reason is not None and "engagement range" in v.reason and "(09.05)" in v.reason, v.reason
    assert any(mid.startswith("mob/") for mid in v.named), v.named  # the enemy model it names
    assert '1.2' in v.reason  # the measured distance
    surf = sb.draw()
    g = sb.drag["ghosts"]["squad/3"]
    assert colour_near(surf, sb.camera.to_screen(*g), int(sb.camera.length(1.2)), S.ILLEGAL) > 10, \
        "the ghost is not ringed red"
    release(d, b)
    assert where(sb, "squad") == before
    assert sb.status.startswith("refused:") and "engagement range" in sb.status, sb.status
    kinds = [e["type"] for e in sb.battle.events[n_events:]]
    assert "moved" not in kinds and "refused" not in kinds  # nothing submitted: it was checked first


def test_a_legal_drag_shows_green_and_commits_on_release(make):
    d = mission(make, seed=5)
    sb = d.sb
    before = where(sb, "squad")
    a = d.model_pos("squad/3")
    b = (a[0] - int(sb.camera.length(3.0)), a[1])
    hold(d, a, b)
    assert sb.verdict.key is not None and sb.verdict.reason is None
    assert where(sb, "squad") == before  # nothing moves before the release
    surf = sb.draw()
    g = sb.drag["ghosts"]["squad/3"]
    assert colour_near(surf, sb.camera.to_screen(*g), int(sb.camera.length(1.2)), S.LEGAL) > 10
    release(d, b)
    after = where(sb, "squad")
    assert after != before, sb.status
    dx = after["squad/3"][0] - before["squad/3"][0]
    assert -3.3 < dx < -2.7
    for mid in before:  # the whole unit moved by the same offset
        assert math.isclose(after[mid][0] - before[mid][0], dx, abs_tol=1e-3)


def test_the_check_is_asked_once_a_cell_and_at_most_once_a_frame(make):
    """The preview asks Battle.check only for a new cell, at most once a frame: while the ghosts
    keep moving, every RECHECK seconds; once the pointer rests, for where it rests."""
    from sim.sandbox.move_preview import RECHECK
    d = mission(make, seed=5)
    sb = d.sb
    a = d.model_pos("squad/3")
    hold(d, a, (a[0] - 40, a[1]), steps=4)
    v = sb.verdict
    n = v.checks
    assert 1 <= n <= 5 and v.key[2] == ghost_key(sb.drag["ghosts"])  # (resting: the exact cell)
    for _ in range(5):  # the mouse still: the same cell, no new check
        d.move((a[0] - 40, a[1]), buttons=(1, 0, 0))
        d.pump(1)
    assert v.checks == n
    frames = 24  # a steady drag: a new cell every frame
    for k in range(1, frames + 1):
        d.move((a[0] - 40 - 2 * k, a[1]), buttons=(1, 0, 0))
        d.pump(1)
    moving = v.checks - n
    assert 1 <= moving <= math.ceil(frames / 60 / RECHECK) + 1 < frames, moving
    d.pump(1)  # the pointer rests: its cell is checked
    assert v.key[2] == ghost_key(sb.drag["ghosts"]) and v.checks <= n + moving + 1
    m = v.checks
    for k in range(10):  # many motions in one frame: at most one check
        d.move((a[0] - 40 - 3 * k, a[1] + 20), buttons=(1, 0, 0))
    d.pump(1)
    d.pump(1)
    assert m < v.checks <= m + 2
    release(d, (a[0] - 67, a[1] + 20))


def test_coherency_links_are_drawn_and_a_broken_one_flagged(make):
    d = mission(make, seed=5)
    sb = d.sb
    d.click_model("squad/1")
    fps, links = sb._links_for("squad", {})
    assert len(links.links) == 4 and all(ok for *_x, ok in links.links) and not links.flagged
    # one model dragged 4" away (Shift): its link is broken (03.03) and flagged
    a = d.model_pos("squad/1")
    pygame.key.set_mods(pygame.KMOD_LSHIFT)
    try:
        hold(d, a, (a[0] - int(sb.camera.length(4.0)), a[1]))
    finally:
        pygame.key.set_mods(0)
    fps, links = sb._links_for("squad", sb.drag["ghosts"])
    broken = [(x, y, dd) for x, y, dd, ok in links.links if not ok]
    assert len(broken) == 1 and broken[0][2] > 2.0 and "squad/1" in links.flagged
    assert "03.03" in (sb.verdict.reason or "")
    release(d, (a[0] - int(sb.camera.length(4.0)), a[1]))
    assert sb.scene.models["squad/1"].x == 10  # refused: nothing moved


# --- advance -----------------------------------------------------------------------------------

def ring_edge(surf, centre, R: float, rgb_test) -> float | None:
    """Where the ring's outline crosses the column below ``centre``, near ``centre[1] + R``: the
    centre (row + 0.5) of the last row in a window round it whose pixel passes ``rgb_test``."""
    x = int(round(centre[0]))
    rows = [y for y in range(int(centre[1] + R) - 6, int(centre[1] + R) + 7)
            if surf.get_rect().collidepoint(x, y) and rgb_test(tuple(surf.get_at((x, y)))[:3])]
    return max(rows) + 0.5 if rows else None


def test_an_advance_is_rolled_before_the_drag_and_the_ring_is_m_plus_the_roll(make):
    d = mission(make, seed=5)
    sb = d.sb
    d.click_model("squad/3")
    d.key(pygame.K_m)
    assert sb.move_mode == "advance"
    before = where(sb, "squad")
    a = d.model_pos("squad/3")
    d.drag(a, (a[0], a[1] - 40))  # the drag starts: the unit is selected to advance, the D6 rolled
    rolled = [e for e in sb.battle.events if e["type"] == "dice" and e["purpose"] == "advance roll squad"]
    assert len(rolled) == 1, (sb.status, sb.battle.events[-3:])
    roll = rolled[0]["results"][0]
    assert f"advance roll {roll}" in sb.status  # shown at once (a Command Re-roll is offered)
    assert where(sb, "squad") == before  # no model moved: the roll comes first
    _settle(d)  # (declined by default)
    sel = [e for e in sb.battle.events if e["type"] == "selected to move"]
    assert sel[-1]["mode"] == "advance" and sel[-1]["advance_roll"] == roll
    assert f"advance roll is {roll}" in sb.status, sb.status
    assert not [e for e in sb.battle.events if e["type"] == "moved"]
    # now the drag: the ring is M + the roll
    a = d.model_pos("squad/3")
    far = (a[0], a[1] + int(sb.camera.length(30)))
    hold(d, a, (a[0], a[1] + 30))
    m = sb.scene.models["squad/3"]
    assert sb.drag["origin"]["squad/3"][2] == m.M + roll
    assert sb.drag["ring_label"] == f'M {m.M}" + advance {roll}" = {m.M + roll}"'
    surf = sb.draw()
    centre = sb.camera.to_screen(m.x, m.y)
    R = sb.camera.length(m.M + roll + m.fp.length / 2)
    edge = ring_edge(surf, centre, R, lambda c: sum(c) > 3 * 150)  # the ring's light outline
    assert edge is not None and abs(edge - (centre[1] + R)) <= 1.5, (edge, centre[1] + R)
    release(d, (a[0], a[1] + 30))
    moved = [e for e in sb.battle.events if e["type"] == "moved"]
    assert moved and moved[-1]["mode"] == "advance"
    # a second drag, beyond the ring: it stops on the ring, and the battle refuses a second move
    hold(d, d.model_pos("squad/3"), far)
    g = sb.drag["ghosts"]["squad/3"]
    m2 = sb.scene.models["squad/3"]
    assert math.hypot(g[0] - m2.x, g[1] - m2.y) <= m.M + roll + 1e-9
    assert "already made a advance move" in sb.verdict.reason or "already made an advance" in sb.verdict.reason \
        or "advance move this turn" in sb.verdict.reason, sb.verdict.reason
    release(d, far)


# --- charges -----------------------------------------------------------------------------------

def test_a_charge_that_is_made(make):
    d = mission(make, seed=5, phase=Phase.CHARGE)
    sb = d.sb
    d.click_model("chargers/3")
    before = where(sb, "chargers")
    d.key(pygame.K_c)
    assert [e for e in sb.battle.events if e["type"] == "dice" and e["purpose"] == "charge roll chargers"]
    assert sb.placement.stage == "rolling" and sb.battle.pending is not None
    _settle(d)  # the Command Re-roll offer (declined by default: the roll reaches)
    p = sb.placement
    assert p is not None and p.stage == "placing", sb.status
    assert p.roll == 9 and p.dice == (4, 5)
    assert f'{p.roll}"' in sb.status and "(4 + 5)" in sb.status
    assert list(p.distances) == ["line"] and p.legal == ["line"] and p.targets == ["line"]
    assert "target:line" in sb.names
    proposal = charge_command(sb.battle, "chargers", ["line"], None)
    assert {mid: (x, y) for mid, x, y in proposal.to} == {m: g for m, g in p.ghosts.items() if g != before[m]}
    d.pump(2)
    assert p.verdict.key is not None and p.verdict.reason is None
    assert where(sb, "chargers") == before  # proposed, not made
    # adjust one model out of coherency: the reason shows, Enter is refused
    g = sb.camera.to_screen(*p.ghosts["chargers/1"])
    d.drag(g, (g[0] - int(sb.camera.length(2.5)), g[1]))
    assert "chargers/1" in p.adjusted
    assert p.verdict.reason is not None and "03.03" in p.verdict.reason, p.verdict.reason
    d.key(pygame.K_RETURN)
    assert sb.status.startswith("refused:") and where(sb, "chargers") == before
    d.click_button("reset placement")
    d.pump(2)
    assert p.verdict.reason is None
    d.key(pygame.K_RETURN)
    assert sb.placement is None, sb.status
    made = [e for e in sb.battle.events if e["type"] == "charge" and e["result"] == "made"]
    assert made and made[-1]["targets"] == ["line"]
    assert {mid: (x, y) for mid, x, y in proposal.to} == {m: xy for m, xy in where(sb, "chargers").items()
                                                          if xy != before[m]}


def test_a_charge_that_fails_shows_the_roll_and_moves_nothing(make):
    d = mission(make, seed=4, phase=Phase.CHARGE)
    sb = d.sb
    d.click_model("chargers/3")
    before = where(sb, "chargers")
    d.key(pygame.K_c)
    _settle(d)  # the Command Re-roll of a failed roll (used by default): 4, still short
    p = sb.placement
    assert p is not None and p.stage == "failed"
    assert p.roll == 4 and "charge roll 4\"" in sb.status and "fails" in sb.status, sb.status
    assert "line, 4.04\"" in sb.status
    assert where(sb, "chargers") == before
    ev = [e for e in sb.battle.events if e["type"] == "charge"]
    assert ev[-1]["result"] == "not made"
    assert sb.battle.turn_state.in_progress is None  # the charge is over: other units may act
    d.key(pygame.K_ESCAPE)
    assert sb.placement is None


# --- pile in and consolidation ----------------------------------------------------------------

@pytest.mark.parametrize("key,kind,event", [(pygame.K_i, "pile in", "piled in"),
                                            (pygame.K_o, "consolidate", "consolidated")])
def test_pile_in_and_consolidation_confirm_the_solver_placement(make, key, kind, event):
    d = make(PILE_IN)
    sb = d.sb
    d.click_model("brawlers/2")
    before = where(sb, "brawlers")
    b = sb.battle
    cmd = pile_in_command(b, "brawlers", None) if kind == "pile in" else \
        consolidate_command(b, "brawlers", None)
    assert cmd is not None and cmd.to
    d.key(key)
    p = sb.placement
    assert p is not None and p.record.kind == kind and p.proposed, sb.status
    assert {mid: (x, y) for mid, x, y in cmd.to} == {m: g for m, g in p.ghosts.items() if g != before[m]}
    d.pump(2)
    assert p.verdict.reason is None
    assert where(sb, "brawlers") == before
    d.click_button("confirm placement")
    assert sb.placement is None, sb.status
    assert [e for e in b.events if e["type"] == event]
    after = where(sb, "brawlers")
    assert {mid: (x, y) for mid, x, y in cmd.to} == {m: xy for m, xy in after.items() if xy != before[m]}


# --- the tape and range rings ------------------------------------------------------------------

def test_the_tape_reads_the_projects_distance(make):
    d = make(MISSION)
    sb = d.sb
    n_events = len(sb.battle.events)
    a, b = d.model_pos("squad/1"), d.model_pos("mob/3")
    d.post(pygame.KEYDOWN, key=pygame.K_t, unicode="t", mod=0, scancode=0)
    d.pump(1)
    d.drag(a, b)
    d.post(pygame.KEYUP, key=pygame.K_t, unicode="t", mod=0, scancode=0)
    d.pump(2)
    t = sb.tape
    assert (t.a_model, t.b_model) == ("squad/1", "mob/3")
    want = geometry.distance(sb.scene.models["squad/1"].fp, sb.scene.models["mob/3"].fp)
    assert t.shown == f'{want:.2f}"' and f'{want:.2f}"' in sb.status
    assert sb.selected_unit is None and len(sb.battle.events) == n_events  # measured, nothing else
    # point to point: from an empty spot to another
    p, q = sb.camera.to_screen(30, 30), sb.camera.to_screen(36, 38)
    d.post(pygame.KEYDOWN, key=pygame.K_t, unicode="t", mod=0, scancode=0)
    d.drag(p, q)
    d.post(pygame.KEYUP, key=pygame.K_t, unicode="t", mod=0, scancode=0)
    d.pump(2)
    pa, pb = sb.camera.to_table(int(p[0]), int(p[1])), sb.camera.to_table(int(q[0]), int(q[1]))
    assert t.shown == f'{math.hypot(pb[0] - pa[0], pb[1] - pa[1]):.2f}"'
    assert "point to point" in sb.status
    d.key(pygame.K_ESCAPE)
    assert t.a is None


def test_a_hovered_weapon_draws_its_range_ring(make):
    d = make(MISSION)
    sb = d.sb
    d.click_model("squad/3")
    d.pump(2)
    btn = d.button("weapon:rapid gun")
    d.move(btn.rect.center)
    d.pump(2)
    rr = sb._range_rings
    assert len(rr.full) == 5 and len(rr.half) == 5  # [RAPID FIRE]: half range too
    cam = sb.camera
    for ring in rr.full:
        m = sb.scene.models[ring.model]
        assert ring.centre == cam.to_screen(m.x, m.y)
        assert math.isclose(ring.radius, cam.length(24 + m.fp.length / 2), rel_tol=1e-9)
    for ring in rr.half:
        m = sb.scene.models[ring.model]
        assert math.isclose(ring.radius, cam.length(12 + m.fp.length / 2), rel_tol=1e-9)
    assert "24\"" in rr.label and "RAPID FIRE" in rr.label
    surf = sb.draw()
    m = sb.scene.models["squad/3"]
    centre = cam.to_screen(m.x, m.y)
    R = cam.length(24 + m.fp.length / 2)
    edge = ring_edge(surf, centre, R, lambda c: c[2] > 160 and c[2] > c[0] + 30)  # the blue outline
    assert edge is not None and abs(edge - (centre[1] + R)) <= 1.5, (edge, centre[1] + R)
    # the mouse leaves the weapon: no ring
    d.move(sb.camera.viewport.center)
    d.pump(2)
    assert RR.hovered_weapon(sb) is None and rr.key is None


# --- screenshots ---------------------------------------------------------------------------------

SHOTS = Path(__file__).resolve().parent / "screenshots"


@pytest.mark.parametrize("size", [(1440, 900), (1024, 700)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_screenshots_of_the_table_tools(make, tmp_path, size):
    """Writes tests/sandbox/screenshots/moves-*.png (git-ignored) for a person to look at: a
    refused drag with its reason, an advance's ring, a charge's proposed placement (and one
    adjusted out of coherency), a failed charge, the tape and a range ring."""
    from sim.sandbox.app import Sandbox
    Driver = type(make(MISSION))  # (conftest's Driver: "conftest" names several modules in the suite)
    SHOTS.mkdir(exist_ok=True)
    tag = f"{size[0]}x{size[1]}"
    made = []

    def open_(seed, phase=Phase.MOVEMENT):
        sb = Sandbox(str(MISSION), pygame.Surface(size), seed=seed, save_dir=tmp_path)
        made.append(sb)
        d = Driver(sb)
        sb.submit(StartBattle())
        sb.finish()
        while sb.battle.turn_state.phase != phase:
            sb.submit(EndPhase())
            sb.finish()
        d.pump(2)
        return d

    def picture(d, name):
        d.sb.update(1 / 60)
        shot(d.sb.draw(), SHOTS / f"moves-{name}-{tag}.png")

    try:
        d = open_(5)
        sb = d.sb
        sb.camera.zoom_at(sb.camera.to_screen(13, 11), 2.0)
        a = d.model_pos("squad/3")
        m = sb.scene.models["squad/3"]
        hold(d, a, sb.camera.to_screen(m.x + 0.5, m.y + 3.5))
        picture(d, "refused")
        release(d, sb.camera.to_screen(m.x + 0.5, m.y + 3.5))
        d.key(pygame.K_m)
        a = d.model_pos("squad/3")
        d.drag(a, (a[0], a[1] - 40))
        _settle(d)
        a = d.model_pos("squad/3")
        hold(d, a, (a[0] + 50, a[1] - 20))
        picture(d, "advance")
        release(d, (a[0] + 50, a[1] - 20))
        # the tape, and a range ring
        d.sb.select(None)
        d.post(pygame.KEYDOWN, key=pygame.K_t, unicode="t", mod=0, scancode=0)
        d.drag(d.model_pos("squad/5"), d.model_pos("mob/5"))
        picture(d, "tape")
        d.post(pygame.KEYUP, key=pygame.K_t, unicode="t", mod=0, scancode=0)
        d.key(pygame.K_ESCAPE)
        d.key(pygame.K_HOME)
        d.click_model("squad/3")
        d.move(d.button("weapon:rapid gun").rect.center)
        d.pump(2)
        picture(d, "range")

        d = open_(5, Phase.CHARGE)
        sb = d.sb
        sb.camera.zoom_at(sb.camera.to_screen(43, 21), 2.2)
        d.click_model("chargers/3")
        d.key(pygame.K_c)
        _settle(d)
        d.pump(2)
        picture(d, "charge")
        p = sb.placement
        g = sb.camera.to_screen(*p.ghosts["chargers/1"])
        d.drag(g, (g[0] - int(sb.camera.length(2.5)), g[1]))
        d.pump(2)
        picture(d, "charge-adjusted")

        d = open_(4, Phase.CHARGE)
        d.click_model("chargers/3")
        d.key(pygame.K_c)
        _settle(d)
        picture(d, "charge-failed")
    finally:
        for sb in made:
            sb.battle.close()


CONSOLIDATE_CHOICE = DATA / "extra" / "consolidate_choice.toml"


def test_12_08_the_player_picks_the_consolidations_targets(make):
    """An engaging consolidation's targets are the player's (12.08): the panel lists the enemy
    units within 3" nearest first, the solver's pick (the closest, ruling 18) toggled on; the
    player picks the other instead, the solver places toward it, and the command says so."""
    d = make(CONSOLIDATE_CHOICE)
    sb = d.sb
    b = sb.battle
    b._enter()
    W.unit_state(b.units["brawlers"]).selected_to_fight = True  # (it was eligible to fight: 12.08)
    d.click_model("brawlers/1")
    d.key(pygame.K_o)
    p = sb.placement
    assert p is not None and (str(p.mode), p.legal, p.targets) == ("engaging", ["mob", "pack"], ["mob"]), sb.status
    d.click_button("target:pack")
    d.click_button("target:mob")
    assert p.targets == ["pack"] and p.proposed, sb.status
    d.pump(2)
    assert p.verdict.reason is None, p.verdict.reason
    d.click_button("confirm placement")
    assert sb.placement is None, sb.status
    (cmd,) = [e["command"] for e in b.events if e["type"] == "command"]
    assert (cmd["kind"], cmd["targets"]) == ("consolidate", ["pack"])
    b._enter()
    assert [esper.component_for_entity(u, Unit).id for u in W.engaged_with(b.units["brawlers"])] == ["pack"]


def test_a_charging_tank_turns_its_nose_to_the_target_with_r(make, tmp_path):
    """03.01 R over a charge's ghost turns that model (15 degrees a press): the placement's
    command carries the facing, the verdict is the turned move's, and Enter makes the charge
    with it. The solver's tank lies along the line; dragged back 2" and turned end on, its nose
    reaches within 1" of the line again."""
    text = MISSION.read_text()
    old = ('{ name = "Assaulter", count = 5, base_mm = 32, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, '
           'weapons = ["blade"], at = [[40, 18], [41.5, 18], [43, 18], [44.5, 18], [46, 18]] }')
    assert old in text
    text = text.replace(old, '{ name = "Tank", count = 1, base = [150, 60], shape = "oval", M = 10, T = 9, Sv = 3, '
                             'W = 10, Ld = 6, OC = 1, weapons = ["blade"], at = [[43, 18]] }')
    path = tmp_path / "tank_charge.toml"
    path.write_text(text)
    d = make(path, seed=5)
    sb = d.sb
    assert sb.submit(StartBattle())
    sb.finish()
    _settle(d)
    while sb.battle.turn_state.phase != Phase.CHARGE:
        assert sb.submit(EndPhase()), sb.status
        sb.finish()
        _settle(d)
    d.pump(2)
    d.click_model("chargers/1")
    d.key(pygame.K_c)
    _settle(d)
    p = sb.placement
    assert p is not None and p.stage == "placing", sb.status
    gx, gy = p.ghosts["chargers/1"]
    line_y = sb.scene.models["line/1"].y
    back = -2.0 if line_y > gy else 2.0
    g = sb.camera.to_screen(gx, gy)
    d.drag(g, sb.camera.to_screen(gx, gy + back))
    d.move(sb.camera.to_screen(*p.ghosts["chargers/1"]))
    d.pump(3)
    assert p.verdict.reason is not None and "could end within 1" in p.verdict.reason  # (lying along: too far)
    for _ in range(6):
        d.key(pygame.K_r, "r")
    assert p.faces == {"chargers/1": 90.0} and sb.look().ghost_faces == {"chargers/1": 90.0}
    assert sb.placement_command().face == (("chargers/1", 90.0),)
    d.pump(3)
    assert p.verdict.reason is None, p.verdict.reason
    d.key(pygame.K_RETURN)
    made = [e for e in sb.battle.events if e["type"] == "charge" and e["result"] == "made"]
    assert made and made[-1]["face"] == [["chargers/1", 90.0]], sb.status
    assert sb.scene.models["chargers/1"].fp.angle == 90.0
