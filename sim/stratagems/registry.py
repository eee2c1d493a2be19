"""The stratagem registry: every core stratagem's record, in the order they are offered when
several windows open at one moment (RULES §28: at the end of the opponent's Movement phase,
Fire Overwatch before Rapid Ingress), and the offer of everything a moment opens."""

from __future__ import annotations

from sim.rules import stratagems as SG
from sim.stratagems import (command_reroll, counteroffensive, crushing_impact, epic_challenge, explosives,
                            fire_overwatch, heroic_intervention, insane_bravery, rapid_ingress, smokescreen)
from sim.stratagems.base import Moment, StratagemRecord, context

REGISTRY: tuple[StratagemRecord, ...] = (
    command_reroll.RECORD, insane_bravery.RECORD, fire_overwatch.RECORD, rapid_ingress.RECORD,
    smokescreen.RECORD, explosives.RECORD, heroic_intervention.RECORD, epic_challenge.RECORD,
    crushing_impact.RECORD, counteroffensive.RECORD)

_BY_NAME = {r.name: r for r in REGISTRY}
_AT = {w: tuple(r for r in REGISTRY if r.window == w) for w in SG.WINDOWS}


def by_name(name: str) -> StratagemRecord:
    """15 The core stratagem called ``name`` (KeyError naming the known ones otherwise)."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown stratagem {name!r}; core stratagems: {', '.join(_BY_NAME)}") from None


def _players(battle, record: StratagemRecord, moment: Moment) -> tuple[int, ...]:
    """Who may use ``record`` at ``moment``: the moment's player, else as its turn says (yours:
    the player whose turn it is; the opponent's: the other; either: both, the active first)."""
    if moment.player is not None:
        return (moment.player,)
    active = battle.turn_state.active
    return {SG.YOURS: (active,), SG.OPPONENT: (1 - active,)}.get(record.turn, (active, 1 - active))


def offer_at(battle, moment: Moment):
    """Offer every stratagem whose window ``moment`` opens (a generator: each offer may wait for
    its answer), in the registry's order, to each player who may use it: a record is offered
    only when the limits that do not depend on its target allow it (15.01: the turn, phase and
    window, once per phase and per battle, the CP); its offer does the rest. Returns the names
    of those used (also kept in ``moment.used``). Free play has no CP: nothing is offered."""
    if battle.turn_state is None:
        return moment.used
    roll = None if moment.roll is None else moment.roll.kind
    for record in _AT[moment.window]:
        for player in _players(battle, record, moment):
            if SG.refusal(record, **context(battle, record, player, None, window=moment.window, roll=roll)) is not None:
                continue
            if (yield from record.offer(battle, player, moment)):
                moment.used.append(record.name)
    return moment.used


def roll_window_open(battle, player: int, unit: int) -> bool:
    """The quick look before a roll of the attack sequence is split for an offer (15.02): could
    ``player`` use a stratagem just after a roll for ``unit`` now? (False costs nothing.)"""
    return command_reroll.may_offer(battle, player, unit)


def offer_after_roll(battle, player: int, unit: int, roll):
    """The offer just after a roll of the attack sequence, for a system that re-enters until the
    answer is in: PENDING while it waits, None if nothing is used, else what was re-rolled
    (the die replaced in ``roll.dice``; sim.stratagems.command_reroll)."""
    return command_reroll.reroll_now(battle, player, unit, roll)
