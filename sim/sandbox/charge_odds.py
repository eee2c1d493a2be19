"""The chance that a charge succeeds, shown before it is declared (issue 28 item 11): with a
unit selected in its Charge phase, every enemy unit within 12" (11.02) is named on the table
with the chance that the 2D6 charge roll reaches it (11.04: a charge target is within the
charge's maximum distance, edge to edge before moving, Part A ruling 17), and the hover tip says
the distance and the roll needed.

Exact: the 36 outcomes of 2D6, each judged by sim.rules.charge (``reach``, ``in_reach``): no
re-roll counted (a Command Re-roll would raise it), the unit's models on the ground (21.03's
taking to the skies costs 2", not counted). The distances are the charge solver's
(``charge_target_distances`` on sim.plan.moves' bodies), worked out again only when the scene
changes or another unit is selected."""

from __future__ import annotations

from functools import lru_cache

from sim.rules import charge as CHG


@lru_cache(maxsize=4096)
def charge_chance(gap: float) -> float:
    """P(a 2D6 charge roll reaches an enemy unit ``gap`` inches away) (11.04)."""
    hits = sum(1 for a in range(1, 7) for b in range(1, 7) if CHG.in_reach(gap, CHG.reach(a + b)))
    return hits / 36


def roll_needed(gap: float) -> int | None:
    """The smallest 2D6 total that reaches ``gap`` (None: none does)."""
    return next((r for r in range(2, 13) if CHG.in_reach(gap, CHG.reach(r))), None)


class ChargeOdds:
    """Owned by the Sandbox (``sb.charge_odds``): ``of(sb)`` the enemy units within 12" of the
    selected unit, when it may declare a charge now, as unit id -> (gap, chance)."""

    def __init__(self):
        self.key = None
        self.value: dict = {}

    def of(self, sb) -> dict:
        b = sb.battle
        ts = b.turn_state
        uid = sb.selected_unit
        if (ts is None or uid is None or sb.mode != "battle" or b.busy or sb.resolving
                or str(getattr(ts.phase, "value", ts.phase)) != "charge"):
            return {}
        uv = sb.scene.units.get(uid)
        if uv is None or uv.destroyed or uv.owner != ts.active:
            return {}
        key = (id(b), sb.scene.version, uid, b.commands_done)
        if key != self.key:
            self.key = key
            self.value = self._work_out(b, uid)
        return self.value

    @staticmethod
    def _work_out(b, uid: str) -> dict:
        from sim.plan import moves as MV
        from sim.rules.movement.solvers import charge as CH
        from sim.world import queries as W
        b._enter()
        if W.unit_state(b.units[uid]).charge_roll is not None:
            return {}  # (declared already: the roll is known)
        try:
            dist = CH.charge_target_distances(uid, MV.bodies())
        except ValueError:  # (no models on the battlefield)
            return {}
        return {u: (d, charge_chance(d)) for u, d in sorted(dist.items())
                if CHG.in_reach(d, CHG.CHARGE_RANGE)}


def tip(sb, uid: str) -> list[str]:
    """The hover tip's line for an enemy unit in charge range of the selected unit."""
    got = sb.charge_odds.of(sb).get(uid)
    if got is None:
        return []
    gap, p = got
    need = roll_needed(gap)
    name = sb.scene.units[uid].name
    return [f"charge {name}: {gap:.1f}\" away, needs {need}+ on 2D6: {100 * p:.0f}% (no re-roll)"]
