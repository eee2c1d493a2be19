"""esper processors, one concern per file, registered in one declared order.

Each tick runs them all once in this order; each checks cheaply whether it has work.
"""

from __future__ import annotations

import esper


def register_systems(battle) -> list[esper.Processor]:
    """Add the systems to the current esper world (the battle's), in the declared order, and
    return them in that order."""
    from sim.systems.attack_resolution import AttackResolutionSystem
    from sim.systems.casualties import CasualtySystem
    from sim.systems.commands import CommandSystem
    from sim.systems.hazard_check import HazardCheckSystem
    from sim.systems.precision_allocation import PrecisionAllocationSystem
    from sim.systems.shooting_type import ShootingTypeSystem
    from sim.systems.visibility import VisibilitySystem
    from sim.systems.weapon_selection import WeaponSelectionSystem

    order = [
        VisibilitySystem(battle),  # first: everything below reads an up-to-date matrix
        CommandSystem(),
        ShootingTypeSystem(),
        WeaponSelectionSystem(),
        PrecisionAllocationSystem(),  # before attack resolution: start of the Allocation Order step
        AttackResolutionSystem(battle.turn_state is not None),  # (a mission: Command Re-roll, 15.02)
        HazardCheckSystem(),
        CasualtySystem(),
    ]
    # esper sorts by priority (higher first); give a strictly decreasing priority to keep
    # the declared order.
    for i, proc in enumerate(order):
        esper.add_processor(proc, priority=len(order) - i)
    return order

