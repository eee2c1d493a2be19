"""The scenario script: actions and decisions, in order. Shorthand like
``targets = { "bolt rifle" = "raiders" }`` expands against the live battle into explicit
per-model selections, so the replay log always holds the full command."""

from __future__ import annotations

from typing import NamedTuple

import esper

from sim import commands as C
from sim.commands import DeclareCharge, EndPhase, EndTurn, Fight, Move, SelectToMove, Selection, Shoot
from sim.components import Position, Unit
from sim.rules import multi_profile as MP
from sim.rules import shooting as _SH
from sim.rules.abilities import Hook
from sim.rules.attack import AttackKind
from sim.rules.command_reroll import SCRIPT_FORM
from sim.rules.movement.moves import MOVE_MODES as _MOVES
from sim.rules.movement.moves import MoveType, advance_end, mode_of_selection
from sim.rules.turn import PLAYER, FightType
from sim.scenario.reader import Reader
from sim.scenario.spec import ScriptStep
from sim.world import queries as W
from sim.commands import charge_command, consolidate_command, overrun_command, pile_in_command

DECISION_KINDS = {"allocation_order", "precision", "psychic", "duplicate", "lethal_hits", "stratagem",
                  "coherency_removal", "weapons", "charge_targets", "arrival", "role", "emergency_disembark"}
SHOOTING_TYPES = set(_SH.SHOOTING_TYPES)  # (10.02 step 2; snap shooting only a rule grants, 15.09)
FIGHT_TYPES = tuple(FightType)  # 12.05 / 12.06
STEPS = {r.script_step: r for r in C.RECORDS if r.script_step}
"""A script step's key -> the record of the first command it gives (sim.commands)."""
STEP_KINDS = tuple(STEPS)
MOVE_MODES = (*_MOVES, MoveType.DESPERATE_ESCAPE, MoveType.STATIONARY)  # 09.02 (a move step's ``mode``)
MAX_STEPS = 1000  # script steps (README, Limits)
MAX_ATTACKS = 1000  # attacks given for one weapon at one target


def read_script(top: Reader, units, weapons) -> tuple[ScriptStep, ...]:
    if not top.has("script"):
        return ()
    unit_ids = {u.id: u for u in units}
    model_ids = {m.id: u.id for u in units for m in u.models}
    steps = []
    items = top.sub("script").items()
    if len(items) > MAX_STEPS:
        top.fail(f"a script of at most {MAX_STEPS} steps", f"<{len(items)} steps>", "script")
    for r in items:
        r, not_before = _round_key(r)
        before = len(steps)
        _read_step(r, steps, unit_ids, model_ids, units, weapons)
        if not_before is not None:
            for s in steps[before:]:
                s.action["round"] = not_before
    return tuple(steps)


def _round_key(r: Reader):
    """A step's optional ``round = N`` (a battle with a mission: not played before battle round
    N), read and taken out of the step."""
    if not r.has("round"):
        return r, None
    n = r.get("round", int)
    if not 1 <= n <= 5:
        r.fail("a battle round from 1 to 5", n, "round")
    return Reader(r.file, {k: v for k, v in r.data.items() if k != "round"}, r.path), n


def _read_step(r: Reader, steps: list, unit_ids, model_ids, units, weapons) -> None:
    """One script step, appended to ``steps``: its key names the record of its first command,
    whose reader reads it."""
    kinds = [k for k in STEP_KINDS if r.has(k)]
    if len(kinds) != 1:
        r.fail(f"exactly one of {', '.join(STEP_KINDS)}", f"<{', '.join(kinds) or 'none'}>")
    record = STEPS[kinds[0]]
    steps.append(_READERS[record](r, kinds[0], record, unit_ids, model_ids, units))


def _end_phase_step(r: Reader, key: str, record, unit_ids, model_ids, units) -> ScriptStep:
    r.keys({key, "decisions"})
    v = r.data[key]
    if v not in PLAYER:
        r.fail(f"{key} = \"{PLAYER[0]}\" or \"{PLAYER[1]}\" (whose part of the phase ends)", v, key)
    # the answers to what the end of the phase asks (the opponent's stratagems at its end,
    # 15.07, 15.08, 15.10, 15.11; a battle-shock roll's Insane Bravery; coherency removals at
    # the end of the turn)
    decisions = _decisions(r.sub("decisions"), None, units) if r.has("decisions") else {}
    return ScriptStep({"step": key, "player": v}, decisions, r.path)


def _end_turn_step(r: Reader, key: str, record, unit_ids, model_ids, units) -> ScriptStep:
    r.keys({key})
    if r.data[key] is not True:
        r.fail(f"{key} = true", r.data[key], key)
    return ScriptStep({"step": key}, {}, r.path)


def _unit_of_step(r: Reader, key: str, unit_ids) -> str:
    uid = r.req(key, str)
    if uid not in unit_ids:
        r.fail(f"a unit id ({', '.join(sorted(unit_ids))})", uid, key)
    return uid


def _move_step(r: Reader, key: str, record, unit_ids, model_ids, units) -> ScriptStep:
    uid = _unit_of_step(r, key, unit_ids)
    r.keys({key, "mode", "by", "to", "fly", "embark"}, {key})
    mode = r.get("mode", str, MoveType.NORMAL)
    if mode not in MOVE_MODES:
        r.fail(", ".join(MOVE_MODES), mode, "mode")
    action = {"step": key, "unit": uid, "mode": mode}
    if r.has("fly"):
        action["fly"] = _fly(r)
    if r.has("embark"):  # 18.02 the transport it embarks in right after the move
        t = r.get("embark", str, what="a transport's unit id")
        spec = unit_ids.get(t)
        if spec is None or spec.owner != unit_ids[uid].owner or spec.transport is None or t == uid:
            ours = sorted(u.id for u in units if u.owner == unit_ids[uid].owner and u.transport is not None and u.id != uid)
            r.fail(f"a friendly TRANSPORT unit's id ({', '.join(ours) or 'none'}) (18.02)", t, "embark")
        if mode == MoveType.STATIONARY:
            r.fail("a normal, advance or fall-back move to embark after (18.02)", mode, "mode")
        action["embark"] = t
    if mode == MoveType.STATIONARY:
        if r.has("by") or r.has("to"):
            r.fail("no 'by' or 'to' for a unit that remains stationary (09.04)", "<a destination>")
        if action.get("fly"):
            r.fail("no 'fly' for a unit that remains stationary (21.03)", True, "fly")
    elif r.has("by"):
        action["by"] = _near_point(r, "by")
    elif r.has("to"):
        action["to"] = _to_table(r, uid, model_ids)
    else:
        r.fail("'by = [dx, dy]' or 'to = { model = [x, y] }'", "<neither>")
    return ScriptStep(action, {}, r.path)


def _attack_step(r: Reader, key: str, record, unit_ids, model_ids, units) -> ScriptStep:
    """A shoot or fight step: the unit, its shooting or fight type, its weapons' targets (the
    shorthand, ``targets``, or per model, ``models``) and the answers to its decisions; a
    fight's ``to`` is an overrun fight's pile-in (12.06)."""
    uid = _unit_of_step(r, key, unit_ids)
    fight = record is C.FIGHT
    r.keys({key, "type", "targets", "models", "decisions"} | ({"to"} if fight else {"firing_deck"}), {key})
    unit = unit_ids[uid]
    # (a multi-profile weapon by a profile's name, or by its own for its first profile, 04.01.03)
    carried = {n for m in unit.models for w in m.weapons for n in (w.name, w.weapon) if n}
    action = {"step": key, "unit": uid, "targets": {}, "models": {}}
    if not fight and r.has("type"):
        t = r.req("type", str)
        if t not in SHOOTING_TYPES:
            r.fail(f"a shooting type ({', '.join(sorted(SHOOTING_TYPES))})", t, "type")
        action["type"] = t
    elif r.has("type"):
        t = r.req("type", str)
        if t not in FIGHT_TYPES:
            r.fail(f"a fight type ({', '.join(FIGHT_TYPES)})", t, "type")
        action["type"] = t
    if r.has("to"):  # (a fight: its overrun pile-in, 12.06)
        if action.get("type") == FightType.NORMAL:
            r.fail("no 'to' for a normal fight (the pile-in 'to' is an overrun fight's, 12.06)", "<to>", "to")
        action["type"] = FightType.OVERRUN
        action["to"] = _to_table(r, uid, model_ids)
    if r.has("firing_deck"):  # 24.14 embarked model id = the ranged weapon it lends
        fr = r.sub("firing_deck")
        if not isinstance(fr.data, dict):
            fr.fail("a table of embarked model id = weapon name (24.14)", fr.data)
        # (a model of a friendly unit: whether it is embarked in this transport then is the rule's)
        aboard = {m.id: m for u in units if u.owner == unit.owner and u.id != uid for m in u.models}
        for mid, w in fr.data.items():
            if mid not in aboard:
                fr.fail(f"a model of a friendly unit embarked in {uid} (24.14)", mid, mid)
            if not isinstance(w, str) or w not in {x.name for x in aboard[mid].weapons}:
                fr.fail(f"a weapon {mid} carries ({', '.join(x.name for x in aboard[mid].weapons)})", w, mid)
            carried.add(w)
        action["firing_deck"] = dict(fr.data)
    if r.has("targets"):
        action["targets"] = _targets(r.sub("targets"), carried, unit_ids, uid)
    if r.has("models"):
        mr = _model_table(r, "models", uid, model_ids, "a table of model id = { weapon = target }")
        for mid in mr.data:
            mweapons = {n for m in unit.models if m.id == mid for w in m.weapons for n in (w.name, w.weapon) if n}
            action["models"][mid] = _targets(mr.sub(mid), mweapons, unit_ids, uid)
    decisions = {}
    if r.has("decisions"):
        decisions = _decisions(r.sub("decisions"), unit, units)
    return ScriptStep(action, decisions, r.path)


def _placed_step(r: Reader, key: str, record, unit_ids, model_ids, units) -> ScriptStep:
    """A charge, pile-in, consolidation or ingress step: the unit, and optionally where its
    models end (``to``) and, for a charge, its targets, whether it takes to the skies (``fly``)
    and the answers to the decisions it raises (a Command Re-roll of the charge roll, Crushing
    Impact); what is left out the solver places (Part A rulings 17-18, 27)."""
    charge = record is C.DECLARE_CHARGE
    allowed = {key, "to"} | ({"targets", "fly", "decisions"} if charge else set())
    if record is C.PILE_IN or record is C.CONSOLIDATE:
        allowed.add("targets")  # 12.03 / 12.08 the enemy units it selects (ruling 18's when left out)
    if record is C.CONSOLIDATE:
        allowed.add("objective")  # 12.08 the objective an objective consolidation selects, by name
    r.keys(allowed, {key})
    uid = _unit_of_step(r, key, unit_ids)
    action = {"step": key, "unit": uid}
    if r.has("fly"):
        action["fly"] = _fly(r)
    if r.has("targets"):
        tl = r.get("targets", list, what="a list of enemy unit ids")
        tr = r.sub("targets")
        for i, t in enumerate(tl):
            if not isinstance(t, str) or t not in unit_ids or unit_ids[t].owner == unit_ids[uid].owner:
                tr.fail("an enemy unit id", t, i)
        action["targets"] = list(tl)
    if r.has("objective"):
        action["objective"] = r.get("objective", str, what="an objective's name")
    if r.has("to"):
        action["to"] = _to_table(r, uid, model_ids)
    decisions = _decisions(r.sub("decisions"), unit_ids[uid], units) if r.has("decisions") else {}
    return ScriptStep(action, decisions, r.path)


def _formations_step(r: Reader, key: str, record, unit_ids, model_ids, units) -> ScriptStep:
    """26 step 7 ``formations = "red"``, ``reserves = [unit ids]`` (none: every unit deploys);
    its ``decisions`` answer the roll-off winner's choice of roles (``role``, 26 step 5)."""
    r.keys({key, "reserves", "embarked", "decisions"}, {key})
    v = r.data[key]
    if v not in PLAYER:
        r.fail(f"{key} = \"{PLAYER[0]}\" or \"{PLAYER[1]}\" (whose battle formations)", v, key)
    held = r.get("reserves", list, [], what="a list of unit ids")
    for i, t in enumerate(held):
        if not isinstance(t, str) or t not in unit_ids or unit_ids[t].owner != PLAYER.index(v):
            r.sub("reserves").fail(f"a unit id of {v}'s army", t, i)
    aboard = r.get("embarked", dict, {}, what="a table of unit id = transport unit id (18.01)")
    for u, t in aboard.items():
        for x in (u, t):
            if not isinstance(x, str) or x not in unit_ids or unit_ids[x].owner != PLAYER.index(v):
                r.sub("embarked").fail(f"a unit id of {v}'s army", x, u)
    decisions = _decisions(r.sub("decisions"), None, units) if r.has("decisions") else {}
    action = {"step": key, "player": v, "reserves": list(held)}
    if aboard:
        action["embarked"] = dict(aboard)
    return ScriptStep(action, decisions, r.path)


def _set_up_step(r: Reader, key: str, record, unit_ids, model_ids, units) -> ScriptStep:
    """26 step 8 ``deploy = "unit"`` / 24.31 ``scout = "unit"``, with ``to`` (every model's
    position) or without (the default player's choice, sim.commands.deploy)."""
    r.keys({key, "to"}, {key})
    uid = _unit_of_step(r, key, unit_ids)
    action = {"step": key, "unit": uid}
    if r.has("to"):
        action["to"] = _to_table(r, uid, model_ids)
    return ScriptStep(action, {}, r.path)


def _fly(r: Reader) -> bool:
    """A move or charge step's ``fly = true``: the unit takes to the skies (21.03; whether it
    may is the command's check, which names the rule)."""
    return r.get("fly", bool, what="true or false (21.03 take to the skies)")


def _model_table(r: Reader, key: str, uid: str, model_ids, expected: str) -> Reader:
    """A step's table keyed by model id (``models``, ``to``): a table, of models of ``uid`` only."""
    t = r.sub(key)
    if not isinstance(t.data, dict):
        t.fail(expected, t.data)
    for mid in t.data:
        if model_ids.get(mid) != uid:
            t.fail(f"a model of {uid}", mid, mid)
    return t


def _to_table(r: Reader, uid: str, model_ids) -> dict:
    """A step's ``to = { model id = [x, y], ... }``: models of unit ``uid`` only."""
    to = _model_table(r, "to", uid, model_ids, "a table of model id = [x, y]")
    return {mid: _near_point(to, mid) for mid in to.data}


FAR = 10_000.0  # inches (README, Limits: a move in a command): a point further out is refused here


def _near_point(r: Reader, key) -> tuple[float, float]:
    """A point of a move (``by``, a ``to`` position) within FAR inches, either sign, each
    coordinate: so `sim check` refuses what the command would (a -10^18 offset, say)."""
    p = r.point(key)
    if not all(-FAR <= c <= FAR for c in p):
        r.sub(key).fail(f"a point within {FAR:,.0f} inches either way", list(p))
    return p


def _decisions(dr: Reader, unit, units) -> dict:
    """A step's answers, by kind (README, Decisions): each names what it may name (CHARACTERs
    and models of an enemy unit, an allocation order legal for that unit as the scenario sets
    it up). They stand for every request of their kind in the step and are fitted to each one
    as the battle goes (sim.plan.answers.fit_scripted_answer)."""
    from sim.rules.allocation import TargetModel, allocation_groups, order_problems, preferred_groups
    dr.keys(DECISION_KINDS)
    owner = None if unit is None else unit.owner  # (None: an end_phase step, either side's answers)
    enemy = {m.id: (u, m) for u in units if u.owner != owner for m in u.models}
    out = dict(dr.data)
    if dr.has("precision"):
        v = dr.data["precision"]
        chars = [mid for mid, (_u, m) in enemy.items() if m.character]
        if v != "decline" and not (isinstance(v, str) and v in chars):
            dr.fail(f"a CHARACTER model id of an enemy unit ({', '.join(chars) or 'none'}) or \"decline\"",
                    v, "precision")
    if dr.has("allocation_order"):
        names = dr.get("allocation_order", list, what="a list of model ids (05.03: a group's key is its first model's id)")
        ar = dr.sub("allocation_order")
        owner = None
        for i, v in enumerate(names):
            if not isinstance(v, str) or v not in enemy:
                ar.fail("a model id of an enemy unit", v, i)
            if owner is None:
                owner = enemy[v][0]
            elif enemy[v][0] is not owner:
                ar.fail(f"a model of {owner.id} (an allocation order is for one unit)", v, i)
        if owner is not None:
            full = tuple(TargetModel(m.id, m.profile.W, m.profile.W, m.profile.Sv, m.profile.InSv, m.character)
                         for m in owner.models)
            groups = allocation_groups(full)
            keyed = preferred_groups(groups, full, names)
            missing = [g.key for g in groups if g.key not in keyed]
            problems = order_problems(groups, keyed, full)
            if problems:
                dr.fail(f"an allocation order for {owner.id} naming a model of each of its groups "
                        f"({', '.join(g.key for g in groups)}), CHARACTER groups last (05.03)",
                        f"<{names}, naming no model of {', '.join(missing)}>" if missing
                        else f"<{names}: {'; '.join(problems)}>", "allocation_order")
    if dr.has("psychic"):
        v = dr.get("psychic", list, what="a list of modifier sources to ignore")
        for i, src in enumerate(v):
            if not isinstance(src, str):
                dr.sub("psychic").fail("a modifier source (a string)", src, i)
    if dr.has("duplicate"):
        dr.get("duplicate", str, what="a string: the label of the ability copy to use")
    if dr.has("stratagem"):
        v = dr.get("stratagem", str, what="\"use\", \"decline\" or what the stratagem picks")
        mine = [u for u in units if owner is None or u.owner == owner]
        friendly = {u.id for u in mine}
        models = {m.id: u.owner for u in mine for m in u.models}
        owners = {u.id: u.owner for u in units}
        hi = v.split(": ", 1)
        at = v.split(" -> ", 1)
        if not (v in ("use", "decline") or v in friendly or v in models or SCRIPT_FORM.match(v)
                or (len(hi) == 2 and hi[0] in friendly and hi[1] in ("Leap to Defend", "Into the Fray"))
                or (len(at) == 2 and at[0] in friendly and at[1] in owners and owners[at[1]] != owners[at[0]])
                or (len(at) == 2 and at[0] in models and owners.get(at[1], models[at[0]]) != models[at[0]])):
            dr.fail("\"use\", \"decline\", a friendly unit id (Counteroffensive, 15.12; Smokescreen, 15.10; "
                    "Rapid Ingress, 15.07), \"unit: Leap to Defend\" / \"unit: Into the Fray\" (15.11), a "
                    "friendly CHARACTER model id (Epic Challenge, 15.03), \"unit -> enemy unit\" (Fire "
                    "Overwatch, 15.08; Explosives, 15.05), \"model -> enemy unit\" (Crushing Impact, 15.06) "
                    "or a die to re-roll, \"hit\", \"hit 3\", \"pool 1 hit 3\" (Command Re-roll, 15.02: "
                    "attacks, hit, wound, save, damage or hazard)",
                    v, "stratagem")
    if dr.has("weapons"):
        v = dr.get("weapons", list, what="a list of weapon names (the weapons that fire, 04.01)")
        for i, name in enumerate(v):
            if not isinstance(name, str):
                dr.sub("weapons").fail("a weapon name (a string)", name, i)
    if dr.has("lethal_hits"):
        v = dr.data["lethal_hits"]
        if v not in ("take", "decline"):
            dr.fail("take or decline", v, "lethal_hits")
    return out


def _targets(r: Reader, carried, unit_ids, own) -> dict:
    if not isinstance(r.data, dict):
        r.fail("a table of weapon = target unit (or = { unit = attacks })", r.data)
    out = {}
    for wname, tgt in r.data.items():
        if wname not in carried:
            r.fail(f"a weapon carried here ({', '.join(sorted(carried))})", wname, wname)
        if isinstance(tgt, str):
            tgts = {tgt: None}
        elif isinstance(tgt, dict):
            tgts = tgt
        elif isinstance(tgt, bool) and tgt is False:
            tgts = {}
        else:
            r.fail("a target unit id, a table of unit id = attacks, or false", tgt, wname)
        for t, n in tgts.items():
            if t not in unit_ids or unit_ids[t].owner == unit_ids[own].owner:
                enemies = sorted(u for u, spec in unit_ids.items() if spec.owner != unit_ids[own].owner)
                r.fail(f"an enemy unit id ({', '.join(enemies) or 'none'})", t, wname)
            if n is not None and (not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_ATTACKS):
                r.sub(wname).fail(f"a number of attacks (1 to {MAX_ATTACKS})", n, t)
        out[wname] = tgts
    return out


class Expansion(NamedTuple):
    """A script step expanded against the live battle: its explicit command, and the models
    its ``targets`` shorthand left out: [model id, weapon, target unit, why (with the rule)]."""

    command: object
    left_out: list


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


def expand(battle, step: ScriptStep) -> Expansion:
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
    named by a profile, that profile (04.01.03)."""
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
                limit = move_limit(unit_ent, m, MoveType.ADVANCE, roll, fly)
                x, y, _d = advance_end(pos.x, pos.y, x, y, limit)
            to.append((mid, round(x, 6), round(y, 6)))
        return Expansion(Move(a["unit"], tuple(to), mode, fly=fly, embark=a.get("embark")), [])
    # each selection, with why the shorthand would leave it out (None: it stays)
    sels: list[tuple[Selection, str | None]] = []
    usable: dict[tuple[str, str], bool] = {}  # (weapon, target): some model uses it
    shared: dict = {}  # what every model's shorthand check shares (shooting type, target views)
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
        return Expansion(Shoot(a["unit"], tuple(chosen), a.get("type"), firing_deck=deck), left_out)
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
    from sim.errors import PlanError
    from sim.plan import shooting_type_for, target_facts
    from sim.rules.shooting import ranged_target_problem
    from sim.plan.common import not_there
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


_READERS = {C.END_PHASE: _end_phase_step, C.END_TURN: _end_turn_step, C.MOVE: _move_step, C.SHOOT: _attack_step,
            C.FIGHT: _attack_step, C.DECLARE_CHARGE: _placed_step, C.PILE_IN: _placed_step,
            C.CONSOLIDATE: _placed_step, C.INGRESS: _placed_step, C.DECLARE_FORMATIONS: _formations_step,
            C.DEPLOY: _set_up_step, C.SCOUT_MOVE: _set_up_step, C.DISEMBARK: _placed_step}
"""How each step is read, by the record of its first command."""
_STEP_COMMANDS = {C.END_PHASE: _end_phase, C.END_TURN: _one, C.MOVE: _move, C.SHOOT: _one, C.FIGHT: _fight,
                  C.DECLARE_CHARGE: _charge, C.PILE_IN: _pile_in, C.CONSOLIDATE: _consolidate, C.INGRESS: _ingress,
                  C.DECLARE_FORMATIONS: _formations, C.DEPLOY: _deploy, C.SCOUT_MOVE: _scout,
                  C.DISEMBARK: _disembark}
"""The commands each step gives, by the record of its first command."""
