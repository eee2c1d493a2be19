"""10.02 Select a unit to shoot: the Shoot command. Its check is the shooting plan (04.01/04.02
with the shooting type, 10.02-10.07, and 24.26 [ONE SHOT]); once accepted, the unit's
activation starts and the attack systems resolve it step by step."""

from __future__ import annotations

from dataclasses import dataclass

from sim.commands.base import UNIT, CommandRecord, Field, optional_str
from sim.plan.common import Selection
from sim.plan.validated import validated_shoot
from sim.rules import stratagems as SG
from sim.rules.stratagems import Moment
from sim.rules.turn import Phase
from sim.systems.activation import select_to_shoot
from sim.world import queries as W


@dataclass(frozen=True, slots=True)
class Shoot:
    """10.02 Select a unit to shoot, with a shooting type (None = the default choice) and its
    weapons and targets (one Selection per model and weapon). ``firing_deck``: 24.14, the
    embarked models that lend the transport a ranged weapon each, (model id, weapon name); the
    transport's first living model has them as well as its own until its attacks are resolved,
    and its selections name them as its own."""

    unit: str
    selections: tuple[Selection, ...]
    type: str | None = None
    firing_deck: tuple[tuple[str, str], ...] = ()


def _selection_problem(s, kind_of) -> str | None:
    if not isinstance(s, dict):
        return f"expected each selection to be an object, found {kind_of(s)}"
    for key, what, ok in (("model", "a model id", lambda v: type(v) is str),
                          ("weapon", "a weapon name", lambda v: type(v) is str)):
        if key not in s:
            return f"expected a field {key!r} ({what}), found none"
        if not ok(s[key]):
            return f"expected {key!r} to be {what}, found {kind_of(s[key])}"
    for key, what, ok in (("target", "a unit id", lambda v: type(v) is str),
                          ("attacks", "an integer", lambda v: type(v) is int)):
        if s.get(key) is not None and not ok(s[key]):
            return f"expected {key!r} to be {what}, found {kind_of(s[key])}"
    return None


def _dump_selection(s: Selection) -> dict:
    d = {"model": s.model, "weapon": s.weapon}
    if s.target is not None:
        d["target"] = s.target
    if s.attacks is not None:
        d["attacks"] = s.attacks
    return d


def _dump_selections(sels) -> list[dict]:
    """The selections' JSON form (_dump_selection each; the usual one, a weapon at a target with
    all its attacks, written inline: every Shoot command the battle accepts is logged)."""
    out = []
    for s in sels:
        if s.attacks is None and s.target is not None:
            out.append({"model": s.model, "weapon": s.weapon, "target": s.target})
        else:
            out.append(_dump_selection(s))
    return out


SELECTIONS = Field("selections", "a list", lambda v: isinstance(v, list),
                   dump=_dump_selections,
                   load=lambda rows: tuple(Selection(s["model"], s["weapon"], s.get("target"), s.get("attacks"))
                                           for s in rows),
                   default=(), each_problem=_selection_problem)
"""04.01/04.02 each model's selected weapons and their targets (04.03: a melee split's attacks)."""


def _is_pick(v) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(type(x) is str for x in v)


FIRING_DECK = Field("firing_deck", "a list", lambda v: isinstance(v, list), dump=lambda v: [list(p) for p in v],
                    load=lambda rows: tuple((str(m), str(w)) for m, w in rows), default=(), omit=True,
                    each=_is_pick, each_what="[embarked model id, weapon name]")
"""24.14 the embarked models whose ranged weapons the transport shoots with."""


def _check(battle, cmd: Shoot) -> None:
    battle.validated = validated_shoot(battle, cmd)


def _apply(battle, cmd: Shoot) -> None:
    """10.02 The unit is selected to shoot; in a battle with a mission, once it has shot the
    stratagems usable at any moment of its player's Shooting phase are offered again (15.05
    Explosives: "after each of their units has shot"). 24.14: when embarked models lend it
    weapons, every unit embarked in it is not eligible to shoot this turn."""
    if cmd.firing_deck:
        for u in W.passengers(battle.units[cmd.unit]):
            battle.changes.touched(u)
            W.unit_state(u).transport_fired = True
    select_to_shoot(battle, cmd, then=None if battle.turn_state is None else _after_shooting)


def _after_shooting(battle, ent: int):
    yield from battle.offer(Moment(SG.DURING_PHASE))


def targets_of(c: dict) -> str:
    """' at b1, b2': the units a Shoot or Fight command's selections target, in the order they
    are first named (the report's words for the command; a person reads them as names)."""
    sel = c.get("selections")
    targets = list(dict.fromkeys(s.get("target") for s in sel if isinstance(s, dict) and s.get("target"))) \
        if isinstance(sel, list) else []
    return f" at {', '.join(targets)}" if targets else ""


def _describe(c: dict) -> str:
    deck = ""
    if c.get("firing_deck"):
        deck = "; embarked models shoot from it: " + ", ".join(f"{m} ({w})" for m, w in c["firing_deck"]) + " (24.14)"
    return (f"== {c['unit']} is selected to shoot" + (f" ({c['type']})" if c.get("type") else "")
            + targets_of(c) + deck)


SHOOT = CommandRecord(
    "shoot", Shoot, "10.02", "select a unit to shoot, with its shooting type, weapons and targets",
    (UNIT, SELECTIONS, optional_str("type", "a shooting type"), FIRING_DECK), check=_check, apply=_apply,
    describe=_describe, phase=Phase.SHOOTING, attacks=True, script_step="shoot")
