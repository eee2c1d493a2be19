"""`sim play` end to end under the dummy video driver: the window loop starts on the default
scenario, draws frames and closes cleanly on a quit event; a bad scenario is one line, exit 2."""

from __future__ import annotations

import pygame

from sandbox_support import ROOT
from sim.sandbox import app


def test_run_sandbox_opens_draws_and_quits(monkeypatch):
    frames = []
    real_update = app.Sandbox.update

    def update(self, dt):
        frames.append(dt)
        if len(frames) == 3:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        return real_update(self, dt)

    monkeypatch.setattr(app.Sandbox, "update", update)
    assert app.run_sandbox(str(ROOT / "scenarios/default.toml")) == 0
    assert len(frames) >= 3


def test_run_sandbox_bad_scenario_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[battle]\nname = 1\n")
    assert app.run_sandbox(str(bad)) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "bad.toml" in err and "Traceback" not in err
