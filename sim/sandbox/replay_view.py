"""Watching a replay log: step forward and back through its commands, or play it.

Position N means "the first N commands applied". Going to N rebuilds the battle from the log's
scenario and seed and applies commands 0..N-1 with the log's decisions (back = rebuild to N-1;
it is fast). The battle is driven the only way it ever is: submit, answer, tick. A mixin of
:class:`Sandbox`; ``ReplayView`` is the log, read once."""

from __future__ import annotations

from pathlib import Path

from sim.commands import command_from_dict
from sim.errors import LogError, Refusal, ScenarioError
from sim.replay.log import logged_decisions, logged_left_out, open_log, replay_command

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
        self.pos = 0
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
        if self.mode == "setup":
            self.toggle_setup()
        if self.mode == "battle" and self._stash is None:  # set aside, to come back to (leave_replay)
            self._stash = {"battle": self.battle, "recorder": self.recorder, "spec": self.spec,
                           "scenario_path": self.scenario_path, "edited": self.edited, "unsaved": self.unsaved,
                           "selected": (self.selected_unit, self.selected_model)}
        self.replay_view = rv
        self.mode = "replay"
        self.replay_to(0)
        self.status = (f"replay {rv.path.name}: {len(rv)} commands - Right/Left step, P plays, "
                       f"Esc leaves the replay")
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
        rv.pos = n
        self.scene.refresh(force=True)
        self.dead_at = {m.id: -1e9 for m in self.scene.models.values() if not m.alive}
        self.dirty |= {"orders", "action", "card", "log", "dice"}
        if n < len(rv):
            nxt = rv.commands[n]
            self.status = f"replay: {n}/{len(rv)} commands applied; next: {nxt.kind} {getattr(nxt, 'unit', '')}".rstrip()
        else:
            self.status = f"replay: all {n} commands applied (state hash {b.state_hash()})"

    def replay_step(self, d: int) -> None:
        if self.replay_view is not None:
            self.replay_to(self.replay_view.pos + d)

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
        start = self.save_dir if self.save_dir.is_dir() else Path("scenarios/replays")
        self._file_dialog = UIFileDialog(pygame.Rect(160, 80, 560, 460), self.manager, "Open a replay log",
                                         initial_file_path=str(start), allow_picking_directories=False,
                                         allowed_suffixes={".jsonl"})


def build_replay_panel(flow, sb) -> None:
    rv = sb.replay_view
    flow.label("Replay", "#heading")
    flow.para(f"{rv.path.name}: {rv.head.get('name', '')}, seed {rv.seed}", "#muted")
    flow.label(f"{rv.pos} of {len(rv)} commands applied", "#subheading")
    for i, c in enumerate(rv.commands):
        mark = ">" if i == rv.pos else " "
        text = f"{mark} {i + 1}. {c.kind} {getattr(c, 'unit', '')}".rstrip()
        flow.label(text, "#muted" if i >= rv.pos else None, size=12)
    if rv.pos in rv.hashes or (rv.pos and rv.pos - 1 in rv.hashes):
        want = rv.hashes.get(rv.pos - 1) if rv.pos else None
        if want is not None:
            ok = sb.battle.state_hash() == want
            flow.label(f"state hash {'matches' if ok else 'DIFFERS from'} the log", None if ok else "#warning")
    flow.finish()


def build_replay_footer(flow, sb) -> None:
    flow.y = 6
    rv = sb.replay_view
    flow.button("<< Back", lambda: sb.replay_step(-1), name="replay:back", height=28, tip="Left arrow")
    flow.button("Pause" if rv.playing else "Play (P)", sb.replay_play, name="replay:play",
                object_id="#toggle_on" if rv.playing else "#primary", height=28)
    flow.button("Forward >>", lambda: sb.replay_step(1), name="replay:forward", height=28, tip="Right arrow")
    flow.button("Leave", sb.leave_replay, name="replay:leave", height=28, tip="Esc")
    flow.finish()
