"""The scenario script: actions and decisions, in order. Shorthand like
``targets = { "bolt rifle" = "raiders" }`` expands against the live battle into explicit
per-model selections, so the replay log always holds the full command."""

from __future__ import annotations

from typing import NamedTuple

import esper

from sim.commands import DeclareCharge, EndPhase, EndTurn, Fight, Move, SelectToMove, Selection, Shoot
from sim.components import Position, Unit
from sim.rules import multi_profile as MP
from sim.rules import shooting as _SH
from sim.rules.command_reroll import SCRIPT_FORM
from sim.rules.movement.moves import advance_end
from sim.scenario.reader import Reader
from sim.scenario.spec import ScriptStep
from sim.world import queries as W

DECISION_KINDS = {"allocation_order", "precision", "psychic", "duplicate", "lethal_hits", "stratagem",
                  "coherency_removal", "weapons"}
SHOOTING_TYPES = set(_SH.SHOOTING_TYPES)  # (10.02 step 2; snap shooting only a rule grants, 15.09)
FIGHT_TYPES = ("normal", "overrun")  # 12.05 / 12.06
STEP_KINDS = ("shoot", "fight", "move", "end_turn", "end_phase", "charge", "pile_in", "consolidate", "ingress")
MOVE_MODES = ("normal", "advance", "fall back", "desperate escape", "stationary")
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
    """One script step, appended to ``steps``."""
    kinds = [k for k in STEP_KINDS if r.has(k)]
    if len(kinds) != 1:
        r.fail(f"exactly one of {', '.join(STEP_KINDS)}", f"<{', '.join(kinds) or 'none'}>")
    kind = kinds[0]
    if kind == "end_phase":
        r.keys({"end_phase", "decisions"})
        v = r.data["end_phase"]
        if v not in ("red", "blue"):
            r.fail("end_phase = \"red\" or \"blue\" (whose part of the phase ends)", v, "end_phase")
        # the answers to what the end of the phase asks (the opponent's stratagems at its end,
        # 15.07, 15.08, 15.10, 15.11; a battle-shock roll's Insane Bravery; coherency removals at
        # the end of the turn)
        decisions = _decisions(r.sub("decisions"), None, units) if r.has("decisions") else {}
        steps.append(ScriptStep({"kind": "end phase", "player": v}, decisions, r.path))
        return
    if kind in ("charge", "pile_in", "consolidate", "ingress"):
        steps.append(_placed_step(r, kind, unit_ids, model_ids, units))
        return
    if kind == "end_turn":
        r.keys({"end_turn"})
        if r.data["end_turn"] is not True:
            r.fail("end_turn = true", r.data["end_turn"], "end_turn")
        steps.append(ScriptStep({"kind": "end turn"}, {}, r.path))
        return
    uid = r.req(kind, str)
    if uid not in unit_ids:
        r.fail(f"a unit id ({', '.join(sorted(unit_ids))})", uid, kind)
    if kind == "move":
        r.keys({"move", "mode", "by", "to", "fly"}, {"move"})
        mode = r.get("mode", str, "normal")
        if mode not in MOVE_MODES:
            r.fail(", ".join(MOVE_MODES), mode, "mode")
        action = {"kind": "move", "unit": uid, "mode": mode}
        if r.has("fly"):
            action["fly"] = _fly(r)
        if mode == "stationary":
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
        steps.append(ScriptStep(action, {}, r.path))
        return
    r.keys({kind, "type", "targets", "models", "decisions"} | ({"to"} if kind == "fight" else set()), {kind})
    unit = unit_ids[uid]
    # (a multi-profile weapon by a profile's name, or by its own for its first profile, 04.01.03)
    carried = {n for m in unit.models for w in m.weapons for n in (w.name, w.weapon) if n}
    action = {"kind": kind, "unit": uid, "targets": {}, "models": {}}
    if kind == "shoot" and r.has("type"):
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
        if action.get("type") == "normal":
            r.fail("no 'to' for a normal fight (the pile-in 'to' is an overrun fight's, 12.06)", "<to>", "to")
        action["type"] = "overrun"
        action["to"] = _to_table(r, uid, model_ids)
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
    steps.append(ScriptStep(action, decisions, r.path))


def _placed_step(r: Reader, kind: str, unit_ids, model_ids, units) -> ScriptStep:
    """A charge, pile-in or consolidation step: the unit, and optionally where its models end
    (``to``) and, for a charge, its targets, whether it takes to the skies (``fly``) and the
    answers to the decisions it raises (a Command Re-roll of the charge roll, Crushing Impact);
    what is left out the solver places (Part A rulings 17-18)."""
    allowed = {kind, "to"} | ({"targets", "fly", "decisions"} if kind == "charge" else set())
    r.keys(allowed, {kind})
    uid = r.req(kind, str)
    if uid not in unit_ids:
        r.fail(f"a unit id ({', '.join(sorted(unit_ids))})", uid, kind)
    action = {"kind": kind.replace("_", " "), "unit": uid}
    if r.has("fly"):
        action["fly"] = _fly(r)
    if r.has("targets"):
        tl = r.get("targets", list, what="a list of enemy unit ids")
        tr = r.sub("targets")
        for i, t in enumerate(tl):
            if not isinstance(t, str) or t not in unit_ids or unit_ids[t].owner == unit_ids[uid].owner:
                tr.fail("an enemy unit id", t, i)
        action["targets"] = list(tl)
    if r.has("to"):
        action["to"] = _to_table(r, uid, model_ids)
    decisions = _decisions(r.sub("decisions"), unit_ids[uid], units) if r.has("decisions") else {}
    return ScriptStep(action, decisions, r.path)


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
    as the battle goes (sim.validate.fit_scripted_answer)."""
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
    17-18). Yields Expansion tuples."""
    a = step.action
    kind = a["kind"]
    if kind == "end phase":
        yield Expansion(EndPhase(), [])
        return
    if kind == "move":
        mode = a["mode"]
        if mode in ("advance", "desperate escape", "stationary"):
            yield Expansion(SelectToMove(a["unit"], mode), [])
            if mode == "stationary":
                return
        yield expand(battle, step)
        return
    if kind == "charge":
        from sim.plan import moves as MV
        yield Expansion(DeclareCharge(a["unit"]), [])
        yield Expansion(MV.charge_command(battle, a["unit"], a.get("targets"), a.get("to"),
                                          fly=a.get("fly", False)), [])
        return
    if kind == "ingress":
        from sim.commands import Ingress
        from sim.plan.moves import default_ingress
        if a.get("to") is not None:
            yield Expansion(Ingress(a["unit"], tuple((m, *p) for m, p in a["to"].items())), [])
        else:
            owner = esper.component_for_entity(battle.units[a["unit"]], Unit).owner
            cmd = default_ingress(battle, battle.units[a["unit"]], owner)
            yield Expansion(cmd if cmd is not None else Ingress(a["unit"], ()), [])
        return
    if kind in ("pile in", "consolidate"):
        from sim.plan import moves as MV
        make = MV.pile_in_command if kind == "pile in" else MV.consolidate_command
        yield Expansion(make(battle, a["unit"], a.get("to")), [])
        return
    if kind == "fight" and fight_type(battle, a) == "overrun":
        from sim.plan import moves as MV
        yield Expansion(MV.overrun_command(battle, a["unit"], a.get("to")), [])
    yield expand(battle, step)


def fight_type(battle, action: dict) -> str:
    """12.05 / 12.06 A fight step's type: as written, else (a battle with a mission) an overrun
    fight for a unit unengaged when the step is played, a normal fight otherwise."""
    if "type" in action:
        return action["type"]
    if battle.turn_state is None:
        return "normal"
    return "normal" if W.unit_engaged(battle.units[action["unit"]]) else "overrun"


def to_command(battle, step: ScriptStep):
    """Expand a script step against the live battle into an explicit Command."""
    return expand(battle, step).command


def expand(battle, step: ScriptStep) -> Expansion:
    """Expand a script step against the live battle (before it is submitted). The ``targets``
    shorthand selects each weapon, at its one target, for the models that can use it there
    (04.02: visible, in range, unengaged unless 10.06/17.03; engaged with the model in a
    fight); the others do not select it (so, for one, they make no hazard roll for a weapon
    they could not have fired, 24.15) and are listed in ``left_out``. When no model can use it,
    each model selects it at that target anyway, so the command is refused with the rule's
    reason, as the explicit command would be. Per-model ``models`` entries are taken as
    written. A multi-profile weapon named by its own name selects its first profile listed;
    named by a profile, that profile (04.01.03)."""
    a = step.action
    kind = a["kind"]
    if kind == "end turn":
        return Expansion(EndTurn(), [])
    unit_ent = battle.units[a["unit"]]
    if kind == "move":
        from sim.plan.moves import move_limit
        mode = "fall back" if a["mode"] == "desperate escape" else a["mode"]
        fly = a.get("fly", False)
        roll = W.unit_state(unit_ent).advance_roll if mode == "advance" else None
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
                limit = move_limit(unit_ent, m, "advance", roll, fly)
                x, y, _d = advance_end(pos.x, pos.y, x, y, limit)
            to.append((mid, round(x, 6), round(y, 6)))
        return Expansion(Move(a["unit"], tuple(to), mode, fly=fly), [])
    # each selection, with why the shorthand would leave it out (None: it stays)
    sels: list[tuple[Selection, str | None]] = []
    usable: dict[tuple[str, str], bool] = {}  # (weapon, target): some model uses it
    shared: dict = {}  # what every model's shorthand check shares (shooting type, target views)
    for m in W.unit_models(unit_ent):
        mid = W.model_id(m)
        mine = a["models"].get(mid)
        spec = mine if mine is not None else a["targets"]
        loadout = W.weapons_of(m)
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
                    why = _why_not(battle, unit_ent, m, w, t, kind, a.get("type"), shared)
                # (a model's own entry counts as a model using it: validation checks it)
                usable[(w.name, t)] = usable.get((w.name, t), False) or why is None
                sels.append((Selection(mid, w.name, t), why))
            else:
                for t, n in tgts.items():
                    sels.append((Selection(mid, w.name, t, n), None))
    chosen, left_out = [], []
    for s, why in sels:
        if why is None or not usable[(s.weapon, s.target)]:
            chosen.append(s)
        else:
            left_out.append([s.model, s.weapon, s.target, why])
    if kind == "shoot":
        return Expansion(Shoot(a["unit"], tuple(chosen), a.get("type")), left_out)
    return Expansion(Fight(a["unit"], tuple(chosen)), left_out)


def _why_not(battle, unit_ent, m, w, target_id, kind, stype, shared: dict) -> str | None:
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
    if kind == "fight":
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
