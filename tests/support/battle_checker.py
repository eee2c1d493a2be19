"""A recorder that checks a whole battle's invariants after every command (no two bases overlap,
no model leaves the board, every unit that moved is coherent after its move, 03.03, wounds are
never negative, VP never exceed the caps, every model of a unit that fights attacks if it can,
12.04, the kept movement index is the table built afresh): used by the random-battle tests of
several folders."""

from __future__ import annotations

import esper
import numpy as np

from sim.components import Unit, Wounds
from sim.plan import moves as MV
from sim.plan.fight import fight_targets, selectable_melee
from sim.replay.log import Recorder
from sim.rules import geometry
from sim.rules.coherency import coherency_problems
from sim.rules.mission import CAPS, PRIMARY
from sim.rules.movement.index import Body, BodyIndex
from sim.world import queries as W

MOVES = ("moved", "charge", "piled in", "consolidated")


class Checker(Recorder):
    """A recorder that also checks the invariants after each command."""

    def __init__(self, battle, path):
        super().__init__(battle, path)
        self.battle = battle
        self.moved: list[str] = []
        self.checked = 0
        self._bounds: dict = {}  # footprint -> its outline's (min x, max x, min y, max y)
        battle.listeners.append(self._note)

    def _note(self, e):
        if e["type"] in MOVES and e.get("to"):
            self.moved.append(e["unit"])
        elif e["type"] == "weapons selected" and e["kind"] == "fight":
            self._fought(e)

    def _fought(self, e):
        """12.04 / 04.01 Every model of a unit that fights and can (engaged with an enemy unit,
        with a melee weapon to select) attacks: the players' fights pass the rules, and the rules
        accept no fight that leaves such a model out."""
        u = self.battle.units[e["unit"]]
        engaged = W.engaged_with(u)
        attacking = {mid for mid, _w, target, _n in e["selections"] if target is not None}
        for m in W.unit_models(u):
            mid = W.model_id(m)
            if fight_targets(m, engaged) and selectable_melee(m, mid, W.unit_state(u).used_one_shot):
                assert mid in attacking, (e, mid)

    def end_command(self, battle):
        super().end_command(battle)
        battle._enter()
        bw, bh = battle.scenario.board
        fps = []
        for u in W.all_units():
            for m in W.unit_models(u):
                fp = W.footprint(m)
                # (every part of the base on the board, 03.01; the outline's extent is a pure
                # function of the frozen footprint, so a model that did not move is not redrawn)
                box = self._bounds.get(fp)
                if box is None:
                    xs, ys = geometry.outline(fp).T
                    box = self._bounds[fp] = (xs.min(), xs.max(), ys.min(), ys.max())
                assert box[0] >= -1e-6 and box[1] <= bw + 1e-6, W.model_id(m)
                assert box[2] >= -1e-6 and box[3] <= bh + 1e-6, W.model_id(m)
                assert esper.component_for_entity(m, Wounds).remaining > 0
                fps.append((W.model_id(m), fp))
        # every pair whose bounding squares meet (the same float test as pair by pair, done for
        # all pairs at once) is asked geometry.overlaps
        xy = np.array([(fp.x, fp.y, fp.bounding_radius) for _, fp in fps], dtype=float).reshape(-1, 3)
        reach = xy[:, 2][:, None] + xy[:, 2][None, :]
        near = (np.abs(xy[:, 0][:, None] - xy[:, 0][None, :]) < reach) & \
               (np.abs(xy[:, 1][:, None] - xy[:, 1][None, :]) < reach)
        for i, j in zip(*np.nonzero(np.triu(near, 1))):
            (a, fa), (b, fb) = fps[i], fps[j]
            assert not geometry.overlaps(fa, fb), f"{a} overlaps {b}"
        for uid in self.moved:
            u = battle.units[uid]
            models = [(W.model_id(m), W.footprint(m)) for m in W.unit_models(u)]
            assert not coherency_problems(models), (uid, coherency_problems(models))
        self.moved.clear()
        alive = W.spatial().units_with_models(len(W.all_units()))
        for u in W.all_units():  # (enemy_units is kept per owner: the same as asking afresh)
            me = esper.component_for_entity(u, Unit).owner
            assert W.enemy_units(u) == [e for e in W.all_units()
                                        if alive[esper.component_for_entity(e, Unit).order]
                                        and esper.component_for_entity(e, Unit).owner != me]
        assert_same_bodies(MV.bodies(), BodyIndex([
            Body(W.model_id(m), esper.component_for_entity(u, Unit).id,
                 esper.component_for_entity(u, Unit).owner, W.footprint(m))
            for u in W.all_units() for m in W.unit_models(u)]))
        ts = battle.turn_state
        total, per_round = CAPS[PRIMARY]
        for p in (0, 1):
            assert 0 <= ts.vp[p] <= total
            for r in range(1, 6):
                assert ts.tallies[p].in_round(r, PRIMARY) <= per_round
        self.checked += 1


def assert_same_bodies(kept: BodyIndex, fresh: BodyIndex) -> None:
    """The table as the movement rules read it (kept on the spatial index and brought up to
    date after each move and removal, sim.plan.moves.bodies) is the table built afresh from the
    world."""
    assert kept.bodies == fresh.bodies and kept.ids == fresh.ids and kept.units == fresh.units
    assert kept.row == fresh.row and kept.fps == fresh.fps
    assert kept.unit_rows.keys() == fresh.unit_rows.keys()
    assert all(np.array_equal(kept.unit_rows[u], fresh.unit_rows[u]) for u in kept.unit_rows)
    for a in ("players", "centres", "round", "radius", "bound"):
        assert (getattr(kept, a) == getattr(fresh, a)).all(), a
    assert {u: r.tolist() for u, r in kept.unit_rows.items()} == \
        {u: r.tolist() for u, r in fresh.unit_rows.items()}
    for j in range(len(kept)):
        if not kept.round[j]:
            assert (kept.core(j) == fresh.core(j)).all()
