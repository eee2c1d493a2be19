"""`sim ladder`'s words: the pairs' results, the players x players table and the Elo ratings,
as text, as Markdown (the README's table) or as a dictionary (--json)."""

from __future__ import annotations

from sim.rules.turn import PLAYER

from sim.analysis.ladder import Tally, pairs
from sim.names import counted

DRAWS_NOTE = ("win rate: wins + half the draws (a draw counts half), over the battles, with its 95% Wilson "
              "score interval; "
              "VP margin: the first player's VP minus the other's, mean and 95% t interval; "
              "Elo: maximum likelihood (Bradley-Terry, a draw half a win) with one virtual draw per pair, "
              "mean 1500")


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _cell(t: Tally, i: int, j: int, scenario: int | None) -> str:
    """Row player i's win rate (a draw half) against column player j, and its interval: "85% (70-93)"."""
    p = t.pair(i, j, scenario).summary()
    if p["score"] is None:
        return "-"
    lo, hi = p["score_95"]
    return f"{_pct(p['score'])} ({100 * lo:.0f}-{100 * hi:.0f})"


def _rows(t: Tally, scenario: int | None) -> tuple[list[str], list[list[str]]]:
    names = t.ladder.players
    ratings = t.ratings(scenario)
    head = ["", *names, "Elo"]
    rows = [[n, *("-" if i == j else _cell(t, i, j, scenario) for j in range(len(names))), f"{ratings[i]:.0f}"]
            for i, n in enumerate(names)]
    return head, rows


def _pair_line(t: Tally, i: int, j: int, scenario: int | None) -> str:
    names = t.ladder.players
    p = t.pair(i, j, scenario).summary()
    line = f"{names[i]} v {names[j]}: {p['wins']} won, {p['draws']} drawn, {p['losses']} lost of {p['games']}"
    if p["games"]:
        lo, hi = p["score_95"]
        m, mlo, mhi = p["vp_margin"], *p["vp_margin_95"]
        line += (f"; win rate {100 * p['score']:.1f}% [{100 * lo:.1f}%, {100 * hi:.1f}%]; "
                 f"VP margin {m:+.1f} [{mlo:+.1f}, {mhi:+.1f}]")
    if p["stopped"]:
        line += f"; {p['stopped']} not played out"
    return line


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[c]) for r in [head, *rows]) for c in range(len(head))]
    return ["  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(r, widths)))
            for r in [head, *rows]]


def _scopes(t: Tally) -> list[tuple[int | None, str]]:
    """What to report: each scenario when there are several, then all of them together."""
    lad = t.ladder
    if len(lad.specs) == 1:
        return [(None, f"{lad.specs[0].name} ({lad.paths[0]})")]
    return [*((s, f"{sp.name} ({lad.paths[s]})") for s, sp in enumerate(lad.specs)),
            (None, f"all {len(lad.specs)} scenarios")]


def header(t: Tally) -> str:
    lad = t.ladder
    seeds = ", ".join(f"{p}: seeds {f}..{f + lad.battles - 1}" for p, f in zip(lad.paths, lad.firsts))
    return (f"ladder of {len(lad.players)} players ({', '.join(lad.players)}), "
            f"{counted(len(pairs(len(lad.players))), 'pair')}, {counted(lad.battles, 'seed')} a pair, each played both ways: {lad.total} battles ({seeds})")


def text(t: Tally) -> str:
    """Per scope: each pair's line, then the players x players table (row's win rate against the
    column, 95% interval) with the Elo ratings; the note on what the numbers are; games that
    could not be played out, with the reasons."""
    out = [header(t)]
    for scope, title in _scopes(t):
        out.append("")
        out.append(f"{title}:")
        out.extend("  " + _pair_line(t, i, j, scope) for i, j in pairs(len(t.ladder.players)))
        out.extend("  " + line for line in _table(*_rows(t, scope)))
    out.append("")
    out.append(f"({DRAWS_NOTE})")
    out.extend(t.stopped_lines())
    return "\n".join(out)


def markdown(t: Tally) -> str:
    """The players x players tables as Markdown (the README's ladder table), each scope's, and
    under each its pairs' lines."""
    out = [header(t) + "."]
    for scope, title in _scopes(t):
        head, rows = _rows(t, scope)
        out.append("")
        out.append(f"{title}:")
        out.append("")
        out.append("| " + " | ".join(["row v column", *head[1:]]) + " |")
        out.append("|" + "|".join(["---", *("---:" for _ in head[1:])]) + "|")
        out.extend("| " + " | ".join(r) + " |" for r in rows)
        out.append("")
        out.extend("- " + _pair_line(t, i, j, scope) for i, j in pairs(len(t.ladder.players)))
    out.extend(["", *t.stopped_lines()] if t.stops else [])
    return "\n".join(out)


def as_dict(t: Tally) -> dict:
    """Everything, for --json: the schedule, per scenario and in all each pair's summary (from
    the first player's side) and the ratings."""
    lad = t.ladder
    names = lad.players

    def scope(s: int | None) -> dict:
        return {"pairs": [{"players": [names[i], names[j]], **t.pair(i, j, s).summary()}
                          for i, j in pairs(len(names))],
                "elo": dict(zip(names, t.ratings(s)))}
    return _rounded({"players": list(names), "battles_per_pair": lad.battles, "total": lad.total,
            "scenarios": [{"path": p, "name": sp.name, "seeds": [f, f + lad.battles - 1], **scope(s)}
                          for s, (p, sp, f) in enumerate(zip(lad.paths, lad.specs, lad.firsts))],
            "all": scope(None), "not_played_out": [
                {"reason": r, "battles": n, "first": {"scenario": lad.paths[g.scenario], "seed": g.seed,
                                                      PLAYER[0]: names[g.red], PLAYER[1]: names[g.blue]}}
                for r, n in sorted(t.stops.items()) for g in [t.first_stopped[r]]],
            "note": DRAWS_NOTE})


def _rounded(x):
    """Every float to 9 significant digits (the last bits of a logarithm may differ between
    platforms' maths libraries; the JSON should not)."""
    if isinstance(x, float):
        return float(f"{x:.9g}")
    if isinstance(x, dict):
        return {k: _rounded(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_rounded(v) for v in x]
    return x
