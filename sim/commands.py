"""Commands: the only way a battle changes (with decisions). Each is plain data that round-trips
through JSON for replay logs; scenario scripts and the sandbox produce the same commands."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Selection:
    """04.01/04.02 One model's selected weapon and its target. ``attacks`` splits a melee
    weapon's attacks between targets (04.03); None = all of them."""

    model: str
    weapon: str
    target: str | None
    attacks: int | None = None


@dataclass(frozen=True, slots=True)
class Shoot:
    """10.02 Select a unit to shoot, with a shooting type (None = the default choice) and its
    weapons and targets."""

    unit: str
    selections: tuple[Selection, ...]
    type: str | None = None
    kind: str = field(default="shoot", init=False)


@dataclass(frozen=True, slots=True)
class Fight:
    """12.04/12.05 Select a unit to fight, one melee weapon per model, targets and splits."""

    unit: str
    selections: tuple[Selection, ...]
    kind: str = field(default="fight", init=False)


@dataclass(frozen=True, slots=True)
class Move:
    """09.05-09.07 Move a unit's models to new positions: mode 'normal', 'advance' or 'fall back'.
    ``to`` holds (model id, x, y) for each model that moves; ``fly``: the unit takes to the
    skies (21.03: a FLY unit, 2" less, paths through all models and terrain features)."""

    unit: str
    to: tuple[tuple[str, float, float], ...]
    mode: str = "normal"
    via: tuple = ()  # (model id, ((x, y), ...)): the turning points of a model's path, if not straight
    fly: bool = False  # 21.03 take to the skies
    kind: str = field(default="move", init=False)


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the current turn: per-turn bookkeeping resets (the ranged attacks of this turn become
    'last turn' for 13.09 Hidden)."""

    kind: str = field(default="end turn", init=False)


@dataclass(frozen=True, slots=True)
class StartBattle:
    """26 steps 10-12: roll off for the first turn (unless the mission names the first player)
    and begin battle round 1. Only in a battle with a mission, and first."""

    kind: str = field(default="start battle", init=False)


@dataclass(frozen=True, slots=True)
class EndPhase:
    """07.02 The player who has the choice is done with it: the phase (or, in the Fight phase,
    their part of the step: 12.02, 12.07; in the Fight step a pass, 12.04.01) ends. Only in a
    battle with a mission."""

    kind: str = field(default="end phase", init=False)


@dataclass(frozen=True, slots=True)
class SelectToMove:
    """09.02 Select a unit to move with a move type, before any model moves: 'stationary'
    (09.04, the whole move), 'advance' (09.06: the advance roll is made now, before moving),
    'desperate escape' (09.07: its hazard rolls are made now, before moving)."""

    unit: str
    mode: str
    kind: str = field(default="select to move", init=False)


@dataclass(frozen=True, slots=True)
class Ingress:
    """20.04 An ingress move: a unit in strategic reserves is set up on the battlefield, each
    model at its position."""

    unit: str
    to: tuple[tuple[str, float, float], ...]
    kind: str = field(default="ingress", init=False)


@dataclass(frozen=True, slots=True)
class DeclareCharge:
    """11.02 steps 1-2: declare a charge with a unit and make its charge roll (2D6)."""

    unit: str
    kind: str = field(default="declare charge", init=False)


@dataclass(frozen=True, slots=True)
class ChargeMove:
    """11.02 step 3 / 11.04: the charge targets and each model's end position; no targets =
    the charge is not made (nothing moves). ``fly``: the unit takes to the skies (21.03)."""

    unit: str
    targets: tuple[str, ...]
    to: tuple[tuple[str, float, float], ...]
    via: tuple = ()  # (model id, ((x, y), ...)): turning points (Part A ruling 14), if any
    fly: bool = False  # 21.03 take to the skies
    kind: str = field(default="charge move", init=False)


@dataclass(frozen=True, slots=True)
class PileIn:
    """12.02/12.03 A pile-in move: each moving model's end position."""

    unit: str
    to: tuple[tuple[str, float, float], ...]
    via: tuple = ()  # (model id, ((x, y), ...)): turning points (Part A ruling 14), if any
    kind: str = field(default="pile in", init=False)


@dataclass(frozen=True, slots=True)
class Consolidate:
    """12.07/12.08 A consolidation move: each moving model's end position; the mode (ongoing,
    engaging, objective) is the compulsory one for the unit's position (12.08)."""

    unit: str
    to: tuple[tuple[str, float, float], ...]
    via: tuple = ()  # (model id, ((x, y), ...)): turning points (Part A ruling 14), if any
    kind: str = field(default="consolidate", init=False)


@dataclass(frozen=True, slots=True)
class Overrun:
    """12.06 Select a unit to fight with the overrun fight type: its one additional pile-in
    move (12.03; each moving model's end position, none = it does not pile in), then its
    fight, which is the next command (a Fight for this unit)."""

    unit: str
    to: tuple[tuple[str, float, float], ...] = ()
    via: tuple = ()  # (model id, ((x, y), ...)): turning points (Part A ruling 14), if any
    kind: str = field(default="overrun", init=False)


Command = (Shoot | Fight | Move | EndTurn | StartBattle | EndPhase | SelectToMove | Ingress | DeclareCharge
           | ChargeMove | PileIn | Consolidate | Overrun)

_PLACED = {"pile in": PileIn, "consolidate": Consolidate, "overrun": Overrun}


def _selection(s: Selection) -> dict:
    d = {"model": s.model, "weapon": s.weapon}
    if s.target is not None:
        d["target"] = s.target
    if s.attacks is not None:
        d["attacks"] = s.attacks
    return d


def command_to_dict(cmd: Command) -> dict:
    """JSON-safe form of a command (None fields left out), as the replay log stores it."""
    if isinstance(cmd, (Shoot, Fight)):
        selections = []
        for s in cmd.selections:
            if s.attacks is None and s.target is not None:  # (the usual selection)
                selections.append({"model": s.model, "weapon": s.weapon, "target": s.target})
            else:
                selections.append(_selection(s))
        d = {"kind": cmd.kind, "unit": cmd.unit, "selections": selections}
        if isinstance(cmd, Shoot) and cmd.type is not None:
            d["type"] = cmd.type
        return d
    if isinstance(cmd, Move):
        return _fly(cmd, _via(cmd, {"kind": cmd.kind, "unit": cmd.unit, "mode": cmd.mode,
                                    "to": [list(t) for t in cmd.to]}))
    if isinstance(cmd, ChargeMove):
        return _fly(cmd, _via(cmd, {"kind": cmd.kind, "unit": cmd.unit, "targets": list(cmd.targets),
                                    "to": [list(t) for t in cmd.to]}))
    if isinstance(cmd, (PileIn, Consolidate, Overrun)):
        return _via(cmd, {"kind": cmd.kind, "unit": cmd.unit, "to": [list(t) for t in cmd.to]})
    if isinstance(cmd, SelectToMove):
        return {"kind": cmd.kind, "unit": cmd.unit, "mode": cmd.mode}
    if isinstance(cmd, Ingress):
        return {"kind": cmd.kind, "unit": cmd.unit, "to": [list(t) for t in cmd.to]}
    if isinstance(cmd, DeclareCharge):
        return {"kind": cmd.kind, "unit": cmd.unit}
    return {"kind": cmd.kind}


def command_from_dict(d: dict) -> Command:
    kind = d.get("kind")
    if kind in ("shoot", "fight"):
        sels = tuple(Selection(s["model"], s["weapon"], s.get("target"), s.get("attacks"))
                     for s in d.get("selections", ()))
        if kind == "shoot":
            return Shoot(d["unit"], sels, d.get("type"))
        return Fight(d["unit"], sels)
    if kind == "move":
        return Move(d["unit"], tuple((t[0], float(t[1]), float(t[2])) for t in d["to"]),
                    d.get("mode", "normal"), _via_from(d), _fly_from(d))
    if kind == "end turn":
        return EndTurn()
    if kind == "end phase":
        return EndPhase()
    if kind == "start battle":
        return StartBattle()
    if kind == "select to move":
        return SelectToMove(d["unit"], d["mode"])
    if kind == "declare charge":
        return DeclareCharge(d["unit"])
    if kind == "ingress":
        return Ingress(d["unit"], _to(d["to"]))
    if kind == "charge move":
        return ChargeMove(d["unit"], tuple(str(t) for t in d["targets"]), _to(d["to"]), _via_from(d),
                          _fly_from(d))
    if kind in _PLACED:
        return _PLACED[kind](d["unit"], _to(d["to"]), _via_from(d))
    raise ValueError(f"unknown command kind {kind!r}")


def _to(rows) -> tuple[tuple[str, float, float], ...]:
    return tuple((t[0], float(t[1]), float(t[2])) for t in rows)


def _via(cmd, d: dict) -> dict:
    if cmd.via:
        d["via"] = [[mid, [list(p) for p in pts]] for mid, pts in cmd.via]
    return d


def _fly(cmd, d: dict) -> dict:
    if cmd.fly:  # (left out when false: logs of ground moves read as before)
        d["fly"] = True
    return d


def _fly_from(d: dict) -> bool:
    fly = d.get("fly", False)
    if not isinstance(fly, bool):
        raise ValueError(f"'fly' is true or false, found {fly!r}")
    return fly


def _via_from(d: dict) -> tuple:
    return tuple((str(mid), tuple((float(p[0]), float(p[1])) for p in pts)) for mid, pts in d.get("via", ()))
