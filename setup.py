"""The compiled kernels (sim.rules.compiled), the one part of the build pyproject.toml does not
declare (setuptools still calls its table for extensions experimental): one extension, built
from its Cython source where a C compiler is, and left out where none is (``optional``), the
numpy reference of each kernel then running in its place. ``-ffp-contract=off``: no product
and sum fused into one rounding, so each answer is the reference's to the bit. ``-O2``: the
kernels' instructions are -O3's to a tenth of a percent, and the C file compiles a fifth faster
(the install is on CI's clock). ``-g0``: no debugging information (Python's own flags ask for
it: ``-g``), which nobody reads in an installed kernel and which took a third of the compile
(the 4 MB C file: 21.1 s of gcc with it, 14.2 s without, on the 2-core machine); it changes no
instruction (gcc's rule for -g: the same .text, compared), so every kernel's bits are the same."""

from glob import glob

from setuptools import Extension, setup

setup(ext_modules=[
    # (each area's kernels in sim/rules/_compiled/<area>.pxi, included in kernels.pyx: one C file,
    # Cython's support code compiled once)
    Extension("sim.rules._compiled.kernels", ["sim/rules/_compiled/kernels.pyx"],
              depends=sorted(glob("sim/rules/_compiled/*.pxi") + glob("sim/rules/_compiled/*.pxd")),
              extra_compile_args=["-ffp-contract=off", "-O2", "-g0"], optional=True),
])
