"""Orders being declared in the sandbox: which weapons each model uses and at what.

Plain data plus read-only world queries. The legality checks are the engine's own
(sim.plan, sim.rules.shooting), so what the panel allows is what ``Battle.submit`` accepts;
the battle still validates the final command, and its refusal is shown as is."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass

import esper

from sim import plan as P
from sim import commands as C
from sim.commands import Fight, Selection, Shoot
from sim.commands.registry import phase_refusal
from sim.components import Unit
from sim.rules import multi_profile as MP
from sim.rules import shooting as SH
from sim.rules.abilities import Hook, tag
from sim.rules.profiles import WeaponProfile
from sim.world import queries as W


@dataclass
class Slot:
    """One weapon carried by one model, and what the player declared for it."""

    model: str
    model_ent: int
    model_name: str
    weapon: WeaponProfile
    selected: bool = False
    target: str | None = None
    split: dict = None  # melee only (04.03): target unit -> attacks, when split between targets

    def __post_init__(self):
        if self.split is None:
            self.split = {}

    @property
    def cq(self) -> bool:
        return self.weapon.has(Hook.CLOSE_QUARTERS)


def weapon_line(w: WeaponProfile) -> str:
    rng = "Melee" if w.is_melee else f'{w.range}"'
    skill = ("WS" if w.is_melee else "BS") + f"{w.skill}+"
    return f"{rng}  A{w.A}  {skill}  S{w.S}  AP{w.AP}  D{w.D}"


class Order(ABC):
    record = None  # the command it builds (sim.commands)

    def __init__(self, battle, unit_id: str):
        self.battle = battle
        battle._enter()
        self.unit_id = unit_id
        self.unit_ent = battle.units[unit_id]
        self.owner = esper.component_for_entity(self.unit_ent, Unit).owner
        self.slots: list[Slot] = []
        self.message = ""
        self._target_cache: dict | None = None

    def model_slots(self, mid: str) -> list[int]:
        return [i for i, s in enumerate(self.slots) if s.model == mid]

    def models(self) -> list[str]:
        return list(dict.fromkeys(s.model for s in self.slots))

    def enemies(self) -> list[str]:
        self.battle._enter()
        return [esper.component_for_entity(e, Unit).id for e in W.enemy_units(self.unit_ent)]

    def targets(self) -> dict[str, str | None]:
        """Each living enemy unit: None if some selected weapon may target it, else why not."""
        if self._target_cache is None:
            self.battle._enter()
            self._target_cache = {u: self._target_reason(u) for u in self.enemies()}
        return self._target_cache

    def _dirty(self) -> None:
        self._target_cache = None

    def _target_reason(self, uid: str) -> str | None:
        reasons = Counter()
        for s in self.slots:
            if not s.selected:
                continue
            r = self.slot_target_problem(s, uid)
            if r is None:
                return None
            reasons[r] += 1
        if not reasons:
            return "select a weapon first"
        return reasons.most_common(1)[0][0]

    @abstractmethod
    def slot_target_problem(self, s: Slot, uid: str) -> str | None:
        """Why the weapon in slot ``s`` may not attack unit ``uid`` (None if it may)."""

    def assign(self, uid: str) -> str:
        """Give target ``uid`` to every selected weapon still without a target that may
        legally attack it. Returns a message for the status line."""
        self.battle._enter()
        n, why = 0, Counter()
        for s in self.slots:
            if not s.selected or s.target is not None:
                continue
            r = self.slot_target_problem(s, uid)
            if r is None:
                s.target = uid
                n += 1
            else:
                why[r] += 1
        self._dirty()
        if n == 0:
            if not why:
                self.message = "every selected weapon already has a target: clear targets to change them"
            else:
                self.message = f"{uid}: {why.most_common(1)[0][0]}"
        else:
            self.message = (f"1 weapon now targets {uid}" if n == 1 else f"{n} weapons now target {uid}") + (
                f"; {sum(why.values())} cannot ({why.most_common(1)[0][0]})" if why else "")
        return self.message

    def clear_targets(self) -> None:
        for s in self.slots:
            s.target = None
            s.split = {}
        self._dirty()
        self.message = "targets cleared"

    def alternatives(self, i: int) -> list[int]:
        """04.01.03 The other slots of the same model holding a profile of the multi-profile
        weapon of slot ``i`` (none for a weapon with one profile)."""
        s = self.slots[i]
        if not s.weapon.weapon:
            return []
        return [j for j in self.model_slots(s.model) if j != i and self.slots[j].weapon.weapon == s.weapon.weapon]

    def _pick_profile(self, i: int) -> str:
        """04.01.03 Before slot ``i`` is selected: deselect as many of the model's other
        selected profiles of that weapon as it takes to pick at most one per copy carried.
        Returns what it did for the status line ("" when nothing)."""
        s = self.slots[i]
        alt = self.alternatives(i)
        if not alt:
            return ""
        n = MP.copies(W.weapons_of(s.model_ent), s.weapon.weapon)
        on = [j for j in alt if self.slots[j].selected]
        on.sort(key=lambda j: self.slots[j].weapon.name == s.weapon.name)  # (other profiles first)
        dropped = []
        while on and len(on) + 1 > n:
            j = on.pop(0)
            self.slots[j].selected, self.slots[j].target = False, None
            self.slots[j].split = {}
            dropped.append(self.slots[j].weapon.name)
        if not dropped:
            return ""
        return f" instead of {', '.join(dropped)} (one profile of {s.weapon.weapon}, 04.01.03)"

    def selections(self) -> tuple[Selection, ...]:
        return tuple(Selection(s.model, s.weapon.name, s.target) for s in self.slots
                     if s.selected and s.target is not None)

    def summary(self) -> list[str]:
        groups = Counter((s.weapon.name, s.target) for s in self.slots if s.selected)
        return [f"{w} x{n} -> {t or 'no target yet'}" for (w, t), n in groups.items()]


class ShootOrder(Order):
    record = C.SHOOT
    # (the unit's state flag once it made such an order this phase, and the reason: order_refusal)
    done = ("selected_to_shoot", "{unit} was already selected to shoot this phase (10.02)")

    def __init__(self, battle, unit_id: str):
        super().__init__(battle, unit_id)
        self.eligibility = SH.shooting_type_eligibility(P.shooting_facts(self.unit_ent, battle))
        self.type: str | None = None
        for m in W.unit_models(self.unit_ent):
            for w in W.weapons_of(m):
                if not w.is_melee:
                    self.slots.append(Slot(W.model_id(m), m, _model_name(battle, W.model_id(m)), w))
        self.mv = {s.model: W.is_monster_or_vehicle(s.model_ent) for s in self.slots}

    @property
    def default_type(self) -> str | None:
        return SH.default_shooting_type(self.eligibility)

    def choose_type(self, t: str) -> str | None:
        reason = self.eligibility.get(t, f"unknown shooting type {t}")
        if reason is not None:
            self.message = f"cannot use {t} shooting: {reason}"
            return self.message
        self.type = t
        for s in self.slots:
            s.selected, s.target = False, None
        # preselect: each model's other ranged weapons if legal, else its close-quarters ones
        for mid in self.models():
            idx = self.model_slots(mid)
            # (of a multi-profile weapon, its first profile, 04.01.03)
            firsts = {w.name for w in MP.default_profiles([self.slots[i].weapon for i in idx])}
            for want_cq in (False, True):
                pick = [i for i in idx if self.slots[i].cq == want_cq and self.slots[i].weapon.name in firsts
                        and self.slot_problem(self.slots[i]) is None]
                if pick and self._model_problem(mid, pick) is None:
                    for i in pick:
                        self.slots[i].selected = True
                    break
        self._dirty()
        self.message = f"{t} shooting: weapons preselected; click an enemy unit to target it"
        return None

    def slot_problem(self, s: Slot) -> str | None:
        """Why this weapon can never be selected under the chosen type (for a disabled toggle)."""
        if self.type is None:
            return "choose a shooting type first"
        if self.battle.units and s.weapon.has(Hook.ONCE_PER_BATTLE):
            used = W.unit_state(self.unit_ent).used_one_shot
            if f"{s.model}:{s.weapon.name}" in used:
                return f"{s.weapon.name} is {tag(Hook.ONCE_PER_BATTLE)} and was already fired (24.26)"
        return SH.weapon_selection_problem(self.type, self.mv[s.model], [_wtuple(s.weapon)])

    def _model_problem(self, mid: str, idx: list[int]) -> str | None:
        return SH.weapon_selection_problem(self.type, self.mv[mid], [_wtuple(self.slots[i].weapon) for i in idx])

    def toggle(self, i: int) -> str | None:
        """Select or deselect slot ``i``, enforcing 24.07/10.05/10.06 per model as you click:
        picking a weapon that cannot be combined with the model's current picks swaps them out."""
        s = self.slots[i]
        if s.selected:
            s.selected, s.target = False, None
            self._dirty()
            self.message = f"{s.model}: {s.weapon.name} deselected"
            return None
        p = self.slot_problem(s)
        if p:
            self.message = f"{s.model}: {p}"
            return self.message
        current = [j for j in self.model_slots(s.model) if self.slots[j].selected]
        problem = self._model_problem(s.model, current + [i])
        if problem:
            keep = [j for j in current if self._model_problem(s.model, [j, i]) is None]
            if self._model_problem(s.model, keep + [i]) is not None:
                self.message = f"{s.model}: {problem}"
                return self.message
            for j in current:
                if j not in keep:
                    self.slots[j].selected, self.slots[j].target = False, None
            self.message = f"{s.model}: {problem} - switched to {s.weapon.name}"
        else:
            self.message = f"{s.model}: {s.weapon.name} selected"
        self.message += self._pick_profile(i)
        s.selected = True
        self._dirty()
        return None

    def slot_target_problem(self, s: Slot, uid: str) -> str | None:
        if self.type is None:
            return "choose a shooting type first"
        t = self.battle.units[uid]
        if W.unit_destroyed(t):
            return "destroyed"
        facts, _n = P.target_facts(self.battle, self.unit_ent, s.model_ent, s.weapon, t, self.type)
        return SH.ranged_target_problem(facts)

    def command(self) -> Shoot:
        return Shoot(self.unit_id, self.selections(), self.type)


class FightOrder(Order):
    record = C.FIGHT
    done = ("selected_to_fight", "{unit} was already selected to fight this phase (12.04)")

    def __init__(self, battle, unit_id: str):
        super().__init__(battle, unit_id)
        st = W.unit_state(self.unit_ent)
        self.eligible = None if P.eligible_to_fight(battle, self.unit_ent) else \
            "already selected to fight (12.04)" if st.selected_to_fight else "not engaged and did not charge (12.04)"
        for m in W.unit_models(self.unit_ent):
            mid = W.model_id(m)
            first = True
            # (of a multi-profile weapon, its first profile preselected, 04.01.03)
            firsts = {w.name for w in MP.default_profiles(W.weapons_of(m))}
            for w in W.weapons_of(m):
                if w.is_melee:
                    sel = (w.has(Hook.EXTRA_WEAPON) or first) and w.name in firsts
                    if not w.has(Hook.EXTRA_WEAPON) and sel:
                        first = False
                    self.slots.append(Slot(mid, m, _model_name(battle, mid), w, selected=sel))

    def toggle(self, i: int) -> str | None:
        """04.01: exactly one melee weapon per model, besides its [EXTRA ATTACKS] weapons."""
        s = self.slots[i]
        if s.weapon.has(Hook.EXTRA_WEAPON):
            swapped = "" if s.selected else self._pick_profile(i)
            s.selected = not s.selected
            if not s.selected:
                s.target = None
            elif swapped:
                self.message = f"{s.model} fights with {s.weapon.name}{swapped}"
        elif not s.selected:
            for j in self.model_slots(s.model):
                o = self.slots[j]
                if not o.weapon.has(Hook.EXTRA_WEAPON) and o.selected:
                    o.selected, o.target = False, None
            s.selected = True
            self.message = f"{s.model} fights with {s.weapon.name} (one melee weapon per model, 04.01" + (
                "; one profile of a weapon, 04.01.03)" if self.alternatives(i) else ")")
        else:
            s.selected, s.target = False, None
        for o in self.slots:
            if not o.selected:
                o.split = {}
        self._dirty()
        return None

    def slot_problem(self, s: Slot) -> str | None:
        return self.eligible

    def slot_target_problem(self, s: Slot, uid: str) -> str | None:
        t = self.battle.units[uid]
        if W.unit_destroyed(t):
            return "destroyed"
        if not any(W.models_engaged(s.model_ent, tm) for tm in W.unit_models(t)):
            return "not engaged with this model (04.02)"
        return None

    def can_split(self, s: Slot) -> bool:
        return not s.weapon.A.is_random and s.weapon.A.k > 1

    def assign(self, uid: str) -> str:
        """A first target as for shooting, for the selected weapons without one that may attack
        it (a model engaged with another enemy unit only gets its target so, 04.02, 12.04); once
        none is left, a click on another engaged enemy unit splits the attacks of the selected
        weapons that already have a target (04.03): 1 attack moves to it."""
        if not any(s.selected and s.target is not None and s.target != uid for s in self.slots) or any(
                s.selected and s.target is None and self.slot_target_problem(s, uid) is None for s in self.slots):
            return super().assign(uid)
        self.battle._enter()
        n, why = 0, []
        for s in self.slots:
            if not s.selected or s.target is None or s.target == uid or uid in s.split:
                continue
            r = self.slot_target_problem(s, uid)
            if r is None and not self.can_split(s):
                r = f"{s.weapon.name} has A{s.weapon.A}: its attacks cannot be split (04.03)"
            if r is None and len(self.split_of(s)) >= s.weapon.A.k:
                r = f"no more targets than A{s.weapon.A.k} (04.03)"
            if r is not None:
                why.append(r)
                continue
            alloc = self.split_of(s)
            donor = max(alloc, key=lambda t: alloc[t])
            if alloc[donor] < 2:
                why.append("every target already has 1 attack (04.03)")
                continue
            alloc[donor] -= 1
            alloc[uid] = 1
            s.split = alloc
            n += 1
        self._dirty()
        self.message = (f"{n} weapon{'' if n == 1 else 's'} split 1 attack to {uid}: adjust with - and + (04.03)" if n else
                        f"{uid}: {why[0] if why else 'nothing to split'}")
        return self.message

    def split_of(self, s: Slot) -> dict:
        """Attacks per target for a slot (all of A to its one target when not split)."""
        if s.split:
            return dict(s.split)
        if s.target is None:
            return {}
        return {s.target: s.weapon.A.k if not s.weapon.A.is_random else 0}

    def adjust(self, i: int, uid: str, d: int) -> str:
        """Move one attack of slot ``i`` to (+1) or away from (-1) target ``uid``, keeping at
        least 1 per target and the total at A (04.03); a target left with none is dropped."""
        s = self.slots[i]
        alloc = self.split_of(s)
        if uid not in alloc or len(alloc) < 2:
            return self.message
        others = [t for t in alloc if t != uid]
        if d > 0:
            donor = max(others, key=lambda t: alloc[t])
            if alloc[donor] < 2:
                self.message = f"{s.model}: every other target keeps at least 1 attack (04.03)"
                return self.message
            alloc[donor] -= 1
            alloc[uid] += 1
        else:
            alloc[others[0]] += 1
            alloc[uid] -= 1
            if alloc[uid] == 0:
                del alloc[uid]
        s.split = alloc if len(alloc) > 1 else {}
        s.target = next(iter(alloc))
        self._dirty()
        self.message = f"{s.model} {s.weapon.name}: " + ", ".join(f"{n} at {t}" for t, n in alloc.items())
        return self.message

    def selections(self) -> tuple[Selection, ...]:
        out = []
        for s in self.slots:
            if not s.selected or s.target is None:
                continue
            if len(s.split) > 1:
                out += [Selection(s.model, s.weapon.name, t, n) for t, n in s.split.items()]
            else:
                out.append(Selection(s.model, s.weapon.name, s.target))
        return tuple(out)

    def summary(self) -> list[str]:
        groups = Counter((s.weapon.name, ", ".join(f"{n} at {t}" for t, n in s.split.items())
                          if len(s.split) > 1 else (s.target or "no target yet"))
                         for s in self.slots if s.selected)
        return [f"{w} x{n} -> {t}" for (w, t), n in groups.items()]

    def command(self) -> Fight:
        return Fight(self.unit_id, self.selections())


def _wtuple(w: WeaponProfile):
    return SH.weapon_facts(w)


def _model_name(battle, mid: str) -> str:
    for us in battle.scenario.units:
        for ms in us.models:
            if ms.id == mid:
                return ms.name
    return mid


def order_refusal(sb, record) -> str | None:
    """Why the phase does not accept an order of ``record``'s kind (sim.commands: SHOOT, FIGHT)
    for the selected unit now, in the rules' words (07.02, sim.commands.registry.phase_refusal),
    or None: the buttons of such an order are greyed with it, and its key says it."""
    b = sb.battle
    ts = b.turn_state
    if ts is None or sb.mode != "battle":
        return None
    uv = sb.scene.units.get(sb.selected_unit) if sb.selected_unit else None
    why = phase_refusal(ts, record, None if uv is None else uv.owner)
    order = _ORDERS.get(record)
    if why is None and uv is not None and order is not None and uv.id in b.units:
        b._enter()  # (a unit that shot or fought this phase: greyed, not refused at Resolve)
        flag, text = order.done
        if getattr(W.unit_state(b.units[uv.id]), flag):
            why = text.format(unit=uv.id)
    return why and sb.said(why)  # (the players by their armies' names: "Raiders' Movement phase")


_ORDERS = {cls.record: cls for cls in (ShootOrder, FightOrder)}
