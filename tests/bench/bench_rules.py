"""Benchmark: what rules of datasheets, armies and detachments (sim.rules.effects) cost a battle.

The default table (scenarios/battle_default.toml), both sides played by the ``random`` player,
five rounds, one core: the same seeds played as shipped (no rules: the engine asks one flag)
and with rules given to both armies (red: Oath of Moment, its units re-rolling hits at a marked
unit, and a 6" aura of +1 to hit; blue: the Waaagh! called from the start, +1 S and +1 A in
melee and a 5+ invulnerable save, and a Feel No Pain 6+ on every unit), the two interleaved
seed by seed so a machine getting busier weighs on both alike. Prints the median battle of
each, their ratio, and, beside them, the baseline measured in the same run
(tests/bench/_baseline.py) with the rates relative to the pure-Python loop.
Run: .venv/bin/python tests/bench/bench_rules.py [--battles N]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import _baseline  # noqa: E402  (beside this script)
from sim.battle import Battle  # noqa: E402
from sim.players import play_battle  # noqa: E402
from sim.players.runner import frozen_heap  # noqa: E402
from sim.rules.effects import table  # noqa: E402
from sim.rules.effects import vocabulary as V  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios/battle_default.toml"

# the bench's own records, beside the table's (Oath of Moment, Waaagh!)
AURA = V.RuleRecord("bench-aura", ("Bench Aura",), V.DATASHEET, "+1 to hit for friendly units within 6\".",
                    (V.Grant(V.Effect(V.MODIFY, "hit", 1), V.AURA, range=6.0),))
FNP = V.RuleRecord("bench-fnp", ("Bench Grit",), V.DATASHEET, "Feel No Pain 6+.",
                   (V.Grant(V.Effect(V.FEEL_NO_PAIN, value=6)),))


def with_rules(spec):
    """``spec`` with the rules above: the army rules on each army, the bench's records on every
    unit's models (their keys resolved through the table, which the bench extends)."""
    by_key, by_id, by_name = table._tables()
    by_key.setdefault(AURA.key, AURA)
    by_key.setdefault(FNP.key, FNP)
    first_blue = next(u.id for u in spec.units if u.owner == 1)
    armies = (dataclasses.replace(spec.armies[0], rules=("oath-of-moment",),
                                  chosen=(("oath-of-moment", first_blue),)),
              dataclasses.replace(spec.armies[1], rules=("waaagh",), chosen=(("waaagh", True),)))
    units = tuple(dataclasses.replace(u, models=tuple(
        dataclasses.replace(m, rules=(AURA.key,) if u.owner == 0 else (FNP.key,)) for m in u.models))
        for u in spec.units)
    return dataclasses.replace(spec, armies=armies, units=units)


def one_battle(spec, seed: int) -> float:
    t0 = time.perf_counter()
    with Battle(spec, seed=seed) as b, frozen_heap():
        play_battle(b, spec)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=12)
    args = ap.parse_args()
    plain = load_scenario(SCENARIO)
    plain = dataclasses.replace(plain, mission=dataclasses.replace(plain.mission, players=("random", "random")))
    ruled = with_rules(plain)
    before = _baseline.measure()
    one_battle(plain, 0)
    one_battle(ruled, 0)  # warm-up (imports, caches, the records read)
    t_plain, t_ruled = [], []
    for seed in range(1, args.battles + 1):
        t_plain.append(one_battle(plain, seed))
        t_ruled.append(one_battle(ruled, seed))
    after = _baseline.measure()
    loop_s = _baseline.mean(before, after).python_s
    mp, mr = statistics.median(t_plain), statistics.median(t_ruled)
    print(f"{args.battles} whole battles each (5 rounds, 20 units, random v random), one core: "
          f"no rules median {mp * 1e3:.0f} ms, with rules median {mr * 1e3:.0f} ms: x{mr / mp:.2f}")
    print(_baseline.line(before, after, [f"no rules {loop_s / mp:.2f}, with rules {loop_s / mr:.2f} battles in "
                                         "the time of one pure-Python loop"]))


if __name__ == "__main__":
    main()
