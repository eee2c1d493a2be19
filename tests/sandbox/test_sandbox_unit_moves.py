"""Issue 28 item 4, moving models, not blocks: models moved one at a time within one unit move
and confirmed as one Move (each ghost with its own verdict meanwhile), the nearest legal spot
offered when a drag is refused by a small margin, the live distance while dragging, the move
type chosen per unit and reset after its move, a dragged formation turned. Driven through
posted pygame events (tests/sandbox/conftest.py's Driver)."""

from __future__ import annotations

import math

import pygame

from sim.sandbox import style as S
from test_sandbox_moves import _settle, colour_near, hold, mission, release, where


def shift_drag(d, a, b, steps: int = 6) -> None:
    """Shift-drag from screen ``a`` to ``b`` (one model alone)."""
    a = (int(a[0]), int(a[1]))
    d.move(a)
    d.post(pygame.MOUSEBUTTONDOWN, pos=a, button=1, shift=True)
    d.pump(1)
    for i in range(1, steps + 1):
        d.move((int(a[0] + (b[0] - a[0]) * i / steps), int(a[1] + (b[1] - a[1]) * i / steps)), buttons=(1, 0, 0))
        d.pump(1)
    d.pump(1)
    release(d, b)


def inches(sb, n: float) -> int:
    return int(round(sb.camera.length(n)))


def moved_events(sb, since: int) -> list:
    return [e for e in sb.battle.events[since:] if e["type"] == "moved"]


def test_models_moved_one_at_a_time_make_one_move_on_enter(make):
    d = mission(make, seed=5)
    sb = d.sb
    before = where(sb, "squad")
    n = len(sb.battle.events)
    a1 = d.model_pos("squad/1")
    shift_drag(d, a1, (a1[0] - inches(sb, 1.5), a1[1]))
    a5 = d.model_pos("squad/5")
    shift_drag(d, a5, (a5[0] + inches(sb, 1.5), a5[1] - inches(sb, 1)))
    assert where(sb, "squad") == before, "a placed model moved before the unit's move was confirmed"
    assert sb.staged is not None and set(sb.staged["ghosts"]) == {"squad/1", "squad/5"}
    assert sb.staged["reason"] is None, sb.staged["reason"]
    assert "bar:confirm_move" in sb.names
    d.key(pygame.K_RETURN)
    after = where(sb, "squad")
    assert after["squad/1"][0] < before["squad/1"][0] - 1.3
    assert after["squad/5"][0] > before["squad/5"][0] + 1.3
    assert after["squad/3"] == before["squad/3"]
    moves = moved_events(sb, n)
    assert len(moves) == 1, moves  # ONE unit move, both models in it
    assert sb.staged is None


def test_a_placed_model_can_be_picked_up_again_from_its_ghost(make):
    d = mission(make, seed=5)
    sb = d.sb
    a = d.model_pos("squad/1")
    b = (a[0] - inches(sb, 1.5), a[1])
    shift_drag(d, a, b)
    g0 = sb.staged["ghosts"]["squad/1"]
    c = (b[0], b[1] - inches(sb, 1))
    assert sb.camera.to_table(*b)[0] < sb.scene.models["squad/1"].x - 1.3  # (the table did not move)
    hold(d, b, c)  # a plain drag on the ghost: that model, from where it was placed
    assert sb.drag is not None and sb.drag["models"] == ["squad/1"]
    release(d, c)
    g1 = sb.staged["ghosts"]["squad/1"]
    assert math.isclose(g1[0], g0[0], abs_tol=0.1) and g1[1] < g0[1] - 0.8


def test_each_placed_model_shows_its_own_verdict_and_a_refused_unit_move_stays_placed(make):
    d = mission(make, seed=5)
    sb = d.sb
    before = where(sb, "squad")
    a = d.model_pos("squad/3")
    shift_drag(d, a, (a[0], a[1] + inches(sb, 3.5)))  # within engagement range of the mob
    a1 = d.model_pos("squad/1")
    shift_drag(d, a1, (a1[0] - inches(sb, 1), a1[1]))
    s = sb.staged
    assert "squad/3" in s["verdicts"] and "engagement range" in s["verdicts"]["squad/3"]
    assert "squad/1" not in s["verdicts"]
    surf = sb.draw()
    assert colour_near(surf, sb.camera.to_screen(*s["ghosts"]["squad/3"]), inches(sb, 1.2), S.ILLEGAL) > 10
    d.key(pygame.K_RETURN)
    assert where(sb, "squad") == before
    assert sb.status.startswith("refused:") and sb.staged is not None  # still placed, to mend
    d.key(pygame.K_ESCAPE)
    assert sb.staged is None and where(sb, "squad") == before


def test_a_drag_refused_by_a_small_margin_is_offered_the_nearest_legal_spot(make):
    d = mission(make, seed=5)
    sb = d.sb
    before = where(sb, "squad")
    a = d.model_pos("squad/3")
    b = (a[0], a[1] + inches(sb, 2.9))  # 1.84" from the mob: 0.16" inside engagement range
    hold(d, a, b)
    release(d, b)
    assert where(sb, "squad") == before
    s = sb.staged
    assert s is not None and s["reason"] is None and s.get("snapped", 9) < 0.5, (sb.status, s)
    assert "nearest legal" in sb.status
    d.key(pygame.K_RETURN)
    after = where(sb, "squad")
    dy = after["squad/3"][1] - before["squad/3"][1]
    assert 2.3 < dy < 2.9, dy
    for mid in before:  # the formation kept
        assert math.isclose(after[mid][1] - before[mid][1], dy, abs_tol=1e-3)


def test_the_live_distance_and_what_is_left_while_dragging(make):
    d = mission(make, seed=5)
    sb = d.sb
    a = d.model_pos("squad/3")
    hold(d, a, (a[0] - inches(sb, 2), a[1]))
    assert '2.0" of 6"' in sb.status and '(4.0" left)' in sb.status, sb.status
    release(d, (a[0] - inches(sb, 2), a[1]))


def test_the_move_type_is_each_units_own_and_resets_after_its_move(make):
    d = mission(make, seed=5)
    sb = d.sb
    d.click_model("squad/1")
    d.key(pygame.K_m, "m")
    assert sb.move_mode == "advance"
    d.click_model("chargers/1")
    assert sb.move_mode == "normal", "the type chosen for one unit followed the selection"
    a = d.model_pos("chargers/3")
    b = (a[0] - inches(sb, 3), a[1])
    hold(d, a, b)
    release(d, b)
    assert not [e for e in sb.battle.events if e["type"] == "selected to move" and e.get("unit") == "chargers"]
    d.click_model("squad/1")
    assert sb.move_mode == "advance"
    d.key(pygame.K_m, "m")  # fall back
    d.key(pygame.K_m, "m")  # normal
    d.key(pygame.K_m, "m")  # advance
    a = d.model_pos("squad/3")
    hold(d, a, (a[0] - inches(sb, 2), a[1]))  # (the advance is selected and rolled first)
    release(d, (a[0] - inches(sb, 2), a[1]))
    _settle(d)  # (a Command Re-roll may be offered for the roll)
    if not any(e["type"] == "moved" and e.get("unit") == "squad" for e in sb.battle.events):
        hold(d, a, (a[0] - inches(sb, 2), a[1]))
        release(d, (a[0] - inches(sb, 2), a[1]))
    assert any(e["type"] == "moved" and e.get("unit") == "squad" for e in sb.battle.events), sb.status
    assert sb.move_mode == "normal", "the type stayed after the unit's move"


def test_a_dragged_formation_turns_with_r(make):
    d = mission(make, seed=5)
    sb = d.sb
    a = d.model_pos("squad/1")
    b = (a[0] + inches(sb, 0.5), a[1] - inches(sb, 2))
    hold(d, a, b)
    before = dict(sb.drag["ghosts"])
    d.key(pygame.K_r, "r")
    d.key(pygame.K_r, "r")
    d.pump(1)
    after = sb.drag["ghosts"]
    g = after["squad/1"]
    assert math.isclose(g[0], before["squad/1"][0], abs_tol=1e-6)  # about the grabbed model
    ang = math.degrees(math.atan2(after["squad/5"][1] - g[1], after["squad/5"][0] - g[0]))
    assert math.isclose(ang, 30.0, abs_tol=0.5), ang
    release(d, b)


def test_a_failed_charge_is_shown_on_the_table_with_its_roll_and_the_distance_needed(make):
    from sim.phases.state import Phase
    from test_sandbox_moves import colour_near
    d = mission(make, seed=4, phase=Phase.CHARGE)
    sb = d.sb
    d.click_model("chargers/3")
    d.key(pygame.K_c)
    _settle(d)
    p = sb.placement
    assert p is not None and p.stage == "failed"
    assert p.near is not None and p.near[0] == "line" and math.isclose(p.near[1], 4.04, abs_tol=0.01)
    surf = sb.draw()
    for m in sb.scene.living("chargers"):  # the unit ringed red
        assert colour_near(surf, sb.camera.to_screen(m.x, m.y), int(sb.camera.length(1.0)), S.ILLEGAL) > 5
    plain = sb.draw().copy()
    d.key(pygame.K_ESCAPE)  # (closed: no longer drawn)
    after = sb.draw()
    m = sb.scene.living("chargers")[2]
    c = sb.camera.to_screen(m.x, m.y)
    assert colour_near(plain, c, int(sb.camera.length(1.0)), S.ILLEGAL) > colour_near(after, c, int(sb.camera.length(1.0)), S.ILLEGAL)


def _far_apart(tmp_path):
    """The moves mission with the Raiders 30" away: no charge can be declared, no one fights."""
    from test_sandbox_moves import MISSION
    text = MISSION.read_text().replace(", 14]", ", 40]").replace(", 23.3]", ", 41.5]")
    path = tmp_path / "far_apart.toml"
    path.write_text(text)
    return path


def _at_phase(make, path, skip: bool, phase: str):
    """The sandbox on ``path`` (seed 5) with skipping empty phases ``skip``, started and taken
    through End phase until ``phase``."""
    from sim.commands import EndPhase, StartBattle
    d = make(path, seed=5)
    sb = d.sb
    sb.skip_empty_phases = skip
    assert sb.submit(StartBattle())
    sb.finish()
    _settle(d)
    while str(sb.battle.turn_state.phase) != phase:
        assert sb.submit(EndPhase()), sb.status
        sb.finish()
        _settle(d)
    d.pump(2)
    return d


def test_empty_charge_and_fight_phases_are_skipped_when_the_setting_is_on(make, tmp_path):
    d = _at_phase(make, _far_apart(tmp_path), True, "shooting")
    sb = d.sb
    turn = sb.battle.turn_state.chooser
    d.key(pygame.K_e, "e")  # End phase: Shooting ends, then the empty Charge and Fight phases
    _settle(d)
    ts = sb.battle.turn_state
    assert (str(ts.phase), ts.chooser) != ("charge", turn) and str(ts.phase) != "fight", (ts.phase, sb.status)
    assert "skipped the empty charge, fight" in sb.status, sb.status


def test_empty_phases_are_not_skipped_when_the_setting_is_off_or_a_charge_can_be_declared(make, tmp_path):
    d = _at_phase(make, _far_apart(tmp_path), False, "shooting")
    d.key(pygame.K_e, "e")
    assert str(d.sb.battle.turn_state.phase) == "charge"
    from test_sandbox_moves import MISSION
    d = _at_phase(make, MISSION, True, "shooting")  # (the Assault Squad is 4" from the Line Squad)
    d.key(pygame.K_e, "e")
    assert str(d.sb.battle.turn_state.phase) == "charge", d.sb.status


def test_a_dragged_tank_turns_with_r_and_its_move_turns_it(make):
    """03.01 R while dragging a model that is not round turns its base (15 degrees a press): the
    ghost is drawn turned, the verdict is asked of the turned move, and the release makes a
    Move whose ``face`` turns it. The tank fits through the gate only lengthwise."""
    from pathlib import Path
    from test_sandbox_moves import _settle
    from sim.commands import EndPhase, StartBattle
    d = make(Path(__file__).resolve().parents[2] / "scenarios" / "turning.toml", seed=41)
    sb = d.sb
    assert sb.submit(StartBattle())
    sb.finish()
    _settle(d)
    while str(sb.battle.turn_state.phase) != "movement":
        assert sb.submit(EndPhase()), sb.status
        sb.finish()
        _settle(d)
    d.pump(2)
    a = d.model_pos("tank/1")
    b = (a[0], a[1] + inches(sb, 11)) if sb.camera.to_screen(0, 1)[1] > sb.camera.to_screen(0, 0)[1] \
        else (a[0], a[1] - inches(sb, 11))
    hold(d, a, b)
    assert "would be refused" in sb.status and "crosses a dense feature" in sb.status, sb.status
    for _ in range(6):
        d.key(pygame.K_r, "r")
    assert sb.drag["turn"] == 90.0 and sb.look().ghost_faces == {"tank/1": 90.0}
    d.pump(3)  # (the pointer rests: the verdict of the turned move)
    assert "legal - release to make it" in sb.status, sb.status
    n = len(sb.battle.events)
    release(d, b)
    moved = moved_events(sb, n)
    assert moved and moved[0]["face"] == [["tank/1", 90.0]], sb.status
    assert sb.scene.models["tank/1"].fp.angle == 90.0
