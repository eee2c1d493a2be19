"""sim.analysis.stats._ray_signals (the context ray.init and the wait for Ray's results
run in): a signal is only noted where it lands, and answered by ``check()`` (the handler before
it raises then, from there); a second signal is answered at once; with none, ``check()`` does
nothing and the handlers before are put back. No Ray needed: the signals are sent to this
process, whose handlers before are a test's."""

from __future__ import annotations

import os
import signal

import pytest

from sim.analysis.stats import _ray_signals


class Answered(BaseException):
    pass


@pytest.fixture
def handlers():
    """SIGINT and SIGTERM raising Answered (as sim.cli's raise KeyboardInterrupt/Terminated,
    ignoring both from then on); the handlers before put back after."""
    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    calls = []

    def stop(signum, frame):
        calls.append(signum)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Answered(signum)

    for s in old:
        signal.signal(s, stop)
    yield stop, calls
    for s, h in old.items():
        signal.signal(s, h)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_is_noted_where_it_lands_and_answered_by_check(handlers, signum):
    stop, calls = handlers
    reached = False
    with pytest.raises(Answered):
        with _ray_signals() as check:
            os.kill(os.getpid(), signum)      # (as if it came inside ray.init)
            reached = True                    # (nothing raised where it landed)
            assert calls == []
            check()
    assert reached and calls[0] == signum
    assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN   # (the answer's: the next ignored)


def test_a_second_signal_is_answered_at_once(handlers):
    stop, calls = handlers
    after = []
    with pytest.raises(Answered):
        with _ray_signals():
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)   # (a Ray that does not start: stopped all the same)
            after.append("the block went on")
    assert after == [] and calls and calls[0] == signal.SIGINT


def test_with_no_signal_check_does_nothing_and_the_handlers_come_back(handlers):
    stop, calls = handlers
    with _ray_signals() as check:
        assert signal.getsignal(signal.SIGINT) is not stop   # (relayed while the block runs)
        check()
    assert calls == []
    assert signal.getsignal(signal.SIGINT) is stop and signal.getsignal(signal.SIGTERM) is stop
