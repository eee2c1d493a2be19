"""15.04 Insane Bravery: in your Command phase, just before a unit of yours makes a battle-shock
roll, it passes without dice; once per battle. It cannot save a unit that is battle-shocked
already (01.07: no stratagem targets your own battle-shocked unit; Part A ruling 26)."""

from __future__ import annotations

from sim import events as ev
from sim.rules import stratagems as SG
from sim.rules.turn import Phase
from sim.stratagems.base import USE, Moment, StratagemRecord, context, pay, uid
from sim.decisions import DecisionRequest, ask
from sim.world import queries as W

NAME = "Insane Bravery"


def _offer(battle, player: int, moment: Moment):
    """Offered to ``player`` for ``moment.unit`` (its strength in ``moment.info``); used, no
    roll is made: the unit is not battle-shocked, and the battle-shock event says why."""
    u = moment.unit
    st = W.unit_state(u)
    target = uid(u)
    ctx = context(battle, RECORD, player, target, window=SG.BEFORE_BATTLE_SHOCK_ROLL, battle_shocked=st.battle_shocked)
    if SG.refusal(RECORD, **ctx) is not None:
        return False
    about = "battle-shock roll"
    req = DecisionRequest("stratagem", f"{NAME}: {target} {about}", player, [USE, "decline"], "decline",
                          prompt=f"use {NAME} ({RECORD.section}, {SG.cost(RECORD)} CP) on {target}: {about}?",
                          context={"stratagem": NAME, "target": target})
    if (yield from ask(battle, req)) != USE:
        return False
    pay(battle, RECORD, player, target, about)
    st.battle_shocked = False  # 15.04 the roll is passed automatically: none is made
    battle.changes.touched(u)
    battle.emit(ev.BATTLE_SHOCK, unit=target, roll=None, needed=min(W.unit_leaderships(u)), passed=True,
                strength=moment.info.get("strength"), battle_shocked=False, note="Insane Bravery (15.04)")
    moment.info["passed"] = True  # (the roll is not made)
    return True


RECORD = StratagemRecord(
    NAME, "15.04", 1, SG.YOURS, Phase.COMMAND, SG.BEFORE_BATTLE_SHOCK_ROLL,
    "The battle-shock roll the unit is about to make passes without dice; once per battle.",
    "the friendly unit about to make a battle-shock roll", _offer, once_per_battle=True)
