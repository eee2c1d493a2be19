"""Defects found playing under Xvfb at 2560x1440 against the tactician: the order's odds block
was placed in the orders panel's scale-1 units, so at UI scale 1.76 it sat 200 px up, over the
weapons it follows (Sharpshooter 3's to 5's buttons hidden), its text half the panel's size; and
Finish stopped at the computer's own decisions."""

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


@pytest.mark.parametrize("seed", [1, 3])  # (the person goes first)
def test_finish_resolves_the_persons_shot_through_the_computers_decisions(tmp_path, seed):
    """Under Xvfb against the tactician: Finish on the person's shot stopped at the computer's
    Command Re-roll question (answered by the computer a frame later) and the shot stayed
    "resolving ... next: save rolls" until a second Finish."""
    from sim.sandbox.app import Sandbox
    pygame.init()
    surf = pygame.display.set_mode((1440, 900))
    pygame.event.clear()
    sb = Sandbox(str(ROOT / "scenarios" / "battle_default.toml"), surf, seed=seed, save_dir=tmp_path,
                 ai={0: "tactician"}, ask_ai=False)
    try:
        d = Driver(sb)
        d.pump(2)
        d.key(pygame.K_e, "e")
        if sb.battle.turn_state.active != 1:
            pytest.skip("the computer goes first with this seed")
        d.key(pygame.K_e, "e")  # (to the Shooting phase; the computer declines or fires Overwatch)
        for _ in range(20):
            d.pump(1)
        from sim.rules import command_reroll as RR
        sb.reroll_asks = [RR.ALWAYS, RR.NEVER]  # (the person is not asked: Finish may run to the end)
        asked = []
        real = sb._ai_answer
        sb._ai_answer = lambda req: asked.append(req.kind) or real(req)
        d.click_model("r-snipers/2")
        d.key(pygame.K_s, "s")
        d.click_model("w-squad2/3")
        d.key(pygame.K_RETURN)
        assert sb.resolving
        d.click_button("finish")
        assert not sb.resolving, (sb.status, asked)
        assert asked  # (the computer was asked on the way: its Command Re-roll on the saves)
    finally:
        sb.battle.close()
        pygame.event.clear()


def test_a_long_option_keeps_its_target_whole(tmp_path):
    """Under Xvfb at 800x600 the Fire Overwatch buttons read "Raider Gunners -> Warden Squad (...":
    which of the Warden Squads was lost. The shooter's name is shortened first."""
    import pygame_gui
    from sim.sandbox.widgets import Flow
    pygame.init()
    pygame.display.set_mode((800, 600))
    flow = Flow(pygame_gui.UIManager((800, 600)), pygame.Rect(0, 0, 260, 300), {}, {})
    text = "Raider Gunners -> Warden Squad (2)"
    cut = flow.fit(text, 190)
    assert cut.endswith(" -> Warden Squad (2)") and cut.startswith("Raid") and "..." in cut, cut
    assert flow.text_w(cut) * 1.05 <= 190 - 12
    assert flow.fit(text, 600) == text
    assert flow.fit("a very long line with no arrow in it at all", 120).endswith("...")


@pytest.mark.parametrize("size", [(2560, 1440), (800, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_drag_readout_leaves_the_units_name_visible(tmp_path, size):
    """Under Xvfb the "4.9\\" moved, 1.1\\" left" readout over the grabbed model hid the dragged
    unit's name ("Raider Mob (2)" peeking out behind it)."""
    from sim.sandbox.app import Sandbox
    pygame.init()
    surf = pygame.display.set_mode(size)
    pygame.event.clear()
    sb = Sandbox(str(ROOT / "scenarios" / "battle_default.toml"), surf, size=size, seed=1, save_dir=tmp_path,
                 ai={}, ask_ai=False)
    try:
        d = Driver(sb)
        d.pump(2)
        d.key(pygame.K_e, "e")  # (Raiders move first with seed 1)
        a = d.model_pos("r-squad2/3")
        d.move(a)
        d.pump(1)
        d.post(pygame.MOUSEBUTTONDOWN, pos=a, button=1)
        d.pump(1)
        step = sb.camera.length(1.0)
        for k in range(1, 4):
            d.move((a[0], round(a[1] - k * step)), buttons=(1, 0, 0))
            d.pump(1)
        assert sb.drag is not None and sb.drag["unit"] == "r-squad2"
        label = sb.label_rects["r-squad2"]
        assert not sb.drag_readout.colliderect(label), (sb.drag_readout, label)
        d.post(pygame.MOUSEBUTTONUP, pos=(a[0], round(a[1] - 3 * step)), button=1)
        d.pump(2)
    finally:
        sb.battle.close()
        pygame.event.clear()
