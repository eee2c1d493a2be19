"""What a stratagem record is made of (15): its data (CP cost, whose turn, phase and window, what
it may target and the facts that target must have, its limits), the moment it is offered at,
and the machinery every record's offer shares (the 15.01 limits, checked by the pure rule
sim.rules.stratagems.refusal with the facts worked out here, never vouched for by a caller;
paying for a use).

A stratagem is one record (``StratagemRecord``) in one registry (sim.stratagems.registry): its
data, and its ``offer``: a generator that, at a moment its window opens, works out what the
player may use it on, asks (a ``stratagem`` decision; the default answer is Part A ruling 25's),
pays and carries out its effect. The battle round, the commands and the attack systems only say
which moment it is (``Moment``, through Battle.offer); they never name a stratagem."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import esper

from sim import events as ev
from sim.components import Unit
from sim.decisions import DecisionRequest, ask
from sim.rules import stratagems as SG
from sim.rules.stratagems import Moment, Roll  # noqa: F401  (the records' offers take them)
from sim.rules.turn import PLAYER
from sim.world import queries as W
from sim.systems.rule_effects import spend_stratagem_cost
from sim.world import rule_reads as RX

USE, DECLINE = "use", "decline"


@dataclass(frozen=True, slots=True)
class Fact:
    """A fact about a stratagem's target the rule checks itself (15.01, each record's WHO):
    its name, as refusals print it ("unengaged"), and how it is read off the battle."""

    name: str
    holds: Callable[[Any, int], bool]  # (battle, unit entity) -> whether the unit has it


@dataclass(frozen=True, eq=False)
class StratagemRecord:
    """15.01 One stratagem: CP cost, when (whose turn, phase, window), target, effect, limits.

    ``needs`` are facts its target must have (checked by the rule: ``allowed``);
    ``keywords_any``: the target needs one of these keywords; ``keywords_none``: it may have none
    of these; ``vehicle_needs_any``: a VEHICLE target needs one of these as well. ``extra`` names
    an optional "+N CP" section and its N. ``not_in_rounds``: battle rounds it cannot be used
    in. ``rolls``: the rolls it may follow. ``offer``: (battle, player, moment) -> a generator
    that offers it and carries it out, returning whether it was used."""

    name: str
    section: str
    cp: int
    turn: str
    phase: str
    window: str
    paraphrase: str
    target: str
    offer: Callable[[Any, int, Moment], Any]
    needs: tuple[Fact, ...] = ()
    keywords_any: tuple[str, ...] = ()
    keywords_none: tuple[str, ...] = ()
    vehicle_needs_any: tuple[str, ...] = ()
    extra: tuple[str, int] | None = None
    once_per_battle: bool = False
    not_in_rounds: tuple[int, ...] = ()
    rolls: tuple[str, ...] = ()

    def cost_of(self, option) -> int:
        """15.01 What using it as ``option`` (an answer its offer gives) costs: with the optional
        "+N CP" section when the option names it ("unit: Into the Fray")."""
        extra = self.extra is not None and str(option).endswith(f": {self.extra[0]}")
        return SG.cost(self, extra=extra)


# --- 15.01 the limits, and paying -----------------------------------------------------------

def context(battle, record, player: int, target: str | None, *, window: str, roll=None,
            battle_shocked: bool = False) -> dict:
    """The keyword arguments of sim.rules.stratagems.refusal for ``player`` using ``record`` on
    ``target`` now (the target's facts and keywords aside: ``allowed`` adds them)."""
    ts = battle.turn_state
    return dict(cp=ts.cp[player], phase=str(ts.phase), window=window,
                whose_turn=SG.YOURS if ts.active == player else SG.OPPONENT,
                used_this_phase=ts.stratagems_used[player], target=target,
                units_targeted_this_phase=ts.stratagem_targets[player],
                target_battle_shocked=battle_shocked, used_once_per_battle=ts.once_per_battle[player],
                round=ts.round, roll=roll, cost_modifier=RX.stratagem_cost_modifier(battle, record.name, target))


def usable_at_all(battle, record, player: int, window: str) -> bool:
    """15.01 The limits that do not depend on the target (the turn, phase and window, once per
    phase, the CP) allow ``player`` to use ``record`` now: without them, nothing is worth
    looking for."""
    if battle.turn_state is None:
        return False
    return SG.refusal(record, **context(battle, record, player, None, window=window)) is None


def allowed(battle, record, player: int, u: int, window: str, **more) -> bool:
    """15.01 and the record's target conditions allow ``player`` to use ``record`` on unit
    ``u``: the facts it needs are read off the battle here (``Fact.holds``), with its keywords."""
    ctx = context(battle, record, player, _uid(u), window=window, battle_shocked=W.unit_state(u).battle_shocked)
    ctx.update(target_facts=[f.name for f in record.needs if f.holds(battle, u)],
               target_keywords=W.unit_keywords(u), **more)
    return SG.refusal(record, **ctx) is None


def pay(battle, record, player: int, target: str | None, about: str, extra: bool = False) -> None:
    """A use, paid for (15.01: its cost, with the optional "+N CP" section if ``extra``) and
    recorded for the limits (once per phase, one per unit per phase, once per battle)."""
    ts = battle.turn_state
    price = SG.cost(record, extra=extra, modifier=RX.stratagem_cost_modifier(battle, record.name, target))
    spend_stratagem_cost(battle, record.name, target)  # (a limited cost change is used up)
    ts.cp[player] -= price
    ts.stratagems_used[player].append(record.name)
    if target is not None:
        ts.stratagem_targets[player].append(target)
    if record.once_per_battle:
        ts.once_per_battle[player].append(record.name)
    battle.emit(ev.STRATAGEM, player=PLAYER[player], stratagem=record.name, section=record.section,
                cp=price, cp_left=ts.cp[player], target=target, about=about)


def _uid(ent: int) -> str:
    return esper.component_for_entity(ent, Unit).id


def own_units(player: int) -> list[int]:
    """The player's units on the battlefield with models left, in unit order."""
    return [u for u in W.all_units() if esper.component_for_entity(u, Unit).owner == player
            and not W.unit_destroyed(u) and not W.in_reserves(u)]


def choose(battle, record, player: int, key: str, options: list, prompt: str, *, target: str | None = None,
           use: bool = True):
    """Ask ``player`` which of ``options`` to use ``record`` on, or to decline (the default,
    Part A ruling 25); a generator returning the answer. ``key`` tells the request apart in its
    activation; a script's "use" stands for the first option (``use``)."""
    context = {"stratagem": record.name}
    if target is not None:
        context["target"] = target
    if use:
        context["use"] = options[0]
    req = DecisionRequest("stratagem", key, player, options + [DECLINE], DECLINE, prompt=prompt, context=context)
    return (yield from ask(battle, req))


uid = _uid


def pair(unit: str, target: str) -> str:
    """A decision option naming a unit and the enemy unit it is used against: 'b1 -> r1' (a
    script answers with the same words)."""
    return f"{unit} -> {target}"
