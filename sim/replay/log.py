"""Record and verify replay logs (JSON Lines).

Line 1 is the header (format, version, scenario path and sha256 digest, seed). Then, per
command: the command, every event it caused (dice with their purpose and decisions included),
and the state hash once it is resolved. Same scenario + seed => byte-identical log."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sim.battle import Battle
from sim.commands import command_from_dict, command_to_dict
from sim import events as ev
from sim.decisions import Scripted
from sim.errors import LogError, Refusal
from sim.runner import frozen_heap, note_left_out
from sim.scenario.script import expand

FORMAT = "sim-replay"
VERSION = 1


def dumps(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


class Recorder:
    """Collects a battle's log lines as they happen."""

    def __init__(self, battle: Battle, scenario_path: str):
        self.lines: list[str] = [dumps({"t": "header", "format": FORMAT, "version": VERSION,
                                        "scenario": scenario_path, "digest": battle.scenario.digest,
                                        "seed": battle.seed, "name": battle.scenario.name})]
        self.n = 0
        self.last_hash = battle.state_hash()  # the state after the last resolved command
        battle.listeners.append(self._event)

    def command(self, cmd) -> None:
        self.lines.append(dumps({"t": "command", "n": self.n, "command": command_to_dict(cmd)}))

    def _event(self, e: dict) -> None:
        if e["type"] in ("command", "refused"):
            return  # the command line itself records it
        self.lines.append(dumps({"t": "event", "n": self.n, "event": e}))

    def end_command(self, battle: Battle) -> None:
        self.last_hash = battle.state_hash()
        self.lines.append(dumps({"t": "hash", "n": self.n, "hash": self.last_hash}))
        self.n += 1

    def trailer(self) -> str:
        """The last line: how many commands were resolved and the final state hash, so a log
        cut short or missing a block is a divergence, not a shorter valid log."""
        return dumps({"t": "end", "commands": self.n, "hash": self.last_hash})

    def text(self, upto: int | None = None) -> str:
        """The log: every line (or the first ``upto``, which must end after a resolved command)
        and the trailer."""
        return "\n".join(self.lines[:upto] + [self.trailer()]) + "\n"


def write_atomic(path: str | Path, text: str) -> None:
    """Write a file atomically: a temporary file in the same folder, then rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


@dataclass
class Divergence:
    line: int  # 1-based line in the log
    command: int | str  # the command's number, or "header" / "trailer"
    expected: str
    found: str

    def __str__(self) -> str:
        where = f"command {self.command}" if isinstance(self.command, int) else self.command
        return (f"diverged at line {self.line} ({where}):\n"
                f"  expected: {self.expected}\n  found:    {self.found}")


def read_log(path: str | Path) -> list[dict]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise LogError(f"{path}: cannot read the log: {e.strerror or e}") from None
    recs = []
    for i, line in enumerate(text.splitlines(), 1):
        try:
            recs.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise LogError(f"{path}: line {i}: expected a JSON object, found invalid JSON ({e.msg})") from None
        if not isinstance(recs[-1], dict) or "t" not in recs[-1]:
            raise LogError(f"{path}: line {i}: expected a log record with a 't' field")
    if not recs or recs[0].get("t") != "header" or recs[0].get("format") != FORMAT:
        raise LogError(f"{path}: line 1: expected a {FORMAT} header")
    if recs[0].get("version") != VERSION:
        raise LogError(f"{path}: line 1: expected log version {VERSION}, found {recs[0].get('version')!r}")
    return recs


def resolve_scenario(log_path: Path, name: str) -> Path:
    candidates = [Path(name), log_path.parent / name, log_path.parent.parent / Path(name).name,
                  log_path.parent.parent.parent / name]
    for c in candidates:
        if c.is_file():
            return c
    raise LogError(f"{log_path}: the scenario {name!r} it was recorded from was not found")


def logged_decisions(recs) -> dict[int, list]:
    """The answers a log recorded, per command: each decision event's answer, or, where a
    script's standing answer was fitted to the request (the event keeps it, with a note), that
    answer again (sim.decisions.Scripted), so replaying fits it and reproduces the note."""
    answers: dict[int, list] = {}
    for r in recs:
        if r["t"] == "event" and r["event"].get("type") == "decision":
            e = r["event"]
            answers.setdefault(r["n"], []).append(Scripted(e["scripted"]) if "scripted" in e else e["answer"])
    return answers


def logged_answers(values):
    """Answer a command's decisions with the answers a log recorded for it, in order
    (logged_decisions)."""
    queue = list(values)

    def answer(req):
        if not queue:
            raise Refusal(f"a {req.kind} decision was asked that the log does not answer")
        return queue.pop(0)
    return answer


def logged_left_out(recs) -> dict[int, str]:
    """Per command, the script step whose targets shorthand left models out (the ``left out``
    event names it): a replay expands that step again to say who and why."""
    return {r["n"]: r["event"].get("step") for r in recs
            if r["t"] == "event" and r["event"].get("type") == ev.LEFT_OUT}


def replay_command(battle: Battle, cmd, answers: list, step=None) -> None:
    """Apply a logged command as sim.runner.play applied it: submit it, note what its script
    ``step`` (if the log says its shorthand left models out) left out, expanded again from the
    scenario, and resolve it with the log's answers (logged_decisions)."""
    left_out = expand(battle, step).left_out if step is not None else []
    battle.submit(cmd)
    if step is not None:
        note_left_out(battle, step, left_out)
    battle.resolve(logged_answers(answers))


def replay(path: str | Path) -> tuple[int, Divergence | None]:
    """Re-execute a log and compare every record. Returns (commands replayed, first divergence)."""
    from sim.scenario.load import load_scenario
    path = Path(path)
    recs = read_log(path)
    head = recs[0]
    spath = resolve_scenario(path, head["scenario"])
    scenario = load_scenario(spath)
    if scenario.digest != head.get("digest"):
        raise LogError(f"{path}: the scenario {head['scenario']} has changed since this log was "
                       f"recorded (digest {head.get('digest', '?')[:12]}..., now {scenario.digest[:12]}...); "
                       f"re-record the log with 'sim run {head['scenario']} --log {path}'")
    commands = [r for r in recs if r["t"] == "command"]
    answers = logged_decisions(recs)
    steps = {s.where: s for s in scenario.script}
    left_out = logged_left_out(recs)
    with Battle(scenario, seed=head["seed"]) as battle, frozen_heap():
        rec = Recorder(battle, head["scenario"])
        for c in commands:
            n = c["n"]
            try:
                cmd = command_from_dict(c["command"])
            except (KeyError, ValueError, TypeError, IndexError):
                raise LogError(f"{path}: command {n}: expected a valid command, found {c['command']!r}") from None
            rec.command(cmd)
            try:
                replay_command(battle, cmd, answers.get(n, []), steps.get(left_out.get(n)))
            except Refusal as e:
                rec.lines.append(dumps({"t": "refused", "n": n, "reason": str(e)}))
                break
            rec.end_command(battle)
        produced = rec.lines + [rec.trailer()]
    original = [dumps(r) for r in recs]
    if recs[-1].get("t") != "end":
        # cut short: compare what is there, then name the missing trailer
        produced = produced[:-1]
    for i, (a, b) in enumerate(zip(original, produced)):
        if a != b:
            n = recs[i].get("n", "trailer") if i else "header"
            return len(commands), Divergence(i + 1, n, a, b)
    if len(original) != len(produced):
        i = min(len(original), len(produced))
        exp = original[i] if i < len(original) else "<end of log>"
        got = produced[i] if i < len(produced) else "<end of replay>"
        return len(commands), Divergence(i + 1, "trailer" if i == len(produced) - 1 else "end", exp, got)
    if recs[-1].get("t") != "end":
        return len(commands), Divergence(len(recs) + 1, "trailer", rec.trailer(),
                                         "<end of log: no trailer, the log was cut short>")
    return len(commands), None
