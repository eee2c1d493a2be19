# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twins of sim.rules.compiled's visibility records, one extension (the geometry's and
movement's are move.pyx's: two C files, which the install compiles on two cores at once). What
they share with those is sim.rules._compiled.common (.pxd), shared.pxi and the dtype objects of
sim.rules._compiled; the names visibility.pxi reads are imported here, once."""

from libc.math cimport sqrt, hypot, fabs, cos, signbit, INFINITY, NAN
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_STRIDES, PyBUF_WRITABLE

import numpy as np

from sim.rules._compiled.common cimport _min, _max, _clip01, _all_of, _bounded, _finite, _indices
from sim.rules._compiled import BOOL, F64, INTP, NDARRAY

include "shared.pxi"
include "visibility.pxi"
