"""Small scenarios built in code for system tests (sim.scenario.load.parse_scenario)."""

from __future__ import annotations

import esper

from sim.battle import Battle
from sim.components import Wounds
from sim.scenario.load import parse_scenario


def weapon(range_, A, skill, S, AP, D, abilities=""):
    w = {"range": range_, "A": A, "S": S, "AP": AP, "D": D}
    w["WS" if range_ == "melee" else "BS"] = skill
    if abilities:
        w["abilities"] = abilities
    return w


def model(at, weapons=(), *, name=None, T=4, Sv=3, W=1, M=6, InSv=None, keywords=(), role=None,
          ids=None, base_mm=32, Ld=6, OC=1):
    """``at`` is one (x, y) or a list of them (count = len)."""
    pts = [list(at)] if isinstance(at[0], (int, float)) else [list(p) for p in at]
    m = {"count": len(pts), "at": pts, "M": M, "T": T, "Sv": Sv, "W": W, "Ld": Ld, "OC": OC,
         "base_mm": base_mm, "weapons": list(weapons)}
    if name:
        m["name"] = name
    if InSv is not None:
        m["InSv"] = InSv
    if keywords:
        m["keywords"] = list(keywords)
    if role:
        m["role"] = role
    if ids:
        m["ids"] = list(ids)
    return m


def unit(id, *models, keywords=("INFANTRY",), **kw):
    u = {"id": id, "name": kw.pop("name", id), "keywords": list(keywords), "models": list(models)}
    u.update(kw)
    return u


def scenario(weapons: dict, army0: list, army1: list, seed: int = 1):
    data = {"battle": {"name": "test", "seed": seed, "board": [60, 44]},
            "weapons": weapons,
            "armies": [{"name": "A", "units": army0}, {"name": "B", "units": army1}]}
    return parse_scenario(data, "test.toml")


def row(x, y, n, dx=1.5):
    """n positions in a row, 32 mm bases 1.5" apart (not overlapping, 0.24" gaps)."""
    return [(x + i * dx, y) for i in range(n)]


def wounds(battle: Battle, mid: str) -> int:
    battle._enter()
    return esper.component_for_entity(battle.models[mid], Wounds).remaining


def of_type(battle: Battle, type_: str) -> list[dict]:
    return [e for e in battle.events if e["type"] == type_]


def dice_purposes(battle: Battle) -> list[tuple[str, list]]:
    return [(e["purpose"], e["results"]) for e in battle.events if e["type"] == "dice"]


def kill(battle: Battle, mid: str) -> None:
    """Destroy a model outside an attack (as a rule would): wounds to 0 and marked destroyed."""
    from sim.world import mutations
    battle._enter()
    ent = battle.models[mid]
    esper.component_for_entity(ent, Wounds).remaining = 0
    mutations.mark_destroyed(ent, "test")
