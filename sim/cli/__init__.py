"""`sim play | run | stats | ladder | odds | matrix | replay | check | import | datasheets | rules`.
Bad input gets one clear message and exit status 2.

sim.cli.shell: exit statuses, errors, signals and safe output; sim.cli.parser: the arguments;
sim.cli.battles, batches and catalogues: the commands. Modules load lazily, command by command
(`sim --help` imports no numpy)."""

from __future__ import annotations

import sys

from sim.cli.battles import with_players
from sim.cli.parser import _main
from sim.cli.shell import EXIT_INTERRUPTED, EXIT_TERMINATED, Terminated, _Escaped, _stopped_by_signals

__all__ = ["main", "with_players"]  # (with_players: the tests' name for it, as before the split)


def main(argv=None) -> int:
    """The command line. Everything it prints goes through escape_controls (_Escaped: no text
    from a file or argv drives the terminal, argparse's echo of an unknown argument included).
    SIGINT and SIGTERM, at any moment until it returns, end it with one line and the status a
    shell gives a process the signal ended (130, 143; sim/__main__.py covers the imports
    before)."""
    code = _main_escaped(argv)
    if argv is None and "ray" in sys.modules:
        # (the command line itself, after `stats --backend ray`: Ray's threads, still there once
        # ray.shutdown has returned, crashed the interpreter's finalization with SIGSEGV after
        # our last line, most of all after an interrupted start-up; so it is skipped, flushed)
        import os
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    return code


def _main_escaped(argv) -> int:
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Escaped(out), _Escaped(err)
    try:
        with _stopped_by_signals():
            return _main(argv)
    except KeyboardInterrupt:
        print("sim: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print("sim: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    except BrokenPipeError:  # e.g. `sim run ... | head`
        return 0
    finally:
        sys.stdout, sys.stderr = out, err
