"""Issue 13: a generated corpus of hostile input files for the command line.

``specs()`` lists every case, cheaply and always in the same order; ``generate(folder)`` writes
the files (all of them, or the cases picked by index) under ``folder`` and returns one ``Case``
per file: its path, its kind ("scenario" or "log"), the exit status the CLI must give (2 for bad
input, 1 for a log that is well-formed but whose battle diverges) and the command to run. The
files are made from the shipped scenarios and their golden logs with one thing broken each, or
are junk of their own; nothing is random but seeded, so the same call writes the same bytes.

The test that runs them is test_hostile_corpus.py.
"""

from __future__ import annotations

import copy
import hashlib
import datetime as dt
import json
import math
import os
import random
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, NamedTuple

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "scenarios"

# Outside files a log may try to reach: their content must never reach the output.
SECRET = "TOPSECRET-corpus-3f9a1c"
SECRET_ENV = "HOSTILE_CORPUS_SECRET"  # set (to SECRET) in the environment of every run


class Case(NamedTuple):
    path: Path  # the hostile file
    kind: str  # "scenario" or "log"
    expected_exit: int  # 2: bad input; 1: a well-formed log whose battle diverges
    name: str  # unique, "<kind>/<category>/<what>"
    category: str
    argv: tuple[str, ...]  # the command line after `sim`
    names: Path  # the file the one line of output must start with (usually ``path``)
    forbidden: tuple[str, ...] = ()  # text that must not appear in the output


@dataclass(frozen=True)
class Spec:
    """A case before its file is written: ``build(folder)`` writes it and returns
    (path, argv, names, forbidden)."""

    kind: str
    category: str
    what: str
    expected_exit: int
    build: Callable[[Path], tuple[Path, tuple[str, ...], Path, tuple[str, ...]]]

    @property
    def name(self) -> str:
        return f"{self.kind}/{self.category}/{self.what}"


# --- a small TOML writer (tomllib only reads) ----------------------------------------------------

class Raw(str):
    """TOML text written as it is (nan, a number of 5000 digits, nesting 5000 deep)."""


_BARE = re.compile(r"[A-Za-z0-9_-]+\Z")


def toml_string(s: str) -> str:
    out = []
    for c in s:
        if c in '"\\':
            out.append("\\" + c)
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def toml_key(k: str) -> str:
    return k if _BARE.match(k) else toml_string(k)


def toml_value(v) -> str:
    if isinstance(v, Raw):
        return str(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return toml_string(v)
    if isinstance(v, (dt.datetime, dt.date, dt.time)):
        return v.isoformat()
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    raise TypeError(type(v))


def toml_dump(doc: dict, comment: str = "") -> str:
    """``doc`` as TOML: each top-level key one line of inline values (tomllib reads it back
    as ``doc``)."""
    head = f"# {comment}\n" if comment else ""
    return head + "".join(f"{toml_key(k)} = {toml_value(v)}\n" for k, v in doc.items())


# --- the shipped scenarios, read once ----------------------------------------------------------

_BASES: dict[str, dict] = {}


def base(name: str) -> dict:
    """A shipped scenario's data (a fresh copy)."""
    if name not in _BASES:
        _BASES[name] = tomllib.loads((SHIPPED / f"{name}.toml").read_text())
    return copy.deepcopy(_BASES[name])


def base_names() -> list[str]:
    return sorted(p.stem for p in SHIPPED.glob("*.toml"))


Place = tuple  # a place in parsed data: its keys and indices


def get_at(data, path: Place):
    for k in path:
        data = data[k]
    return data


def set_at(data, path: Place, value) -> None:
    get_at(data, path[:-1])[path[-1]] = value


def del_at(data, path: Place) -> None:
    del get_at(data, path[:-1])[path[-1]]


def family(path: Place) -> str:
    """A place with its indices and the names a file chooses (weapon names; in a script step,
    model and weapon names) blanked: armies[].units[].models[].T, weapons.*.A,
    script[].targets.*."""
    out = ""
    for i, k in enumerate(path):
        chosen = (i == 1 and path[0] == "weapons") or (
            path[0] == "script" and i >= 3 and (path[i - 1] in ("targets", "models", "to")
                                                or (i >= 4 and path[i - 2] == "models")))
        if isinstance(k, int):
            out += "[]"
        elif chosen:
            out += ".*"
        else:
            out += f".{k}" if out else k
    return out


def places(data, path: Place = ()):
    """Every (place, value) in parsed data, containers first."""
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from places(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from places(v, path + (i,))


def first_places() -> dict[str, list[tuple[str, Place, object]]]:
    """family -> every (scenario, place, value) of it in the shipped scenarios, in order."""
    out: dict[str, list] = {}
    for s in base_names():
        for p, v in places(base(s)):
            if p:
                out.setdefault(family(p), []).append((s, p, v))
    return out


# --- building cases ----------------------------------------------------------------------------

def _slug(text: str) -> str:
    """A file name for a case: readable, and unique (a digest of the whole text)."""
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return re.sub(r"[^A-Za-z0-9._=-]+", "_", text)[:60] + "-" + digest


def scenario_spec(category: str, what: str, make: Callable[[], str | bytes], command: str = "check",
                  expected_exit: int = 2, filename: str | None = None) -> Spec:
    """A scenario case: ``make()`` gives the file's text or bytes (in a file named from the case,
    or ``filename``)."""
    def build(folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / (filename or f"{_slug(f'{category}--{what}')}.toml")
        content = make()
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        argv = {"check": ("check", str(path)),
                "run": ("run", str(path), "--quiet"),
                "run-log": ("run", str(path), "--quiet", "--log", str(folder / f"{path.stem}.jsonl")),
                "stats": ("stats", str(path), "--runs", "2", "--jobs", "1")}[command]
        return path, argv, path, ()
    return Spec("scenario", category, what, expected_exit, build)


def mutated(scenario: str, what: str, change: Callable[[dict], object]) -> Callable[[], str]:
    def make():
        data = base(scenario)
        change(data)
        return toml_dump(data, f"hostile corpus: {scenario}.toml, {what}")
    return make


def setter(path: Place, value):
    return lambda data: set_at(data, path, value)


def _command_for(i: int) -> str:
    """Most scenario cases run `sim check`; every fifth `sim run`, a few `sim run --log` and
    `sim stats` (each loads the file first, so each must refuse it the same way)."""
    return "run" if i % 5 == 1 else "run-log" if i % 17 == 3 else "stats" if i % 23 == 7 else "check"


# The values a number is set to.  (label, value); a Raw is written as TOML text.
NUMBER_KINDS = [
    ("nan", Raw("nan")),
    ("inf", Raw("inf")),
    ("-inf", Raw("-inf")),
    ("negative", -1),
    ("huge float", Raw("1e300")),
    ("10^18", 10**18),
    ("5000-digit int", Raw("9" * 5000)),
    ("float for an int", 2.5),
    ("bool", True),
    ("string", "many"),
    ("array", [1, 2]),
    ("table", {"x": 1}),
    ("datetime", dt.datetime(1979, 5, 27, 7, 32, tzinfo=dt.timezone.utc)),
    ("5000-digit float", Raw("1" + "0" * 5000 + ".5")),
    ("-10^18", -10**18),
    ("5000-digit negative int", Raw("-" + "9" * 5000)),
]
# Fields whose whole-number values may carry a fraction (a position, a size, an angle).
FLOAT_FIELDS = ("at[][]", "board[]", "base[]", "base_mm", "rotation", "moved", "angle", "face", "height")
# (family ending, kind) that would be valid: a seed may be negative or large, an AP negative.
VALID = {("battle.seed", "negative"), ("battle.seed", "10^18"), ("battle.seed", "-10^18"),
         ("weapons.*.AP", "negative"), ("terrain[].rotation", "negative"),
         ("script[].by[]", "negative"), ("script[].face", "negative")}  # (a move back; a facing turned back)


def _applies(fam: str, kind: str) -> bool:
    if (fam, kind) in VALID:
        return False
    if kind == "float for an int" and fam.endswith(FLOAT_FIELDS):
        return False
    return True


def number_specs() -> list[Spec]:
    """Each numeric field of the shipped scenarios (by family: one place stands for all its
    kind) set to three of NUMBER_KINDS, taken in turn, so every kind meets many fields."""
    fams = {f: occ for f, occ in first_places().items()
            if any(isinstance(v, (int, float)) and not isinstance(v, bool) for _, _, v in occ)}
    out = []
    k = 0
    for fi, (fam, occ) in enumerate(sorted(fams.items())):
        occ = [o for o in occ if isinstance(o[2], (int, float)) and not isinstance(o[2], bool)]
        for j in range(3):
            scen, path, _ = occ[(fi + j) % len(occ)]
            while not _applies(fam, NUMBER_KINDS[k % len(NUMBER_KINDS)][0]):
                k += 1
            label, value = NUMBER_KINDS[k % len(NUMBER_KINDS)]
            k += 1
            what = f"{fam}={label}"
            out.append(scenario_spec("numbers", what, mutated(scen, what, setter(path, value)),
                                     _command_for(len(out))))
    return out


WRONG_TYPES = [("int", 7), ("string", "many"), ("bool", True), ("float", 2.5), ("array", [1, 2]),
               ("table", {"x": 1}), ("datetime", dt.datetime(1979, 5, 27, 7, 32)), ("date", dt.date(1979, 5, 27)),
               ("time", dt.time(7, 32)), ("empty array", []), ("empty table", {}), ("array of tables", [{"a": 1}])]
# what a field may validly be besides its shipped type
_ALSO_VALID = {"armies[].units[].abilities": ("array", "empty array"),
               "script[].targets.*": ("table", "empty table"),
               "armies[].units[].models[].abilities": ("array", "empty array"),
               "script[].models.*.*": ("table", "empty table")}


def _same_type(label: str, v) -> bool:
    kinds = {"int": int, "string": str, "bool": bool, "float": float, "array": list, "table": dict,
             "datetime": dt.datetime, "date": dt.date, "time": dt.time, "empty array": list,
             "empty table": dict, "array of tables": list}
    t = kinds[label]
    if t is int:
        return type(v) is int
    return isinstance(v, t)


def wrong_type_specs() -> list[Spec]:
    """Every other field, container or text, at every level, set to a value of another type:
    one per field, two per table or list."""
    fams = {f: occ for f, occ in first_places().items()
            if not any(isinstance(v, (int, float)) and not isinstance(v, bool) for _, _, v in occ)}
    out = []
    k = 0
    for fi, (fam, occ) in enumerate(sorted(fams.items())):
        scen, path, v = occ[fi % len(occ)]
        for _ in range(2 if isinstance(v, (dict, list)) else 1):
            while True:
                label, value = WRONG_TYPES[k % len(WRONG_TYPES)]
                k += 1
                if not _same_type(label, v) and label not in _ALSO_VALID.get(fam, ()):
                    break
            what = f"{fam}={label}"
            out.append(scenario_spec("wrong types", what, mutated(scen, what, setter(path, value)),
                                     _command_for(len(out) + 2)))
    return out


def deep(depth: int, kind: str = "array", inner: str = "1") -> Raw:
    if kind == "array":
        return Raw("[" * depth + inner + "]" * depth)
    return Raw("{ a = " * depth + inner + " }" * depth)


MODEL0 = ("armies", 0, "units", 0, "models", 0)
UNIT0 = ("armies", 0, "units", 0)
UNIT1 = ("armies", 1, "units", 0)


def weapon0(data) -> str:
    return next(iter(data["weapons"]))


def on_weapon0(key: str, value):
    def change(data):
        data["weapons"][weapon0(data)][key] = value
    return change


def nesting_specs() -> list[Spec]:
    out = []
    for depth, kind, where, scen in [
            (1000, "array", ("battle", "seed"), "worked_example_pools"),
            (5000, "array", ("battle", "seed"), "default"),
            (1000, "table", ("battle", "seed"), "anti_vehicle"),
            (5000, "table", MODEL0 + ("T",), "hazard_fight"),
            (2000, "array", MODEL0 + ("at",), "modifiers"),
            (3000, "table", ("script", 0, "targets"), "close_quarters_choice"),
            (1000, "array", ("armies",), "precision_leader_hidden"),
            (13, "array", MODEL0 + ("keywords",), "anti_psyker_attached"),  # just over the limit
            (13, "table", ("battle", "extra"), "hazard_shooting")]:
        what = f"{'.'.join(map(str, where))} {kind}s {depth} deep"
        out.append(scenario_spec("nesting", what, mutated(scen, what, setter(where, deep(depth, kind))),
                                 _command_for(len(out))))
    # nesting in a key path written as dotted tables
    out.append(scenario_spec("nesting", "dotted key 3000 deep", lambda: (
        (SHIPPED / "worked_example_pools.toml").read_text() + "\n[" + ".".join(["x"] * 3000) + "]\na = 1\n")))
    out.append(scenario_spec("nesting", "array of tables 2000 deep header", lambda: (
        (SHIPPED / "worked_example_pools.toml").read_text() + "\n[[" + ".".join(["y"] * 2000) + "]]\na = 1\n")))
    return out


def text_specs() -> list[Spec]:
    """Huge strings, control characters, bad bytes and encodings, invalid TOML."""
    out = []
    big = "x" * 100_000
    for what, scen, change in [
        ("battle.name 100 KB", "default", setter(("battle", "name"), big)),
        ("unit name 100 KB", "worked_example_pools", setter(UNIT0 + ("name",), big)),
        ("model name 3000 chars", "hazard_fight", setter(MODEL0 + ("name",), "m" * 3000)),
        ("army name 2001 chars", "anti_vehicle", setter(("armies", 0, "name"), "a" * 2001)),
        ("description 10001 chars", "modifiers", setter(("battle", "description"), "d" * 10_001)),
        ("weapon abilities 100 KB", "abilities_hits", on_weapon0("abilities", "[" + "LETHAL HITS, " * 7000 + "]")),
        ("unit abilities 100 KB", "abilities_defence", setter(UNIT0 + ("abilities",), "Feel No Pain 5+, " * 6000)),
        ("weapon name 150 chars", "worked_example_pools",
         lambda d: d["weapons"].__setitem__("w" * 150, d["weapons"].pop("claws"))),
        ("keyword 5000 chars", "anti_vehicle", setter(UNIT0 + ("keywords",), ["K" * 5000])),
        ("key 200 chars", "hazard_vehicles", setter(("battle", "k" * 200), 1)),
    ]:
        out.append(scenario_spec("huge strings", what, mutated(scen, what, change), _command_for(len(out))))
    controls = [("ESC", "\x1b[31m"), ("BEL", "\x07"), ("NUL", "\x00"), ("CSI", "\x9b2J"), ("DEL", "\x7f"),
                ("newline", "\nsim: forged line\n"), ("OSC title", "\x1b]0;owned\x07"), ("CR", "\r")]
    targets = [("unit id", UNIT1 + ("id",)), ("unit name", UNIT0 + ("name",)), ("battle name", ("battle", "name")),
               ("army name", ("armies", 1, "name")), ("model name", MODEL0 + ("name",)),
               ("keyword", UNIT0 + ("keywords", 0)), ("description", ("battle", "description")),
               ("model weapon", MODEL0 + ("weapons", 0))]
    scens = ["worked_example_pools", "default", "close_quarters_engaged", "precision_leader_visible"]
    for i, (cname, c) in enumerate(controls):
        tname, path = targets[i % len(targets)]
        scen = scens[i % len(scens)]

        def change(data, path=path, c=c):
            v = get_at(data, path)
            set_at(data, path, v[:2] + c + v[2:])
        out.append(scenario_spec("control characters", f"{cname} in {tname}",
                                 mutated(scen, f"{cname} in {tname}", change), _command_for(i)))

    def key_with(c):
        def change(data):
            w = weapon0(data)
            data["weapons"][w[:1] + c + w[1:]] = data["weapons"].pop(w)
        return change
    out.append(scenario_spec("control characters", "ESC in a weapon name key",
                             mutated("hazard_shooting", "ESC in a weapon name key", key_with("\x1b[2J"))))
    out.append(scenario_spec("control characters", "NUL in a table key",
                             mutated("default", "NUL in a table key",
                                     lambda d: d["battle"].__setitem__("se\x00ed", 1))))
    for what, filename in [("ESC in the file name", "e\x1b[31mvil.toml"), ("newline in the file name", "two\nlines.toml"),
                           ("BEL and CSI in the file name", "bell\x07\x9b2J.toml")]:
        out.append(scenario_spec("control characters", what,
                                 mutated("worked_example_pools", what, setter(("battle", "board"), [Raw("nan"), 44])),
                                 _command_for(len(out)), filename=filename))
    good = (SHIPPED / "worked_example_pools.toml").read_bytes()
    rnd = random.Random(13)
    for what, content in [
        ("empty file", b""),
        ("only whitespace", b" \n\t\n\n"),
        ("only a comment", b"# nothing here\n"),
        ("UTF-8 BOM", b"\xef\xbb\xbf" + good),
        ("UTF-16", good.decode().encode("utf-16")),
        ("non-UTF-8 byte in a name", good.replace(b"Wardens", b"Ward\xffens", 1)),
        ("lone continuation byte", b"\x80" + good),
        ("overlong encoding", good.replace(b"Raiders", b"Raid\xc0\xafers", 1)),
        ("encoded surrogate", good.replace(b"Raiders", b"Raid\xed\xa0\x80ers", 1)),
        ("raw NUL byte", good.replace(b"Wardens", b"Ward\x00ens", 1)),
        ("raw ESC in a string", good.replace(b"Wardens", b"Ward\x1b[31mens", 1)),
        ("binary junk", bytes(rnd.randrange(256) for _ in range(4096))),
        ("binary junk after valid TOML", good + bytes(rnd.randrange(256) for _ in range(512))),
        ("gzip magic", b"\x1f\x8b\x08\x00" + bytes(rnd.randrange(256) for _ in range(200))),
        ("ELF header", b"\x7fELF\x02\x01\x01" + bytes(64)),
        ("JSON instead of TOML", json.dumps(tomllib.loads(good.decode())).encode()),
        ("YAML instead of TOML", b"battle:\n  name: x\narmies: []\n"),
    ]:
        out.append(scenario_spec("bytes", what, (lambda content=content: content), _command_for(len(out))))
    text = good.decode()
    for what, content in [
        ("unterminated string", text.replace('name = "Wardens"', 'name = "Wardens', 1)),
        ("unterminated array", text.replace("board = [60, 44]", "board = [60, 44", 1)),
        ("missing value", text.replace("seed = 5", "seed =", 1)),
        ("duplicate key", text.replace("seed = 5", "seed = 5\nseed = 6", 1)),
        ("duplicate table", text + '\n[battle]\nname = "again"\n'),
        ("duplicate weapon table", text + '\n[weapons."rifle"]\nrange = 1\n'),
        ("table redefined as a value", "battle = 5\n" + text),
        ("bad escape", text.replace('name = "Wardens"', 'name = "Ward\\qens"', 1)),
        ("bad unicode escape", text.replace('name = "Wardens"', 'name = "\\uD800"', 1)),
        ("inline table over lines", text.replace("seed = 5", "seed = { a = 1,\n b = 2 }", 1)),
        ("leading zero", text.replace("seed = 5", "seed = 0005", 1)),
        ("bare word value", text.replace("seed = 5", "seed = five", 1)),
        ("key without value at the end", text + "\nlonely\n"),
    ]:
        out.append(scenario_spec("invalid TOML", what, (lambda content=content: content), _command_for(len(out))))
    return out


def _square(x, y, s):
    return [[x, y], [x + s, y], [x + s, y + s], [x, y + s]]


def terrain_specs() -> list[Spec]:
    def area(poly, features=None):
        def change(data):
            a = {"name": "hostile", "area": poly}
            if features is not None:
                a["features"] = features
            data.setdefault("terrain", []).append(a)
        return change

    def circle(n, r=5.0, cx=30.0, cy=22.0):
        return [[round(cx + r * math.cos(2 * math.pi * i / n), 6), round(cy + r * math.sin(2 * math.pi * i / n), 6)]
                for i in range(n)]

    cases = [
        ("area of 2 vertices", "worked_example_pools", area([[40, 5], [45, 5]])),
        ("area of 65 vertices", "hazard_fight", area(circle(65))),
        ("area of 100,000 vertices", "worked_example_pools", area(circle(100_000, r=4))),
        ("self-intersecting area", "anti_vehicle", area([[40, 2], [46, 8], [46, 2], [40, 8]])),
        ("area of one repeated point", "close_quarters_choice", area([[40, 4]] * 4)),
        ("collinear area", "modifiers", area([[40, 4], [42, 4], [44, 4]])),
        ("area off the board", "worked_example_pools", area(_square(58, 40, 10))),
        ("area at nan", "hazard_shooting", area([[Raw("nan"), 4], [42, 4], [42, 6]])),
        ("feature of 2 vertices", "default", area(_square(1, 1, 4), [{"category": "dense", "polygon": [[1, 1], [2, 2]]}])),
        ("self-intersecting feature", "precision_leader_hidden",
         area(_square(40, 2, 8), [{"category": "light", "polygon": [[41, 3], [46, 8], [46, 3], [41, 8]]}])),
        ("feature outside its area", "worked_example_pools",
         area(_square(40, 2, 4), [{"category": "light", "polygon": _square(50, 30, 3)}])),
        ("33 features", "worked_example_pools",
         area(_square(40, 2, 8), [{"category": "light", "polygon": _square(41, 3, 1)}] * 33)),
        ("201 areas", "worked_example_pools",
         lambda d: d.setdefault("terrain", []).extend({"area": _square(40 + i % 10, 2, 0.5)} for i in range(201))),
        ("unknown terrain piece", "default", setter(("terrain", 0, "piece"), "tower of " + "x" * 90)),
        ("piece at inf", "default", setter(("terrain", 1, "at"), [Raw("inf"), 3])),
        ("point of 3 numbers", "default", setter(("terrain", 2, "at"), [1, 2, 3])),
        ("area a list of numbers", "worked_example_pools", area([1, 2, 3, 4])),
    ]
    return [scenario_spec("terrain", what, mutated(scen, what, change), _command_for(i))
            for i, (what, scen, change) in enumerate(cases)]


def structure_specs() -> list[Spec]:
    """Duplicate ids, unknown keys, missing fields, script steps naming nothing."""
    def dup_unit(data):
        data["armies"][1]["units"][0]["id"] = data["armies"][0]["units"][0]["id"]

    def dup_model_ids(data):
        m = get_at(data, MODEL0)
        m["ids"] = ["twin"] * m.get("count", 1)

    def dup_model_id_across(data):
        for a in (0, 1):
            m = data["armies"][a]["units"][0]["models"][0]
            m.pop("id", None)
            m["ids"] = [f"same/{i}" for i in range(m.get("count", 1))]

    def third_army(data):
        data["armies"].append(copy.deepcopy(data["armies"][1]))

    cases = [
        ("duplicates", "unit id used twice", "worked_example_pools", dup_unit),
        ("duplicates", "model ids repeated", "hazard_fight", dup_model_ids),
        ("duplicates", "model id in both armies", "anti_psyker_attached", dup_model_id_across),
        ("duplicates", "a third army", "close_quarters_choice", third_army),
        ("duplicates", "models stacked on one spot", "hazard_vehicles",
         lambda d: get_at(d, MODEL0)["at"].__setitem__(slice(None), [get_at(d, MODEL0)["at"][0]] * len(get_at(d, MODEL0)["at"]))),
    ]
    for i, (where, scen) in enumerate([((), "default"), (("battle",), "worked_example_pools"),
                                       (("terrain", 0), "default"), (("armies", 0), "modifiers"),
                                       (UNIT0, "anti_vehicle"), (MODEL0, "hazard_shooting"),
                                       (("script", 0), "close_quarters_engaged"),
                                       (UNIT0 + ("modifiers", 0), "modifiers"), (("weapons", "claws"), "worked_example_pools")]):
        cases.append(("unknown keys", f"unknown key in {'.'.join(map(str, where)) or 'the top'}", scen,
                      lambda d, where=where: get_at(d, where).__setitem__("surprise", 1)))
    for where, scen in [(("battle", "name"), "default"), (("armies",), "hazard_fight"), (("battle",), "anti_vehicle"),
                        (MODEL0 + ("T",), "worked_example_pools"), (MODEL0 + ("at",), "precision_leader_visible"),
                        (("weapons", "rifle", "S"), "worked_example_pools"), (UNIT0 + ("id",), "modifiers"),
                        (UNIT1 + ("models",), "psychic_cover_heavy"), (("weapons", "rifle", "BS"), "worked_example_pools"),
                        (("armies", 1, "name"), "vehicle_engaged")]:
        cases.append(("missing fields", f"no {'.'.join(map(str, where))}", scen,
                      lambda d, where=where: del_at(d, where)))
    cases += [
        ("wrong types", "a model's weapons entry a list", "worked_example_pools", setter(MODEL0 + ("weapons",), [[]])),
        ("wrong types", "a model's weapons entry a table", "hazard_fight", setter(MODEL0 + ("weapons",), [{"name": "x"}])),
        ("script", "shoot with a missing unit", "worked_example_pools", setter(("script", 0, "shoot"), "ghosts")),
        ("script", "target a missing unit", "worked_example_pools",
         setter(("script", 0, "targets"), {"rifle": "ghosts"})),
        ("script", "target a friendly unit", "default", lambda d: d["script"][0]["targets"].__setitem__(
            next(iter(d["script"][0]["targets"])), d["script"][0]["shoot"])),
        ("script", "a weapon nobody carries", "worked_example_pools",
         setter(("script", 0, "targets"), {"claws": "raiders", "plasma": "raiders"})),
        ("script", "fight with a missing unit", "hazard_fight",
         lambda d: d["script"].append({"fight": "nobody"})),
        ("script", "move a missing unit", "worked_example_pools",
         lambda d: d["script"].insert(0, {"move": "nobody", "by": [1, 0]})),
        ("script", "move a model of another unit", "worked_example_pools",
         lambda d: d["script"].insert(0, {"move": "wardens", "to": {"raiders/1": [10, 30]}})),
        ("script", "move by nan", "worked_example_pools",
         lambda d: d["script"].insert(0, {"move": "wardens", "by": [Raw("nan"), 0]})),
        ("script", "move off the board", "worked_example_pools",
         lambda d: d["script"].insert(0, {"move": "wardens", "by": [1e6, 0]}), "run"),
        ("script", "move further than M", "worked_example_pools",
         lambda d: d["script"].insert(0, {"move": "wardens", "by": [0, 8]}), "run"),
        ("script", "attacks 10^18", "worked_example_pools",
         setter(("script", 0, "targets"), {"rifle": {"raiders": 10**18}})),
        ("script", "attacks 0", "worked_example_pools", setter(("script", 0, "targets"), {"rifle": {"raiders": 0}})),
        ("script", "two actions in a step", "worked_example_pools",
         lambda d: d["script"][0].__setitem__("fight", "wardens")),
        ("script", "an empty step", "worked_example_pools", lambda d: d["script"].append({})),
        ("script", "end_turn false", "worked_example_pools", lambda d: d["script"].append({"end_turn": False})),
        ("script", "1001 steps", "worked_example_pools",
         lambda d: d["script"].extend({"end_turn": True} for _ in range(1001))),
        ("script", "a decision for a missing model", "worked_example_attached",
         lambda d: d["script"][0].setdefault("decisions", {}).__setitem__("allocation_order", ["nobody/1"])),
        ("script", "an unknown decision", "worked_example_pools",
         lambda d: d["script"][0].__setitem__("decisions", {"surrender": True})),
        ("script", "lethal hits maybe", "worked_example_pools",
         lambda d: d["script"][0].__setitem__("decisions", {"lethal_hits": "maybe"})),
        ("script", "precision at a friend", "precision_leader_visible",
         lambda d: d["script"][0].__setitem__("decisions", {"precision": d["script"][0]["shoot"] + "/1"})),
        ("script", "shooting type warp", "close_quarters_choice", setter(("script", 0, "type"), "warp")),
        ("script", "per-model entry for a missing model", "close_quarters_choice",
         setter(("script", 0, "models"), {"ghost/9": {"rifle": "mob"}})),
    ]
    out = []
    for i, c in enumerate(cases):
        cat, what, scen, change = c[:4]
        out.append(scenario_spec(cat, what, mutated(scen, what, change), c[4] if len(c) > 4 else _command_for(i)))
    return out


def ability_specs() -> list[Spec]:
    """Weapon and unit abilities and characteristics with numbers no battle can use."""
    cases = [
        ("[ANTI-INFANTRY 111...1X] 60 KB", on_weapon0("abilities", "[ANTI-INFANTRY " + "1" * 60_000 + "X]")),
        ("A = 10^18", on_weapon0("A", 10**18)),
        ("D = 10^18", on_weapon0("D", 10**18)),
        ("[SUSTAINED HITS 10^12]", on_weapon0("abilities", "[SUSTAINED HITS 1000000000000]")),
        ("[BLAST 10^9]", on_weapon0("abilities", "[BLAST 1000000000]")),
        ("ANTI keyword of 3000 words", on_weapon0("abilities", "[ANTI-" + " ".join(["W"] * 3000) + " 4+]")),
        ("[RAPID FIRE 10^9]", on_weapon0("abilities", "[RAPID FIRE 1000000000]")),
        ("[MELTA D6+10^6]", on_weapon0("abilities", "[MELTA D6+1000000]")),
        ("[SUSTAINED HITS 100000D6]", on_weapon0("abilities", "[SUSTAINED HITS 100000D6]")),
        ("[ANTI-INFANTRY 1+]", on_weapon0("abilities", "[ANTI-INFANTRY 1+]")),
        ("ANTI of 9 keywords", on_weapon0("abilities", "[ANTI-" + "/".join(["INFANTRY"] * 9) + " 4+]")),
        ("A = 10^18 D6", on_weapon0("A", "1000000000000000000D6")),
        ("D = D6+10^18", on_weapon0("D", "D6+1000000000000000000")),
        ("A = 5000-digit dice", on_weapon0("A", "D" + "6" * 5000)),
        ("A = D0", on_weapon0("A", "D0")),
        ("D = 0", on_weapon0("D", 0)),
        ("unknown ability 60 KB", on_weapon0("abilities", "[" + "HAZARDUS" * 7500 + "]")),
        ("unbalanced brackets", on_weapon0("abilities", "[" * 5000)),
        ("Feel No Pain 1+", setter(UNIT0 + ("abilities",), "Feel No Pain 1+")),
        ("Lone Operative 10^18", setter(UNIT0 + ("abilities",), "Lone Operative 1000000000000000000")),
        ("Deadly Demise 10^9", setter(UNIT0 + ("abilities",), "Deadly Demise 1000000000")),
        ("Damaged 1-10^18 wounds", setter(UNIT0 + ("abilities",), "Damaged: 1-1000000000000000000 wounds remaining")),
        ("abilities list of 10,001", setter(UNIT0 + ("abilities",), ["Stealth"] * 10_001)),
    ]
    scens = ["worked_example_pools", "abilities_hits", "anti_vehicle", "hazard_shooting", "abilities_dice"]
    return [scenario_spec("abilities", what, mutated(scens[i % len(scens)], what, change), _command_for(i))
            for i, (what, change) in enumerate(cases)]


# --- logs ----------------------------------------------------------------------------------------

def dumps(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def golden(name: str) -> list[dict]:
    return [json.loads(line) for line in (SHIPPED / "replays" / f"{name}.jsonl").read_text().splitlines()]


def lines_of(recs) -> list[str]:
    return [r if isinstance(r, str) else dumps(r) for r in recs]


def block_end(recs, n) -> int:
    """The index after command n's hash record."""
    return next(i for i, r in enumerate(recs) if r["t"] == "hash" and r["n"] == n) + 1


def log_spec(category: str, what: str, mutate: Callable[[list[dict]], list | bytes], expected_exit: int = 2,
             log: str = "default", extra: Callable[[Path, Path], tuple[tuple[str, ...], Path | None]] | None = None,
             forbidden: tuple[str, ...] = (), filename: str | None = None) -> Spec:
    """A log case: a project folder (its scenario under scenarios/, the log under
    scenarios/replays/, as in the repository) with ``mutate(records)`` as the log (lines, each
    a record or text, or the raw bytes). ``extra(project, log)`` may add files and returns more
    arguments for `sim replay` and the file the output must name (None: the log)."""
    def build(folder: Path):
        project = folder / _slug(f"{category}--{what}")
        (project / "scenarios/replays").mkdir(parents=True, exist_ok=True)
        (project / f"scenarios/{log}.toml").write_bytes((SHIPPED / f"{log}.toml").read_bytes())
        path = project / "scenarios/replays" / (filename or f"{log}.jsonl")
        content = mutate(golden(log))
        path.write_bytes(content if isinstance(content, bytes) else ("\n".join(lines_of(content)) + "\n").encode())
        more, names = extra(project, path) if extra else ((), None)
        return path, ("replay", str(path), *more), names or path, forbidden
    return Spec("log", category, what, expected_exit, build)


def header(**change):
    def mutate(recs):
        recs[0].update(change)
        return recs
    return mutate


def header_raw(field: str, text: str):
    """The header with one field's value written as raw JSON text."""
    def mutate(recs):
        h = dumps(recs[0])
        new, n = re.subn(rf'"{field}":("[^"]*"|[^,}}]*)', lambda m: f'"{field}":{text}', h, count=1)
        assert n == 1, field
        return [new] + recs[1:]
    return mutate


def drop(i_or_t, key):
    def mutate(recs):
        r = recs[i_or_t] if isinstance(i_or_t, int) else next(r for r in recs if r["t"] == i_or_t)
        del r[key]
        return recs
    return mutate


def first(t, change):
    def mutate(recs):
        r = next(r for r in recs if r["t"] == t)
        change(r)
        return recs
    return mutate


def trailer(**change):
    def mutate(recs):
        recs[-1].update(change)
        return recs
    return mutate


def swap_events(recs):
    """Two event records of command 0 change places."""
    idx = [i for i, r in enumerate(recs) if r["t"] == "event" and r["n"] == 0]
    a, b = idx[0], idx[1]
    recs[a], recs[b] = recs[b], recs[a]
    return recs


def swap_blocks(recs):
    """Command blocks 1 and 2 change places (their numbers with them)."""
    s1, e1, e2 = block_end(recs, 0), block_end(recs, 1), block_end(recs, 2)
    return recs[:s1] + recs[e1:e2] + recs[s1:e1] + recs[e2:]


def dice_changed(recs):
    for r in recs:
        if r["t"] == "event" and r["event"].get("type") == "dice" and r["event"].get("results"):
            r["event"]["results"][0] = 6 if r["event"]["results"][0] != 6 else 5
            return recs
    raise AssertionError("no dice")


def big_event(size):
    """A made-up event of ``size`` characters inside command 0 (a line under the 1 MB cap)."""
    def mutate(recs):
        at = next(i for i, r in enumerate(recs) if r["t"] == "event")
        recs.insert(at, {"t": "event", "n": 0, "event": {"type": "dice", "purpose": "x" * size}})
        return recs
    return mutate


def decision_answer(value):
    def mutate(recs):
        r = next(r for r in recs if r["t"] == "event" and r["event"].get("type") == "decision")
        r["event"]["answer"] = value
        return recs
    return mutate


def outside_secret(project: Path) -> Path:
    """A TOML file outside the project holding the secret (it is no scenario)."""
    out = project.parent / f"{project.name}-outside"
    out.mkdir(exist_ok=True)
    p = out / "secret.toml"
    # the secret as a key (what an error's place would name) and as values (what it would find)
    p.write_text(f'{SECRET} = "{SECRET}"\nunits = "{SECRET}"\n[battle]\nname = "{SECRET}"\n')
    return p


def log_specs() -> list[Spec]:
    out: list[Spec] = []
    D = lambda *a, **k: out.append(log_spec(*a, **k))  # noqa: E731

    # well-formed logs whose battle differs: exit 1
    for k in (0, 3, 8):
        D("divergences", f"cut after command {k}", lambda recs, k=k: recs[:block_end(recs, k)], 1)
    D("divergences", "cut inside command 0", lambda recs: recs[:4], 1)
    D("divergences", "header only", lambda recs: recs[:1], 1)
    D("divergences", "header only, close quarters", lambda recs: recs[:1], 1, log="close_quarters_choice")
    D("divergences", "trailer removed", lambda recs: recs[:-1], 1)
    D("divergences", "last command block deleted",
      lambda recs: recs[:block_end(recs, 8)] + recs[block_end(recs, 9):], 1)
    D("divergences", "header name changed", header(name="Something else"), 1)
    D("divergences", "header seed changed", header(seed=2027), 1)
    D("divergences", "trailer hash changed", trailer(hash="0" * 16), 1)
    D("divergences", "trailer count +1", trailer(commands=11), 1)
    D("divergences", "trailer count 0", trailer(commands=0), 1, log="worked_example_pools")
    D("divergences", "trailer count 10^18", trailer(commands=10**18), 1)
    D("divergences", "a dice result changed", dice_changed, 1)
    D("divergences", "two events swapped", swap_events, 1)
    D("divergences", "a hash record changed", first("hash", lambda r: r.update(hash="f" * 16)), 1)
    D("divergences", "an event of 900 KB added", big_event(900_000), 1)
    D("divergences", "an event of 900 KB added, close quarters", big_event(900_000), 1, log="close_quarters_choice")
    D("divergences", "a hash of 900 KB", first("hash", lambda r: r.update(hash="9" * 900_000)), 1)
    D("divergences", "a precision answer naming a bodyguard", decision_answer("guard/1"), 1,
      log="precision_leader_visible")
    D("divergences", "a command for a missing unit",
      first("command", lambda r: r["command"].update(unit="ghosts")), 1)
    D("divergences", "5,000 end turns, the first hash wrong", lambda recs: recs[:1] + [
        r for n in range(5000) for r in ({"t": "command", "n": n, "command": {"kind": "end turn"}},
                                         {"t": "hash", "n": n, "hash": "0"})], 1, log="close_quarters_choice")
    D("divergences", "a move of 10^300 inches", lambda recs: recs[:1] + [
        {"t": "command", "n": 0, "command": {"kind": "move", "unit": "squad", "mode": "normal",
                                             "to": [["squad/1", 1e300, 1e300]]}}], 1, log="close_quarters_choice")

    D("divergences", "a log named with ESC and BEL", lambda recs: recs[:1], 1, filename="e\x1b]0;owned\x07.jsonl")
    D("divergences", "a log named with a newline", dice_changed, 1, filename="two\nlines.jsonl")
    D("records", "a log named with ESC", lambda recs: ["{}"], filename="e\x1b[2Jvil.jsonl")
    D("records", "a log named with a newline", header(seed=7.9), filename="sim: forged\nline.jsonl")

    # header fields of every wrong type, missing, or out of range: exit 2
    D("header", "seed 7.9", header(seed=7.9))
    for field, values in [("t", [5, None, "command"]), ("format", [1, None, "sim-replay-2", ["sim-replay"]]),
                          ("version", ["1", 1.0, True, None, 2, 10**30]),
                          ("scenario", [5, "", None, ["scenarios/default.toml"], "s" * 5000 + ".toml"]),
                          ("digest", [[1], "0" * 63, "A" * 64, None, {"sha256": "0"}]),
                          ("seed", ["2026", True, None, [2026], {"v": 1}, 2**63, -2**63 - 1, 1e308]),
                          ("name", [["x"], None, 5, {"n": "x"}])]:
        for v in values:
            D("header", f"{field} = {json.dumps(v)[:30]}", header(**{field: v}))
    for field, text in [("seed", "9" * 5000), ("seed", "1e400"), ("seed", "NaN"), ("seed", "-Infinity"),
                        ("version", "1" + "0" * 5000), ("seed", "[" * 5000 + "]" * 5000)]:
        D("header", f"{field} as JSON {text[:12]}", header_raw(field, text))
    for field in ("t", "format", "version", "scenario", "digest", "seed", "name"):
        D("missing fields", f"header without {field}", drop(0, field))
    D("missing fields", "command without n", drop("command", "n"))
    D("missing fields", "command without command", drop("command", "command"))
    D("missing fields", "event without event", drop("event", "event"))
    D("missing fields", "hash without hash", drop("hash", "hash"))
    D("missing fields", "trailer without commands", drop(-1, "commands"))
    D("missing fields", "trailer without hash", drop(-1, "hash"))

    # records
    D("records", "command blocks swapped", swap_blocks)
    D("records", "first block deleted", lambda recs: recs[:1] + recs[block_end(recs, 0):])
    D("records", "trailer moved up", lambda recs: recs[:3] + recs[-1:] + recs[3:-1])
    D("records", "header second", lambda recs: [recs[1], recs[0]] + recs[2:])
    D("records", "two headers", lambda recs: recs[:1] + recs)
    D("records", "hash before any command", lambda recs: recs[:1] + [{"t": "hash", "n": 0, "hash": "0"}] + recs[1:])
    D("records", "unknown record type", first("event", lambda r: r.update(t="evil")))
    D("records", "a record that is a list", lambda recs: recs[:2] + ["[1,2,3]"] + recs[2:])
    D("records", "a record that is null", lambda recs: recs[:2] + ["null"] + recs[2:])
    D("records", "a blank line", lambda recs: recs[:2] + [""] + recs[2:])
    D("records", "command of no kind", first("command", lambda r: r["command"].pop("kind")))
    D("records", "selection a string", first("command", lambda r: r["command"].update(selections=["all"])))
    D("records", "move to a nan", lambda recs: recs[:1] + [
        '{"command":{"kind":"move","to":[["squad/1",NaN,1]],"unit":"squad"},"n":0,"t":"command"}'],
      log="close_quarters_choice")
    D("records", "attacks as a float", first("command", lambda r: r["command"]["selections"][0].update(attacks=1.5)))
    D("records", "a decision answer of 40 nested lists", decision_answer(json.loads("[" * 40 + "]" * 40)),
      log="precision_leader_visible")
    # (a decision answer of the wrong shape is well-formed JSON: the battle refuses it, so the
    # replay stops there, a divergence)
    D("divergences", "a decision answer that is a table", decision_answer({"model": "captain"}), 1,
      log="precision_leader_visible")
    D("divergences", "an allocation order of 10,000 models", decision_answer(["guard/1"] * 10_000), 1,
      log="worked_example_attached")
    D("records", "a duplicate key", lambda recs: [dumps(recs[0])[:-1] + ',"seed":7}'] + recs[1:])
    D("records", "a command numbered 10^18", first("command", lambda r: r.update(n=10**18)))

    # bytes and sizes
    gold = (SHIPPED / "replays/default.jsonl").read_bytes()
    rnd = random.Random(7)
    for what, content in [
        ("empty file", b""),
        ("only newlines", b"\n\n\n"),
        ("non-UTF-8 byte in the header", gold.replace(b"Skirmish", b"Skirm\xffish", 1)),
        ("non-UTF-8 byte in an event", gold.replace(b"gunners", b"gunn\xc3rs", 1)),
        ("UTF-8 BOM", b"\xef\xbb\xbf" + gold),
        ("UTF-16", gold.decode().encode("utf-16")),
        ("NUL bytes", gold[:300] + b"\x00" * 64 + gold[300:]),
        ("binary junk", bytes(rnd.randrange(256) for _ in range(8192))),
        ("CR only line ends", gold.replace(b"\n", b"\r")),
        ("a TOML file as a log", (SHIPPED / "default.toml").read_bytes()),
        ("nested 1000 deep", gold.split(b"\n")[0] + b"\n" + b"[" * 1000 + b"]" * 1000 + b"\n"),
        ("nested 100,000 deep", gold.split(b"\n")[0] + b"\n" + b"[" * 100_000 + b"\n"),
        ("objects nested 100,000 deep", gold.split(b"\n")[0] + b"\n" + b'{"a":' * 100_000 + b"1" + b"}" * 100_000 + b"\n"),
        ("nested 40 deep in an event", gold.split(b"\n")[0] + b"\n" + dumps(
            {"t": "event", "n": 0, "event": {"type": "x", "v": json.loads("[" * 40 + "]" * 40)}}).encode() + b"\n"),
        ("one line of 10 MB", gold.split(b"\n")[0] + b"\n" + b'{"t":"event","n":0,"event":{"type":"'
         + b"x" * (10 * 2**20) + b'"}}\n'),
        ("10 MB without a newline", b" " * (10 * 2**20) + gold.split(b"\n")[0]),
        ("a number of 100,000 digits", gold.split(b"\n")[0] + b"\n" + b'{"t":"event","n":0,"event":{"type":"x","v":'
         + b"7" * 100_000 + b"}}\n"),
        ("1,000,000 short lines", b"{}\n" * 1_000_000),
        ("4,000,001 line ends", gold.split(b"\n")[0] + b"\n" * 4_000_001),
        # each value read costs tens of bytes: 40 MB of empty lists is over a gigabyte
        ("40 MB of empty lists", b"\n".join(gold.split(b"\n")[:2] + [
            b'{"event":{"type":"x","v":[' + b",".join([b"[]"] * 349_000) + b']},"n":0,"t":"event"}'] * 40) + b"\n"),
    ]:
        D("bytes", what, lambda recs, content=content: content)

    # the scenario the header names, or that --scenario gives
    def beside(name, make):
        def extra(project, log):
            make(log.parent / name)
            return (), None
        return extra

    def secret_beside(project, log):
        (log.parent / "secret.toml").write_text(outside_secret(project).read_text())
        return (), None

    def symlink_out(project, log):
        os.symlink(outside_secret(project), log.parent / "secret.toml")
        return (), None

    def name_in_log(log, name):
        lines = log.read_text().splitlines()
        rec = json.loads(lines[0])
        rec["scenario"] = name
        log.write_text("\n".join([dumps(rec)] + lines[1:]) + "\n")

    def secret_abs(project, log):
        name_in_log(log, str(outside_secret(project)))
        return (), None

    def secret_by_dots(project, log):
        p = outside_secret(project)
        name_in_log(log, f"../../../{p.parent.name}/{p.name}")
        return (), None

    def option(make, names_log=False):
        """--scenario: a file that is no regular .toml file is named in the message; a .toml file
        that is no scenario is named by the log's message (its content never)."""
        def extra(project, log):
            target = make(project)
            return ("--scenario", str(target)), None if names_log else Path(target)
        return extra

    def big_toml(project):
        p = project / "big.toml"
        with open(p, "wb") as f:
            f.truncate(17 * 2**20)  # sparse: costs no disk
        return p

    def dir_toml(project):
        p = project / "folder.toml"
        p.mkdir()
        return p

    for what, name, extra in [
        ("/etc/passwd", "/etc/passwd", None),
        ("../../etc/passwd", "../../etc/passwd", None),
        ("/proc/self/environ", "/proc/self/environ", None),
        ("../../../../../../proc/self/environ", "../../../../../../proc/self/environ", None),
        ("/etc/passwd.toml", "/etc/passwd.toml", None),
        ("a text file beside the log", "notes.txt", beside("notes.txt", lambda p: p.write_text(SECRET))),
        ("a folder named .toml", "folder.toml", beside("folder.toml", lambda p: p.mkdir())),
        ("the log's own folder", ".", None),
        ("a NUL in the path", "scen\x00arios/default.toml", None),
        ("an ESC in the path", "\x1b[2Jscenarios/default.toml", None),
        ("a secret TOML beside the log", "secret.toml", secret_beside),
        ("a symlink out of the project", "secret.toml", symlink_out),
        ("a secret TOML by ..", "", secret_by_dots),
        ("a secret TOML by an absolute path", "", secret_abs),
    ]:
        D("scenario path", what, header(scenario=name) if name else (lambda recs: recs), extra=extra,
          forbidden=(SECRET, "root:x:0"))
    for what, make in [("/etc/passwd", lambda project: "/etc/passwd"),
                       ("/proc/self/environ", lambda project: "/proc/self/environ"),
                       ("a folder", dir_toml),
                       ("a secret TOML outside", outside_secret),
                       ("a TOML file of 17 MB", big_toml),
                       ("a missing file", lambda project: project / "nothing.toml")]:
        D("--scenario", what, lambda recs: recs, extra=option(make, names_log=make is outside_secret),
          forbidden=(SECRET, "root:x:0"))
    D("scenario path", "digest changed", header(digest="0" * 64))
    D("scenario path", "scenario changed since", lambda recs: recs,
      extra=lambda project, log: ((project / "scenarios/default.toml").write_text(
          (SHIPPED / "default.toml").read_text().replace("seed = 2026", "seed = 2027")), ((), None))[1])
    return out


def specs() -> list[Spec]:
    """Every case, always in the same order."""
    out = (number_specs() + wrong_type_specs() + nesting_specs() + text_specs() + terrain_specs()
           + structure_specs() + ability_specs() + log_specs())
    names = [s.name for s in out]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, dup
    return out


def generate(folder: str | Path, select=None) -> list[Case]:
    """Write the corpus (or the cases at the indices ``select``) under ``folder``."""
    folder = Path(folder)
    all_specs = specs()
    picked = range(len(all_specs)) if select is None else select
    cases = []
    for i in picked:
        s = all_specs[i]
        path, argv, names, forbidden = s.build(folder / ("scenarios" if s.kind == "scenario" else "logs"))
        cases.append(Case(path, s.kind, s.expected_exit, s.name, s.category, argv, names, forbidden))
    return cases


if __name__ == "__main__":
    import collections
    import sys
    all_specs = specs()
    print(len(all_specs), "cases")
    for (k, c), n in sorted(collections.Counter((s.kind, s.category) for s in all_specs).items()):
        print(f"  {k:8} {c:20} {n}")
    if len(sys.argv) > 1:
        for c in generate(sys.argv[1]):
            print(c.expected_exit, c.name, c.path)
