# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twins of sim.rules.compiled's records, one extension built from one C file (so the
install compiles Cython's own support code once, not once an area): each area's kernels in
its file, included here. What they share is sim.rules._compiled.common (.pxd) and the dtype
objects of sim.rules._compiled; the names every area's file reads are imported here, once."""

from libc.math cimport sqrt, hypot, fabs, cos, INFINITY, NAN

import numpy as np

from sim.rules._compiled.common cimport _min, _max, _clip01, _all_of, _bounded, _finite, _indices
from sim.rules._compiled import BOOL, F64, INTP

include "geometry.pxi"
include "movement.pxi"
include "visibility.pxi"
