"""15.02 Command Re-roll after the rolls of the attack sequence and the hazard rolls: the roll
for the number of attacks (a random A, an ability's random extra attacks), the hit, wound and
save rolls, the damage rolls, and the hazard rolls (06.03: after a [HAZARDOUS] unit's attacks,
and a Desperate Escape's, 09.07). The advance and charge rolls are offered theirs in
sim.systems.phased.

The step that rolls keeps its dice, asks, and judges them only once the answer is in (with the
chosen die replaced). It is asked only when it can matter and the rules allow it:

* a battle with a mission (free play tracks no CP: never), the player has the CP, has not used
  Command Re-roll this phase, has not targeted the unit with a stratagem this phase and the
  unit is not battle-shocked (15.01: ``may_offer`` is the quick look before the roll is split,
  the registry's ``refusal`` the full check);
* one die at least could come out better, some face of it giving a better result under the
  rules the step applies (sim.rules.command_reroll): a failed hit, wound or save (against a
  model of the target that one of the six results would save; the defender's roll, so the
  defender is asked), a hit that is not a critical hit when an ability acting in the pool does
  more with a critical one (the registry's Hook.CRITICAL_HIT_EFFECT: [LETHAL HITS] taken,
  [SUSTAINED HITS]), a wound that is not a critical wound when one does more with a critical
  wound (Hook.CRITICAL_WOUND_MORTALS: [DEVASTATING WOUNDS]; [ANTI]'s threshold counted), a
  failed hazard roll (1-2), or a die of an attack-count or damage roll below its highest face
  (a damage roll only while its total is below the model's remaining wounds);
* the die has not been re-rolled already (01.05.02: [TWIN-LINKED] re-rolls of wound rolls, the
  re-roll-1s abilities' of hit and wound rolls),
  nor is it a hit roll under indirect or snap shooting (10.07, 15.09: no hit re-rolls).

The options name each such die: ``"pool 0 hit 3: 1"`` (pool 0's hit roll, its die 3, which
shows 1; the dice as the roll's event lists them, a save roll's sorted), ``"hazard 1: 2"``,
and ``"decline"``, the default (Part A ruling 25). The die re-rolled is replaced before the
step is judged; the step's event holds ``command_reroll = {"die": i, "from": old, "to": new}``
and the dice events show both rolls. (Which dice are worth it, the options' wording and how a
script's answer fits an offer: sim.rules.command_reroll, pure.)"""

from __future__ import annotations

import esper

from sim.components import Unit
from sim.decisions import PENDING, DecisionRequest
from sim.rules import stratagems as SG
from sim.rules.command_reroll import DECLINE, NAME, option
from sim.systems import stratagems as ST
from sim.world import queries as W

_RECORD = SG.by_name(NAME)
_COST = SG.cost(_RECORD)


def may_offer(battle, player: int, unit_ent: int) -> bool:
    """15.01 The quick look: could ``player`` use a Command Re-roll on a roll for ``unit_ent``
    now? (A battle with a mission, the CP, not used this phase, the unit not battle-shocked;
    ``request`` makes the full check.) False costs a roll nothing more than before."""
    ts = battle.turn_state
    if ts is None or ts.cp[player] < _COST or NAME in ts.stratagems_used[player]:
        return False
    return not W.unit_state(unit_ent).battle_shocked


def request(battle, player: int, unit_ent: int, roll: str, rolls, candidates, *, pool: int | None = None,
            about: str = "") -> DecisionRequest | None:
    """The decision offering a Command Re-roll of one of ``rolls``' dice at the indices
    ``candidates`` (the options name them, then "decline"), or None when the 15.01 limits
    refuse it or there is no die to offer. ``pool``: the attack sequence's pool the roll is
    for (None: a hazard roll)."""
    if not candidates:
        return None
    prefix = "" if pool is None else f"pool {pool} "  # (for the key and prompt)
    uid = esper.component_for_entity(unit_ent, Unit).id
    ctx = ST._context(battle, _RECORD, player, uid, window=SG.AFTER_ROLL, roll=roll,
                      battle_shocked=W.unit_state(unit_ent).battle_shocked)
    if SG.refusal(_RECORD, **ctx) is not None:
        return None
    dice = {option(roll, i, rolls[i], pool): i for i in candidates}
    options = list(dice) + [DECLINE]
    what = f"{prefix}{roll} roll" + (f" {about}" if about else "")
    return DecisionRequest(
        "stratagem", f"{NAME}: {uid} {what}", player, options, DECLINE,
        prompt=f"use {NAME} ({_RECORD.section}, {_COST} CP) on {uid}'s {what} {list(rolls)}: which die?",
        context={"stratagem": NAME, "target": uid, "use": options[0], "roll": roll, "dice": dice,
                 "pool": pool})


def _use(battle, req: DecisionRequest, answer, rolls, new_die) -> dict | None:
    """The answer carried out: None for a decline; else the CP paid, the die re-rolled
    (``new_die(i)`` rolls one die like die ``i``) and replaced in ``rolls``, and its record
    returned."""
    if answer == DECLINE:
        return None
    i = req.context["dice"][answer]
    old = rolls[i]
    ST._pay(battle, _RECORD, req.player, req.context["target"], f"{answer.rsplit(':', 1)[0]} (was {old})")
    new = new_die(i)
    rolls[i] = new
    return {"die": i, "from": old, "to": new}


def reroll(battle, player: int, unit_ent: int, roll: str, rolls: list, candidates, new_die, *,
           pool: int | None = None, about: str = ""):
    """Offer a Command Re-roll of one of ``rolls``' dice (at ``candidates``) to ``player``, for
    a system that re-enters until the answer is in: PENDING while it waits, None if it is not
    offered or declined, else the record of the die re-rolled (replaced in ``rolls``)."""
    req = request(battle, player, unit_ent, roll, rolls, candidates, pool=pool, about=about)
    if req is None:
        return None
    answer = battle.decide(req)
    if answer is PENDING:
        return PENDING
    return _use(battle, req, answer, rolls, new_die)


def reroll_gen(battle, player: int, unit_ent: int, roll: str, rolls: list, candidates, new_die, *,
               pool: int | None = None, about: str = ""):
    """``reroll`` for a whole-battle command (a generator, sim.systems.phased): waits for the
    answer; returns None or the record of the die re-rolled."""
    req = request(battle, player, unit_ent, roll, rolls, candidates, pool=pool, about=about)
    if req is None:
        return None
    answer = yield from ST.ask(battle, req)
    return _use(battle, req, answer, rolls, new_die)
