"""What a command record is made of: its fields (one serialised shape, read and written for
replay logs, scenario scripts and the sandbox alike) and the record itself (where a battle
accepts it, its check, its apply, its words in the report).

A command kind is one record (``CommandRecord``) in one registry (``sim.commands``): a frozen
dataclass for its data, the fields it serialises, the phase and step of a battle with a mission
that accept it, its check (calling the single rule functions; a refusal is a PlanError whose
text names the section), its apply (what the systems run once it is accepted: nothing, or a
generator that may wait for decisions) and its line in the battle report. Nothing else in the
code names a command class or kind to dispatch on it: the battle, the replay log, validation,
the phase gate, the report, the players and the sandbox ask the record
(tests/commands/test_command_homes.py keeps it so). README, "Adding a command", walks through
one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from sim.rules.grid import snap_faces, snap_places, snap_turns
from sim.rules.turn import FightStep, Phase, PreBattleStep

MISSING = object()  # (a field with no default must be given)


def _is_str(v) -> bool:
    return type(v) is str


def _is_number(v) -> bool:
    return type(v) in (int, float) and math.isfinite(v)


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a command, as its JSON form writes and reads it.

    ``what`` says what it must be (for a log's "expected ... to be <what>"); ``valid`` tests a
    JSON value; ``each`` (for a list) tests each element, with ``each_what`` for the message;
    ``dump``/``load`` convert between the command's value and JSON; ``default`` is what a
    missing field means (MISSING: it must be there); ``omit`` leaves the field out of the JSON
    form when it holds its default value (so logs of commands that never use a field read as
    before it existed)."""

    name: str
    what: str
    valid: Callable[[Any], bool]
    dump: Callable[[Any], Any] = lambda v: v
    load: Callable[[Any], Any] = lambda v: v
    default: Any = MISSING
    omit: bool = False
    each: Callable[[Any], bool] | None = None
    each_what: str = ""
    each_problem: Callable[[Any, Callable], str | None] | None = None  # (element, kind_of): a nested check

    def problem(self, d: dict, kind_of: Callable[[Any], str]) -> str | None:
        """Why the JSON object ``d`` cannot hold this field, or None: 'expected a field ...',
        'expected 'x' to be ...', 'expected each 'x' to be ...' (``kind_of`` describes a value)."""
        if self.name not in d:
            if self.default is MISSING:
                return f"expected a field {self.name!r} ({self.what}), found none"
            return None
        v = d[self.name]
        if not self.valid(v):
            return f"expected {self.name!r} to be {self.what}, found {kind_of(v)}"
        if self.each is not None:
            for x in v:
                if not self.each(x):
                    return f"expected each {self.name!r} to be {self.each_what}, found {kind_of(x)}"
        if self.each_problem is not None:
            for x in v:
                problem = self.each_problem(x, kind_of)
                if problem:
                    return problem
        return None

    def read(self, d: dict):
        """The command's value of this field from its JSON form (checked already)."""
        if self.name not in d:
            return self.default
        return self.load(d[self.name])

    def write(self, value, out: dict) -> None:
        if self.omit and value == self.default:
            return
        out[self.name] = self.dump(value)


# --- the field shapes commands share --------------------------------------------------------

def _placement(t) -> bool:
    return isinstance(t, list) and len(t) == 3 and _is_str(t[0]) and _is_number(t[1]) and _is_number(t[2])


def _turning(v) -> bool:
    return (isinstance(v, list) and len(v) == 2 and _is_str(v[0]) and isinstance(v[1], list)
            and all(isinstance(p, list) and len(p) == 2 and _is_number(p[0]) and _is_number(p[1]) for p in v[1]))


def _load_to(rows) -> tuple:
    return tuple((str(t[0]), float(t[1]), float(t[2])) for t in rows)


def _load_via(rows) -> tuple:
    return tuple((str(mid), tuple((float(p[0]), float(p[1])) for p in pts)) for mid, pts in rows)


def _dump_via(via) -> list:
    return [[mid, [list(p) for p in pts]] for mid, pts in via]


UNIT = Field("unit", "a unit id", _is_str)
TO = Field("to", "a list", lambda v: isinstance(v, list), dump=lambda v: [list(t) for t in v], load=_load_to,
           each=_placement, each_what="[model id, x, y]")
"""Each moving (or arriving) model's end position: ((model id, x, y), ...)."""
VIA = Field("via", "a list", lambda v: isinstance(v, list), dump=_dump_via, load=_load_via, default=(),
            omit=True, each=_turning, each_what="[model id, [[x, y], ...]]")
"""Part A ruling 14: each model's turning points, if its path is not straight."""
FACE = Field("face", "a list", lambda v: isinstance(v, list), dump=lambda v: [list(t) for t in v],
             load=lambda rows: tuple((str(t[0]), float(t[1])) for t in rows), default=(), omit=True,
             each=lambda t: isinstance(t, list) and len(t) == 2 and _is_str(t[0]) and _is_number(t[1]),
             each_what="[model id, degrees]")
"""03.01 the facing each model that turns ends its move (or is set up) at, in degrees; a model
left out keeps its own."""
FLY = Field("fly", "true or false (21.03 take to the skies)", lambda v: type(v) is bool, default=False, omit=True)
TARGETS = Field("targets", "a list of unit ids", lambda v: isinstance(v, list) and all(_is_str(t) for t in v),
                dump=list, load=lambda v: tuple(str(t) for t in v))
"""The enemy units a move is made toward (11.04 a charge's targets)."""
SELECTED = Field("targets", "a list of unit ids", TARGETS.valid, dump=list, load=TARGETS.load, default=(), omit=True)
"""The enemy units a pile-in or consolidation move selects (12.03, 12.08); none given: the
selection Part A ruling 18 makes."""


def on_grid(cmd) -> None:
    """The ``__post_init__`` of every command that carries positions (``to``, and ``via`` where
    it has one): each position is put on the measuring grid (sim.rules.grid) as the command is
    made, whoever proposes it (a solver, a player, a script, the sandbox, a replay log), so the
    check, the apply and the log all see the one snapped position, and numpy's last bits never
    reach a command."""
    object.__setattr__(cmd, "to", snap_places(cmd.to))
    via = getattr(cmd, "via", None)
    if via:
        object.__setattr__(cmd, "via", snap_turns(via))
    face = getattr(cmd, "face", None)
    if face:
        object.__setattr__(cmd, "face", snap_faces(face))


def optional_str(name: str, what: str) -> Field:
    """A string that may be left out (None)."""
    return Field(name, what, _is_str, default=None, omit=True)


def mode_field(what: str, default=MISSING, omit: bool = False) -> Field:
    """A mode chosen by name (a move type, a fight type...): a string in the JSON form; whether
    the name is one the command takes is its check's (which names the rule)."""
    return Field("mode", what, _is_str, default=default, omit=omit)


# --- the record ---------------------------------------------------------------------------

def _silent(_c: dict) -> None:
    return None


@dataclass(frozen=True, eq=False)
class CommandRecord:
    """One command kind: everything the code needs to know about it, in one place."""

    kind: str  # the "kind" of its JSON form
    cls: type  # the frozen dataclass of its data
    section: str  # the rule that places it in its phase or step (07.02: the phase gate's messages)
    summary: str  # one line: what it does (README, the sandbox's help)
    fields: tuple[Field, ...]
    check: Callable[[Any, Any], None]  # (battle, command): raises PlanError with the refusal
    apply: Callable[[Any, Any], Iterator | None]  # (battle, command): run by CommandSystem
    describe: Callable[[dict], str | None] = _silent  # the report's line for its JSON form
    phase: Phase | None = None  # 07.02 the phase of a battle with a mission that accepts it (None: any)
    step: FightStep | None = None  # the Fight phase's step that accepts it (12.02-12.08)
    free_play: bool = True  # accepted in a battle without a mission
    mission: bool = True  # accepted in a battle with a mission (else ``in_mission`` says why not)
    in_mission: str = ""
    opens_battle: bool = False  # 07 accepted only before battle round 1 (and then nothing else is)
    # 26 the pre-battle steps that accept it (a battle deployed by the rules, before round 1)
    pre_battle: tuple[PreBattleStep, ...] = ()
    in_rounds: bool = True  # accepted in the battle rounds (False: only in a pre-battle step)
    selects_to_fight: bool = False  # 12.04 it selects a unit to fight (the Fight step's forced picks apply)
    fights: bool = False  # 12.06 it is the fight itself (what an overrun fight owes next)
    attacks: bool = False  # its unit makes attacks, resolved step by step by the attack systems
    boundary: str = ""  # what it closes ("the phase it ended"): the sandbox's undo stops before it
    script_step: str = ""  # the scenario script's step (its TOML key) that starts with this command

    def to_dict(self, cmd) -> dict:
        out = {"kind": self.kind}
        for f in self.fields:
            f.write(getattr(cmd, f.name), out)
        return out

    def from_dict(self, d: dict):
        return self.cls(**{f.name: f.read(d) for f in self.fields})

    def shape_problem(self, d: dict, kind_of: Callable[[Any], str]) -> str | None:
        """Why ``d`` is not this command's JSON form (its first bad field), or None."""
        for f in self.fields:
            problem = f.problem(d, kind_of)
            if problem:
                return problem
        return None
