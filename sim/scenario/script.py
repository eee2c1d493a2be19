"""The scenario script: actions and decisions, in order. Shorthand like
``targets = { "bolt rifle" = "raiders" }`` expands against the live battle into explicit
per-model selections, so the replay log always holds the full command."""

from __future__ import annotations

import esper

from sim.commands import EndTurn, Fight, Move, Selection, Shoot
from sim.components import Position
from sim.scenario.reader import Reader
from sim.scenario.spec import ScriptStep
from sim.world import queries as W

DECISION_KINDS = {"allocation_order", "precision", "psychic", "duplicate", "lethal_hits"}
SHOOTING_TYPES = {"normal", "assault", "close-quarters", "indirect"}


def read_script(top: Reader, units, weapons) -> tuple[ScriptStep, ...]:
    if not top.has("script"):
        return ()
    unit_ids = {u.id: u for u in units}
    model_ids = {m.id: u.id for u in units for m in u.models}
    steps = []
    for r in top.sub("script").items():
        kinds = [k for k in ("shoot", "fight", "move", "end_turn") if r.has(k)]
        if len(kinds) != 1:
            r.fail("exactly one of shoot, fight, move or end_turn", f"<{', '.join(kinds) or 'none'}>")
        kind = kinds[0]
        if kind == "end_turn":
            r.keys({"end_turn"})
            steps.append(ScriptStep({"kind": "end turn"}, {}, r.path))
            continue
        uid = r.req(kind, str)
        if uid not in unit_ids:
            r.fail(f"a unit id ({', '.join(sorted(unit_ids))})", uid, kind)
        if kind == "move":
            r.keys({"move", "mode", "by", "to"}, {"move"})
            mode = r.get("mode", str, "normal")
            if mode not in ("normal", "advance", "fall back"):
                r.fail("normal, advance or fall back", mode, "mode")
            action = {"kind": "move", "unit": uid, "mode": mode}
            if r.has("by"):
                action["by"] = r.point("by")
            elif r.has("to"):
                to = r.sub("to")
                if not isinstance(to.data, dict):
                    to.fail("a table of model id = [x, y]", to.data)
                for mid in to.data:
                    if model_ids.get(mid) != uid:
                        to.fail(f"a model of {uid}", mid, mid)
                action["to"] = {mid: to.point(mid) for mid in to.data}
            else:
                r.fail("'by = [dx, dy]' or 'to = { model = [x, y] }'", "<neither>")
            steps.append(ScriptStep(action, {}, r.path))
            continue
        r.keys({kind, "type", "targets", "models", "decisions"}, {kind})
        unit = unit_ids[uid]
        carried = {w.name for m in unit.models for w in m.weapons}
        action = {"kind": kind, "unit": uid, "targets": {}, "models": {}}
        if kind == "shoot" and r.has("type"):
            t = r.req("type", str)
            if t not in SHOOTING_TYPES:
                r.fail(f"a shooting type ({', '.join(sorted(SHOOTING_TYPES))})", t, "type")
            action["type"] = t
        elif r.has("type"):
            r.fail("no 'type' for a fight", r.data["type"], "type")
        if r.has("targets"):
            action["targets"] = _targets(r.sub("targets"), carried, unit_ids, uid)
        if r.has("models"):
            mr = r.sub("models")
            if not isinstance(mr.data, dict):
                mr.fail("a table of model id = { weapon = target }", mr.data)
            for mid in mr.data:
                if model_ids.get(mid) != uid:
                    mr.fail(f"a model of {uid}", mid, mid)
                mweapons = {w.name for m in unit.models if m.id == mid for w in m.weapons}
                action["models"][mid] = _targets(mr.sub(mid), mweapons, unit_ids, uid)
        decisions = {}
        if r.has("decisions"):
            dr = r.sub("decisions")
            dr.keys(DECISION_KINDS)
            decisions = dict(dr.data)
        steps.append(ScriptStep(action, decisions, r.path))
    return tuple(steps)


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
            if t not in unit_ids or t == own:
                r.fail("an enemy unit id", t, wname)
            if n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < 1):
                r.sub(wname).fail("a number of attacks (1 or more)", n, t)
        out[wname] = tgts
    return out


def to_command(battle, step: ScriptStep):
    """Expand a script step against the live battle into an explicit Command."""
    a = step.action
    kind = a["kind"]
    if kind == "end turn":
        return EndTurn()
    unit_ent = battle.units[a["unit"]]
    if kind == "move":
        to = []
        for m in W.unit_models(unit_ent):
            mid = W.model_id(m)
            pos = esper.component_for_entity(m, Position)
            if "by" in a:
                to.append((mid, round(pos.x + a["by"][0], 6), round(pos.y + a["by"][1], 6)))
            elif mid in a["to"]:
                to.append((mid, *a["to"][mid]))
        return Move(a["unit"], tuple(to), a["mode"])
    sels: list[Selection] = []
    shared: dict = {}  # what every model's shorthand check shares (shooting type, target views)
    for m in W.unit_models(unit_ent):
        mid = W.model_id(m)
        mine = a["models"].get(mid)
        spec = mine if mine is not None else a["targets"]
        for w in W.weapons_of(m):
            if w.name not in spec:
                continue
            tgts = spec[w.name]
            if not tgts:
                sels.append(Selection(mid, w.name, None))
                continue
            if len(tgts) == 1:
                (t, n), = tgts.items()
                if mine is None and not _engaged_or_legal(battle, unit_ent, m, w, t, kind, a.get("type"),
                                                          shared):
                    sels.append(Selection(mid, w.name, None))
                else:
                    sels.append(Selection(mid, w.name, t))
            else:
                for t, n in tgts.items():
                    sels.append(Selection(mid, w.name, t, n))
    if kind == "shoot":
        return Shoot(a["unit"], tuple(sels), a.get("type"))
    return Fight(a["unit"], tuple(sels))


def _engaged_or_legal(battle, unit_ent, m, w, target_id, kind, stype, shared: dict) -> bool:
    """Shorthand targets apply to the models that can legally use them; the other models select
    the weapon with no target (it makes no attacks, 04.02). ``shared`` keeps, across the models
    of one step, the shooting type and each target's view (sim.plan.target_facts)."""
    from sim.errors import PlanError
    from sim.plan import shooting_type_for, target_facts
    from sim.rules.shooting import ranged_target_problem
    t = battle.units[target_id]
    if W.unit_destroyed(t):
        return False
    if kind == "fight":
        return any(W.models_engaged(m, tm) for tm in W.unit_models(t))
    if "type" not in shared:
        try:
            shared["type"] = shooting_type_for(unit_ent, stype)
        except PlanError:
            shared["type"] = None
    if shared["type"] is None:
        return True  # let validation report the real problem
    facts, _ = target_facts(battle, unit_ent, m, w, t, shared["type"], shared.setdefault("views", {}))
    return ranged_target_problem(facts) is None
