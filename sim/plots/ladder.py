"""`sim ladder --plot`: the players x players matrix of win rates (row against column) as a heatmap."""

from __future__ import annotations


def scores(tally, path: str, title: str) -> None:
    """Each row player's win rate against each column player (wins + half the draws, colour), the
    cell labelled with it and its 95% interval; the rows name each player's Elo rating."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    names = tally.ladder.players
    k = len(names)
    ratings = tally.ratings()
    share = np.full((k, k), np.nan)
    fig, ax = plt.subplots(figsize=(1.6 * k + 3, 1.0 * k + 2))
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            p = tally.pair(i, j).summary()
            if p["score"] is None:
                continue
            share[i, j] = p["score"]
            lo, hi = p["score_95"]
            ax.text(j, i, f"{100 * p['score']:.0f}%\n({100 * lo:.0f}-{100 * hi:.0f})", ha="center", va="center",
                    fontsize=8, color="black" if 0.2 <= p["score"] <= 0.85 else "white")
    im = ax.imshow(share, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(k), names, rotation=30, ha="right")
    ax.set_yticks(range(k), [f"{n} (Elo {r:.0f})" for n, r in zip(names, ratings)])
    ax.set_xlabel("against")
    ax.set_ylabel("player")
    fig.colorbar(im, ax=ax, label="win rate, a draw counting half (95% Wilson interval)")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
