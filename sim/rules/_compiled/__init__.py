"""The compiled twins of numpy kernels (Cython, built at install where a C compiler is): the
registry, its modes and its tests are sim.rules.compiled's."""
