"""The units' outlines on the table (sim.sandbox.draw_table.UnitHulls): worked out again only for
the units whose living models' bases changed since the last scene read, and always equal to the
outline worked out afresh."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.rules.geometry import Footprint
from sim.sandbox import draw_table as DT


@dataclass
class _Model:
    fp: Footprint
    alive: bool = True


@dataclass
class _Unit:
    models: list = field(default_factory=list)
    destroyed: bool = False


class _Scene:
    """What UnitHulls reads of sim.sandbox.scene.Scene: its version, units and living models."""

    def __init__(self, units: dict[str, list[Footprint]]):
        self.version = 0
        self.units = {u: _Unit([_Model(fp) for fp in fps]) for u, fps in units.items()}

    def living(self, uid):
        return [m for m in self.units[uid].models if m.alive]


def _round(x, y):
    return Footprint("round", x, y, 1.26, 1.26)


def _fresh(scene) -> dict:
    return {u: DT.unit_hull([m.fp for m in scene.living(u)]) for u, uv in scene.units.items() if not uv.destroyed}


def test_unit_hulls_work_out_again_only_the_units_whose_bases_changed(monkeypatch):
    scene = _Scene({f"u{k}": [_round(5 * k + i, 3 + i % 2) for i in range(5)] for k in range(6)})
    hulls = DT.UnitHulls()
    worked = []
    real = DT.unit_hull
    monkeypatch.setattr(DT, "unit_hull", lambda fps, *a: worked.append(len(fps)) or real(fps, *a))
    first = hulls.get(scene)
    assert len(worked) == 6
    worked.clear()
    scene.version += 1  # (an event that moved nothing: a dice roll, a phase's end)
    assert hulls.get(scene).keys() == first.keys() and not worked
    scene.units["u2"].models[0].fp = _round(40, 20)  # (one model of one unit moved)
    scene.units["u4"].models[1].alive = False  # (one model of another destroyed)
    scene.units["u5"].destroyed = True
    scene.version += 1
    got = hulls.get(scene)
    assert sorted(worked) == [4, 5]  # (u4 with its 4 living models, u2 with its 5)
    want = _fresh(scene)
    assert got.keys() == want.keys() == {"u0", "u1", "u2", "u3", "u4"}
    for u in want:
        assert np.array_equal(got[u], want[u]), u
