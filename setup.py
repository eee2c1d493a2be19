"""The compiled kernels (sim.rules.compiled), the one part of the build pyproject.toml does not
declare (setuptools still calls its table for extensions experimental): two extensions, the
geometry and movement kernels' (sim/rules/_compiled/move.pyx) and the sight's (sight.pyx), built
from their Cython sources where a C compiler is, and left out where none is (``optional``), the
numpy reference of each kernel then running in its place. Two, not one, so that the install
turns them into C and compiles them on two cores at once (``nthreads``, ``parallel``): gcc
took 14.2 s of the one 4 MB C file, and takes 9.2 s and 7.5 s of the two side by side, each with
its own copy of Cython's support code (~1 MB of C, ~2.7 s). ``-ffp-contract=off``: no product
and sum fused into one rounding, so each answer is the reference's to the bit. ``-O2``: the
kernels' instructions are -O3's to a tenth of a percent, and the C compiles a fifth faster (the
install is on CI's clock). ``-g0``: no debugging information (Python's own flags ask for it:
``-g``), which nobody reads in an installed kernel and which took a third of the compile (21.1 s
of gcc with it, 14.2 s without, for the one C file there was); it changes no instruction (gcc's
rule for -g: the same .text, compared), so every kernel's bits are the same."""

from glob import glob

from Cython.Build import cythonize
from setuptools import Extension, setup

_DEPENDS = sorted(glob("sim/rules/_compiled/**/*.pxi", recursive=True) + glob("sim/rules/_compiled/*.pxd"))
_FLAGS = ["-ffp-contract=off", "-O2", "-g0"]

setup(
    # (the kernels in sim/rules/_compiled/geometry.pxi, movement/ and visibility/, a file for each
    # module whose kernels it twins, included in its extension's .pyx)
    ext_modules=cythonize([
        Extension(f"sim.rules._compiled.{name}", [f"sim/rules/_compiled/{name}.pyx"], depends=_DEPENDS,
                  extra_compile_args=_FLAGS, optional=True)
        for name in ("move", "sight")
    ], nthreads=2, quiet=True),
    options={"build_ext": {"parallel": 2}},
)
