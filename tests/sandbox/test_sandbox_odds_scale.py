"""The order's odds block at the panel's UI scale (found playing under Xvfb at 2560x1440): the
block was placed in the panel's scale-1 units, so at UI scale 1.76 it sat 200 px up, over the
weapons it follows (Sharpshooter 3's to 5's buttons hidden), its text half the panel's size."""

from __future__ import annotations

import pygame
import pytest

from conftest import Driver
from sandbox_support import ROOT


@pytest.fixture
def big(tmp_path):
    from sim.sandbox.app import Sandbox
    pygame.init()
    surf = pygame.display.set_mode((2560, 1440))
    pygame.event.clear()
    sb = Sandbox(str(ROOT / "scenarios" / "battle_default.toml"), surf, size=(2560, 1440), seed=1,
                 save_dir=tmp_path, ai={}, ask_ai=False)
    yield Driver(sb)
    sb.battle.close()
    pygame.event.clear()


def test_the_odds_block_sits_under_its_heading_clear_of_the_weapons(big):
    d, sb = big, big.sb
    d.pump(2)
    d.key(pygame.K_e, "e")  # (start: Raiders move first with seed 1)
    d.key(pygame.K_e, "e")  # (end the Movement phase: Wardens are asked about Fire Overwatch)
    d.click_button("answer:decline")
    d.click_model("r-snipers/2")
    d.key(pygame.K_s, "s")
    d.click_model("w-squad2/3")
    for _ in range(200):
        if sb.odds.state != "working":
            break
        sb.odds.wait()
        d.pump(1)
    d.pump(2)
    assert sb.odds.state == "ready" and sb.odds.image is not None
    img = sb.odds.image.get_abs_rect()
    assert sb.scale > 1.5
    buttons = [(n, b.get_abs_rect()) for n, b in sb.names.items() if n.startswith("slot:") and b.alive()]
    assert buttons
    for n, r in buttons:
        assert not img.colliderect(r), (n, r, img)
        assert r.bottom <= img.top  # (the weapons above, the odds under them)
    assert img.w >= 0.8 * sb.rects["orders"].w  # (the width of the panel, not of a scale-1 panel)
