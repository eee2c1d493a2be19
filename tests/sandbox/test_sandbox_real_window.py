"""Issue 28 item 12: journeys in a real window (tests/sandbox/window_harness.py): under Xvfb with
real input from xdotool when both are installed, and through the pygame event queue with real
frame timing under the dummy driver always. Each waits on the sandbox's state, not on time. The
journeys: typing at full speed, a unit moved model by model, a stratagem question answered with
the pointer, a Command Re-roll's die clicked in the tray, the window resized to three sizes, a
whole battle round against the computer."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import window_harness as WH


def _display() -> str:
    """An X display of this test process's own: SIM_TEST_DISPLAY (default :72) for the first
    xdist worker, the next numbers for the others (two workers sharing one Xvfb would end it
    under each other's journeys)."""
    base = int(os.environ.get("SIM_TEST_DISPLAY", ":72").lstrip(":"))
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return f":{base + int(worker[2:] or 0)}"


DISPLAY = _display()


@pytest.fixture(scope="module")
def xvfb():
    if not WH.have_x():
        pytest.skip("Xvfb and xdotool are not installed: the journeys run through the event queue only")
    proc = WH.start_xvfb(DISPLAY)
    if proc is None:
        pytest.skip(f"Xvfb could not start on {DISPLAY}")
    yield DISPLAY
    proc.terminate()  # (our own Xvfb, by its process)
    proc.wait(timeout=10)


@pytest.mark.parametrize("journey", sorted(WH.JOURNEYS))
def test_journey_through_the_event_queue(journey):
    WH.run(journey, "queue")


@pytest.mark.parametrize("journey", sorted(WH.JOURNEYS))
def test_journey_in_a_real_window_with_xdotool(journey, xvfb):
    env = {**os.environ, "DISPLAY": xvfb, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy",
           "PYTHONPATH": str(WH.ROOT)}
    r = subprocess.run([sys.executable, str(WH.HERE / "window_harness.py"), journey, "xdotool"],
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
