# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twins of sim.rules.compiled's geometry and movement records, one extension (the
sight's are sight.pyx's: two C files, which the install compiles on two cores at once): each
area's kernels in its file, included here. What they share is sim.rules._compiled.common (.pxd),
shared.pxi and the dtype objects of sim.rules._compiled; the names every area's file reads are
imported here, once."""

from libc.math cimport sqrt, hypot, fabs, cos, INFINITY, NAN

import numpy as np

from sim.rules._compiled.common cimport _min, _max, _clip01, _all_of, _bounded, _finite, _indices
from sim.rules._compiled import BOOL, F64, INTP

include "shared.pxi"
include "geometry.pxi"
include "movement.pxi"
