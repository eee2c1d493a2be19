# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled twins of sim.rules.compiled's geometry and movement records, one extension (the
sight's are sight.pyx's: two C files, which the install compiles on two cores at once): the
geometry's in geometry.pxi (sim.rules.geometry), the movement's in movement/, a file for each
module whose kernels it twins, included here (one compile unit: a file may use what another
declares). What they share is sim.rules._compiled.common (.pxd), shared.pxi and the array kinds
of sim.rules._compiled; the names every file reads are imported here, once.

01.04/13.06 The movement kernels of sim.rules.movement (and of coherency's screen,
sim.rules.coherency, and the players' quick look at a move, sim.players.options), compiled: each
the same IEEE operations in the same order as its numpy reference, entry by entry, so each
answer is the reference's to the bit (sim.rules.compiled: the registry, its modes and its tests).
A NaN goes where numpy's minimum takes it (into the result), not where a comparison would; an
input of another type than float64, or a place that is no finite number, is the reference's
(sim.rules._compiled.common), but where a kernel takes no minimum and says so."""

from libc.math cimport sqrt, hypot, fabs, cos, sin, atan2, rint, INFINITY, NAN

import numpy as np

from sim.rules._compiled.common cimport _min, _max, _clip01, _all_of, _bounded, _finite, _indices
from sim.rules._compiled import BOOL, F64, INTP

include "shared.pxi"
include "geometry.pxi"
include "movement/views.pxi"
include "movement/kernels.pxi"
include "movement/round_paths.pxi"
include "movement/table.pxi"
include "movement/options.pxi"
include "movement/coherency.pxi"
include "movement/legality_hull.pxi"
include "movement/legality.pxi"
include "movement/place.pxi"
include "movement/pile_in.pxi"
include "movement/charge.pxi"
include "movement/placement.pxi"
include "movement/regions.pxi"
include "movement/deployment.pxi"
include "movement/spots.pxi"
