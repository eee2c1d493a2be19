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

What it showed (4 December 2026, night, seeds 5 and 6, 8 futures; 234 pairs of options): median
spread with a stream / with keyed dice, Movement 1.26 / 0.18 VP (160 pairs; 53 / 68 never
differ), Shooting 1.63 / 0.18 (62; 1 / 21 never differ: the same unit's same dice at either
target, or the same shots in another order), Charge 1.93 / 1.76 (6), Fight 0.32 / 0.00 (6); the
means 1.84 / 0.80, 2.26 / 0.55, 1.89 / 1.76, 0.50 / 0.07. (A first form of the probe, its
futures seeded otherwise and its battles played by the search before the keyed dice, gave on
276 pairs: Movement 1.54 / 0.25, Shooting 1.94 / 0.00, Charge 1.50 / 0.47 on 21 pairs, Fight
0.56 / 0.25.)

With ``--beyond`` it looks past the end of the turn instead, at the Movement and Charge
decisions only: every option played on ``--futures`` futures with each kind of dice, each scored
at the end of the turn and again after the opponent's turn (the end of our next Command phase,
its objectives scored: probe_search_horizon.rollout2); it prints the spreads at both horizons,
and what the search's rule gains choosing on 2 or 3 futures of one half by either score, judged
by the later score's mean on the other half (both ways round; mean ± standard error, VP a
decision over the tactician's first).

What ``--beyond`` showed (4 December, night, 6 futures: seed 7 and the first 33 such decisions
of seed 8; 69 Movement decisions, 135 pairs of options; this probe's first form, its futures
seeded otherwise): after the opponent's turn the median
spread fell from 4.10 to 1.18 VP with keyed dice (the mean from 4.61 to 2.57); at the end of the
turn from 0.60 to 0.00 (mean 1.93 to 0.91). Choosing with keyed dice on 3 futures gained +0.26
± 0.22 VP a decision by the end of the turn's score and +0.21 ± 0.21 by the later score itself;
with stream dice +0.03 ± 0.27 and +0.08 ± 0.30. The deeper horizon chose no better, at ~2.6
times the commands.

Run: .venv/bin/python tests/bench/probe_search_dice.py [--seeds 5 6] [--futures 8] [--beyond]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import probe_search_horizon as H  # noqa: E402  (beside this script)
from probe_search_choices import half_gains  # noqa: E402

from sim.battle import Battle  # noqa: E402
from sim.players import play_battle  # noqa: E402
from sim.players import search as S  # noqa: E402
from sim.players.runner import frozen_heap  # noqa: E402
from sim.players.tactician import TacticianPlayer  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402

KINDS = (("stream", False), ("keyed", True))


def probe(seed: int, futures: int, spreads: dict, beyond: list | None = None) -> None:
    """Play the battle of ``seed`` (the search red), adding each decision's pairs' spreads to
    ``spreads``: (phase, kind) -> [standard deviation of the paired differences, ...]; with
    ``beyond`` (a list), each Movement and Charge decision's scores at both horizons to it
    instead: (phase, kind, per option per future (end of turn, after the opponent's turn))."""
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
            if beyond is not None:
                if phase.name in ("MOVEMENT", "CHARGE"):
                    beyond.append((phase.name, kind, [[H.rollout2(self, battle, cmd, sd, saved)[::2] for sd in seeds]
                                                      for cmd, _label, _source in options]))
                continue
            first = [self.rollout(battle, options[0][0], sd, saved)[0] for sd in seeds]
            for cmd, _label, _source in options[1:]:
                d = [self.rollout(battle, cmd, sd, saved)[0] - a for sd, a in zip(seeds, first)]
                spreads.setdefault((phase.name, kind), []).append(statistics.stdev(d))
        keyed["now"] = True
        battle._enter()
        return shipped(self, battle, options, saved, phase)

    S.fork, S.SearchPlayer.search = fork, search
    terms, H.terms = H.terms, lambda _player, _battle: ()  # (the look's terms: not read here)
    try:
        with Battle(spec, seed=seed) as b, frozen_heap():
            play_battle(b, spec, players=[S.SearchPlayer(0, b, spec), TacticianPlayer(1, b, spec)])
    finally:
        S.fork, S.SearchPlayer.search, H.terms = shipped_fork, shipped, terms


def report_beyond(beyond: list) -> None:
    """The spreads at both horizons, and the search's rule choosing by each score (on 2 or 3
    futures of one half), judged by the later score on the other half."""
    for phase in ("MOVEMENT", "CHARGE"):
        for kind, _on in KINDS:
            rows = [v for ph, k, v in beyond if ph == phase and k == kind]
            if not rows:
                continue
            for h, horizon in enumerate(("end of turn", "after the opponent's turn")):
                sd = [statistics.stdev([v[i][j][h] - v[0][j][h] for j in range(len(v[0]))])
                      for v in rows for i in range(1, len(v))]
                print(f"  {phase.lower():8} {kind:6} {horizon:26} {len(sd):4} pairs: spread mean "
                      f"{statistics.mean(sd):.2f} median {statistics.median(sd):.2f}")
            truths = [[[f[1] for f in o] for o in v] for v in rows]
            for h, by in enumerate(("the end of turn's score", "the later score")):
                values = [[[f[h] for f in o] for o in v] for v in rows]
                for k in (2, 3):
                    gains, _overturned = half_gains(values, max(map(len, rows)), k, truths)
                    if len(gains) > 2:
                        se = statistics.stdev(gains) / math.sqrt(len(gains) / 2)
                        print(f"  {phase.lower():8} {kind:6} choosing by {by} on {k} futures: "
                              f"{statistics.mean(gains):+.3f} ± {se:.3f} VP a decision ({len(gains) // 2})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, nargs="+", default=[5, 6])
    ap.add_argument("--futures", type=int, default=8)
    ap.add_argument("--beyond", action="store_true", help="look past the end of the turn (Movement, Charge)")
    args = ap.parse_args()
    spreads: dict = {}
    if args.beyond:
        beyond: list = []
        for seed in args.seeds:
            probe(seed, args.futures, spreads, beyond)
        print(f"beyond the end of the turn, seeds {args.seeds}, {args.futures} futures:")
        report_beyond(beyond)
        return
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
