"""The command line's process: its exit statuses, its one-line errors, every line it prints made safe
for a terminal (_Escaped), and SIGINT and SIGTERM answered with one line (_stopped_by_signals)."""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager


EXIT_BAD_INPUT = 2


def _err(msg: str) -> int:
    print(f"sim: {_line(msg)}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _line(text: str) -> str:
    """``text`` as one line that cannot drive the terminal: a message may quote a path from the
    command line or a log, and a file's name may hold a newline or an escape sequence."""
    from sim.errors import escape_controls
    return escape_controls(str(text))


EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT), as a shell reports it


EXIT_TERMINATED = 143  # SIGTERM (128 + SIGTERM)


class Terminated(BaseException):
    """SIGTERM, raised in the main thread as Ctrl-C raises KeyboardInterrupt."""


def _stop(signum, frame):
    """SIGINT or SIGTERM: raise KeyboardInterrupt or Terminated (both ignored from now on). In
    the middle of an import (the modules load lazily, command by command) the process ends at
    once instead, with the same line and status: an exception there can come out as another
    (numpy turns it into an ImportError of its C core), and nothing is open yet to clean up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    f = frame
    while f is not None:
        if f.f_code.co_filename.startswith("<frozen importlib"):
            import os
            sys.stderr.flush()
            os.write(2, b"sim: interrupted\n" if signum == signal.SIGINT else b"sim: terminated\n")
            os._exit(EXIT_INTERRUPTED if signum == signal.SIGINT else EXIT_TERMINATED)
        f = f.f_back
    raise KeyboardInterrupt if signum == signal.SIGINT else Terminated


@contextmanager
def _stopped_by_signals():
    """While the block runs, SIGINT raises KeyboardInterrupt and SIGTERM raises Terminated,
    once: the first of them ignores both until the block ends, so cleaning up (ending a pool
    of workers) is not cut short by a second. The handlers before are put back after. Inside
    a block already (main's), nothing changes; a signal ignored from the start (a shell's
    background job: SIGINT) stays ignored; outside the main thread (which alone handles
    signals), nothing changes."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is _stop):
        yield
        return
    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    for s, h in old.items():
        if h is not signal.SIG_IGN:
            signal.signal(s, _stop)
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h if h is not None else signal.SIG_DFL)


class _Escaped:
    """A text stream writing to ``unescaped`` with each line through escape_controls (the
    newlines kept): the one place the command line's output is made safe for a terminal."""

    def __init__(self, unescaped):
        self.unescaped = unescaped

    def write(self, text: str) -> int:
        from sim.errors import escape_controls
        self.unescaped.write("\n".join(escape_controls(line) for line in text.split("\n")))
        return len(text)

    def __getattr__(self, name):  # (flush, isatty, encoding... as the stream's)
        return getattr(self.unescaped, name)
