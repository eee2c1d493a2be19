"""AttackResolutionSystem: 04.03 Resolve Attacks, one step of one pool per tick:
gather -> hit rolls -> wound rolls -> allocation order -> save rolls -> inflict damage."""

from __future__ import annotations

from dataclasses import dataclass, field

import esper

from sim import events as ev
from sim.world import mutations as M, queries as W
from sim.components import Unit
from sim.decisions import PENDING, DecisionRequest
from sim.rules import pools as PL
from sim.rules.allocation import default_order, preferred_groups
from sim.rules.profiles import ADDS_DICE
from sim.rules.sequence import DamageState, PoolState, inflict_damage, roll_hits, roll_saves, roll_wounds


@dataclass(slots=True)
class Pool:
    """A pool being resolved (04.03 step 3) and where it is in the attack sequence."""

    index: int
    spec: PL.PoolSpec
    step: str = "gather"
    state: PoolState | None = None
    attackers: tuple[str, ...] = ()
    abilities: tuple = ()
    groups: tuple = ()
    order: tuple[str, ...] = ()
    precision: str | None = None
    precision_checked: bool = False
    saves: list[int] = field(default_factory=list)
    models: tuple = ()  # the target's models as allocation sees them (from the allocation step)


def applicable(abilities, target: int, info: dict | None = None) -> tuple:
    """24.01 conditions, 24.03 [ANTI] keyword and the 04.03 FAQ on [PRECISION] against a unit
    with no CHARACTER: only the abilities that apply to this target. ``info`` caches the
    target's keywords and CHARACTER presence across one gathering."""
    if not abilities:
        return ()
    got = None if info is None else info.get(target)
    if got is None:
        got = (W.unit_keywords(target), W.has_character(target))
        if info is not None:
            info[target] = got
    tkw, has_char = got
    out = []
    for a in abilities:
        if not a.applies_to(tkw):
            continue
        if a.name == "ANTI" and not a.anti_matches(tkw):
            continue
        if a.name == "PRECISION" and not has_char:
            continue
        out.append(a)
    return tuple(out)


def key_of(d, info: dict | None = None) -> PL.AttackKey:
    w = d.weapon
    D = w.D
    abil = applicable(d.abilities, d.target, info)
    if d.half_range and "MELTA" in w.names:
        melta = next((a for a in abil if a.name == "MELTA"), None)
        if melta is not None:
            D = D.plus(melta.value)  # 24.25
    return PL.effective_key(w.skill, d.skill_mods, w.S, w.AP, D, abil, d.hit_mods,
                            d.wound_mods, d.ignored, d.fail_below)


def _extra_dice(d, abil, dice) -> int:
    """04.03 step 2 extra dice: [RAPID FIRE X] within half range (24.30), [BLAST X] per 5 models
    (24.05), [CLEAVE X] per 5 models when all its attacks went at one target (24.06)."""
    extra = 0
    for a in abil:
        if a.name == "RAPID FIRE" and d.half_range:
            x = a.value  # a random X (RAPID FIRE D3) is rolled for each weapon
            extra += x if isinstance(x, int) else x.roll(dice, f"rapid fire ({d.weapon.name})")
        elif a.name == "BLAST":
            extra += a.value * (d.target_models // 5)
        elif a.name == "CLEAVE" and not d.split:
            extra += a.value * (d.target_models // 5)
    return extra


def _attack_dice(d, target: int, dice, extra: dict) -> int:
    """04.03 step 2 for one declared weapon: its A (a random A rolled, 02.02.03; a split melee
    weapon's declared share instead) plus the dice its abilities add. ``extra`` caches the
    applying abilities by the identity of the weapon's abilities tuple, for one gathering."""
    w = d.weapon
    a = w.A.roll(dice, f"attacks ({w.name})") if w.A.is_random else w.A.k
    if d.attacks is not None:
        a = d.attacks
    abil = extra.get(id(d.abilities))
    if abil is None:
        abil = extra[id(d.abilities)] = applicable(d.abilities, target) if w.names & ADDS_DICE else ()
    return a + _extra_dice(d, abil, dice) if abil else a


class AttackResolutionSystem(esper.Processor):
    def __init__(self):
        # a pool's step -> the method that resolves it
        self._steps = {"gather": self._gather, "hit": self._hit, "wound": self._wound,
                       "allocation": self._allocation, "save": self._save, "damage": self._damage}

    def process(self, battle) -> None:
        act = battle.activation
        if act is None or act.stage != "attacks":
            return
        ent = battle.activation_unit
        if not act.pools and act.pool_index == 0:
            info: dict = {}
            # identical declarations get the same key: work it out once. The weapon profile,
            # its abilities and the modifier tuples are known by identity (they live in
            # act.declared meanwhile, and the plans share them between models): an equal value
            # held as another object only costs working its key out again.
            memo: dict = {}
            keys = []
            p = tk = None  # the previous declaration with a target, and its (target, key)
            for d in act.declared:
                if d.target is None:
                    keys.append((None, None))
                    continue
                if d.like is not None and p is not None and d.like is p.like:
                    keys.append(tk)  # (planned alike with the last one: Declared.like)
                    continue
                if (p is not None and d.weapon is p.weapon and d.target == p.target
                        and d.abilities is p.abilities and d.half_range == p.half_range
                        and d.skill_mods is p.skill_mods and d.hit_mods is p.hit_mods
                        and d.wound_mods is p.wound_mods and d.ignored is p.ignored
                        and d.fail_below == p.fail_below):
                    keys.append(tk)  # (the usual case: the same as the last one)
                    continue
                inputs = (id(d.weapon), d.target, id(d.abilities), d.half_range, id(d.skill_mods),
                          id(d.hit_mods), id(d.wound_mods), id(d.ignored), d.fail_below)
                key = memo.get(inputs)
                if key is None:
                    key = memo[inputs] = key_of(d, info)
                tk = (d.target, key)
                keys.append(tk)
                p = d
            pools = act.pools
            for i, spec in enumerate(PL.gather(keys)):
                pools.append(Pool(i, spec))
            if not act.pools:
                act.stage = "hazard"
                return
        if act.pool_index >= len(act.pools):
            act.stage = "hazard"
            return
        pool = act.pools[act.pool_index]
        self._steps[pool.step](battle, ent, act, pool)
        if pool.step == "done":
            act.pool_index += 1
            if act.pool_index >= len(act.pools):
                act.stage = "hazard"

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
                pool.step = "done"
                return
            pool.abilities = applicable(members[0].abilities, target)
            ndice = 0
            extra: dict[int, tuple] = {}  # id of a weapon's abilities -> those applying, if any add dice
            attackers = {}  # model ids, a set in declaration order
            for d in members:  # 02.02.03: random A rolled per weapon, then pooled
                a = d.weapon.plain_A  # (the usual case: a fixed A, nothing to add)
                if a is None or d.attacks is not None:
                    a = _attack_dice(d, target, battle.dice, extra)
                ndice += a
                attackers[d.model_id] = None
            pool.attackers = tuple(attackers)
            pool.state = PoolState(ndice, key.skill, key.S, key.AP, key.D, W.toughness(target),
                                   key.hit_mod, key.wound_mod, hit_fail_below=key.fail_below)
        p = pool.state
        names = {a.name: a for a in pool.abilities} if pool.abilities else {}
        if names and not self._abilities(battle, ent, pool, names):
            return  # waiting on the attacker's [LETHAL HITS] choice
        pool.precision_checked = "PRECISION" not in names
        first = members[0]
        mods = first.hit_mods + first.skill_mods + first.wound_mods
        battle.record({"type": ev.POOL, "pool": pool.index, "target": tunit, "dice": p.dice,
                       "melee": act.kind == "fight", "weapons": sorted(weapons),
                       "attackers": list(pool.attackers), "skill": key.skill, "S": key.S,
                       "AP": key.AP, "D": str(key.D), "T": p.T, "hit_mod": key.hit_mod,
                       "wound_mod": key.wound_mod,
                       "abilities": [a.label() for a in pool.abilities] if names else [],
                       "psychic": "PSYCHIC" in names, "ignored": list(key.psychic_ignored),
                       "modifiers": [[s, v] for s, v in mods] if mods else []})
        pool.step = "hit"

    @staticmethod
    def _abilities(battle, ent, pool: Pool, names: dict) -> bool:
        """The pool's abilities that act in the attack sequence, onto its state (a pool without
        any keeps PoolState's defaults). False while the attacker's choice is pending."""
        lethal = "LETHAL HITS" in names
        if lethal and "DEVASTATING WOUNDS" in names:
            # 24.23: wounding automatically is optional; an automatic wound can never be a
            # critical wound, so with [DEVASTATING WOUNDS] the default declines it.
            req = DecisionRequest("lethal_hits", f"pool {pool.index}",
                                  esper.component_for_entity(ent, Unit).owner, ["take", "decline"],
                                  "decline", prompt="[LETHAL HITS]: wound critical hits automatically? "
                                  "(an automatic wound cannot trigger [DEVASTATING WOUNDS])")
            ans = battle.decide(req)
            if ans is PENDING:
                return False
            lethal = ans == "take"
        anti = names.get("ANTI")
        sustained = names.get("SUSTAINED HITS")
        p = pool.state
        p.critical_wound_on = anti.value if anti else 6
        p.torrent = "TORRENT" in names
        p.lethal = lethal
        p.sustained = sustained.value if sustained else 0
        p.devastating = "DEVASTATING WOUNDS" in names
        p.twin_linked = "TWIN-LINKED" in names
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
        pool.step = "wound" if (pool.state.hits or pool.state.auto_wounds) else "done"

    def _wound(self, battle, ent, act, pool: Pool) -> None:
        p = pool.state
        rec = roll_wounds(p, battle.dice)
        battle.record({"type": ev.WOUNDS, "pool": pool.index, "S": p.S, "T": p.T,
                       "critical_on": p.critical_wound_on, **rec})
        pool.step = "allocation" if (pool.state.wounds or pool.state.mortal_criticals) else "done"

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
        pool.step = "save"

    def _save(self, battle, ent, act, pool: Pool) -> None:
        pool.saves = roll_saves(pool.state, battle.dice)
        battle.record({"type": ev.SAVES, "pool": pool.index, "rolls": pool.saves, "AP": pool.state.AP})
        pool.step = "damage"

    # --- 05.04 -----------------------------------------------------------------------------------
    def _damage(self, battle, ent, act, pool: Pool) -> None:
        target = pool.spec.target
        models = pool.models  # listed order, as the roster
        r = W.roster(target)
        remaining = (dict(zip(r.ids, r.full_wounds)) if models is r.full
                     else {m.id: m.remaining for m in models})
        st = DamageState(models, remaining, pool.groups, pool.order, pool.precision,
                         fnp=W.feel_no_pain(target), W=r.W_of)
        records = inflict_damage(pool.state, pool.saves, st, battle.dice, r.Sv_of, r.InSv_of)
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
        pool.step = "done"
