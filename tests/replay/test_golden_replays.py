"""Every scenario replays itself against its golden log; a tampered log is caught; the same
scenario and seed give a byte-identical log (and across CPython versions, where available)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from other_pythons import other_interpreters, with_deps
from sim.battle import Battle
from sim.rules import compiled
from sim.replay.log import Recorder, replay
from sim.players.runner import play
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))


def record(path: Path, seed=None) -> str:
    spec = load_scenario(path)
    rel = path.relative_to(ROOT).as_posix()
    with Battle(spec, seed=seed) as b:
        rec = Recorder(b, rel)
        play(b, spec, rec)
        return rec.text()


@pytest.fixture(autouse=True)
def kernels_checked():
    """Every call of a compiled kernel in these replays runs its numpy reference too, and the
    two must answer to the bit (sim.rules.compiled's ``check`` mode: the fast path tested against
    its rule on every scenario); the replay goes on with the reference's answer."""
    before = compiled.set_mode("check")
    yield
    compiled.set_mode(before)


# the kernels no replay calls: the players' quick look before a move's check, at the other
# bases and at the terrain (a replay has no players), compared in the players' whole battles
# (tests/players/test_options_quick_refusal.py); the solvers' straight paths to their best spots
# (the players' charges, pile-ins and consolidations: a replay's "if possible" checks find
# none to trace), compared in the default players' whole battles
# (tests/rules/movement/test_compiled_straight_paths_clear.py), and their spots towards a point
# (tests/rules/movement/test_compiled_move_search.py)
PLAYERS_ONLY = ("movement.bases_refused", "movement.round_features_refuse", "movement.straight_paths_clear",
                "movement.toward_spots")


def test_the_replays_check_every_compiled_kernel():
    """The check above is not empty: the scenarios with oval and rectangular bases, and the
    transport's (its disembarkations placed by the solver), call each kernel of the rules (when
    built), and every call was compared."""
    import sim.players.options  # noqa: F401  (every module with a kernel: all sixty registered)
    import sim.rules.movement.legality  # noqa: F401
    import sim.rules.movement.solvers.charge  # noqa: F401
    import sim.rules.movement.solvers.pile_in  # noqa: F401
    import sim.rules.movement.solvers.place  # noqa: F401
    import sim.rules.movement.solvers.table  # noqa: F401
    import sim.rules.visibility.certs  # noqa: F401
    import sim.rules.visibility.full  # noqa: F401
    import sim.rules.visibility.pairs  # noqa: F401
    import sim.rules.visibility.umbra  # noqa: F401
    import sim.rules.visibility.hull_full  # noqa: F401
    import sim.rules.visibility.kernels  # noqa: F401
    import sim.rules.coherency  # noqa: F401
    if any(k.compiled is None for k in compiled.KERNELS.values()):
        pytest.skip("the compiled kernels are not built here")
    before = {n: k.checked for n, k in compiled.KERNELS.items()}
    # (a hull's rings are kept per process, computed once: forgotten, so these replays ask
    # ring_about whatever ran before them in this process)
    from sim.rules.movement.solvers import spots
    spots._hull_ring.cache_clear()
    assert len(before) == 60 and all(n in before for n in PLAYERS_ONLY)
    for name in ("battle_default", "deployment", "transport"):
        n, div = replay(ROOT / "scenarios/replays" / f"{name}.jsonl")
        assert div is None, str(div)
    assert all(k.checked > before[n] for n, k in compiled.KERNELS.items() if n not in PLAYERS_ONLY)


def test_every_scenario_has_a_golden_replay():
    missing = [p.stem for p in SCENARIOS if not (ROOT / "scenarios/replays" / f"{p.stem}.jsonl").exists()]
    assert not missing, f"scenarios without a golden replay (run `make goldens`): {missing}"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_golden_replay_verifies(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    n, div = replay(ROOT / "scenarios/replays" / f"{path.stem}.jsonl")
    assert div is None, str(div)
    assert n >= 1


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_recording_is_byte_identical_to_golden(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    golden = (ROOT / "scenarios/replays" / f"{path.stem}.jsonl").read_text()
    assert record(path) == golden


def test_tampered_log_is_caught(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    lines = (ROOT / "scenarios/replays/default.jsonl").read_text().splitlines()
    # change the first hit roll result recorded in the log
    for i, line in enumerate(lines):
        rec = json.loads(line)
        if rec["t"] == "event" and rec["event"]["type"] == "dice" and rec["event"]["purpose"] == "hit rolls":
            rolls = rec["event"]["results"]
            rolls[0] = 6 if rolls[0] != 6 else 5
            lines[i] = json.dumps(rec, sort_keys=True, separators=(",", ":"))
            tampered_line = i + 1
            break
    bad = tmp_path / "default.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    # the log names its scenario relative to the repository
    n, div = replay(bad)
    assert div is not None
    assert div.line == tampered_line


def test_changed_scenario_is_refused(tmp_path, monkeypatch):
    from sim.errors import LogError
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scenarios/replays").mkdir(parents=True)
    scen = tmp_path / "scenarios/worked_example_pools.toml"
    shutil.copy(ROOT / "scenarios/worked_example_pools.toml", scen)
    log = tmp_path / "scenarios/replays/worked_example_pools.jsonl"
    shutil.copy(ROOT / "scenarios/replays/worked_example_pools.jsonl", log)
    assert replay(log)[1] is None
    scen.write_text(scen.read_text().replace("seed = 5", "seed = 6"))
    with pytest.raises(LogError, match="has changed"):
        replay(log)


def test_same_seed_same_bytes_different_seed_different_dice(monkeypatch):
    monkeypatch.chdir(ROOT)
    path = ROOT / "scenarios/default.toml"
    assert record(path, seed=99) == record(path, seed=99)
    assert record(path, seed=99) != record(path, seed=100)


@pytest.mark.parametrize("exe", other_interpreters() or [None])
def test_byte_identical_across_python_versions(exe, tmp_path, tmp_path_factory, monkeypatch):
    """Runs the default scenario under another CPython with this checkout's sim on its path
    (the interpreter, or the session's venv of it with esper and numpy: other_pythons)."""
    if exe is None:
        pytest.skip("no other CPython 3.11+ interpreter found")
    exe = with_deps(exe, tmp_path_factory)
    out = tmp_path / "default.jsonl"
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    r = subprocess.run([exe, "-m", "sim", "run", "scenarios/default.toml", "--quiet", "--log", str(out)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == (ROOT / "scenarios/replays/default.jsonl").read_bytes()


_NO_FMA_CHECK = """
import json, sys
import numpy as np
rng = np.random.default_rng(0)
a, b = rng.normal(size=(64, 2)), rng.normal(size=(2, 4000))
fused = bool(((a @ b) != (a[:, :1] * b[:1] + a[:, 1:] * b[1:])).any())
from sim.replay.log import replay
out = {}
if not fused:
    for p in sys.argv[1:]:
        n, div = replay(p)
        out[p] = [n, None if div is None else str(div)]
print(json.dumps({"fused": fused, "replays": out}))
"""


def test_golden_replays_verify_with_a_blas_kernel_without_fused_multiply_add():
    """The goldens were recorded where OpenBLAS's matrix products fuse multiply-add (an x86
    kernel with FMA: the last bit of a fifth to a quarter of the products differs from the
    plain arithmetic), which a machine without FMA, or another kernel, would not. Every golden
    verifies with the products made by OpenBLAS's Nehalem kernel (no FMA), in a process of
    its own: the rules' answers do not hang on those bits (Determinism: a replay verifies on
    another machine). Where OPENBLAS_CORETYPE cannot pick that kernel (not an x86 OpenBLAS
    choosing its kernel at run time), skipped."""
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "OPENBLAS_CORETYPE": "Nehalem",
           "PYTHONDONTWRITEBYTECODE": "1"}
    logs = [f"scenarios/replays/{p.stem}.jsonl" for p in SCENARIOS]
    r = subprocess.run([sys.executable, "-c", _NO_FMA_CHECK, *logs], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    if got["fused"]:
        pytest.skip("OPENBLAS_CORETYPE=Nehalem does not pick a kernel without FMA here")
    bad = {p: div for p, (n, div) in got["replays"].items() if div is not None or n < 1}
    assert not bad, bad
    assert len(got["replays"]) == len(SCENARIOS)
