"""Which Ray `sim stats --backend ray` (and `sim ladder`) runs on, and what it cost.

Starting a local Ray costs seconds (2.8 s on the idle reference machine, more on a busy one),
its first result more (its workers start and import the simulator) and its shutdown again
(1.6 s); a batch of a few seconds' work paid that three times over. So a Ray already running is
kept, never started again:

- this process's own (ray.is_initialized(): a script that calls iter_runs_ray many times) is
  used as it is and left running;
- ``--address HOST:PORT`` (or RAY_ADDRESS, Ray's own variable): that cluster, joined, left
  running; this package goes with the tasks as a runtime_env module (its machines need not hold
  it);
- a Ray started on this machine by ``ray start --head`` (its address in Ray's bootstrap file and
  its GCS server running): joined, left running; the workers read this package where it is
  (``code_search_path``: same machine, no upload);
- none of these: a local Ray of our own, started now with ``workers`` CPUs and shut down at the
  end (its session folder and processes watched by sim.analysis.reaper), its workers reading
  this package where it is, as above (the upload of a runtime_env module made their first
  result twice as late).

``Costs`` records what each step took, and ``line()`` says it (`sim stats` prints it)."""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass


@dataclass
class Costs:
    """What Ray cost a batch: ``how`` it was found ("started", "joined", "running"), where, the
    seconds of ray.init, to the first result, and of the shutdown (None: not ours to end)."""

    how: str = ""
    where: str = ""
    start_s: float = 0.0
    first_s: float | None = None
    stop_s: float | None = None

    def line(self) -> str:
        if self.how == "started":
            head = f"Ray: started a local instance ({self.where}) in {self.start_s:.1f} s"
        elif self.how == "joined":
            head = f"Ray: joined {self.where} in {self.start_s:.1f} s (left running)"
        else:
            head = "Ray: this process's running instance (left running)"
        parts = [head]
        if self.first_s is not None:
            parts.append(f"first result after {self.first_s:.1f} s")
        if self.stop_s is not None:
            parts.append(f"shut down in {self.stop_s:.1f} s")
        return "; ".join(parts)


def running_local() -> str | None:
    """The address of a Ray started on this machine by `ray start` that is still running (its
    address in Ray's bootstrap file, /tmp/ray/ray_current_cluster, and a GCS server on that
    port), else None. Another program's private Ray (started by its ray.init) is never picked:
    it ends with that program."""
    try:
        from ray._private import services, utils
        address = utils.read_ray_address(None)
        if not address:
            return None
        alive = services.find_gcs_addresses()
    except Exception:  # noqa: BLE001 - Ray's private helpers moved: start one of our own
        return None
    return address if address in alive else None


def package_root() -> str:
    """The folder holding the ``sim`` package (what a worker on this machine puts on its path)."""
    import sim
    return os.path.dirname(os.path.dirname(os.path.abspath(sim.__file__)))


def connect(stack: contextlib.ExitStack, address: str | None, workers: int | None, costs: Costs,
            init_signals) -> None:
    """Ray ready in this process (module docstring: which one); a Ray of our own is shut down
    when ``stack`` closes (the time it takes noted in ``costs``). ``init_signals``: the context
    ray.init runs in (sim.analysis.stats._ray_signals: it yields the ``check`` that
    answers a signal noted meanwhile, called once ray.init has returned; a context yielding
    None, nothing to call)."""
    import ray
    if ray.is_initialized():
        costs.how = "running"
        return
    address = address or os.environ.get("RAY_ADDRESS") or None
    local = None if address else running_local()
    if address:
        import sim
        kw = {"address": address, "runtime_env": {"py_modules": [os.path.dirname(os.path.abspath(sim.__file__))]}}
        costs.how, costs.where = "joined", f"the cluster at {address}"
    elif local:
        kw = {"address": local, "job_config": _job_config()}
        costs.how, costs.where = "joined", f"the local Ray at {local}"
    else:  # (a local Ray of ours: its session folder and processes go with it, reaper)
        from sim.analysis.reaper import Reaper
        cpus = workers or os.cpu_count() or 1
        kw = {"num_cpus": cpus, "include_dashboard": False, "configure_logging": False,
              "_temp_dir": stack.enter_context(Reaper()).folder, "job_config": _job_config()}
        costs.how, costs.where = "started", f"{cpus} CPUs"

    def stop():
        t0 = time.perf_counter()
        ray.shutdown()
        if costs.how == "started":
            costs.stop_s = time.perf_counter() - t0

    stack.callback(stop)
    t0 = time.perf_counter()
    with init_signals() as check:
        ray.init(log_to_driver=False, **kw)
        if check is not None:
            check()   # (a signal while Ray started, answered now that ray.init has returned)
    costs.start_s = time.perf_counter() - t0


def _job_config():
    from ray.job_config import JobConfig
    return JobConfig(code_search_path=[package_root()])
