"""The compiled kernels (sim.rules.compiled), the one part of the build pyproject.toml does not
declare (setuptools still calls its table for extensions experimental): each built from its
Cython source where a C compiler is, and left out where none is (``optional``), the numpy
reference of each kernel then running in its place. ``-ffp-contract=off``: no product and sum
fused into one rounding, so each answer is the reference's to the bit."""

from setuptools import Extension, setup

KERNELS = ("geometry", "movement", "visibility")   # sim/rules/_compiled/<name>.pyx

setup(ext_modules=[
    Extension(f"sim.rules._compiled.{name}", [f"sim/rules/_compiled/{name}.pyx"],
              extra_compile_args=["-ffp-contract=off"], optional=True)
    for name in KERNELS
])
