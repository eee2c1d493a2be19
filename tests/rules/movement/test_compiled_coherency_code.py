"""03.03 sim.rules.coherency._coherency_code (coherency_screen's verdict from bounds alone: 0
surely not coherent, 1 surely, 2 only measuring can tell) and its compiled twin
(sim.rules.compiled: ``movement.coherency_code``) give the same verdict: seeded units of round,
oval and rectangular bases, loose and tight, meeting all three verdicts; pairs whose bounds lie
on a threshold and a hair either side of it, which the twin leaves to the reference inside its
band and answers outside it; and the inputs it leaves to the reference."""

from __future__ import annotations

import importlib
import math
from types import SimpleNamespace

import numpy as np
import pytest

from sim.rules import coherency as CO
from sim.rules import compiled as C
from sim.rules.geometry import Footprint

KERN = C.KERNELS["movement.coherency_code"]
built = pytest.mark.skipif(KERN.compiled is None, reason="the compiled kernels are not built here")
SIZES = [("round", 1.0, 1.0), ("round", 1.26, 1.26), ("round", 1.57, 1.57), ("oval", 3.54, 2.36),
         ("rect", 4.0, 2.5), ("oval", 4.72, 2.95), ("rect", 2.0, 3.0)]


def _unit(rng, n: int, spread: float) -> list[Footprint]:
    """A unit of ``n`` bases, each a few inches on from one before it (``spread`` the most), of
    one size or mixed."""
    mixed = rng.random() < 0.3
    size = SIZES[rng.integers(len(SIZES))]
    x, y = rng.uniform(10, 50, size=2)
    out = []
    for k in range(n):
        s = SIZES[rng.integers(len(SIZES))] if mixed else size
        if k:
            a = rng.uniform(0, 2 * math.pi)
            prev = out[rng.integers(len(out))]
            d = rng.uniform(0.0, spread)
            x, y = prev.x + d * math.cos(a), prev.y + d * math.sin(a)
        out.append(Footprint(s[0], float(x), float(y), s[1], s[2], float(rng.uniform(0, 360))))
    return out


@built
@pytest.mark.parametrize("seed", range(6))
def test_coherency_code_compiled_is_its_reference(seed):
    rng = np.random.default_rng(seed)
    met, declined = set(), 0
    for _ in range(400):
        fps = _unit(rng, int(rng.integers(1, 21)), float(rng.choice([2.5, 4.0, 6.0, 12.0])))
        want = KERN.reference(fps)
        got = KERN.compiled(fps)
        if got is None:
            declined += 1
            continue
        assert got == want, fps
        met.add(want)
    assert met == {0, 1, 2}
    assert declined <= 4     # (only a bound within a nanoinch of a threshold: next to never)


def _pair_at(gap: float, shape=("round", 1.0, 1.0), inner: bool = False) -> list[Footprint]:
    """Two bases whose centres are ``gap`` plus both bounding radii apart (both inner radii:
    ``inner``), along a slanted line (so the centres' distance is a hypot, not a plain
    difference): the pair's lower bound (its upper) is ``gap``, to rounding."""
    a = Footprint(shape[0], 20.0, 30.0, shape[1], shape[2])
    d = gap + 2 * (CO._inner_radius(a) if inner else a.bounding_radius)
    return [a, Footprint(shape[0], 20.0 + d * 0.6, 30.0 + d * 0.8, shape[1], shape[2])]


# (each threshold and the bound compared with it: the lower bound with 9" and 2" plus the
# slack, the upper with them less it)
LIMITS = [(CO.COHERENCY_SPAN + CO._SLACK, False), (CO.COHERENCY_SPAN - CO._SLACK, True),
          (CO.COHERENCY_LINK + CO._SLACK, False), (CO.COHERENCY_LINK - CO._SLACK, True)]


@built
@pytest.mark.parametrize("limit, inner", LIMITS)
@pytest.mark.parametrize("shape", [("round", 1.0, 1.0), ("rect", 4.0, 2.0), ("oval", 3.0, 2.0)])
def test_coherency_code_compiled_at_a_threshold_and_its_bands_edges(limit, inner, shape):
    """On a threshold and within the band: the reference's (the twin declines); beyond the band
    either side: the twin's answer, the reference's."""
    band = importlib.import_module("sim.rules._compiled.move").COHERENCY_BAND
    for shift in (0.0, 1e-15, -1e-15, 1e-12, -1e-12, 0.5 * band, -0.5 * band):
        assert KERN.compiled(_pair_at(limit + shift, shape, inner)) is None
    for shift in (2 * band, -2 * band, 1e-6, -1e-6):
        fps = _pair_at(limit + shift, shape, inner)
        got = KERN.compiled(fps)
        assert got is None or got == KERN.reference(fps)   # (None: the other bound in a band)
        if shape[0] == "round":          # (one bound: nothing else near a threshold)
            assert got is not None


@built
def test_coherency_code_compiled_declines_what_it_does_not_take():
    assert KERN.compiled([]) == KERN.reference([]) == 1
    one = [Footprint("round", 1.0, 2.0, 1.0, 1.0)]
    assert KERN.compiled(one) == 1
    many = [Footprint("round", 1.0 + 1.1 * k, 2.0, 1.0, 1.0) for k in range(65)]
    assert KERN.compiled(many) is None and KERN.reference(many) in (0, 1, 2)
    assert KERN.compiled(many[:64]) == KERN.reference(many[:64])
    nan = [Footprint("round", math.nan, 2.0, 1.0, 1.0), Footprint("round", 3.0, 2.0, 1.0, 1.0)]
    assert KERN.compiled(nan) is None
    inf = [Footprint("round", 1.0, 2.0, 1.0, 1.0), Footprint("rect", 3.0, math.inf, 1.0, 1.0)]
    assert KERN.compiled(inf) is None
    odd = [SimpleNamespace(shape="hex", x=1.0, y=1.0, length=1.0, width=1.0, bounding_radius=0.5)] * 2
    assert KERN.compiled(odd) is None


def test_coherency_code_compiled_constants_are_the_rules():
    kernels = pytest.importorskip("sim.rules._compiled.move")
    assert kernels.COHERENCY_SLACK == CO._SLACK
    assert kernels.COHERENCY_LINK == CO.COHERENCY_LINK and kernels.COHERENCY_SPAN == CO.COHERENCY_SPAN
    assert kernels.COHERENCY_OVAL_INNER == CO._OVAL_INNER


def test_coherency_screen_reads_the_code():
    """The verdicts in coherency_screen's words: False, True, None (the open one)."""
    apart = [Footprint("round", 10.0, 10.0, 1.0, 1.0), Footprint("round", 30.0, 10.0, 1.0, 1.0)]
    close = [Footprint("round", 10.0, 10.0, 1.0, 1.0), Footprint("round", 11.5, 10.0, 1.0, 1.0)]
    edge = _pair_at(CO.COHERENCY_LINK - 1e-7)
    assert [CO.coherency_screen(f) for f in (apart, close, edge)] == [False, True, None]
