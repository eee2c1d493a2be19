"""Journeys in a real window (issue 28 item 12): the sandbox's own loop (events, update with the
real frame time, draw, flip) driven by real input, waiting on the sandbox's state, never on time.

Two ways in:
* ``xdotool``: under Xvfb (when both exist), the journey runs in a child process that opens an
  X11 window and moves the real pointer and keyboard with xdotool (the X server delivers the
  events to SDL as to any program);
* ``queue``: with the dummy video driver, the same journey's input is posted into the pygame
  event queue, one event per frame, the frames ticking with real time.

A journey is a function of a ``Harness``: ``click``, ``drag``, ``type``, ``key`` and ``wait``
(frames run until a predicate of the sandbox holds; a timeout only reports the failure). Run
one from the command line: ``python tests/sandbox/window_harness.py JOURNEY xdotool`` (what the
test does under Xvfb); exit status 0 when it held, else 1 with the reason."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SIZE = (1440, 900)
TIMEOUT = 10.0  # seconds a wait may take before the journey fails (never a pause: a bound)


def have_x() -> bool:
    return shutil.which("Xvfb") is not None and shutil.which("xdotool") is not None


class Harness:
    """The sandbox in a window and the input of one backend (``xdotool`` or ``queue``)."""

    def __init__(self, scenario, backend: str, seed: int | None = None, **sandbox):
        import pygame
        from sim.sandbox.app import Sandbox
        self.pg = pygame
        self.backend = backend
        pygame.display.init()
        pygame.font.init()
        self.screen = pygame.display.set_mode(SIZE)
        self.sb = Sandbox(str(scenario), self.screen, seed=seed, save_dir=tempfile.mkdtemp(prefix="harness-"),
                          **sandbox)
        self.clock = pygame.time.Clock()
        self.frames = 0
        self.wid = None
        if backend == "xdotool":
            self.wid = str(pygame.display.get_wm_info()["window"])
            self._xdo("windowfocus", "--sync", self.wid)  # (no window manager: focus, not activate)
        self.frame()

    # ------------------------------------------------------------------ the loop
    def frame(self) -> None:
        """One frame of run_sandbox's loop, with the real frame time."""
        pg = self.pg
        dt = self.clock.tick(120) / 1000.0
        for e in pg.event.get():
            if e.type == pg.VIDEORESIZE:
                self.sb.surface = pg.display.get_surface()
            self.sb.handle(e)
        self.sb.update(dt)
        self.sb.draw(pg.display.get_surface())
        pg.display.flip()
        self.frames += 1

    def wait(self, pred, what: str, timeout: float = TIMEOUT) -> None:
        """Run frames until ``pred()`` holds (at least one frame); fail after ``timeout``."""
        end = time.monotonic() + timeout
        while True:
            self.frame()
            if pred():
                return
            if time.monotonic() > end:
                raise AssertionError(f"waited {timeout:g} s for {what}; status: {self.sb.status}")

    def settle(self, n: int = 3) -> None:
        for _ in range(n):
            self.frame()

    # ------------------------------------------------------------------ input
    def _xdo(self, *args) -> None:
        subprocess.run(["xdotool", *args], check=True, env=os.environ.copy())

    def _post(self, type_, **kw) -> None:
        self.pg.event.post(self.pg.event.Event(type_, **kw))
        self.frame()  # (one event a frame: as fast as a real hand, with real frame times)

    def move(self, pos) -> None:
        x, y = int(pos[0]), int(pos[1])
        if self.backend == "xdotool":
            self._xdo("mousemove", "--window", self.wid, str(x), str(y))
            self.wait(lambda: self.sb.mouse == (x, y), f"the pointer at {(x, y)}")
        else:
            self._post(self.pg.MOUSEMOTION, pos=(x, y), rel=(0, 0), buttons=(0, 0, 0))

    def press(self, pos, down: bool, shift: bool = False) -> None:
        x, y = int(pos[0]), int(pos[1])
        if self.backend == "xdotool":
            self._xdo("mousedown" if down else "mouseup", "1")  # (XTEST: to the window under the pointer)
            self.settle(2)
        else:
            t = self.pg.MOUSEBUTTONDOWN if down else self.pg.MOUSEBUTTONUP
            self._post(t, pos=(x, y), button=1, shift=shift)

    def click(self, pos) -> None:
        self.move(pos)
        self.press(pos, True)
        self.press(pos, False)
        self.settle(2)

    def drag(self, a, b, steps: int = 4, shift: bool = False) -> None:
        if shift and self.backend == "xdotool":
            self._xdo("keydown", "shift")
        self.move(a)
        self.press(a, True, shift)
        for i in range(1, steps + 1):
            p = (a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps)
            if self.backend == "xdotool":
                self.move(p)
            else:
                self._post(self.pg.MOUSEMOTION, pos=(int(p[0]), int(p[1])), rel=(0, 0), buttons=(1, 0, 0))
        self.press(b, False, shift)
        if shift and self.backend == "xdotool":
            self._xdo("keyup", "shift")
        self.settle(2)

    def type(self, text: str) -> None:
        """``text`` typed as fast as the backend can (xdotool: no delay between keys; the queue:
        every key of it in one frame)."""
        pg = self.pg
        if self.backend == "xdotool":
            self._xdo("type", "--delay", "0", text)  # (XTEST: to the focused window)
            return
        for ch in text:
            pg.event.post(pg.event.Event(pg.KEYDOWN, key=ord(ch), unicode=ch, mod=0, scancode=0))
            pg.event.post(pg.event.Event(pg.TEXTINPUT, text=ch))
            pg.event.post(pg.event.Event(pg.KEYUP, key=ord(ch), unicode=ch, mod=0, scancode=0))
        self.frame()

    def key(self, name: str) -> None:
        """A named key (xdotool's names: Return, Escape, F2, m)."""
        pg = self.pg
        if self.backend == "xdotool":
            self._xdo("key", name)
            self.settle(2)
            return
        code = {"Return": pg.K_RETURN, "Escape": pg.K_ESCAPE, "F2": pg.K_F2}.get(name) or pg.key.key_code(name)
        uni = name if len(name) == 1 else ""
        self._post(pg.KEYDOWN, key=code, unicode=uni, mod=0, scancode=0)
        self._post(pg.KEYUP, key=code, unicode=uni, mod=0, scancode=0)

    def close(self) -> None:
        self.sb.battle.close()
        self.pg.display.quit()


# --- journeys ------------------------------------------------------------------------------------

MISSION = HERE / "data" / "extra" / "moves_mission.toml"
TABLE = ROOT / "scenarios" / "default.toml"
CATALOGUE = ROOT / "tests" / "importers" / "data" / "cat_xml" / "Ashen Concord.cat"


def _to_movement(h: Harness) -> None:
    from sim.commands import StartBattle
    sb = h.sb
    assert sb.submit(StartBattle())
    sb.finish()
    h.wait(lambda: sb.battle.pending is None or sb.names.get("default") is not None, "the first decision")
    while sb.battle.pending is not None:
        sb.answer(sb.battle.pending.default)
        h.settle(1)
    h.wait(lambda: str(sb.battle.turn_state.phase) == "movement", "the Movement phase")


def journey_typing(h: Harness) -> None:
    """The catalogue's search typed at full speed: every key arrives, no shortcut fires."""
    sb = h.sb
    h.key("F2")
    h.wait(lambda: sb.mode == "setup", "set-up mode")
    sb.catalogue_open(CATALOGUE)
    h.wait(lambda: sb._catalogue_entry is not None and sb._catalogue_entry.alive(), "the search box")
    units = [u.id for u in sb.spec.units]
    h.click(sb._catalogue_entry.rect.center)
    h.wait(sb.catalogue_typing, "the search box's focus")
    h.type("emberd")
    h.wait(lambda: sb._catalogue_entry.get_text() == "emberd", "the typed text", timeout=5)
    assert [u.id for u in sb.spec.units] == units, "a typed key fired a set-up shortcut"


def journey_unit_move(h: Harness) -> None:
    """Two models of a unit placed one at a time (Shift-drag), then Enter: one move, both moved."""
    sb = h.sb
    _to_movement(h)
    before = {m.id: (m.x, m.y) for m in sb.scene.living("squad")}
    n = len(sb.battle.events)
    px = sb.camera.length(1.0)
    for mid, dx in (("squad/1", -1.5), ("squad/5", 1.5)):
        m = sb.scene.models[mid]
        a = sb.camera.to_screen(m.x, m.y)
        h.drag(a, (a[0] + dx * px, a[1]), shift=True)
        h.wait(lambda mid=mid: sb.staged is not None and mid in sb.staged["ghosts"], f"{mid} placed")
    assert {m.id: (m.x, m.y) for m in sb.scene.living("squad")} == before
    h.key("Return")
    h.wait(lambda: any(e["type"] == "moved" for e in sb.battle.events[n:]), "the unit's move")
    moved = [e for e in sb.battle.events[n:] if e["type"] == "moved"]
    assert len(moved) == 1 and {t[0] for t in moved[0]["to"]} == {"squad/1", "squad/5"}, moved


def journey_decision(h: Harness) -> None:
    """A stratagem's question answered with the real pointer (battle_default, seed 1: ending the
    Raiders' Movement phase asks the Wardens about Fire Overwatch): the option's button names its
    units whole, the pointer on it rings them on the table, a click answers it (issue 28 items
    1 and 3)."""
    from sim.sandbox.decision_panel import hovered_marks
    sb = h.sb
    h.key("e")
    h.wait(lambda: sb.battle.turn_state.round == 1, "the first turn")
    h.key("e")
    h.wait(lambda: sb.battle.pending is not None and sb.battle.pending.kind == "stratagem"
           and any(" -> " in n and b.alive() for n, b in sb.names.items() if n.startswith("answer:")),
           "Fire Overwatch's question")
    req = sb.battle.pending
    name = next(n for n in sorted(sb.names) if n.startswith("answer:") and " -> " in n and sb.names[n].alive()
                and sb.rects["orders"].contains(sb.names[n].rect))
    b = sb.names[name]
    shooter, target = name[len("answer:"):].split(" -> ")
    assert b.text.startswith(sb.scene.units[shooter].name) and sb.scene.units[target].name in b.text, b.text
    h.move(b.rect.center)
    h.wait(lambda: hovered_marks(sb) >= set(sb.scene.units[target].models) & set(sb.scene.models), "its units ringed")
    n = len(sb.battle.events)
    h.click(b.rect.center)
    h.wait(lambda: any(e["type"] == "decision" and e["key"] == req.key for e in sb.battle.events[n:]), "the answer")
    got = next(e for e in sb.battle.events[n:] if e["type"] == "decision" and e["key"] == req.key)
    assert got["answer"] == name[len("answer:"):], got


def journey_reroll(h: Harness) -> None:
    """A Command Re-roll asked with its dice in the tray (forced dice: a hit roll of 1, 4, 6):
    only the die that can do better is offered, and a click on it with the real pointer
    re-rolls it (issue 28 item 2)."""
    from sim.battle import Battle
    from sim.commands import EndPhase, Selection, Shoot, StartBattle
    from sim.replay.log import Recorder
    from sim.rules.dice import ForcedDice
    sb = h.sb
    b = Battle(sb.spec, dice=ForcedDice([1, 4, 6] + [4] * 40))
    sb.adopt_battle(b, Recorder(b, "journey.toml"))
    b.run_command(StartBattle())
    while str(b.turn_state.phase) != "shooting":
        b.run_command(EndPhase())
    b.turn_state.cp = [2, 0]
    h.settle(2)
    assert sb.submit(Shoot("r1", (Selection("r1/1", "guns", "b1"),)))
    sb.finish()
    h.wait(lambda: b.pending is not None and "die:1" in sb.names and sb.names["die:1"].alive(), "the re-roll's dice")
    assert sorted(k for k in sb.names if k.startswith("die:")) == ["die:1"]
    die = sb.names["die:1"]
    assert sb.rects["dice"].contains(die.rect), (die.rect, sb.rects["dice"])
    n = len(b.events)
    h.click(die.rect.center)
    h.wait(lambda: any(e["type"] == "stratagem" and e["stratagem"] == "Command Re-roll" for e in b.events[n:]),
           "the re-roll")
    assert b.turn_state.cp[0] == 1


SIZES = ((800, 600), (1024, 700), (2560, 1440))


def journey_sizes(h: Harness) -> None:
    """The window resized to 800x600, 1024x700 and 2560x1440 (xdotool: the X window itself): at
    each the sandbox lays out again, every button of the action bar is inside the window, no
    name on the table overlaps another, and a click with the real pointer on a model selects its
    unit (issue 28 item 9)."""
    pg = h.pg
    sb = h.sb
    for size in SIZES:
        if h.backend == "xdotool":
            h._xdo("windowsize", "--sync", h.wid, str(size[0]), str(size[1]))
            h._xdo("windowmove", "--sync", h.wid, "0", "0")  # (the whole window on the screen)
        else:
            pg.display.set_mode(size)
            pg.event.post(pg.event.Event(pg.VIDEORESIZE, size=size, w=size[0], h=size[1]))
        h.wait(lambda: sb.size == size and sb.manager.window_resolution == size, f"the layout at {size}")
        h.settle(2)
        window = pg.Rect((0, 0), size)
        bar = {n: b for n, b in sb.names.items() if n.startswith("bar:") and b.alive()}
        assert {"bar:shoot", "bar:fight", "bar:move", "bar:step", "bar:help"} <= set(bar), sorted(bar)
        assert all(window.contains(b.rect) for b in bar.values()), [(n, b.rect) for n, b in bar.items()]
        placed = sb.table_labels.placed
        assert placed and not [(a.key, b.key) for i, a in enumerate(placed) for b in placed[i + 1:]
                               if a.rect.colliderect(b.rect)]
        uid = sorted(u for u in sb.scene.units if sb.scene.living(u))[size[0] % 3]
        m = sb.scene.living(uid)[0]
        sb.selected_unit = None
        h.click(sb.camera.to_screen(m.x, m.y))
        h.wait(lambda: sb.selected_unit == uid, f"{uid} selected at {size}")


def journey_round(h: Harness) -> None:
    """A whole battle round against the computer (battle_default, the computer playing the
    Wardens with the default player, a command a frame): the person ends each phase of their
    turn with E (and passes with E when the Fight phase's steps give them the choice), answers
    every question the rules give them, in either turn, by clicking its button with the pointer
    (the default, or Confirm for an order), and the computer plays its turn on the table, each
    command in words in the log (issue 27 item 4, issue 28 item 12); it stops at round 2."""
    sb = h.sb
    b = sb.battle
    h.key("e")
    h.wait(lambda: b.turn_state.round == 1, "the first turn")
    asked = 0
    end = time.monotonic() + 120.0
    while b.turn_state.round < 2:
        if time.monotonic() > end:
            raise AssertionError(f"the round did not end; status: {sb.status}")
        req = b.pending
        assert req is None or req.player not in sb.ai, f"the computer's own decision was left to ask: {req.kind}"
        ts = b.turn_state
        if req is not None:
            name = "confirm" if req.kind in ("allocation_order", "coherency_removal") else "default"
            h.wait(lambda: name in sb.names and sb.names[name].alive() and b.pending is req, f"the {name} button")
            h.click(sb.names[name].rect.center)
            h.wait(lambda: b.pending is not req, f"{req.kind} answered")
            asked += 1
        elif ts.chooser == 0 and not sb.resolving:
            h.key("e")
        else:
            h.frame()
    words = [t for t, _oid in sb._log_items if "computer" in t.lower() or "is selected to" in t]
    assert asked and words, (asked, words[:3])
    assert {e["player"] for e in b.events if e["type"] == "phase" and "player" in e} >= {"red", "blue"}


JOURNEYS = {"typing": (journey_typing, TABLE), "unit_move": (journey_unit_move, MISSION),
            "decision": (journey_decision, ROOT / "scenarios" / "battle_default.toml"),
            "reroll": (journey_reroll, HERE / "data" / "reroll_tray.toml"),
            "sizes": (journey_sizes, ROOT / "scenarios" / "battle_default.toml"),
            "round": (journey_round, ROOT / "scenarios" / "battle_default.toml")}
AI = {"round": {"ai": {1: "default"}, "ai_speed": 60.0}}  # (the computer's side and pace, per journey)


def run(name: str, backend: str) -> None:
    fn, scenario = JOURNEYS[name]
    h = Harness(scenario, backend, seed=5, **AI.get(name, {}))
    try:
        fn(h)
    finally:
        h.close()


def start_xvfb(display: str = ":72"):
    """An Xvfb of our own (the caller ends it by its pid)."""
    proc = subprocess.Popen(["Xvfb", display, "-screen", "0", "2800x1600x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:  # (ready when a client can connect)
        if subprocess.run(["xdotool", "getmouselocation"], env={**os.environ, "DISPLAY": display},
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
            return proc
        if proc.poll() is not None:
            return None
        time.sleep(0.05)
    proc.kill()
    return None


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    try:
        run(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "xdotool")
    except AssertionError as e:
        print(f"journey {sys.argv[1]} failed: {e}", file=sys.stderr)
        sys.exit(1)
    print(f"journey {sys.argv[1]} held")
