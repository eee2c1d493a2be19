"""The re-rolls inside the attack sequence (AttackResolutionSystem): the save re-rolls a rule
acting on the target's models gives (rules_saves: free play and missions alike), and in a battle
with a mission (CP to spend) 15.02's Command Re-roll, offered while a step holds its dice: the
mission's hit, wound and save steps and the offers they make (RerollSteps, which the system
takes its methods from), and the damage steps run on past each damage roll offered
(damage_with_rerolls)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Unit
from sim.world import queries as W
from sim.decisions import PENDING
from sim.plan.scenario_modifiers import save_modifiers
from sim.plan.rule_effects import target_side
from sim.rules.attack import AttackKind
from sim.rules.sequence import (hit_dice, hit_rerollable, judge_hits, judge_wounds, roll_hits, roll_saves, save_dice,
                                save_rerollable, wound_dice, wound_rerollable)
from sim.rules import command_reroll as RR
from sim.rules.stratagems import Roll
from sim.systems.attack_pool import Held, Pool, Step

_FIGHTING = AttackKind.FIGHTING
_DAMAGE = Step.DAMAGE


class RerollSteps:
    """15.02 The steps of AttackResolutionSystem in a battle with a mission (its _MISSION_STEPS:
    the hit, wound and save steps holding their dice while a Command Re-roll is offered) and the
    offers they make, kept apart from the free-play steps they end in. They call the system's
    own ``_hit`` and ``_wound`` (the steps judged) and ``_substituted`` (a pool's die standing
    for one: sim.systems.dice_pools)."""

    @staticmethod
    def _reroll_attacks(battle, ent, pool: Pool) -> bool:
        """15.02 A Command Re-roll of one die of the pool's attack-count rolls (a random A, an
        ability's random extra attacks; a die below its highest face), offered to the attacker;
        the pool's dice follow the die re-rolled. False while the answer is pending."""
        held = pool.held
        got = held.attack_dice
        owner = esper.component_for_entity(ent, Unit).owner
        candidates = [i for i, (expr, v, _p) in enumerate(got) if RR.raisable(v, expr.sides)]
        rr = None
        if candidates and battle.roll_window_open(owner, ent):
            values = [v for _e, v, _p in got]
            rr = battle.offer_after_roll(owner, ent, Roll(
                "attacks", values, lambda i, why: got[i][0].die(battle.dice, f"{got[i][2]} ({why})"), candidates,
                pool=pool.index))
            if rr is PENDING:
                return False
        held.attack_dice = None
        if rr is not None:
            held.attack_reroll = rr
            pool.state.dice += got[rr["die"]][0].reroll_change(rr["from"], rr["to"])
        return True

    def _hit_mission(self, battle, ent, act, pool: Pool) -> None:
        """05.01 in a battle with a mission: the hit rolls (the abilities' re-rolls of 1s made)
        kept while a Command Re-roll of one die a re-roll could better and not re-rolled yet (a
        failed one; a non-critical hit when a critical one does more: sequence.hit_rerollable)
        is offered to the attacker (15.02, 01.05.02), then judged."""
        p = pool.state
        if p.torrent:
            rec = roll_hits(p, battle.dice)
        else:
            got = self._held_dice(battle, ent, pool, "hit", hit_dice, hit_rerollable, "hit rolls")
            if got is PENDING:
                return
            rolls, rerolled, rr = got
            rec = judge_hits(p, rolls, battle.dice, rerolled)
            if rr is not None:
                rec["command_reroll"] = rr
        self._hit(battle, ent, act, pool, rec)

    def _held_dice(self, battle, ent, pool: Pool, roll: str, make, rerollable, purpose: str):
        """15.02 A pool's hit or wound dice in a battle with a mission: made once (``make``: the
        rolls and the abilities' re-rolls of them, sequence.hit_dice / wound_dice) and held on
        the pool while a Command Re-roll of one die ``rerollable`` names is offered. PENDING
        while the answer is awaited; then (rolls, the abilities' re-rolls, the Command Re-roll
        made or None), the hold released."""
        p = pool.state
        held = pool.held
        if held.rolls is None:
            dice = self._substituted(battle, ent, pool, roll, purpose) if battle.resources.has_rules else battle.dice
            if dice is PENDING:
                return PENDING
            held.rolls, held.rerolled = make(p, dice)
        rolls, rerolled = held.rolls, held.rerolled
        rr = self._reroll(battle, ent, pool, roll, rolls, lambda: rerollable(p, rolls, rerolled), purpose,
                          lambda: rerollable(p, rolls, rerolled, failed_only=True))
        if rr is PENDING:
            return PENDING
        held.rolls = held.rerolled = None
        return rolls, rerolled, rr

    def _wound_mission(self, battle, ent, act, pool: Pool) -> None:
        """05.02 in a battle with a mission: the wound rolls ([TWIN-LINKED]'s re-rolls made)
        kept while a Command Re-roll of one die not re-rolled yet that a re-roll could better
        (a failed one; a non-critical wound when a critical one does more:
        sequence.wound_rerollable) is offered to the attacker (15.02, 01.05.02), then judged."""
        p = pool.state
        got = self._held_dice(battle, ent, pool, "wound", wound_dice, wound_rerollable, "wound rolls")
        if got is PENDING:
            return
        rolls, rerolled, rr = got
        rec = judge_wounds(p, rolls, rerolled)
        if rr is not None:
            rec["command_reroll"] = rr
        self._wound(battle, ent, act, pool, rec)

    def _save_mission(self, battle, ent, act, pool: Pool) -> None:
        """05.03 step 3 in a battle with a mission: the save rolls kept while a Command Re-roll
        of one failed die is offered to the defender (15.02), then sorted for 05.04."""
        held = pool.held
        saves = held.rolls
        if saves is None:
            if battle.resources.has_rules:
                dice = self._substituted(battle, ent, pool, "save", "save rolls", act)
                if dice is PENDING:
                    return
                saves, held.rerolled = rules_saves(battle, ent, act, pool, dice)
                held.rolls = saves
            else:
                saves = held.rolls = roll_saves(pool.state, battle.dice)
        # 15.02 the save roll is the defender's: a Command Re-roll is offered to the target's player
        # (never of a die a rule re-rolled already, 01.05.02)
        done = held.rerolled or ()
        rr = self._reroll(battle, pool.spec.target, pool, "save", saves,
                          lambda: [i for i in self._save_rerollable(battle, ent, act, pool, saves) if i not in done],
                          "save rolls")
        if rr is PENDING:
            return
        held.rolls = None
        pool.saves = sorted(saves)  # (05.04 takes them lowest first)
        rec = {"type": ev.SAVES, "pool": pool.index, "rolls": pool.saves, "AP": pool.state.AP}
        if held.rerolled is not None:
            rec["rerolled"] = list(held.rerolled.values())
            held.rerolled = None
        if rr is not None:
            rec["command_reroll"] = rr  # (its die: the index in the sorted rolls first made)
        battle.record(rec)
        pool.step = _DAMAGE

    @staticmethod
    def _save_rerollable(battle, ent, act, pool: Pool, saves) -> list[int]:
        """15.02 The save dice a re-roll could turn into saves: failed against a living model
        of the target (its Sv, InSv and save-roll modifier) that some result would save."""
        smods = save_modifiers(pool.spec.target, ent, act.kind is _FIGHTING)
        r = W.roster(pool.spec.target)
        insv = r.InSv_melee_of if act.kind is _FIGHTING else r.InSv_of  # 05.03 (a save against one kind only)
        side = target_side(battle, pool.spec.target, ent, act.kind is _FIGHTING)
        if side is not None:
            smods, insv = side.save_mods(smods), ({**insv, **side.invuln} if side.invuln else insv)
        checks = {(m.Sv, insv[m.id], smods.get(m.id, 0) if smods else 0) for m in pool.models if m.remaining > 0}
        return save_rerollable(pool.state, saves, checks)

    @staticmethod
    def _reroll(battle, unit_ent, pool: Pool, roll: str, rolls: list, rerollable, purpose: str, failing=None):
        """15.02 A Command Re-roll of one die of the pool's ``roll`` (hit, wound, save), offered
        to the player of ``unit_ent`` when they may use it and ``rerollable()`` names a die it
        could change: PENDING while the answer is pending, None, or the re-roll's record (the
        die replaced in ``rolls``). ``failing()``: those of them that failed (a hit or wound
        roll's; a save's candidates are all failed saves)."""
        owner = esper.component_for_entity(unit_ent, Unit).owner
        if not battle.roll_window_open(owner, unit_ent):
            return None
        candidates = rerollable()
        return battle.offer_after_roll(owner, unit_ent, Roll(
            roll, rolls, lambda i, why: battle.dice.d6(1, f"{purpose} ({why})")[0], candidates, pool=pool.index,
            failing=None if failing is None or not candidates else failing()))


def rules_saves(battle, ent, act, pool: Pool, dice=None) -> tuple[list[int], dict | None]:
    """05.03 step 3 in a battle where rules are held: the pool's save rolls, sorted, with the
    re-rolls a rule acting on the target's models gives made (sim.plan.rule_effects.target_side,
    sim.rules.sequence.save_dice), and the dice re-rolled (their index in the sorted rolls ->
    the result; None when no rule re-rolls saves here). ``dice``: what the rolls are made with
    (the battle's, or with a pool's die standing for one: sim.systems.dice_pools)."""
    p, target = pool.state, pool.spec.target
    dice = battle.dice if dice is None else dice
    side = target_side(battle, target, ent, act.kind is _FIGHTING)
    if side is None or not side.save_reroll:
        return roll_saves(p, dice), None
    r = W.roster(target)
    insv = r.InSv_melee_of if act.kind is _FIGHTING else r.InSv_of
    if side.invuln:
        insv = {**insv, **side.invuln}
    smods = side.save_mods(save_modifiers(target, ent, act.kind is _FIGHTING))
    p.save_reroll = side.save_reroll_faces(p.AP, [m.id for m in pool.models if m.remaining > 0], r.Sv_of, insv,
                                           smods)
    rolls, rerolled = save_dice(p, dice)
    order = sorted(range(len(rolls)), key=rolls.__getitem__)
    return [rolls[i] for i in order], {n: rolls[i] for n, i in enumerate(order) if i in rerolled}


def damage_with_rerolls(battle, ent, held: Held) -> list | None:
    """05.04 with 15.02: runs a pool's damage steps (``held.damage``: their generator, the
    DamageState, the pool's index) on, offering the attacker a Command Re-roll of each damage
    roll they stop at (sim.rules.sequence.DamageRoll: a die below its highest face, the total
    below the model's remaining wounds). Returns the steps' records, or None while an answer is
    pending (``held.asking`` holds the roll asked about)."""
    steps, _st, index = held.damage
    owner = esper.component_for_entity(ent, Unit).owner
    q = held.asking
    answer = None
    while True:
        if q is not None:
            answer = None
            candidates = [i for i, v in enumerate(q.dice) if RR.raisable(v, q.D.sides)]
            if candidates and battle.roll_window_open(owner, ent):
                what = "damage roll (devastating wounds)" if q.mortal else "damage roll"
                answer = battle.offer_after_roll(owner, ent, Roll(
                    "damage", list(q.dice), lambda i, why: q.D.die(battle.dice, f"{what} ({why})"), candidates,
                    pool=index, about=f"on {q.model}"))
                if answer is PENDING:
                    held.asking = q
                    return None
            held.asking = None
        try:
            q = steps.send(answer)
        except StopIteration as done:
            return done.value
