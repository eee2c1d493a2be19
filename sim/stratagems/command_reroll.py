"""15.02 Command Re-roll: just after a roll for a friendly unit or model, its player may roll
again one die of it (a charge roll in full). Offered after an advance roll and a charge roll
(the whole roll: use or decline), and, one die at a time, after a roll for the number of
attacks (a random A, an ability's random extra attacks), a hit, wound, save (the defender's),
damage or hazard roll (06.03: after a [HAZARDOUS] unit's attacks, and a Desperate Escape's,
09.07).

The step that rolls keeps its dice, asks, and judges them only once the answer is in (with the
chosen die replaced). It is asked only when it can matter and the rules allow it:

* a battle with a mission (free play tracks no CP: never), the player has the CP, has not used
  Command Re-roll this phase, has not targeted the unit with a stratagem this phase and the
  unit is not battle-shocked (15.01: ``may_offer`` is the quick look before a roll is split,
  sim.rules.stratagems.refusal the full check);
* one die at least could come out better, some face of it giving a better result under the
  rules the step applies (sim.rules.command_reroll): a failed hit, wound or save (against a
  model of the target that one of the six results would save; the defender's roll, so the
  defender is asked), a hit that is not a critical hit when an ability acting in the pool does
  more with a critical one (Hook.CRITICAL_HIT_EFFECT), a wound that is not a critical wound
  when one does more with a critical wound (Hook.CRITICAL_WOUND_MORTALS; [ANTI]'s threshold
  counted), a failed hazard roll (1-2), or a die of an attack-count or damage roll below its
  highest face (a damage roll only while its total is below the model's remaining wounds);
* the die has not been re-rolled already (01.05.02: [TWIN-LINKED] re-rolls of wound rolls, the
  re-roll-1s abilities' of hit and wound rolls), nor is it a hit roll under indirect or snap
  shooting (10.07, 15.09: no hit re-rolls).

The options name each such die: ``"pool 0 hit 3: 1"`` (pool 0's hit roll, its die 3, which
shows 1; the dice as the roll's event lists them, a save roll's sorted), ``"hazard 1: 2"``, and
``"decline"``, the default (Part A ruling 25; an advance or charge roll: "use" or "decline",
and the default re-rolls a failed charge roll). The die re-rolled is replaced before the step
is judged; the step's event holds ``command_reroll = {"die": i, "from": old, "to": new}`` and
the dice events show both rolls. (Which dice are worth it, the options' wording and how a
script's answer fits an offer: sim.rules.command_reroll, pure.)"""

from __future__ import annotations

from sim.decisions import PENDING, DecisionRequest, ask
from sim.rules import stratagems as SG
from sim.rules import command_reroll as RR
from sim.rules.command_reroll import option
from sim.stratagems.base import DECLINE, USE, Moment, Roll, StratagemRecord, context, pay, uid
from sim.world import queries as W

NAME = "Command Re-roll"


def may_offer(battle, player: int, unit_ent: int) -> bool:
    """15.01 The quick look: could ``player`` use a Command Re-roll on a roll for ``unit_ent``
    now? (A battle with a mission, the CP, not used this phase, the unit not battle-shocked;
    the offer makes the full check.) False costs a roll nothing more than before."""
    ts = battle.turn_state
    if ts is None or ts.cp[player] < COST or NAME in ts.stratagems_used[player]:
        return False
    return not W.unit_state(unit_ent).battle_shocked


def is_offer(req) -> bool:
    """Whether the decision ``req`` is a Command Re-roll's offer (``_request``'s: its context
    names the stratagem and the roll's kind): what the sandbox's orders panel and dice tray ask
    before they show its options and dice, so that the stratagem is named here only."""
    ctx = getattr(req, "context", None)
    return isinstance(ctx, dict) and ctx.get("stratagem") == NAME and "roll" in ctx


def default_answer(roll: Roll) -> str:
    """Part A ruling 25: the default policy uses no stratagem, except a Command Re-roll of a
    failed charge roll (one that reaches no enemy unit: README, our rulings), when the 15.01
    limits and the CP allow it (they do: it is offered)."""
    return USE if roll.kind == "charge" and roll.failed else DECLINE


def asks(battle, player: int) -> str:
    """Which Command Re-roll questions ``player`` is asked (sim.rules.command_reroll.ASK): the
    scenario's ``[mission] command_reroll`` (free play: always)."""
    mission = getattr(battle.scenario, "mission", None)
    return RR.ALWAYS if mission is None else mission.command_reroll[player]


def _request(battle, player: int, unit_ent: int, roll: Roll) -> DecisionRequest | None:
    """The decision offering a Command Re-roll of ``roll`` (the whole roll, or one of the dice
    at its candidates: the options name them, then "decline"), or None when the 15.01 limits
    refuse it, there is no die that could come out better (an advance of 6, a charge of 12:
    sim.rules.command_reroll) or none the player's setting asks about (``asks``)."""
    setting = asks(battle, player)
    failed = []
    if roll.candidates is None:
        if not RR.whole_roll_raisable(roll.dice) or not RR.asks_whole(setting, roll.failed):
            return None
    else:
        failed = RR.failed_dice(roll.kind, roll.candidates, roll.failing)
        roll.candidates = RR.asked_dice(setting, roll.candidates, failed)
        if not roll.candidates:
            return None
    target = uid(unit_ent)
    ctx = context(battle, RECORD, player, target, window=SG.AFTER_ROLL, roll=roll.kind,
                  battle_shocked=W.unit_state(unit_ent).battle_shocked)
    if SG.refusal(RECORD, **ctx) is not None:
        return None
    if roll.candidates is None:  # (an advance or charge roll: the whole roll, use or decline)
        return DecisionRequest("stratagem", f"{NAME}: {target} {roll.about}".strip(), player, [USE, DECLINE],
                               default_answer(roll),
                               prompt=f"use {NAME} ({RECORD.section}, {COST} CP) on {target}: {roll.about}?",
                               context={"stratagem": NAME, "target": target, "roll": roll.kind,
                                        "values": list(roll.dice), "failed": roll.failed})
    prefix = "" if roll.pool is None else f"pool {roll.pool} "  # (for the key and prompt)
    dice = {option(roll.kind, i, roll.dice[i], roll.pool): i for i in roll.candidates}
    options = list(dice) + [DECLINE]
    what = f"{prefix}{roll.kind} roll" + (f" {roll.about}" if roll.about else "")
    shown = ("" if roll.pool is None else f"pool {roll.pool + 1} ") + f"{roll.kind} roll" + (
        f" {roll.about}" if roll.about else "")  # (for people: pools counted from 1)
    return DecisionRequest(
        "stratagem", f"{NAME}: {target} {what}", player, options, DECLINE,
        prompt=f"use {NAME} ({RECORD.section}, {COST} CP) on {target}'s {shown} {list(roll.dice)}: which die?",
        context={"stratagem": NAME, "target": target, "use": options[0], "roll": roll.kind, "dice": dice,
                 "pool": roll.pool, "values": list(roll.dice), "failed": failed})


def _use(battle, req: DecisionRequest, answer, roll: Roll):
    """The answer carried out: None for a decline; else the CP paid, the roll (or the chosen
    die) rolled again and replaced in ``roll.dice``, and what was re-rolled returned (and kept
    in ``roll.rerolled``): True for a whole roll, else {"die": i, "from": old, "to": new}."""
    if answer == DECLINE:
        return None
    if roll.candidates is None:
        pay(battle, RECORD, req.player, req.context["target"], roll.about)
        roll.dice[:] = roll.new_die(None, NAME)
        roll.rerolled = True
        return True
    i = req.context["dice"][answer]
    old = roll.dice[i]
    pay(battle, RECORD, req.player, req.context["target"], f"{answer.rsplit(':', 1)[0]} (was {old})")
    new = roll.new_die(i, NAME)
    roll.dice[i] = new
    roll.rerolled = {"die": i, "from": old, "to": new}
    return roll.rerolled


def reroll_now(battle, player: int, unit_ent: int, roll: Roll):
    """Offer a Command Re-roll of ``roll`` to ``player``, for a system that re-enters until the
    answer is in (the attack sequence's steps): PENDING while it waits, None if it is not
    offered or declined, else what was re-rolled (the die replaced in ``roll.dice``)."""
    req = _request(battle, player, unit_ent, roll)
    if req is None:
        return None
    answer = battle.decide(req)
    if answer is PENDING:
        return PENDING
    return _use(battle, req, answer, roll)


def _offer(battle, player: int, moment: Moment):
    """The offer at a roll made in a command (an advance, a charge, a Desperate Escape's hazard
    rolls): waits for the answer (a generator); returns what was re-rolled, or None."""
    if not may_offer(battle, player, moment.unit):
        return None
    req = _request(battle, player, moment.unit, moment.roll)
    if req is None:
        return None
    answer = yield from ask(battle, req)
    return _use(battle, req, answer, moment.roll)


RECORD = StratagemRecord(
    NAME, "15.02", 1, SG.EITHER, SG.ANY_PHASE, SG.AFTER_ROLL,
    "Roll again one advance, charge, damage, hazard, hit, save, wound or attack-count roll just "
    "made for a friendly unit or model: one die of a multi-dice roll, but a charge roll in full.",
    "the unit or model the roll was made for", _offer, rolls=SG.ROLLS)
COST = SG.cost(RECORD)
