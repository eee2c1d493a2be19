"""What the whole-battle commands' checks share (07-12, 20): whose unit a command names, a
living unit by its id, one unit at a time (09.02, 11.02), and the check of an ingress move
(20.03/20.04, 03.02), which a command and a stratagem (15.07 Rapid Ingress) both make. Each
refusal names the rule; the geometry of a move is sim.plan.moves."""

from __future__ import annotations

import esper

from sim.components import Unit
from sim.errors import PlanError
from sim.plan import moves as MV
from sim.plan.common import find_unit, not_there
from sim.rules.abilities import Hook
from sim.world import queries as W

def owner_of(battle, cmd) -> int | None:
    uid = getattr(cmd, "unit", None)
    ent = battle.units.get(uid) if uid is not None else None
    return None if ent is None else esper.component_for_entity(ent, Unit).owner


def live_unit(battle, uid: str) -> int:
    ent = find_unit(battle, uid)
    if W.unit_destroyed(ent):
        raise PlanError(f"unit {not_there(ent, uid)}")
    return ent


def one_at_a_time(battle, ent: int, section: str) -> None:
    """09.02 / 11.02 Units are selected and resolved one at a time: while another unit's move
    or charge is open (selected, or declared, and not yet made), no other unit may start."""
    ts = battle.turn_state
    if ts is None or ts.in_progress is None or ts.in_progress == ent:
        return
    other = esper.component_for_entity(ts.in_progress, Unit).id
    st = W.unit_state(ts.in_progress)
    what = f"charge (roll {st.charge_roll}\")" if st.charge_roll is not None else f"{st.move_selected} move"
    if st.charge_roll is None and st.move_selected is None and st.disembarked is not None:
        what = f"normal or advance move after its {st.disembarked} (18.04)"
    raise PlanError(f"{other}'s {what} must be made first: units are resolved one at a time ({section})")


def ingress_limits(battle, ent: int, fps, deep_strike: bool) -> list[str]:
    """20.04 (24.09 with ``deep_strike``) where an ingress move may set the unit's models up
    ((model id, footprint) each): near an edge, away from the enemy, out of the enemy's zone
    (the zones as the roles have them, 26 step 5) before round 3. 18.04.01 holds the
    passengers of a transport that ingressed to the same limits (the transport's Deep Strike)."""
    from sim.rules.reserves import ingress_problems
    ts = battle.turn_state
    owner = esper.component_for_entity(ent, Unit).owner
    enemies = [(W.model_id(m), W.footprint(m)) for u in W.enemy_units(ent) for m in W.unit_models(u)]
    zones = ts.zones() if ts is not None else ()
    zone = zones[1 - owner] if zones else None
    near = ingress_distance(battle, ent, fps, deep_strike)
    return ingress_problems([f for _m, f in fps], battle.scenario.board, [f for _m, f in enemies],
                            ts.round if ts is not None else 2, zone, names=[m for m, _f in fps],
                            enemy_names=[m for m, _f in enemies], deep_strike=deep_strike, enemy_distance=near)


def ingress_distance(battle, ent: int, fps, deep_strike: bool) -> float:
    """How far from every enemy model a Deep Strike set-up at ``fps`` ((model id,
    footprint) each) must be: a rule's shorter distance acting there (sim.world.rule_reads
    .arrival_distance), else 8" (24.09)."""
    from sim.rules.reserves import ENEMY_DISTANCE
    if not deep_strike:
        return ENEMY_DISTANCE
    from sim.world.rule_reads import arrival_distance
    return arrival_distance(battle, ent, [f for _m, f in fps])[0]


def check_ingress(battle, cmd) -> None:
    """20.03/20.04 An ingress move: a unit in strategic reserves, from battle round 2, set up
    with every model wholly within 6" of a battlefield edge (24.09 Deep Strike: anywhere), more
    than 8" from every enemy model, outside the enemy's deployment zone before round 3 (Deep
    Strike: anywhere), and as any set-up (03.02): on no other base, in no light or dense
    feature, in coherency."""
    from sim.rules.deployment import setup_problems
    ent = find_unit(battle, cmd.unit)
    if not W.in_reserves(ent):
        raise PlanError(f"{cmd.unit} is not in strategic reserves (20.04)")
    one_at_a_time(battle, ent, "09.02")
    models = esper.component_for_entity(ent, Unit).models
    ids = [W.model_id(m) for m in models]
    given = [t[0] for t in cmd.to]
    if sorted(given) != sorted(ids):
        raise PlanError(f"an ingress move sets up every model of {cmd.unit} once ({', '.join(ids)}) (20.04)")
    fps = MV.set_up_footprints(battle, ent, cmd.to, cmd.face)
    problems = ingress_limits(battle, ent, fps, W.every_model_has(ent, Hook.ARRIVES_ANYWHERE))
    others = W.other_models(ent)
    problems += setup_problems(fps, others, battle.scenario.terrain)
    if problems:
        raise PlanError(problems[0] + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
