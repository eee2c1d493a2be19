"""Small battles with a mission, built in code, for the whole-battle tests (07-14, 26)."""

from __future__ import annotations

from scen import model, unit, weapon

__all__ = ["model", "unit", "weapon", "WEAPONS", "mission_scenario", "phase"]  # (model, unit, weapon re-exported)

from sim.scenario.load import parse_scenario

WEAPONS = {"gun": weapon(24, 1, 3, 4, 0, 1), "blade": weapon("melee", 2, 3, 4, 0, 1)}


def mission_scenario(army0, army1, *, first="red", rounds=5, weapons=None, objectives=None, seed=1,
                     terrain=None, script=None):
    data = {"battle": {"name": "test", "seed": seed, "board": [60, 44]},
            "weapons": weapons or WEAPONS,
            "armies": [{"name": "A", "units": army0}, {"name": "B", "units": army1}],
            "mission": {"first": first, "rounds": rounds, "deployed": False}}
    if objectives is not None:
        data["mission"]["objectives"] = objectives
    if terrain is not None:
        data["terrain"] = terrain
    if script is not None:
        data["script"] = script
    return parse_scenario(data, "test.toml")


def phase(b) -> tuple:
    ts = b.turn_state
    return (ts.round, ts.active, str(ts.phase), None if ts.step is None else str(ts.step), ts.chooser)
