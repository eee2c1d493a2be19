# cython: language_level=3
"""What every compiled kernel shares (sim.rules.compiled): numpy's way with a NaN in a minimum,
a maximum and a clip, and the checks that leave to the reference an input numpy would compute
differently (another floating type) or that a twin does not take (an index out of range)."""


cdef inline double _min(double a, double b) nogil:
    """numpy's minimum of two numbers: a NaN of either is the answer."""
    return a if (a <= b or a != a) else b


cdef inline double _max(double a, double b) nogil:
    """numpy's maximum of two numbers: a NaN of either is the answer."""
    return a if (a >= b or a != a) else b


cdef inline double _clip01(double t) nogil:
    """numpy's clip to [0, 1] (a NaN stays)."""
    t = 0.0 if t < 0.0 else t
    return 1.0 if t > 1.0 else t


cdef inline bint _all_of(tuple arrays, tuple kind):
    """Every one exactly a numpy array (no subclass: a matrix or a masked array is the reference's
    to answer, in its own type) of exactly this numpy type (``kind``: sim.rules._compiled's F64,
    INTP or BOOL, the array type with numpy's own dtype object). numpy computes in the type it is
    given, so an input of another type (float32, integers of another size) is the reference's to
    answer; tests of identity, not equality, cost an attribute read each."""
    cdef object nd = kind[0]
    cdef object dtype = kind[1]
    for a in arrays:
        if type(a) is not nd or a.dtype is not dtype:
            return False
    return True


cdef inline bint _finite(const double[:] a) nogil:
    """Every value a finite number (an infinity's arithmetic makes NaNs whose sign bit is the
    processor's way, not numpy's: the reference answers)."""
    cdef Py_ssize_t i
    for i in range(a.shape[0]):
        if not (a[i] - a[i] == 0.0):
            return False
    return True


cdef inline bint _bounded(const double[:] a, double limit) nogil:
    """Every value under ``limit`` in size (a NaN is not): where the arithmetic cannot overflow,
    no NaN or infinity is made inside, and a plain comparison is numpy's minimum."""
    cdef Py_ssize_t i
    for i in range(a.shape[0]):
        if not (-limit < a[i] < limit):
            return False
    return True


cdef inline bint _indices(const Py_ssize_t[:] idx, Py_ssize_t n) nogil:
    """Every index within [0, n) (numpy reads a negative one from the end, or raises)."""
    cdef Py_ssize_t i
    for i in range(idx.shape[0]):
        if idx[i] < 0 or idx[i] >= n:
            return False
    return True
