"""A scenario script's steps run against the live battle: each step's commands (shorthand like
``targets = { "bolt rifle" = "raiders" }`` expanded into explicit per-model selections, so the
replay log always holds the full command), and why a shorthand left a model out. The steps
themselves are read by sim.scenario.script."""

from __future__ import annotations

import esper

from sim import commands as C
from sim.commands import DeclareCharge, EndPhase, EndTurn, Fight, Move, SelectToMove, Selection, Shoot
from sim.commands import charge_command, consolidate_command, overrun_command, pile_in_command
from sim.components import Position, Unit
from sim.errors import PlanError
from sim.plan import shooting_type_for, target_facts
from sim.plan.common import not_there
from sim.rules.shooting import ranged_target_problem
from sim.rules import multi_profile as MP
from sim.rules.abilities import Hook
from sim.rules.attack import AttackKind
from sim.rules.movement.moves import MoveType, advance_end, mode_of_selection
from sim.rules.turn import FightType
from sim.scenario.script import STEPS, Expansion
from sim.scenario.spec import ScriptStep
from sim.world import queries as W


def step_commands(battle, step: ScriptStep):
    """The commands of a script step, one at a time: each is expanded against the live battle
    only after the one before it has been resolved (a generator). Most steps are one command;
    an advance or a Desperate Escape selects the unit first (the roll or the hazard rolls come
    before any model moves, 09.06/09.07), a charge declares and rolls before its move (11.02),
    and a step that leaves out where models end has them placed by the solver (Part A rulings
    17-18, 27). Yields Expansion tuples."""
    yield from _STEP_COMMANDS[step_record(step)](battle, step)


def step_record(step: ScriptStep):
    """The record of the first command a script step gives (sim.commands)."""
    return STEPS[step.action["step"]]


def attack_action(kind: AttackKind, unit: str, targets: dict | None = None, models: dict | None = None) -> dict:
    """The action of a shoot (ranged) or fight (melee) step of ``unit``: weapon -> target
    tables for the whole unit (``targets``, the shorthand) and per model (``models``)."""
    record = C.FIGHT if kind == AttackKind.FIGHTING else C.SHOOT
    return {"step": record.script_step, "unit": unit, "targets": dict(targets or {}), "models": dict(models or {})}


def attack_kind(step: ScriptStep) -> AttackKind | None:
    """What a script step's first command attacks with (None: it makes no attacks)."""
    record = step_record(step)
    if not record.attacks:
        return None
    return AttackKind.FIGHTING if record.selects_to_fight else AttackKind.SHOOTING


def _one(battle, step):
    yield expand(battle, step)


def _end_phase(battle, step):
    yield Expansion(EndPhase(), [])


def _move(battle, step):
    a = step.action
    mode = a["mode"]
    if mode in (MoveType.ADVANCE, MoveType.DESPERATE_ESCAPE, MoveType.STATIONARY):
        yield Expansion(SelectToMove(a["unit"], mode), [])
        if mode == MoveType.STATIONARY:
            return
    yield expand(battle, step)


def _charge(battle, step):
    a = step.action
    yield Expansion(DeclareCharge(a["unit"]), [])
    yield Expansion(charge_command(battle, a["unit"], a.get("targets"), a.get("to"), fly=a.get("fly", False)), [])


def _ingress(battle, step):
    a = step.action
    if a.get("to") is not None:
        yield Expansion(C.Ingress(a["unit"], tuple((m, *p) for m, p in a["to"].items())), [])
    else:
        owner = esper.component_for_entity(battle.units[a["unit"]], Unit).owner
        cmd = C.default_ingress(battle, battle.units[a["unit"]], owner)
        yield Expansion(cmd if cmd is not None else C.Ingress(a["unit"], ()), [])


def _disembark(battle, step):
    a = step.action
    if a.get("to") is not None:
        yield Expansion(C.Disembark(a["unit"], tuple((m, *p) for m, p in a["to"].items())), [])
    else:  # (the automatic players' layout, toward the nearest objective it does not hold)
        ent = battle.units[a["unit"]]
        cmd = C.default_disembark(battle, ent, _goal(battle, ent))
        yield Expansion(cmd if cmd is not None else C.Disembark(a["unit"], ()), [])


def _goal(battle, ent):
    """Where an automatic disembark heads: the objective nearest its transport (None: none)."""
    ts = battle.turn_state
    models = W.unit_models(W.embarked_in(ent))
    if ts is None or not ts.objectives or not models:
        return None
    ps = [esper.component_for_entity(m, Position) for m in models]
    cx, cy = sum(p.x for p in ps) / len(ps), sum(p.y for p in ps) / len(ps)
    o = min(ts.objectives, key=lambda o: ((o.x - cx) ** 2 + (o.y - cy) ** 2, o.name))
    return (o.x, o.y)


def _formations(battle, step):
    a = step.action
    yield Expansion(C.DeclareFormations(a["player"], tuple(a["reserves"]), tuple(a.get("embarked", {}).items())), [])


def _deploy(battle, step):
    a = step.action
    if a.get("to") is not None:
        yield Expansion(C.Deploy(a["unit"], tuple((m, *p) for m, p in a["to"].items())), [])
    else:
        cmd = C.default_deploy(battle, battle.units[a["unit"]])
        yield Expansion(cmd if cmd is not None else C.Deploy(a["unit"], ()), [])


def _scout(battle, step):
    a = step.action
    if a.get("to") is not None:
        yield Expansion(C.ScoutMove(a["unit"], tuple((m, *p) for m, p in a["to"].items())), [])
    else:
        cmd = C.default_scout(battle, battle.units[a["unit"]])
        yield Expansion(cmd if cmd is not None else C.ScoutMove(a["unit"], ()), [])


def _pile_in(battle, step):
    a = step.action
    yield Expansion(pile_in_command(battle, a["unit"], a.get("to"), a.get("targets")), [])


def _consolidate(battle, step):
    a = step.action
    yield Expansion(consolidate_command(battle, a["unit"], a.get("to"), a.get("targets"), a.get("objective")), [])


def _fight(battle, step):
    a = step.action
    if fight_type(battle, a) == FightType.OVERRUN:
        yield Expansion(overrun_command(battle, a["unit"], a.get("to")), [])
    yield expand(battle, step)


def fight_type(battle, action: dict) -> str:
    """12.05 / 12.06 A fight step's type: as written, else (a battle with a mission) an overrun
    fight for a unit unengaged when the step is played, a normal fight otherwise."""
    if "type" in action:
        return action["type"]
    if battle.turn_state is None:
        return FightType.NORMAL
    return FightType.NORMAL if W.unit_engaged(battle.units[action["unit"]]) else FightType.OVERRUN


def to_command(battle, step: ScriptStep):
    """Expand a script step against the live battle into an explicit Command."""
    return expand(battle, step).command


def expand(battle, step: ScriptStep, shared: dict | None = None) -> Expansion:
    """Expand a script step against the live battle (before it is submitted). The ``targets``
    shorthand selects each weapon, at its one target, for the models that can use it there
    (04.02: visible, in range, unengaged unless 10.06/17.03; engaged with the model in a
    fight); the others do not select it (so, for one, they make no hazard roll for a weapon
    they could not have fired, 24.15) and are listed in ``left_out``; but in a fight a model
    left out that is engaged with another enemy unit must fight, and attacks that one instead
    (fights_elsewhere; listed in ``left_out`` with its new target). When no model can use it,
    each model selects it at that target anyway, so the command is refused with the rule's
    reason, as the explicit command would be. Per-model ``models`` entries are taken as
    written. A multi-profile weapon named by its own name selects its first profile listed;
    named by a profile, that profile (04.01.03). ``shared``: what the models' checks share
    (the shooting type, each target's view), kept by a caller that expands several steps of
    one unit while nothing moves or dies (a new one each call when not given)."""
    a = step.action
    record = step_record(step)
    if record is C.END_TURN:
        return Expansion(EndTurn(), [])
    unit_ent = battle.units[a["unit"]]
    if record is C.MOVE:
        from sim.plan.moves import move_limit
        mode = mode_of_selection(a["mode"])
        fly = a.get("fly", False)
        roll = W.unit_state(unit_ent).advance_roll if mode == MoveType.ADVANCE else None
        to = []
        for m in W.unit_models(unit_ent):
            mid = W.model_id(m)
            pos = esper.component_for_entity(m, Position)
            if "by" in a:
                x, y = pos.x + a["by"][0], pos.y + a["by"][1]
            elif mid in a["to"]:
                x, y = a["to"][mid]
            else:
                continue
            if roll is not None:  # 09.06 the roll fell short: the model goes as far as it allows
                limit = move_limit(unit_ent, m, MoveType.ADVANCE, roll, fly, battle)
                x, y, _d = advance_end(pos.x, pos.y, x, y, limit)
            to.append((mid, round(x, 6), round(y, 6)))
        face = ()
        if "face" in a:  # 03.01 each model of the unit that is not round turns to the facing given
            placed = {t[0] for t in to}
            face = tuple((W.model_id(m), a["face"]) for m in W.unit_models(unit_ent)
                         if W.model_id(m) in placed and W.footprint(m).shape != "round")
        return Expansion(Move(a["unit"], tuple(to), mode, fly=fly, embark=a.get("embark"), face=face), [])
    # each selection, with why the shorthand would leave it out (None: it stays)
    sels: list[tuple[Selection, str | None]] = []
    usable: dict[tuple[str, str], bool] = {}  # (weapon, target): some model uses it
    if shared is None:
        shared = {}  # what every model's shorthand check shares (shooting type, target views)
    lent = ()  # 24.14 the weapons embarked models lend the transport's first model
    if a.get("firing_deck"):
        lent = tuple(w for mid, name in a["firing_deck"].items() if mid in battle.models
                     for w in W.weapons_of(battle.models[mid])[:] if w.name == name)
    for k, m in enumerate(W.unit_models(unit_ent)):
        mid = W.model_id(m)
        mine = a["models"].get(mid)
        spec = mine if mine is not None else a["targets"]
        loadout = W.weapons_of(m) + (lent if k == 0 else ())
        firsts = None
        for w in loadout:
            if w.name in spec:
                tgts = spec[w.name]
            elif w.weapon in spec:  # 04.01.03 a multi-profile weapon named: its first profile
                if firsts is None:
                    firsts = {p.name for p in MP.default_profiles(loadout)}
                if w.name not in firsts:
                    continue
                tgts = spec[w.weapon]
            else:
                continue
            if not tgts:
                sels.append((Selection(mid, w.name, None), None))
                continue
            if len(tgts) == 1:
                (t, n), = tgts.items()
                why = None
                if mine is None:
                    why = why_not(battle, unit_ent, m, w, t, record is C.FIGHT, a.get("type"), shared)
                # (a model's own entry counts as a model using it: validation checks it)
                usable[(w.name, t)] = usable.get((w.name, t), False) or why is None
                sels.append((Selection(mid, w.name, t), why))
            else:
                for t, n in tgts.items():
                    sels.append((Selection(mid, w.name, t, n), None))
    chosen, left_out = [], []
    elsewhere = {}
    if record is C.FIGHT:
        elsewhere = fights_elsewhere(battle, unit_ent, [s for s, _why in sels],
                                     [why is not None and usable[(s.weapon, s.target)] for s, why in sels])
    for i, (s, why) in enumerate(sels):
        if why is None or not usable[(s.weapon, s.target)]:
            chosen.append(s)
        elif i in elsewhere:
            chosen.append(Selection(s.model, s.weapon, elsewhere[i]))
            left_out.append([s.model, s.weapon, s.target, f"{why}; it attacks {elsewhere[i]} instead, an enemy "
                                                          f"unit it is engaged with (12.04)"])
        else:
            left_out.append([s.model, s.weapon, s.target, why])
    if record is C.SHOOT:
        deck = tuple(a.get("firing_deck", {}).items())
        # (a selection kept though no model can use its weapon there: the check's own 04.02 facts
        # and answer, ranged_target_problem, refuse the command with that reason)
        refused = next((why for s, why in sels if why is not None and not usable[(s.weapon, s.target)]), None)
        return Expansion(Shoot(a["unit"], tuple(chosen), a.get("type"), firing_deck=deck), left_out, refused)
    return Expansion(Fight(a["unit"], tuple(chosen)), left_out)


def fights_elsewhere(battle, unit_ent, sels, dropped) -> dict[int, str]:
    """12.04 A model whose fight selections a shorthand drops (``dropped[i]`` for ``sels[i]``:
    it is not engaged with the unit named) but that can still fight must: the weapons it needs
    of those dropped (its [EXTRA ATTACKS] ones, and one other unless it keeps one; 04.01, 24.11)
    attack the enemy unit nearest it among those it is engaged with instead
    (sim.plan.fight.nearest_fight_target). Returns, by index in ``sels``, the id of the unit
    each such selection attacks instead."""
    from sim.plan.fight import nearest_fight_target
    engaged = W.engaged_with(unit_ent)
    if not engaged:
        return {}

    def extra(s) -> bool:
        return any(w.name == s.weapon and w.has(Hook.EXTRA_WEAPON) for w in W.weapons_of(battle.models[s.model]))
    armed = {s.model for s, d in zip(sels, dropped) if not d and not extra(s)}  # (one weapon kept)
    out = {}
    for i, s in enumerate(sels):
        if not dropped[i] or (s.model in armed and not extra(s)):
            continue
        t = nearest_fight_target(battle.models[s.model], engaged)
        if t is None:
            continue  # (it cannot fight: left out)
        out[i] = esper.component_for_entity(t, Unit).id
        if not extra(s):
            armed.add(s.model)
    return out


def why_not(battle, unit_ent, m, w, target_id, melee: bool, stype, shared: dict) -> str | None:
    """Why model ``m`` cannot use weapon ``w`` on the unit ``target_id`` (04.02, with the
    rule's number as the planning refusal gives it), or None when it can. ``shared`` keeps,
    across the models of one step, the shooting type and each target's view
    (sim.plan.target_facts)."""
    t = battle.units[target_id]
    gone = not_there(t, target_id)
    if gone:
        return gone
    if melee:
        if any(W.models_engaged(m, tm) for tm in W.unit_models(t)):
            return None
        return "not engaged with this model (04.02)"
    if "type" not in shared:
        try:
            shared["type"] = shooting_type_for(unit_ent, stype)
        except PlanError:
            shared["type"] = None
    if shared["type"] is None:
        return None  # let validation report the real problem
    facts, _ = target_facts(battle, unit_ent, m, w, t, shared["type"], shared.setdefault("views", {}))
    return ranged_target_problem(facts)


_STEP_COMMANDS = {C.END_PHASE: _end_phase, C.END_TURN: _one, C.MOVE: _move, C.SHOOT: _one, C.FIGHT: _fight,
                  C.DECLARE_CHARGE: _charge, C.PILE_IN: _pile_in, C.CONSOLIDATE: _consolidate, C.INGRESS: _ingress,
                  C.DECLARE_FORMATIONS: _formations, C.DEPLOY: _deploy, C.SCOUT_MOVE: _scout,
                  C.DISEMBARK: _disembark}
"""The commands each step gives, by the record of its first command."""
