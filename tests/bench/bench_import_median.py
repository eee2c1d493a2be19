"""Catalogue import of a whole data set, timed datasheet by datasheet (issue 25: the hardened
importers must be no slower): each catalogue of FOLDER read once (sim.importers.catalogue,
one shared Folder, as `sim datasheets --coverage` reads them), then each datasheet it lists
built and written into a scenario (load_datasheet + into_scenario, as the coverage tool does),
each timed alone (CPU time of this process: the machine is shared). Prints the median and the 90th percentile per datasheet, the median
catalogue read, the total, and the baseline of _baseline.py measured before and after, in the
same run. The community data set is not in the repository: export it to a scratch folder.

    python tests/bench/bench_import_median.py FOLDER [NAME]   # NAME: only the catalogues whose file name holds it

SIM_ROOT=/path/to/a/checkout times that checkout's importers instead of this one's (a
before/after pair in the same session).
"""

from __future__ import annotations

import hashlib
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(os.environ.get("SIM_ROOT") or Path(__file__).resolve().parents[2])
sys.path[:0] = [str(ROOT), str(Path(__file__).parent)]

import _baseline  # noqa: E402

from sim.errors import ImportFileError, ScenarioError  # noqa: E402
from sim.importers import into_scenario, load_datasheet  # noqa: E402
from sim.importers.bsdata import clean_name, text  # noqa: E402
from sim.importers.catalogue import Catalogue  # noqa: E402
from sim.importers.coverage import catalogue_files  # noqa: E402
from sim.importers.library import Folder  # noqa: E402


def main(folder: str, only: str = "") -> None:
    before = _baseline.measure()
    shared = Folder(folder)
    per_sheet, per_cat, refused = [], [], 0
    digest = hashlib.sha256()  # every scenario written (or error), every listing: the same before and after
    t_all = time.process_time()
    for path in catalogue_files(folder):
        if only and only.casefold() not in path.name.casefold():
            continue
        t = time.process_time()
        try:
            cat = Catalogue(path, folder=shared)
            sheets = cat.datasheets()
        except (ImportFileError, ScenarioError):
            continue
        per_cat.append(time.process_time() - t)
        for entry in sheets:
            name = clean_name(text(entry, "name"))
            t = time.process_time()
            try:
                army, rep = load_datasheet(path, name, catalogue=cat)
                written = into_scenario(army, "red", None, str(path), name, rep)
            except (ImportFileError, ScenarioError) as e:
                refused += 1
                written = str(e)
            per_sheet.append(time.process_time() - t)
            digest.update(f"{path.name}\0{name}\0{written}\0".encode())
        for e in sheets:
            try:
                digest.update(repr(cat.summary(e)).encode())
            except (ImportFileError, ScenarioError) as err:
                digest.update(str(err).encode())
    total = time.process_time() - t_all
    after = _baseline.measure()
    q = statistics.quantiles(per_sheet, n=10)
    print(f"{ROOT}: {len(per_cat)} catalogues, {len(per_sheet)} datasheets ({refused} refused) in {total:.1f} s")
    print(f"per datasheet: median {1000 * statistics.median(per_sheet):.1f} ms, p90 {1000 * q[-1]:.1f} ms; "
          f"catalogue read: median {1000 * statistics.median(per_cat):.0f} ms")
    print(f"digest of every datasheet's scenario text or error and listing: {digest.hexdigest()[:16]}")
    print(_baseline.line(before, after))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/imp-bsdata", sys.argv[2] if len(sys.argv) > 2 else "")
