"""10.02 step 1 / 12.04 Selecting a unit to shoot or to fight: its activation starts, and the
systems resolve it tick by tick (shooting type, weapons and targets, attacks, hazard rolls,
casualties). For the Shoot and Fight commands (sim.commands) and for a unit a stratagem makes
shoot out of phase (15.08)."""

from __future__ import annotations

import esper

from sim.components import Activation, Stage
from sim.rules.attack import AttackKind
from sim.world import queries as W


def select_to_shoot(battle, cmd, then=None) -> None:
    """10.02 step 1: the unit is selected to shoot; its activation starts at the shooting type.
    ``then``: what follows once its attacks are resolved (Activation.then)."""
    _begin(battle, cmd, AttackKind.SHOOTING, Stage.TYPE, then).selected_to_shoot = True


def start_fight(battle, cmd, then=None) -> None:
    """12.04 The unit is selected to fight: its activation begins (weapons and targets next).
    ``then``: what follows once its attacks are resolved (Activation.then)."""
    _begin(battle, cmd, AttackKind.FIGHTING, Stage.WEAPONS, then).selected_to_fight = True


def _begin(battle, cmd, kind: AttackKind, stage: Stage, then):
    """The activation of the unit ``cmd`` names begins at ``stage``; returns its UnitState."""
    ent = battle.units[cmd.unit]
    battle.changes.touched(ent)
    battle.activation = Activation(kind, cmd, stage, then=then)
    esper.add_component(ent, battle.activation)
    battle.activation_unit = ent
    return W.unit_state(ent)
