"""Probe: what today's event log alone costs an activation of bench_attacks.py in Python, every
die and event kept as the engine keeps them (issue 29's attack-path mark: 1/10 of randint(1,
6)'s rate, ~54 us an activation of 20 attack dice on the reference machine).

It runs the benchmark's battles through the engine and keeps each activation's events (its
Shoot and the EndTurn after it, dice logged). Then it builds, from plain values, events equal
to the engine's (checked as the log writes them, JSON with sorted keys: every event of every
activation, in every timed battle): the command, the shooting type, the weapons selected, the
pool, the hit, wound and save rolls with their dice, the allocation order, the damage steps,
the models destroyed, the attacks resolved, the End Turn and the next turn. Each die costs one
draw of the dice stream (``int(random() * 6) + 1``, as sim.rules.dice derives one), its value
taken from the engine's log so the events match. The rules' answers are the plainest ones this
scenario needs, written inline (BS3+, S4 against T4, Sv3+ at AP-1, D1, W2, one allocation
group): no plan's checks, no sight or range read, no model's wounds or the battlefield's
indexes kept current. So the figure is a floor for a design that keeps this log (dicts made as
each step happens); a cheaper form of log would leave more. The dice values and the target's
models are read from the engine's log, so the check is of the events' form and of the steps'
logic, and only of the branches these battles reach (every activation here has hits, wounds
and a living target to its end).

Prints the floor's median microseconds an activation beside the engine's (the same battles,
timed the same way: bench_attacks.run_once) and the same-run baseline (tests/bench/_baseline.py).
Run: .venv/bin/python tests/bench/probe_attack_floor.py [--battles N]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import _baseline  # noqa: E402  (beside this script)
import bench_attacks as BA  # noqa: E402
from sim.battle import Battle  # noqa: E402
from sim.commands import EndTurn  # noqa: E402
from sim.players.runner import frozen_heap  # noqa: E402
from sim.scenario.load import parse_scenario  # noqa: E402

UNIT = "shooters"
SHOOTERS = [f"{UNIT}/{i + 1}" for i in range(10)]
REASONS = {"assault": "did not advance this turn (10.05)",
           "close-quarters": "not engaged (10.06 needs an engaged unit)",
           "indirect": "no [INDIRECT FIRE] weapon (10.07)"}


def engine_activations(spec) -> list[list[dict]]:
    """Each activation's events, as the engine logs them (one battle of bench_attacks)."""
    out = []
    with Battle(spec, record_dice=True) as b:
        for cmd in BA.commands():
            n = len(b.events)
            b.run_command(cmd)
            b.run_command(EndTurn())
            out.append(b.events[n:])
    return out


def inputs(events: list[dict]) -> tuple:
    """What the floor is given for an activation: the target's id, its models (each at its full
    2 wounds: a fresh target each activation), the dice the engine rolled (hit, wound and save
    rolls, in order) and the turn."""
    target = events[0]["command"]["selections"][0]["target"]
    groups = next(e for e in events if e["type"] == "allocation order")["groups"] if any(
        e["type"] == "allocation order" for e in events) else {}
    models = next(iter(groups.values()), [])
    dice = [x for e in events if e["type"] == "dice" for x in e["results"]]
    turn = events[-1]["turn"]
    return target, models, dice, turn


class _Stream:
    """The engine's dice in order, each drawn at the engine's cost (one random() a die)."""

    __slots__ = ("values", "k", "rnd")

    def __init__(self, values: list[int], rnd) -> None:
        self.values, self.k, self.rnd = values, 0, rnd

    def roll(self, n: int) -> list[int]:
        rnd = self.rnd
        for _ in range(n):
            int(rnd() * 6) + 1  # (the draw; its value is the engine's, so the events match)
        k = self.k
        self.k = k + n
        return self.values[k:k + n]


def floor_activation(target: str, models: list[str], dice: _Stream, turn: int, log: list) -> None:
    """The activation's events, from plain values (the module's docstring says what is left out)."""
    ev = log.append
    sels = [(m, "gun", target) for m in SHOOTERS]
    picks = [{"model": m, "weapon": w, "target": t} for m, w, t in sels]
    ev({"type": "command", "command": {"kind": "shoot", "unit": UNIT, "selections": picks}})
    ev({"type": "shooting type", "unit": UNIT, "shooting_type": "normal", "requested": None,
        "eligible": {"normal": True, "assault": False, "close-quarters": False, "indirect": False},
        "reasons": dict(REASONS)})
    ev({"type": "weapons selected", "unit": UNIT, "kind": "shoot",
        "selections": [[m, w, t, None] for m, w, t in sels]})
    ev({"type": "pool", "pool": 0, "target": target, "dice": 20, "melee": False, "weapons": ["gun"],
        "attackers": list(SHOOTERS), "skill": 3, "S": 4, "AP": -1, "D": "1", "T": 4, "hit_mod": 0,
        "wound_mod": 0, "abilities": [], "psychic": False, "ignored": [], "modifiers": []})
    hits = dice.roll(20)
    ev({"type": "dice", "purpose": "hit rolls", "results": hits})
    n = 0
    for r in hits:
        if r >= 3:
            n += 1
    ev({"type": "hit rolls", "pool": 0, "skill": 3, "modifier": 0, "rolls": list(hits), "hits": n,
        "criticals": hits.count(6), "sustained": 0, "lethal": 0})
    removed: list[str] = []
    if n:
        wounds = dice.roll(n)
        ev({"type": "dice", "purpose": "wound rolls", "results": wounds})
        n = 0
        for r in wounds:
            if r >= 4:
                n += 1
        ev({"type": "wound rolls", "pool": 0, "S": 4, "T": 4, "critical_on": 6, "rolls": list(wounds),
            "rerolled": [], "wounds": n, "criticals": wounds.count(6), "auto": 0, "devastating": 0})
    if n:
        first = models[0]
        ev({"type": "allocation order", "pool": 0, "order": [first], "groups": {first: list(models)},
            "precision": None})
        saves = dice.roll(n)
        ev({"type": "dice", "purpose": "save rolls", "results": saves})
        saves = sorted(saves)
        ev({"type": "save rolls", "pool": 0, "rolls": saves, "AP": -1})
        steps = []
        left, k = 2, 0
        for s in saves:
            if k == len(models):
                steps.append({"lost": "unit destroyed: remaining attacks are lost"})
                break
            m = models[k]
            if s >= 4:
                steps.append({"save": s, "model": m, "group": first, "saved": True, "invulnerable": False})
                continue
            left -= 1
            steps.append({"save": s, "model": m, "group": first, "saved": False, "damage": 1, "lost": 1,
                          "destroyed": left <= 0})
            if left <= 0:
                removed.append(m)
                k, left = k + 1, 2
        ev({"type": "damage", "pool": 0, "steps": steps})
        for m in removed:
            ev({"type": "model destroyed", "model": m, "by": UNIT})
    ev({"type": "attacks resolved", "unit": UNIT, "kind": "shoot", "removed": removed})
    ev({"type": "command", "command": {"kind": "end turn"}})
    ev({"type": "turn", "turn": turn})


def floor_battle(acts: list[tuple], rnd) -> tuple[list[float], list[list[dict]]]:
    """Each activation's seconds, and its events, for one battle's inputs."""
    times, logs = [], []
    clock = time.perf_counter
    with frozen_heap():
        for target, models, dice, turn in acts:
            log: list[dict] = []
            stream = _Stream(dice, rnd)
            t0 = clock()
            floor_activation(target, models, stream, turn, log)
            times.append(clock() - t0)
            logs.append(log)
    return times, logs


def probe_start(doc: str) -> tuple[argparse.Namespace, _baseline.Baseline, object]:
    """What every attack probe starts with: its arguments (``--battles N``), the baseline before
    (tests/bench/_baseline.py) and bench_attacks' scenario."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--battles", type=int, default=7)
    args = ap.parse_args()
    return args, _baseline.measure(), parse_scenario(BA.scenario(), "bench")


def probe_end(before: _baseline.Baseline, figures: list[tuple[str, float]]) -> None:
    """What every attack probe ends with: the baseline after it, and each figure (label,
    microseconds) read in microseconds per millisecond of the pure-Python loop."""
    after = _baseline.measure()
    loop_ms = _baseline.mean(before, after).python_s * 1e3
    print(_baseline.line(before, after, ["us per pure-Python-loop ms: " + ", ".join(
        f"{label} {us / loop_ms:.2f}" for label, us in figures)]))


def main() -> None:
    args, before, spec = probe_start(__doc__)
    engine = engine_activations(spec)
    acts = [inputs(e) for e in engine]
    rnd = random.Random(1).random
    floor_battle(acts, rnd)  # (warm-up)
    floor_times, engine_times = [], []
    want = [json.dumps(e, sort_keys=True) for e in engine]  # (as the log writes them)
    for _ in range(args.battles):
        times, logs = floor_battle(acts, rnd)
        if [json.dumps(e, sort_keys=True) for e in logs] != want:
            raise SystemExit("the floor's events differ from the engine's: the probe needs mending")
        floor_times += times
        engine_times += BA.run_once(spec)[0]
    f, e = statistics.median(floor_times) * 1e6, statistics.median(engine_times) * 1e6
    sizes = sorted(len(e) for e in engine)
    print(f"an activation of bench_attacks (20 attack dice; its {sizes[0]}-{sizes[-1]} events equal to the "
          f"engine's, checked), the median over {args.battles} battles x {len(acts)} activations:")
    print(f"  the floor (the log built from plain values, its dice drawn): {f:.1f} us")
    print(f"  the engine: {e:.1f} us ({e / f:.1f}x the floor)")
    probe_end(before, [("the floor", f), ("the engine", e)])


if __name__ == "__main__":
    main()
