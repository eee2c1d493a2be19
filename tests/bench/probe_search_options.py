"""Probe (a script, not a test; it times nothing): would the search choose better among other
options than the ones it weighs?

The search player weighs, in each phase, the first ``MAX_OPTIONS`` of its option list: the
tactician's top three, the end of the phase, then the rules' other options for the tactician's
unit (sim.players.search.SearchPlayer.options). In the Movement phase the first three are the
tactician's, often one spot shifted by a base or two. This probe plays search v tactician
battles on the default table, each seed both ways, the search as shipped; at one decision in
``--every`` of ``--phase`` it plays every option of the whole list, uncapped, on the same
``--futures`` dice futures, each scored at the end of the turn (what the search's rollouts see)
and again a whole round on (the end of the searching side's next turn: the truth judged by;
probe_search_horizon.rollout2). Then the search's rule (an option overturns the tactician's
first only by more than MIN_GAIN and Z standard errors of the paired differences) chooses
within each subset of the options, on 2 or 3 futures of one half, judged by the truth's mean on
the other half, both ways round: the VP a decision gains over the tactician's first, each
subset against the shipped one decision by decision (mean ± standard error).

What it showed (4 December 2026, evening: seeds 3000-3003 both ways, one Movement decision in
two, 6 futures; 160 decisions): against the shipped options, choosing among the tactician's
first and the rules' alternatives gained +0.15 ± 0.15 to +0.24 ± 0.17 VP a decision on 2
futures and -0.00 to -0.02 (± 0.17-0.19) on 3; among every option +0.27 ± 0.19 and -0.10 ±
0.18. No subset is better at the 95% level: the end-of-turn score does not tell Movement
options apart a round on (chosen by the truth itself, every option gains +0.56-0.66 VP a
decision). In the Charge phase (an earlier form of this probe, the search itself weighing
five options: seeds 3000-3003 both ways and 3004 in part, every decision, 8 futures; 71
decisions, 14 with three or more options) five options instead of two gained +0.04 ± 0.19 over
the two's +0.43: most Charge decisions have two options only (the tactician's first and the end
of the phase).

``--dump FILE`` writes each decision as it comes (json lines), ``--read FILE...`` reports on dumps.
Run: .venv/bin/python tests/bench/probe_search_options.py [--phase movement] [--seeds 3000 3001] [--every 2]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import probe_search_horizon as H  # noqa: E402  (beside this script)
from probe_search_choices import _choose, play_both_ways_into  # noqa: E402
from sim.phases.state import Phase  # noqa: E402
from sim.players import search as S  # noqa: E402

TACTICIAN, ALTERNATIVE = "the tactician's", "another of the rules' options"


def _ends(player, battle, command, seed: int, saved) -> tuple[float, float]:
    """(the score at the end of the turn, the score a whole round on) of ``command`` played on
    the dice future ``seed`` (probe_search_horizon.rollout2, its look's terms left out)."""
    first, _terms, truth = H.rollout2(player, battle, command, seed, saved)
    return first, truth


def subsets(sources: list[str], shipped: int) -> dict[str, list[int]]:
    """Option indices (the tactician's first, 0, first) of each subset compared, by name."""
    alts = [i for i, s in enumerate(sources) if s == ALTERNATIVE]
    tac = [i for i, s in enumerate(sources) if s.startswith(TACTICIAN)]
    return {"shipped": list(range(shipped)), "the first + 2 alternatives": [0] + alts[:2],
            "the first + every alternative": [0] + alts, "the first two + 1 alternative": tac[:2] + alts[:1],
            "every option": list(range(len(sources)))}


def gain(values: list, chosen: list[int], k: int, by_truth: bool = False) -> float:
    """The VP the rule choosing within ``chosen`` on k futures of one half gains over option 0,
    judged by the truth on the other half (both ways round, the mean)."""
    truth = [[x[1] for x in values[i]] for i in chosen]
    value = truth if by_truth else [[x[0] for x in values[i]] for i in chosen]
    half = len(truth[0]) // 2
    out = []
    for lo, judge in ((0, half), (half, 0)):
        b = _choose(value, len(chosen), lo, min(k, half))
        out.append(statistics.mean(truth[b][judge:judge + half]) - statistics.mean(truth[0][judge:judge + half]))
    return statistics.mean(out)


def report(rows: list[dict]) -> None:
    print(f"{len(rows)} decisions")
    for k in (2, 3):
        print(f"choosing on {k} futures, judged a whole round on (VP a decision over the tactician's first):")
        names = list(subsets(rows[0]["sources"], rows[0]["shipped"]))
        for name in names:
            got = [gain(r["values"], subsets(r["sources"], r["shipped"])[name], k) for r in rows]
            base = [gain(r["values"], subsets(r["sources"], r["shipped"])["shipped"], k) for r in rows]
            d = [a - b for a, b in zip(got, base)]
            line = f"  {name:32} {statistics.mean(got):+.3f}"
            if name != "shipped" and len(d) > 1:
                line += f"; against the shipped {statistics.mean(d):+.3f} ± {statistics.stdev(d) / math.sqrt(len(d)):.3f}"
            print(line)
        best = [gain(r["values"], list(range(len(r["sources"]))), k, by_truth=True) for r in rows]
        print(f"  {'(every option, by the truth)':32} {statistics.mean(best):+.3f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--phase", choices=[p.name.lower() for p in S.SEARCHED], default="movement")
    ap.add_argument("--seeds", type=int, nargs="+", default=[3000, 3001])
    ap.add_argument("--futures", type=int, default=6)
    ap.add_argument("--every", type=int, default=2, help="probe one decision of the phase in this many")
    ap.add_argument("--dump", help="write every decision here (json lines) as it comes")
    ap.add_argument("--read", nargs="*", help="report on dumps instead of playing")
    args = ap.parse_args()
    if args.read:
        report([json.loads(line) for path in args.read for line in Path(path).read_text().splitlines()])
        return
    phase = Phase[args.phase.upper()]
    H.TRUTH = "turn"
    rows: list[dict] = []
    dump = open(args.dump, "a") if args.dump else None
    draw = random.Random("probe-search-options")
    options, search = S.SearchPlayer.options, S.SearchPlayer.search
    seen = [0]

    def every_option(self, battle, cands):
        if battle.turn_state.phase != phase:
            return options(self, battle, cands)
        cap = S.MAX_OPTIONS[phase]
        S.MAX_OPTIONS[phase] = 99
        try:
            self.probe_options = options(self, battle, cands)
        finally:
            S.MAX_OPTIONS[phase] = cap
        return self.probe_options[:cap]  # (the list in the same order: its first ones are the shipped)

    def probed(self, battle, shipped, saved, ph):
        if ph == phase:
            seen[0] += 1
            if seen[0] % args.every == 0:
                every = self.probe_options
                seeds = [int(draw.random() * 2**53) for _ in range(args.futures)]
                values = [[_ends(self, battle, o[0], s, saved) for s in seeds] for o in every]
                rows.append({"values": values, "sources": [o[2] for o in every], "words": [o[1] for o in every],
                             "shipped": len(shipped)})
                if dump:
                    dump.write(json.dumps(rows[-1]) + "\n")
                    dump.flush()
                battle._enter()
        return search(self, battle, shipped, saved, ph)

    S.SearchPlayer.options, S.SearchPlayer.search = every_option, probed
    play_both_ways_into(args.seeds, dump)
    report(rows)


if __name__ == "__main__":
    main()
