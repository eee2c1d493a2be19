"""Catalogue coverage timed (issue 24): `sim datasheets --coverage FOLDER`'s work over a whole
folder of catalogues (every datasheet built, written into a scenario and loaded), once, with
the baseline of _baseline.py measured in the same run (before and after). The community data
set is not in the repository: export it to a scratch folder and give its path.

    python tests/bench/bench_coverage.py FOLDER
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(Path(__file__).parent)]

import _baseline  # noqa: E402

from sim.importers.coverage import cover  # noqa: E402


def main(folder: str) -> None:
    before = _baseline.measure()
    t = time.perf_counter()
    results = cover(folder)
    s = time.perf_counter() - t
    listed = sum(c.listed for c in results)
    imported = sum(c.imported for c in results)
    print(f"coverage of {len(results)} catalogues: {listed} datasheets listed, {imported} imported, "
          f"{listed - imported} refused: {s:.1f} s ({1000 * s / max(listed, 1):.0f} ms a datasheet)")
    print(_baseline.line(before, _baseline.measure()))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/bsdata11e")
