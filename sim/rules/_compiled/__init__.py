"""The compiled twins of numpy kernels (Cython, built at install where a C compiler is): the
registry, its modes and its tests are sim.rules.compiled's. Here, what the twins share that is
a Python object: the kinds of array they take, each numpy's array type with numpy's own dtype
object, which sim.rules._compiled.common._all_of tests an input against by identity (a subclass
of the array type, or another dtype, is the reference's to answer)."""

import numpy as np

NDARRAY = np.ndarray
F64 = (NDARRAY, np.dtype(np.float64))
INTP = (NDARRAY, np.dtype(np.intp))
BOOL = (NDARRAY, np.dtype(np.bool_))
