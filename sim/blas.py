"""numpy's bundled OpenBLAS on one thread, while the simulator works: its matrices are small,
and OpenBLAS's threads cost more than they bring on them, and on a busy machine far more.

- The odds' chains (tens to a few thousand states: sim.odds.engine): a 31-state chain with
  counters took 15 ms on one thread and over a second with two threads spinning against other
  processes.
- A headless battle (sim.players.runner.frozen_heap): the placement solver's and the regions'
  few matrix products hand a second thread work now and then, and that thread then spins,
  waiting for more, on the other core: 3.3% of the samples of a 4,000-point battle were
  OpenBLAS's thread server, its products 0.1%; the battle took 5-12% less CPU time on one
  thread, the same events to the bit.

``one_thread`` asks for one thread and gives the count back afterwards; where OpenBLAS cannot
be found (another BLAS, another build) nothing changes."""

from __future__ import annotations

import ctypes
import functools
import glob
import os
from contextlib import contextmanager

import numpy as np


@functools.lru_cache(maxsize=1)
def _openblas():
    """(get, set) of the thread count of numpy's bundled OpenBLAS, or None."""
    libs = os.path.join(os.path.dirname(np.__file__), os.pardir, "numpy.libs")
    for path in sorted(glob.glob(os.path.join(libs, "*openblas*"))):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for prefix, suffix in (("scipy_openblas", "64_"), ("scipy_openblas", ""), ("openblas", "")):
            get = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
            put = getattr(lib, f"{prefix}_set_num_threads{suffix}", None)
            if get is not None and put is not None:
                return get, put
    return None


@contextmanager
def one_thread():
    fns = _openblas()
    if fns is None:
        yield
        return
    get, put = fns
    before = get()
    if before != 1:
        put(1)
    try:
        yield
    finally:
        if before != 1:
            put(before)
