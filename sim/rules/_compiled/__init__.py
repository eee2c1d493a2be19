"""The compiled twins of numpy kernels (Cython, built at install where a C compiler is): the
registry, its modes and its tests are sim.rules.compiled's. Here, what the twins share that is
a Python object: numpy's own dtype objects, which sim.rules._compiled.common._all_of tests an
input's type against by identity."""

import numpy as np

F64 = np.dtype(np.float64)
INTP = np.dtype(np.intp)
BOOL = np.dtype(np.bool_)
