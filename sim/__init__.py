"""A rules-faithful Warhammer 40,000 (11th edition) battle simulator.

Unofficial fan tool; not affiliated with Games Workshop.
"""

import sys

__version__ = "0.1.0"


def answer_signals_early() -> None:
    """`python -m sim` answers SIGINT and SIGTERM from its first line: while the modules load
    (before sim.cli.main installs its own handlers, which clean up), a signal ends the process
    at once with main's line and status (130, 143), not a traceback of the import it cut. A
    signal ignored from the start (SIGINT in a shell's background job) stays ignored."""
    import os

    import _signal as signal  # (the C module: `signal` itself takes a while to import)

    def early(signum, frame):
        os.write(2, b"sim: interrupted\n" if signum == signal.SIGINT else b"sim: terminated\n")
        os._exit(128 + signum)

    for s in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(s) != signal.SIG_IGN:
            signal.signal(s, early)


if (getattr(sys, "argv", None) or [])[:1] == ["-m"]:  # (`python -m sim` finding its __main__: from here on)
    answer_signals_early()
