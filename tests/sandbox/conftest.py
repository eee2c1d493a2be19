"""Headless sandbox fixtures: a dummy video driver, a Sandbox on a display surface, and a
driver that posts real pygame events (clicks, drags, keys) and pumps them through it."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


import pygame  # noqa: E402
import pytest  # noqa: E402

from sandbox_support import ROOT, SIZE  # noqa: E402


class Driver:
    """Drives a Sandbox through the pygame event queue only."""

    def __init__(self, sb):
        self.sb = sb

    def pump(self, n: int = 2, draw: bool = True) -> None:
        """``n`` frames: the events handled, then update; the table drawn after the last frame
        (drawing only reads, test_sandbox_render.py: a frame drawn in between would show what
        the last one shows, as a real window skips frames when it falls behind)."""
        for _ in range(n):
            for e in pygame.event.get():
                self.sb.handle(e)
            self.sb.update(1 / 60)
        if draw:
            self.sb.draw()

    def post(self, type_, **kw) -> None:
        pygame.event.post(pygame.event.Event(type_, **kw))

    def move(self, pos, buttons=(0, 0, 0)) -> None:
        self.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=buttons)

    def click(self, pos, button: int = 1) -> None:
        pos = (int(pos[0]), int(pos[1]))
        self.move(pos)
        self.pump(1)
        self.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)
        self.pump(1)
        self.post(pygame.MOUSEBUTTONUP, pos=pos, button=button)
        self.pump(3)

    def button(self, name: str):
        b = self.sb.names.get(name)
        assert b is not None and b.alive(), f"no button {name!r}; have {sorted(self.sb.names)}"
        return b

    def click_button(self, name: str) -> None:
        self.click(self.button(name).rect.center)

    def model_pos(self, mid: str):
        m = self.sb.scene.models[mid]
        x, y = self.sb.camera.to_screen(m.x, m.y)
        return (int(round(x)), int(round(y)))

    def click_model(self, mid: str) -> None:
        self.click(self.model_pos(mid))

    def key(self, key: int, unicode: str = "", mod: int = 0) -> None:
        self.post(pygame.KEYDOWN, key=key, unicode=unicode, mod=mod, scancode=0)
        self.post(pygame.KEYUP, key=key, unicode=unicode, mod=mod, scancode=0)
        self.pump(2)

    def drag(self, a, b, steps: int = 8, button: int = 1) -> None:
        a = (int(a[0]), int(a[1]))
        self.move(a)
        self.post(pygame.MOUSEBUTTONDOWN, pos=a, button=button)
        self.pump(1)
        for i in range(1, steps + 1):
            p = (int(a[0] + (b[0] - a[0]) * i / steps), int(a[1] + (b[1] - a[1]) * i / steps))
            self.move(p, buttons=(1, 0, 0))
            self.pump(1)
        self.post(pygame.MOUSEBUTTONUP, pos=(int(b[0]), int(b[1])), button=button)
        self.pump(3)


@pytest.fixture
def screen():
    pygame.init()
    surf = pygame.display.set_mode(SIZE)
    pygame.event.clear()
    yield surf
    pygame.event.clear()


@pytest.fixture
def make(screen, tmp_path):
    made = []

    def _make(scenario, seed=None, **options):  # (options: the Sandbox's, e.g. ai=, ai_speed=, ask_ai=)
        from sim.sandbox.app import Sandbox
        sb = Sandbox(str(scenario), screen, seed=seed, save_dir=tmp_path, **options)
        made.append(sb)
        return Driver(sb)

    yield _make
    for sb in made:
        sb.battle.close()
        stashed = sb.stashed_battle()  # the battle set aside while a replay is watched
        if stashed is not None:
            stashed.close()


@pytest.fixture
def sized(tmp_path):
    """A shipped scenario's sandbox in a window of a given size, two frames drawn:
    ``sized("default.toml", (800, 600))``."""
    made = []

    def _make(scenario, size):
        from sim.sandbox.app import Sandbox
        pygame.init()
        surf = pygame.display.set_mode(size)
        sb = Sandbox(str(ROOT / "scenarios" / scenario), surf, size=size, save_dir=tmp_path)
        made.append(sb)
        for _ in range(2):
            sb.update(1 / 60)
            sb.draw()
        return sb

    yield _make
    for sb in made:
        sb.battle.close()
