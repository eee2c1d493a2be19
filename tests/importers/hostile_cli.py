"""Issue 25: a second generated corpus of hostile input for the command line, the surfaces added
after the first (tests/replay/hostile_corpus.py): the importers, `sim odds`, `sim matrix` and
every numeric option.

``specs()`` lists every case, cheaply and always in the same order; ``generate(folder, select)``
writes the files of the cases picked by index (each in a folder of its own under ``folder``) and
returns one ``Case`` per case: the command line after `sim`, the exit statuses it may give (the
first is the answer the issue asks; a second is given only where the issue leaves the choice open,
as for a link cycle a visited set may skip or refuse), the names its one line of error may start
with (`sim: NAME: ...`), and for a clean result what standard output must hold. Nothing is random
but seeded; big files are sparse or generated; FIFOs and links to devices are made, never filled.

Importer cases are made from the project's own fixtures (tests/importers/data: the Ashen Concord
catalogue, its library and game system, the ashen roster), written back as JSON, XML or zipped
XML with one thing broken each. Two bombs too slow to compress at test time are kept, made by
``make_bombs()``, in tests/importers/data/bombs (1.1 GB of spaces in 1 KB of bzip2 and 160 KB of
LZMA).

The odds, matrix and option cases are in hostile_cli_args.py; the test that runs them all is
test_hostile_cli.py.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
import os
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, NamedTuple

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).with_name("data")
BOMBS = DATA / "bombs"
CAT = "Ashen Concord"
LIB = "Ashen Concord Library"
SYS = "Test system"


class Case(NamedTuple):
    name: str  # unique, "<category>/<what>"
    category: str
    argv: tuple[str, ...]  # the command line after `sim`
    exits: tuple[int, ...]  # the statuses it may give; the first is the one asked for
    names: tuple[str, ...]  # what the one line of a refusal starts with: `sim: NAME: ` (a file, an option)
    stdout_has: str = ""  # with status 0 or 1: text standard output must hold
    out: str | None = None  # a file the command writes (--out): absent after a refusal, valid TOML after success
    absent: tuple[str, ...] = ()  # files that must not exist afterwards (a zip member's path outside)
    mode: str = "file"  # "file": the line starts `sim: NAME: `; "option": it starts `sim` and names NAME


@dataclass(frozen=True)
class Spec:
    category: str
    what: str
    build: Callable[[Path], Case]  # writes the case's files in its folder

    @property
    def name(self) -> str:
        return f"{self.category}/{self.what}"


def _slug(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return re.sub(r"[^A-Za-z0-9._=-]+", "_", text)[:50] + "-" + digest


# --- the fixtures, read once ---------------------------------------------------------------------

_DOCS: dict[str, dict] = {}


def doc(name: str) -> dict:
    """A fixture's data as the JSON form has it (a fresh copy): the catalogue (CAT), its library
    (LIB), the game system (SYS) or the roster ("roster")."""
    if name not in _DOCS:
        path = DATA / "ashen.json" if name == "roster" else DATA / "cat_json" / f"{name}.json"
        _DOCS[name] = json.loads(path.read_text())
    return copy.deepcopy(_DOCS[name])


def _singular(key: str) -> str:
    return key[:-3] + "y" if key.endswith("ies") else key[:-1] if key.endswith("s") else key + "Item"


def to_xml(data: dict) -> str:
    """The XML a document in the JSON form was read from (sim.importers.source's reading turned
    round): scalars as attributes, ``$text`` as text, a list as a collection element of one
    element per item, a string child as an element of text."""
    from xml.sax.saxutils import escape, quoteattr

    def el(tag: str, d: dict, out: list[str]) -> None:
        attrs = "".join(f" {k}={quoteattr(_attr(v))}" for k, v in d.items()
                        if k != "$text" and not isinstance(v, (dict, list)))
        out.append(f"<{tag}{attrs}>")
        if "$text" in d:
            out.append(escape(str(d["$text"])))
        for k, v in d.items():
            if isinstance(v, list):
                out.append(f"<{k}>")
                for x in v:
                    el(_singular(k), x if isinstance(x, dict) else {"$text": x}, out)
                out.append(f"</{k}>")
            elif isinstance(v, dict):
                el(k, v, out)
        out.append(f"</{tag}>")
    (root, body), = data.items()
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n']
    el(root, body, out)
    return "".join(out) + "\n"


def _attr(v) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def zipped(member: str, data: bytes, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        z.writestr(member, data)
    return buf.getvalue()


def encode(data: dict, form: str, member: str = "x.cat") -> bytes:
    """A document in one of its forms: "json", "xml" or "zip" (zipped XML)."""
    if form == "json":
        return json.dumps(data).encode()
    if form == "xml":
        return to_xml(data).encode()
    return zipped(member, to_xml(data).encode())


_EXT = {("catalogue", "json"): ".json", ("catalogue", "xml"): ".cat", ("catalogue", "zip"): ".catz",
        ("roster", "json"): ".json", ("roster", "xml"): ".ros", ("roster", "zip"): ".rosz"}


def catalogue_folder(folder: Path, data: dict | bytes, form: str = "json", name: str = CAT) -> Path:
    """The catalogue (``data``: a document, or the bytes of its file) with the fixture's library
    and game system beside it, in ``form``; the catalogue's path."""
    folder.mkdir(parents=True, exist_ok=True)
    for other in (LIB, SYS):
        ext = ".json" if form == "json" else ".gst" if other == SYS else ".cat"
        (folder / f"{other}{ext}").write_bytes(encode(doc(other), "json" if form == "json" else "xml"))
    path = folder / f"{name}{_EXT['catalogue', form]}"
    path.write_bytes(data if isinstance(data, bytes) else encode(data, form, f"{name}.cat"))
    return path


def roster_file(folder: Path, data: dict | bytes, form: str = "json", name: str = "list") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}{_EXT['roster', form]}"
    path.write_bytes(data if isinstance(data, bytes) else encode(data, form, f"{name}.ros"))
    return path


def first_sheet() -> str:
    return "Warden Blades"


def datasheets(path: Path, *more: str, exits=(2,), names=None, stdout_has: str = "datasheet") -> Case:
    return Case("", "", ("datasheets", str(path), *more), exits, names or (str(path),), stdout_has)


def import_sheet(path: Path, sheet: str, folder: Path, *more: str, exits=(2,), names=None, out=None) -> Case:
    out = out or str(folder / "out.toml")
    return Case("", "", ("import", "datasheet", str(path), sheet, "--out", out, *more), exits,
                names or (str(path),), "army:", out)


def import_roster(path: Path, folder: Path, *more: str, exits=(2,), names=None, out=None) -> Case:
    out = out or str(folder / "out.toml")
    return Case("", "", ("import", "roster", str(path), "--out", out, *more), exits, names or (str(path),),
                "army:", out)


# --- zip: bombs, methods, members ------------------------------------------------------------------

def make_bombs() -> None:
    """Write the two bombs kept in tests/importers/data/bombs (a minute or two of compressing:
    run once, by hand, `python tests/importers/hostile_cli.py --bombs`)."""
    BOMBS.mkdir(exist_ok=True)
    chunk = b" " * (1 << 24)
    for method, name in ((zipfile.ZIP_BZIP2, "bzip2.catz"), (zipfile.ZIP_LZMA, "lzma.catz")):
        with zipfile.ZipFile(BOMBS / name, "w", method) as z:
            with z.open("bomb.cat", "w", force_zip64=True) as f:
                f.write(b'<?xml version="1.0"?>\n<catalogue id="bomb" name="bomb">')
                for _ in range(66):  # 1.1 GB of spaces
                    f.write(chunk)
                f.write(b"</catalogue>\n")


def _deflated_spaces(head: bytes, size: int, tail: bytes) -> tuple[bytes, int, int]:
    """(raw deflate bytes, CRC-32, unpacked size) of ``head``, ``size`` spaces and ``tail``: one
    MiB of spaces compressed once and repeated (each piece ends at a full flush, so pieces
    join into one valid stream)."""
    import zlib
    mib = b" " * (1 << 20)
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = c.compress(head) + c.flush(zlib.Z_FULL_FLUSH)
    piece = c.compress(mib) + c.flush(zlib.Z_FULL_FLUSH)
    last = c.compress(tail) + c.flush()
    n = size >> 20
    crc = zlib.crc32(head)
    for _ in range(n):
        crc = zlib.crc32(mib, crc)
    return first + piece * n + last, zlib.crc32(tail, crc), len(head) + (n << 20) + len(tail)


def _deflate_bomb(size: int = 40 << 20) -> bytes:
    raw, crc, total = _deflated_spaces(b'<?xml version="1.0"?>\n<catalogue id="bomb">', size, b"</catalogue>\n")
    return _zip_raw("bomb.cat", raw, zipfile.ZIP_DEFLATED, total, crc)


def _zip_raw(member: str, raw: bytes, method: int, size: int, crc: int = 0, flags: int = 0,
             stated: int | None = None) -> bytes:
    """A zip of one member whose compressed bytes are ``raw`` (its header states ``stated`` or
    ``size`` unpacked bytes)."""
    import struct
    name = member.encode()
    stated = size if stated is None else stated
    local = struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, flags, method, 0, 0x21, crc, len(raw),
                        min(stated, 0xFFFFFFFF), len(name), 0) + name
    central = struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 20, flags, method, 0, 0x21, crc, len(raw),
                          min(stated, 0xFFFFFFFF), len(name), 0, 0, 0, 0, 0, 0) + name
    end = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, 1, 1, len(central), len(local) + len(raw), 0)
    return local + raw + central + end


def zip_specs() -> list[Spec]:
    out = []

    def add(what, build):
        out.append(Spec("zip", what, build))

    for method in ("bzip2", "lzma"):
        bomb = BOMBS / f"{method}.catz"
        add(f"{method} bomb as a catalogue", lambda f, b=bomb: datasheets(_copy(b, f / "Bomb.catz")))
        add(f"{method} bomb as a roster", lambda f, b=bomb: import_roster(_copy(b, f / "bomb.rosz"), f))
        add(f"{method} bomb beside a catalogue", lambda f, b=bomb: _beside(f, b.read_bytes(), "Bomb.catz"))
    add("deflate bomb as a catalogue", lambda f: datasheets(_write(f / "Bomb.catz", _deflate_bomb())))
    add("deflate bomb as a roster", lambda f: import_roster(_write(f / "bomb.rosz", _deflate_bomb()), f))
    add("deflate member stating 1 KB", lambda f: datasheets(_write(f / "Liar.catz", _liar())))
    add("17 members", lambda f: datasheets(_write(f / "Many.catz", _members(17))))
    add("an encrypted member", lambda f: datasheets(_write(f / "Locked.catz", _zip_raw(
        "x.cat", b"\x00" * 64, zipfile.ZIP_DEFLATED, 64, flags=1))))
    add("an unknown method (98)", lambda f: datasheets(_write(f / "Ppmd.catz", _zip_raw(
        "x.cat", b"\x00" * 64, 98, 64))))
    add("a zip inside the zip", lambda f: datasheets(_write(f / "Nested.catz", zipped(
        "inner.catz", encode(doc(CAT), "zip")))))
    for member in ("../../../../tmp/hostile-cli-escape.ros", "/tmp/hostile-cli-absolute.ros"):
        add(f"a member named {member}", lambda f, m=member: _traversal(f, m))
    return out


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _copy(src: Path, dst: Path) -> Path:
    return _write(dst, src.read_bytes())


def _beside(folder: Path, data: bytes, name: str) -> Case:
    """A hostile file beside the fixture catalogue: listing the catalogue still works (exit 0),
    or refuses naming the catalogue or the file beside it."""
    path = catalogue_folder(folder, doc(CAT))
    _write(folder / name, data)
    return datasheets(path, exits=(0, 2), names=(str(path), str(folder / name)))


def _liar() -> bytes:
    raw, crc, total = _deflated_spaces(b"<catalogue>", 40 << 20, b"</catalogue>")
    return _zip_raw("liar.cat", raw, zipfile.ZIP_DEFLATED, total, crc, stated=1024)


def _members(n: int) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for i in range(n):
            z.writestr(f"m{i}.cat", b"<catalogue/>")
    return buf.getvalue()


def _traversal(folder: Path, member: str) -> Case:
    """A roster zipped under a member name reaching outside: read in memory, nothing written there."""
    path = _write(folder / "list.rosz", zipped(member, (DATA / "ashen.ros").read_bytes()))
    case = import_roster(path, folder, exits=(0, 2))
    return case._replace(absent=(member if member.startswith("/") else str(folder / member),))


# --- XML and JSON shapes -----------------------------------------------------------------------------

def _many_attributes(n: int) -> bytes:
    """One element of ``n`` distinct attributes ` aXXXX=""` (names in base 64, so the file
    stays within the importers' 32 MB): built as an array, not a string at a time."""
    import numpy as np
    alphabet = np.frombuffer(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-", dtype=np.uint8)
    pairs = np.stack(np.meshgrid(alphabet, alphabet, indexing="ij"), -1).reshape(4096, 2)
    i = np.arange(n, dtype=np.int32)
    rows = np.empty((n, 9), dtype=np.uint8)
    rows[:, 0:2] = np.frombuffer(b" a", dtype=np.uint8)
    rows[:, 2:4] = pairs[i >> 12]
    rows[:, 4:6] = pairs[i & 4095]
    rows[:, 6:9] = np.frombuffer(b'=""', dtype=np.uint8)
    return b'<?xml version="1.0"?>\n<catalogue id="c" name="Many"' + rows.tobytes() + b"/>\n"


def shape_specs() -> list[Spec]:
    out = []

    def add(what, make, form="xml", command="datasheets"):
        def build(f):
            data = make()
            if command == "datasheets":
                return datasheets(catalogue_folder(f, data, form))
            return import_roster(roster_file(f, data, form), f)
        out.append(Spec("shapes", what, build))

    add("3.5 million attributes on one element", lambda: _many_attributes(3_500_000))
    add("500,000 elements", lambda: b"<catalogue id='c'>" + b"<x/>" * 500_000 + b"</catalogue>")
    add("elements 5,000 deep", lambda: b"<catalogue id='c'>" + b"<x>" * 5000 + b"</x>" * 5000 + b"</catalogue>")
    add("elements 110 deep", lambda: b"<catalogue id='c'>" + b"<x>" * 110 + b"</x>" * 110 + b"</catalogue>")
    add("JSON nested 101 deep", lambda: b'{"catalogue": ' + b'{"a": ' * 101 + b"1" + b"}" * 102, "json")
    add("roster selections 300 deep", lambda: _deep_roster(300), "json", "roster")
    return out


def _deep_roster(depth: int) -> bytes:
    sel: dict = {"id": "s", "name": "Deep", "type": "upgrade", "number": 1}
    inner = sel
    for i in range(depth):
        nxt = {"id": f"s{i}", "name": f"Deep {i}", "type": "upgrade", "number": 1}
        inner["selections"] = [nxt]
        inner = nxt
    return json.dumps({"roster": {"forces": [{"selections": [sel]}]}}).encode()


# --- numbers ---------------------------------------------------------------------------------------

# (label, JSON text, XML attribute text)
NUMBERS = [("NaN", "NaN", "NaN"), ("Infinity", "Infinity", "INF"), ("-Infinity", "-Infinity", "-inf"),
           ("1e400", "1e400", "1e400"), ("4000 digits", "9" * 4000, "9" * 4000),
           ("-4000 digits", "-" + "9" * 4000, "-" + "9" * 4000), ("10^30", "1" + "0" * 30, "1" + "0" * 30)]
_MARK = "HOSTILE-NUMBER-6d1f"


def _places(data, path=()):
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _places(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _places(v, path + (i,))


def family(path: tuple) -> str:
    return "".join("[]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".")


def _first_of_each(data, keep: Callable[[tuple, object], bool]) -> dict[str, tuple]:
    out: dict[str, tuple] = {}
    for p, v in _places(data):
        if p and keep(p, v):
            out.setdefault(family(p), p)
    return out


def _set(data, path, value) -> None:
    for k in path[:-1]:
        data = data[k]
    data[path[-1]] = value


def _get(data, path):
    for k in path:
        data = data[k]
    return data


def _numeric(p, v) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool)) or (
        p[-1] == "value" and isinstance(v, str))


# the catalogue's numeric fields the import reads (costs, constraints, modifiers and their repeats),
# and the characteristics of a model and a weapon (their text is a number the stat reader reads)
def _number_places(which: str) -> list[tuple[str, tuple]]:
    d = doc(which)
    fams = _first_of_each(d, _numeric)
    fams = {f: p for f, p in fams.items() if not f.endswith(("revision",))}
    return sorted(fams.items())


def _with_number(which: str, path: tuple, json_text: str, form: str) -> bytes:
    d = doc(which)
    _set(d, path, _MARK)
    text = json.dumps(d) if form == "json" else to_xml(d)
    quoted = json.dumps(_MARK) if form == "json" else f'"{_MARK}"'
    return text.replace(quoted, json_text if form == "json" else f'"{json_text}"', 1).encode()


def _sheet_at(path: tuple) -> str:
    """The name of the catalogue's datasheet a place is in (catalogue.sharedSelectionEntries[i]...)."""
    return doc(CAT)["catalogue"]["sharedSelectionEntries"][path[2]]["name"]


def number_specs() -> list[Spec]:
    """Every numeric field of the catalogue and the roster (one place per family), each set in
    turn to NaN, infinities, 1e400, 4,000-digit and huge numbers, in JSON and XML alternately: a
    refusal naming the file."""
    out = []
    k = 0
    for which in (CAT, "roster"):
        for fi, (fam, path) in enumerate(_number_places(which)):
            for j in range(2):
                label, jtext, xtext = NUMBERS[k % len(NUMBERS)]
                form = ("json", "xml")[(fi + j) % 2]
                k += 1

                def build(f, which=which, path=path, text=(jtext if form == "json" else xtext), form=form,
                          listing=fam.endswith("costs[].value") and j == 0):
                    data = _with_number(which, path, text, form)
                    if which == CAT and listing:  # (the listing prints the points: "nan pts")
                        return datasheets(catalogue_folder(f, data, form))
                    if which == CAT:
                        return import_sheet(catalogue_folder(f, data, form), _sheet_at(path), f)
                    return import_roster(roster_file(f, data, form), f)
                out.append(Spec("numbers", f"{'catalogue' if which == CAT else 'roster'} {fam}={label} ({form})",
                                build))
    # characteristics: a model's and a weapon's statline text
    for which, fam in ((CAT, "W"), (CAT, "T"), ("roster", "A"), ("roster", "D"), ("roster", "M"), ("roster", "S")):
        for label, _, text in (NUMBERS[0], NUMBERS[3], NUMBERS[4]):
            def build(f, which=which, fam=fam, text=text):
                d = doc(which)
                p, c = next((p, c) for p, c in _places(d)
                            if isinstance(c, dict) and c.get("name") == fam and "$text" in c)
                c["$text"] = text
                if which == CAT:
                    return import_sheet(catalogue_folder(f, d, "json"), _sheet_at(p), f)
                return import_roster(roster_file(f, d, "json"), f)
            out.append(Spec("numbers", f"{'catalogue' if which == CAT else 'roster'} characteristic {fam}={label}",
                            build))
    # a 4,000-digit number where text is expected (an id, a name): read as text, or refused
    for which, field in ((CAT, "id"), (CAT, "name"), ("roster", "name")):
        def build(f, which=which, field=field):
            d = doc(which)
            body = d[next(iter(d))]
            sheet = body["sharedSelectionEntries"][0] if which == CAT else body["forces"][0]["selections"][1]
            sheet[field] = "9" * 4000
            if which == CAT:
                return datasheets(catalogue_folder(f, d, "json"), exits=(0, 2))
            return import_roster(roster_file(f, d, "json"), f, exits=(0, 2))
        out.append(Spec("numbers", f"{'catalogue' if which == CAT else 'roster'} a 4000-digit {field}", build))
    return out


def repeat_specs() -> list[Spec]:
    """A modifier's repeat (its value and its count) set to NaN, infinity and 4,000 digits."""
    out = []
    for label, text, _ in NUMBERS[:1] + NUMBERS[1:2] + NUMBERS[4:5]:
        for key in ("value", "repeats"):
            def build(f, text=text, key=key):
                d = doc(CAT)
                p, mod = next((p, m) for p, m in _places(d) if p and p[-2:-1] == ("modifiers",) and isinstance(m, dict))
                rep = {"field": "selections", "scope": "parent", "value": 1, "repeats": 1, "childId": "any",
                       "shared": True, "roundUp": False}
                rep[key] = _MARK
                mod["repeats"] = [rep]
                data = json.dumps(d).replace(json.dumps(_MARK), text, 1).encode()
                return import_sheet(catalogue_folder(f, data, "json"), _sheet_at(p), f)
            out.append(Spec("numbers", f"catalogue modifier repeat {key}={label}", build))
    return out


# --- links -----------------------------------------------------------------------------------------

def _sheet(d: dict) -> dict:
    return d["catalogue"]["sharedSelectionEntries"][0]


def _link(i, target: str, kind: str) -> dict:
    return {"id": f"lk-{i}", "name": f"Link {i}", "targetId": target, "type": kind}


def _info_groups(ids_links: list[tuple[str, list[str]]]) -> list[dict]:
    return [{"id": g, "name": f"Group {g}", "infoLinks": [_link(f"{g}-{j}", t, "infoGroup") for j, t in enumerate(ts)]}
            for g, ts in ids_links]


def _entry_groups(ids_links: list[tuple[str, list[str]]]) -> list[dict]:
    return [{"id": g, "name": f"Group {g}", "entryLinks": [_link(f"{g}-{j}", t, "selectionEntryGroup")
                                                          for j, t in enumerate(ts)]} for g, ts in ids_links]


def _linked(kind: str, groups: list[tuple[str, list[str]]], first: str) -> dict:
    """The fixture catalogue whose first datasheet links ``first``, a shared info group or
    selection entry group of ``groups`` (id, the ids it links)."""
    d = doc(CAT)
    c = d["catalogue"]
    if kind == "info":
        c["sharedInfoGroups"] = _info_groups(groups)
        _sheet(d).setdefault("infoLinks", []).append(_link("start", first, "infoGroup"))
    else:
        c["sharedSelectionEntryGroups"] = c.get("sharedSelectionEntryGroups", []) + _entry_groups(groups)
        _sheet(d).setdefault("entryLinks", []).append(_link("start", first, "selectionEntryGroup"))
    return d


def _tree(width: int, depth: int) -> list[tuple[str, list[str]]]:
    return [(f"g{k}", [f"g{k + 1}"] * width if k < depth - 1 else []) for k in range(depth)]


def _shared_entry(sheets: int, links: int) -> dict:
    """``sheets`` datasheets, each linking one shared entry of ``links`` links to one rule."""
    d = doc(CAT)
    c = d["catalogue"]
    shared = {"id": "e-shared", "name": "Shared kit", "type": "upgrade",
              "infoLinks": [_link(f"s{i}", "p-Oath of Cinders", "profile") for i in range(links)]}
    c["sharedSelectionEntries"].append(shared)
    statline = next(v for _, v in _places(d) if isinstance(v, dict) and v.get("typeName") == "Unit")
    for i in range(sheets):
        name = f"Sheet {i:04}"
        c["sharedSelectionEntries"].append({"id": f"u-{i}", "name": name, "type": "model",
                                            "profiles": [{**statline, "id": f"p-{i}", "name": name}],
                                            "entryLinks": [_link(f"u{i}", "e-shared", "selectionEntry")]})
        c["entryLinks"].append(_link(f"d{i}", f"u-{i}", "selectionEntry"))
    return d


def _profiles(n: int) -> bytes:
    """The fixture catalogue whose first datasheet has ``n`` more weapon profiles named "Gun"
    (the JSON text written directly: dumping a document of 25,000 profiles is slow)."""
    d = doc(CAT)
    _sheet(d).setdefault("profiles", []).append(_MARK)
    gun = json.dumps({"id": "ID", "name": "Gun", "typeName": "Ranged Weapons", "characteristics": [
        {"name": k, "$text": v} for k, v in (("Range", '24"'), ("A", "1"), ("BS", "3+"), ("S", "4"), ("AP", "0"),
                                             ("D", "1"))]})  # (within the 1,500,000 JSON values)
    head, tail = gun.split('"ID"')
    many = ", ".join(f'{head}"g{i}"{tail}' for i in range(n))
    return json.dumps(d).replace(json.dumps(_MARK), many, 1).encode()


def _library_cycle(folder: Path, n: int) -> Path:
    """The catalogue links a library that links the next ... and the last links the catalogue."""
    d = doc(CAT)
    path = catalogue_folder(folder, d)
    ids = [f"lib-{k}" for k in range(n)]
    d["catalogue"]["catalogueLinks"].append({"id": "cl-0", "name": "Ring 0", "targetId": ids[0],
                                             "type": "catalogue", "importRootEntries": True})
    path.write_text(json.dumps(d))
    for k, lid in enumerate(ids):
        nxt = ids[k + 1] if k + 1 < n else "cat-ashen"
        lib = {"catalogue": {"id": lid, "name": f"Ring {k}", "library": True, "revision": 1,
                             "gameSystemId": "sys-test", "type": "catalogue",
                             "catalogueLinks": [{"id": f"cl-{k + 1}", "name": f"Ring {k + 1}", "targetId": nxt,
                                                 "type": "catalogue", "importRootEntries": True}]}}
        (folder / f"Ring {k}.json").write_text(json.dumps(lib))
    return path


def link_specs() -> list[Spec]:
    """Links that loop, chain, fan out or repeat: the import ends within its budget, with the
    listing (a visited set skips what it has seen) or one refusal naming the catalogue."""
    out = []

    def add(what, make, search=None, writes=False, sheet=None):
        def build(f):
            path = make(f) if writes else catalogue_folder(f, make())
            if sheet:
                return import_sheet(path, sheet, f, exits=(0, 2))
            more = ("--search", search) if search else ()
            return datasheets(path, *more, exits=(2, 0))
        out.append(Spec("links", what, build))

    for kind in ("info", "entry"):
        add(f"{kind} group linking itself", lambda kind=kind: _linked(kind, [("g0", ["g0"])], "g0"))
        add(f"two {kind} groups linking each other",
            lambda kind=kind: _linked(kind, [("g0", ["g1"]), ("g1", ["g0"])], "g0"))
        add(f"a chain of 3,000 {kind} group links",
            lambda kind=kind: _linked(kind, [(f"g{k}", [f"g{k + 1}"] if k < 2999 else []) for k in range(3000)], "g0"))
        add(f"{kind} groups 30 wide and 6 deep", lambda kind=kind: _linked(kind, _tree(30, 6), "g0"))
        add(f"{kind} groups 2 wide and 40 deep", lambda kind=kind: _linked(kind, _tree(2, 40), "g0"))
    add("an entry link to itself", lambda: _self_entry())
    add("2,000 datasheets sharing an entry of 19,000 links", lambda: _shared_entry(2000, 19_000), search="Sheet 1999")
    add("2,000 datasheets sharing an entry of 19,000 links, imported", lambda: _shared_entry(2000, 19_000),
        sheet="Sheet 1999")
    add("25,000 weapon profiles of one name", lambda: _profiles(25_000))
    add("25,000 weapon profiles of one name, imported", lambda: _profiles(25_000), sheet=first_sheet())
    add("5,000 weapon profiles of one name, imported", lambda: _profiles(5_000), sheet=first_sheet())
    add("libraries linking in a ring of 2", lambda f: _library_cycle(f, 1), writes=True)
    add("libraries linking in a ring of 40", lambda f: _library_cycle(f, 40), writes=True)
    return out


def _self_entry() -> dict:
    d = doc(CAT)
    _sheet(d).setdefault("entryLinks", []).append(_link("me", _sheet(d)["id"], "selectionEntry"))
    return d


# --- files that are no regular file: beside a catalogue, as --out, as --bases -------------------------

def _fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def _device(path: Path, device: str = "/dev/zero") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(device, path)
    return path


def _sparse(path: Path, size: int = 3 << 30) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        f.truncate(size)  # sparse: costs no disk
    return path


def _deep_toml(path: Path, depth: int = 5000) -> Path:
    return _write(path, ("x = " + "[" * depth + "]" * depth + "\n").encode())


def _dir(path: Path) -> Path:
    path.mkdir(parents=True)
    return path


# what --out and --bases are given: (label, make(path) -> the path to give)
ODD_FILES = [("/dev/zero", lambda p: "/dev/zero"), ("/dev/full", lambda p: "/dev/full"),
             ("a FIFO", lambda p: str(_fifo(p))), ("a 3 GB sparse file", lambda p: str(_sparse(p))),
             ("a symlink to /dev/zero", lambda p: str(_device(p))), ("a folder", lambda p: str(_dir(p))),
             ("TOML nested 5,000 deep", lambda p: str(_deep_toml(p)))]


def file_specs() -> list[Spec]:
    out = []

    def add(what, build):
        out.append(Spec("files", what, build))

    for name in ("Fifo.cat", "Fifo.gst", "Fifo.json", "Fifo.catz"):
        add(f"a FIFO {name} beside the catalogue", lambda f, n=name: _odd_beside(f, lambda p: _fifo(p), n))
    add("a symlink to /dev/zero beside the catalogue", lambda f: _odd_beside(f, _device, "Zero.gst"))
    add("a symlink to /dev/urandom beside the catalogue",
        lambda f: _odd_beside(f, lambda p: _device(p, "/dev/urandom"), "Random.cat"))
    add("a FIFO in a --coverage folder", lambda f: _coverage_fifo(f))
    add("the catalogue a FIFO", lambda f: datasheets(_fifo(f / "Ashen Concord.cat")))
    add("the catalogue a symlink to /dev/zero", lambda f: datasheets(_device(f / "Ashen Concord.cat")))
    add("the roster a FIFO", lambda f: import_roster(_fifo(f / "list.ros"), f))
    add("the roster /dev/zero", lambda f: import_roster(Path("/dev/zero"), f))
    for label, make in ODD_FILES:
        def out_case(f, make=make):
            path = catalogue_folder(f / "cat", doc(CAT))
            target = make(f / "out.toml")
            return Case("", "", ("import", "datasheet", str(path), first_sheet(), "--out", target), (2,), (target,))

        def bases_case(f, make=make):
            target = make(f / "bases.toml")
            return import_roster(DATA / "ashen.json", f, "--bases", target, names=(target,))
        add(f"--out {label}", out_case)
        add(f"--bases {label}", bases_case)
    return out


def _odd_beside(folder: Path, make, name: str) -> Case:
    path = catalogue_folder(folder, doc(CAT))
    make(folder / name)
    return datasheets(path, exits=(0,))


def _coverage_fifo(folder: Path) -> Case:
    catalogue_folder(folder, doc(CAT))
    _fifo(folder / "Fifo.cat")
    return Case("", "", ("datasheets", "--coverage", str(folder)), (0,), (str(folder),), "catalogue")


# --- control, bidirectional and zero-width characters in names the report writes --------------------

def control_specs() -> list[Spec]:
    """Names that reach the report (its `#` comments in the written TOML, and standard output):
    the import writes a scenario tomllib reads, or refuses the name; every line it prints is
    escaped."""
    out = []

    def add(what, build):
        out.append(Spec("control", what, build))

    def cat_named(where: str, text: str):
        def build(f):
            d = doc(CAT)
            if where == "category":
                c = next(c for c in _sheet(d)["categoryLinks"] if c["name"] == "Battleline")
                c["name"] = text
            elif where == "wargear":
                lib = doc(LIB)
                lib["catalogue"]["sharedSelectionEntries"][0]["name"] = text
                path = catalogue_folder(f, d)
                (f / f"{LIB}.json").write_text(json.dumps(lib))
                return import_sheet(path, first_sheet(), f, exits=(0, 2))
            elif where == "datasheet":
                _sheet(d)["name"] = text
                return import_sheet(catalogue_folder(f, d), text, f, exits=(0, 2))
            elif where == "ability":
                _sheet(d)["profiles"][0]["name"] = text
            return import_sheet(catalogue_folder(f, d), first_sheet(), f, exits=(0, 2))
        return build

    for where, text in (("category", "Battle\x1b[2Jline"), ("category", "Battle\x07line\x9b1m"),
                        ("wargear", "Arc\x1b]0;owned\x07 carbine"), ("wargear", "Arc\u202ecarbine"),
                        ("datasheet", "Warden\u200bBlades"), ("datasheet", "Warden\u202eBlades"),
                        ("ability", "Oath\x1b[31m of Cinders"), ("ability", "Oath\u2066 of\u2069 Cinders")):
        add(f"{where} named {text!r}", cat_named(where, text))
    for fname in ("li\x1b[2Jst.json", "li\x1b]0;owned\x07st.json", "li\u202est.json", "li\u200bst.json"):
        add(f"a roster file named {fname!r}",
            lambda f, n=fname: import_roster(_copy(DATA / "ashen.json", f / n), f, exits=(0,)))
    for fname in ("b\x1b[31mases.toml", "b\u202eases.toml"):
        def bases(f, n=fname):
            target = _write(f / n, b'[datasheets]\n"Warden Blades" = { base_mm = 40 }\n')
            return import_roster(DATA / "ashen.json", f, "--bases", str(target), exits=(0,), names=(str(target),))
        add(f"a --bases file named {fname!r}", bases)
    d_unit = ("roster", "forces", 0, "selections", 1, "name")
    for text in ("Warden\x1b[2JBlades", "Warden\u202eBlades", "Warden\x00Blades"):
        def unit(f, text=text):
            d = doc("roster")
            _set(d, d_unit, text)
            return import_roster(roster_file(f, d), f, exits=(0, 2))
        add(f"a roster unit named {text!r}", unit)
    return out


# --- a wrong type at every level of the fixtures ------------------------------------------------------

WRONG = [("int", 7), ("string", "many"), ("bool", True), ("float", 2.5), ("list", [1, 2]), ("object", {"x": 1}),
         ("null", None), ("empty list", []), ("empty object", {})]


def _kind(v) -> str:
    return ("null" if v is None else "bool" if isinstance(v, bool) else "int" if isinstance(v, int)
            else "float" if isinstance(v, float) else "string" if isinstance(v, str)
            else ("empty list" if not v else "list") if isinstance(v, list)
            else "empty object" if not v else "object")


def _spread(fams: dict[str, tuple], per_depth: int) -> list[tuple[str, tuple]]:
    """Up to ``per_depth`` families at each depth, picked evenly from the sorted list."""
    by_depth: dict[int, list] = {}
    for fam, path in sorted(fams.items()):
        by_depth.setdefault(len(path), []).append((fam, path))
    out = []
    for depth in sorted(by_depth):
        row = by_depth[depth]
        step = max(1, len(row) // per_depth)
        out += row[::step][:per_depth]
    return out


def mutation_specs() -> list[Spec]:
    """The catalogue and the roster fixtures, each field or container at every level set to a
    value of another type: the listing or import, or one refusal naming the file (the catalogue
    listed and imported in turn)."""
    out = []
    k = 0
    for which, per_depth, each in ((CAT, 6, 2), ("roster", 4, 1)):
        fams = _first_of_each(doc(which), lambda p, v: True)
        for fam, path in _spread(fams, per_depth):
            v = _get(doc(which), path)
            for _ in range(each):
                while True:
                    label, value = WRONG[k % len(WRONG)]
                    k += 1
                    if label != _kind(v) and not (label.startswith("empty") and not isinstance(v, (list, dict))):
                        break
                form = "json"  # (types are JSON's: XML has text only)

                def build(f, which=which, path=path, value=value, form=form, listing=k % 2 == 0):
                    d = doc(which)
                    _set(d, path, copy.deepcopy(value))
                    if which == CAT and listing:
                        return datasheets(catalogue_folder(f, d, form), exits=(2, 0, 1))
                    if which == CAT:  # (the import reads what the listing does not: constraints, modifiers)
                        inside = path[1:2] == ("sharedSelectionEntries",) and len(path) > 3
                        return import_sheet(catalogue_folder(f, d, form), _sheet_at(path) if inside else first_sheet(),
                                            f, exits=(2, 0))
                    return import_roster(roster_file(f, d, form), f, exits=(2, 0))
                out.append(Spec("mutations", f"{'catalogue' if which == CAT else 'roster'} {fam}={label}", build))
    return out


_SPECS: list[Spec] = []


def specs() -> list[Spec]:
    """Every case, always in the same order."""
    if _SPECS:
        return list(_SPECS)
    import hostile_cli_args as A  # (it builds on this module's Case and Spec)
    out = (zip_specs() + shape_specs() + number_specs() + repeat_specs() + link_specs() + file_specs()
           + control_specs() + mutation_specs() + A.odds_specs() + A.matrix_specs() + A.option_specs())
    names = [s.name for s in out]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, dup
    _SPECS.extend(out)
    return list(out)


def generate(folder: str | Path, select=None) -> list[Case]:
    """Write the cases at the indices ``select`` (all by default), each in its own folder under
    ``folder``."""
    folder = Path(folder)
    all_specs = specs()
    cases = []
    for i in (range(len(all_specs)) if select is None else select):
        s = all_specs[i]
        c = s.build(folder / f"{i:03}-{_slug(s.what)}")
        cases.append(c._replace(name=s.name, category=s.category))
    return cases


if __name__ == "__main__":
    import collections
    import sys
    import time
    if sys.argv[1:] == ["--bombs"]:
        make_bombs()
        raise SystemExit(0)
    all_specs = specs()
    print(len(all_specs), "cases")
    for c, n in sorted(collections.Counter(s.category for s in all_specs).items()):
        print(f"  {c:12} {n}")
    if len(sys.argv) > 1:
        t = time.perf_counter()
        cases = generate(sys.argv[1])
        print(f"written in {time.perf_counter() - t:.2f} s")
        for c in cases:
            print(c.exits, c.name, c.argv[:3])
