"""AttackResolutionSystem: 04.03 Resolve Attacks, one step of one pool per tick:
gather -> hit rolls -> wound rolls -> allocation order -> save rolls -> inflict damage. What it
keeps of each pool is sim.systems.attack_pool's; the re-rolls inside the sequence (a rule's save
re-rolls, 15.02's Command Re-roll in a battle with a mission) are sim.systems.attack_rerolls'."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Stage, Unit
from sim.world import mutations as M, queries as W
from sim.decisions import PENDING, DecisionRequest
from sim.rules import abilities as AB
from sim.plan.scenario_modifiers import save_modifiers
from sim.plan.rule_effects import target_side
from sim.rules import pools as PL
from sim.rules.abilities import Hook
from sim.rules.attack import AttackKind
from sim.rules.allocation import default_order, preferred_groups
from sim.rules.sequence import (DamageState, PoolState, damage_steps, inflict_damage, roll_hits, roll_saves,
                                roll_wounds, strength_text)
from sim.rules.dice import DiceExpr
from sim.rules.effects import dice_pool as DPR
from sim.rules.sequence import hit_faces, save_faces, wound_faces
from sim.systems import dice_pools as DPS
from sim.systems.attack_pool import Held, Pool, Step
from sim.systems.attack_rerolls import RerollSteps, damage_with_rerolls, rules_saves

# (the stages and steps as module constants: reading an enum member is a look-up on its class,
# five times a global's cost, and every tick reads them)
_ATTACKS = Stage.ATTACKS
_FIGHTING = AttackKind.FIGHTING
_SHOOTING = AttackKind.SHOOTING
_HAZARD = Stage.HAZARD
_ALLOCATION = Step.ALLOCATION
_DAMAGE = Step.DAMAGE
_DONE = Step.DONE
_GATHER = Step.GATHER
_HIT = Step.HIT
_SAVE = Step.SAVE
_WOUND = Step.WOUND


def _attack_dice(d, target: int, dice, got: list | None = None) -> int:
    """04.03 step 2 for one declared weapon: its A (a random A rolled, 02.02.03; a split melee
    weapon's declared share instead) plus the attack dice its abilities that apply to the target
    add (the registry's ``extra_dice``: 24.05, 24.06, 24.30; a random X rolled per weapon).
    ``got``, if given, collects each die of the rolls that count, as (its DiceExpr, result),
    for a Command Re-roll (15.02)."""
    w = d.weapon
    if not w.A.is_random:
        a = w.A.k
    elif got is None or d.attacks is not None:
        a = w.A.roll(dice, f"attacks ({w.name})")
    else:
        a = _each(w.A, dice, f"attacks ({w.name})", got)
    if d.attacks is not None:
        a = d.attacks
    if Hook.ADDS_DICE not in w.effects:
        return a
    for ab in PL.applying(d.abilities, W.unit_keywords(target), W.has_character(target)):
        add = ab.spec.extra_dice
        if add is not None:
            x = add(ab, d.half_range, d.target_models, d.split)
            if isinstance(x, int):
                a += x
            elif got is None:
                a += x.roll(dice, f"{ab.name.lower()} ({w.name})")
            else:
                a += _each(x, dice, f"{ab.name.lower()} ({w.name})", got)
    return a


def _each(expr, dice, purpose: str, got: list) -> int:
    """A random value rolled as DiceExpr.roll does (the same dice, logged the same way), each die
    kept in ``got`` as (expr, result, purpose)."""
    rolled = expr.roll_dice(dice, purpose)
    for r in rolled:
        got.append((expr, r, purpose))
    return expr.value(sum(rolled))


class AttackResolutionSystem(RerollSteps, esper.Processor):
    # a pool's step -> the method that resolves it (the class's functions, set below the class:
    # bound methods kept on the instance would make it a reference cycle, garbage for the
    # cyclic collector once its battle is done). Free play's steps roll and judge at once; a
    # battle with a mission has CP, and its hit, wound and save steps keep their dice while a
    # Command Re-roll is offered (15.02: sim.systems.attack_rerolls.RerollSteps, whose methods
    # the class takes): each battle's system uses one table.
    _STEPS: dict = {}
    _MISSION_STEPS: dict = {}

    def __init__(self, mission: bool = False) -> None:
        self._steps = self._MISSION_STEPS if mission else self._STEPS

    def process(self, battle) -> None:
        act = battle.activation
        if act is None or act.stage != _ATTACKS:
            return
        ent = battle.activation_unit
        if not act.pools and act.pool_index == 0:
            # 04.03: the declared attacks' keys were worked out by the plan (and again by
            # Select Weapons for those its choices changed)
            keys = []
            for d in act.declared:
                keys.append((d.target, d.key))
            pools = act.pools
            for i, spec in enumerate(PL.gather(keys)):
                pools.append(Pool(i, spec))
            if not act.pools:
                act.stage = _HAZARD
                return
        if act.pool_index >= len(act.pools):
            act.stage = _HAZARD
            return
        pool = act.pools[act.pool_index]
        self._steps[pool.step](self, battle, ent, act, pool)
        if pool.step == _DONE:
            act.pool_index += 1
            if act.pool_index >= len(act.pools):
                act.stage = _HAZARD

    def settle(self, battle) -> None:
        """process, then the current pool's next steps in the same call while nothing else can
        act between them (Battle.step_until_blocked: the same events in the same order, fewer
        ticks): a step that waits (a decision pending, or PrecisionAllocationSystem's turn at
        the Allocation Order step) or a command in progress (CommandSystem resumes it each
        tick) ends the call, and so does the pool's end (the next pool starts on the next
        tick, as with one step a tick). Battle.tick keeps one step a tick (the sandbox shows
        each)."""
        act = battle.activation
        if act is None or act.stage != _ATTACKS:
            return
        pools, i = act.pools, act.pool_index
        was = pools[i] if i < len(pools) else None
        step = _GATHER if was is None else was.step
        self.process(battle)
        if act.stage != _ATTACKS or act.pool_index != i:
            return
        pool = pools[i]
        if was is not None and pool is not was:
            return
        steps = self._steps
        while (pool.step is not step and pool.step is not _DONE and battle.pending is None
               and battle.action is None and (pool.step is not _ALLOCATION or pool.precision_checked)):
            step = pool.step
            steps[step](self, battle, battle.activation_unit, act, pool)
        if pool.step is _DONE:
            act.pool_index += 1
            if act.pool_index >= len(pools):
                act.stage = _HAZARD

    # --- 04.03 step 2: gather attack dice ------------------------------------------------------
    def _gather(self, battle, ent, act, pool: Pool) -> None:
        target = pool.spec.target
        tunit = esper.component_for_entity(target, Unit).id
        declared = act.declared
        # (plain loops here and below: on Python 3.11 each comprehension is a call of its own)
        members = []
        weapons = {}  # the names of the pool's weapons (a set in declaration order)
        attackers = {}  # model ids, a set in declaration order
        plain = 0  # the dice of the members with a fixed A and nothing to add (None: not all have)
        for i in pool.spec.members:
            d = declared[i]
            members.append(d)
            w = d.weapon
            weapons[w.name] = None
            attackers[d.model_id] = None
            if plain is not None:
                a = w.plain_A  # (the usual case: a fixed A, nothing to add)
                plain = None if a is None or d.attacks is not None else plain + a
        key = pool.spec.key
        if pool.state is None:  # first visit: roll random A now, never again on a re-entry
            if W.unit_destroyed(target):
                battle.emit(ev.POOL, pool=pool.index, target=tunit, dice=0,
                            note="target destroyed: these attacks are lost")
                pool.step = _DONE
                return
            first = members[0]
            pool.abilities = (PL.applying(first.abilities, W.unit_keywords(target), W.has_character(target))
                              if first.abilities else ())
            got = None if battle.turn_state is None else []  # (free play has no Command Re-roll)
            if plain is not None:  # (no die to roll: every member's A is fixed)
                ndice = plain
            else:
                ndice = 0
                for d in members:  # 02.02.03: random A rolled per weapon, then pooled
                    a = d.weapon.plain_A
                    if a is None or d.attacks is not None:
                        a = _attack_dice(d, target, battle.dice, got)
                    ndice += a
            pool.attackers = tuple(attackers)
            side = (target_side(battle, target, ent, act.kind is _FIGHTING)  # (None: no rule acts)
                    if battle.resources.has_rules else None)
            T = (W.toughness(target) if side is None or side.T is None
                 else side.toughness(W.roster(target).bodyguard, W.living(target).slots))
            pool.state = PoolState(ndice, key.skill, key.S, key.AP, key.D, T,
                                   key.hit_mod, key.wound_mod, hit_fail_below=key.fail_below, snap=key.snap)
            if got is not None:
                pool.held = Held(attack_dice=got or None)
        p = pool.state
        held = pool.held
        if held is not None and held.attack_dice is not None and not self._reroll_attacks(battle, ent, pool):
            return  # waiting on the answer to a Command Re-roll of the attack-count roll
        effects = AB.effects_of(pool.abilities) if pool.abilities else frozenset()
        if pool.abilities and not self._abilities(battle, ent, pool):
            return  # waiting on the attacker's choice for one of them
        pool.precision_checked = Hook.PRECISION not in effects
        first = members[0]
        mods = first.hit_mods + first.skill_mods + first.wound_mods
        rec = {"type": ev.POOL, "pool": pool.index, "target": tunit, "dice": p.dice,
               "melee": act.kind is _FIGHTING, "weapons": sorted(weapons),
               "attackers": list(pool.attackers), "skill": key.skill,
               "S": key.S if type(key.S) is int else strength_text(key.S),
               "AP": key.AP, "D": str(key.D.k) if not key.D.n else str(key.D), "T": p.T, "hit_mod": key.hit_mod,
               "wound_mod": key.wound_mod,
               "abilities": [a.label() for a in pool.abilities] if pool.abilities else [],
               "psychic": Hook.IGNORES_MODIFIERS in effects, "ignored": list(key.psychic_ignored),
               "modifiers": [[s, v] for s, v in mods] if mods else []}
        if key.snap:
            rec["snap"] = True  # 15.09: the BS is ignored
        if first.rules:
            rec["rules"] = [list(x) for x in first.rules]  # (sim.plan.rule_effects)
        if battle.resources.has_rules:
            side = target_side(battle, target, ent, act.kind is _FIGHTING)
            if side is not None:
                rec["target_rules"] = [list(x) for x in side.sources]
        if held is not None and held.attack_reroll is not None:
            rec["command_reroll"] = held.attack_reroll  # (15.02: "dice" counts the die re-rolled)
        battle.record(rec)
        pool.step = _HIT

    @staticmethod
    def _abilities(battle, ent, pool: Pool) -> bool:
        """What the pool's abilities do in the attack sequence (their registry records' ``pool``
        effects), onto its state (a pool without any keeps PoolState's defaults), after the
        attacker's answer to each record's ``choice`` where the pool makes it worth asking.
        False while an answer is pending."""
        def ask(choice):
            req = DecisionRequest(choice.kind, f"pool {pool.index}", esper.component_for_entity(ent, Unit).owner,
                                  list(choice.options), choice.default, prompt=choice.prompt)
            answer = battle.decide(req)
            return None if answer is PENDING else answer

        return PL.apply_pool_effects(pool.abilities, pool.state, ask)

    # --- 05.01 / 05.02 ---------------------------------------------------------------------------
    def _hit(self, battle, ent, act, pool: Pool, rec: dict | None = None) -> None:
        """05.01 The hit rolls, made and judged now (``rec``: made already, _hit_mission)."""
        p = pool.state
        if rec is None:
            dice = self._substituted(battle, ent, pool, "hit", "hit rolls") if battle.resources.has_rules else battle.dice
            if dice is PENDING:
                return
            rec = roll_hits(p, dice)
        battle.record({"type": ev.HITS, "pool": pool.index, "skill": p.skill, "modifier": p.hit_mod, **rec})
        if act.kind is _SHOOTING:
            st = W.unit_state(ent)
            if not st.ranged_attacks_this_turn:
                st.ranged_attacks_this_turn = True
                if not st.ranged_attacks_last_turn:  # 13.09: else it already counted as having shot
                    battle.changes.shot(ent)
        pool.step = _WOUND if (pool.state.hits or pool.state.auto_wounds) else _DONE

    def _wound(self, battle, ent, act, pool: Pool, rec: dict | None = None) -> None:
        """05.02 The wound rolls, made and judged now (``rec``: made already, _wound_mission)."""
        p = pool.state
        if rec is None:
            dice = (self._substituted(battle, ent, pool, "wound", "wound rolls") if battle.resources.has_rules
                    else battle.dice)
            if dice is PENDING:
                return
            rec = roll_wounds(p, dice)
        battle.record({"type": ev.WOUNDS, "pool": pool.index, "S": strength_text(p.S), "T": p.T,
                       "critical_on": p.critical_wound_on, **rec})
        pool.step = _ALLOCATION if (pool.state.wounds or pool.state.mortal_criticals) else _DONE

    # --- 05.03 step 2 ---------------------------------------------------------------------------
    def _allocation(self, battle, ent, act, pool: Pool) -> None:
        if not pool.precision_checked:
            return  # the PrecisionAllocationSystem is waiting on the attacker's choice
        target = pool.spec.target
        # (the target's models and groups stay as they are now until this pool's damage step:
        # only the save roll comes between)
        pool.models, pool.groups = W.allocation_view(target)
        if not pool.order:
            r = W.roster(target)
            if pool.groups is r.full_groups:  # (at full wounds: the roster has it)
                default = r.full_order
            else:
                declared = preferred_groups(pool.groups, pool.models,
                                            battle.scenario_allocation_orders.get(target, ()))
                default = default_order(pool.groups, pool.models, declared)
            if len(pool.groups) > 1 and pool.state.wounds:  # mortal wounds use no groups (06.02)
                tunit = esper.component_for_entity(target, Unit)
                req = DecisionRequest(
                    "allocation_order", f"pool {pool.index}", tunit.owner,
                    [g.key for g in pool.groups], list(default),
                    prompt=f"{tunit.name}: order of allocation groups (05.03)",
                    context={"groups": [g.label() for g in pool.groups]})
                ans = battle.decide(req)
                if ans is PENDING:
                    return
                pool.order = tuple(ans)
            else:
                pool.order = default
        groups = {}
        for g in pool.groups:
            groups[g.key] = list(g.members)
        battle.record({"type": ev.ALLOCATION, "pool": pool.index, "order": list(pool.order),
                       "groups": groups, "precision": pool.precision})
        pool.step = _SAVE

    def _save(self, battle, ent, act, pool: Pool) -> None:
        if battle.resources.has_rules:
            dice = self._substituted(battle, ent, pool, "save", "save rolls", act)
            if dice is PENDING:
                return
            pool.saves, rerolled = rules_saves(battle, ent, act, pool, dice)
        else:
            pool.saves, rerolled = roll_saves(pool.state, battle.dice), None
        rec = {"type": ev.SAVES, "pool": pool.index, "rolls": pool.saves, "AP": pool.state.AP}
        if rerolled is not None:
            rec["rerolled"] = list(rerolled.values())
        battle.record(rec)
        pool.step = _DAMAGE

    # a pool's die standing for one die of the hit, wound or save roll (SUBSTITUTE)
    @staticmethod
    def _substituted(battle, ent, pool: Pool, roll: str, purpose: str, act=None):
        """The dice the pool's ``roll`` is made with: the battle's, or with a die of a rule's
        pool standing for its first die when the player of the unit rolling (the attacker; the
        target for a save) spends one (sim.systems.dice_pools: asked once per roll, the answer
        kept on the pool). PENDING while the answer is awaited."""
        subs = pool.subs
        if subs is None:
            subs = pool.subs = {}
        if roll not in subs:
            p = pool.state
            n = p.dice if roll == "hit" else p.hits if roll == "wound" else p.wounds
            if n <= 0 or (roll == "hit" and p.torrent):
                return battle.dice
            unit = pool.spec.target if roll == "save" else ent
            got = DPS.substitute_now(battle, unit, roll, DPR.per_die_chance(_need(battle, ent, pool, roll, act), n),
                                     f" (pool {pool.index})")
            if got is PENDING:
                return PENDING
            subs[roll] = got
        return DPS.dice_for(battle, subs[roll], purpose)

    # --- 05.04 -----------------------------------------------------------------------------------
    def _damage(self, battle, ent, act, pool: Pool) -> None:
        target = pool.spec.target
        r = W.roster(target)
        held = pool.held
        if held is not None and held.damage is not None:  # (waiting on a Command Re-roll of a damage roll)
            records = damage_with_rerolls(battle, ent, held)
            if records is None:
                return
            st = held.damage[1]
            held.damage = None
        else:
            models = pool.models  # listed order, as the roster
            remaining = (dict(zip(r.ids, r.full_wounds)) if models is r.full
                         else {m.id: m.remaining for m in models})
            st = DamageState(models, remaining, pool.groups, pool.order, pool.precision,
                             fnp=W.feel_no_pain(target), W=r.W_of)
            smods = save_modifiers(target, ent, act.kind is _FIGHTING)
            insv = r.InSv_melee_of if act.kind is _FIGHTING else r.InSv_of  # 05.03 (a save against one kind only)
            side = (target_side(battle, target, ent, act.kind is _FIGHTING)  # (None: no rule acts)
                    if battle.resources.has_rules else None)
            if side is not None:  # the rules acting on the target's models (sim.plan.rule_effects)
                smods = side.save_mods(smods)
                if side.invuln:
                    insv = {**insv, **side.invuln}
                if side.fnp:
                    st.fnp = {**st.fnp, **{m: f for m, f in side.fnp.items() if st.remaining.get(m, 0) > 0}}
                st.taken = side.taken
            if (held is not None and pool.state.D.is_random
                    and battle.roll_window_open(esper.component_for_entity(ent, Unit).owner, ent)):
                # 15.02: the damage rolls may be re-rolled: resolved step by step (damage_steps)
                held.damage = (damage_steps(pool.state, pool.saves, st, battle.dice, r.Sv_of, insv,
                                            smods), st, pool.index)
                records = damage_with_rerolls(battle, ent, held)
                if records is None:
                    return
                held.damage = None
            else:
                records = inflict_damage(pool.state, pool.saves, st, battle.dice, r.Sv_of, insv, smods)
        remaining = st.remaining
        destroyed = []
        # write back the wounds of the models that took damage (an unsaved or mortal record)
        hit = {}  # their ids, a set in record order
        for rec in records:
            if rec.get("saved") is False or "mortal" in rec:
                hit[rec["model"]] = None
        for mid in hit:
            k = r.ids.index(mid)
            rem = r.wounds[k].remaining = remaining[mid]
            if rem <= 0:
                destroyed.append(r.models[k])
        battle.record({"type": ev.DAMAGE, "pool": pool.index, "steps": records})
        if destroyed:
            attacker = esper.component_for_entity(ent, Unit).id
            M.mark_destroyed(destroyed, attacker)
            for rec in records:
                if rec.get("destroyed"):
                    battle.record({"type": ev.DESTROYED, "model": rec["model"], "by": attacker})
            if st.destroyed():  # (the Wounds components now hold st.remaining)
                battle.emit(ev.UNIT_DESTROYED, unit=esper.component_for_entity(target, Unit).id,
                            by=attacker)
        pool.step = _DONE


def _need(battle, ent, pool: Pool, roll: str, act) -> int:
    """The lowest unmodified result that succeeds on the pool's hit, wound or save roll (a save:
    against the first living model of the target as allocation sees it; 7: none, or not known
    here, as with a random S), for the default player's choice of a pool's die."""
    p = pool.state
    if roll == "hit":
        faces = hit_faces(p.skill, p.hit_mod, p.hit_fail_below, p.snap)
    elif roll == "wound":
        if isinstance(p.S, DiceExpr):
            return 7
        faces = wound_faces(p.S, p.T, p.wound_mod, p.critical_wound_on)
    else:
        models = [m for m in pool.models if m.remaining > 0]
        if not models:
            return 7
        m = models[0]
        smods = save_modifiers(pool.spec.target, ent, act.kind is _FIGHTING)
        r = W.roster(pool.spec.target)
        insv = r.InSv_melee_of if act.kind is _FIGHTING else r.InSv_of
        side = target_side(battle, pool.spec.target, ent, act.kind is _FIGHTING)
        if side is not None:
            smods, insv = side.save_mods(smods), ({**insv, **side.invuln} if side.invuln else insv)
        checks = save_faces(p.AP, m.Sv, insv[m.id], smods.get(m.id, 0) if smods else 0)
        faces = (None,) + tuple(not fails for fails, _by_invuln in checks[1:])
    return next((f for f in range(1, 7) if faces[f]), 7)


AttackResolutionSystem._STEPS = {
    _GATHER: AttackResolutionSystem._gather, _HIT: AttackResolutionSystem._hit,
    _WOUND: AttackResolutionSystem._wound, _ALLOCATION: AttackResolutionSystem._allocation,
    _SAVE: AttackResolutionSystem._save, _DAMAGE: AttackResolutionSystem._damage}
AttackResolutionSystem._MISSION_STEPS = {
    **AttackResolutionSystem._STEPS, _HIT: AttackResolutionSystem._hit_mission,
    _WOUND: AttackResolutionSystem._wound_mission, _SAVE: AttackResolutionSystem._save_mission}
