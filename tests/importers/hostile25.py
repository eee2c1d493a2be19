"""Issue 25's hostile importer cases (the "Importers" bullets), written into a folder: each a
command line of `sim` and what it must give (exit status 2 and one line naming the place, or a
documented answer). Every unit, weapon and catalogue here is the project's own invention. Used by
test_import_bounds.py (through the real command line, under an address-space limit) and runnable
alone to see each case's answer and time:

    PYTHONPATH=. python tests/importers/hostile25.py [FILTER]
"""

from __future__ import annotations

import bz2
import io
import itertools
import json
import lzma
import os
import string
import struct
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Case:
    what: str
    argv: list[str]
    rc: int = 2  # the exit status expected
    has: str = ""  # a piece of the one stderr line (rc 2) or of stdout (rc 0)
    out: Path | None = None  # --out: must not be written when refused
    lines: int = 1  # lines on stderr when refused
    extra: dict = field(default_factory=dict)


# --- invented data -----------------------------------------------------------------------------

def statline(name="Ember Warden", **over):
    chars = {"M": '6"', "T": "4", "Sv": "3+", "W": "2", "LD": "6+", "OC": "1"}
    chars.update(over)
    return {"id": "p-stat", "name": name, "typeName": "Unit",
            "characteristics": [{"name": k, "$text": v} for k, v in chars.items()]}


def gun(name="Cinder carbine", ident="p-gun", **over):
    chars = {"Range": '24"', "A": "2", "BS": "3+", "S": "4", "AP": "-1", "D": "1", "Keywords": "-"}
    chars.update(over)
    return {"id": ident, "name": name, "typeName": "Ranged Weapons",
            "characteristics": [{"name": k, "$text": v} for k, v in chars.items()]}


def sheet(name="Ember Wardens", ident="u-1", **extra) -> dict:
    """A one-model-entry datasheet: 5 models with a carbine each."""
    d = {"id": ident, "name": name, "type": "unit", "costs": [{"name": "pts", "typeId": "points", "value": 90}],
         "categoryLinks": [{"id": "cl-inf", "name": "Infantry", "targetId": "cat-inf"}],
         "selectionEntries": [{
             "id": ident + "-m", "name": "Ember Warden", "type": "model",
             "constraints": [{"id": ident + "-min", "type": "min", "value": 5, "field": "selections", "scope": "parent"},
                             {"id": ident + "-max", "type": "max", "value": 10, "field": "selections", "scope": "parent"}],
             "profiles": [statline()],
             "selectionEntries": [{"id": ident + "-g", "name": "Cinder carbine", "type": "upgrade",
                                   "constraints": [{"id": ident + "-gmin", "type": "min", "value": 1,
                                                    "field": "selections", "scope": "parent"}],
                                   "profiles": [gun()]}]}]}
    d.update(extra)
    return d


def catalogue(sheets=None, **extra) -> dict:
    c = {"id": "cat-ember", "name": "Ember Pact", "type": "catalogue", "library": False,
         "sharedSelectionEntries": list(sheets if sheets is not None else [sheet()]),
         "entryLinks": [], "categoryEntries": [{"id": "cat-inf", "name": "Infantry"}]}
    c["entryLinks"] = [{"id": f"root-{s['id']}", "name": s["name"], "targetId": s["id"], "type": "selectionEntry"}
                       for s in c["sharedSelectionEntries"] if s.get("type") == "unit"]
    c.update(extra)
    return {"catalogue": c}


SYSTEM = {"gameSystem": {"id": "sys-ember", "name": "Ember system", "type": "gameSystem",
                         "costTypes": [{"id": "points", "name": "pts"}]}}


def roster(units=None, name="Ember roster") -> dict:
    if units is None:
        units = [{"name": "Ember Wardens", "type": "unit", "number": 1,
                  "costs": [{"name": "pts", "typeId": "points", "value": 90}],
                  "categories": [{"name": "Infantry"}],
                  "selections": [{"name": "Ember Warden", "type": "model", "number": 5,
                                  "profiles": [statline()],
                                  "selections": [{"name": "Cinder carbine", "type": "upgrade", "number": 5,
                                                  "profiles": [gun()]}]}]}]
    return {"roster": {"name": name, "forces": [{"selections": units}]}}


# --- zips with any compression method --------------------------------------------------------

def zip_with(name: str, data: bytes, method: int) -> bytes:
    """A one-member zip whose member is compressed with ``method`` (stored, deflate, bzip2,
    LZMA), written by hand so the header's sizes and CRC are what the data says."""
    if method == zipfile.ZIP_STORED:
        comp = data
    elif method == zipfile.ZIP_DEFLATED:
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        comp = c.compress(data) + c.flush()
    elif method == zipfile.ZIP_BZIP2:
        comp = bz2.compress(data, 9)
    else:
        props = lzma._encode_filter_properties({"id": lzma.FILTER_LZMA1})  # noqa: SLF001 (the test's own writer)
        c = lzma.LZMACompressor(lzma.FORMAT_RAW, filters=[lzma._decode_filter_properties(lzma.FILTER_LZMA1, props)])
        comp = struct.pack("<BBH", 9, 4, len(props)) + props + c.compress(data) + c.flush()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        info = zipfile.ZipInfo(name)
        info.compress_type = zipfile.ZIP_STORED
        z.writestr(info, b"")
    # rewrite: one local header, the data, one central directory entry
    fname = name.encode()
    crc = zlib.crc32(data)
    version = 63 if method == zipfile.ZIP_LZMA else 46 if method == zipfile.ZIP_BZIP2 else 20
    local = struct.pack("<4sHHHHHLLLHH", b"PK\x03\x04", version, 0, method, 0, 0x21, crc, len(comp),
                        len(data) & 0xFFFFFFFF, len(fname), 0) + fname
    central = struct.pack("<4sHHHHHHLLLHHHHHLL", b"PK\x01\x02", 20, version, 0, method, 0, 0x21, crc, len(comp),
                          len(data) & 0xFFFFFFFF, len(fname), 0, 0, 0, 0, 0, 0) + fname
    body = local + comp
    end = struct.pack("<4sHHHHLLH", b"PK\x05\x06", 0, 0, 1, 1, len(central), len(body), 0)
    return body + central + end


def bomb(method: int, unpacked: int = 1 << 30) -> bytes:
    """A roster zip whose one member unpacks to ``unpacked`` bytes (spaces inside <roster>)."""
    head, tail = b"<roster>", b"</roster>"
    if method == zipfile.ZIP_BZIP2:
        c = bz2.BZ2Compressor(9)
        parts = [c.compress(head)]
        chunk = b" " * (1 << 24)
        for _ in range(unpacked // len(chunk)):
            parts.append(c.compress(chunk))
        parts.append(c.compress(tail))
        parts.append(c.flush())
        comp = b"".join(parts)
        return _zip_raw("bomb.ros", comp, method, unpacked + len(head) + len(tail))
    if method == zipfile.ZIP_LZMA:
        props = lzma._encode_filter_properties({"id": lzma.FILTER_LZMA1})  # noqa: SLF001
        c = lzma.LZMACompressor(lzma.FORMAT_RAW, filters=[lzma._decode_filter_properties(lzma.FILTER_LZMA1, props)])
        parts = [struct.pack("<BBH", 9, 4, len(props)) + props, c.compress(head)]
        chunk = b" " * (1 << 24)
        for _ in range(unpacked // len(chunk)):
            parts.append(c.compress(chunk))
        parts.append(c.compress(tail))
        parts.append(c.flush())
        return _zip_raw("bomb.ros", b"".join(parts), method, unpacked + len(head) + len(tail))
    raise ValueError(method)


BOMBS = Path(__file__).with_name("data") / "bombs"  # bomb() of each, written by `hostile25.py --bombs` (slow)


def _zip_raw(name: str, comp: bytes, method: int, size: int) -> bytes:
    fname = name.encode()
    version = 63 if method == zipfile.ZIP_LZMA else 46
    local = struct.pack("<4sHHHHHLLLHH", b"PK\x03\x04", version, 0, method, 0, 0x21, 0, len(comp),
                        size & 0xFFFFFFFF, len(fname), 0) + fname
    central = struct.pack("<4sHHHHHHLLLHHHHHLL", b"PK\x01\x02", 20, version, 0, method, 0, 0x21, 0, len(comp),
                          size & 0xFFFFFFFF, len(fname), 0, 0, 0, 0, 0, 0) + fname
    body = local + comp
    return body + central + struct.pack("<4sHHHHLLH", b"PK\x05\x06", 0, 0, 1, 1, len(central), len(body), 0)


# --- the cases ----------------------------------------------------------------------------------

def _dump(p: Path, doc) -> Path:
    p.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    return p


def _cat_folder(base: Path, name: str, doc: dict, system: bool = True, extra: dict | None = None) -> Path:
    d = base / name
    d.mkdir()
    if system:
        _dump(d / "Ember system.json", SYSTEM)
    for fname, other in (extra or {}).items():
        _dump(d / fname, other)
    return _dump(d / "Ember Pact.json", doc)


def cases(base: Path) -> list[Case]:
    out: list[Case] = []
    n = iter(range(10_000))

    def roster_case(what, data, has="", name=None, rc=2, fmt="json"):
        p = base / (name or f"r{next(n)}.{fmt}")
        p.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())
        o = base / f"o{next(n)}.toml"
        out.append(Case(what, ["import", "roster", str(p), "--out", str(o)], rc, has, o))

    def sheet_case(what, doc, has="", rc=2, name="Ember Wardens", system=True, extra=None, list_only=False):
        p = _cat_folder(base, f"c{next(n)}", doc, system, extra)
        if list_only:
            out.append(Case(what, ["datasheets", str(p)], rc, has))
            return
        o = base / f"o{next(n)}.toml"
        out.append(Case(what, ["import", "datasheet", str(p), name, "--out", str(o)], rc, has, o))

    # zips: every method zip allows, bombs of the unbounded ones
    good = json.dumps(roster()).encode()
    for method, label in ((zipfile.ZIP_STORED, "stored"), (zipfile.ZIP_DEFLATED, "deflate"),
                          (zipfile.ZIP_BZIP2, "bzip2"), (zipfile.ZIP_LZMA, "LZMA")):
        roster_case(f"zip: a good roster, {label}", zip_with("ember.json", good, method), rc=0, fmt="rosz")
    roster_case("zip: bzip2 bomb (1 GB in ~1 KB)", (BOMBS / "bzip2.rosz").read_bytes(), "MB unpacked", fmt="rosz")
    roster_case("zip: LZMA bomb (1 GB in 150 KB)", (BOMBS / "lzma.rosz").read_bytes(), "MB unpacked", fmt="rosz")
    roster_case("zip: an unknown compression method", _zip_raw("x.ros", b"junk", 99, 4), "compression", fmt="rosz")
    roster_case("zip: a bad CRC", zip_with("ember.json", good, zipfile.ZIP_DEFLATED).replace(
        struct.pack("<L", zlib.crc32(good)), b"\0\0\0\0"), "zip", fmt="rosz")

    # XML: attributes counted before the parse builds them
    letters = string.ascii_letters
    short = ("".join(p) for k in range(1, 5) for p in itertools.product(letters, repeat=k))
    attrs = "".join(f' {a}=""' for a, _ in zip(short, range(3_500_000)))  # (about 28 MB)
    roster_case("XML: 3.5 million attributes on one element", f"<roster{attrs}/>".encode(), "attributes", fmt="ros")
    roster_case("XML: 300 attributes on one element", ("<roster" + "".join(f' a{i}="1"' for i in range(300))
                                                       + "><forces/></roster>").encode(), "attributes", fmt="ros")

    # numbers
    big = "9" * 4000
    for label, v in (("NaN", "NaN"), ("Infinity", "Infinity"), ("1e400", "1e400"), ("4,000 digits", big)):
        r = json.dumps(roster())
        roster_case(f"roster: {label} as a model count", r.replace('"number": 5', f'"number": {v}', 1).encode(), "number")
        roster_case(f"roster: {label} as a cost", r.replace('"value": 90', f'"value": {v}', 1).encode(), "cost")
        c = json.dumps(catalogue()).replace('"value": 5', f'"value": {v}', 1)
        sheet_case(f"catalogue: {label} as a minimum", json.loads(c) if v != big else c, "min")
        c = json.dumps(catalogue()).replace('"value": 90', f'"value": {v}', 1)
        sheet_case(f"catalogue: {label} as a cost (listing)", json.loads(c) if v != big else c, "cost", list_only=True)
    roster_case("roster: a 4,000-digit id", json.dumps(roster()).replace('"name": "Ember roster"',
                                                                         f'"name": "Ember roster", "id": {big}').encode(),
                rc=0)
    roster_case("roster: a 4,000-digit unit name", json.dumps(roster()).replace('"name": "Ember Wardens"',
                                                                                f'"name": {big}', 1).encode(), "name")
    mod = {"type": "increment", "field": "points", "value": 1,
           "repeats": [{"field": "selections", "scope": "self", "childId": "model", "value": 1, "repeats": 1}]}
    for label, v in (("NaN", float("nan")), ("1e400", "1e400"), ("4,000 digits", big)):
        for where in ("value", "repeats"):
            m = json.loads(json.dumps(mod))
            tgt = m if where == "value" else m["repeats"][0]
            tgt["value" if where == "value" else "repeats"] = "__V__"
            s = sheet(modifiers=[m])
            c = json.dumps(catalogue([s])).replace('"__V__"', str(v) if v == big else json.dumps(v) if isinstance(v, str)
                                                  else "NaN")
            sheet_case(f"catalogue: {label} as a modifier's {where}", c, "modifier")

    # links: loops, chains, widths and depths
    def info_cat(groups, entry_groups=None, links=None):
        s = sheet(infoLinks=links or [])
        if entry_groups:
            s["selectionEntryGroups"] = entry_groups
        return catalogue([s], sharedInfoGroups=groups)

    sheet_case("links: an infoGroup that links itself",
               info_cat([{"id": "ig-1", "name": "Loop", "infoLinks": [{"id": "l1", "targetId": "ig-1", "type": "infoGroup"}]}],
                        links=[{"id": "l0", "targetId": "ig-1", "type": "infoGroup"}]), rc=0)
    sheet_case("links: two infoGroups linking each other",
               info_cat([{"id": "ig-1", "name": "A", "infoLinks": [{"id": "l1", "targetId": "ig-2", "type": "infoGroup"}]},
                         {"id": "ig-2", "name": "B", "infoLinks": [{"id": "l2", "targetId": "ig-1", "type": "infoGroup"}]}],
                        links=[{"id": "l0", "targetId": "ig-1", "type": "infoGroup"}]), rc=0)
    chain = [{"id": f"ig-{i}", "name": f"G{i}", "infoLinks": [{"id": f"l{i}", "targetId": f"ig-{i + 1}", "type": "infoGroup"}]}
             for i in range(3000)] + [{"id": "ig-3000", "name": "end"}]
    sheet_case("links: a chain of 3,000 infoGroup links",
               info_cat(chain, links=[{"id": "l0", "targetId": "ig-0", "type": "infoGroup"}]), rc=0)
    sel_loop = {"id": "sg-1", "name": "Loop", "entryLinks": [{"id": "sl1", "targetId": "sg-1", "type": "selectionEntryGroup"}],
                "constraints": [{"id": "sgmin", "type": "min", "value": 1, "field": "selections", "scope": "parent"}]}
    s = sheet(entryLinks=[{"id": "sl0", "targetId": "sg-1", "type": "selectionEntryGroup"}])
    sheet_case("links: a selectionEntryGroup that links itself",
               catalogue([s], sharedSelectionEntryGroups=[sel_loop]), "at most")
    s = sheet(entryLinks=[{"id": "sl0", "targetId": "sg-0", "type": "selectionEntryGroup"}])
    sheet_case("links: a chain of 3,000 selectionEntryGroup links",
               catalogue([s], sharedSelectionEntryGroups=[
                   {"id": f"sg-{i}", "name": f"G{i}", "entryLinks": [{"id": f"sl{i}", "targetId": f"sg-{i + 1}",
                                                                     "type": "selectionEntryGroup"}]}
                   for i in range(3000)] + [{"id": "sg-3000", "name": "end"}]), "at most")
    s = sheet(entryLinks=[{"id": "el0", "targetId": "e-0", "type": "selectionEntry"}])
    sheet_case("links: a chain of 3,000 entry links (each entry compulsory)",
               catalogue([s] + [{"id": f"e-{i}", "name": f"E{i}", "type": "upgrade",
                                 "constraints": [{"id": f"emin{i}", "type": "min", "value": 1, "field": "selections",
                                                  "scope": "parent"}],
                                 "entryLinks": [{"id": f"el{i + 1}", "targetId": f"e-{i + 1}", "type": "selectionEntry"}]}
                                for i in range(3000)] + [{"id": "e-3000", "name": "end", "type": "upgrade"}]), "at most")

    def tree(width, depth, kind):
        groups = []
        for d in range(depth):
            links = [{"id": f"t{d}-{k}", "targetId": f"g-{d + 1}", "type": kind} for k in range(width)]
            g = {"id": f"g-{d}", "name": f"level {d}"}
            g["infoLinks" if kind == "infoGroup" else "entryLinks"] = links
            if kind != "infoGroup":
                g["constraints"] = [{"id": f"gm{d}", "type": "min", "value": 1, "field": "selections", "scope": "parent"}]
            groups.append(g)
        groups.append({"id": f"g-{depth}", "name": "leaf", "profiles": [gun(f"Leaf gun", "p-leaf")]}
                      if kind == "infoGroup" else {"id": f"g-{depth}", "name": "leaf"})
        return groups

    for w, d in ((30, 6), (2, 40)):
        sheet_case(f"links: infoGroups {w} wide and {d} deep (each group opened once)",
                   info_cat(tree(w, d, "infoGroup"), links=[{"id": "l0", "targetId": "g-0", "type": "infoGroup"}]), rc=0)
        s = sheet(entryLinks=[{"id": "sl0", "targetId": "g-0", "type": "selectionEntryGroup"}])
        sheet_case(f"links: selectionEntryGroups {w} wide and {d} deep",
                   catalogue([s], sharedSelectionEntryGroups=tree(w, d, "selectionEntryGroup")), "at most")
        sheet_case(f"links: infoGroups {w} wide and {d} deep (listing)",
                   info_cat(tree(w, d, "infoGroup"), links=[{"id": "l0", "targetId": "g-0", "type": "infoGroup"}]),
                   rc=0, has="Leaf gun", list_only=True)

    # linear time: shared work memoised
    shared = {"id": "sh-big", "name": "Shared wargear", "type": "upgrade",
              "infoLinks": [{"id": f"il{i}", "targetId": "p-shared", "type": "profile"} for i in range(19_000)]}
    sheets = [sheet(f"Ember Squad {i}", f"u-{i}",
                    entryLinks=[{"id": f"x{i}", "targetId": "sh-big", "type": "selectionEntry"}]) for i in range(2000)]
    sheet_case("linear: 2,000 datasheets sharing one entry of 19,000 links (listing)",
               catalogue(sheets + [shared], sharedProfiles=[gun("Shared gun", "p-shared")]), rc=0,
               has="2000 datasheets", list_only=True)
    many = sheet()
    many["selectionEntries"][0]["selectionEntries"][0]["profiles"] = [gun() for _ in range(25_000)]
    sheet_case("linear: 25,000 weapon profiles of one name", catalogue([many]), "at most 256 profiles")
    sheet_case("linear: 25,000 weapon profiles of one name (listing)", catalogue([many]), rc=0,
               has="1 datasheet", list_only=True)
    lib = {"catalogue": {"id": "lib-ember", "name": "Ember Library", "type": "catalogue", "library": True,
                         "sharedSelectionEntries": [sheet(f"Library Squad {i}", f"lu-{i}") for i in range(300)],
                         "sharedProfiles": [gun(f"Library gun {i}", f"lp-{i}") for i in range(3000)]}}
    linked = catalogue([], catalogueLinks=[{"id": "cl", "name": "Ember Library", "targetId": "lib-ember",
                                            "importRootEntries": False}])
    linked["catalogue"]["entryLinks"] = [{"id": f"le{i}", "name": f"Library Squad {i}", "targetId": f"lu-{i}",
                                          "type": "selectionEntry",
                                          "infoLinks": [{"id": f"lil{i}-{k}", "targetId": f"lp-{k}", "type": "profile"}
                                                        for k in range(0, 3000, 10)]}
                                         for i in range(300)]
    sheet_case("linear: 300 datasheets linked to a library beside the catalogue (listing)", linked, rc=0,
               has="300 datasheets", list_only=True, extra={"Ember Library.json": lib})

    # regular files only
    d = base / f"fifo{next(n)}"
    d.mkdir()
    _dump(d / "Ember Pact.json", catalogue())
    os.mkfifo(d / "A fifo.json")
    os.mkfifo(d / "B fifo.gst")
    out.append(Case("folder: FIFOs beside the catalogue", ["datasheets", str(d / "Ember Pact.json")], rc=0,
                    has="1 datasheet"))
    out.append(Case("folder: FIFOs beside the catalogue (coverage)", ["datasheets", "--coverage", str(d)], rc=0,
                    has="Ember Pact"))

    # --out and --bases
    ros = base / "ok.json"
    _dump(ros, roster())
    fifo = base / "out.fifo"
    os.mkfifo(fifo)
    sparse = base / "sparse.toml"
    with open(sparse, "wb") as f:
        f.truncate(3 << 30)
    deep = base / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    for opt in ("--out", "--bases"):
        for label, p in (("/dev/zero", "/dev/zero"), ("/dev/full", "/dev/full"), ("a 3 GB sparse file", str(sparse)),
                         ("a FIFO", str(fifo)), ("a TOML nested 5,000 deep", str(deep))):
            argv = ["import", "roster", str(ros), opt, p]
            if opt == "--bases":
                argv += ["--out", str(base / f"o{next(n)}.toml")]
            out.append(Case(f"{opt}: {label}", argv, 2, ""))

    # control characters written as TOML comments
    r = roster()
    r["roster"]["forces"][0]["selections"][0]["categories"].append({"name": "Ember\x1b[31m Guard"})
    roster_case("report: ESC in a category name (a keyword the scenario format refuses)", r, "control characters")
    r = roster()
    r["roster"]["forces"][0]["selections"][0]["selections"][0]["selections"].append(
        {"name": "Ember\x1b]0;x\x07 banner", "type": "upgrade", "number": 1})
    roster_case("report: ESC and BEL in a wargear name", r, rc=0)
    roster_case("report: ESC in the roster's file name", roster(), rc=0, name="ember\x1b[2J.json")
    bases = base / "bases\x1b[2J.toml"
    bases.write_text('[datasheets]\n"Ember Wardens" = 32\n')
    o = base / f"o{next(n)}.toml"
    out.append(Case("report: ESC in the --bases file name", ["import", "roster", str(ros), "--bases", str(bases),
                                                             "--out", str(o)], 0, "", None))
    return out


if __name__ == "__main__":
    import subprocess
    import sys
    import tempfile
    import time
    want = sys.argv[1] if len(sys.argv) > 1 else ""
    if want == "--bombs":
        BOMBS.mkdir(exist_ok=True)
        (BOMBS / "bzip2.rosz").write_bytes(bomb(zipfile.ZIP_BZIP2))
        (BOMBS / "lzma.rosz").write_bytes(bomb(zipfile.ZIP_LZMA))
        raise SystemExit(0)
    with tempfile.TemporaryDirectory() as tmp:
        for c in cases(Path(tmp)):
            if want and want not in c.what:
                continue
            t = time.perf_counter()
            try:
                r = subprocess.run([sys.executable, "-m", "sim", *c.argv], capture_output=True, timeout=60,
                                   preexec_fn=lambda: __import__("resource").setrlimit(
                                       __import__("resource").RLIMIT_AS, (1 << 30, 1 << 30)))
                rc, err = r.returncode, r.stderr.decode(errors="replace")
            except subprocess.TimeoutExpired:
                rc, err = "TIMEOUT", ""
            last = err.strip().splitlines()[-1] if err.strip() else ""
            ok = rc == c.rc and "Traceback" not in err
            print(f"{'ok ' if ok else 'BAD'} {c.what}: rc {rc} in {time.perf_counter() - t:.1f} s: {last[:160]}",
                  flush=True)
