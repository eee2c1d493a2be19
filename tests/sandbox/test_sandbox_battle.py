"""The sandbox plays a whole battle (issue 15), driven by posted pygame events only: the phase
tracker, End phase through a whole turn (a refusal shown with its rule), selecting units to
move, a stratagem and a coherency removal answered by their buttons, strategic reserves set up
by a click, undo (Ctrl+Z) back to the state hash before the last command, and the question
asked before unsaved commands are lost."""

from __future__ import annotations

from pathlib import Path

import esper
import pygame
import pygame_gui
import pytest

from sandbox_support import DATA, ROOT, shot
from sim.plan.fight import fight_eligible
from sim.phases.state import FightStep, Phase
from sim.replay.log import replay
from sim.world import queries as W

TABLE = DATA / "extra" / "battle_turn.toml"
SHOTS = Path(__file__).resolve().parent / "screenshots"
CTRL = pygame.KMOD_LCTRL


def settle(d, limit: int = 300) -> None:
    """Answer whatever the battle asks with its default (Confirm for the ordered and toggled
    kinds) and finish the command, by the panel's buttons."""
    sb = d.sb
    for _ in range(limit):
        req = sb.battle.pending
        if req is not None:
            d.click_button("confirm" if req.kind in ("allocation_order", "coherency_removal") else "default")
        elif sb.resolving:
            d.click_button("finish")
        else:
            return
    raise AssertionError(f"the command did not settle: {sb.status}")


def shown(sb) -> list[str]:
    sb.update(1 / 60)
    sb.draw()
    return sb.tracker_shown


def state(sb, uid):
    sb.battle._enter()
    return W.unit_state(sb.battle.units[uid])


def test_free_play_has_no_tracker(make):
    d = make(ROOT / "scenarios" / "default.toml")
    sb = d.sb
    d.pump(2)
    assert sb.rects["tracker"].h == 0 and "phase:end" not in sb.names and "bar:end" in sb.names
    before = sb.battle.state_hash()
    d.key(pygame.K_e, "e")  # End turn, as before
    assert sb.status.startswith("done: end turn") and sb.battle.turn == 2 and sb.battle.state_hash() != before
    after = sb.battle.state_hash()
    d.key(pygame.K_z, "z", CTRL)
    assert sb.status.startswith("cannot undo past the turn it ended") and sb.battle.state_hash() == after


def test_tracker_shows_where_the_battle_is_and_follows_end_phase(make):
    d = make(TABLE)
    sb = d.sb
    d.pump(2)
    assert sb.rects["tracker"].h > 0
    assert shown(sb)[0] == "Before the battle"
    d.click_button("phase:start")
    ts = sb.battle.turn_state
    assert (ts.round, ts.active, ts.phase) == (1, 0, Phase.MOVEMENT)
    assert shown(sb) == ["Round 1 of 2", "[0] Wardens' turn Movement phase", "CP [0] 1 [1] 1", "VP [0] 0 [1] 0"]
    assert "now round 1, Wardens' Movement phase" in sb.status
    d.click_button("phase:end")
    settle(d)  # (blue's Fire Overwatch, offered at the end of red's Movement phase: declined)
    assert ts.phase == Phase.SHOOTING and shown(sb)[1] == "[0] Wardens' turn Shooting phase"
    d.key(pygame.K_e, "e")  # the key does the same
    assert ts.phase == Phase.CHARGE and shown(sb)[1] == "[0] Wardens' turn Charge phase"
    assert sb.status.startswith("done: end phase") and "Charge phase" in sb.status


def test_a_whole_turn_through_the_phases(make):
    d = make(TABLE)
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    ts = sb.battle.turn_state
    # Movement: what the phase still requires is listed; units are selected by the panel's buttons
    d.click_model("holders/1")
    assert "not yet selected to move" in " ".join(lab.text for lab in _labels(sb.orders_flow))
    d.click_button("select:stationary")
    assert state(sb, "holders").move_type == "stationary"
    d.click_model("runners/1")
    d.click_button("select:advance")
    req = sb.battle.pending
    assert req is not None and req.kind == "stratagem" and req.context["stratagem"] == "Command Re-roll"
    assert "1 CP" in d.button("answer:use").text and d.button("answer:decline").text == "Decline"
    assert "a decision for" in sb.status  # (not "accepted" while it waits)
    d.click_button("answer:use")  # the stratagem, answered by its button
    assert sb.battle.pending is None and not sb.resolving
    used = [e for e in sb.battle.events if e["type"] == "stratagem"]
    assert used and used[-1]["stratagem"] == "Command Re-roll" and ts.cp == [0, 1]
    assert shown(sb)[2] == "CP [0] 0 [1] 1"
    assert state(sb, "runners").advance_roll is not None and sb.move_mode == "advance"
    d.click_button("phase:end")
    settle(d)  # (blue's Fire Overwatch: declined)
    assert ts.phase == Phase.SHOOTING
    assert state(sb, "squad").move_selected == "stationary"  # (never selected: remained stationary)
    # Shooting: the squad shoots the targets
    d.click_model("squad/1")
    d.key(pygame.K_s, "s")
    d.click_button("type:normal")
    d.click_model("targets/1")
    d.key(pygame.K_RETURN, "\r")
    assert sb.resolving and sb.status.startswith("resolving shoot squad")
    settle(d)
    assert state(sb, "squad").selected_to_shoot and sb.status.startswith("done: shoot squad")
    # Charge: nothing to do
    d.click_button("phase:end")
    assert ts.phase == Phase.CHARGE
    d.click_button("phase:end")
    settle(d)  # (a Heroic Intervention offered to blue would be declined)
    assert (ts.phase, ts.step, ts.chooser) == (Phase.FIGHT, FightStep.PILE_IN, 0)
    d.click_button("phase:end")  # red's part of the pile-in step, then blue's
    assert ts.chooser == 1 and shown(sb)[1] == "[0] Wardens' turn Fight phase: pile in [1] Raiders' choice"
    d.click_button("phase:end")
    assert (ts.step, ts.chooser) == (FightStep.FIGHT, 0)
    # the brawlers must fight: passing is refused, with the rule, and nothing changes
    before = sb.battle.state_hash()
    d.click_button("phase:end")
    assert sb.status.startswith("refused:") and "12.04.01" in sb.status and "brawlers" in sb.status
    assert sb.battle.state_hash() == before and ts.step == FightStep.FIGHT
    for _ in range(6):  # every eligible unit fights, the players alternating
        if ts.step != FightStep.FIGHT:
            break
        sb.battle._enter()
        units = fight_eligible(sb.battle, ts.chooser)
        if not units:
            break
        uid, foes = _uid(units[0]), _engaged_ids(sb, units[0])
        enemy = next(m for m in sb.scene.models.values() if m.alive and m.unit in foes)
        d.click_model(sb.scene.living(uid)[0].id)
        d.key(pygame.K_f, "f")
        d.click_model(enemy.id)
        d.key(pygame.K_RETURN, "\r")
        settle(d)
    assert state(sb, "brawlers").selected_to_fight
    assert ts.step == FightStep.CONSOLIDATE
    d.click_button("phase:end")
    d.click_button("phase:end")  # blue's part: the Fight phase ends, then the End of Turn
    # 03.03: the stragglers are out of coherency: the player picks the models they lose
    req = sb.battle.pending
    assert req is not None and req.kind == "coherency_removal" and req.default == ["stragglers/3"]
    assert d.button("coh:stragglers/3").text.startswith("1. remove")
    d.click_button("coh:stragglers/3")  # deselected: the unit would stay out of coherency
    d.click_button("confirm")
    assert sb.status.startswith("refused: illegal coherency removal") and sb.battle.pending is req
    d.click_button("coh:stragglers/3")
    d.click_button("confirm")
    assert sb.battle.pending is None and not sb.resolving
    assert not sb.scene.models["stragglers/3"].alive
    # the End of Turn scored: red holds its home and the centre, blue its home (rounds 1-2: 2 VP)
    assert ts.vp == [2, 0] and (ts.round, ts.active, ts.phase) == (1, 1, Phase.MOVEMENT)
    got = shown(sb)
    assert got[1] == "[1] Raiders' turn Movement phase" and got[3] == "VP [0] 2 [1] 0"
    assert "+2 VP to Wardens" in sb.status and "Raiders' Movement phase" in sb.status
    # the sandbox's log replays as any log does
    path = sb.save_replay()
    n, div = replay(path)
    assert div is None and n == sb.recorder.n


def test_undo_restores_the_state_before_the_last_command(make):
    d = make(TABLE)
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    h0, lines0 = sb.battle.state_hash(), list(sb.recorder.lines)
    d.click_model("holders/1")
    d.click_button("select:stationary")
    assert sb.battle.state_hash() != h0
    d.key(pygame.K_z, "z", CTRL)
    assert sb.status == "took back: select to move Home Guard"  # (its name, not its id)
    assert sb.battle.state_hash() == h0 and sb.recorder.lines == lines0
    assert state(sb, "holders").move_type is None
    d.click_button("phase:end")
    settle(d)  # (blue's Fire Overwatch: declined)
    h1 = sb.battle.state_hash()
    d.key(pygame.K_z, "z", CTRL)  # the Movement phase has ended: nothing before it comes back
    assert sb.status.startswith("cannot undo past the phase") and sb.battle.state_hash() == h1
    d.click_model("squad/1")
    d.key(pygame.K_s, "s")
    d.click_button("type:normal")
    d.click_model("targets/1")
    d.key(pygame.K_RETURN, "\r")
    settle(d)
    assert sb.battle.state_hash() != h1
    d.click_button("phase:undo")  # the tracker's button does the same
    assert sb.battle.state_hash() == h1 and not state(sb, "squad").selected_to_shoot
    # the same shot again gets the same dice (one stream, re-simulated): deterministic
    path = sb.save_replay()
    n, div = replay(path)
    assert div is None and n == sb.recorder.n == 2


def test_confirmation_before_losing_unsaved_commands(make):
    d = make(TABLE)
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    battle, h = sb.battle, sb.battle.state_hash()
    for key in (pygame.K_r, pygame.K_o):  # restart, open a replay
        d.key(key, pygame.key.name(key), CTRL)
        dlg = sb.confirm_dialog()
        assert dlg is not None, sb.status
        d.click(dlg.cancel_button.rect.center)
        assert sb.confirm_dialog() is None and sb.battle is battle and sb.battle.state_hash() == h
        assert sb.recorder.n == 1 and sb.mode == "battle" and sb.status.startswith("cancelled")
        assert getattr(sb, "_file_dialog", None) is None
    d.key(pygame.K_F2)  # set-up restarts the battle: asked too
    dlg = sb.confirm_dialog()
    assert dlg is not None and sb.mode == "battle"
    d.key(pygame.K_ESCAPE)  # Esc cancels
    assert sb.confirm_dialog() is None and sb.battle is battle and sb.mode == "battle"
    d.key(pygame.K_r, "r", CTRL)
    d.click(sb.confirm_dialog().confirm_button.rect.center)
    assert sb.battle is not battle and sb.battle.turn_state.round == 0 and sb.recorder.n == 0
    # saved: nothing to lose, no question
    d.click_button("phase:start")
    d.key(pygame.K_s, "s", CTRL)
    assert sb.status.startswith("replay saved")
    d.key(pygame.K_r, "r", CTRL)
    assert sb.confirm_dialog() is None and sb.battle.turn_state.round == 0


def test_leaving_a_replay_returns_to_the_battle_as_it_was(make):
    d = make(TABLE)
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    d.click_model("holders/1")
    d.click_button("select:stationary")
    path = sb.save_replay()
    d.click_button("phase:end")  # one more command, not saved
    settle(d)  # (blue's Fire Overwatch: declined)
    battle, h, n = sb.battle, sb.battle.state_hash(), sb.recorder.n
    d.key(pygame.K_o, "o", CTRL)
    d.click(sb.confirm_dialog().confirm_button.rect.center)
    assert getattr(sb, "_file_dialog", None) is not None
    sb._file_dialog.kill()
    d.post(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(path), ui_element=None)
    d.pump(2)
    assert sb.mode == "replay" and sb.battle is not battle
    d.key(pygame.K_RIGHT)
    d.key(pygame.K_ESCAPE)
    assert sb.mode == "battle" and sb.battle is battle and sb.battle.state_hash() == h and sb.recorder.n == n
    assert sb.battle.turn_state.phase == Phase.SHOOTING and shown(sb)[1] == "[0] Wardens' turn Shooting phase"
    assert sb.has_unsaved()  # (the command given after the save is still not saved)


def _to_red_movement_in_round_2(d) -> None:
    """End phases by the button (answering what comes) until red's Movement phase of round 2."""
    ts = d.sb.battle.turn_state
    for _ in range(40):
        if (ts.round, ts.active, ts.phase) == (2, 0, Phase.MOVEMENT):
            break
        d.click_button("phase:end")
        settle(d)


def test_strategic_reserves_set_up_by_a_click(make):
    d = make(ROOT / "scenarios" / "reserves.toml")
    sb = d.sb
    d.pump(2)
    assert "reserve:outflank" in sb.names and not sb.scene.models["outflank/1"].alive  # listed, not drawn
    d.click_button("phase:start")
    d.click_button("reserve:outflank")  # round 1: refused with the rule
    assert sb.ingress_unit is None and "20.04" in sb.status
    _to_red_movement_in_round_2(d)
    ts = sb.battle.turn_state
    assert (ts.round, ts.active, ts.phase) == (2, 0, Phase.MOVEMENT)
    d.click_button("reserve:outflank")
    assert sb.ingress_unit == "outflank"
    d.click(sb.camera.to_screen(30, 22))  # the middle of the board: refused, with the rule
    assert sb.status.startswith("refused:") and "20.04" in sb.status and sb.ingress_unit == "outflank"
    d.move(sb.camera.to_screen(4, 20))
    d.pump(2)
    assert sb.ingress_ghost is not None and sb.ingress_ghost[2] is None  # (the preview: legal there)
    d.click(sb.camera.to_screen(4, 20))
    assert sb.ingress_unit is None and sb.status.startswith("done: ingress outflank"), sb.status
    assert sb.scene.models["outflank/1"].alive and "reserve:outflank" not in _alive_names(sb)
    assert all(sb.scene.models[f"outflank/{i}"].x <= 6 for i in (1, 2, 3))


def test_drawing_a_mission_changes_nothing(make):
    """Zones, objectives and their hover tip, the reserves' edge band and ghost: drawn, and the
    world's state hash does not move."""
    d = make(ROOT / "scenarios" / "reserves.toml")
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    ts = sb.battle.turn_state
    while (ts.round, ts.phase) != (2, Phase.MOVEMENT):
        d.click_button("phase:end")
        settle(d)
    d.click_button("reserve:outflank")
    b = sb.battle
    before = (b.state_hash(), len(b.events), b.pending)
    for o in ts.objectives:
        for p in ((o.x, o.y), (3, o.y)):
            d.move(sb.camera.to_screen(*p))
            d.pump(1)
            assert (b.state_hash(), len(b.events), b.pending) == before
    assert sb.ingress_ghost is not None and sb._tip_lines(sb.look())


@pytest.mark.parametrize("size", [(1024, 700), (1440, 900), (2560, 1440)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_screenshots_tracker_objectives_stratagem(make, size):
    """Writes tests/sandbox/screenshots/battle-*-WxH.png (git-ignored) for a person to look at:
    the tracker mid-turn, an objective's hover tip over the zones, a stratagem decision."""
    SHOTS.mkdir(exist_ok=True)
    d = make(TABLE)
    sb = d.sb
    pygame.display.set_mode(size)  # (the window, resized: the sandbox draws on it)
    d.post(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])
    d.pump(2)
    assert sb.surface.get_size() == size
    d.click_button("phase:start")
    d.click_model("holders/1")
    d.click_button("select:stationary")
    d.click_model("squad/1")
    d.pump(2)
    text = " ".join(shown(sb))
    assert "Round 1 of 2" in text or "R1/2" in text
    shot(sb.draw(), SHOTS / f"battle-tracker-{size[0]}x{size[1]}.png")
    centre = sb.camera.to_screen(30, 22)
    d.move(centre)
    d.pump(2)
    tip = sb._tip_lines(sb.look())
    assert any(line.startswith("OC in range now: Wardens 10, Raiders 0") for line in tip), tip
    shot(sb.draw(), SHOTS / f"battle-objectives-{size[0]}x{size[1]}.png")
    d.click_model("runners/1")
    d.click_button("select:advance")
    assert sb.battle.pending is not None and sb.battle.pending.kind == "stratagem"
    d.pump(2)
    shot(sb.draw(), SHOTS / f"battle-stratagem-{size[0]}x{size[1]}.png")
    for name in ("answer:use", "answer:decline", "default", "phase:end", "phase:undo"):
        b = d.button(name)
        assert sb.surface.get_rect().contains(b.rect), (name, b.rect)


def _labels(flow):
    from pygame_gui.elements import UILabel
    from sim.sandbox.widgets import TextLine
    return [e for e in flow.scroll.get_container().elements if isinstance(e, (UILabel, TextLine))]


def _alive_names(sb):
    return {n for n, b in sb.names.items() if b.alive()}


def _uid(ent):
    from sim.components import Unit
    return esper.component_for_entity(ent, Unit).id


def _engaged_ids(sb, ent):
    sb.battle._enter()
    return [_uid(e) for e in W.engaged_with(ent)]


def test_a_vehicle_set_up_from_reserves_by_a_short_edge_lies_along_it(make, tmp_path):
    """03.01 The ingress preview turns a long vehicle to lie along the edge nearest the pointer
    (the formation's rule, its bases with it); the click sets it up so, and its ghost is drawn
    turned (its own shape, not a disc)."""
    text = (ROOT / "scenarios" / "reserves.toml").read_text()
    old = '{ name = "Outrider", count = 3, base_mm = 32,'
    new = '{ name = "Outrider", count = 1, base = [170, 105], shape = "oval",'
    text = text.replace(old, new).replace("at = [[5, 2], [6.5, 2], [8, 2]] }", "at = [[5, 3]] }")
    text = text.replace('keywords = ["INFANTRY"]\nreserves = true', 'keywords = ["VEHICLE"]\nreserves = true')
    path = tmp_path / "reserves_knight.toml"
    path.write_text(text)
    d = make(path)
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    _to_red_movement_in_round_2(d)
    d.click_button("reserve:outflank")
    d.move(sb.camera.to_screen(3, 22))
    d.pump(2)
    _key, cmd, why = sb.ingress_ghost
    assert cmd.face == (("outflank/1", 90.0),) and why is None, (cmd, why)
    d.click(sb.camera.to_screen(3, 22))
    assert sb.scene.models["outflank/1"].alive and sb.scene.models["outflank/1"].fp.angle == 90.0, sb.status


def test_a_staged_move_of_oval_bases_turns_with_r_and_confirms_with_its_facings(make):
    """03.01 A staged move (a model placed alone with Shift, not yet confirmed): R turns the
    staged ghosts about their centre and each oval base with them; Enter makes one Move whose
    ``face`` turns the model (its event says so)."""
    from test_sandbox_unit_moves import shift_drag
    d = make(ROOT / "scenarios" / "battle_default.toml")
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    ts = sb.battle.turn_state
    for _ in range(40):
        if (ts.active, ts.phase) == (1, Phase.MOVEMENT):
            break
        d.click_button("phase:end")
        settle(d)
    assert (ts.active, ts.phase) == (1, Phase.MOVEMENT)
    uid = next(u for u, v in sb.scene.units.items() if v.name.startswith("Raider Riders"))
    mid = sb.scene.units[uid].models[0]
    a = d.model_pos(mid)
    shift_drag(d, a, (a[0], a[1] - sb.camera.length(2)))
    assert sb.staged is not None and list(sb.staged["ghosts"]) == [mid]
    d.key(pygame.K_r, "r")
    d.key(pygame.K_r, "r")
    assert sb.staged["faces"] == {mid: 30.0}, sb.staged
    n = len(sb.battle.events)
    d.key(pygame.K_RETURN)
    moved = [e for e in sb.battle.events[n:] if e["type"] == "moved"]
    assert moved and moved[0]["face"] == [[mid, 30.0]], sb.status
    assert sb.scene.models[mid].fp.angle == 30.0
