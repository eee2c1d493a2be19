"""The effects of rules (datasheet abilities, army and detachment rules) that act in the attack
sequence, read off the world where the attack path needs them, as sim.plan.scenario_modifiers
reads the scenario's modifiers: what the plan's declared attacks take (their modifiers,
weapon characteristics, re-rolls and conferred abilities), and what each model of a target
takes against an attack (save-roll and T modifiers, Damage taken, Feel No Pain, an
invulnerable save). Which grants act is sim.world.rule_effects; what an attack takes from them
is sim.rules.effects.attack (pure). The battle's attack resolution and the odds engine read the
target's side from :func:`target_side`, the declared attacks from the same plan.

A battle where no unit holds a rule costs one attribute read here (rule_effects.any_rules)."""

from __future__ import annotations

from typing import NamedTuple

from sim.plan.common import declared_key, plan_modifiers
from sim.rules import shooting as SH
from sim.rules.abilities import Hook
from sim.rules.attack import unit_toughness
from sim.rules.effects import vocabulary as V
from sim.rules.effects.attack import (ATTACKED_KINDS, ATTACKER_KINDS, TARGET_KINDS, Acted, attack_takes,
                                      attacked_takes, best_roll, conferred_hooks, save_reroll_faces, target_takes,
                                      toughness_with, weapon_taking)
from sim.rules.effects import eligibility as EL
from sim.rules.sequence import save_faces
from sim.world import queries as W
from sim.world import rule_effects as RE
from sim.world import rule_reads as RR

COVER_SOURCE = "benefit of cover (13.08)"  # (sim.plan.shoot_targets' label of the 13.08 BS modifier)


def _for_model(acts, model_id: str) -> list[Acted]:
    """The acting grants that reach one model (a BEARER grant only its bearers), with their
    rules' names."""
    out = []
    for a in acts:
        if a.grant.who == V.BEARER and a.held.bearers and model_id not in a.held.bearers:
            continue
        out.append(Acted(a.held.record.name, a.grant.what))
    return out


def add_rule_effects(battle, unit_ent: int, declared: list) -> list:
    """02.02.01 / 01.05.02 / 24 The declared attacks of ``unit_ent`` with what the rules acting
    on their models give them (sim.rules.effects.attack.attack_takes, for the attack's kind and
    its target): hit-, BS/WS- and wound-roll modifiers appended to the declaration's lists with
    their rules' names (so the 04.03 keying nets and clamps them with the others; a snap
    shooting attack, 15.09, takes only the wound-roll ones), the weapon profile the attack uses
    (characteristics changed, re-roll and conferred abilities added: weapon_taking) with the
    modifiers its conferred abilities give when the target is picked (24.16 [HEAVY], 24.21
    [LANCE]; [IGNORES COVER], 24.18, takes the benefit of cover away), the labels in
    ``rules``, and its attack key worked out again. Changes the declarations in place and
    returns the list."""
    if not RE.any_rules():
        return declared
    acting: dict[tuple, list] = {}  # (target, melee, psychic) -> the grants acting on the unit's attacks
    attacked: dict[tuple, tuple] = {}  # (target, melee) -> the target's "taken" effects acting
    taken: dict[tuple, object] = {}  # (target, melee, the model's acted effects) -> AttackTakes
    for d in declared:
        if d.target is None:
            continue
        melee = d.weapon.is_melee
        kind = "melee" if melee else "ranged"
        psychic = Hook.IGNORES_MODIFIERS in d.weapon.effects  # (a [PSYCHIC] attack, 24.29)
        acts = acting.get((d.target, melee, psychic))
        if acts is None:
            acts = acting[(d.target, melee, psychic)] = RE.acting(battle, unit_ent, ATTACKER_KINDS, attack=kind,
                                                                  other=d.target, psychic=psychic)
            if (d.target, melee) not in attacked:
                attacked[(d.target, melee)] = _attacked(battle, d.target, unit_ent, kind)
        at = attacked[(d.target, melee)]
        if not acts and not at:
            continue
        mine = tuple(_for_model(acts, d.model_id))
        ck = (d.target, melee, mine)
        if ck not in taken:
            taken[ck] = attacked_takes(at, attack_takes(mine, melee))
        takes = taken[ck]
        if takes is None:
            continue
        _take(battle, unit_ent, d, takes)
    return declared


def _attacked(battle, target: int, attacker: int, kind: str) -> tuple:
    """The "hit taken", "wound taken" and "AP taken" effects (and a worse "Sv") acting on the unit ``target`` against
    an attack of ``kind`` by ``attacker`` (sim.rules.effects.attack.attacked_takes reads them); a
    BEARER one (an attack that targets the bearer) only when every living model of the target is
    one of its bearers."""
    out = []
    living = None
    for a in RE.acting(battle, target, ATTACKED_KINDS, attack=kind, other=attacker):
        e = a.grant.what
        if not (e.stat in V.TAKEN_STATS or (e.stat == "Sv" and e.value < 0)):
            continue
        if a.grant.who == V.BEARER and a.held.bearers:
            if living is None:
                living = [W.model_id(m) for m in W.unit_models(target)]
            if any(m not in a.held.bearers for m in living):
                continue
        out.append(Acted(a.held.record.name, a.grant.what))
    return tuple(out)


def _take(battle, unit_ent: int, d, takes) -> None:
    """One declared attack takes ``takes`` (add_rule_effects)."""
    hit, skill, wound = takes.hit_mods, takes.skill_mods, takes.wound_mods
    if d.snap:
        hit = skill = ()  # 15.09
    if takes.changes_weapon:
        old = d.weapon
        new = weapon_taking(old, takes)
        added = new.abilities[len(old.abilities):]
        if added:
            d.abilities = d.abilities + added
            st = W.unit_state(unit_ent)
            facts = {"charged": st.charged}
            if not old.is_melee:
                facts["stationary"] = SH.heavy_stationary(W.unit_engaged(unit_ent), st.set_up_this_turn, st.moved)
            if not d.snap:
                hit = hit + _gained(old, new, "hit", facts, d.target)
            wound = wound + _gained(old, new, "wound", facts, d.target)
            if Hook.DENIES_COVER in new.effects and Hook.DENIES_COVER not in old.effects and d.skill_mods:
                d.skill_mods = tuple(m for m in d.skill_mods if m[0] != COVER_SOURCE)  # 24.18
        d.weapon = new
    d.hit_mods, d.skill_mods, d.wound_mods = d.hit_mods + hit, d.skill_mods + skill, d.wound_mods + wound
    d.rules = d.rules + takes.labels
    d.key = declared_key(d)


def _gained(old, new, roll: str, facts: dict, target: int) -> tuple:
    """The ``roll`` modifiers the abilities ``new`` has more than ``old`` give when the target is
    picked (sim.plan.common.plan_modifiers: the added abilities come last)."""
    return plan_modifiers(new, roll, facts, target)[len(plan_modifiers(old, roll, facts, target)):]


class TargetSide(NamedTuple):
    """What the models of a target take from the rules acting on them against one attack
    (sim.rules.effects.attack.target_takes), as the attack resolution and the odds read a
    target: by model id, only the models something changes for; ``T``: every model's T with
    its modifier, in roster order (None: no T changes); ``sources``: (rule name, what it gives
    in words) of each effect taken."""

    save_mod: dict  # model id -> the granted save-roll modifier (added to the scenario's)
    T: tuple | None
    fnp: dict  # model id -> the best of its own and the granted Feel No Pain (24.12)
    invuln: dict  # model id -> the best of its own (against this attack) and the granted InSv
    taken: dict  # model id -> the modifier to the Damage of each attack allocated to it
    sources: tuple
    save_reroll: dict  # model id -> its re-roll of save rolls ("ones" or "failed")

    def toughness(self, bodyguard, slots) -> int:
        """05.02.01 / 19.02 the unit's T for wound rolls with the models at ``slots`` alive."""
        return unit_toughness(self.T, bodyguard, slots)

    def save_reroll_faces(self, AP: int, models, Sv: dict, InSv: dict, save_mods: dict | None) -> frozenset:
        """01.05.02 The save results re-rolled for a pool at AP ``AP`` whose target has these
        living ``models`` (ids), with their Sv, InSv and net save-roll modifiers
        (sim.rules.effects.attack.save_reroll_faces)."""
        if not self.save_reroll:
            return frozenset()
        mods = save_mods or {}
        return save_reroll_faces((self.save_reroll.get(m, ""), _fails(AP, Sv[m], InSv[m], mods.get(m, 0)))
                                 for m in models)

    def save_mods(self, scenario: dict | None) -> dict | None:
        """The net save-roll modifier of each model: the scenario's (sim.plan.scenario_modifiers)
        and the rules' added (02.02.01)."""
        if not self.save_mod:
            return scenario
        out = dict(scenario or {})
        for mid, v in self.save_mod.items():
            out[mid] = out.get(mid, 0) + v
        return {k: v for k, v in out.items() if v} or None


def _fails(AP: int, Sv: int, InSv, modifier: int) -> tuple:
    """Whether each face 1..6 fails the save (index 0 unused), by 05.04 step 2 (save_faces)."""
    faces = save_faces(AP, Sv, InSv, modifier)
    return (False,) + tuple(faces[f][0] for f in range(1, 7))


def target_side(battle, target: int, attacker: int, melee: bool) -> TargetSide | None:
    """02.02.01 / 05.02 / 05.03 / 05.04 / 24.12 What each model of the unit ``target`` takes from
    the rules acting on it against an attack (``melee`` or not) by the unit ``attacker``: None
    when nothing changes (always, at one attribute read, in a battle without rules)."""
    if not RE.any_rules():
        return None
    acts = RE.acting(battle, target, TARGET_KINDS, attack="melee" if melee else "ranged", other=attacker)
    if not acts:
        return None
    r = W.roster(target)
    own_insv = r.InSv_melee_of if melee else r.InSv_of
    save_mod, fnp, invuln, taken, sources, reroll = {}, {}, {}, {}, {}, {}
    T = list(r.T)
    t_changed = False
    by_effects: dict[tuple, object] = {}
    for i, mid in enumerate(r.ids):
        mine = tuple(_for_model(acts, mid))
        tt = by_effects.get(mine)
        if tt is None and mine not in by_effects:
            tt = by_effects[mine] = target_takes(mine)
        if tt is None:
            continue
        sources.update(dict.fromkeys(tt.sources))
        if tt.save:
            save_mod[mid] = tt.save
        if tt.T:
            T[i] = toughness_with(T[i], tt.T)
            t_changed = True
        if tt.fnp is not None:
            fnp[mid] = best_roll(r.fnp[i], tt.fnp)
        if tt.invuln is not None:
            invuln[mid] = best_roll(own_insv[mid], tt.invuln)
        if tt.taken:
            taken[mid] = tt.taken
        if tt.save_reroll:
            reroll[mid] = tt.save_reroll
    if not sources:
        return None
    return TargetSide(save_mod, tuple(T) if t_changed else None, fnp, invuln, taken, tuple(sources), reroll)


# what the rules give a unit selected to shoot before its attacks are declared
class ShooterRules(NamedTuple):
    """What the rules acting on a unit selected to shoot give it for 10.02 step 2 (the shooting
    type, picked before any weapon is): ``advance_lifted`` / ``fall_back_lifted``: a permission
    lets it shoot in a turn it advanced / fell back (sim.rules.effects.eligibility); ``assault``:
    a conferred ability acting on its ranged attacks lets them shoot after advancing ([ASSAULT],
    24.04), so it qualifies for assault shooting (10.05) and every ranged weapon may be fired
    with it; ``permits``: the ELIGIBLE grants lifting its move's bar (their conditions on a
    target are checked per target: target_refusal)."""

    advance_lifted: bool = False
    fall_back_lifted: bool = False
    assault: bool = False
    permits: tuple = ()


NO_SHOOTER_RULES = ShooterRules()


def shooter_rules(battle, unit_ent: int) -> ShooterRules:
    """The ShooterRules of ``unit_ent`` now: the one seam the plan (sim.plan.shoot.plan_shoot),
    the shooting-type system and the players read (NO_SHOOTER_RULES in a battle without rules)."""
    if battle is None or not RE.any_rules():
        return NO_SHOOTER_RULES
    st = W.unit_state(unit_ent)
    if not st.advanced and not st.fell_back:
        return NO_SHOOTER_RULES  # (nothing to lift; [ASSAULT] matters only to a unit that advanced, 10.05)
    permits = tuple(RR.permitting(battle, unit_ent, EL.SHOOT))
    assault = st.advanced and any(
        a.grant.who != V.BEARER and Hook.SHOOTS_AFTER_ADVANCING in conferred_hooks(a.grant.what.ability)
        for a in RE.acting(battle, unit_ent, (V.WEAPON_ABILITY,), attack="ranged"))
    if not permits and not assault:
        return NO_SHOOTER_RULES
    return ShooterRules(bool(permits) and st.advanced, bool(permits) and st.fell_back, assault, permits)


def target_refusal(battle, unit_ent: int, rules: ShooterRules, shooting_type: str, target: int) -> str | None:
    """Why the unit may not shoot at ``target`` under the permission it shoots by (a condition of
    the permission on the other unit fails: Thrill Seekers' targets), or None. An advanced unit
    using assault shooting (10.05) needs no permission, so none restricts it."""
    if not rules.permits:
        return None
    st = W.unit_state(unit_ent)
    if not st.fell_back and shooting_type == SH.ASSAULT:
        return None
    return RR.permission_refusal(battle, unit_ent, EL.SHOOT, target, list(rules.permits))
