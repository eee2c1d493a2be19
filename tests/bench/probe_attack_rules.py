"""Probe: what the rules' own functions and today's log cost an activation of bench_attacks.py,
with nothing of the world between them (issue 29's attack-path mark: 1/10 of randint(1, 6)'s
rate, ~38 us an activation of 20 attack dice on this host).

The next layer up from probe_attack_floor.py (the log alone, from plain values): each activation
calls the functions of sim.rules the engine's activation calls, in its order, with the answers
the world gives them prepared before the clock starts (the target's models and groups at full
wounds, its Sv and invulnerable saves, its toughness; the shooting models' ids; the facts 04.02
asks for), as a design would that kept them ready: the 04.02 answer for the weapon at the target
(shooting.ranged_target_answer), the attack key (pools.attack_key), the pools (pools.gather), the
pool's state, the hit, wound and save rolls (sequence.roll_hits, roll_wounds, roll_saves: each
step's dice in one roll of the battle's Dice, seeded as the engine's battle is, logged by a
listener as Battle logs them), the allocation order (the roster's at full wounds) and the damage
(sequence.inflict_damage), and the command's serialization (sim.commands.to_dict). Its events are
checked equal to the engine's (JSON with sorted keys, every event of every activation of every
timed battle). Left out, as the floor leaves them out: finding the units and models, sight,
range and cover, the shooting type's eligibility (kept per unit by the engine), the world's
state written back (the wounds, the removals, the indexes kept current, the unit's state), the
systems' ticks and the end of the turn's resets.

Prints the median microseconds an activation of this layer beside the floor's and the engine's
(the same battles, timed the same way: bench_attacks.run_once), and the same-run baseline
(tests/bench/_baseline.py).
Run: .venv/bin/python tests/bench/probe_attack_rules.py [--battles N]
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import bench_attacks as BA  # noqa: E402
import probe_attack_floor as FLOOR  # noqa: E402
from sim import events as ev  # noqa: E402
from sim.battle import Battle  # noqa: E402
from sim.commands import EndTurn, to_dict  # noqa: E402
from sim.players.runner import frozen_heap  # noqa: E402
from sim.rules import pools as PL  # noqa: E402
from sim.rules import shooting as SH  # noqa: E402
from sim.rules.dice import Dice  # noqa: E402
from sim.rules.sequence import (DamageState, PoolState, inflict_damage, roll_hits, roll_saves,  # noqa: E402
                                roll_wounds, strength_text)
from sim.world import queries as W  # noqa: E402

UNIT = FLOOR.UNIT


class Ready:
    """What the world would have ready for the rules, per target unit (made before the clock)."""

    __slots__ = ("weapon", "target", "roster", "T", "end")

    def __init__(self, battle: Battle, target_id: str):
        t = battle.units[target_id]
        self.weapon = W.weapons_of(battle.models[FLOOR.SHOOTERS[0]])[0]
        self.target, self.roster, self.T = t, W.roster(t), W.toughness(t)
        self.end = to_dict(EndTurn())


def rules_activation(cmd, ready: Ready, tid: str, dice: Dice, turn: int, log: list) -> None:
    """The activation's rules and events (the module's docstring says what is left out)."""
    rec = log.append
    rec({"type": ev.COMMAND, "command": to_dict(cmd)})
    rec({"type": ev.SHOOTING_TYPE, "unit": UNIT, "shooting_type": SH.NORMAL, "requested": None,
         "eligible": {"normal": True, "assault": False, "close-quarters": False, "indirect": False},
         "reasons": dict(FLOOR.REASONS)})
    w, r = ready.weapon, ready.roster
    # 04.02 the weapon at the target (one answer for the ten alike models, as the engine's WeaponAt)
    problem, hit_mods = SH.ranged_target_answer(SH.RangedTargetFacts(
        SH.NORMAL, False, False, False, False, True, True, False, False, False, False))
    if problem is not None:  # (as the engine's plan refuses it)
        raise SystemExit(problem)
    key = PL.attack_key(w, (), False, (), hit_mods, (), (), 0, False)
    sels = cmd.selections
    rec({"type": ev.WEAPONS_SELECTED, "unit": UNIT, "kind": "shoot",
         "selections": [[s.model, s.weapon, s.target, None] for s in sels]})
    spec = PL.gather([(ready.target, key)] * len(sels))[0]
    k = spec.key
    p = PoolState(w.A.k * len(spec.members), k.skill, k.S, k.AP, k.D, ready.T, k.hit_mod, k.wound_mod,
                  hit_fail_below=k.fail_below, snap=k.snap)
    rec({"type": ev.POOL, "pool": 0, "target": tid, "dice": p.dice, "melee": False, "weapons": [w.name],
         "attackers": [s.model for s in sels], "skill": k.skill, "S": k.S, "AP": k.AP, "D": str(k.D.k),
         "T": p.T, "hit_mod": k.hit_mod, "wound_mod": k.wound_mod, "abilities": [], "psychic": False,
         "ignored": list(k.psychic_ignored), "modifiers": []})
    rec({"type": ev.HITS, "pool": 0, "skill": p.skill, "modifier": p.hit_mod, **roll_hits(p, dice)})
    removed = []
    if p.hits:
        rec({"type": ev.WOUNDS, "pool": 0, "S": strength_text(p.S), "T": p.T, "critical_on": p.critical_wound_on,
             **roll_wounds(p, dice)})
        if p.wounds:
            groups, order = r.full_groups, r.full_order
            rec({"type": ev.ALLOCATION, "pool": 0, "order": list(order),
                 "groups": {g.key: list(g.members) for g in groups}, "precision": None})
            saves = roll_saves(p, dice)
            rec({"type": ev.SAVES, "pool": 0, "rolls": saves, "AP": p.AP})
            st = DamageState(r.full, dict(zip(r.ids, r.full_wounds)), groups, order, None, fnp={}, W=r.W_of)
            steps = inflict_damage(p, saves, st, dice, r.Sv_of, r.InSv_of, None)
            rec({"type": ev.DAMAGE, "pool": 0, "steps": steps})
            for s in steps:
                if s.get("destroyed"):
                    removed.append(s["model"])
                    rec({"type": ev.DESTROYED, "model": s["model"], "by": UNIT})
    rec({"type": ev.ATTACKS_DONE, "unit": UNIT, "kind": "shoot", "removed": removed})
    rec({"type": ev.COMMAND, "command": ready.end})
    rec({"type": ev.TURN, "turn": turn})


def rules_battle(spec, cmds, ready: list[Ready], turns: list[int]) -> tuple[list[float], list[list[dict]]]:
    """Each activation's seconds, and its events, for one battle's commands."""
    times, logs = [], []
    clock = time.perf_counter
    log: list[dict] = []
    dice = Dice(spec.seed, lambda purpose, results: log.append(
        {"type": ev.DICE, "purpose": purpose, "results": list(results)}))
    with frozen_heap():
        for cmd, rd, turn in zip(cmds, ready, turns):
            log.clear()
            tid = cmd.selections[0].target
            t0 = clock()
            rules_activation(cmd, rd, tid, dice, turn, log)
            times.append(clock() - t0)
            logs.append(list(log))
    return times, logs


def main() -> None:
    args, before, spec = FLOOR.probe_start(__doc__)
    engine = FLOOR.engine_activations(spec)
    cmds = BA.commands()
    with Battle(spec, record_dice=True) as b:
        ready = [Ready(b, c.selections[0].target) for c in cmds]
    turns = [e[-1]["turn"] for e in engine]
    want = [json.dumps(e, sort_keys=True) for e in engine]  # (as the log writes them)
    acts = [FLOOR.inputs(e) for e in engine]
    rnd = random.Random(1).random
    rules_battle(spec, cmds, ready, turns)  # (warm-up)
    FLOOR.floor_battle(acts, rnd)
    rules_times, floor_times, engine_times = [], [], []
    for _ in range(args.battles):
        times, logs = rules_battle(spec, cmds, ready, turns)
        if [json.dumps(e, sort_keys=True) for e in logs] != want:
            raise SystemExit("the rules layer's events differ from the engine's: the probe needs mending")
        rules_times += times
        floor_times += FLOOR.floor_battle(acts, rnd)[0]
        engine_times += BA.run_once(spec)[0]
    r, f, e = (statistics.median(t) * 1e6 for t in (rules_times, floor_times, engine_times))
    print(f"an activation of bench_attacks (20 attack dice; its events equal to the engine's, checked), the "
          f"median over {args.battles} battles x {len(cmds)} activations, wall time:")
    print(f"  the log alone (probe_attack_floor: from plain values, its dice drawn): {f:.1f} us")
    print(f"  the rules' own functions and the log, the world's answers ready: {r:.1f} us")
    print(f"  the engine: {e:.1f} us ({e / r:.1f}x the rules and the log; {e - r:.1f} us the world's queries and "
          f"changes, sight, range and cover, the systems and the end of the turn)")
    FLOOR.probe_end(before, [("the log", f), ("the rules and the log", r), ("the engine", e)])


if __name__ == "__main__":
    main()
