"""Imported units -> scenario text (README "The scenario format"), and back.

:func:`scenario_text` puts the units in one army of a scenario: a new one (a whole battle on the
default 60" x 44" table with no terrain, both sides played by the default player, the other
army empty until it is imported too), or an existing scenario file whose other army, terrain,
mission and script are kept (the file is rewritten from its data: its comments are not). Each
model is placed in its army's deployment zone (the mission's, else Part A ruling 22's default
zones) by the placement solver: each unit coherent on its own bases, clear of the other units
and of the terrain, compact against the army's battlefield edge. The text is parsed back by
the scenario loader before anyone writes it, so what is written always passes `sim check`.

:func:`units_from_spec` reads the imported units back from a loaded scenario (the round trip
test: units -> TOML -> loader -> units gives the same units)."""

from __future__ import annotations

import itertools
import os
import re
import tomllib
from pathlib import Path

from sim.scenario.toml_text import quote
from sim.errors import ImportFileError, ScenarioError
from sim.importers import model as M
from sim.rules.geometry import Footprint
from sim.rules.turn import PLAYER
from sim.scenario import load as L

ARMY_NAMES = tuple(p.capitalize() for p in PLAYER)  # a new scenario's armies: "Red", "Blue"
GAP = 0.5  # inches between the bases of a unit's models (coherency: within 2")
UNIT_GAP = 1.5  # inches between units
EDGE = 0.5  # inches kept from the zone's edges
MM = 25.4


# --- a small TOML writer ------------------------------------------------------------------------

_BARE = re.compile(r"[A-Za-z0-9_-]+\Z")
INLINE_LISTS = {"models", "modifiers", "features", "objectives"}


def _s(s: str) -> str:
    return quote(s)


def _key(k: str) -> str:
    return k if _BARE.match(k) else _s(k)


def _num(v: float) -> str:
    v = float(v)
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    return repr(v)


def _val(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return _num(v)
    if isinstance(v, str):
        return _s(v)
    if isinstance(v, list):
        return "[" + ", ".join(_val(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_val(x)}" for k, x in v.items()) + " }" if v else "{}"
    if hasattr(v, "isoformat"):
        return v.isoformat()
    raise TypeError(type(v).__name__)


def _table(path: str, d: dict, out: list[str], array: bool = False) -> None:
    out.append(f"[[{path}]]" if array else f"[{path}]")
    subs = []
    for k, v in d.items():
        if isinstance(v, dict) and v and all(isinstance(x, dict) for x in v.values()) and k not in ("players",):
            subs.append(("table", k, v))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v) and k not in INLINE_LISTS:
            subs.append(("array", k, v))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            out.append(f"{_key(k)} = [")
            out.extend(f"  {_val(x)}," for x in v)
            out.append("]")
        else:
            out.append(f"{_key(k)} = {_val(v)}")
    out.append("")
    for kind, k, v in subs:
        if kind == "table":
            for name, sub in v.items():
                _table(f"{path}.{_key(k)}.{_key(name)}", sub, out)
        else:
            for sub in v:
                _table(f"{path}.{_key(k)}", sub, out, array=True)


def dump(doc: dict, header: str = "") -> str:
    """The TOML text of ``doc``, ``header`` as ``#`` comments first: each comment line has its
    control characters escaped (sim.errors.escape_controls: a name in the report may hold ESC
    or a newline, which TOML does not allow in a comment), so the text always reads back."""
    from sim.errors import escape_controls
    out = [f"# {escape_controls(line)}" if line else "#" for line in header.splitlines()]
    if out:
        out.append("")
    order = ["battle", "mission", "terrain", "weapons", "armies", "script"]
    for k in sorted(doc, key=lambda k: order.index(k) if k in order else len(order)):
        v = doc[k]
        if k == "weapons":
            for name, w in v.items():
                _table(f"weapons.{_key(name)}", w, out)
        elif isinstance(v, list):
            for item in v:
                _table(_key(k), item, out, array=True)
        elif isinstance(v, dict):
            _table(_key(k), v, out)
        else:
            out.insert(0, f"{_key(k)} = {_val(v)}")
    return "\n".join(out).rstrip() + "\n"


# --- units -> data --------------------------------------------------------------------------------

def weapon_data(w: M.Weapon) -> dict:
    d = {"range": w.range if w.range is not None else "melee", "A": _dice(w.A)}
    if w.skill is not None:
        d["WS" if w.range is None else "BS"] = w.skill
    d.update({"S": w.S, "AP": w.AP, "D": _dice(w.D)})
    if w.abilities:
        d["abilities"] = w.abilities
    if w.labels:
        d["labels"] = list(w.labels)
    if w.weapon:  # 04.01.03 a profile of a multi-profile weapon
        d["weapon"] = w.weapon
    return d


def merge_weapons(out: dict[str, dict], weapons: dict[str, M.Weapon]) -> dict[str, str]:
    """Add an import's weapon profiles (``weapons``, by name, as one Assembler keeps them) to a
    scenario's [weapons] table ``out`` (name -> its data, in place) and return the name each
    takes there: its own, or, when a different profile there has it, or a multi-profile weapon
    there is named so, its own with a number ("#2"); and a multi-profile weapon of the import
    named as a profile there takes its name with a number (04.01.03: a script names either kind,
    so a profile and a multi-profile weapon never share a name: the War Dog Karnivore's
    one-profile Reaper chaintalon in one army, the Huntsman's two-profile one in the other)."""
    groups = {v.get("weapon") for v in out.values() if isinstance(v, dict) and v.get("weapon")}
    regrouped: dict[str, str] = {}  # the import's multi-profile weapon names -> theirs in ``out``
    renames = {}
    for name, w in weapons.items():
        d = weapon_data(w)
        g = d.get("weapon")
        if g is not None:
            if g not in regrouped:
                new_g, k = g, 2
                while new_g in out:
                    new_g, k = f"{g} #{k}", k + 1
                regrouped[g] = new_g
            d["weapon"] = regrouped[g]
        new, k = name, 2
        while (new in out and out[new] != d) or new in groups:
            new, k = f"{name} #{k}", k + 1
        out[new] = d
        if g is not None:
            groups.add(d["weapon"])
        renames[name] = new
    return renames


def _dice(v: str):
    return int(v) if v.isdigit() else v


def unit_data(u: M.Unit, spots: list[list[tuple[float, float]]]) -> dict:
    d = {"id": u.id, "name": u.name}
    if u.keywords:
        d["keywords"] = list(u.keywords)
    if u.abilities:
        d["abilities"] = list(u.abilities)
    if u.labels:
        d["labels"] = list(u.labels)
    if u.rules:
        d["rules"] = list(u.rules)
    if u.points is not None:
        d["points"] = u.points
    if u.can_lead:
        d["can_lead"] = list(u.can_lead)
    if u.transport:
        d["transport"] = u.transport
    if u.split_by:
        d["split_by"] = u.split_by
    models = []
    for m, at in zip(u.models, spots):
        md = {"name": m.name, "count": m.count}
        if m.base.shape == "round":
            md["base_mm"] = _round(m.base.length_mm)
        else:
            md["base"] = [_round(m.base.length_mm), _round(m.base.width_mm)]
            md["shape"] = m.base.shape
        md.update({"M": m.M, "T": m.T, "Sv": m.Sv, "W": m.W, "Ld": m.Ld, "OC": m.OC})
        if m.InSv is not None:
            md["InSv"] = m.InSv
            if m.InSv_against:
                md["InSv_against"] = m.InSv_against
        if m.role != "bodyguard":
            md["role"] = m.role
        if m.keywords:
            md["keywords"] = list(m.keywords)
        if m.abilities:
            md["abilities"] = list(m.abilities)
        if m.labels:
            md["labels"] = list(m.labels)
        if m.rules:
            md["rules"] = list(m.rules)
        md["weapons"] = list(m.weapons)
        md["at"] = [[_round(x), _round(y)] for x, y in at]
        models.append(md)
    d["models"] = models
    return d


def _round(v: float):
    r = round(float(v), 4)
    return int(r) if r == int(r) else r


# --- placement -----------------------------------------------------------------------------------

def _size(b: M.Base) -> tuple[float, float]:
    return b.length_mm / MM, b.width_mm / MM


def _footprint(b: M.Base) -> Footprint:
    L, Wd = _size(b)
    return Footprint(b.shape, 0.0, 0.0, L, L if b.shape == "round" else Wd)


def place(units: list[M.Unit], zone, file: str, taken=(), board=(60.0, 44.0),
          terrain=()) -> list[list[list[tuple[float, float]]]]:
    """Positions for every model (per unit, per model entry, per model): the army set up by the
    placement solver (sim.rules.movement.solvers.placement.place_army), each model on its own
    base, each unit coherent, wholly within the zone (03.02.02: an oversized base touching its
    player's edge), compact against the player's battlefield edge, on no other base and no
    light or dense feature of ``terrain``. ``taken``: (id, footprint) of the bases already on
    the table (when a unit is added). An army that cannot fit is refused with the solver's
    reason (the unit, the room free and the room its bases need)."""
    from sim.rules.movement.solvers import placement as PL
    from sim.rules.movement.solvers import regions as RG
    army = []
    for u in units:
        n = itertools.count(1)
        army.append((u.id, [(f"{u.id}/{next(n)}", _footprint(m.base)) for m in u.models for _ in range(m.count)]))
    region = RG.deployment(zone, tuple(board))
    got = PL.place_army(army, region, list(taken), tuple(terrain), PL.Prefer.back(zone, tuple(board)),
                        gap=GAP, clearance=UNIT_GAP)
    if not got:
        xs = [p[0] for p in zone]
        ys = [p[1] for p in zone]
        raise ImportFileError(file, "", "an army that fits in its deployment zone "
                              f"({max(xs) - min(xs):g}\" x {max(ys) - min(ys):g}\")", got.reason)
    out = []
    for u, (_uid, models) in zip(units, army):
        pos = iter(got.units[u.id].positions[mid] for mid, _f in models)
        out.append([[next(pos) for _ in range(m.count)] for m in u.models])
    return out


# --- the scenario ----------------------------------------------------------------------------------

def new_scenario(name: str) -> dict:
    from sim.errors import escape_controls
    name = escape_controls(name)[:100]  # (the roster's file name or a datasheet's: a scenario string has no control characters)
    return {"battle": {"name": name or "Imported armies", "seed": 1, "board": [60, 44]},
            "mission": {"first": "roll-off", "players": dict.fromkeys(PLAYER, "default")},
            "weapons": {},
            "armies": [{"name": ARMY_NAMES[0], "units": []}, {"name": ARMY_NAMES[1], "units": []}]}


def scenario_text(units: list[M.Unit], weapons: dict[str, M.Weapon], side: str, into: str | None,
                  file: str, name: str, header: str = "", seed: int | None = None, add: bool = False,
                  army_rules=()) -> str:
    """The scenario text with ``units`` as army ``side`` (red or blue), in a new scenario or in
    the one at ``into`` (an existing file; its other army, terrain, mission and script kept).
    ``add``: the units join that army (its units kept where they stand, the new ones placed
    clear of every base on the table) instead of replacing it. ``army_rules``: the keys of the
    army's rules (sim.rules.effects), written as the army's ``rules`` (with ``add``, after the
    rules it has; else instead of them, and the replaced army's ``chosen`` dropped; a choice of
    the other army that picked a replaced unit refuses the import, as a script step naming one
    does)."""
    owner = PLAYER.index(side)
    taken, board, terrain = [], (60.0, 44.0), ()
    if exists(into):
        try:
            spec = L.load_scenario(into)
        except ScenarioError as e:
            raise ImportFileError(e.file, e.path, e.expected, e.found) from None
        data = scenario_data(into)
        zones = _zones(spec)
        replaced = set() if add else {u.id for u in spec.units if u.owner == owner}
        board, terrain = spec.board, spec.terrain
        if add:
            taken = [(m.id, Footprint(m.shape, m.x, m.y, m.length, m.width, m.angle))
                     for u in spec.units for m in u.models]
        steps = [s for s in data.get("script", []) if _names_any(s, replaced)]
        if steps:
            raise ImportFileError(str(into), "script", f"a script that names no unit of the {side} army it replaces",
                                  f"<a step naming {sorted(_names_any(steps[0], replaced))[0]!r}>")
        other_chosen = data["armies"][1 - owner].get("chosen") if isinstance(data.get("armies"), list) else None
        picks = [k for k, v in other_chosen.items() if isinstance(v, str) and v in replaced] \
            if isinstance(other_chosen, dict) else []
        if picks:  # (the other army's rule picked a unit being replaced)
            raise ImportFileError(str(into), f"armies[{1 - owner}].chosen", f"choices that name no unit of the "
                                  f"{side} army it replaces", f"<{picks[0]!r} naming {other_chosen[picks[0]]!r}>")
    else:
        data = new_scenario(name)
        if seed is not None:
            data["battle"]["seed"] = seed
        from sim.rules.objectives import default_zones
        z = default_zones((60.0, 44.0))
        zones = (z["defender"], z["attacker"])
    data.setdefault("weapons", {})
    other = data["armies"][1 - owner]
    kept = list(data["armies"][owner].get("units", [])) if add else []
    stay = other.get("units", []) + kept
    keep = {w for u in stay for m in u.get("models", []) for w in m.get("weapons", [])}
    keep |= _script_weapons(data.get("script", []))
    weapons_out = {k: v for k, v in data["weapons"].items()
                   if k in keep or (isinstance(v, dict) and v.get("weapon") in keep)}  # (04.01.03 by its weapon)
    taken_ids = {u.get("id") for u in stay}
    taken_models = {i for u in stay for m in u.get("models", [])
                    for i in ([m["id"]] if "id" in m else m.get("ids", []))}
    renames = merge_weapons(weapons_out, weapons)
    fixed = []
    for u in units:
        uid, k = u.id, 2
        while uid in taken_ids or any(t.startswith(f"{uid}/") for t in taken_models):
            uid, k = f"{u.id}-{k}", k + 1
        taken_ids.add(uid)
        fixed.append(_rename(u, uid, renames))
    spots = place(fixed, zones[owner], file, taken, board, terrain)
    _check_placed(fixed, spots, file)
    data["weapons"] = weapons_out
    data["armies"][owner]["units"] = kept + [unit_data(u, s) for u, s in zip(fixed, spots)]
    arm = data["armies"][owner]
    if not add:
        arm.pop("chosen", None)  # (the choices of the replaced army's rules)
    held = [r for r in arm.get("rules", []) if isinstance(r, str)] if add else []
    new = list(dict.fromkeys(held + list(army_rules)))
    if new:
        arm["rules"] = new
        arm["units"] = arm.pop("units")  # (the army's keys before its units' tables)
    else:
        arm.pop("rules", None)
    text = dump(data, header)
    try:
        L.parse_scenario(tomllib.loads(text), file)
    except ScenarioError as e:
        raise ImportFileError(file, e.path, f"units the scenario format accepts ({e.expected})", e.found) from None
    return text


def _check_placed(units: list[M.Unit], spots, file: str) -> None:
    """The importer's own check of what place() made, before the scenario loader's: each unit set
    up in coherency (03.02), else the error names the unit and says it is the importer's
    placement that failed (not the unit, not the deployment zone)."""
    from sim.rules.coherency import coherency_problems
    from sim.rules.geometry import footprint
    for u, per_model in zip(units, spots):
        fps = []
        for m, at in zip(u.models, per_model):
            length, width = _size(m.base)
            fps += [(f"{u.id}/{len(fps) + k + 1}", footprint(m.base.shape, x, y, length, width, 0.0))
                    for k, (x, y) in enumerate(at)]
        found = coherency_problems(fps)
        if found:
            sizes = sorted({m.base.text() for m in u.models})
            raise ImportFileError(file, f"unit {u.id!r}", "the importer's placement of each unit in coherency (03.02)",
                                  f"{found[0]} (bases {', '.join(sizes)}; placed by the placement solver: "
                                  "a placement limit, not a fault of the unit)")


def free_ids(units: list[M.Unit], side: str, into: str | None, add: bool = False) -> dict[str, str]:
    """Unit id -> the id it gets in the scenario at ``into`` (unchanged unless the other army,
    or with ``add`` its own, already has it)."""
    if not exists(into):
        return {u.id: u.id for u in units}
    try:
        data = scenario_data(into)
        owner = PLAYER.index(side)
        stay = data["armies"][1 - owner].get("units", []) + (data["armies"][owner].get("units", []) if add else [])
        taken = {u.get("id") for u in stay}
        taken_models = {i for u in stay for m in u.get("models", [])
                        for i in ([m["id"]] if "id" in m else m.get("ids", []))}
    except (ScenarioError, KeyError, IndexError, TypeError, AttributeError):
        return {u.id: u.id for u in units}  # (scenario_text reports what is wrong with the file)
    out = {}
    for u in units:
        uid, k = u.id, 2
        while uid in taken or any(isinstance(t, str) and t.startswith(f"{uid}/") for t in taken_models):
            uid, k = f"{u.id}-{k}", k + 1
        taken.add(uid)
        out[u.id] = uid
    return out


def scenario_data(into: str) -> dict:
    """The parsed TOML of the existing scenario at ``into`` (``--out``), read as the scenario
    loader reads a file (sim.scenario.files.read_capped: a regular file of bounded size, never a
    FIFO or a device; nesting too deep is an error, not a RecursionError). Raises
    ImportFileError."""
    from sim.scenario.files import read_capped
    raw = read_capped(Path(into), into, L.MAX_FILE_BYTES, "a scenario file", ImportFileError)
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ImportFileError(into, "", "UTF-8 text", "undecodable bytes") from None
    except tomllib.TOMLDecodeError as e:
        raise ImportFileError(into, "", "valid TOML", str(e)) from None
    except (RecursionError, MemoryError, ValueError):
        raise ImportFileError(into, "", f"a scenario file nested at most {L.MAX_DEPTH} deep, with whole numbers "
                              f"of at most {len(str(L.MAX_INT))} digits", "deeper nesting or longer numbers") from None


def exists(into: str | None) -> bool:
    """Is there anything at ``into`` (a file, a FIFO, a device, a dangling link): then it is
    read as a scenario, and refused unless it is one; only a path with nothing there is new."""
    return into is not None and os.path.lexists(into)


def _zones(spec):
    if spec.mission is not None:
        return spec.mission.zones
    from sim.rules.objectives import default_zones
    z = default_zones(spec.board)
    return (z["defender"], z["attacker"])


def _names_any(step, ids: set[str]) -> set[str]:
    found = set()
    stack = [step]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if v in ids or v.split("/")[0] in ids:
                found.add(v.split("/")[0])
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return found


def _script_weapons(script) -> set[str]:
    out = set()
    for s in script:
        for key in ("targets",):
            if isinstance(s.get(key), dict):
                out |= set(s[key])
        for per in (s.get("models") or {}).values() if isinstance(s.get("models"), dict) else ():
            if isinstance(per, dict):
                out |= set(per)
    return out


def _rename(u: M.Unit, uid: str, renames: dict[str, str]) -> M.Unit:
    from dataclasses import replace
    return replace(u, id=uid, models=tuple(replace(m, weapons=tuple(renames.get(w, w) for w in m.weapons))
                                           for m in u.models))


# --- back from a loaded scenario -----------------------------------------------------------------

def spec_records(spec, owner: int) -> list[tuple]:
    """One army of a loaded scenario as plain records, model by model (the round trip test
    compares them with :func:`unit_records` of the units that were written)."""
    out = []
    for u in spec.units:
        if u.owner != owner:
            continue
        models = []
        for ms in u.models:
            p = ms.profile
            models.append((ms.name, ms.role, p.M, p.T, p.Sv, p.W, p.Ld, p.OC, p.InSv, p.InSv_against, ms.shape,
                           round(ms.length * MM, 3), round(ms.width * MM, 3), tuple(sorted(ms.keywords)),
                           tuple(a.printed for a in ms.abilities), tuple(u.labels) + tuple(ms.labels), tuple(ms.rules),
                           tuple(_weapon_record(w.name, w.range, w.A, w.skill, w.S, w.AP, w.D, w.abilities,
                                                w.abilities_text, w.labels, w.weapon) for w in ms.weapons)))
        out.append((u.id, u.name, u.points, u.can_lead, tuple(models)))
    return out


def unit_records(units: list[M.Unit], weapons: dict[str, M.Weapon]) -> list[tuple]:
    from sim.rules.abilities import parse_weapon_abilities
    from sim.rules.dice import parse_dice_expr
    out = []
    for u in units:
        models = []
        for m in u.models:
            rec = (m.name, m.role, m.M, m.T, m.Sv, m.W, m.Ld, m.OC, m.InSv, m.InSv_against, m.base.shape,
                   round(m.base.length_mm, 3), round(m.base.width_mm, 3), tuple(sorted(set(u.keywords) | set(m.keywords))),
                   tuple(u.abilities) + tuple(m.abilities), tuple(u.labels) + tuple(m.labels),
                   tuple(dict.fromkeys(tuple(u.rules) + tuple(m.rules))),
                   tuple(_weapon_record(w.name, w.range, parse_dice_expr(w.A), w.skill or 2, _strength(w.S), w.AP,
                                        parse_dice_expr(w.D), parse_weapon_abilities(w.abilities, w.name),
                                        w.abilities, w.labels, w.weapon)
                         for w in (weapons[n] for n in m.weapons)))
            models.extend([rec] * m.count)
        out.append((u.id, u.name, u.points, u.can_lead, tuple(models)))
    return out


def _strength(S: int | str):
    """An imported S as the loader reads it: a number, or a random S as its DiceExpr."""
    from sim.rules.dice import parse_dice_expr
    if isinstance(S, int):
        return S
    d = parse_dice_expr(S)
    return d if d.is_random else d.k


def _weapon_record(*fields) -> tuple:
    return tuple(fields)
