"""The sandbox's odds worker: a process that solves odds problems sent down a pipe
(sim.odds.engine.solve_preview, for_plan's half that reads no world) and sends back each
answer with its job number. Light to import: no pygame, only sim.odds."""

from __future__ import annotations


def serve(conn) -> None:
    from sim.sandbox.odds_summary import solve_summary as solve_preview  # (with hits, wounds, damage)
    while True:
        try:
            job, problem = conn.recv()
        except (EOFError, OSError):
            return
        try:
            out = (job, True, solve_preview(problem))
        except Exception as e:  # (the engine's error, shown by the panel)
            out = (job, False, f"{type(e).__name__}: {e}")
        try:
            conn.send(out)
        except (BrokenPipeError, OSError):
            return
