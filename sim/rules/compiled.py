"""The compiled kernels: one record per numpy kernel that has a compiled twin (Cython, built into
two extensions, sim.rules._compiled.move for the geometry and movement areas and
sim.rules._compiled.sight for the visibility area (EXTENSION), from the Cython files under
sim/rules/_compiled/ (geometry.pxi, movement/ and visibility/: a file for each module whose
kernels it twins, but for movement/legality_hull.pxi, legality's twins for a base that is not
round, and movement/views.pxi, what the movement twins read their inputs through) when the
project is installed and a C compiler is there).

A kernel's numpy function is its reference and stays the rule's home: its docstring names the
section, its tests are named after it. The compiled twin does the same IEEE operations in the
same order entry by entry, so its answers are the reference's to the bit; it is a fast path,
and DESIGN.md admits one only tested equal to its rule on every scenario. (One twin leaves out
arithmetic that only chooses work: ``visibility.umbra_chords`` tests every triple where its
reference picks candidates by angular bins, a superset of the triples that pass; its docstring
gives the margin that makes the answers the same.) Each is held equal so:

- tests/rules/test_compiled_kernels.py holds each pair equal on random inputs;
- the golden replays run in ``check`` mode (tests/replay/test_golden_replays.py): every call
  of every kernel in every scenario runs both and compares them bit for bit (a replay has no
  players: the kernels only players' choices call, tests/replay/test_golden_replays.py's
  PLAYERS_ONLY, are compared so in the players' whole battles of their tests);
- the replays and the statistics of the other Python versions on the machine (which cannot
  load this interpreter's build) run the reference, and must give the same bytes.

Which one runs is the record's mode: ``compiled`` where the extension imports, else
``reference``; the environment variable SIM_KERNELS (``compiled``, ``reference`` or
``check``) chooses at import, ``set_mode`` in a running process (the tests). A compiled kernel
may decline an input (it answers None: e.g. a value that is not a finite number, where
numpy's minimum and a comparison part ways); the reference answers it.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Callable

import numpy as np

MODES = ("compiled", "reference", "check")


class KernelMismatch(AssertionError):
    """``check`` mode: a compiled kernel's answer differs from its reference's."""


class Kernel:
    """One kernel: its name, its numpy reference, its compiled twin (None: not built), and the
    function a call runs in the current mode. Called like the reference."""

    __slots__ = ("name", "reference", "compiled", "checked", "_twin", "_run")

    def __init__(self, name: str, reference: Callable, compiled: Callable | None):
        self.name, self.reference, self.compiled = name, reference, compiled
        self.checked = 0   # (calls compared in ``check`` mode, both answers given)
        self._twin = None  # (``compiled`` mode: the twin, called first; None: ``_run`` alone)
        self._run = reference

    def __call__(self, *args):
        # (one Python frame between a caller and a twin: every kernel call of a battle passes here)
        twin = self._twin
        if twin is not None:
            out = twin(*args)
            if out is not None:
                return out
        return self._run(*args)

    def _check(self, *args):
        out = self.compiled(*args)
        ref = self.reference(*args)
        if out is not None:
            if not _same_bits(out, ref):
                raise KernelMismatch(f"the compiled {self.name} differs from its numpy reference")
            self.checked += 1
        return ref

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown kernel mode {mode!r} (expected one of {', '.join(MODES)})")
        self._twin = self.compiled if mode == "compiled" else None
        self._run = self._check if mode == "check" and self.compiled is not None else self.reference


def _same_bits(a, b) -> bool:
    """The same answer to the bit: arrays of one shape, type and bytes (or tuples of them)."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        return (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)
                and all(map(_same_bits, a, b)))
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


KERNELS: dict[str, Kernel] = {}   # name ("module.function") -> its record, in registration order


def _chosen_mode() -> str:
    """The mode SIM_KERNELS names (unset: ``compiled``); another value is said on stderr and
    left for the default."""
    mode = os.environ.get("SIM_KERNELS", "compiled")
    if mode not in MODES:
        print(f"sim: SIM_KERNELS={mode!r} is not a kernel mode (expected one of {', '.join(MODES)}): "
              f"the compiled kernels run where built", file=sys.stderr)
        return "compiled"
    return mode


# each area's extension (setup.py: two, so the install compiles them on two cores at once)
EXTENSION = {"geometry": "sim.rules._compiled.move", "movement": "sim.rules._compiled.move",
             "visibility": "sim.rules._compiled.sight"}


def kernel(name: str, reference: Callable) -> Kernel:
    """The record of the kernel ``name`` ("area.function": the function of that name in the
    area's extension, EXTENSION, written under _compiled/ in the file named after the reference's
    module, or legality_hull.pxi for legality's hull twins, when built), with its numpy
    ``reference``."""
    area, func = name.split(".")
    try:
        compiled = getattr(importlib.import_module(EXTENSION[area]), func)
    except (ImportError, AttributeError):
        compiled = None   # (not built here: the reference runs)
    k = KERNELS[name] = Kernel(name, reference, compiled)
    k.set_mode(_mode)
    return k


def set_mode(mode: str) -> str:
    """Run every kernel in ``mode`` (one of MODES) from now on; the mode it replaces back."""
    global _mode
    if mode not in MODES:
        raise ValueError(f"unknown kernel mode {mode!r} (expected one of {', '.join(MODES)})")
    before, _mode = _mode, mode
    for k in KERNELS.values():
        k.set_mode(mode)
    return before


def status() -> str:
    """One line for a benchmark's or a report's header: which kernels run compiled."""
    built = [n for n, k in KERNELS.items() if k.compiled is not None]
    if not KERNELS:
        return "compiled kernels: none registered"
    if _mode == "reference" or not built:
        why = "not built" if not built else "reference mode"
        return f"compiled kernels: off ({why}): numpy for all {len(KERNELS)}"
    return f"compiled kernels: {_mode}, {len(built)} of {len(KERNELS)} ({', '.join(built)})"


_mode = _chosen_mode()   # (every kernel registered from now on starts in it)
