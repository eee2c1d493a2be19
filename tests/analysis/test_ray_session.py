"""sim.analysis.ray_session: which Ray a batch runs on (one already running is kept, never
started again) and the line that says what it cost. Ray's own calls are stood in for here
(ray.init and ray.shutdown recorded, not run); tests/odds/test_odds_ray.py and
tests/analysis/test_stats_signals.py start a real one."""

from __future__ import annotations

import contextlib

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed (pip install -e .[cluster])")

from sim.analysis import ray_session as RS  # noqa: E402


@pytest.fixture
def fake_ray(monkeypatch):
    """ray.init and ray.shutdown recorded; no Ray running in this process."""
    calls = []
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **kw: calls.append(("init", kw)))
    monkeypatch.setattr(ray, "shutdown", lambda: calls.append(("shutdown", None)))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(RS, "running_local", lambda: None)
    return calls


def _connect(address=None, workers=None):
    costs = RS.Costs()
    with contextlib.ExitStack() as stack:
        RS.connect(stack, address, workers, costs, contextlib.nullcontext)
    return costs


def test_without_a_running_ray_one_of_our_own_is_started_and_shut_down(fake_ray):
    costs = _connect(workers=2)
    (kind, kw), stop = fake_ray
    assert kind == "init" and kw["num_cpus"] == 2 and "address" not in kw
    assert "runtime_env" not in kw  # (the workers read the package in place: no upload)
    assert kw["job_config"].code_search_path == [RS.package_root()]
    assert stop == ("shutdown", None)
    assert costs.how == "started" and costs.stop_s is not None
    assert costs.line().startswith("Ray: started a local instance (2 CPUs) in ")
    assert "shut down in" in costs.line()


def test_a_ray_started_on_this_machine_is_joined_and_left_running(fake_ray, monkeypatch):
    monkeypatch.setattr(RS, "running_local", lambda: "127.0.0.1:6379")
    costs = _connect(workers=2)
    (kind, kw), _ = fake_ray
    assert kw["address"] == "127.0.0.1:6379" and "num_cpus" not in kw
    assert costs.how == "joined" and costs.stop_s is None  # (disconnected, not shut down)
    assert "left running" in costs.line() and "shut down" not in costs.line()


def test_an_address_is_joined_with_the_package_shipped(fake_ray, monkeypatch):
    monkeypatch.setattr(RS, "running_local", lambda: pytest.fail("an address is not looked for"))
    costs = _connect(address="10.0.0.5:6379")
    (kind, kw), _ = fake_ray
    assert kw["address"] == "10.0.0.5:6379"
    assert kw["runtime_env"]["py_modules"]  # (another machine need not hold the package)
    assert costs.line().startswith("Ray: joined the cluster at 10.0.0.5:6379 in ")


def test_rays_own_variable_names_a_cluster_too(fake_ray, monkeypatch):
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.6:6379")
    _connect()
    assert fake_ray[0][1]["address"] == "10.0.0.6:6379"


def test_a_ray_running_in_this_process_is_used_as_it_is(fake_ray, monkeypatch):
    monkeypatch.setattr(ray, "is_initialized", lambda: True)
    costs = _connect()
    assert fake_ray == []
    assert costs.how == "running" and "left running" in costs.line()


def test_only_a_running_ray_started_by_ray_start_is_found(monkeypatch):
    """The address in Ray's bootstrap file counts only while a GCS server serves it (a stale
    file is not joined); another program's private Ray (no bootstrap file) is never joined."""
    from ray._private import services, utils
    monkeypatch.setattr(utils, "read_ray_address", lambda temp_dir=None: "127.0.0.1:6379")
    monkeypatch.setattr(services, "find_gcs_addresses", lambda: {"127.0.0.1:6379"})
    assert RS.running_local() == "127.0.0.1:6379"
    monkeypatch.setattr(services, "find_gcs_addresses", lambda: {"127.0.0.1:40000"})
    assert RS.running_local() is None
    monkeypatch.setattr(utils, "read_ray_address", lambda temp_dir=None: None)
    assert RS.running_local() is None
