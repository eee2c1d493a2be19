# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twins of sim.rules.compiled's visibility records, one extension (the geometry's and
movement's are move.pyx's: two C files, which the install compiles on two cores at once). What
they share with those is sim.rules._compiled.common (.pxd), shared.pxi and the array kinds of
sim.rules._compiled; the names the files of visibility/ read are imported here, once.

06.01/13.08/13.11 The sight kernels of sim.rules.visibility, compiled: each the same IEEE
operations in the same order as its numpy reference, entry by entry, so each answer is the
reference's to the bit (sim.rules.compiled: the registry, its modes and its tests). A NaN goes
where numpy's minimum and maximum take it (into the result), not where a comparison would; an
input of another type than numpy's float64 and index types, an index out of range, or (where
the answer is a number) a value that is no finite number, is the reference's
(sim.rules._compiled.common). The twins of each module of sim/rules/visibility are in the file
of visibility/ named after it, included below (one compile unit: a file may use what another
declares)."""

from libc.math cimport sqrt, hypot, fabs, cos, signbit, INFINITY, NAN
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_STRIDES, PyBUF_WRITABLE

import numpy as np

from sim.rules._compiled.common cimport _min, _max, _clip01, _all_of, _bounded, _finite, _indices
from sim.rules._compiled import BOOL, F64, INTP

include "shared.pxi"
include "visibility/kernels.pxi"
include "visibility/batch.pxi"
include "visibility/certs.pxi"
include "visibility/pairs.pxi"
include "visibility/umbra.pxi"
include "visibility/hull_full.pxi"
include "visibility/full.pxi"
include "visibility/index.pxi"
