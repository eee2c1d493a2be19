"""The cyclic garbage a piece of code leaves, found without scanning the whole heap.

A test process's heap holds everything the tests before it made (millions of objects in a
worker of the full suite), and a full collection scans all of it: the leak tests spent ~10 s a
scenario there, against ~0.5 s alone. Here what existed before is set aside first (gc.freeze:
frozen objects are never scanned, and count as alive), the collector is off while the code
runs, and one collection then looks only at what the code made: its cyclic garbage, named."""

from __future__ import annotations

import gc
from typing import Callable


def young_garbage(run: Callable[[], None]) -> tuple[int, list[str]]:
    """Run ``run()`` with the collector off and the heap made before it set aside; the number of
    objects a collection then finds unreachable (cyclic garbage ``run`` made) and their kinds."""
    was_on = gc.isenabled()
    gc.disable()
    gc.freeze()
    gc.set_debug(gc.DEBUG_SAVEALL)  # (keeps what the collection finds, to name it)
    try:
        run()
        found = gc.collect()
        kinds = sorted({type(o).__name__ for o in gc.garbage})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.unfreeze()
        if was_on:
            gc.enable()
    return found, kinds
