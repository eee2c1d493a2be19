"""Playing against the computer in the sandbox (issue 27): the dialog that asks who the computer
plays, the computer playing its turn on the default table (its commands explained in the log
by unit names, its own decisions answered by its player, the person's decisions asked in the
orders panel), the app waiting on the person's turn, the pacing keys, and `sim play --ai`'s
errors (exit status 2). Driven by posted pygame events under the dummy video driver."""

from __future__ import annotations

import re

import pygame
import pytest

from sandbox_support import FAST, ROOT
from sim.cli import main
from sim.phases.state import Phase
from sim.sandbox.computer import parse_ai, parse_speed

TABLE = ROOT / "scenarios" / "battle_default.toml"  # seed 11: blue (Raiders) has the first turn
FREE_PLAY = ROOT / "scenarios" / "default.toml"
NOTE = "> Raiders (computer): "


@pytest.fixture
def make_ai(make):
    def _make(scenario, ai=None, ai_speed=2.0, ask_ai=False):
        return make(scenario, ai=ai, ai_speed=ai_speed, ask_ai=ask_ai)
    return _make


def notes(sb) -> list[str]:
    return [t for t, _oid in sb._log_items if t.startswith(NOTE)]


def answer_by_panel(d) -> None:
    """The person answers the pending decision with the panel's buttons (its default)."""
    req = d.sb.battle.pending
    d.click_button("confirm" if req.kind in ("allocation_order", "coherency_removal") else "default")


def play_computer_turn(d, limit: int = 3000) -> list[tuple[int, str, str]]:
    """Pump frames until the computer's turn is over and the person's (red's round 1 Movement
    phase) begins; the person answers what they are asked and passes when the Fight phase's
    steps give them the choice. Returns (active side, kind, its buttons' texts) of each decision
    the person was asked."""
    sb = d.sb
    asked = []
    for _ in range(limit):
        d.pump(1, draw=False)
        req = sb.battle.pending
        assert req is None or req.player not in sb.ai, f"the computer's own decision was left to ask: {req.kind}"
        if req is not None:
            labels = [sb.names[f"answer:{o}"].text for o in req.options if f"answer:{o}" in sb.names]
            asked.append((sb.battle.turn_state.active, req.kind, " | ".join(labels)))
            answer_by_panel(d)
            continue
        ts = sb.battle.turn_state
        if ts.round == 1 and ts.active == 0 and ts.phase == Phase.MOVEMENT and not sb.resolving:
            return asked
        if ts.active == 1 and ts.chooser == 0 and not sb.resolving:  # (the Fight phase's steps: the
            d.key(pygame.K_e, "e")                                   # person has nothing to fight: passes)
    raise AssertionError(f"the computer's turn did not end: {sb.status}")


def start(d) -> None:
    d.key(pygame.K_e, "e")  # Start battle: the roll-off gives blue the first turn
    assert d.sb.battle.turn_state.round == 1


# ------------------------------------------------------------------------------ the dialog
def test_the_dialog_asks_who_the_computer_plays(make_ai):
    d = make_ai(TABLE, ai=None, ask_ai=True)
    sb = d.sb
    d.pump(2)
    assert sb.ai_dialog_open and sb.ai == {}  # (hot-seat stays the default)
    for name in ("ai:red:none", "ai:red:tactician", "ai:blue:default", "ai:blue:random", "ai:speed:4", "ai:play"):
        d.button(name)
    assert "ai:red:scripted" not in sb.names  # (a script is no opponent)
    d.key(pygame.K_e, "e")  # (keys belong to the dialog while it asks)
    assert sb.battle.turn_state.round == 0
    d.click_button("ai:blue:default")
    d.click_button("ai:speed:4")
    assert sb.ai == {1: "default"} and sb.ai_speed == 4
    d.click_button("ai:play")
    assert not sb.ai_dialog_open and "ai:play" not in sb.names
    assert "the computer plays Raiders" in sb.status
    d.click_button("ai:open")  # (again, from the orders panel before the battle)
    assert sb.ai_dialog_open
    d.key(pygame.K_ESCAPE)
    assert not sb.ai_dialog_open and sb.ai == {1: "default"}


def test_no_dialog_without_asking_or_without_a_mission(make_ai):
    assert not make_ai(TABLE, ai={1: "default"}).sb.ai_dialog_open
    assert not make_ai(FREE_PLAY, ai=None, ask_ai=True).sb.ai_dialog_open


# ------------------------------------------------------------------------------ its turn
def test_the_computer_plays_its_turn_then_waits_for_the_person(make_ai):
    d = make_ai(TABLE, ai={1: "default"}, ai_speed=FAST)
    sb = d.sb
    start(d)
    asked = play_computer_turn(d)
    lines = notes(sb)
    # each command in words with the units' NAMES (an id only beside a name two units share)
    assert any(re.search(r"Raider Sharpshooters is selected to shoot", t) for t in lines), lines
    assert any("makes a normal move" in t for t in lines) and any("end phase" in t for t in lines)
    for t in lines:
        assert not re.search(r"(?<!\()\b[rw]-[a-z]+", t), t  # (no bare unit id)
    # the person was asked their decisions of the computer's turn (Fire Overwatch, saves)
    assert any(active == 1 and kind == "stratagem" for active, kind, _p in asked), asked
    # (Fire Overwatch's options: shooter -> target, by their names)
    assert any(re.search(r"Warden [\w ]+(\(w-\w+\))? -> Raider", labels) for _a, _k, labels in asked), asked
    # the person's turn: the app waits
    before, n = sb.battle.state_hash(), len(lines)
    d.pump(60, draw=False)
    assert sb.battle.state_hash() == before and len(notes(sb)) == n
    assert sb.status.startswith("your turn, Wardens")
    sb.draw()  # (its trail and highlight draw, reading the world only)
    assert sb.battle.state_hash() == before


def test_the_tactician_plays_a_side(make_ai):
    d = make_ai(TABLE, ai={1: "tactician"}, ai_speed=FAST)
    start(d)
    play_computer_turn(d)
    lines = notes(d.sb)
    assert any("is selected to shoot" in t and "expected" in t for t in lines) and any("end phase" in t for t in lines)


def test_the_computer_answers_its_decisions_in_the_persons_turn(make_ai):
    """Red (the person) shoots Raiders units: the Raiders' decisions (allocation order, a
    Command Re-roll of their saves) are answered by their player, never shown. (Red's units
    shoot in turn, each its default player's shot, until one asks the computer something: whether
    a shot does depends on its dice, a failed save to re-roll.)"""
    d = make_ai(TABLE, ai={1: "default"}, ai_speed=FAST)
    sb = d.sb
    start(d)
    play_computer_turn(d)
    while sb.battle.turn_state.phase != Phase.SHOOTING:
        d.key(pygame.K_e, "e")
    from sim.players.default import DefaultPlayer
    red = DefaultPlayer(0, sb.battle, sb.spec)
    n = len(sb.battle.events)
    theirs, shots = [], 0
    while not theirs and shots < 6:
        cmd = red.choose(sb.battle).command  # (a legal shot of red's)
        assert cmd.record.kind == "shoot"
        shots += 1
        assert sb.submit(cmd)
        for _ in range(400):
            if not sb.resolving:
                break
            req = sb.battle.pending
            assert req is None or req.player == 0
            if req is not None:
                answer_by_panel(d)
            else:
                d.key(pygame.K_SPACE)  # (the person steps their own command)
        assert not sb.resolving
        theirs = [e for e in sb.battle.events[n:] if e["type"] == "decision" and e.get("player") == 1]
    assert theirs, "the shots asked the computer nothing (the test needs a decision of its)"


def test_the_computer_makes_its_pre_battle_steps(make_ai):
    """A battle deployed by the rules: the computer declares its formations, deploys and scouts
    for its side; the person's steps wait for the person (here: the default player's commands
    through the sandbox's door, as the person's drops would be)."""
    from sim.players.default import DefaultPlayer
    d = make_ai(ROOT / "scenarios" / "deployment.toml", ai={1: "default"}, ai_speed=FAST)
    sb = d.sb
    d.key(pygame.K_e, "e")
    person = DefaultPlayer(0, sb.battle, sb.spec)
    for _ in range(3000):
        d.pump(1, draw=False)
        ts, req = sb.battle.turn_state, sb.battle.pending
        if req is not None:
            assert req.player not in sb.ai
            answer_by_panel(d)
        elif ts.round >= 1:
            break
        elif ts.chooser == 0 and not sb.resolving:
            assert sb.submit(person.choose(sb.battle).command), sb.status
    else:
        raise AssertionError(f"the deployment did not end: {sb.status}")
    lines = notes(sb)
    assert any("declare formations" in t for t in lines), lines
    assert sum(": deploy" in t for t in lines) >= 5
    sb.battle._enter()
    from sim.plan import deployment as PD
    assert PD.to_deploy(1) == []


# ------------------------------------------------------------------------------ pacing
def test_pause_step_and_speed_keys(make_ai):
    d = make_ai(TABLE, ai={1: "default"}, ai_speed=0)  # (0: starts paused)
    sb = d.sb
    start(d)
    d.pump(20, draw=False)
    assert notes(sb) == [] and sb.ai_paused
    d.key(pygame.K_PERIOD, ".")  # one command per press
    d.pump(4, draw=False)
    assert len(notes(sb)) == 1
    d.pump(20, draw=False)
    assert len(notes(sb)) == 1
    # the person cannot command the computer's side (E would end its phase)
    phase = sb.battle.turn_state.phase
    d.key(pygame.K_e, "e")
    assert sb.battle.turn_state.phase == phase and "the computer plays Raiders" in sb.status
    speed = sb.ai_speed
    d.key(pygame.K_RIGHTBRACKET, "]")
    assert sb.ai_speed > speed
    d.key(pygame.K_LEFTBRACKET, "[")
    d.key(pygame.K_LEFTBRACKET, "[")
    assert sb.ai_speed < speed
    d.key(pygame.K_a, "a")  # resume
    assert not sb.ai_paused
    d.pump(4 * int(60 / sb.ai_speed) + 8, draw=False)
    assert len(notes(sb)) >= 2
    d.key(pygame.K_a, "a")
    assert sb.ai_paused


# ------------------------------------------------------------------------------ the command line
@pytest.mark.parametrize("args", [
    ["--ai", "green"], ["--ai", "red:scripted"], ["--ai", "red:wizard"], ["--ai", "red", "--ai", "red"],
    ["--ai", "red", "--ai-speed", "fast"], ["--ai", "red", "--ai-speed", "-1"], ["--ai-speed", "3"],
])
def test_ai_argument_errors_exit_2(args, capsys):
    assert main(["play", str(TABLE), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sim: --ai") and err.count("\n") == 1 and "Traceback" not in err


def test_ai_on_a_free_play_table_exits_2(capsys):
    assert main(["play", str(FREE_PLAY), "--ai", "blue"]) == 2
    assert "no [mission]" in capsys.readouterr().err


def test_parse_ai_and_speed():
    assert parse_ai(["blue"]) == {1: "tactician"}
    assert parse_ai(["red:random", "blue:default"]) == {0: "random", 1: "default"}
    assert parse_ai(["none"]) == {}
    assert parse_speed("0") == 0 and parse_speed("2.5") == 2.5
    with pytest.raises(ValueError):
        parse_speed("nan")


def test_a_moved_unit_slides_into_place_and_the_world_stays(make_ai):
    """The computer's moved models are drawn sliding from where they stood (ghosts of the Look)
    for SLIDE seconds, then where they are; drawing them changes nothing in the world."""
    from sim.sandbox.computer import SLIDE
    d = make_ai(TABLE, ai={1: "default"})
    sb = d.sb
    m = sb.scene.models["r-wolves/1"]
    sb.ai_trail = (sb.clock, "r-wolves", 1, {m.id: (m.x - 4.0, m.y)}, ("w-squad1",))
    before = sb.battle.state_hash()
    sb.clock += SLIDE / 2
    x, y = sb.look().ghosts[m.id]
    assert m.x - 4.0 < x < m.x and y == pytest.approx(m.y)
    sb.draw()
    sb.clock += SLIDE
    assert m.id not in sb.look().ghosts
    sb.draw()
    assert sb.battle.state_hash() == before


def test_the_search_thinks_across_frames_the_window_drawn_between(make_ai, monkeypatch):
    """A slow player (the search) thinks a slice a frame (Player.thinking): the frames between
    its slices are drawn and the battle is the same in each (its world current, nothing moved),
    the status line counts its rollouts, and its command is played when it has chosen."""
    import sim.sandbox.computer as SC
    monkeypatch.setattr(SC, "THINK_SLICE", 0.0)  # (one rollout a frame)
    d = make_ai(TABLE, ai={1: "search:0.15"}, ai_speed=FAST)
    sb = d.sb
    start(d)
    seen = []
    real = sb.computer_update

    def update(dt):
        real(dt)
        m = re.search(r"is thinking\.\.\. \((\d+) rollouts\)$", sb.status)
        if m:
            sb.draw()  # (a frame between two slices: it reads the battle's world)
            seen.append((int(m.group(1)), sb.battle.state_hash(), len(sb.battle.events)))

    sb.computer_update = update
    play_computer_turn(d)
    assert len(seen) >= 3, seen
    runs = [(a, b) for a, b in zip(seen, seen[1:]) if b[0] == a[0] + 1]  # (within one decision)
    assert runs and all(a[1:] == b[1:] for a, b in runs)
    assert any(t.startswith(NOTE + "Search: ") for t in notes(sb))


def test_the_tactician_weighs_its_shooting_a_unit_a_frame_and_plays_its_choice(make_ai, monkeypatch):
    """The tactician's Shooting choice, weighed a unit at a time (TacticianPlayer.thinking): the
    frames between are drawn on the unchanged battle, the status line counts the units weighed,
    and what it plays is what it chooses at once (the headless player's choice)."""
    import sim.sandbox.computer as SC
    from sim.players.tactician import TacticianPlayer
    monkeypatch.setattr(SC, "THINK_SLICE", 0.0)  # (one unit a frame)
    d = make_ai(TABLE, ai={1: "tactician"}, ai_speed=FAST)
    sb = d.sb
    start(d)
    seen, wanted = [], []
    real = sb.computer_update

    def update(dt):
        ts = sb.battle.turn_state
        if ts.chooser == 1 and str(ts.phase) == "shooting" and not sb._ai_think and not sb.battle.busy:
            b = sb.battle
            b._enter()
            wanted.append((len(b.events), TacticianPlayer(1, b, sb.spec).choose(b).command))
        real(dt)
        m = re.search(r"is thinking\.\.\. \((\d+) units weighed\)$", sb.status)
        if m:
            sb.draw()
            seen.append((int(m.group(1)), sb.battle.state_hash(), len(sb.battle.events)))

    sb.computer_update = update
    play_computer_turn(d)
    assert len(seen) >= 2, seen
    runs = [(a, b) for a, b in zip(seen, seen[1:]) if b[0] == a[0] + 1]
    assert runs and all(a[1:] == b[1:] for a, b in runs)
    shots = [e for e in sb.battle.events if e["type"] == "command" and e["command"]["kind"] == "shoot"]
    assert shots
    from sim.commands import to_dict
    compared = 0
    for n, c in {n: to_dict(c) for n, c in wanted}.items():
        nxt = next((e["command"] for e in sb.battle.events[n:] if e["type"] == "command"), None)
        if nxt is not None and nxt["kind"] == "shoot":
            assert nxt == c
            compared += 1
    assert compared >= 1
