"""26 steps 5-11 in the sandbox: a battle deployed by the rules played as a phase, driven by
posted pygame events only: the roles roll-off (its dice in the log) and the role decision by
its buttons, each player's battle formations (a mark the reserves cap refuses, with its
reason), units dragged BY NAME from the list onto the table (an illegal drop refused in words,
the unit kept in hand; Infiltrators set up outside their zone), undo of a set-up, the
first-turn roll-off, a Scouts unit's scout move dragged like a move, and the log replaying."""

from __future__ import annotations

import json
import math

import pygame

from sandbox_support import DATA
from sim import events as ev
from sim.commands import DeclareFormations
from sim.replay.log import replay
from sim.rules.turn import PreBattleStep
from sim.world import queries as W

SCENARIO = DATA / "extra" / "deployment_small.toml"
CTRL = pygame.KMOD_LCTRL


def zone_centre(sb, player: int) -> tuple[float, float]:
    z = sb.battle.turn_state.zones()[player]
    xs, ys = [p[0] for p in z], [p[1] for p in z]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def screen(sb, x: float, y: float) -> tuple[int, int]:
    sx, sy = sb.camera.to_screen(x, y)
    return int(round(sx)), int(round(sy))


def drag_in(d, uid: str, x: float, y: float) -> None:
    """Drag the unit's button in the deployment list onto the table point (x, y)."""
    d.drag(d.button(f"place:{uid}").rect.center, screen(d.sb, x, y))


def kinds(sb) -> list[str]:
    return [json.loads(line)["command"]["kind"] for line in sb.recorder.lines[1:]
            if json.loads(line)["t"] == "command"]


def test_a_whole_rules_deployment_in_the_sandbox(make):
    d = make(SCENARIO)
    sb = d.sb
    d.pump(2)
    assert sb.tracker_shown[1].startswith("Start battle rolls off for the roles")
    d.click_button("phase:start")
    # 26 step 5: the roll-off's dice in the log, the winner asked by the decision panel's buttons
    req = sb.battle.pending
    assert req is not None and req.kind == "role"
    names = [a.name for a in sb.spec.armies]
    assert any(row.startswith("roll-off for Attacker and Defender: Wardens ") for row, _ in sb._log_items)
    assert sb.tracker_shown[1] == f"[{req.player}] Roles: {names[req.player]}' choice (won the roll-off)"
    d.click_button("answer:defender" if req.player == 1 else "answer:attacker")  # blue defends either way
    ts = sb.battle.turn_state
    assert ts.the_defender() == 1 and ts.pre_battle == PreBattleStep.FORMATIONS and ts.chooser == 1

    # 26 step 7: blue marks the Late Raiders; a second mark is refused by the cap, in words
    assert sb.tracker_shown[1] == "[1] Battle formations: Raiders (Defender) declares reserves"
    d.click_button("reserve-mark:late")
    d.click_button("reserve-mark:stalkers")
    assert sb.reserve_marks[1] == ["late"]
    assert "Raider Stalkers cannot wait in reserves" in sb.status and "at most 1" in sb.status
    assert sb.battle.check(DeclareFormations("blue", ("late", "stalkers"))) in sb.formation_error
    d.click_button("formations:confirm")
    assert ts.chooser == 0 and sb.battle.turn_state.formations[1] == {"reserves": ["late"]}
    d.click_button("formations:confirm")  # red: every unit deploys
    assert ts.pre_battle == PreBattleStep.DEPLOY and ts.chooser == 1

    # 26 step 8: the list names the units; an illegal drop is refused in words and kept in hand
    assert sb.tracker_shown[1] == "[1] Deployment: Raiders (Defender) deploys, 1 unit left"
    assert "Raider Stalkers (3 models, Infiltrators)" in d.button("place:stalkers").text
    assert "place:late" not in sb.names  # (in strategic reserves: not deployed now)
    drag_in(d, "stalkers", 30, 42)  # in red's zone: neither wholly within blue's zone nor 8" from red's
    assert sb.carry is not None and sb.carry["unit"] == "stalkers"
    assert sb.status.startswith("Raider Stalkers cannot be set up there: stalkers/1 is not wholly within its "
                                "deployment zone") and "nor may it infiltrate" in sb.status
    assert kinds(sb) == ["start battle", "declare formations", "declare formations"]
    d.click(screen(sb, 50, 22))  # 10" from each zone: as Infiltrators (24.20)
    assert sb.carry is None and ts.chooser == 0
    stalkers = [e for e in sb.battle.events if e["type"] == ev.DEPLOYED and e["unit"] == "stalkers"]
    assert stalkers and stalkers[0]["infiltrators"] is True
    assert sb.scene.models["stalkers/1"].alive and abs(sb.scene.models["stalkers/2"].x - 50) < 2

    # red: the Warden Line dragged into red's zone, then taken back with Ctrl+Z and set up again
    rx, ry = zone_centre(sb, 0)
    drag_in(d, "line", 30, ry)
    assert sb.scene.models["line/1"].alive and kinds(sb)[-1] == "deploy"
    d.key(pygame.K_z, "z", CTRL)
    sb.battle._enter()
    assert W.undeployed(sb.battle.units["line"]) and not sb.scene.models["line/1"].alive
    assert sb.battle.turn_state.chooser == 0 and "place:line" in sb.names
    ts = sb.battle.turn_state
    drag_in(d, "line", 30, ry)
    # blue has nothing left: red sets up the rest, then the first-turn roll-off (in the log)
    assert ts.chooser == 0 and ts.pre_battle == PreBattleStep.DEPLOY
    drag_in(d, "scouts", 8, ry)
    assert any(row.startswith("roll-off for the first turn: Wardens ") for row, _ in sb._log_items)

    # 26 step 11: red's Pathfinders (Scouts 6") scout 4" forward by a drag; blue has no Scouts
    assert ts.pre_battle == PreBattleStep.RULES and ts.chooser == 0
    assert sb.tracker_shown[1].startswith("[0] Pre-battle rules: Wardens (Attacker) may scout")
    m = sb.scene.models["scouts/2"]
    before = {mid: (sb.scene.models[mid].x, sb.scene.models[mid].y) for mid in sb.scene.units["scouts"].models}
    step = 4.0 if ry < 22 else -4.0
    d.drag(d.model_pos("scouts/2"), screen(sb, m.x, m.y + step), steps=10)
    assert kinds(sb)[-1] == "scout move", sb.status
    moved = [math.hypot(sb.scene.models[k].x - x, sb.scene.models[k].y - y) for k, (x, y) in before.items()]
    assert all(3.5 < v <= 6.0 for v in moved)
    assert sb.battle.turn_state.round == 1  # (both players done: battle round 1 began)
    assert kinds(sb) == ["start battle", "declare formations", "declare formations", "deploy", "deploy",
                         "deploy", "scout move"]
    # the sandbox's log replays as any log does
    path = sb.save_replay()
    n, div = replay(path)
    assert div is None and n == 7


def test_auto_deploy_and_pass(make):
    """"Auto-deploy this unit" and "Auto-deploy the rest" use the default player's policy (one
    Deploy command each); a pass ends a player's pre-battle rules."""
    d = make(SCENARIO)
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    d.click_button("answer:defender" if sb.battle.pending.player == 0 else "answer:attacker")  # red defends
    d.click_button("formations:confirm")
    d.click_button("formations:confirm")
    ts = sb.battle.turn_state
    assert ts.pre_battle == PreBattleStep.DEPLOY and ts.chooser == 0
    d.click_button("place:line")  # (picked by a click; Esc puts it back, nothing submitted)
    assert sb.carry is not None and sb.carry["unit"] == "line"
    d.key(pygame.K_ESCAPE)
    assert sb.carry is None and sb.status.startswith("put back") and kinds(sb)[-1] == "declare formations"
    d.click_button("auto-deploy:scouts")
    assert kinds(sb)[-1] == "deploy" and sb.scene.models["scouts/1"].alive and ts.chooser == 1
    d.click_button("place:auto-rest")
    assert kinds(sb).count("deploy") == 4 and ts.pre_battle == PreBattleStep.RULES
    assert sb.status.startswith("auto-deployed 3 units")
    d.click_button("scouts:pass")
    assert kinds(sb)[-1] == "end phase" and ts.round == 1


def test_the_deployment_controls_are_reachable_at_every_size(make):
    """Every control of each step lies inside the window at five sizes."""
    d = make(SCENARIO)
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    for size in ((1440, 900), (1024, 700), (800, 600), (1920, 1080), (1280, 720)):
        d.post(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])
        d.pump(2)
        win = pygame.Rect(0, 0, *size)
        for name in ("answer:defender", "answer:attacker"):
            assert win.contains(d.button(name).rect), (size, name)
    d.click_button("answer:defender" if sb.battle.pending.player == 1 else "answer:attacker")
    for size in ((1440, 900), (1024, 700), (800, 600)):
        d.post(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])
        d.pump(2)
        win = pygame.Rect(0, 0, *size)
        for name in ("reserve-mark:stalkers", "reserve-mark:late", "formations:confirm"):
            assert win.contains(d.button(name).rect), (size, name)


def test_auto_deploying_an_army_that_does_not_fit_says_why(make, tmp_path):
    """26 step 8: "Auto-deploy the rest" for an army whose units cannot all be set up in its zone
    stops at the unit that does not fit and says the placement solver's reason (no crash)."""
    from too_many_tanks import TEXT
    path = tmp_path / "tanks.toml"
    path.write_text(TEXT)
    d = make(path)
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    d.click_button("formations:confirm")
    d.click_button("formations:confirm")
    assert sb.battle.turn_state.pre_battle == PreBattleStep.DEPLOY
    d.click_button("place:auto-rest")
    assert "army does not fit its deployment zone" in sb.status and "150 mm round base" in sb.status, sb.status
    assert sb.battle.turn_state.pre_battle == PreBattleStep.DEPLOY


def test_a_tank_carried_onto_the_table_turns_with_r(make, tmp_path):
    """03.01 R while a unit is carried from the deployment list: its formation turns and each
    base that is not round with it; the ghost shows the turned base, and the Deploy made turns
    the tank (its event says so)."""
    text = SCENARIO.read_text()
    line = next(s for s in text.splitlines() if s.strip().startswith('{ name = "Warden", count = 5'))
    tank = line.replace('count = 5, base_mm = 32', 'count = 1, base = [150, 92], shape = "oval"')
    path = tmp_path / "deployment_tank.toml"
    path.write_text(text.replace(line, tank))
    d = make(path)
    sb = d.sb
    d.pump(2)
    d.click_button("phase:start")
    req = sb.battle.pending
    d.click_button("answer:defender" if req.player == 1 else "answer:attacker")
    d.click_button("formations:confirm")
    d.click_button("formations:confirm")
    ts = sb.battle.turn_state
    if ts.chooser != 0:  # (blue sets its one unit up first where it deploys first)
        sb.auto_deploy("stalkers")
        d.pump(2)
    assert ts.chooser == 0
    rx, ry = zone_centre(sb, 0)
    sb.carry_unit("line")
    d.move(screen(sb, 30, ry))
    d.pump(2)
    for _ in range(6):
        d.key(pygame.K_r, "r")
    d.pump(2)
    assert sb.carry["turn"] == 90.0 and "turned 90 degrees" in sb.status, sb.status
    _key, cmd, why = sb.carry["ghost"]
    assert cmd.face == (("line/1", 90.0),) and why is None, why
    d.click(screen(sb, 30, ry))
    deployed = [e for e in sb.battle.events if e["type"] == ev.DEPLOYED and e["unit"] == "line"]
    assert deployed and deployed[0]["face"] == [["line/1", 90.0]], sb.status
    assert sb.scene.models["line/1"].fp.angle == 90.0
