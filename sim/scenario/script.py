"""The scenario script: actions and decisions, in order, as the file writes them (each step read
and checked against the scenario's units and weapons). Shorthand like
``targets = { "bolt rifle" = "raiders" }`` is expanded against the live battle by
sim.scenario.script_run, so the replay log always holds the full command."""

from __future__ import annotations

import math

from typing import NamedTuple

from sim import commands as C
from sim.rules import shooting as _SH
from sim.rules.command_reroll import SCRIPT_FORM
from sim.rules.movement.moves import MOVE_MODES as _MOVES
from sim.rules.movement.moves import MoveType
from sim.rules.turn import PLAYER, FightType
from sim.scenario.reader import Reader
from sim.scenario.spec import ScriptStep
from sim.world import queries as W

DECISION_KINDS = {"allocation_order", "precision", "psychic", "duplicate", "lethal_hits", "stratagem",
                  "coherency_removal", "weapons", "charge_targets", "arrival", "role", "emergency_disembark",
                  "rule_choice", "rule_reroll",
                  "oath", "oath_target"}
DECISION_KINDS |= {"dice_pool"}  # a pool's die for a roll (sim.systems.dice_pools)
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
    r.keys({key, "mode", "by", "to", "fly", "embark", "face"}, {key})
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
    if r.has("face"):  # 03.01 the facing every model of it that is not round turns to
        f = r.get("face", float, what="a facing in degrees")
        if not (math.isfinite(f) and -360.0 <= f <= 360.0):
            r.fail("a facing in degrees, from -360 to 360", f, "face")
        if mode == MoveType.STATIONARY:
            r.fail("no 'face' for a unit that remains stationary (09.04: no model moves or turns)", f, "face")
        action["face"] = f
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
    if dr.has("oath"):  # "<deed> / <quality>" (sim.rules.effects.oaths)
        from sim.rules.effects import oaths
        v = dr.data["oath"]
        try:
            oaths.parse(v)
        except ValueError:
            dr.fail(f"an oath \"<deed> / <quality>\", a deed of {', '.join(oaths.options(oaths.DEEDS))} and a "
                    f"quality of {', '.join(oaths.options(oaths.QUALITIES))}", v, "oath")
    if dr.has("oath_target"):
        v = dr.data["oath_target"]
        chars = [mid for mid, (_u, m) in enemy.items() if m.character]
        if not (isinstance(v, str) and v in chars):
            dr.fail(f"a CHARACTER model id of an enemy unit ({', '.join(chars) or 'none'})", v, "oath_target")
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
    its ``targets`` shorthand left out: [model id, weapon, target unit, why (with the rule)].
    ``refused``: for a Shoot whose shorthand found a weapon no model can use at its target (its
    selections kept, so the check refuses the command with the rule's reason), that reason;
    else None (the check decides)."""

    command: object
    left_out: list
    refused: str | None = None


_READERS = {C.END_PHASE: _end_phase_step, C.END_TURN: _end_turn_step, C.MOVE: _move_step, C.SHOOT: _attack_step,
            C.FIGHT: _attack_step, C.DECLARE_CHARGE: _placed_step, C.PILE_IN: _placed_step,
            C.CONSOLIDATE: _placed_step, C.INGRESS: _placed_step, C.DECLARE_FORMATIONS: _formations_step,
            C.DEPLOY: _set_up_step, C.SCOUT_MOVE: _set_up_step, C.DISEMBARK: _placed_step}
"""How each step is read, by the record of its first command."""
