"""AttackResolutionSystem: 04.03 Resolve Attacks, one step of one pool per tick:
gather -> hit rolls -> wound rolls -> allocation order -> save rolls -> inflict damage."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

import esper

from sim import events as ev
from sim.components import Stage, Unit
from sim.world import mutations as M, queries as W
from sim.decisions import PENDING, DecisionRequest
from sim.rules import abilities as AB
from sim.modifiers import save_modifiers
from sim.rules import pools as PL
from sim.rules.abilities import Hook
from sim.rules.allocation import default_order, preferred_groups
from sim.rules.sequence import DamageState, PoolState, inflict_damage, roll_hits, roll_saves, roll_wounds


class Step(StrEnum):
    """The next step of a pool's attack sequence (04.03 step 2 gathering, 05.01 hit rolls,
    05.02 wound rolls, 05.03 allocation order, 05.03 save rolls, 05.04 inflict damage)."""

    GATHER = "gather"
    HIT = "hit"
    WOUND = "wound"
    ALLOCATION = "allocation"
    SAVE = "save"
    DAMAGE = "damage"
    DONE = "done"


# (the stages and steps as module constants: reading an enum member is a look-up on its class,
# five times a global's cost, and every tick reads them)
_ATTACKS = Stage.ATTACKS
_HAZARD = Stage.HAZARD
_ALLOCATION = Step.ALLOCATION
_DAMAGE = Step.DAMAGE
_DONE = Step.DONE
_GATHER = Step.GATHER
_HIT = Step.HIT
_SAVE = Step.SAVE
_WOUND = Step.WOUND


@dataclass(slots=True)
class Pool:
    """A pool being resolved (04.03 step 3) and where it is in the attack sequence."""

    index: int
    spec: PL.PoolSpec
    step: Step = _GATHER
    state: PoolState | None = None
    attackers: tuple[str, ...] = ()
    abilities: tuple = ()
    groups: tuple = ()
    order: tuple[str, ...] = ()
    precision: str | None = None
    precision_checked: bool = False
    saves: list[int] = field(default_factory=list)
    models: tuple = ()  # the target's models as allocation sees them (from the allocation step)


def _attack_dice(d, target: int, dice) -> int:
    """04.03 step 2 for one declared weapon: its A (a random A rolled, 02.02.03; a split melee
    weapon's declared share instead) plus the attack dice its abilities that apply to the target
    add (the registry's ``extra_dice``: 24.05, 24.06, 24.30; a random X rolled per weapon)."""
    w = d.weapon
    a = w.A.roll(dice, f"attacks ({w.name})") if w.A.is_random else w.A.k
    if d.attacks is not None:
        a = d.attacks
    if Hook.ADDS_DICE not in w.effects:
        return a
    for ab in PL.applying(d.abilities, W.unit_keywords(target), W.has_character(target)):
        add = ab.spec.extra_dice
        if add is not None:
            x = add(ab, d.half_range, d.target_models, d.split)
            a += x if isinstance(x, int) else x.roll(dice, f"{ab.name.lower()} ({w.name})")
    return a


class AttackResolutionSystem(esper.Processor):
    # a pool's step -> the method that resolves it (the class's functions, set below the class:
    # bound methods kept on the instance would make it a reference cycle, garbage for the
    # cyclic collector once its battle is done)
    _STEPS: dict = {}

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
        self._STEPS[pool.step](self, battle, ent, act, pool)
        if pool.step == _DONE:
            act.pool_index += 1
            if act.pool_index >= len(act.pools):
                act.stage = _HAZARD

    # --- 04.03 step 2: gather attack dice ------------------------------------------------------
    def _gather(self, battle, ent, act, pool: Pool) -> None:
        target = pool.spec.target
        tunit = esper.component_for_entity(target, Unit).id
        declared = act.declared
        # (plain loops here and below: on Python 3.11 each comprehension is a call of its own)
        members = []
        weapons = {}  # the names of the pool's weapons (a set in declaration order)
        for i in pool.spec.members:
            d = declared[i]
            members.append(d)
            weapons[d.weapon.name] = None
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
            ndice = 0
            attackers = {}  # model ids, a set in declaration order
            for d in members:  # 02.02.03: random A rolled per weapon, then pooled
                a = d.weapon.plain_A  # (the usual case: a fixed A, nothing to add)
                if a is None or d.attacks is not None:
                    a = _attack_dice(d, target, battle.dice)
                ndice += a
                attackers[d.model_id] = None
            pool.attackers = tuple(attackers)
            pool.state = PoolState(ndice, key.skill, key.S, key.AP, key.D, W.toughness(target),
                                   key.hit_mod, key.wound_mod, hit_fail_below=key.fail_below, snap=key.snap)
        p = pool.state
        effects = AB.effects_of(pool.abilities) if pool.abilities else frozenset()
        if pool.abilities and not self._abilities(battle, ent, pool):
            return  # waiting on the attacker's choice for one of them
        pool.precision_checked = Hook.PRECISION not in effects
        first = members[0]
        mods = first.hit_mods + first.skill_mods + first.wound_mods
        rec = {"type": ev.POOL, "pool": pool.index, "target": tunit, "dice": p.dice,
               "melee": act.kind == "fight", "weapons": sorted(weapons),
               "attackers": list(pool.attackers), "skill": key.skill, "S": key.S,
               "AP": key.AP, "D": str(key.D), "T": p.T, "hit_mod": key.hit_mod,
               "wound_mod": key.wound_mod,
               "abilities": [a.label() for a in pool.abilities] if pool.abilities else [],
               "psychic": Hook.IGNORES_MODIFIERS in effects, "ignored": list(key.psychic_ignored),
               "modifiers": [[s, v] for s, v in mods] if mods else []}
        if key.snap:
            rec["snap"] = True  # 15.09: the BS is ignored
        battle.record(rec)
        pool.step = _HIT

    @staticmethod
    def _abilities(battle, ent, pool: Pool) -> bool:
        """What the pool's abilities do in the attack sequence (their registry records' ``pool``
        effects), onto its state (a pool without any keeps PoolState's defaults), after the
        attacker's answer to each record's ``choice`` where the pool makes it worth asking.
        False while an answer is pending."""
        p = pool.state
        for a in pool.abilities:
            effect = a.spec.pool
            if effect is None:
                continue
            choice, answer = a.spec.choice, None
            if choice is not None:
                answer = choice.otherwise
                if choice.when(pool.abilities):
                    req = DecisionRequest(choice.kind, f"pool {pool.index}",
                                          esper.component_for_entity(ent, Unit).owner, list(choice.options),
                                          choice.default, prompt=choice.prompt)
                    answer = battle.decide(req)
                    if answer is PENDING:
                        return False
            effect(a, p, answer)
        return True

    # --- 05.01 / 05.02 ---------------------------------------------------------------------------
    def _hit(self, battle, ent, act, pool: Pool) -> None:
        p = pool.state
        rec = roll_hits(p, battle.dice)
        battle.record({"type": ev.HITS, "pool": pool.index, "skill": p.skill, "modifier": p.hit_mod, **rec})
        if act.kind == "shoot":
            st = W.unit_state(ent)
            if not st.ranged_attacks_this_turn:
                st.ranged_attacks_this_turn = True
                if not st.ranged_attacks_last_turn:  # 13.09: else it already counted as having shot
                    battle.changes.shots_changed = True
        pool.step = _WOUND if (pool.state.hits or pool.state.auto_wounds) else _DONE

    def _wound(self, battle, ent, act, pool: Pool) -> None:
        p = pool.state
        rec = roll_wounds(p, battle.dice)
        battle.record({"type": ev.WOUNDS, "pool": pool.index, "S": p.S, "T": p.T,
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
        pool.saves = roll_saves(pool.state, battle.dice)
        battle.record({"type": ev.SAVES, "pool": pool.index, "rolls": pool.saves, "AP": pool.state.AP})
        pool.step = _DAMAGE

    # --- 05.04 -----------------------------------------------------------------------------------
    def _damage(self, battle, ent, act, pool: Pool) -> None:
        target = pool.spec.target
        models = pool.models  # listed order, as the roster
        r = W.roster(target)
        remaining = (dict(zip(r.ids, r.full_wounds)) if models is r.full
                     else {m.id: m.remaining for m in models})
        st = DamageState(models, remaining, pool.groups, pool.order, pool.precision,
                         fnp=W.feel_no_pain(target), W=r.W_of)
        records = inflict_damage(pool.state, pool.saves, st, battle.dice, r.Sv_of, r.InSv_of,
                                 save_modifiers(target, ent, act.kind == "fight"))
        attacker = esper.component_for_entity(ent, Unit).id
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
            M.mark_destroyed(destroyed, attacker)
            for rec in records:
                if rec.get("destroyed"):
                    battle.record({"type": ev.DESTROYED, "model": rec["model"], "by": attacker})
            if st.destroyed():  # (the Wounds components now hold st.remaining)
                battle.emit(ev.UNIT_DESTROYED, unit=esper.component_for_entity(target, Unit).id,
                            by=attacker)
        pool.step = _DONE


AttackResolutionSystem._STEPS = {
    _GATHER: AttackResolutionSystem._gather, _HIT: AttackResolutionSystem._hit,
    _WOUND: AttackResolutionSystem._wound, _ALLOCATION: AttackResolutionSystem._allocation,
    _SAVE: AttackResolutionSystem._save, _DAMAGE: AttackResolutionSystem._damage}
