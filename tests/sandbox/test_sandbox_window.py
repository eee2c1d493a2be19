"""`sim play` end to end under the dummy video driver: the window loop starts on the default
scenario, draws frames and closes cleanly on a quit event, and can do so again in the same
process; a bad scenario is one line, exit 2."""

from __future__ import annotations

import pygame

from sandbox_support import ROOT
from sim.sandbox import app


def test_run_sandbox_opens_draws_and_quits(monkeypatch):
    assert len(_run_three_frames(monkeypatch)) >= 3


def test_run_sandbox_bad_scenario_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[battle]\nname = 1\n")
    assert app.run_sandbox(str(bad)) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "bad.toml" in err and "Traceback" not in err


def _run_three_frames(monkeypatch) -> list:
    frames = []
    real_update = app.Sandbox.update

    def update(self, dt):
        frames.append(dt)
        if len(frames) == 3:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        return real_update(self, dt)

    monkeypatch.setattr(app.Sandbox, "update", update)
    assert app.run_sandbox(str(ROOT / "scenarios/default.toml")) == 0
    return frames


def test_run_sandbox_twice_in_one_process(monkeypatch):
    """Each run ends with pygame.quit(), which kills every font made so far: the second run
    must not draw with the first run's cached fonts ("font module quit since font created")."""
    assert len(_run_three_frames(monkeypatch)) >= 3
    assert len(_run_three_frames(monkeypatch)) >= 3


def test_fonts_are_made_again_after_the_font_module_is_quit():
    from sim.sandbox.fonts import font, text
    pygame.font.init()
    before = font(17)
    pygame.quit()
    pygame.font.init()  # (a new generation: every font made before it is dead)
    after = font(17)
    assert after is not before and after.get_height() > 0
    assert text("a string drawn only after the quit", 17, (255, 255, 255)).get_width() > 0
    assert font(17) is after  # (cached again within the generation)
