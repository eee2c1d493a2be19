"""`sim matrix --plot`: the matrix of every attacker against every defender as a heatmap."""

from __future__ import annotations


def heatmap(cells, path: str, title: str) -> None:
    """Expected models destroyed as a share of the defender's models (colour), each cell
    labelled with the expected models destroyed, damage and the chance to wipe."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    rows, cols = len(cells), len(cells[0])
    share = np.full((rows, cols), np.nan)
    for i, row in enumerate(cells):
        for j, c in enumerate(row):
            if c.destroyed is not None:
                share[i, j] = c.destroyed / c.models
    fig, ax = plt.subplots(figsize=(1.9 * cols + 3, 1.0 * rows + 2.2))
    im = ax.imshow(share, cmap="viridis", vmin=0, vmax=1, aspect="auto")
    for i, row in enumerate(cells):
        for j, c in enumerate(row):
            label = "-" if c.destroyed is None else (f"{c.destroyed:.2f} models\n{c.damage:.1f} dmg\n"
                                                     f"wipe {100 * c.wiped:.0f}%")
            ax.text(j, i, label, ha="center", va="center", fontsize=7,
                    color="black" if np.isnan(share[i, j]) or share[i, j] >= 0.6 else "white")
    ax.set_xticks(range(cols), [c.defender for c in cells[0]], rotation=30, ha="right")
    ax.set_yticks(range(rows), [row[0].attacker for row in cells])
    ax.set_xlabel("defender")
    ax.set_ylabel("attacker")
    fig.colorbar(im, ax=ax, label="expected share of the defender's models destroyed")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
