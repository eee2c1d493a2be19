"""Editing a table before any battle happens: pure functions from a ScenarioSpec to an edited
copy (dataclasses.replace). Every edit is checked the way ``sim check`` checks a file: the
edited table is written as scenario text and parsed back, so a refused edit gives the loader's
own message (a base off the board, overlapping models, terrain off the board...) and an
accepted one is always a table that saves and loads."""

from __future__ import annotations

import hashlib
import math
import tomllib
from dataclasses import replace
from pathlib import Path

from sim.errors import ScenarioError
from sim.names import possessive
from sim.rules import leaders as LR
from sim.rules import terrain as TR
from sim.sandbox.save_table import dense_height, piece_params, spec_toml
from sim.scenario import attach as A
from sim.scenario.load import load_scenario, parse_scenario

LIBRARY = Path(__file__).resolve().parents[2] / "assets" / "unit_library.toml"


class EditError(Exception):
    """The edit would make an invalid table; nothing changed."""


def checked(spec, label: str = "set-up table"):
    """The spec as it reads back from its own scenario text (raises EditError if invalid)."""
    text = spec_toml(spec)
    try:
        out = parse_scenario(tomllib.loads(text), label)
    except ScenarioError as e:
        raise EditError(f"expected {e.expected}, found {e.found}") from None
    return replace(out, path=spec.path, digest=hashlib.sha256(text.encode()).hexdigest())


def load_library(path: str | Path = LIBRARY):
    """(units, weapons) of the unit library: UnitSpec templates and their weapon profiles."""
    lib = load_scenario(path)
    return lib.units, lib.weapons


# --- terrain ---------------------------------------------------------------------------------
def snap(v: float, step: float = 0.25) -> float:
    return round(v / step) * step


def add_terrain(spec, piece: str, x: float, y: float, rotation: float = 0.0):
    names = {a.name for a in spec.terrain}
    area = TR.place(piece, snap(x), snap(y), rotation % 360)
    name, k = piece, 2
    while name in names:
        name, k = f"{piece}-{k}", k + 1
    return checked(replace(spec, terrain=spec.terrain + (replace(area, name=name),), script=()))


def remove_terrain(spec, index: int):
    t = list(spec.terrain)
    del t[index]
    return checked(replace(spec, terrain=tuple(t), script=()))


def move_terrain(spec, index: int, dx: float, dy: float, rotate: float = 0.0):
    """Translate (and rotate about its placement point) one terrain area."""
    area = spec.terrain[index]
    pp = piece_params(area)
    if pp is not None:
        name, x, y, rot = pp
        new = replace(TR.place(name, snap(x + dx), snap(y + dy), (rot + rotate) % 360,
                               dense_height(area)[1]), name=area.name)
    else:
        cx = sum(p[0] for p in area.polygon) / len(area.polygon)
        cy = sum(p[1] for p in area.polygon) / len(area.polygon)
        new = TR.TerrainArea(area.name, _xf(area.polygon, cx, cy, dx, dy, rotate),
                             tuple(TR.Feature(f.category, _xf(f.polygon, cx, cy, dx, dy, rotate), f.height)
                                   for f in area.features))
    t = list(spec.terrain)
    t[index] = new
    return checked(replace(spec, terrain=tuple(t), script=()))


def set_terrain_height(spec, index: int, height: float | None):
    """Part A ruling 12: every dense feature of one terrain area ``height`` inches tall (None:
    no height given, so taller than 2"; a library piece: its own height). EditError for an area
    with no dense feature."""
    area = spec.terrain[index]
    if not area.solid_features:
        raise EditError(f"{area.name} has no dense feature: only a dense feature's height is read (13.06)")
    pp = piece_params(area)
    if pp is not None:
        name, x, y, rot = pp
        new = replace(TR.place(name, x, y, rot, height), name=area.name)
    else:
        new = replace(area, features=tuple(replace(f, height=height) if f.solid else f for f in area.features))
    t = list(spec.terrain)
    t[index] = new
    return checked(replace(spec, terrain=tuple(t), script=()))


def _xf(pts, cx, cy, dx, dy, rot):
    a = math.radians(rot)
    c, s = math.cos(a), math.sin(a)
    return tuple((round(cx + dx + c * (x - cx) - s * (y - cy), 9), round(cy + dy + s * (x - cx) + c * (y - cy), 9))
                 for x, y in pts)


def terrain_at(spec, x: float, y: float) -> int | None:
    """The topmost terrain area containing the table point, or None."""
    for i in range(len(spec.terrain) - 1, -1, -1):
        if point_in_polygon(x, y, spec.terrain[i].polygon):
            return i
    return None


def point_in_polygon(x: float, y: float, poly) -> bool:
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


# --- units -----------------------------------------------------------------------------------
def centre(unit) -> tuple[float, float]:
    xs = [m.x for m in unit.models]
    ys = [m.y for m in unit.models]
    return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


def unit_at(template, x: float, y: float) -> list[tuple[float, float]]:
    """Where the template's models stand when its formation is centred on (x, y)."""
    cx, cy = centre(template)
    return [(snap(x) + m.x - cx, snap(y) + m.y - cy) for m in template.models]


def unit_spots(spec, template, x: float, y: float) -> list[tuple[float, float]]:
    """Where the template's models are set up when placed by hand at (x, y): the placement
    solver's set-up (sim.rules.movement.solvers.placement) on the battlefield nearest the
    pointer, each model on its own base, coherent (03.03), clear of every base on the table and
    of light and dense features. EditError with the solver's reason when there is no room."""
    from sim.rules.geometry import Footprint
    from sim.rules.movement.solvers import placement as PL
    from sim.rules.movement.solvers import regions as RG
    models = [(m.id, Footprint(m.shape, 0.0, 0.0, m.length, m.width, m.angle)) for m in template.models]
    others = [(m.id, Footprint(m.shape, m.x, m.y, m.length, m.width, m.angle)) for u in spec.units for m in u.models]
    got = PL.place_unit(models, RG.anywhere(tuple(spec.board)), others, spec.terrain,
                        PL.Prefer.toward((snap(x), snap(y))), unit=template.name)
    if not got:
        raise EditError(got.reason)
    return [(round(got.positions[m.id][0], 4), round(got.positions[m.id][1], 4)) for m in template.models]


def add_unit(spec, template, owner: int, x: float, y: float, weapons: dict | None = None):
    """A copy of ``template`` (a UnitSpec) for army ``owner``, set up nearest (x, y) where the
    placement solver finds room (``unit_spots``); its weapons join the table's (renamed if the
    table has a different weapon of the same name)."""
    ids = {p.id for u in spec.units for p in (u, *u.parts)}  # (19.01 a unit that joined another keeps its id)
    base = template.id.rsplit("-", 1)[0] if template.id.rsplit("-", 1)[-1].isdigit() else template.id
    uid, k = base, 2
    while uid in ids:
        uid, k = f"{base}-{k}", k + 1
    table_w = dict(spec.weapons)
    rename = {}
    for m in template.models:
        for w in m.weapons:
            if w.name in rename:
                continue
            name, k = w.name, 2
            while name in table_w and table_w[name] != w:
                name, k = f"{w.name} ({k})", k + 1
            rename[w.name] = replace(w, name=name) if name != w.name else w
            table_w[name] = rename[w.name]
    at = unit_spots(spec, template, x, y)
    models = tuple(replace(m, id=f"{uid}/{i + 1}", x=round(px, 6), y=round(py, 6),
                           weapons=tuple(rename[w.name] for w in m.weapons))
                   for i, (m, (px, py)) in enumerate(zip(template.models, at)))
    unit = replace(template, id=uid, owner=owner, models=models, advanced=False, fell_back=False,
                   charged=False, moved=0.0, ranged_attacks_last_turn=False, allocation_order=(), leads=None,
                   parts=())
    return checked(replace(spec, units=spec.units + (unit,), weapons=table_w, script=()))


def remove_unit(spec, uid: str):
    us = unit_spec(spec, uid)
    if not any(u.owner == us.owner and u.id != uid for u in spec.units):
        army = spec.armies[us.owner].name
        raise EditError(f"{us.name} is {possessive(army)} last unit, and an army needs at least one: "
                        f"add another unit to {army} first")
    return checked(replace(spec, units=tuple(u for u in spec.units if u.id != uid), script=()))


def move_unit(spec, uid: str, dx: float, dy: float):
    units = tuple(replace(u, models=tuple(replace(m, x=round(m.x + dx, 6), y=round(m.y + dy, 6))
                                          for m in u.models)) if u.id == uid else u for u in spec.units)
    return checked(replace(spec, units=units, script=()))


def unit_spec(spec, uid: str):
    return next(u for u in spec.units if u.id == uid)


# --- attached units (19.01) ---------------------------------------------------------------------
def bodyguards(spec, uid: str) -> list[tuple[str, str, list[str]]]:
    """(id, name, why not) of each friendly unit the unit ``uid`` might join as its leader or
    support, judged by the rule (sim.rules.leaders) against the table's attachments ([]: it
    may join that one)."""
    units = spec.units
    me = A.facts(unit_spec(spec, uid))
    return [(b.id, b.name, problems)
            for b, problems in LR.bodyguards_for(me, [A.facts(u) for u in units], A.joined(units))]


def attach(spec, uid: str, bodyguard: str):
    """19.01 The unit ``uid`` joins ``bodyguard``: one attached unit (the loader makes it from the
    unit's ``leads``; a refusal is its message)."""
    us = unit_spec(spec, uid)
    problems = next((p for b, _, p in bodyguards(spec, uid) if b == bodyguard), None)
    if problems:
        raise EditError("; ".join(problems))
    return checked(replace(spec, units=tuple(replace(u, leads=bodyguard) if u is us else u for u in spec.units),
                           script=()))


def detach(spec, uid: str, part: str):
    """The unit ``part`` leaves the attached unit ``uid``: it stands on its own again (where
    its models stand now), the bodyguard keeps any other unit that joined it."""
    us = unit_spec(spec, uid)
    parts = A.as_written(us)
    if not us.parts or part == us.id or part not in {p.id for p in parts}:
        raise EditError(f"{part} has not joined {us.name}")
    units = []
    for u in spec.units:
        units += [replace(p, leads=None) if p.id == part else p for p in parts] if u is us else [u]
    return checked(replace(spec, units=tuple(units), script=()))
