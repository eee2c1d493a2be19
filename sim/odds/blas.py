"""The chain's matrices are small (tens to a few thousand states): OpenBLAS's threads cost more
than they bring on them, and on a busy machine far more (a 31-state chain with counters took 15
ms on one thread and over a second with two threads spinning against other processes). While
the odds are worked out, numpy's bundled OpenBLAS is asked to use one thread and given back its
count afterwards; where it cannot be found (another BLAS, another build) nothing changes."""

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
