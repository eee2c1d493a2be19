"""Probe (a script, not a test; it times nothing): how much do common random numbers narrow the
search's comparisons?

The search player compares each option with the tactician's first on the same dice futures
(sim.players.search): the paired differences' spread decides how many futures it takes to tell
two options apart. This probe plays search v tactician battles on the default table (the
search as shipped choosing), and at each of the search's decisions plays the tactician's first
and every other option it weighs on ``--futures`` futures twice: on forks whose dice go on as a
stream from the future's seed (Battle.fork(seed)), and on forks with keyed dice, common random
numbers (Battle.fork(seed, keyed=True): each roll's dice from the seed, the unit attacking, the
roll's purpose and its count). It prints, per phase, the paired differences' spread (their
standard deviation over the futures, in VP) with each kind of dice: mean, median, and how many
pairs never differ.

What it showed (4 December 2026, seeds 5 and 6, 8 futures; 276 pairs of options at the 193
decisions of two battles): median spread with a stream / with keyed dice, Movement 1.54 / 0.25
VP (169 pairs), Shooting 1.94 / 0.00 (67; half never differ: the same unit's same dice at
either target, or the same shots in another order), Charge 1.50 / 0.47 (21), Fight 0.56 / 0.25
(19); the means 1.88 / 0.89, 2.47 / 0.50, 1.41 / 1.15, 0.72 / 0.32.

Run: .venv/bin/python tests/bench/probe_search_dice.py [--seeds 5 6] [--futures 8]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sim.battle import Battle  # noqa: E402
from sim.players import play_battle  # noqa: E402
from sim.players import search as S  # noqa: E402
from sim.players.runner import frozen_heap  # noqa: E402
from sim.players.tactician import TacticianPlayer  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402

KINDS = (("stream", False), ("keyed", True))


def probe(seed: int, futures: int, spreads: dict) -> None:
    """Play the battle of ``seed`` (the search red), adding each decision's pairs' spreads to
    ``spreads``: (phase, kind) -> [standard deviation of the paired differences, ...]."""
    spec = load_scenario(str(ROOT / "scenarios/battle_default.toml"))
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("search", "tactician")))
    keyed = {"now": True}

    def fork(battle, sd):
        return battle.fork(sd, keyed=keyed["now"])

    shipped, shipped_fork = S.SearchPlayer.search, S.fork

    def search(self, battle, options, saved, phase):
        rng = random.Random(f"probe-search-dice/{seed}/{len(self.searches)}")
        seeds = [int(rng.random() * 2**53) for _ in range(futures)]
        for kind, on in KINDS:
            keyed["now"] = on
            first = [self.rollout(battle, options[0][0], sd, saved)[0] for sd in seeds]
            for cmd, _label, _source in options[1:]:
                d = [self.rollout(battle, cmd, sd, saved)[0] - a for sd, a in zip(seeds, first)]
                spreads.setdefault((phase.name, kind), []).append(statistics.stdev(d))
        keyed["now"] = True
        battle._enter()
        return shipped(self, battle, options, saved, phase)

    S.fork, S.SearchPlayer.search = fork, search
    try:
        with Battle(spec, seed=seed) as b, frozen_heap():
            play_battle(b, spec, players=[S.SearchPlayer(0, b, spec), TacticianPlayer(1, b, spec)])
    finally:
        S.fork, S.SearchPlayer.search = shipped_fork, shipped


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, nargs="+", default=[5, 6])
    ap.add_argument("--futures", type=int, default=8)
    args = ap.parse_args()
    spreads: dict = {}
    for seed in args.seeds:
        probe(seed, args.futures, spreads)
    print(f"paired differences' spread (VP), seeds {args.seeds}, {args.futures} futures:")
    for phase in ("MOVEMENT", "SHOOTING", "CHARGE", "FIGHT"):
        cells = []
        for kind, _on in KINDS:
            v = spreads.get((phase, kind), [])
            if v:
                cells.append(f"{kind} mean {statistics.mean(v):.2f} median {statistics.median(v):.2f} "
                             f"never differ {sum(1 for x in v if x < 1e-9)}")
        n = len(spreads.get((phase, "keyed"), []))
        print(f"  {phase.lower():9} {n:4} pairs: " + "; ".join(cells))


if __name__ == "__main__":
    main()
