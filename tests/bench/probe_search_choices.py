"""Probe (a script, not a test; it times nothing): how much the search player's choices gain,
and how its work is best split between options and dice futures.

Plays search v tactician battles on the default table (scenarios/battle_default.toml), each
seed both ways. At each decision the search makes, every option it could weigh (up to
``--options``, before its per-phase cap ``sim.players.search.MAX_OPTIONS``) is played on the
same ``--futures`` dice futures (its rollouts: the end of the turn, scored by
``SearchPlayer.score``), then the search decides as it would have. Afterwards, for each phase
and each split of the same work (``n`` options of ``k`` futures, n x k = 12, and the caps as
they are): the rule the search uses (an option overturns the tactician's first only by more
than MIN_GAIN and Z standard errors of the paired differences) chooses on one half of the
futures and is judged on the other half, both ways round: the VP a decision it gains over the
tactician's first, and how often it overturns it. A choice judged on futures it did not see is
free of the winner's curse (the best of several noisy means is too high).

What it shows is the worth of a choice at the rollouts' horizon (the end of the turn), not in
won battles: `sim ladder` measures those. Run:
  .venv/bin/python tests/bench/probe_search_choices.py [--seeds 3000 3001] [--futures 16]
(each battle takes a few minutes: every decision plays every option 16 times).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sim.battle import Battle  # noqa: E402
from sim.players import play_battle  # noqa: E402
from sim.players import search as S  # noqa: E402
from sim.players.runner import frozen_heap  # noqa: E402
from sim.players.tactician import TacticianPlayer  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios/battle_default.toml"
SPLITS = ((6, 2), (4, 3), (3, 4), (2, 6))  # (options, futures): the same work


def _choose(values: list[list[float]], n: int, lo: int, k: int, bar: tuple | None = None) -> int:
    """The search's rule (SearchPlayer.search's last step, SAME included) on futures lo..lo+k of
    the first n; ``bar``: (MIN_GAIN, Z) in place of the search's."""
    min_gain, z = (S.MIN_GAIN, S.Z) if bar is None else bar
    best, gain = 0, 0.0
    for i in range(1, min(n, len(values))):
        d = [values[i][j] - values[0][j] for j in range(lo, lo + k)]
        m = statistics.mean(d)
        se = statistics.stdev(d) / math.sqrt(k) if k > 1 else 0.0
        if m > max(min_gain, z * se * S.SAME) and m > gain:
            best, gain = i, m
    return best


def half_gains(decisions: list[list[list[float]]], n: int, k: int, truths=None,
               bar: tuple | None = None) -> tuple[list[float], int]:
    """(VP gained over the tactician's first, two a decision, and how many were overturned): the
    rule choosing on k futures of one half (``bar``: its thresholds, as ``_choose``), judged by
    the mean of the other half, both ways round; judged by ``truths`` (per decision, per option,
    per future) where given, else by the values chosen on."""
    gains, overturned = [], 0
    for d, values in enumerate(decisions):
        truth = values if truths is None else truths[d]
        half = len(values[0]) // 2
        if k > half:
            continue
        for lo, judge in ((0, half), (half, 0)):
            b = _choose(values, n, lo, k, bar)
            gains.append(statistics.mean(truth[b][judge:judge + half]) - statistics.mean(truth[0][judge:judge + half]))
            overturned += b != 0
    return gains, overturned


def judged(decisions: list[list[list[float]]], n: int, k: int, bar: tuple | None = None) -> tuple[float, float]:
    """(VP a decision gained over the tactician's first, share of decisions overturned):
    half_gains judged by the values chosen on."""
    gains, overturned = half_gains(decisions, n, k, bar=bar)
    return (statistics.mean(gains), overturned / len(gains)) if gains else (math.nan, math.nan)


def play_both_ways(seeds) -> None:
    """Search v tactician battles on the default table, each seed both ways (the search red,
    then blue), each battle's result printed as it ends."""
    spec = load_scenario(SCENARIO)
    for seed in seeds:
        for side in (0, 1):
            kinds = ("search", "tactician") if side == 0 else ("tactician", "search")
            s = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=kinds))
            with Battle(s, seed=seed) as b, frozen_heap():
                players = [TacticianPlayer(0, b, s), TacticianPlayer(1, b, s)]
                players[side] = S.SearchPlayer(side, b, s)
                play_battle(b, s, players=players)
                print(f"seed {seed}, search {('red', 'blue')[side]}: {b.turn_state.result} {b.turn_state.vp}", flush=True)


def play_both_ways_into(seeds, dump) -> None:
    """``play_both_ways``, then the probe's dump file (None: none) closed, however it ended."""
    try:
        play_both_ways(seeds)
    finally:
        if dump:
            dump.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, nargs="+", default=[3000, 3001])
    ap.add_argument("--futures", type=int, default=16)
    ap.add_argument("--options", type=int, default=6, help="options weighed at most, before the search's cap")
    ap.add_argument("--grid", action="store_true",
                    help="also each number of options (2-4) at each number of futures (2, 4, 8), and the "
                         "overturning thresholds (MIN_GAIN 0-0.5, Z 0.5-1.5) at the phase's cap and 4 futures")
    args = ap.parse_args()
    caps = dict(S.MAX_OPTIONS)
    S.MAX_OPTIONS = dict.fromkeys(S.SEARCHED, args.options)  # (the probe sees every option)
    decisions: dict = {}  # phase -> [values per option per future]
    draw = random.Random("probe-search-choices")
    search = S.SearchPlayer.search

    def probed(self, battle, options, saved, phase):
        seeds = [int(draw.random() * 2**53) for _ in range(args.futures)]
        decisions.setdefault(phase, []).append(
            [[self.rollout(battle, o[0], seed, saved)[0] for seed in seeds] for o in options])
        battle._enter()
        return search(self, battle, options[:caps[phase]], saved, phase)
    S.SearchPlayer.search = probed
    play_both_ways(args.seeds)
    print(f"\n{sum(map(len, decisions.values()))} decisions, each option on {args.futures} futures; the rule "
          f"chooses on k of one half and is judged on the other half: VP a decision over the tactician's "
          f"first (share overturned)")
    for phase in S.SEARCHED:
        got = decisions.get(phase, [])
        if not got:
            continue
        cells = [f"{n}x{k} {g:+.3f} ({o:.0%})" for n, k in SPLITS if 2 * k <= args.futures
                 for g, o in [judged(got, n, k)]]
        print(f"  {phase.name.lower():9} {len(got):4}: " + "; ".join(cells) + f"; cap {caps[phase]} (the search's)")
        if args.grid:
            print("    options x futures: " + "; ".join(
                f"{n}x{k} {g:+.3f} ({o:.0%})" for n in (2, 3, 4) for k in (2, 4, 8) if 2 * k <= args.futures
                for g, o in [judged(got, n, k)]))
            print("    MIN_GAIN/Z: " + "; ".join(
                f"{mg:g}/{z:g} {g:+.3f}" for mg in (0.0, 0.1, 0.25, 0.5) for z in (0.5, 1.0, 1.5)
                for g, _o in [judged(got, caps[phase], min(4, args.futures // 2), (mg, z))]))


if __name__ == "__main__":
    main()
