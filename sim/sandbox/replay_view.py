"""Watching a replay log: step forward and back through its commands, or through the steps
within a command (each roll, each allocation, each decision), or play it.

Position (N, K) means "the first N commands applied, and K steps of command N": step 1 submits
it, each further step ticks the battle until something a person can read happens (a line of
the log) or answers the decision it asks with the log's answer. Going to a position rebuilds
the battle from the log's scenario and seed and applies what comes before it (a step forward
goes on from where the battle stands). The battle is driven the only way it ever is: submit,
answer, tick. A mixin of :class:`Sandbox`; ``ReplayView`` is the log, read once."""

from __future__ import annotations

from pathlib import Path

from sim.commands import command_from_dict
from sim.errors import LogError, Refusal, ScenarioError
from sim.replay.log import logged_answers, logged_decisions, logged_left_out, open_log, replay_command
from sim.replay.report import describe
from sim.players.resolve import note_left_out
from sim.scenario.script_run import expand

PLAY_INTERVAL = 0.8  # seconds per command while playing


class ReplayView:
    def __init__(self, path: str | Path, scenario: str | Path | None = None):
        self.path = Path(path)
        # checked as `sim replay` checks it; ``scenario``: as its --scenario
        recs, spath, self.spec = open_log(self.path, scenario)
        self.head = recs[0]
        self.scenario_path = str(spath)
        self.commands = [command_from_dict(r["command"]) for r in recs if r["t"] == "command"]
        self.answers: dict[int, list] = logged_decisions(recs)
        steps = {s.where: s for s in self.spec.script}
        self.steps = {n: steps.get(where) for n, where in logged_left_out(recs).items()}
        self.hashes: dict[int, str] = {}
        for r in recs:
            if r["t"] == "hash":
                self.hashes[r["n"]] = r["hash"]
        self.seed = self.head["seed"]
        self.pos = 0  # commands applied
        self.sub = 0  # steps of command ``pos`` taken (0: not submitted yet)
        self.sub_total: dict[int, int] = {}  # command -> its number of steps, once walked
        self.answer = None  # the log's answers for the command being stepped through
        self.playing = False
        self.acc = 0.0

    def __len__(self) -> int:
        return len(self.commands)


class ReplayMixin:
    def open_replay(self, path, scenario=None) -> bool:
        """Watch the replay log at ``path`` (from the file dialog or ``run_sandbox(replay=...)``),
        against ``scenario`` if given (as `sim replay --scenario`)."""
        try:
            rv = ReplayView(path, scenario)
        except (LogError, ScenarioError, OSError, KeyError, ValueError) as e:
            self.status = f"cannot open the replay: {e}"
            return False
        from sim.sandbox.dialogs import remember
        remember(self, "replay", path)
        if self.mode == "setup":
            self.toggle_setup()
        if self.mode == "battle" and self._stash is None:  # set aside, to come back to (leave_replay)
            self._stash = {"battle": self.battle, "recorder": self.recorder, "spec": self.spec,
                           "scenario_path": self.scenario_path, "edited": self.edited, "unsaved": self.unsaved,
                           "selected": (self.selected_unit, self.selected_model)}
        self.replay_view = rv
        self.mode = "replay"
        self.replay_to(0)
        self.status = (f"replay {rv.path.name}: {len(rv)} commands - Right/Left: a step (a roll, an "
                       f"allocation), Shift+Right/Left: a command, P plays, Esc leaves")
        return True

    def leave_replay(self) -> None:
        if self.replay_view is None:
            return
        self.replay_view = None
        self.mode = "battle"
        stash, self._stash = self._stash, None
        if stash is None:  # (opened on a replay: the scenario as opened, from its start)
            spec, path = self.origin
            self.edited = False
            self.start_battle(spec, None, scenario_path=path)
            self.status = "left the replay: back at the table"
        else:  # the battle as it was when the replay was opened
            self.scenario_path, self.edited = stash["scenario_path"], stash["edited"]
            self.adopt_battle(stash["battle"], stash["recorder"])
            self.unsaved = stash["unsaved"]
            uid, mid = stash["selected"]
            if uid in self.scene.units:
                self.selected_unit, self.selected_model = uid, mid
            self.status = "left the replay: back to the battle as it was"
        self.dirty |= {"orders", "action", "card"}

    def replay_to(self, n: int) -> None:
        """Rebuild the battle and apply the log's first ``n`` commands."""
        rv = self.replay_view
        n = max(0, min(n, len(rv)))
        self.start_battle(rv.spec, rv.seed, scenario_path=rv.scenario_path)
        b = self.battle
        for i in range(n):
            try:
                replay_command(b, rv.commands[i], rv.answers.get(i, []), rv.steps.get(i))
            except (Refusal, TypeError, ValueError, KeyError, AttributeError, IndexError) as e:
                # a logged answer the rules cannot take at all stops the replay too (sim replay:
                # one line naming the command)
                self.status = f"replay stopped at command {i + 1}: {e}"
                n = i
                break
        rv.pos, rv.sub = n, 0
        self.scene.refresh(force=True)
        self.dead_at = {m.id: -1e9 for m in self.scene.models.values() if not m.alive}
        self.dirty |= {"orders", "action", "card", "log", "dice"}
        if n < len(rv):
            nxt = rv.commands[n]
            self.status = f"replay: {n}/{len(rv)} commands applied; next: {nxt.kind} {getattr(nxt, 'unit', '')}".rstrip()
        else:
            self.status = f"replay: all {n} commands applied (state hash {b.state_hash()})"

    def replay_step(self, d: int) -> None:
        """A whole command on (d > 0) or back (d < 0): back from within a command goes to
        its start."""
        rv = self.replay_view
        if rv is not None:
            self.replay_to(rv.pos + d if d > 0 or rv.sub == 0 else rv.pos)

    def replay_event(self, d: int) -> None:
        """One step on (d > 0) or back (d < 0) within the commands: a roll, an allocation, a
        decision answered, the damage."""
        rv = self.replay_view
        if rv is None:
            return
        if d > 0:
            if self._replay_substep() or rv.pos >= len(rv):
                self._replay_shown()
            else:  # (stopped: the status line says why)
                self.dirty |= {"orders", "action", "card", "log", "dice"}
            return
        if rv.sub > 0:
            n, k = rv.pos, rv.sub - 1
        elif rv.pos > 0:
            n = rv.pos - 1
            if n not in rv.sub_total:  # walk it once to count its steps
                self.replay_to(n)
                while rv.pos == n and self._replay_substep():
                    pass
            k = rv.sub_total.get(n, 1) - 1
        else:
            return
        self.replay_to(n)
        for _ in range(k):
            if not self._replay_substep():
                break
        self._replay_shown()

    def _replay_substep(self) -> bool:
        """Take one step of command ``pos``; False when there is none (the end, or a stop)."""
        rv = self.replay_view
        if rv.pos >= len(rv):
            return False
        b = self.battle
        n = rv.pos
        try:
            if rv.sub == 0:
                step = rv.steps.get(n)
                left_out = expand(b, step).left_out if step is not None else []
                b.submit(rv.commands[n])
                if step is not None:
                    note_left_out(b, step, left_out)
                rv.answer = logged_answers(rv.answers.get(n, []))
            elif b.pending is not None:
                b.answer(rv.answer(b.pending))
            else:
                seen = len(b.events)
                for _ in range(10000):  # (ticks that change nothing a person reads are not steps)
                    if not b.busy or b.pending is not None or any(describe(e) for e in b.events[seen:]):
                        break
                    b.tick()
        except (Refusal, TypeError, ValueError, KeyError, AttributeError, IndexError) as e:
            self.status = f"replay stopped at command {n + 1}: {e}"
            rv.playing = False
            return False
        rv.sub += 1
        if not b.busy:
            b.commands_done += 1
            rv.sub_total[n] = rv.sub
            rv.pos, rv.sub = n + 1, 0
        return True

    def _replay_shown(self) -> None:
        rv = self.replay_view
        self.dirty |= {"orders", "action", "card", "log", "dice"}
        if rv.sub:
            c = rv.commands[rv.pos]
            line = next((describe(e) for e in reversed(self.battle.events) if describe(e)), "")
            self.status = (f"replay: command {rv.pos + 1}/{len(rv)} ({c.kind} {getattr(c, 'unit', '')}), "
                           f"step {rv.sub}: {line.strip().splitlines()[0] if line else ''}")
        elif rv.pos < len(rv):
            nxt = rv.commands[rv.pos]
            self.status = (f"replay: {rv.pos}/{len(rv)} commands applied; next: "
                           f"{nxt.kind} {getattr(nxt, 'unit', '')}").rstrip()
        else:
            self.status = f"replay: all {rv.pos} commands applied (state hash {self.battle.state_hash()})"

    def replay_play(self) -> None:
        rv = self.replay_view
        if rv is None:
            return
        if rv.pos >= len(rv):
            self.replay_to(0)
        rv.playing = not rv.playing
        rv.acc = 0.0
        self.dirty |= {"orders", "action"}

    def replay_update(self, dt: float) -> None:
        rv = self.replay_view
        if rv is None or not rv.playing:
            return
        rv.acc += dt
        if rv.acc >= PLAY_INTERVAL:
            rv.acc = 0.0
            self.replay_step(1)
            if rv.pos >= len(rv):
                rv.playing = False
                self.dirty |= {"orders", "action"}

    def open_replay_dialog(self) -> None:
        if self.mode == "battle" and (self.resolving or self.battle.busy):
            self.status = "finish the current activation first (then open a replay)"
            return
        if self.mode == "battle":
            self.ask_first("Opening a replay", "Open a replay", self._replay_dialog,
                           after=": leaving the replay (Esc) comes back to this battle")
            return
        self._replay_dialog()

    def _replay_dialog(self) -> None:
        from pygame_gui.windows import UIFileDialog
        import pygame
        from sim.sandbox.dialogs import start_folder
        start = start_folder(self, "replay", self.save_dir if self.save_dir.is_dir() else
                             Path(__file__).resolve().parents[2] / "scenarios" / "replays")
        w, h = self.size
        dw, dh = min(round(560 * self.scale), w - 20), min(round(460 * self.scale), h - 20)
        self._file_dialog = UIFileDialog(pygame.Rect((w - dw) // 2, (h - dh) // 2, dw, dh), self.manager,
                                         "Open a replay log",
                                         initial_file_path=str(start), allow_picking_directories=False,
                                         allowed_suffixes={".jsonl"})


def build_replay_panel(flow, sb) -> None:
    rv = sb.replay_view
    flow.label("Replay", "#heading")
    flow.para(f"{rv.path.name}: {rv.head.get('name', '')}, seed {rv.seed}", "#muted")
    where = f"{rv.pos} of {len(rv)} commands applied"
    if rv.sub:
        where += f"; command {rv.pos + 1}, step {rv.sub}" + (
            f" of {rv.sub_total[rv.pos]}" if rv.pos in rv.sub_total else "")
    flow.label(where, "#subheading")
    flow.para("Left / Right: one step (a roll, an allocation, a decision); Shift+Left / Right: "
              "a whole command.", "#muted")
    lo, hi = max(0, rv.pos - 6), min(len(rv), rv.pos + 18)  # (a window on a long log)
    if lo:
        flow.label(f"  ... {lo} earlier", "#muted", size=12)
    for i in range(lo, hi):
        c = rv.commands[i]
        mark = ">" if i == rv.pos else " "
        text = f"{mark} {i + 1}. {c.kind} {getattr(c, 'unit', '')}".rstrip()
        if i == rv.pos and rv.sub:
            text += f"  (step {rv.sub})"
        flow.label(text, "#muted" if i >= rv.pos and not (i == rv.pos and rv.sub) else None, size=12)
    if hi < len(rv):
        flow.label(f"  ... {len(rv) - hi} more", "#muted", size=12)
    if not rv.sub and rv.pos and rv.pos - 1 in rv.hashes:
        ok = sb.battle.state_hash() == rv.hashes[rv.pos - 1]
        flow.label(f"state hash {'matches' if ok else 'DIFFERS from'} the log", None if ok else "#warning")
    flow.finish()


def build_replay_footer(flow, sb) -> None:
    flow.y = 6
    rv = sb.replay_view
    flow.button("<< Back", lambda: sb.replay_step(-1), name="replay:back", height=28,
                tip="the previous command (Shift+Left)")
    flow.button("< Step", lambda: sb.replay_event(-1), name="replay:step_back", height=28,
                tip="one step back (Left)")
    flow.button("Pause" if rv.playing else "Play (P)", sb.replay_play, name="replay:play",
                object_id="#toggle_on" if rv.playing else "#primary", height=28)
    flow.button("Step >", lambda: sb.replay_event(1), name="replay:step_forward", height=28,
                tip="one step on (Right)")
    flow.button("Forward >>", lambda: sb.replay_step(1), name="replay:forward", height=28,
                tip="the whole next command (Shift+Right)")
    flow.button("Leave", sb.leave_replay, name="replay:leave", height=28, tip="Esc")
    flow.finish()


DEFAULT_TABLE = "scenarios/default.toml"  # (`sim play`'s default scenario, relative to the project)


def table_for_play(scenario: str, replay: str | None = None, replay_scenario: str | None = None) -> str:
    """The table `sim play` opens first, from any folder: with ``--replay LOG --scenario PATH``
    the replay's scenario (the default table is not needed, and outside the project root it is
    not there); the default table, when not found where `sim play` runs, from the project's
    own folder."""
    if replay is not None and replay_scenario is not None and scenario == DEFAULT_TABLE:
        return str(replay_scenario)
    if scenario == DEFAULT_TABLE and not Path(scenario).exists():
        return str(Path(__file__).resolve().parents[2] / DEFAULT_TABLE)
    return scenario
