"""`sim odds --plot`: an attack's odds (sim.odds.result.Odds) as bars and curves."""

from __future__ import annotations

from sim.odds.result import Odds


def odds(odds: Odds, path: str, title: str = "") -> None:
    """Per target: the distribution of models destroyed and of damage as bars, with the
    cumulative chance of "at least k" as a line (right axis); written to ``path`` (PNG or SVG)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    n = len(odds.targets)
    fig, axes = plt.subplots(n, 2, figsize=(11, 3.6 * n), squeeze=False)
    for row, t in zip(axes, odds.targets):
        for ax, m, what in ((row[0], t.destroyed, "models destroyed"), (row[1], t.damage, "damage (wounds lost)")):
            ks = list(range(len(m.p)))
            ax.bar(ks, m.p, color="#4a78b0", label=f"P({what} = k)")
            ax.set_xlabel(f"k, {what}")
            ax.set_ylabel("probability")
            ax.set_ylim(0, max(1e-9, float(m.p.max())) * 1.15)
            ax2 = ax.twinx()
            ax2.plot(ks, m.at_least(), color="#c0503a", marker="o", markersize=3, label=f"P({what} >= k)")
            ax2.set_ylim(0, 1.05)
            ax2.set_ylabel("at least k")
            ax.set_title(f"{t.name} ({t.uid}): {what}, mean {m.mean:.2f} +- {m.sd:.2f}", fontsize=10)
            h1, l1 = ax.get_legend_handles_labels()
            h2, l2 = ax2.get_legend_handles_labels()
            ax.legend(h1 + h2, l1 + l2, fontsize=8, loc="upper right")
    head = (title + "\n" if title else "") + odds.label + f" ({odds.method})"
    fig.suptitle(head, fontsize=11)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
