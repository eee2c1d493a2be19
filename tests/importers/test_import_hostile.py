"""Issue 17: hostile roster and catalogue files through the real command line, under an
address-space limit (RLIMIT_AS, as tests/replay/test_hostile_corpus.py runs its corpus): each
gives exit status 2 and exactly one line on stderr, `sim: FILE: ...`, no traceback, nothing on
stdout, and no output file. Entity expansion is refused by defusedxml (DTDs forbidden), not by
hand-written guards."""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from sim.errors import escape_controls

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tests/support/hostile_driver.py"
DATA = Path(__file__).with_name("data")
MEMORY_CAP = 1 << 30
CPU_CAP = 120


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_CAP, CPU_CAP + 5))


def _env() -> dict[str, str]:
    return {"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "OPENBLAS_NUM_THREADS": "1"}


def _roster_json(**char_over) -> dict:
    chars = {"M": '6"', "T": "4", "Sv": "3+", "W": "2", "LD": "6+", "OC": "1"}
    chars.update(char_over)
    chars = {k: v for k, v in chars.items() if v is not None}
    return {"roster": {"forces": [{"selections": [{
        "name": "Test Unit", "type": "model", "number": 1,
        "profiles": [{"name": "Test Unit", "typeName": "Unit",
                      "characteristics": [{"name": k, "$text": v} for k, v in chars.items()]}]}]}]}}


def _weapon_roster(**over) -> dict:
    r = _roster_json()
    chars = {"Range": '24"', "A": "2", "BS": "3+", "S": "4", "AP": "-1", "D": "1", "Keywords": "-"}
    chars.update(over)
    chars = {k: v for k, v in chars.items() if v is not None}
    r["roster"]["forces"][0]["selections"][0]["selections"] = [{
        "name": "Gun", "type": "upgrade", "number": 1,
        "profiles": [{"name": "Gun", "typeName": "Ranged Weapons",
                      "characteristics": [{"name": k, "$text": v} for k, v in chars.items()]}]}]
    return r


def _zip(name: str, data: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(name, data)
    return buf.getvalue()


LAUGHS = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
          + "".join(f'<!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">' for i in range(1, 10))
          + ']>\n<roster name="&lol9;"/>\n')
EXTERNAL = ('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
            '<roster name="&xxe;"><forces/></roster>\n')


def cases(folder: Path) -> list[tuple[str, Path, tuple]]:
    """(what, file, extra command-line arguments) of every hostile case, written in ``folder``."""
    out = []

    def put(what: str, name: str, data: bytes | str, kind: str = "roster", extra: tuple = ()):
        p = folder / name
        p.write_bytes(data.encode() if isinstance(data, str) else data)
        out.append((what, p, kind, extra))

    ros = (DATA / "ashen.ros").read_bytes()
    rosz = (DATA / "ashen.rosz").read_bytes()
    put("truncated zip", "cut.rosz", rosz[: len(rosz) // 2])
    put("zip bomb", "bomb.rosz", _zip("bomb.ros", b"<roster>" + b" " * (40 * 1024 * 1024) + b"</roster>"))
    put("zip of junk", "junk.rosz", _zip("x.ros", os.urandom(2000)))
    put("empty zip member list", "empty.rosz", b"PK\x05\x06" + b"\0" * 18)
    put("billion laughs", "laughs.ros", LAUGHS)
    put("external entity", "xxe.ros", EXTERNAL)
    put("deep XML", "deep.ros", "<roster>" + "<forces>" * 5000 + "</forces>" * 5000 + "</roster>")
    put("deep JSON", "deep.json", "[" * 100_000 + "]" * 100_000)
    put("nested JSON objects", "deep2.json", '{"roster": ' + '{"a": ' * 3000 + "1" + "}" * 3000 + "}")
    put("too many JSON values", "wide.json", '{"roster": {"forces": [' + "[]," * 1_600_000 + "[]]}}")
    big = folder / "big.ros"
    with open(big, "wb") as f:
        f.write(b"<roster>")
        f.write(b" " * (50 * 1024 * 1024))
        f.write(b"</roster>")
    out.append(("a 50 MB file", big, "roster", ()))
    put("wrong root element", "wrong.ros", '<?xml version="1.0"?><catalogue id="x"/>')
    put("wrong JSON root", "wrong.json", json.dumps({"army": {}}))
    put("a JSON list", "list.json", "[1, 2]")
    put("truncated XML", "cut.ros", ros[: len(ros) // 2])
    put("not UTF-8", "latin.ros", b"<roster name='\xe9\xff'/>")
    put("binary junk", "junk.ros", os.urandom(3000).replace(b"<", b"x").replace(b"{", b"x"))
    put("empty file", "empty.ros", b"")
    put("no units", "none.json", json.dumps({"roster": {"forces": [{"selections": []}]}}))
    put("missing characteristic", "nosv.json", json.dumps(_roster_json(Sv=None)))
    put('"*" for a characteristic', "star.json", json.dumps(_roster_json(M="*")))
    put('"N/A" for a characteristic', "na.json", json.dumps(_roster_json(T="N/A")))
    put('"-" for W', "dash.json", json.dumps(_roster_json(W="-")))
    put("W of 0", "w0.json", json.dumps(_roster_json(W="0")))
    put('"*" for a weapon\'s A', "a-star.json", json.dumps(_weapon_roster(A="*")))
    put('"N/A" BS without torrent', "bs-na.json", json.dumps(_weapon_roster(BS="N/A")))
    put("positive AP", "ap.json", json.dumps(_weapon_roster(AP="+1")))
    put("missing weapon range", "norange.json", json.dumps(_weapon_roster(Range=None)))
    put("huge number", "num.json", json.dumps(_roster_json(T="9" * 5000)))
    put("a number of models that is not one", "count.json",
        json.dumps({"roster": {"forces": [{"selections": [{"name": "U", "type": "model", "number": "lots"}]}]}}))
    put("control character in a name", "ctl.json",
        json.dumps(_roster_json()).replace('"Test Unit"', '"Test\\u001b[2JUnit"', 1))
    put("a very long name", "long.json", json.dumps(_roster_json()).replace('"Test Unit"', '"' + "N" * 5000 + '"', 1))
    put("catalogue: wrong root", "wrong.cat", ros, kind="datasheets")
    put("catalogue: billion laughs", "laughs.cat", LAUGHS.replace("roster", "catalogue"), kind="datasheets")
    put("catalogue: truncated zip", "cut.catz", _zip("x.cat", b"<catalogue/>")[:30], kind="datasheets")
    put("catalogue: unknown datasheet", "ok.json", json.dumps({"catalogue": {"id": "c", "entryLinks": []}}),
        kind="datasheet", extra=("Nobody",))
    (folder / "dir.ros").mkdir()
    out.append(("a directory", folder / "dir.ros", "roster", ()))
    return out


def _argv(kind: str, path: Path, extra: tuple, out: Path) -> list[str]:
    if kind == "datasheets":
        return ["datasheets", str(path)]
    if kind == "datasheet":
        return ["import", "datasheet", str(path), *extra, "--out", str(out)]
    return ["import", "roster", str(path), "--out", str(out)]


def test_hostile_files(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    all_cases = cases(folder)
    assert len(all_cases) >= 30
    outs = [tmp_path / f"out{i}.toml" for i in range(len(all_cases))]
    jobs = [_argv(kind, p, extra, o) for (_, p, kind, extra), o in zip(all_cases, outs)]
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    r = subprocess.run([sys.executable, str(DRIVER), str(tmp_path / "jobs.json"), str(tmp_path / "results.json")],
                       cwd=ROOT, env=_env(), preexec_fn=_limits, capture_output=True)
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-3000:]
    res = json.loads((tmp_path / "results.json").read_text())
    assert res["rlimit_as"] == MEMORY_CAP
    bad = []
    for (what, path, _, _), out, x in zip(all_cases, outs, res["results"]):
        err = x["stderr"].encode("latin-1").decode("utf-8", "replace")
        lines = err.split("\n")
        prefix = f"sim: {escape_controls(str(path))}: "
        problems = []
        if x["rc"] != 2:
            problems.append(f"exit {x['rc']}")
        if "Traceback" in err or len(lines) != 2 or lines[1] or not lines[0].startswith(prefix):
            problems.append(f"stderr {err[:300]!r}")
        elif len(lines[0]) > len(prefix) + 1000 or any(ord(c) < 0x20 for c in lines[0]):
            problems.append("a long line or a control character")
        if x["stdout"]:
            problems.append(f"stdout {x['stdout'][:100]!r}")
        if out.exists():
            problems.append("an output file was written")
        if "root:" in err:
            problems.append("a file's content leaked")
        if problems:
            bad.append(f"{what}: {'; '.join(problems)}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("text", [LAUGHS, EXTERNAL])
def test_entities_are_refused_by_defusedxml(tmp_path, text):
    from sim.errors import ImportFileError
    from sim.importers.source import read_document
    p = tmp_path / "x.ros"
    p.write_text(text)
    with pytest.raises(ImportFileError, match="without a DTD"):
        read_document(p)
