"""The odds as text (expectation, standard deviation, "at least k" tables) and as a plot
(matplotlib, headless Agg backend: distribution bars and the cumulative "at least k" curve)."""

from __future__ import annotations

from sim.odds.result import Measure, Odds
from sim.names import counted


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%" if x >= 0.0005 or x == 0 else "<0.1%"


def _ms(m: Measure | None) -> str:
    return "-" if m is None else f"{m.mean:.2f} +- {m.sd:.2f}"


def method_line(odds: Odds) -> str:
    if odds.method == "exact":
        return (f"exact (float64; every distribution sums to 1 within 1e-12, largest error here "
                f"{odds.max_sum_error:.0e})")
    return f"Monte Carlo: {odds.runs:,} runs from seed {odds.seed} (see the note)"


def text(odds: Odds, title: str = "") -> str:
    out = []
    if title:
        out.append(title)
    out.append(odds.label)
    out.append(method_line(odds))
    for p in odds.pools:
        lost = f"; lost (target destroyed first) {_pct(p.lost)}" if p.lost > 0 else ""
        out.append(f"  pool {p.index}: {', '.join(p.weapons)} at {p.target} ({p.profile}): attack dice "
                   f"{_ms(p.dice)}, hits {_ms(p.hits)}, wounds {_ms(p.wounds)}, critical wounds "
                   f"{_ms(p.criticals)}{lost}")
    for t in odds.targets:
        out.append(f"  {t.uid}, {counted(t.models, 'model')}, {counted(t.wounds, 'wound')} left:")
        out.append(f"    models destroyed {_ms(t.destroyed)}, destroyed outright {_pct(t.wiped)}; damage (wounds "
                   f"lost) {_ms(t.damage)}; unsaved attacks {_ms(t.unsaved)}; mortal wounds {_ms(t.mortal)}")
        if len(t.groups) > 1:
            for label, n, m in t.groups:
                out.append(f"    group {label}: models destroyed {_ms(m)} of {n}")
        k_max = max(len(t.destroyed.p), len(t.damage.p)) - 1
        d_al, w_al = t.destroyed.at_least(), t.damage.at_least()
        out.append(f"    {'at least k':>12}  {'models destroyed':>16}  {'damage':>8}")
        for k in range(1, k_max + 1):
            a = _pct(d_al[k]) if k < len(d_al) else ""
            b = _pct(w_al[k]) if k < len(w_al) else ""
            out.append(f"    {k:>12}  {a:>16}  {b:>8}")
    if odds.hazard_rolls or odds.hazard_lost.mean > 0:
        what = f"hazard rolls ({odds.hazard_rolls})" if odds.hazard_rolls else "after the attack"
        out.append(f"  {what}: {odds.attacker} loses {_ms(odds.hazard_lost)} wounds, "
                   f"{_ms(odds.hazard_destroyed)} models")
    for n in odds.notes:
        out.append(f"  note: {n}")
    return "\n".join(out)

