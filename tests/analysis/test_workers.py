"""sim.analysis.workers (issue 29 item 4): chunks sized by measured run time, results back in
seed order whatever the chunks, compact results, the same output as one process, and no worker
left when the parent is killed."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.analysis import workers as W
from sim.analysis.stats import RunResult, _pack, _unpack, iter_runs, run_seed
from sim.cli import main
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[2]


# --- chunk sizes (pure arithmetic: no clock) -------------------------------------------------

def test_the_first_chunk_is_small_until_a_run_is_measured():
    c = W.Chunker(jobs=2)
    assert c.per_run is None
    assert c.size(4000) == W.FIRST_CHUNK == 1
    assert c.depth() == 1  # (nothing measured: one chunk a worker)


def test_chunks_grow_to_the_target_time_by_steps():
    c = W.Chunker(jobs=2, target_s=0.3)
    c.measured(1, 0.002)  # 2 ms a run: the target is 150 runs, but growth is 8x at most
    assert c.size(4000) == 8
    c.measured(8, 0.016)
    assert c.size(4000) == 64
    c.measured(64, 0.128)
    assert c.size(4000) == 150  # (0.3 s of 2 ms runs)
    assert c.depth() == 2  # (quick runs: a second chunk waits in each worker)


def test_long_runs_go_one_at_a_time_and_one_per_worker():
    c = W.Chunker(jobs=2, target_s=0.3)
    c.measured(1, 0.7)
    assert c.size(40) == 1
    assert c.depth() == 1


def test_the_last_chunks_shrink_so_the_workers_finish_together():
    c = W.Chunker(jobs=2, target_s=0.3)
    for _ in range(4):
        c.measured(100, 0.05)
    assert c.size(10_000) == min(W.MAX_CHUNK, 600)
    assert c.size(100) == 25  # (a quarter of what is left: half a worker's share)
    assert c.size(3) == 1
    assert c.size(1) == 1


def test_a_fixed_chunk_is_kept():
    c = W.Chunker(jobs=2, fixed=5)
    assert c.size(100) == 5 and c.size(3) == 3


# --- results in seed order, whatever the chunks ----------------------------------------------

@pytest.fixture
def gunner():
    return load_scenario(ROOT / "scenarios/abilities_dice.toml")


def test_results_come_in_seed_order_from_irregular_chunks(gunner, monkeypatch):
    """Chunks of 1, 7, 2, 13, 1, 30... seeds (not what a clock would give, so the order is
    tested with sizes that differ from chunk to chunk): every result in seed order, equal to
    one process's."""
    sizes = itertools.cycle([1, 7, 2, 13, 1, 30, 3])
    monkeypatch.setattr(W.Chunker, "size", lambda self, left: min(next(sizes), left))
    monkeypatch.setattr(W.Chunker, "depth", lambda self: 2)
    alone = list(iter_runs(gunner, 5, 120, jobs=1))
    assert [r.seed for r in alone] == list(range(5, 125))
    assert list(iter_runs(gunner, 5, 120, jobs=2)) == alone


def test_a_chunk_travels_as_plain_tuples_and_comes_back_equal(gunner):
    results = [run_seed(gunner, s) for s in range(3, 9)]
    rows = _pack(results)
    assert all(type(r) is tuple for r in rows)
    assert "RunResult" not in repr(rows)
    assert list(_unpack(3, rows)) == results
    with_vp = RunResult(1, (0, 2), (1, 4), "stopped", (10, 5), "draw")
    assert list(_unpack(1, _pack([with_vp]))) == [with_vp]


def _json_without_elapsed(out: str) -> str:
    doc = json.loads(out)
    doc.pop("elapsed_s")
    return json.dumps(doc, indent=1, sort_keys=True)


def test_stats_json_is_byte_identical_on_two_processes_over_many_chunks(capsys):
    """600 runs: chunks of 1, 8, 64 and more seeds as the run time is measured, the last ones
    shrinking; the summary is byte-identical to one process's."""
    path = str(ROOT / "scenarios/abilities_dice.toml")
    assert main(["stats", path, "--runs", "600", "--jobs", "1", "--json"]) == 0
    one = _json_without_elapsed(capsys.readouterr().out)
    assert main(["stats", path, "--runs", "600", "--jobs", "2", "--json"]) == 0
    assert _json_without_elapsed(capsys.readouterr().out) == one


def test_stats_of_whole_battles_is_byte_identical_on_two_processes(capsys):
    path = str(ROOT / "scenarios/battle_random.toml")
    args = ["stats", path, "--runs", "6", "--red", "random", "--blue", "random", "--json"]
    assert main([*args, "--jobs", "1"]) == 0
    one = _json_without_elapsed(capsys.readouterr().out)
    assert json.loads(one)["battles"]["battles"] == 6
    assert main([*args, "--jobs", "2"]) == 0
    assert _json_without_elapsed(capsys.readouterr().out) == one


# --- the parent killed: no worker left -------------------------------------------------------

@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_ladder_workers_end_when_the_parent_is_killed_mid_battle():
    """SIGKILL to `sim ladder`'s process while its workers play whole battles: the workers end
    too (the kernel kills them: PR_SET_PDEATHSIG), and say nothing."""
    sys.path.insert(0, str(Path(__file__).parent))
    try:
        from test_stats_signals import _has_loaded, _wait_for, _workers, kill_parent_quietly
    finally:
        sys.path.pop(0)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.Popen([sys.executable, "-m", "sim", "ladder", "scenarios/battle_default.toml",
                          "--players", "default,random", "--battles", "1000", "--jobs", "2", "--quiet"],
                         cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True)

    def started():
        _wait_for(lambda: len(_workers(p.pid)) == 2 and all(_has_loaded(w) for w in _workers(p.pid)),
                  "the workers to start")
        return _workers(p.pid)
    kill_parent_quietly(p, started)


def test_spawned_workers_give_the_same_results(gunner):
    """Where fork is not used (macOS, or Ray running in the process) the workers are spawned,
    fresh interpreters sent the scenario: the same results, in seed order."""
    assert W._context().get_start_method() == ("fork" if sys.platform.startswith("linux") else "spawn")
    alone = list(iter_runs(gunner, 1, 9, jobs=1))
    assert list(W.ordered_runs("sim.analysis.stats", (gunner,), 1, 9, 2, method="spawn")) == alone
