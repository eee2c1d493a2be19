"""Issue 25 (importers): the hostile files of tests/importers/hostile25.py through the real command
line in one process under an address-space limit (as test_import_hostile.py runs issue 17's):
each refused case gives exit status 2, exactly one line on stderr naming the file and the place
(`sim: FILE: ...`), no traceback, nothing on stdout and no output file; each accepted case (a
correct answer: a zip of every method, info groups that link each other, 2,000 datasheets
sharing one big entry, FIFOs beside a catalogue, control characters in names) exits 0 and what
it writes reads back as TOML. Before issue 25 these gave MemoryErrors, RecursionErrors,
OverflowErrors, TOML decode tracebacks, hangs, and NaN costs accepted. Plus in-process tests of
the guards' edges."""

from __future__ import annotations

import json
import math
import os
import resource
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from sim.errors import ImportFileError, escape_controls

sys.path.insert(0, str(Path(__file__).parent))
import hostile25 as H  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tests/support/hostile_driver.py"
MEMORY_CAP = 1 << 30
CPU_CAP = 300


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_CAP, CPU_CAP + 5))


def test_hostile_importer_files(tmp_path):
    cases = H.cases(tmp_path)
    assert len(cases) >= 60
    (tmp_path / "jobs.json").write_text(json.dumps([c.argv for c in cases]))
    env = {"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "OPENBLAS_NUM_THREADS": "1"}
    # (a wall-clock bound too: a FIFO waited on uses no CPU)
    r = subprocess.run([sys.executable, str(DRIVER), str(tmp_path / "jobs.json"), str(tmp_path / "results.json")],
                       cwd=ROOT, env=env, preexec_fn=_limits, capture_output=True, timeout=900)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-3000:]
    res = json.loads((tmp_path / "results.json").read_text())
    assert res["rlimit_as"] == MEMORY_CAP
    bad = []
    for c, x in zip(cases, res["results"]):
        err = x["stderr"].encode("latin-1").decode("utf-8", "replace")
        out = x["stdout"].encode("latin-1").decode("utf-8", "replace")
        problems = []
        if x["rc"] != c.rc:
            problems.append(f"exit {x['rc']}")
        if "Traceback" in err:
            problems.append("a traceback")
        if c.rc == 2:
            lines = err.split("\n")
            if len(lines) != 2 or lines[1] or not lines[0].startswith("sim: "):
                problems.append(f"stderr {err[:300]!r}")
            elif any(ord(ch) < 0x20 for ch in lines[0]) or len(lines[0]) > 1500:
                problems.append("a long line or a control character")
            if c.has and c.has not in err:
                problems.append(f"{c.has!r} not in {err[:300]!r}")
            if out:
                problems.append(f"stdout {out[:100]!r}")
            if c.out is not None and c.out.exists():
                problems.append("an output file was written")
        else:
            if c.has and c.has not in out + err:
                problems.append(f"{c.has!r} not in the output")
            written = [a for a, b in zip(c.argv, c.argv[1:] + [""]) if a == "--out"]
            if written:
                path = Path(c.argv[c.argv.index("--out") + 1])
                try:
                    tomllib.loads(path.read_text(encoding="utf-8"))
                except (OSError, tomllib.TOMLDecodeError) as e:
                    problems.append(f"what it wrote does not read back: {e}")
        if problems:
            bad.append(f"{c.what}: {'; '.join(problems)}")
    assert not bad, "\n".join(bad)


# --- in process: the guards' edges ---------------------------------------------------------------

@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_every_zip_method_reads_as_the_plain_file(tmp_path, method):
    from sim.importers.source import read_document
    data = json.dumps(H.roster()).encode()
    plain, zipped = tmp_path / "r.json", tmp_path / "r.rosz"
    plain.write_bytes(data)
    zipped.write_bytes(H.zip_with("r.json", data, method))
    assert read_document(zipped) == read_document(plain)
    # zipfile's own writer too (its LZMA form with the end marker, its bzip2)
    other = tmp_path / "z.rosz"
    with zipfile.ZipFile(other, "w", method) as z:
        z.writestr("r.json", data)
    assert read_document(other) == read_document(plain)


@pytest.mark.parametrize("name", ["bzip2.rosz", "lzma.rosz"])
def test_a_bomb_stops_at_the_limit_in_small_pieces(name):
    from sim.importers import source as S
    raw = (H.BOMBS / name).read_bytes()
    assert len(raw) < 200_000
    with pytest.raises(ImportFileError, match="MB unpacked"):
        S._unzip(raw, name)  # noqa: SLF001 (the reader itself, under the test's own memory)
    assert S.zip_head(raw, name, 4096).startswith(b"<roster>")


def test_an_lzma_dictionary_claim_is_not_allocated(tmp_path):
    """A 4 GB dictionary in the LZMA properties: decoded with at most what the member may unpack
    to (the stream itself is fine, so the answer is the document)."""
    from sim.importers.source import read_document
    data = json.dumps(H.roster()).encode()
    raw = bytearray(H.zip_with("r.json", data, zipfile.ZIP_LZMA))
    at = raw.index(b"PK\x03\x04") + 30 + len(b"r.json") + 4 + 1
    raw[at:at + 4] = (0xFFFFFFFF).to_bytes(4, "little")
    p = tmp_path / "big-dict.rosz"
    p.write_bytes(bytes(raw))
    assert read_document(p)[0] == "roster"


def test_xml_attributes_are_counted_before_and_while_parsing(tmp_path):
    from sim.importers import source as S
    p = tmp_path / "wide.ros"
    p.write_text("<roster" + "".join(f' a{i}="1"' for i in range(S.MAX_XML_ELEMENT_ATTRIBUTES + 1)) + "/>")
    with pytest.raises(ImportFileError, match="attributes on one element"):
        S.read_document(p)
    ok = tmp_path / "ok.ros"
    ok.write_text("<roster" + "".join(f' a{i}="1"' for i in range(S.MAX_XML_ELEMENT_ATTRIBUTES)) + "><forces/></roster>")
    assert S.read_document(ok)[0] == "roster"
    # the builder's own count (the pre-scan is an upper bound: '=' inside a value counts there too)
    text = "<roster>" + "<force/>" * 50 + "</roster>"
    old = S.MAX_XML_TAGS
    try:
        S.MAX_XML_TAGS = 10
        with pytest.raises(ImportFileError, match="XML elements"):
            S._xml(text, "x")  # noqa: SLF001
    finally:
        S.MAX_XML_TAGS = old


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), "NaN", "Infinity", "1e400",
                                   "9" * 4000, 10 ** 4000, 2e9])
def test_a_number_that_is_no_finite_number_is_refused(value):
    from sim.importers import bsdata as B
    with pytest.raises(B.Bad, match="finite number"):
        B.number({"v": value}, "v", 0.0, "the test value")


def test_words_and_absent_numbers_keep_their_default():
    from sim.importers import bsdata as B
    assert B.number({"v": "lots"}, "v", 3.0) == 3.0
    assert B.number({}, "v", 3.0) == 3.0
    assert B.number({"v": True}, "v", 3.0) == 3.0
    assert B.number({"v": "-1"}, "v", 3.0) == -1.0
    assert B.text({"id": 10 ** 4000}, "id")  # (no OverflowError: a number in a text field is text)
    assert B.text({"id": 10 ** 20}, "id") == str(10 ** 20)
    assert B.text({"id": float("nan")}, "id") == "nan"
    assert not math.isnan(B.pts({"costs": [{"name": "pts", "value": 90}]}))


def _catalogue(tmp_path, doc) -> Path:
    p = tmp_path / "Ember Pact.json"
    p.write_text(json.dumps(doc))
    (tmp_path / "Ember system.json").write_text(json.dumps(H.SYSTEM))
    return p


def test_info_groups_linking_each_other_give_their_profiles_once(tmp_path):
    """A correct answer, not an error: each info group is opened once (the cycle closes)."""
    from sim.importers.catalogue import Catalogue
    groups = [{"id": "ig-1", "name": "A", "profiles": [H.gun("Gun A", "pa")],
               "infoLinks": [{"id": "l1", "targetId": "ig-2", "type": "infoGroup"}]},
              {"id": "ig-2", "name": "B", "profiles": [H.gun("Gun B", "pb")],
               "infoLinks": [{"id": "l2", "targetId": "ig-1", "type": "infoGroup"},
                             {"id": "l3", "targetId": "ig-2", "type": "infoGroup"}]}]
    s = H.sheet(infoLinks=[{"id": "l0", "targetId": "ig-1", "type": "infoGroup"}])
    cat = Catalogue(_catalogue(tmp_path, H.catalogue([s], sharedInfoGroups=groups)))
    entry = cat.datasheets()[0]
    assert [p["name"] for p in cat.profiles(entry)] == ["Gun A", "Gun B"]
    sel, _ = cat.build(entry)
    assert [p["name"] for p in sel["profiles"]] == ["Gun A", "Gun B"]


def test_a_chain_of_entries_is_one_error_not_a_recursion_error(tmp_path):
    from sim.importers.catalogue import MAX_NESTING, Catalogue
    n = MAX_NESTING + 5
    s = H.sheet(entryLinks=[{"id": "el0", "targetId": "e-0", "type": "selectionEntry"}])
    chain = [{"id": f"e-{i}", "name": f"E{i}", "type": "upgrade",
              "constraints": [{"id": f"m{i}", "type": "min", "value": 1, "field": "selections", "scope": "parent"}],
              "entryLinks": [{"id": f"el{i + 1}", "targetId": f"e-{i + 1}", "type": "selectionEntry"}]}
             for i in range(n)]
    cat = Catalogue(_catalogue(tmp_path, H.catalogue([s] + chain)))
    with pytest.raises(ImportFileError, match=f"nested at most {MAX_NESTING} deep"):
        cat.build(cat.datasheets()[0])


def test_listing_reads_a_shared_entry_once(tmp_path, monkeypatch):
    """2,000 datasheets (here 50) linking one entry of many info links: the entry's profiles are
    worked out once, not once per datasheet."""
    from sim.importers import catalogue as C
    shared = {"id": "sh", "name": "Shared", "type": "upgrade",
              "infoLinks": [{"id": f"il{i}", "targetId": "p-shared", "type": "profile"} for i in range(500)]}
    sheets = [H.sheet(f"Squad {i}", f"u-{i}", entryLinks=[{"id": f"x{i}", "targetId": "sh", "type": "selectionEntry"}])
              for i in range(50)]
    cat = C.Catalogue(_catalogue(tmp_path, H.catalogue(sheets + [shared], sharedProfiles=[H.gun("Shared gun", "p-shared")])))
    calls = []
    real = cat.cond.shown
    monkeypatch.setattr(cat.cond, "shown", lambda node, inst: calls.append(1) or real(node, inst))
    out = [cat.summary(e) for e in cat.datasheets()]
    assert all(("ranged", "Shared gun") in s["weapons"] for s in out)
    assert len(calls) < 50 * 20 + 600  # (once per entry of each datasheet, the 500 links once)


def test_report_comments_are_escaped_and_read_back():
    from sim.importers.scenario import dump
    text = dump({"battle": {"name": "x"}}, "import report: ember\x1b[2J.json\n  base from b\x07.toml\x85")
    assert tomllib.loads(text)["battle"]["name"] == "x"
    assert "\\x1b[2J" in text and "\x1b" not in text and "\x07" not in text and "\x85" not in text
    assert escape_controls("a\x1bb") in text or "ember\\x1b" in text


@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "sparse", "deep"])
def test_out_and_bases_are_checked_before_reading(tmp_path, target):
    from sim import importers
    if target == "fifo":
        p = tmp_path / "x.fifo"
        os.mkfifo(p)
    elif target == "sparse":
        p = tmp_path / "sparse.toml"
        with open(p, "wb") as f:
            f.truncate(3 << 30)
    elif target == "deep":
        p = tmp_path / "deep.toml"
        p.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    else:
        p = Path(target)
    ros = tmp_path / "r.json"
    ros.write_text(json.dumps(H.roster()))
    with pytest.raises(ImportFileError):
        importers.load_roster(ros, bases=p)
    army, rep = importers.load_roster(ros)
    with pytest.raises(ImportFileError):
        importers.into_scenario(army, "red", p, str(p), "x", rep)


def test_a_fifo_in_the_folder_is_never_opened(tmp_path):
    from sim.importers.library import Folder
    from sim.scenario.files import read_head
    os.mkfifo(tmp_path / "wait.json")
    os.mkfifo(tmp_path / "wait.gst")
    (tmp_path / "Ember Pact.json").write_text(json.dumps(H.catalogue()))
    f = Folder(tmp_path)
    assert [p.name for p in f.files] == ["Ember Pact.json"]
    assert read_head(tmp_path / "wait.json", 64) is None  # (opened without blocking, refused by fstat)


def test_links_to_catalogues_the_folder_lacks_read_each_file_once(tmp_path, monkeypatch):
    """40 catalogue links to ids no file has, beside 12 library files: each file is read once
    for the id test (it was once per link: 480 whole-file reads)."""
    from sim.importers import library as LB
    from sim.importers.catalogue import Catalogue
    for i in range(12):
        (tmp_path / f"Library {i}.json").write_text(json.dumps(
            {"catalogue": {"id": f"lib-{i}", "name": f"Library {i}", "type": "catalogue", "library": True,
                           "sharedProfiles": [H.gun(f"Gun {i}-{k}", f"g-{i}-{k}") for k in range(50)]}}))
    links = [{"id": f"cl{k}", "name": f"Missing {k}", "targetId": f"missing-{k}", "importRootEntries": True}
             for k in range(40)]
    path = _catalogue(tmp_path, H.catalogue(catalogueLinks=links))
    reads = []
    real = LB._head_bytes  # noqa: SLF001
    monkeypatch.setattr(LB, "_head_bytes", lambda p: reads.append(p) or real(p))
    cat = Catalogue(path)
    assert len(cat.missing_catalogues) == 40
    assert len(reads) <= 14 and len(set(reads)) == len(reads)


def test_conditions_have_a_budget_of_steps(tmp_path, monkeypatch):
    """Every condition walks the unit: a datasheet of N entries each with a condition is N^2
    steps; beyond the budget it is one error naming the datasheet."""
    from sim.importers import conditions as CD
    from sim.importers.catalogue import Catalogue
    s = H.sheet()
    s["selectionEntries"] += [{"id": f"x{i}", "name": f"X{i}", "type": "upgrade",
                               "constraints": [{"id": f"xm{i}", "type": "min", "value": 1, "field": "selections",
                                                "scope": "parent"}],
                               "modifiers": [{"type": "set", "field": "name", "value": "Y",
                                              "conditions": [{"type": "atLeast", "value": 1, "field": "selections",
                                                              "scope": "unit", "childId": "model"}]}]}
                              for i in range(60)]
    cat = Catalogue(_catalogue(tmp_path, H.catalogue([s])))
    entry = cat.datasheets()[0]
    cat.build(entry)
    assert 0 < cat.cond.steps < 60 * 70
    monkeypatch.setattr(CD, "MAX_STEPS", 1000)
    with pytest.raises(ImportFileError, match="Ember Wardens.*at most 1,000 selections"):
        cat.build(entry)
