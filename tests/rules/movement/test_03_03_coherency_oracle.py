"""03.03 Unit coherency against the independent brute-force oracle
(tests/rules/movement/_move_oracle.py: edge-to-edge distances from the bases' own outlines, the
2" links searched by hand): the engine's problems (``coherency_problems``, and
``end_coherency_problems``, check 9 of check_move, which asks the bounds of ``coherency_screen``
first) name the same models for the same reasons wherever the oracle is sure (no distance within
0.03" of 2" or 9"), and the screen's bounds never contradict the measure. Deliberate mutations
(links of 2.2", a 9.5" span, a screen trusting the bounding circles) make the comparison
fail."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from sim.rules import compiled as C
from sim.rules import coherency as COH
from sim.rules.coherency import coherency_problems, coherency_screen
from sim.rules.geometry import footprint, round_base
from sim.rules.movement.legality import end_coherency_problems, end_coherent

from _move_oracle import base_shape, coherency_verdict, disagreements, distance

N_UNITS = 250


def random_unit(rng):
    """2-8 models (round, oval or rectangular bases) scattered about one spot, 1.5"-12" wide."""
    x, y = rng.uniform(5, 25, size=2)
    spread = rng.choice([1.5, 3.0, 6.0, 12.0])
    out = []
    for k in range(rng.integers(2, 9)):
        cx, cy = x + rng.uniform(-spread, spread), y + rng.uniform(-spread, spread)
        kind = rng.integers(0, 4)
        if kind < 2:
            fp = round_base(int(rng.choice([25, 32, 40, 60])), cx, cy)
        else:
            length = rng.uniform(1.5, 5.0)
            fp = footprint("oval" if kind == 2 else "rect", cx, cy, length, rng.uniform(1.0, length),
                           rng.uniform(0, 360))
        out.append((f"m{k}", fp))
    return out


@functools.lru_cache(maxsize=1)
def random_units():
    rng = np.random.default_rng(303)
    out = []
    for _ in range(N_UNITS):
        unit = random_unit(rng)
        ids, fps = [m for m, _ in unit], [f for _, f in unit]
        out.append((ids, fps, coherency_verdict(ids, [base_shape(f) for f in fps])))
    return out


def test_03_03_coherency_matches_the_oracle_on_random_units():
    answers = {True: 0, False: 0, None: 0}
    for ids, fps, verdict in random_units():
        probs = coherency_problems(list(zip(ids, fps)))
        assert disagreements(verdict, probs) == [], (ids, fps, [str(p) for p in probs])
        assert end_coherency_problems(ids, fps) == probs
        for a in verdict.values():
            answers[a] += 1
        # the screen's bounds, where they decide, agree with the measure
        sure = coherency_screen(fps)
        if sure is not None:
            assert sure == (not probs)
        assert end_coherent(ids, fps) == (not probs)
    assert answers[True] > 500 and answers[False] > 500 and answers[None] < 0.01 * sum(answers.values())


def test_03_03_the_screen_decides_clear_cases_and_leaves_the_edge_to_measuring():
    d = 32 / 25.4
    row = [round_base(32, 5 + k * (d + 1.0), 5) for k in range(3)]           # 1" gaps
    assert coherency_screen(row) is True
    apart = [round_base(32, 5, 5), round_base(32, 5 + d + 3.0, 5)]             # 3" gap
    assert coherency_screen(apart) is False
    edge = [round_base(32, 5, 5), round_base(32, 5 + d + 2.0, 5)]              # exactly 2"
    assert coherency_screen(edge) is None and end_coherent(["a", "b"], edge)
    long = [round_base(32, 5 + k * (d + 1.9), 5) for k in range(5)]            # links hold, 9" span broken
    assert coherency_screen(long) is False or coherency_screen(long) is None
    assert not end_coherent([f"m{k}" for k in range(5)], long)
    # an oval's inner circle is a little less than its half width: 2" apart edge to edge
    # along the minor axis is left to measuring, well inside it is sure
    ov = [footprint("oval", 5, 5, 4.0, 2.0), footprint("oval", 5, 5 + 2.0 + 1.0, 4.0, 2.0)]
    assert coherency_screen(ov) is True
    far = [footprint("oval", 5, 5, 4.0, 2.0), footprint("oval", 5, 5 + 2.0 + 2.0 - 1e-9, 4.0, 2.0)]
    assert coherency_screen(far) is None
    assert math.isclose(distance(base_shape(far[0]), base_shape(far[1])), 2.0, abs_tol=1e-6)
    assert end_coherent(["a", "b"], far)


MUTATIONS = {   # name: (attribute of sim.rules.coherency, its mutated value)
    "links of 2.2\"": ("COHERENCY_LINK", 2.2),
    "a span of 9.5\"": ("COHERENCY_SPAN", 9.5),
    "a screen trusting the bounding circles": ("_inner_radius", lambda f: f.bounding_radius),
}


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_03_03_the_oracle_catches_a_mutated_coherency_check(monkeypatch, name):
    # (the screen's numpy-free reference mutated: its compiled twin, held to it by
    # tests/rules/movement/test_compiled_coherency_code.py, would answer instead)
    monkeypatch.setattr(C.KERNELS["movement.coherency_code"], "_twin", None)
    monkeypatch.setattr(COH, *MUTATIONS[name])
    for ids, fps, verdict in random_units():
        if disagreements(verdict, end_coherency_problems(ids, fps)):
            return
    pytest.fail(f"the random units never noticed: {name}")
