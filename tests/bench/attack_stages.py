"""Where an activation of bench_attacks goes: the time of each stage of the attack path
(validating the Shoot, the systems that resolve it, the end of the turn), measured inside the
running battle (in situ: a fresh target each time, as the benchmark plays it).

Each stage is the function that does it, wrapped for the run with a timer (time.perf_counter,
read before and after each call: a wrapper costs a few tenths of a microsecond a call, and a
stage holding others, indented under it, counts their wrappers too). Each figure is the median
over the activations (a shared machine's pauses land in a few of them: the median leaves them
out), so the stages need not add up to the median activation exactly. The wrappers are put in
place for the run only and taken away after (nothing of the engine is changed).

Run: .venv/bin/python tests/bench/bench_attacks.py --stages [--shape MxA]  (or this file directly)
"""

from __future__ import annotations

import importlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

# (label, module, attribute path, the label of the stage it is inside or None); in the order
# they happen in an activation
STAGES = (
    ("submit the Shoot (Battle.submit)", "sim.battle", "Battle.submit", None),
    ("  the plan (plan_shoot)", "sim.plan.validated", "plan_shoot", "submit the Shoot (Battle.submit)"),
    ("    the weapon at the target (WeaponAt: view and cover included)", "sim.plan.shoot_targets",
     "WeaponAt.__init__", "  the plan (plan_shoot)"),
    ("      the target as the shooters see it (TargetView: 06.01, 01.04)", "sim.plan.shoot_targets",
     "TargetView.__init__", "    the weapon at the target (WeaponAt: view and cover included)"),
    ("      benefit of cover (13.08)", "sim.systems.visibility", "BattleVisibility.benefit_of_cover_rows",
     "    the weapon at the target (WeaponAt: view and cover included)"),
    ("    the declarations (_declare_run)", "sim.plan.shoot", "_declare_run", "  the plan (plan_shoot)"),
    ("resolve: CommandSystem (the activation begins)", "sim.systems.commands", "CommandSystem.process", None),
    ("resolve: ShootingTypeSystem", "sim.systems.shooting_type", "ShootingTypeSystem.process", None),
    ("resolve: WeaponSelectionSystem", "sim.systems.weapon_selection", "WeaponSelectionSystem.process", None),
    ("resolve: gather (04.03, the pool's record)", "sim.systems.attack_resolution",
     "AttackResolutionSystem.process", None),
    ("resolve: hit rolls", "sim.systems.attack_resolution", "_STEPS.hit", None),
    ("resolve: wound rolls", "sim.systems.attack_resolution", "_STEPS.wound", None),
    ("resolve: allocation order", "sim.systems.attack_resolution", "_STEPS.allocation", None),
    ("resolve: save rolls", "sim.systems.attack_resolution", "_STEPS.save", None),
    ("resolve: inflict damage (05.04)", "sim.systems.attack_resolution", "_STEPS.damage", None),
    ("  the damage steps (inflict_damage)", "sim.systems.attack_resolution", "inflict_damage",
     "resolve: inflict damage (05.04)"),
    ("  the models destroyed (mark_destroyed)", "sim.world.mutations", "mark_destroyed",
     "resolve: inflict damage (05.04)"),
    ("resolve: CasualtySystem (removal, the activation ends)", "sim.systems.casualties", "CasualtySystem.process",
     None),
    ("resolve: the other systems (visibility, precision, hazard)", None, None, None),
)


def _wrap(fn, acc: list, clock):
    def timed(*args, **kwargs):
        t0 = clock()
        try:
            return fn(*args, **kwargs)
        finally:
            acc[0] += clock() - t0
            acc[1] += 1
    return timed


def install(clock=time.perf_counter) -> tuple[dict, list]:
    """Wrap each stage's function; returns ({label: [seconds, calls]}, the undo list)."""
    from sim.systems.attack_resolution import AttackResolutionSystem
    from sim.systems import (hazard_check, precision_allocation, visibility)
    acc: dict[str, list] = {}
    undo: list = []
    for label, mod, path, _inside in STAGES:
        acc[label] = [0.0, 0]
        if mod is None:
            continue
        m = importlib.import_module(mod)
        owner_name, _, name = path.rpartition(".")
        if owner_name == "_STEPS":
            for table in (AttackResolutionSystem._STEPS, AttackResolutionSystem._MISSION_STEPS):
                key = next(k for k in table if str(k) == name)
                undo.append((table, key, table[key], True))
                table[key] = _wrap(table[key], acc[label], clock)
            continue
        owner = getattr(m, owner_name) if owner_name else m
        fn = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)
        undo.append((owner, name, fn, False))
        setattr(owner, name, _wrap(fn, acc[label], clock))
    other = acc[STAGES[-1][0]]
    for cls in (visibility.VisibilitySystem, precision_allocation.PrecisionAllocationSystem,
                hazard_check.HazardCheckSystem):
        undo.append((cls, "process", cls.__dict__["process"], False))
        cls.process = _wrap(cls.__dict__["process"], other, clock)
    return acc, undo


def uninstall(undo: list) -> None:
    for owner, name, fn, is_table in reversed(undo):
        if is_table:
            owner[name] = fn
        else:
            setattr(owner, name, fn)


def measure(battles: int = 7, models: int = 10, attacks: int = 2) -> list[str]:
    """The table's lines: each stage's microseconds an activation (the median over the battles'
    activations after the first two of each), and the whole activation's; of ``models`` shooting
    models of A``attacks`` each (bench_attacks.scenario: 10 of A2 unless --shape says)."""
    import bench_attacks as ba  # (beside this script)
    from sim.battle import Battle
    from sim.commands import EndTurn
    from sim.players.runner import frozen_heap
    from sim.scenario.load import parse_scenario

    clock = time.perf_counter
    spec = parse_scenario(ba.scenario(models, attacks), "bench")
    acc, undo = install(clock)
    per: dict[str, list[float]] = {label: [] for label in acc}  # each activation's seconds
    whole, ends = [], []
    try:
        for _ in range(battles):
            cmds = ba.commands(models)
            with Battle(spec, record_dice=True) as b, frozen_heap():
                for t, cmd in enumerate(cmds):
                    before = [a[0] for a in acc.values()]
                    t0 = clock()
                    b.run_command(cmd)
                    t1 = clock()
                    after = [a[0] for a in acc.values()]
                    b.run_command(EndTurn())
                    t2 = clock()
                    # the stages count the Shoot's activation only (the EndTurn's systems run
                    # too, idle but for CommandSystem: counted as the end of the turn); the
                    # first two activations of a battle (which set up what the shooters keep)
                    # not at all
                    if t >= 2:
                        for label, x, y in zip(acc, before, after):
                            per[label].append(y - x)
                        whole.append(t2 - t0)
                        ends.append(t2 - t1)
    finally:
        uninstall(undo)
    med = statistics.median(whole)
    lines = [f"where an activation of {models} shooting model(s) of A{attacks} goes (wall time, each figure the "
             f"median of {len(whole)} activations; the median activation, timers' own cost included: "
             f"{med * 1e6:,.0f} us):"]
    for label, _m, _p, _inside in STAGES:
        us = statistics.median(per[label]) * 1e6
        lines.append(f"  {label:72s} {us:6.1f} us  {100 * us / 1e6 / med:4.1f}%")
    end = statistics.median(ends) * 1e6
    lines.append(f"  {'end the turn (EndTurn, submitted and resolved)':72s} {end:6.1f} us  {100 * end / 1e6 / med:4.1f}%")
    return lines


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    print("\n".join(measure()))
