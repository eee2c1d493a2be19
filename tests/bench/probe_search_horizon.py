"""Probe (a script, not a test; it times nothing): does a cheap look at the opponent's coming
turn, added to the search's score at the end of its own turn, choose better?

The search player's rollouts stop at the end of its turn (``SearchPlayer.score``: VP, material,
objectives). Objectives are scored, and the search's units are shot at and charged, in the
opponent's turn after it. This probe plays search v tactician battles on the default table,
each seed both ways; at each decision every option is played on the same ``--futures`` dice
futures to the end of the turn (its score there, and the terms below, worked out by
``sim.players.tactician.threat.ThreatMap`` for the position), then on through the opponent's
turn to the end of the searching player's next Command phase, or with ``--truth turn`` of its
next turn (its score there: the truth the probe judges by). Then, for each value (the score at the end of the turn plus weights times the
terms), the search's rule (sim.players.search: an option overturns the tactician's first only
by more than MIN_GAIN and Z standard errors of the paired differences) chooses on one half of
the futures and is judged on the other half, by the score after the opponent's turn: the VP a
decision gained over the tactician's first. The correlation between an option's mean difference
from the first under each value and under the truth is printed beside it.

Terms, each in VP (``SearchPlayer.score``'s measure):
  exposure  minus the points of the searching side's units the enemy is expected to destroy in
            its turn (ThreatMap.exposure, summed), as a share of ARMY_VP;
  threat    plus the same for the enemy's units under the searching side's guns, where they
            stand now (its exposure map, summed): the other side of the same look;
  holds     minus OBJECTIVE_VP for each objective the searching side controls where the
            enemy's OC that can reach it is above the searching side's OC within range.

What it showed (4 December 2026, seeds 3000-3003 both ways, 8 futures; 628 decisions): the
score with exposure/2 + holds/2 chose better after the opponent's turn than the score alone:
+0.092 ± 0.037 VP a decision in the Movement phase (331), +0.135 ± 0.059 in the Charge phase
(55), -0.047 ± 0.048 in the Shooting phase (201), 0 in the Fight phase (41); at the futures
the search affords there (2-3 in the Movement phase) the look more than doubled what its
Movement choices gained (+0.04 -> +0.10 at 2 futures). Yet a search with the look, played
in ladders against the tactician, won 55.5% of seeds 1000-1099 (200 battles) and 45.7% of
seeds 900-969 (140; the search without it: 51.8% of 900-999): not kept. That truth stops
before our next turn, so it rewards standing back from the enemy, not what standing forward
does next turn. Judged a whole round on (``--truth turn``: the end of our next turn, the same
seeds), the look's gain in the Movement phase shrank to +0.050 ± 0.038 (+0.069 ± 0.038 with
the enemy's exposure to us added), and the search's own Movement choices, at the 2-3 futures
it affords there, gained nothing measurable (-0.005 and +0.004 VP a decision) where its
Charge choices gained +0.43 to +0.72.

``--dump FILE`` writes each decision's values as they come (json lines), ``--read FILE...``
reports on such dumps without playing (e.g. several seeds played side by side).
Run: .venv/bin/python tests/bench/probe_search_horizon.py [--seeds 3000 3001] [--futures 8]
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

from probe_search_choices import _choose, play_both_ways_into  # noqa: E402  (beside this script)
from sim.errors import Refusal  # noqa: E402
from sim.phases.state import Phase  # noqa: E402
from sim.players import search as S  # noqa: E402
from sim.players.tactician import TacticianPlayer  # noqa: E402
from sim.players.tactician.threat import ThreatMap  # noqa: E402

def terms(self, f) -> tuple[float, float, float]:
    """The terms of the position ``f`` (the searching side ``self.side``), in VP."""
    f._enter()
    me, them = self.side, 1 - self.side
    scale = S.ARMY_VP / self.army(f)
    mine = ThreatMap(f, me)
    exposure = -sum(mine.exposure(b.ent) for b in mine.mine) * scale
    theirs = ThreatMap(f, them)
    threat = sum(theirs.exposure(b.ent) for b in theirs.mine) * scale
    holds = 0.0
    ts = f.turn_state
    if ts.objectives:
        from sim.phases.scoring import control_levels
        for o, lv in zip(ts.objectives, control_levels(ts.objectives, f)):
            c = ts.control.get(o.name)
            if c is not None and c.controller == me and mine.enemy_oc_reaching((o.x, o.y)) > lv.get(me, 0):
                holds -= S.OBJECTIVE_VP
    return exposure, threat, holds


TRUTH = "command"  # where the truth is scored: the end of our next Command phase, or "turn"


def rollout2(self, battle, command, seed: int, saved):
    """``SearchPlayer.rollout`` to the end of the turn (its score and terms there), then on
    through the opponent's turn to the end of this side's next Command phase, or with TRUTH
    "turn" of its next turn (the score then)."""
    f = S.fork(battle, seed)
    try:
        players = [TacticianPlayer(s, f, self.scenario) for s in (0, 1)]
        S._load(players[self.side], saved)
        ts = f.turn_state
        now = (ts.round, ts.active)

        def by_player(req):
            return players[req.player].answer(f, req)

        def play(until) -> None:
            played = 0
            while not ts.over and not until() and played < S.ROLLOUT_CAP:
                c = players[ts.chooser].choose(f)
                f.submit(c.command)
                f.resolve(c.answer or by_player)
                played += 1

        try:
            f.submit(command)
            f.resolve(by_player)
            play(lambda: (ts.round, ts.active) != now)
        except Refusal:
            pass
        first = self.score(f)
        extra = terms(self, f)
        try:
            play(lambda: ts.active == self.side and ts.phase != Phase.COMMAND)
            if TRUTH == "turn":  # (and on to the end of that turn of ours: a whole round)
                play(lambda: ts.active != self.side)
        except Refusal:
            pass
        return first, extra, self.score(f)
    finally:
        f.close()


def choose(v: list[list[float]], lo: int, k: int) -> int:
    """The search's rule on futures lo..lo+k of values ``v`` (per option, per future)."""
    return _choose(v, len(v), lo, k)


def evaluate(decisions, weights, k: int | None = None) -> tuple[float, float, float]:
    """(VP a decision gained after the opponent's turn over the tactician's first, share
    overturned, correlation of the options' mean differences) for the value with ``weights``,
    choosing on ``k`` futures of one half (all of it: None)."""
    gains, over, xs, ys = [], 0, [], []
    for d in decisions:
        value = [[s1 + sum(w * t for w, t in zip(weights, ex)) for s1, ex, _s2 in opt] for opt in d]
        truth = [[s2 for _s1, _ex, s2 in opt] for opt in d]
        half = len(value[0]) // 2
        for lo, judge in ((0, half), (half, 0)):
            b = choose(value, lo, k or half)
            gains.append(statistics.mean(truth[b][judge:judge + half]) - statistics.mean(truth[0][judge:judge + half]))
            over += b != 0
        for i in range(1, len(value)):
            xs.append(statistics.mean(value[i]) - statistics.mean(value[0]))
            ys.append(statistics.mean(truth[i]) - statistics.mean(truth[0]))
    corr = statistics.correlation(xs, ys) if len(xs) > 2 else math.nan
    return statistics.mean(gains), over / len(gains), corr


WEIGHTS = {
    "the score at the end of the turn, no look": (0, 0, 0),
    "+ exposure": (1, 0, 0), "+ exposure/2": (0.5, 0, 0),
    "+ holds": (0, 0, 1), "+ holds/2": (0, 0, 0.5),
    "+ exposure + holds": (1, 0, 1), "+ exposure/2 + holds/2": (0.5, 0, 0.5),
    "+ exposure + threat": (1, 1, 0), "+ exposure/2 + threat/2 + holds/2": (0.5, 0.5, 0.5),
}


def paired(decisions, weights) -> tuple[float, float]:
    """The VP a decision the value with ``weights`` gained over the score with no look, both
    judged as ``evaluate`` does, decision by decision: (mean, its standard error)."""
    diffs = [evaluate([d], weights)[0] - evaluate([d], (0, 0, 0))[0] for d in decisions]
    return statistics.mean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.nan


def report(decisions: dict) -> None:
    for phase, got in sorted(decisions.items(), key=lambda kv: kv[0].value):
        print(f"\n{phase.name.lower()}: {len(got)} decisions")
        for name, w in WEIGHTS.items():
            g, o, c = evaluate(got, w)
            line = f"  {name:40} {g:+.3f} VP ({o:.0%} overturned), correlation {c:.3f}"
            if any(w):
                m, se = paired(got, w)
                line += f"; against no look {m:+.3f} ± {se:.3f}"
            print(line)
        for k in (2, 3):
            g, o, _c = evaluate(got, (0, 0, 0), k)
            print(f"  {f'(no look, choosing on {k} futures)':40} {g:+.3f} VP ({o:.0%} overturned)")
        g, o, _c = evaluate([[[(s2, (), s2) for _s1, _ex, s2 in opt] for opt in d] for d in got], ())
        print(f"  {'(choosing by the truth itself)':40} {g:+.3f} VP ({o:.0%} overturned)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, nargs="+", default=[3000, 3001])
    ap.add_argument("--futures", type=int, default=8)
    ap.add_argument("--truth", choices=("command", "turn"), default="command",
                    help="judge at the end of our next Command phase (default) or of our next turn")
    ap.add_argument("--dump", help="write every decision's values here (json lines) as they come")
    ap.add_argument("--read", nargs="*", help="report on dumps instead of playing")
    args = ap.parse_args()
    decisions: dict = {}
    if args.read:
        for path in args.read:
            for line in Path(path).read_text().splitlines():
                r = json.loads(line)
                decisions.setdefault(Phase[r["phase"]], []).append([[tuple(x) for x in o] for o in r["values"]])
        report(decisions)
        return
    global TRUTH
    TRUTH = args.truth
    dump = open(args.dump, "a") if args.dump else None
    draw = random.Random("probe-search-horizon")
    search = S.SearchPlayer.search

    def probed(self, battle, options, saved, phase):
        seeds = [int(draw.random() * 2**53) for _ in range(args.futures)]
        values = [[rollout2(self, battle, o[0], seed, saved) for seed in seeds] for o in options]
        decisions.setdefault(phase, []).append(values)
        if dump:
            dump.write(json.dumps({"phase": phase.name, "values": values}) + "\n")
            dump.flush()
        battle._enter()
        return search(self, battle, options, saved, phase)
    S.SearchPlayer.search = probed
    play_both_ways_into(args.seeds, dump)
    report(decisions)


if __name__ == "__main__":
    main()
