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
    ``to`` holds (model id, x, y) for each model that moves."""

    unit: str
    to: tuple[tuple[str, float, float], ...]
    mode: str = "normal"
    kind: str = field(default="move", init=False)


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the current turn: per-turn bookkeeping resets (the ranged attacks of this turn become
    'last turn' for 13.09 Hidden)."""

    kind: str = field(default="end turn", init=False)


Command = Shoot | Fight | Move | EndTurn


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
        return {"kind": cmd.kind, "unit": cmd.unit, "mode": cmd.mode, "to": [list(t) for t in cmd.to]}
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
                    d.get("mode", "normal"))
    if kind == "end turn":
        return EndTurn()
    raise ValueError(f"unknown command kind {kind!r}")
