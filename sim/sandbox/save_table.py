"""Write a table as a scenario file (TOML) that ``sim check`` accepts.

``spec_toml`` writes a ScenarioSpec (the set-up table); ``table_toml`` writes the battle as it
stands now (living models where they stand, the units' turn flags; wounds already lost are
noted in a comment, since a scenario starts models at full wounds). Library terrain pieces are
written as ``piece = ..., at = ..., rotation = ...`` when the polygon is exactly that piece (with
``height = ...`` when its dense features are not of the piece's own height); other areas as
polygons, each feature with its height if it has one. Modelled rules (issue 26) are written on
the armies, on a unit when every model holds the same ones, else on each model. Numbers are written so that they read back identically. Reads only;
writes only the returned text."""

from __future__ import annotations

import math
from dataclasses import replace

import esper

from sim.components import Position, Unit, Wounds
from sim.rules import terrain as TR
from sim.rules.turn import PLAYER
from sim.scenario.attach import as_written
from sim.scenario.toml_text import quote
from sim.world import queries as W


def _q(s: str) -> str:
    return quote(s)


def _num(v: float) -> str:
    """A number that reads back as the same float (integers without a decimal point)."""
    v = float(v)
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    return repr(v)


def _pts(pts) -> str:
    return "[" + ", ".join(f"[{_num(x)}, {_num(y)}]" for x, y in pts) + "]"


def dense_height(area) -> tuple[bool, float | None]:
    """(True, h) when every dense feature of ``area`` has the height h (None: not given, Part A
    ruling 12), or it has none (h None); (False, None) when their heights differ."""
    hs = {f.height for f in area.features if f.solid}
    return (True, hs.pop() if hs else None) if len(hs) <= 1 else (False, None)


def piece_params(area) -> tuple[str, float, float, float] | None:
    """(piece, x, y, rotation) if ``area`` is exactly a TERRAIN_LIBRARY piece so placed (its
    dense features of one height, that of ``dense_height``)."""
    same, h = dense_height(area)
    for name in TR.TERRAIN_LIBRARY:
        if not same or (h is None and name in TR.PIECE_HEIGHTS):
            continue
        ref = TR.place(name, 0, 0, 0)
        if len(ref.polygon) != len(area.polygon) or len(ref.features) != len(area.features):
            continue
        (ax, ay), (bx, by) = area.polygon[0], area.polygon[1]
        (rx, ry), (sx, sy) = ref.polygon[0], ref.polygon[1]
        rot = math.degrees(math.atan2(by - ay, bx - ax) - math.atan2(sy - ry, sx - rx)) % 360.0
        for r in (round(rot, 6), round(rot)):
            c, s = math.cos(math.radians(r)), math.sin(math.radians(r))
            x, y = ax - (c * rx - s * ry), ay - (s * rx + c * ry)
            for xr, yr in ((round(x, 6), round(y, 6)), (round(x * 4) / 4, round(y * 4) / 4)):
                p = TR.place(name, xr, yr, r, h if name in TR.PIECE_HEIGHTS else None)
                if p.polygon == area.polygon and p.features == area.features:
                    return name, xr, yr, float(r)
    return None


def _terrain(area) -> list[str]:
    pp = piece_params(area)
    if pp is not None:
        name, x, y, rot = pp
        out = ["[[terrain]]", f"piece = {_q(name)}", f"at = [{_num(x)}, {_num(y)}]"]
        if rot:
            out.append(f"rotation = {_num(rot)}")
        if area.name != name:
            out.append(f"name = {_q(area.name)}")
        h = dense_height(area)[1]
        if h is not None and h != TR.PIECE_HEIGHTS.get(name):
            out.append(f"height = {_num(h)}")
        return out + [""]
    return ["[[terrain]]", f"name = {_q(area.name)}", f"area = {_pts(area.polygon)}",
            "features = [" + ", ".join(_feature(f) for f in area.features) + "]", ""]


def _feature(f) -> str:
    height = f", height = {_num(f.height)}" if f.height is not None else ""
    return f"{{ category = {_q(f.category)}, polygon = {_pts(f.polygon)}{height} }}"


def _weapon(w) -> list[str]:
    out = [f"[weapons.{_q(w.name)}]"]
    out.append(f"range = {w.range}" if w.range is not None else 'range = "melee"')
    out.append(f"A = {_dice(w.A)}")
    out.append(f"{'WS' if w.is_melee else 'BS'} = {w.skill}")
    out += [f"S = {_dice(w.S)}", f"AP = {w.AP}", f"D = {_dice(w.D)}"]
    if w.abilities:
        out.append(f"abilities = {_q(w.abilities_text or ', '.join(a.label() for a in w.abilities))}")
    if w.labels:
        out.append("labels = [" + ", ".join(_q(k) for k in w.labels) + "]")
    if w.weapon:  # 04.01.03 a profile of a multi-profile weapon
        out.append(f"weapon = {_q(w.weapon)}")
    return out + [""]


def _modifier(m) -> str:
    against = f", against = {_q(m.against)}" if m.against is not None else ""
    return f"{{ roll = {_q(m.roll)}, value = {m.value}, source = {_q(m.source)}{against} }}"


def _rules(keys) -> str:
    """A ``rules`` list (sim.rules.effects keys, which the loader reads back as the same rules)."""
    return "rules = [" + ", ".join(_q(k) for k in keys) + "]"


def unit_rules(models) -> tuple[str, ...]:
    """The rules to write on the unit: those every model holds in the same order (the loader
    gives a model its unit's rules, then its own), else none (each model writes its own)."""
    rs = {ms.rules for ms in models}
    return rs.pop() if len(rs) == 1 else ()


def _model(ms, note: str = "", placed: bool = True, on_unit: tuple = ()) -> str:
    p = ms.profile
    fields = [f"name = {_q(ms.name)}", f"id = {_q(ms.id)}"]
    mm_l, mm_w = ms.length * 25.4, ms.width * 25.4
    if ms.shape == "round" and ms.length == ms.width:
        fields.append(f"base_mm = {_num(round(mm_l, 9))}")
    else:
        fields.append(f"base = [{_num(round(mm_l, 9))}, {_num(round(mm_w, 9))}]")
        fields.append(f"shape = {_q(ms.shape)}")
    if ms.angle:
        fields.append(f"angle = {_num(ms.angle)}")
    fields += [f"M = {p.M}", f"T = {p.T}", f"Sv = {p.Sv}", f"W = {p.W}", f"Ld = {p.Ld}", f"OC = {p.OC}"]
    if p.InSv:
        fields.append(f"InSv = {p.InSv}")
        if p.InSv_against:
            fields.append(f"InSv_against = {_q(p.InSv_against)}")
    if ms.role != "bodyguard":
        fields.append(f"role = {_q(ms.role)}")
    if ms.keywords:
        fields.append("keywords = [" + ", ".join(_q(k) for k in sorted(ms.keywords)) + "]")
    if ms.abilities:
        fields.append("abilities = [" + ", ".join(_q(a.label()) for a in ms.abilities) + "]")
    if ms.labels:
        fields.append("labels = [" + ", ".join(_q(k) for k in ms.labels) + "]")
    if ms.rules and ms.rules != on_unit:  # (issue 26: its modelled rules, when not its unit's)
        fields.append(_rules(ms.rules))
    if ms.modifiers:  # (its unit's and its own, written on the model)
        fields.append("modifiers = [" + ", ".join(_modifier(m) for m in ms.modifiers) + "]")
    fields.append("weapons = [" + ", ".join(_q(w.name) for w in ms.weapons) + "]")
    if placed:  # (a unit waiting to be deployed by the rules has no place: 26 step 8)
        fields.append(f"at = [[{_num(ms.x)}, {_num(ms.y)}]]")
    return "  { " + ", ".join(fields) + " }," + (f"  # {note}" if note else "")


def _waiting(models, on_unit: tuple = ()) -> list[str]:
    """A unit waiting to be deployed by the rules (26 step 8): no places, its like models as one
    entry (``count``, ``ids``), so it waits in the same block as the file it came from."""
    out, run = [], []
    for ms in list(models) + [None]:
        line = None if ms is None else _model(ms, placed=False, on_unit=on_unit).replace(f"id = {_q(ms.id)}, ", "")
        if run and line != run[0][1]:
            ids = ", ".join(_q(m.id) for m, _l in run)
            out.append(run[0][1].replace(" },", f", count = {len(run)}, ids = [{ids}] }},"))
            run = []
        if ms is not None:
            run.append((ms, line))
    return out


def spec_toml(spec, notes: dict | None = None, header: str = "# Saved from the sandbox.") -> str:
    """The scenario text for ``spec`` (its script is not written: a saved table has none).
    ``notes``: model id -> a comment for its line; unit id -> a comment for a destroyed unit."""
    notes = notes or {}
    out = [header, "[battle]", f"name = {_q(spec.name)}"]
    if spec.description:
        out.append(f"description = {_q(spec.description)}")
    out += [f"seed = {spec.seed}", f"board = [{_num(spec.board[0])}, {_num(spec.board[1])}]", ""]
    for area in spec.terrain:
        out += _terrain(area)
    for w in spec.weapons.values():
        out += _weapon(w)
    for owner, army in enumerate(spec.armies):
        out += ["[[armies]]", f"name = {_q(army.name)}", f"colour = [{', '.join(str(c) for c in army.colour)}]"]
        if army.rules:  # (issue 26: army and detachment rules every unit of it holds)
            out.append(_rules(army.rules))
        out.append("")
        for us in (part for whole in spec.units for part in as_written(whole)):  # (19.01 each with its leads)
            if us.owner != owner:
                continue
            if not us.models:
                out += [f"# unit {us.id} {notes.get(us.id, 'has no models')}", ""]
                continue
            out += ["[[armies.units]]", f"id = {_q(us.id)}", f"name = {_q(us.name)}"]
            for flag in ("advanced", "fell_back", "charged", "ranged_attacks_last_turn", "reserves"):
                if getattr(us, flag):
                    out.append(f"{flag} = true")
            if us.moved:
                out.append(f"moved = {_num(us.moved)}")
            if us.allocation_order:
                out.append("allocation_order = [" + ", ".join(_q(k) for k in us.allocation_order) + "]")
            if us.labels:  # (inert labels and points, as an imported roster has them)
                out.append("labels = [" + ", ".join(_q(k) for k in us.labels) + "]")
            if us.points is not None:
                out.append(f"points = {us.points}")
            if us.can_lead:
                out.append("can_lead = [" + ", ".join(_q(k) for k in us.can_lead) + "]")
            if us.leads is not None:
                out.append(f"leads = {_q(us.leads)}")
            if us.transport is not None:
                out.append(f"transport = {_capacity(us.transport)}")
            if us.embarked is not None:
                out.append(f"embarked = {_q(us.embarked)}")
            if us.split is not None:  # (26 step 7 a half of a unit split: sim.scenario.split)
                out.append("half_of = [" + ", ".join(_q(x) for x in us.split) + "]")
            on_unit = unit_rules(us.models)
            if on_unit:
                out.append(_rules(on_unit))
            out.append("models = [")
            out += ([_model(ms, notes.get(ms.id, ""), on_unit=on_unit) for ms in us.models] if us.planned
                    else _waiting(us.models, on_unit))
            out += ["]", ""]
    if spec.mission is not None:
        out += _mission(spec.mission)
    return "\n".join(out) + "\n"


def _capacity(c) -> str:
    """18.01 A transport's capacity as the scenario writes it (sim.scenario.transport)."""
    parts = [f"models = {c.models}"]
    if c.keywords:
        parts.append(f"keywords = {_keywords(c.keywords)}")
    if c.excluded:
        parts.append("not = [" + ", ".join(_q(k) for k in c.excluded) + "]")
    if c.spaces:
        parts.append("space = { " + ", ".join(f"{_q(k)} = {n}" for k, n in c.spaces) + " }")
    if c.units is not None:
        parts.append(f"units = {c.units}")
    if c.limits:
        parts.append("limits = [" + ", ".join(f"{{ models = {n}, keywords = {_keywords(kw)} }}" for n, kw in c.limits)
                     + "]")
    if c.wounds:
        parts.append("wounds = [" + ", ".join(_wounds_rule(r) for r in c.wounds) + "]")
    if c.split:
        parts.append("split = [" + ", ".join(_q(k) for k in c.split) + "]")
    return "{ " + ", ".join(parts) + " }"


def _wounds_rule(r) -> str:
    """18.01 One of a capacity's rules by Wounds (sim.rules.transport.WoundsRule)."""
    parts = [f"at_least = {r.at_least}", "barred = true" if r.space is None else f"space = {r.space}"]
    if r.keywords:
        parts.append(f"keywords = {_keywords(r.keywords)}")
    if r.exempt:
        parts.append("except = [" + ", ".join(_q(k) for k in r.exempt) + "]")
    return "{ " + ", ".join(parts) + " }"


def _keywords(entries) -> str:
    """A capacity's keywords list: each entry a keyword, or a list of alternatives."""
    return "[" + ", ".join(_q(alts[0]) if len(alts) == 1 else "[" + ", ".join(_q(a) for a in alts) + "]"
                           for alts in entries) + "]"


def _mission(m) -> list[str]:
    """The [mission] table (README "Whole battles"), every field written out."""
    sides = PLAYER
    rules = m.deployment == "rules"  # (26 steps 5-11: no 'deployed'; the roles by a roll-off unless named)
    out = ["[mission]", f"name = {_q(m.name)}", f"rounds = {m.rounds}",
           f"first = {_q('roll-off' if m.first is None else sides[m.first])}"]
    if not (rules and m.roles_rolled):
        out.append(f"defender = {_q(sides[m.defender])}")
    out.append("players = { " + ", ".join(f"{side} = {_q(kind)}" for side, kind in zip(sides, m.players)) + " }")
    out.append('deployment = "rules"' if rules else f"deployed = {'true' if m.deployed else 'false'}")
    if m.size != "strike force":  # the battle size a rule's numbers read
        out.append(f"size = {_q(m.size)}")
    if m.objectives:
        out.append("objectives = [")
        for o in m.objectives:
            owner = f", owner = {_q(sides[o.owner])}" if o.owner is not None else ""
            out.append(f"  {{ name = {_q(o.name)}, at = [{_num(o.x)}, {_num(o.y)}], kind = {_q(o.kind)}{owner} }},")
        out.append("]")
    if m.zones:
        out.append("zones = { " + ", ".join(f"{side} = {_pts(z)}" for side, z in zip(sides, m.zones)) + " }")
    return out + [""]


def spec_from_world(battle):
    """The battle as it stands now, as a ScenarioSpec (living models where they stand, turn
    flags), and notes on wounds lost and destroyed units."""
    spec = battle.scenario
    battle._enter()
    notes: dict[str, str] = {}
    units = []
    for us in spec.units:
        ent = battle.units[us.id]
        if W.in_reserves(ent):
            units.append(us)  # (still in strategic reserves, as the scenario put it there)
            continue
        carrier = W.embarked_in(ent)
        if carrier is not None:  # (18.02 inside a transport: its living models, at places that stand for nothing)
            alive = {W.model_id(m) for m in W.alive_models(ent)}
            units.append(replace(us, models=tuple(ms for ms in us.models if ms.id in alive), reserves=False,
                                 embarked=esper.component_for_entity(carrier, Unit).id))
            continue
        living = {W.model_id(m): m for m in W.unit_models(ent)}
        models = []
        for ms in us.models:
            m = living.get(ms.id)
            if m is None:
                continue
            pos = esper.component_for_entity(m, Position)
            lost = ms.profile.W - esper.component_for_entity(m, Wounds).remaining
            if lost > 0:
                notes[ms.id] = f"{lost} wounds lost"
            models.append(replace(ms, x=pos.x, y=pos.y, angle=ms.angle if pos.angle is None else pos.angle))
        if not models:
            notes[us.id] = "was destroyed"
        st = W.unit_state(ent)
        units.append(replace(us, models=tuple(models), advanced=st.advanced, fell_back=st.fell_back,
                             charged=st.charged, moved=st.moved,
                             ranged_attacks_last_turn=bool(st.ranged_attacks_this_turn or st.ranged_attacks_last_turn),
                             reserves=False))
    name = spec.name if spec.name.endswith("(saved table)") else spec.name + " (saved table)"
    # (a saved battle with a mission starts where it stands, not deployed: 26 step 8)
    mission = None if spec.mission is None else replace(spec.mission, deployed=False)
    return replace(spec, name=name, seed=battle.seed, units=tuple(units), script=(), mission=mission), notes


def table_toml(battle, scene=None) -> str:
    spec, notes = spec_from_world(battle)
    return spec_toml(spec, notes)


def _dice(d) -> str:
    s = str(d)
    return s if s.isdigit() else _q(s)
