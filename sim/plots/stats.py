"""`sim stats --plot`: a batch's tally of models destroyed per unit, as bars."""

from __future__ import annotations


def destroyed(tally, path: str, title: str) -> None:
    """Each unit's distribution of models destroyed over the runs, as bars (matplotlib, Agg)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    units = tally.spec.units
    cols = min(3, len(units))
    rows = -(-len(units) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    for ax in axes.flat[len(units):]:
        ax.axis("off")
    for ax, us, hist in zip(axes.flat, units, tally.hist):
        share = [h / tally.n for h in hist]
        ax.bar(range(len(share)), share, color="#4a78b0")
        mean = sum(k * h for k, h in enumerate(hist)) / tally.n
        ax.set_title(f"{us.name} ({us.id}): mean {mean:.2f}", fontsize=9)
        ax.set_xlabel("models destroyed")
        ax.set_ylabel("share of runs")
        ax.set_xticks(range(len(share)))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
