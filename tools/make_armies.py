"""Full-size armies from a catalogue folder, as a scenario deployed by the rules (issue 24 item 5).

    python tools/make_armies.py CATALOGUES --red Necrons --blue Orks --seed 1 --out battle.toml

For each of the two factions (a catalogue file in the folder, named with or without its
extension), the script picks an army of about ``--units`` units (default 20) and at most
``--points`` points (default 2,000) out of the datasheets the importer reads, the same for the
same seed: a few CHARACTERs (each datasheet once), BATTLELINE units, then a mix of infantry,
vehicles, monsters and the rest (at most three of a datasheet, six of a BATTLELINE one); with
points left, its infantry grows to bigger squads. Each unit is the catalogue's default unit as
`sim import datasheet` builds it (default wargear; the model count the script chose), so it
holds only what the importer keeps: names, numbers and keywords, never rules text.

The scenario is written on the table of scenarios/battle_default.toml (its terrain, its mission)
with ``deployment = "rules"``: no unit has positions, the players deploy them (26 steps 5-11).
It is checked by the scenario loader before it is written. A bad argument or a file the
importer refuses is one line on standard error and exit status 2.

Why a script and not a `sim` subcommand: a random army is what the project needs to measure and
test full-size battles; a player brings their own roster (`sim import roster`)."""

from __future__ import annotations

import argparse
import random
import sys
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sim.errors import ImportFileError, ScenarioError  # noqa: E402
from sim.importers import model as M  # noqa: E402
from sim.importers.bases import BaseTable  # noqa: E402
from sim.importers.catalogue import Catalogue  # noqa: E402
from sim.importers.roster import Assembler  # noqa: E402
from sim.importers.scenario import dump, merge_weapons, unit_data  # noqa: E402
from sim.importers.transport import army_passengers, worth_splitting  # noqa: E402
from sim.scenario import load as L  # noqa: E402

TABLE = ROOT / "scenarios" / "battle_default.toml"
CATALOGUE_EXT = (".json", ".cat", ".catz")
CHARACTERS = 3  # CHARACTER units first
BATTLELINE = 4  # then BATTLELINE units
MIX = ("infantry", "vehicle", "infantry", "monster", "other", "vehicle")  # then these, in turn
MAX_COPIES, MAX_BATTLELINE = 3, 6
HEADER = ("A generated army (tools/make_armies.py): datasheets of the community catalogues, names,\n"
          "numbers and keywords only (no rules text). Deployed by the rules (26 steps 5-11).")


@dataclass(frozen=True)
class Sheet:
    """A datasheet the importer reads: its entry, default unit and what the picker needs."""

    name: str
    entry: dict
    unit: M.Unit
    points: int
    kind: str  # character, battleline, infantry, vehicle, monster, other
    unique: bool  # a CHARACTER or EPIC HERO: at most once


def fail(msg: str) -> None:
    print(f"error: {msg}", file=sys.stderr)
    raise SystemExit(2)


def catalogue_path(folder: Path, faction: str) -> Path:
    """The faction's catalogue in ``folder`` (by file name, with or without its extension)."""
    p = folder / faction
    if p.is_file():
        return p
    for ext in CATALOGUE_EXT:
        if (folder / (faction + ext)).is_file():
            return folder / (faction + ext)
    names = sorted(q.stem for q in folder.iterdir() if q.suffix in CATALOGUE_EXT) if folder.is_dir() else []
    fail(f"{folder}: expected a catalogue named {faction!r} (one of: {', '.join(names[:50]) or 'none'}), "
         f"found none")


def _kind(unit: M.Unit) -> str:
    kws = set(unit.keywords) | {k for m in unit.models for k in m.keywords}
    if "CHARACTER" in kws:
        return "character"
    if "BATTLELINE" in kws:
        return "battleline"
    for k in ("INFANTRY", "VEHICLE", "MONSTER"):
        if k in kws:
            return k.lower()
    return "other"


def sheets(cat: Catalogue, bases: BaseTable) -> list[Sheet]:
    """Every datasheet of the catalogue whose default unit the importer reads and that has
    points, in the catalogue's order; not a FORTIFICATION nor a [Legends] one (as a matched
    play army)."""
    out = []
    for e in cat.datasheets():
        try:
            sel, _ = cat.build(e)
            u = Assembler(cat.file, bases).assemble(sel, "datasheet")
        except ImportFileError:
            continue
        kws = set(u.keywords) | {k for m in u.models for k in m.keywords}
        if not u.points or u.points <= 0 or "FORTIFICATION" in kws or "[legends]" in u.name.casefold():
            continue
        out.append(Sheet(u.name, e, u, u.points, _kind(u), bool(kws & {"CHARACTER", "EPIC HERO"})))
    return out


def pick(pool: list[Sheet], rng: random.Random, points: int, units: int) -> list[Sheet]:
    """About ``units`` datasheets of at most ``points`` in all (README "Full-size armies")."""
    chosen: list[Sheet] = []
    copies: dict[str, int] = {}
    left = points
    cheapest = min((s.points for s in pool), default=0)
    plan = ["character"] * CHARACTERS + ["battleline"] * BATTLELINE
    while len(plan) < units:
        plan.append(MIX[(len(plan) - CHARACTERS - BATTLELINE) % len(MIX)])
    for i, want in enumerate(plan[:units]):
        rest = units - i - 1
        cap = min(left - rest * cheapest, max(2.5 * left / (rest + 1), cheapest))

        def allowed(s: Sheet) -> bool:
            n = copies.get(s.name, 0)
            return s.points <= cap and n < (1 if s.unique else MAX_BATTLELINE if s.kind == "battleline"
                                             else MAX_COPIES)
        fits = [s for s in pool if allowed(s) and s.kind == want]
        if not fits:  # none of that kind left: any but a CHARACTER
            fits = [s for s in pool if allowed(s) and s.kind != "character"] or [s for s in pool if allowed(s)]
        if not fits:
            break
        s = rng.choice(fits)
        chosen.append(s)
        copies[s.name] = copies.get(s.name, 0) + 1
        left -= s.points
    return chosen


def grow(cat: Catalogue, bases: BaseTable, chosen: list[Sheet], points: int) -> list[tuple[Sheet, int | None]]:
    """With points left, BATTLELINE and infantry units twice their size (or as big as the
    datasheet allows), in the order chosen, while the army stays within ``points``."""
    out: list[tuple[Sheet, int | None]] = [(s, None) for s in chosen]
    left = points - sum(s.points for s in chosen)
    for i, s in enumerate(chosen):
        if s.kind not in ("battleline", "infantry") or left <= 0:
            continue
        n = sum(m.count for m in s.unit.models)
        for size in (2 * n, n + n // 2):
            if size <= n:
                continue
            try:
                sel, _ = cat.build(s.entry, size)
                u = Assembler(cat.file, bases).assemble(sel, "datasheet")
            except ImportFileError:
                continue
            extra = (u.points or 0) - s.points
            if 0 <= extra <= left:
                out[i] = (s, size)
                left -= extra
                break
    return out


def army(folder: Path, faction: str, seed: int, points: int, units: int, taken=(),
         warn=None) -> tuple[list[M.Unit], dict]:
    """The faction's army: its units (ids not in ``taken``) and the weapons they use. When
    its datasheets are too dear for about ``units`` of them within ``points`` (a knights
    library), as many as the cheapest allow; none at all fits: refused. ``warn(text)`` is told
    what the catalogue loses to a catalogue missing from the folder (its datasheets left out)."""
    path = catalogue_path(folder, faction)
    cat = Catalogue(path)
    if warn is not None:
        for w in cat.warnings():
            warn(f"{Path(path).name}: {w}")
    bases = BaseTable(None)
    pool = sheets(cat, bases)
    if not pool:
        fail(f"{path}: expected a catalogue with datasheets the importer reads, found none")
    picked = pick(pool, random.Random(f"{seed}:{Path(path).stem}"), points, units)
    cheapest = min(s.points for s in pool)
    if not picked and points // cheapest:
        picked = pick(pool, random.Random(f"{seed}:{Path(path).stem}"), points, min(units, points // cheapest))
    if not picked:
        fail(f"{path}: expected datasheets that make an army of at most {points} points, found none "
             f"(the cheapest is {cheapest} points)")
    chosen = grow(cat, bases, picked, points)
    asm = Assembler(cat.file, bases, taken_ids=taken)
    out = []
    for s, size in chosen:
        sel, _ = cat.build(s.entry, size)
        out.append(asm.assemble(sel, f"datasheets[{s.name[:60]!r}]"))
    return worth_splitting(army_passengers(out)), asm.weapons


def scenario(folder: Path, red: str, blue: str, seed: int = 1, points: int = 2000, units: int = 20,
             table: Path = TABLE, file: str = "<generated>", warn=None) -> str:
    """The scenario text: ``red`` and ``blue`` armies on ``table``'s terrain and mission,
    deployed by the rules, checked by the scenario loader (``warn``: as ``army``'s; what it is
    told is also written in the text's head)."""
    base = tomllib.loads(Path(table).read_text(encoding="utf-8"))
    weapons: dict[str, dict] = {}
    armies = []
    taken: set[str] = set()
    totals: list[str] = []
    warnings: list[str] = []

    def note(text: str) -> None:
        warnings.append(text)
        if warn is not None:
            warn(text)
    for side, faction in (("Red", red), ("Blue", blue)):
        us, ws = army(folder, faction, seed, points, units, taken, note)
        taken |= {u.id for u in us}
        renames = merge_weapons(weapons, ws)
        rows = []
        for u in us:
            u = replace(u, models=tuple(replace(m, weapons=tuple(renames[w] for w in m.weapons)) for m in u.models))
            d = unit_data(u, [[(0.0, 0.0)] * m.count for m in u.models])
            for m in d["models"]:
                del m["at"]  # deployed by the players (26 step 8)
            rows.append(d)
        stem = Path(catalogue_path(folder, faction)).stem
        totals.append(f"{side}: {stem}, {len(us)} units, {sum(u.points or 0 for u in us)} pts")
        armies.append({"name": stem[:60], "units": rows})
    mission = dict(base.get("mission", {}))
    mission["deployment"] = "rules"
    mission.pop("deployed", None)
    doc = {"battle": {"name": f"{Path(red).stem} v {Path(blue).stem}"[:100], "seed": seed,
                      "board": base["battle"].get("board", [60, 44])},
           "mission": mission, "terrain": base.get("terrain", []), "weapons": weapons, "armies": armies}
    text = dump(doc, HEADER + "\n" + "\n".join(totals + [f"warning: {w}" for w in warnings]))
    try:
        L.parse_scenario(tomllib.loads(text), file)
    except ScenarioError as e:
        fail(f"{file}: {e.path}: expected {e.expected}, found {e.found} (the generated scenario)")
    return text


def main(argv=None) -> int:
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("folder", help="the catalogue folder (the catalogues, their libraries, the game system)")
    a.add_argument("--red", required=True, help="the red army's catalogue (file name, extension optional)")
    a.add_argument("--blue", required=True, help="the blue army's catalogue")
    from sim import options as OPT
    a.add_argument("--seed", type=OPT.seed, default=1, help="the picks' seed and the battle's (default 1)")
    a.add_argument("--points", type=OPT.whole(1, 100_000, "points"), default=2000,
                   help="each army's points at most (default 2000)")
    a.add_argument("--units", type=OPT.whole(1, 100, "units"), default=20, help="units per army, about (default 20)")
    a.add_argument("--table", default=str(TABLE), help="the scenario whose terrain and mission are used")
    a.add_argument("--out", help="the scenario file to write (default: standard output)")
    args = a.parse_args(argv)
    if not 1 <= args.units <= 100 or not 1 <= args.points <= 100_000:
        fail(f"--units 1-100 and --points 1-100000 expected, found {args.units} and {args.points}")
    try:
        text = scenario(Path(args.folder), args.red, args.blue, args.seed, args.points, args.units,
                        Path(args.table), args.out or "<stdout>",
                        warn=lambda w: print(f"warning: {w}", file=sys.stderr))
    except ImportFileError as e:
        fail(str(e))
    except (OSError, tomllib.TOMLDecodeError) as e:
        fail(f"{args.table}: expected a readable scenario, found {e}")
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
