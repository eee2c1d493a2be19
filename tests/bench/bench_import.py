"""Import benchmark (issue 17): listing the datasheets of a ~2 MB catalogue (target under 1 s),
and importing a ~2,000-point roster (target under 200 ms), in both the XML and the JSON form.
The files are made here from the test fixtures' invented units (tests/importers/make_fixtures.py),
copied under new names until they reach the size; medians of 7 runs, with the baseline of
_baseline.py measured in the same run.

    python tests/bench/bench_import.py
"""

from __future__ import annotations

import copy
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests/importers"), str(Path(__file__).parent)]

import make_fixtures as F  # noqa: E402
import _baseline  # noqa: E402

from sim.importers import list_datasheets, load_roster  # noqa: E402


def big_catalogue(folder: Path, target_bytes: int = 2_000_000) -> tuple[Path, Path]:
    cat, lib = F.catalogue(), F.library()
    units = cat["sharedSelectionEntries"][:4]
    shared, links, k = [], [], 0
    while True:
        for u in units:
            c = copy.deepcopy(u)
            c["id"], c["name"] = f"{u['id']}-{k}", f"{u['name']} {k}"
            shared.append(c)
            links.append(F.link(c["id"], c["name"]))
        k += 1
        cat["sharedSelectionEntries"], cat["entryLinks"] = shared, links
        text = json.dumps({"catalogue": cat}, indent=1)
        if len(text) >= target_bytes:
            break
    (folder / "Ashen Concord.json").write_text(text)
    (folder / "Ashen Concord Library.json").write_text(json.dumps({"catalogue": lib}, indent=1))
    (folder / "Test system.json").write_text(json.dumps({"gameSystem": F.game_system()}, indent=1))
    xml_dir = folder / "xml"
    xml_dir.mkdir()
    (xml_dir / "Ashen Concord.cat").write_text(F.to_xml("catalogue", cat, F.CNS))
    (xml_dir / "Ashen Concord Library.cat").write_text(F.to_xml("catalogue", lib, F.CNS))
    (xml_dir / "Test system.gst").write_text(F.to_xml("gameSystem", F.game_system(), F.CNS))
    return folder / "Ashen Concord.json", xml_dir / "Ashen Concord.cat"


def big_roster(folder: Path, points: int = 2000) -> tuple[Path, Path]:
    r = F.roster()
    force = r["forces"][0]
    units = force["selections"][1:]
    out, total = [force["selections"][0]], 0
    while total < points:
        for u in units:
            out.append(copy.deepcopy(u))
        total += 375
    force["selections"] = out
    (folder / "army.json").write_text(json.dumps({"roster": r}))
    (folder / "army.ros").write_text(F.to_xml("roster", r, F.RNS))
    return folder / "army.json", folder / "army.ros"


def median_ms(fn, runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    before = _baseline.measure()
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        cj, cx = big_catalogue(folder)
        rj, rx = big_roster(folder)
        for label, path in (("catalogue JSON", cj), ("catalogue XML", cx)):
            n = len(list_datasheets(path))
            ms = median_ms(lambda: list_datasheets(path))
            print(f"{label}: {path.stat().st_size / 1e6:.2f} MB, {n} datasheets listed: median {ms:.0f} ms "
                  f"(target < 1000 ms)")
        for label, path in (("roster JSON", rj), ("roster XML", rx)):
            army, _ = load_roster(path)
            pts = sum(u.points or 0 for u in army.units)
            ms = median_ms(lambda: load_roster(path))
            print(f"{label}: {path.stat().st_size / 1e3:.0f} KB, {len(army.units)} units, {pts} pts: "
                  f"median {ms:.0f} ms (target < 200 ms)")
    print(_baseline.line(before, _baseline.measure()))


if __name__ == "__main__":
    main()
