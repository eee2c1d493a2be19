"""One declared attack read off a battle, as plain hashable data the odds engine works from: the
attacking unit's declared attacks as the battle's own planning leaves them (sim.plan via
the Shoot and Fight records' checks, the same code a command is validated and resolved with), gathered into pools
(04.03, sim.rules.pools.gather), and each target unit's models as allocation reads them.

Nothing here changes the battle. The choices the attacker makes in Select Weapons (24.02 which
copy of a duplicated ability, 24.29 which modifiers a [PSYCHIC] attack ignores) are taken as
WeaponSelectionSystem takes them, from the answers given (a script step's ``decisions``) or the
defaults; a test compares the result with the declarations the battle itself resolves."""

from __future__ import annotations

import contextlib
import copy
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import esper

from sim.components import Unit
from sim.errors import PlanError
from sim.plan.common import declared_key  # (before sim.plan.scenario_modifiers, which sim.plan imports back)
from sim.plan.scenario_modifiers import save_modifiers  # noqa: E402,I001
from sim.plan.rule_effects import target_side  # noqa: E402,I001
from sim.rules import abilities as AB
from sim.rules import pools as PL
from sim.rules.abilities import Hook
from sim.rules.allocation import TargetModel
from sim.rules.attack import unit_toughness
from sim.rules.dice import DiceExpr
from sim.rules.mortal import hazardous_count
from sim.systems.precision_allocation import visible_characters
from sim.world import queries as W
from sim.rules.attack import AttackKind


class OddsError(Exception):
    """The attack cannot be worked out as asked (the rules refuse the command, or nothing is
    declared); the message says why."""


@dataclass(frozen=True, slots=True)
class UnitView:
    """A unit's models as the odds read them (listed order): what never changes in a battle, and
    the wounds each has left now (``start``; 0 for a destroyed model)."""

    uid: str
    name: str
    ids: tuple[str, ...]
    W: tuple[int, ...]
    Sv: tuple[int, ...]
    InSv: tuple
    character: tuple[bool, ...]
    T: tuple[int, ...]
    bodyguard: tuple[bool, ...]
    keywords: tuple[frozenset, ...]
    fnp: tuple
    save_mod: tuple[int, ...]  # the model's net save-roll modifier against this attack (02.02.01)
    start: tuple[int, ...]
    preferred: tuple[str, ...]  # the scenario's declared allocation order (Part A ruling 9)
    explodes: tuple[bool, ...]  # 24.08 Deadly Demise
    monster_or_vehicle: tuple[bool, ...]
    invuln: tuple = ()  # each model's invulnerable save against this attack (05.03; empty: InSv)
    taken: tuple = ()  # each model's modifier to the Damage of each attack allocated to it (empty: none)
    save_reroll: tuple = ()  # each model's re-roll of save rolls: "", "ones" or "failed" (empty: none)
    rules: tuple = field(default=(), compare=False)  # (rule, what it gives) acting on its models (report)

    @property
    def saves_InSv(self) -> tuple:
        """The InSv each model's save rolls use against this attack (a save against ranged or
        melee attacks only counts against those: sim.rules.attack.invulnerable_against)."""
        return self.invuln or self.InSv

    @staticmethod
    def living(r) -> tuple[int, ...]:
        return tuple(i for i, x in enumerate(r) if x > 0)

    def unit_keywords(self, living) -> frozenset:
        """19.03 The unit's keywords: every keyword of its living models."""
        out: set = set()
        for i in living:
            out |= self.keywords[i]
        return frozenset(out)

    def toughness(self, living) -> int:
        """05.02.01 / 19.02 the unit's T for wound rolls with these models alive."""
        return unit_toughness(self.T, self.bodyguard, living)

    def has_character(self, living) -> bool:
        return any(self.character[i] for i in living)

    def target_models(self, r) -> tuple[TargetModel, ...]:
        """The models as the allocation rules see them with ``r`` wounds left (living and dead)."""
        return tuple(TargetModel(self.ids[i], self.W[i], r[i], self.Sv[i], self.InSv[i], self.character[i])
                     for i in range(len(self.ids)))

    @property
    def models_alive(self) -> int:
        return sum(1 for x in self.start if x > 0)


class MemberDice(NamedTuple):
    """What 04.03 step 2 reads of one declared attack to count its dice."""

    A: DiceExpr
    attacks: int | None  # a split melee weapon's share
    abilities: tuple
    half_range: bool
    target_models: int
    split: bool
    adds_dice: bool  # the weapon has an ability that can add dice (Hook.ADDS_DICE)


@dataclass(frozen=True, slots=True)
class PoolInput:
    """One pool of identical attacks at one target (04.03)."""

    index: int
    target: int  # index into Problem.targets
    key: PL.AttackKey
    members: tuple[MemberDice, ...]
    first_abilities: tuple  # the abilities of the pool's first declaration (as gathered)
    attackers: tuple[str, ...]
    visible_characters: tuple[str, ...]  # 24.28 CHARACTERs of the target the attackers see
    weapons: tuple[str, ...]
    rules: tuple = field(default=(), compare=False)  # (rule, what it gives) the attacks take (report)


@dataclass(frozen=True, slots=True)
class Problem:
    """One declared attack: the attacking unit, its pools in resolution order, the targets, the
    [HAZARDOUS] rolls it makes afterwards (24.15) and the answers to the attacker's and the
    defender's choices (a script step's ``decisions``: precision, allocation_order,
    lethal_hits; others take the default)."""

    attacker: UnitView
    kind: AttackKind  # ranged or melee attacks
    pools: tuple[PoolInput, ...]
    targets: tuple[UnitView, ...]
    hazard_rolls: int
    attacker_all_monster_or_vehicle: bool
    decisions: tuple = ()  # sorted (kind, answer) pairs, answers made hashable
    shooting_type: str | None = field(default=None, compare=False)  # (for the report: the plan has it)
    label: str = field(default="", compare=False)

    def decision(self, kind: str, default=None):
        for k, v in self.decisions:
            if k == kind:
                return v
        return default


def anonymous(problem: Problem) -> Problem:
    """The problem with every name made positional: the target units' models ``k.i`` (the
    i-th model of the k-th target), the attacker's ``a.i``, units, weapons and labels
    blank. The odds read a model's id only to tell it from another (allocation's groups and
    order, the [PRECISION] pick, the declared order, a hazard's mortal wounds: equality, never
    its spelling), so an attack's odds are its anonymous problem's, to the bit, with each
    target's unit id put back by position (tests/odds/test_anonymous_problem.py); two
    attacks that differ only in names (two squads of one datasheet, at full strength, at the
    same target) share them. A name that is no model of the unit (a declared order's
    destroyed or foreign model) is kept apart from every other name. What the odds never read
    is left out: the models making each pool's attacks (PoolInput.attackers, a name list),
    and the attacker itself when it makes no hazard roll (only its hazard rolls read it, 24.15:
    ``NO_ATTACKER``), so that one weapon of two units at one target is solved once."""
    names: dict[str, str] = {}

    def named(i, token) -> str:
        return names.setdefault(i, token)

    for k, tv in enumerate(problem.targets):
        for i, mid in enumerate(tv.ids):
            named(mid, f"{k}.{i}")
    for i, mid in enumerate(problem.attacker.ids):
        named(mid, f"a.{i}")

    def of(i):
        return names[i] if i in names else named(i, f"x.{len(names)}")

    held = _HELD[0]

    def view(tv: UnitView, uid: str) -> UnitView:
        ids, preferred = tuple(of(i) for i in tv.ids), tuple(of(i) for i in tv.preferred)
        if held is None:
            return replace(tv, uid=uid, name="", ids=ids, preferred=preferred, rules=())
        # (a view kept while the battle is held still comes again and again: made once)
        key = (id(tv), uid, ids, preferred)
        got = held.anonymous.get(key)
        if got is None or got[0] is not tv:
            got = held.anonymous[key] = (tv, replace(tv, uid=uid, name="", ids=ids, preferred=preferred, rules=()))
        return got[1]

    targets = tuple(view(tv, f"t{k}") for k, tv in enumerate(problem.targets))
    pools = tuple(replace(p, attackers=(), visible_characters=tuple(of(i) for i in p.visible_characters),
                          weapons=(), rules=())
                  for p in problem.pools)
    decisions = tuple((k, _renamed(k, v, of)) for k, v in problem.decisions)
    if problem.hazard_rolls:
        attacker, all_mv = view(problem.attacker, "a"), problem.attacker_all_monster_or_vehicle
    else:
        attacker, all_mv = NO_ATTACKER, False
    return replace(problem, attacker=attacker, attacker_all_monster_or_vehicle=all_mv, pools=pools,
                   targets=targets, decisions=decisions, shooting_type=None, label="")


NO_ATTACKER = UnitView("a", "", (), (), (), (), (), (), (), (), (), (), (), (), (), ())
"""The attacker of an anonymous problem whose attacker makes no hazard roll: no model."""


def _renamed(kind: str, v, of):
    """A decision's answer with each model name in it made positional (``anonymous``): the
    [PRECISION] pick (a model, or "decline"), the allocation order (models, read as names)."""
    if kind == "precision":
        return of(v) if isinstance(v, str) and v != "decline" else v
    if kind == "allocation_order":
        return tuple(of(str(x)) for x in v) if isinstance(v, tuple) else v
    return v


def _frozen(v):
    return tuple(_frozen(x) for x in v) if isinstance(v, (list, tuple)) else v


class _Held:
    """What ``held_still`` keeps: the battle held still and its mark then, the unit views
    worked out since ((unit, attacker, melee) -> UnitView), and the anonymous views made of
    views (``anonymous``: (id, unit id, names) -> (view, its anonymous view), the view kept
    with it so that its id stays its own)."""

    __slots__ = ("battle", "mark", "views", "anonymous")

    def __init__(self, battle):
        self.battle, self.mark, self.views, self.anonymous = battle, battle._mark(), {}, {}


_HELD: list = [None]  # (the one _Held in force, or None)


@contextlib.contextmanager
def held_still(battle):
    """Within: ``battle`` is held still (a player weighing its options between two commands,
    which Battle.check lets it do: it records nothing), so each unit view ``unit_view`` works
    out of it is kept and given again for the same (unit, attacker, melee), and so is the
    anonymous view (``anonymous``) of each. Kept for as long
    as the battle's mark (Battle._mark: every event and every command resolved) stays as it
    was: a change recorded within lets them go. A change made without an event (a test's
    direct edit of the world) must not be made within. Outside, nothing is kept. Nested:
    the outer hold stands."""
    if _HELD[0] is not None:
        yield
        return
    _HELD[0] = _Held(battle)
    try:
        yield
    finally:
        _HELD[0] = None


def unit_view(battle, unit_ent: int, attacker: int | None = None, melee: bool = False) -> UnitView:
    """A unit's UnitView now; ``attacker`` (a unit entity): the save modifiers its models have
    against that unit's attacks (melee or not), and what the rules acting on its models give
    them against those attacks (sim.plan.rule_effects.target_side, as the battle reads them).
    Kept while the battle is held still (``held_still``): against an attacker nothing acts
    against (no save modifier, no rule), the unit's plain view (``attacker`` None), one for all."""
    held = _HELD[0]
    if held is None or held.battle is not battle:
        return _unit_view(battle, unit_ent, *_against(battle, unit_ent, attacker, melee), melee)
    mark = battle._mark()
    if mark != held.mark:
        held.mark = mark
        held.views.clear()
    key = (unit_ent, attacker, melee)
    got = held.views.get(key)
    if got is None:
        smods, side = _against(battle, unit_ent, attacker, melee)
        if side is None and not smods:
            plain = (unit_ent, None, melee)
            got = held.views.get(plain)
            if got is None:
                got = held.views[plain] = _unit_view(battle, unit_ent, None, None, melee)
        else:
            got = _unit_view(battle, unit_ent, smods, side, melee)
        held.views[key] = got
    return got


def _against(battle, unit_ent: int, attacker: int | None, melee: bool) -> tuple:
    """(the save modifiers of the unit's models against ``attacker``'s attacks, what the rules
    acting on them give them against those attacks): (None, None) without an attacker."""
    if attacker is None:
        return None, None
    return save_modifiers(unit_ent, attacker, melee), target_side(battle, unit_ent, attacker, melee)


def _unit_view(battle, unit_ent: int, smods, side, melee: bool) -> UnitView:
    """``unit_view`` worked out, from ``_against``'s answer."""
    r = W.roster(unit_ent)
    u = esper.component_for_entity(unit_ent, Unit)
    if side is not None:
        smods = side.save_mods(smods)
    smods = smods or {}
    explodes = tuple(any(Hook.EXPLODES in a.spec.hooks for a in (W.model_abilities(m) or ())) for m in r.models)
    insv = r.InSv_melee_of if melee else r.InSv_of
    T, fnp, taken, rules, save_reroll = tuple(r.T), tuple(r.fnp), (), (), ()
    if side is not None:
        insv = {**insv, **side.invuln}
        T = side.T or T
        fnp = tuple(side.fnp.get(i, f) for i, f in zip(r.ids, fnp))
        taken = tuple(side.taken.get(i, 0) for i in r.ids) if side.taken else ()
        rules = side.sources
        save_reroll = tuple(side.save_reroll.get(i, "") for i in r.ids) if side.save_reroll else ()
    return UnitView(
        uid=u.id, name=u.name, ids=tuple(r.ids), W=tuple(t.W for t in r.full), Sv=tuple(t.Sv for t in r.full),
        InSv=tuple(t.InSv for t in r.full), character=tuple(r.character), T=T,
        invuln=tuple(insv[t.id] for t in r.full), taken=taken, rules=rules, save_reroll=save_reroll,
        bodyguard=tuple(r.bodyguard), keywords=tuple(W.model_keywords(m) for m in r.models),
        fnp=fnp, save_mod=tuple(smods.get(i, 0) for i in r.ids),
        start=tuple(max(w.remaining, 0) for w in r.wounds),
        preferred=tuple(battle.scenario_allocation_orders.get(unit_ent, ())),
        explodes=explodes, monster_or_vehicle=tuple(r.monster_or_vehicle))


def finish_declared(battle, declared, decisions: dict) -> list:
    """The declarations after the attacker's choices in Select Weapons, as
    WeaponSelectionSystem makes them (those it changes copied: the plan's own are left alone):
    24.02 one copy of a duplicated ability per weapon and target (the answer ``duplicate`` if
    it names a copy, else the default, Part A ruling 8), 24.29 the modifiers a [PSYCHIC]
    attack ignores (the answer ``psychic``, else the harmful ones)."""
    out = []
    for d in declared:
        if d.target is None:
            out.append(d)
            continue
        duplicated = len(d.weapon.names) != len(d.weapon.abilities)
        mods = d.hit_mods + d.skill_mods
        if not duplicated and not (mods and AB.first_with(d.abilities, Hook.IGNORES_MODIFIERS)):
            out.append(d)  # (nothing to choose: the plan's own, unchanged)
            continue
        d = copy.copy(d)
        out.append(d)
        if duplicated:
            for name, copies in AB.duplicates(d.weapon.abilities).items():
                labels = [a.label() for a in copies]
                chosen = decisions.get("duplicate")
                if chosen not in labels:
                    chosen = AB.default_duplicate(copies, W.unit_keywords(d.target)).label()
                kept, seen = [], False
                for a in d.abilities:
                    if a.name == name:
                        if seen or a.label() != chosen:
                            continue
                        seen = True
                    kept.append(a)
                d.abilities = tuple(kept)
                d.key = declared_key(d)
        mods = d.hit_mods + d.skill_mods
        if mods and AB.first_with(d.abilities, Hook.IGNORES_MODIFIERS):
            if "psychic" in decisions:
                wanted = decisions["psychic"]
                wanted = wanted if isinstance(wanted, (list, tuple)) else [wanted]
                d.ignored = tuple(s for s, _v in mods if s in wanted)
            else:
                d.ignored = tuple(s for s, v in mods if v < 0)
            d.key = declared_key(d)
    return out


def build_problem(battle, declared, attacker_ent: int, kind: str, decisions: dict | None = None,
                  shooting_type: str | None = None) -> Problem:
    """The Problem of ``declared`` (a plan's declarations, sim.plan) made by the unit
    ``attacker_ent`` (``kind`` an AttackKind) in the battle as it is now."""
    decisions = dict(decisions or {})
    battle._enter()
    declared = finish_declared(battle, declared, decisions)
    specs = PL.gather([(d.target, d.key) for d in declared])
    if not specs:
        raise OddsError("no attacks are declared (no weapon has a target)")
    melee = kind == AttackKind.FIGHTING
    targets: list[UnitView] = []
    index: dict[int, int] = {}
    pools = []
    for n, spec in enumerate(specs):
        if spec.target not in index:
            index[spec.target] = len(targets)
            targets.append(unit_view(battle, spec.target, attacker_ent, melee))
        members = [declared[i] for i in spec.members]
        attackers = tuple(dict.fromkeys(d.model_id for d in members))
        pools.append(PoolInput(
            index=n, target=index[spec.target], key=spec.key,
            members=tuple(MemberDice(d.weapon.A, d.attacks, d.abilities, d.half_range, d.target_models, d.split,
                                     Hook.ADDS_DICE in d.weapon.effects) for d in members),
            first_abilities=members[0].abilities, attackers=attackers,
            visible_characters=tuple(visible_characters(battle, attackers, spec.target)),
            weapons=tuple(sorted({d.weapon.name for d in members})), rules=members[0].rules))
    attacker = unit_view(battle, attacker_ent)
    picked = tuple(sorted((k, _frozen(v)) for k, v in decisions.items()
                          if k in ("precision", "allocation_order", "lethal_hits")))
    label = f"{attacker.uid} {'shoots' if kind == AttackKind.SHOOTING else 'fights'} " + ", ".join(
        f"{', '.join(p.weapons)} -> {targets[p.target].uid}" for p in pools)
    return Problem(attacker, kind, tuple(pools), tuple(targets), hazardous_count(declared),
                   W.every_model_monster_or_vehicle(attacker_ent), picked, shooting_type, label)


def problem_for_command(battle, command, decisions: dict | None = None) -> Problem:
    """The Problem of a Shoot or Fight command in the battle as it is now: planned exactly as
    the battle would validate it (PlanError-worthy commands raise OddsError with the rules'
    reason)."""
    if not command.record.attacks:
        raise OddsError(f"a {command.kind} command makes no attacks")
    problem = battle.check(command)
    if problem:
        raise OddsError(problem)
    plan = battle.validated
    if plan is None or plan.command is not command:  # (validate_command leaves it for the command)
        raise PlanError("the battle kept no plan for the command")
    return build_problem(battle, plan.declared, battle.units[command.unit], command.kind, decisions,
                         plan.shooting_type)
