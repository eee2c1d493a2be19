"""Record and verify replay logs (JSON Lines).

Line 1 is the header (format, version, scenario path and sha256 digest, seed). Then, per
command: the command, every event it caused (dice with their purpose and decisions included),
and the state hash once it is resolved. Same scenario + seed => byte-identical log."""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sim.battle import Battle
from sim import commands as C
from sim import events as ev
from sim.decisions import Scripted
from sim.errors import LogError, Refusal, ScenarioError, escape_controls
from sim.players.resolve import note_left_out
from sim.players.runner import frozen_heap
from sim.rules.dice import SEED_LIMIT
from sim.scenario.script_run import expand

FORMAT = "sim-replay"
VERSION = 1
_ON_THE_COMMAND_LINE = frozenset({ev.COMMAND, ev.REFUSED})  # (events a log writes as its command line)


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
        self.lines.append(dumps({"t": "command", "n": self.n, "command": C.to_dict(cmd)}))

    def _event(self, e: dict) -> None:
        if e["type"] in _ON_THE_COMMAND_LINE:
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


def write_log(path: str | Path, recorder: Recorder, upto: int | None = None) -> Path:
    """Write a recorder's log (its first ``upto`` lines and the trailer) so that `sim replay`
    finds its scenario: when the scenario the header names cannot be found from the log's
    folder (resolve_scenario; an absolute path, say), the scenario file is copied beside the
    log, named with its digest, and the header names the copy. Returns the log's path."""
    path = Path(path)
    lines = recorder.lines[:upto]
    head = json.loads(lines[0])
    try:
        resolve_scenario(path, head["scenario"])
    except LogError:
        src = Path(head["scenario"])
        try:
            raw = src.read_bytes() if _regular_toml(src) is None else b""
        except OSError:
            raw = b""
        if raw and hashlib.sha256(raw).hexdigest() == head["digest"]:
            name = f"{src.stem}-{head['digest'][:10]}.toml"
            write_atomic(path.parent / name, raw.decode("utf-8"))
            head["scenario"] = name
            lines = [dumps(head)] + lines[1:]
    write_atomic(path, "\n".join(lines + [recorder.trailer()]) + "\n")
    return path


SHOWN = 160  # characters of each record a divergence message shows


@dataclass
class Divergence:
    """The first line where a log and its replay differ: ``expected`` is the log's record,
    ``found`` the replay's (each whole; a log's record can be up to MAX_LINE long)."""

    line: int  # 1-based line in the log
    command: int | str  # the command's number, or "header" / "trailer"
    expected: str
    found: str

    def __str__(self) -> str:
        """One line of bounded length: each record cut to SHOWN characters around the place
        where the two first differ ("..." marks what is left out)."""
        where = f"command {self.command}" if isinstance(self.command, int) else self.command
        exp, found = _excerpts(self.expected, self.found)
        return escape_controls(f"diverged at line {self.line} ({where}): expected {exp}, found {found}")


def _excerpts(a: str, b: str, width: int = SHOWN) -> tuple[str, str]:
    """``a`` and ``b`` each cut to at most ``width`` characters (plus "..." where cut), the same
    stretch of both, starting a little before their first difference."""
    same = len(os.path.commonprefix([a, b]))
    start = max(0, min(same - width // 4, max(len(a), len(b)) - width))

    def cut(s: str) -> str:
        return ("..." if start else "") + s[start:start + width] + ("..." if start + width < len(s) else "")
    return cut(a), cut(b)


MAX_LOG_BYTES = 64 * 1024 * 1024  # a whole log (the longest golden is well under 1 MB)
# JSON values in a whole log, counted by what separates them (commas, colons, brackets, line
# ends; a real log has about one in seven bytes). Each value read costs tens of bytes of memory,
# so this, not the byte size, bounds what reading a log costs: 64 MB of "[]," is 21 million
# lists, more than a gigabyte. A golden log of 21 KB has 3,300; the bound is a log of ~25 MB.
MAX_VALUES = 4_000_000
MAX_LINE = 1024 * 1024  # one record
MAX_DEPTH = 32  # nesting of lists and objects in one record (records use 6 at most)
RECORD_TYPES = ("header", "command", "event", "hash", "end")


def _show(value, limit: int = 60) -> str:
    """A value from a log for a message: ASCII only (no control characters), kept short."""
    text = ascii(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _kind(value) -> str:
    """What a JSON value is, for 'found ...'."""
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
             list: "a list", dict: "an object", type(None): "null"}
    return f"{names.get(type(value), type(value).__name__)} {_show(value)}"


def _is_int(v) -> bool:
    return type(v) is int


def _read_bytes(path: Path) -> bytes:
    """The log's bytes: a regular file of at most MAX_LOG_BYTES, opened without blocking (a FIFO
    or a device is refused before anything is read from it)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise LogError(f"{path}: cannot read the log: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            what = ("a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode)
                    else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "a special file")
            raise LogError(f"{path}: expected a regular file, found {what}")
        if st.st_size > MAX_LOG_BYTES:
            raise LogError(f"{path}: expected a log of at most {MAX_LOG_BYTES} bytes, found {st.st_size} bytes")
        with os.fdopen(fd, "rb") as f:
            fd = -1
            data = f.read(MAX_LOG_BYTES + 1)
    except OSError as e:
        raise LogError(f"{path}: cannot read the log: {e.strerror or e}") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > MAX_LOG_BYTES:
        raise LogError(f"{path}: expected a log of at most {MAX_LOG_BYTES} bytes, found more")
    return data


def _no_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def _no_duplicates(pairs):
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise ValueError(f"the key {_show(k)} appears twice")
        obj[k] = v
    return obj


def _too_deep(value) -> bool:
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, dict)):
            if d > MAX_DEPTH:
                return True
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return False


def _parse_line(path: Path, i: int, raw: bytes):
    if len(raw) > MAX_LINE:
        raise LogError(f"{path}: line {i}: expected a record of at most {MAX_LINE} bytes, found {len(raw)} bytes")
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LogError(f"{path}: line {i}: expected UTF-8 text, found the byte 0x{raw[e.start]:02x} "
                       f"at column {e.start + 1}") from None
    try:
        rec = json.loads(line, parse_constant=_no_constant, object_pairs_hook=_no_duplicates)
    except RecursionError:
        raise LogError(f"{path}: line {i}: expected a JSON object, found nesting too deep to read") from None
    except ValueError as e:  # JSONDecodeError, a number of too many digits, NaN, a duplicate key
        raise LogError(f"{path}: line {i}: expected a JSON object, found invalid JSON "
                       f"({getattr(e, 'msg', None) or e})") from None
    if not isinstance(rec, dict):
        raise LogError(f"{path}: line {i}: expected a JSON object, found {_kind(rec)}")
    if _too_deep(rec):
        raise LogError(f"{path}: line {i}: expected a record nested at most {MAX_DEPTH} deep, found deeper nesting")
    return rec


def _fields(path: Path, i: int, rec: dict, spec: dict) -> None:
    """Check a record's fields: ``spec`` maps each required field to (test, what it must be)."""
    for key, (test, what) in spec.items():
        if key not in rec:
            raise LogError(f"{path}: line {i}: expected a field {key!r} ({what}), found none")
        if not test(rec[key]):
            raise LogError(f"{path}: line {i}: expected {key!r} to be {what}, found {_kind(rec[key])}")


def _is_str(v) -> bool:
    return type(v) is str


def _opt(test):
    return lambda v: v is None or test(v)


def _is_number(v) -> bool:
    return type(v) in (int, float) and math.isfinite(v)


def _check_command(path: Path, i: int, c) -> None:
    """A command as its record writes it (sim.commands); reading it then cannot fail."""
    if not isinstance(c, dict):
        raise LogError(f"{path}: line {i}: expected 'command' to be an object, found {_kind(c)}")
    problem = C.shape_problem(c, _kind)
    if problem:
        raise LogError(f"{path}: line {i}: {problem}")


def _check_record(path: Path, i: int, rec: dict, n: int) -> None:
    t = rec.get("t")
    if t == "command":
        _fields(path, i, rec, {"n": (_is_int, "the command's number"), "command": (lambda v: True, "")})
        if rec["n"] != n:
            raise LogError(f"{path}: line {i}: expected command number {n}, found {_kind(rec['n'])}")
        _check_command(path, i, rec["command"])
        return
    _fields(path, i, rec, {"n": (_is_int, "the command's number")})
    if n == 0 and t == "hash":
        raise LogError(f"{path}: line {i}: expected a command record first, found a hash record")
    if rec["n"] != max(n - 1, 0):
        raise LogError(f"{path}: line {i}: expected a record of command {max(n - 1, 0)}, found {_kind(rec['n'])}")
    if t == "hash":
        _fields(path, i, rec, {"hash": (_is_str, "a state hash")})
    else:  # event
        _fields(path, i, rec, {"event": (lambda v: isinstance(v, dict), "an object")})
        e = rec["event"]
        _fields(path, i, e, {"type": (_is_str, "an event type")})
        if e["type"] == ev.DECISION:
            _fields(path, i, e, {"answer": (lambda v: True, "")})
        elif e["type"] == ev.LEFT_OUT:
            _fields(path, i, e, {"step": (_is_str, "a script step")})


HEADER = {"format": (lambda v: v == FORMAT, f"{FORMAT!r}"),
          "version": (lambda v: _is_int(v) and v == VERSION, f"{VERSION} (the only log version)"),
          "scenario": (lambda v: _is_str(v) and 0 < len(v) <= 4096, "a scenario path"),
          "digest": (lambda v: _is_str(v) and len(v) == 64 and all(c in "0123456789abcdef" for c in v),
                     "a sha256 digest (64 hex digits)"),
          "seed": (lambda v: _is_int(v) and -SEED_LIMIT <= v <= SEED_LIMIT,
                   f"an integer seed from {-SEED_LIMIT} to {SEED_LIMIT}"),
          "name": (_is_str, "the scenario's name")}


def read_log(path: str | Path) -> list[dict]:
    """A log's records, checked field by field (LogError, one line, for anything malformed):
    the header, then command, event and hash records numbered in order, then at most a
    trailer, the last line. A missing trailer is left to replay() (a divergence)."""
    path = Path(path)
    data = _read_bytes(path)
    values = sum(data.count(c) for c in (b",", b":", b"[", b"{", b"\n"))
    if values > MAX_VALUES:
        raise LogError(f"{path}: expected a log of at most {MAX_VALUES} JSON values (counted by their commas, "
                       f"colons, brackets and line ends), found {values}")
    raws = data.split(b"\n")
    if raws and raws[-1] == b"":
        raws.pop()
    if not raws:
        raise LogError(f"{path}: line 1: expected a {FORMAT} header, found an empty file")
    recs = []
    n = 0  # the next command's number
    for i, raw in enumerate(raws, 1):
        rec = _parse_line(path, i, raw)
        t = rec.get("t")
        if i == 1:
            if t != "header":
                raise LogError(f"{path}: line 1: expected a {FORMAT} header, found {_show(t)} record"
                               if "t" in rec else f"{path}: line 1: expected a {FORMAT} header, found no 't' field")
            _fields(path, i, rec, HEADER)
        elif recs and recs[-1]["t"] == "end":
            raise LogError(f"{path}: line {i}: expected the end of the log after the trailer, found a record")
        elif t == "end":
            _fields(path, i, rec, {"commands": (_is_int, "a command count"), "hash": (_is_str, "a state hash")})
        elif t in ("command", "event", "hash"):
            _check_record(path, i, rec, n)
            n += t == "command"
        else:
            raise LogError(f"{path}: line {i}: expected a record type ({', '.join(RECORD_TYPES[1:])}), "
                           f"found {_kind(t) if 't' in rec else 'no t field'}")
        recs.append(rec)
    return recs


MAX_SCENARIO_BYTES = 16 * 1024 * 1024


def _regular_toml(path: Path) -> str | None:
    """Why ``path`` cannot be a log's scenario (None: it can): a regular ``.toml`` file of a
    sane size (os.stat does not open it, so a FIFO cannot block)."""
    if path.suffix != ".toml":
        return "not a .toml file"
    try:
        st = os.stat(path)
    except OSError:
        return "not found"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if st.st_size > MAX_SCENARIO_BYTES:
        return f"larger than {MAX_SCENARIO_BYTES} bytes"
    return None


def resolve_scenario(log_path: Path, name: str, explicit: str | Path | None = None) -> Path:
    """The scenario file a log was recorded from (README, Replays). ``explicit`` (``sim replay
    --scenario``) is taken as given, if it is a regular .toml file. Otherwise the header's
    relative path (no ``..``) is tried against the log's folder, its parent, its grandparent
    (so scenarios/replays/X.jsonl finds scenarios/X.toml) and the current folder; of an absolute
    path or one with ``..`` only the file name is looked for, in the log's folder. The file must
    be a regular .toml file inside the folder it is found from (a symlink may not lead out)."""
    log_path = Path(log_path)
    if explicit is not None:
        why = _regular_toml(Path(explicit))
        if why:
            raise LogError(f"{explicit}: expected a regular .toml scenario file (--scenario), found {why}")
        return Path(explicit)
    p = Path(name)
    if p.suffix != ".toml" or "\0" in name:
        raise LogError(f"{log_path}: line 1: expected 'scenario' to be a .toml file, found {_show(name)}")
    if p.is_absolute() or ".." in p.parts:
        bases, p = [log_path.parent], Path(p.name)
    else:
        bases = [log_path.parent, log_path.parent.parent, log_path.parent.parent.parent, Path(".")]
    for base in bases:
        c = base / p
        if _regular_toml(c) is None:
            try:
                inside = c.resolve().is_relative_to(base.resolve())
            except (OSError, RuntimeError):
                inside = False
            if inside:
                return c
    raise LogError(f"{log_path}: line 1: expected 'scenario' to name a scenario file beside the log or in "
                   f"its project, found {_show(name)} nowhere (give it with --scenario PATH)")


def load_logged_scenario(log_path: Path, spath: Path, head: dict):
    """Load the scenario a log names and check its digest. A scenario error says only that the
    file is not a valid scenario: the file may not be a scenario at all (a log can name any
    .toml file), and nothing of its content may be echoed, neither what was found nor where
    (an error's place is made of the file's own keys) nor what was expected (which can list its
    names). `sim check FILE`, asked of the file itself, says where and why."""
    from sim.scenario.load import load_scenario
    try:
        scenario = load_scenario(spath)
    except ScenarioError:
        raise LogError(f"{log_path}: line 1: expected 'scenario' to name a valid scenario, found {spath}, "
                       f"which is not one ('sim check {spath}' says where and why)") from None
    if scenario.digest != head["digest"]:
        name = ascii(head["scenario"])[1:-1]  # no control characters from the log on the terminal
        raise LogError(f"{log_path}: the scenario {name} has changed since this log was "
                       f"recorded (digest {head['digest'][:12]}..., now {scenario.digest[:12]}...); "
                       f"re-record the log with 'sim run {name} --log {log_path}'")
    return scenario


def open_log(path: str | Path, scenario: str | Path | None = None):
    """A log's records (read_log), the path of its scenario and the scenario loaded, its digest
    checked: what `sim replay` and the sandbox's replay viewer start from."""
    path = Path(path)
    recs = read_log(path)
    spath = resolve_scenario(path, recs[0]["scenario"], scenario)
    return recs, spath, load_logged_scenario(path, spath, recs[0])


def logged_decisions(recs) -> dict[int, list]:
    """The answers a log recorded, per command: each decision event's answer, or, where a
    script's standing answer was fitted to the request (the event keeps it, with a note), that
    answer again (sim.decisions.Scripted), so replaying fits it and reproduces the note."""
    answers: dict[int, list] = {}
    for r in recs:
        if r["t"] == "event" and r["event"].get("type") == ev.DECISION:
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
    """Apply a logged command as sim.players.runner.play applied it: submit it, note what its script
    ``step`` (if the log says its shorthand left models out) left out, expanded again from the
    scenario, and resolve it with the log's answers (logged_decisions)."""
    left_out = expand(battle, step).left_out if step is not None else []
    battle.submit(cmd)
    if step is not None:
        note_left_out(battle, step, left_out)
    battle.resolve(logged_answers(answers))


def replay(path: str | Path, scenario: str | Path | None = None) -> tuple[int, Divergence | None]:
    """Re-execute a log and compare every record. Returns (commands replayed, first divergence).
    ``scenario``: the scenario file to use instead of the one the log names (resolve_scenario)."""
    path = Path(path)
    recs, _, scenario = open_log(path, scenario)
    head = recs[0]
    commands = [r for r in recs if r["t"] == "command"]
    answers = logged_decisions(recs)
    steps = {s.where: s for s in scenario.script}
    left_out = logged_left_out(recs)
    original = [dumps(r) for r in recs]
    checked = 0  # the lines of the replay compared with the log so far
    with Battle(scenario, seed=head["seed"]) as battle, frozen_heap():
        rec = Recorder(battle, head["scenario"])
        for c in commands:
            n = c["n"]
            try:
                cmd = C.from_dict(c["command"])
            except (KeyError, ValueError, TypeError, IndexError):
                raise LogError(f"{path}: command {n}: expected a valid command, found {c['command']!r}") from None
            rec.command(cmd)
            try:
                replay_command(battle, cmd, answers.get(n, []), steps.get(left_out.get(n)))
            except Refusal as e:
                rec.lines.append(dumps({"t": "refused", "n": n, "reason": str(e)}))
                break
            except (TypeError, ValueError, KeyError, AttributeError, IndexError) as e:
                # a command or answer of the right shape that the rules cannot take at all
                raise LogError(f"{path}: line {recs.index(c) + 1}: expected command {n} and its logged answers "
                               f"to be playable, found {type(e).__name__}: {_show(str(e))}") from None
            rec.end_command(battle)
            if rec.lines[checked:] != original[checked:len(rec.lines)]:
                break  # the first difference is in this block: the rest need not be played
            checked = len(rec.lines)
        produced = rec.lines + [rec.trailer()]
    if recs[-1].get("t") != "end":
        # cut short: compare what is there, then name the missing trailer
        produced = produced[:-1]
    for i, (a, b) in enumerate(zip(original, produced)):
        if a != b:
            n = recs[i].get("n", "trailer") if i else "header"
            return len(commands), Divergence(i + 1, n, a, b)
    if len(original) < len(produced):  # the log ends early
        i = len(original)
        exp = "<end of log>" if recs[-1]["t"] == "end" else "<end of log: cut short, no trailer>"
        return len(commands), Divergence(i + 1, json.loads(produced[i]).get("n", "trailer"), exp, produced[i])
    if len(original) > len(produced):  # the log goes on where the replay stopped
        i = len(produced)
        return len(commands), Divergence(i + 1, recs[i].get("n", "trailer"), original[i], "<end of replay>")
    if recs[-1].get("t") != "end":
        return len(commands), Divergence(len(recs) + 1, "trailer", "<end of log: cut short, no trailer>",
                                         rec.trailer())
    return len(commands), None
