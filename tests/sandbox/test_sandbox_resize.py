"""Resizing the window (VIDEORESIZE) lays the sandbox out again at the new UI scale: at 800x600
the action bar still shows every button (wrapped onto rows), at 2560x1440 text and panels are
larger; the table under the camera is refitted."""

from __future__ import annotations

import pygame

from sandbox_support import ROOT, shot


def _resize(d, size):
    pygame.display.set_mode(size)
    d.post(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1])
    d.pump(2)


def test_resize_small_and_large(make):
    d = make(ROOT / "scenarios" / "default.toml")
    sb = d.sb
    d.click_model("captain")
    base = sb.scale
    heights = {}
    for size in ((800, 600), (2560, 1440), (1440, 900)):
        _resize(d, size)
        assert sb.size == size and sb.manager.window_resolution == size
        window = pygame.Rect((0, 0), size)
        bar = [n for n in sb.names if n.startswith("bar:")]
        assert {"bar:shoot", "bar:fight", "bar:move", "bar:step", "bar:end", "bar:help"} <= set(bar)
        panel = sb.action_flow.outer.rect
        for n in bar:
            b = sb.names[n]
            assert window.contains(b.rect) and panel.contains(b.rect), (size, n, b.rect, panel)
        assert sb.camera.viewport == sb.rects["table"]
        heights[size] = sb.names["bar:shoot"].rect.h
        d.pump(1)
        shots = ROOT / "tests" / "sandbox" / "screenshots"  # (git-ignored: absent from a fresh clone)
        shots.mkdir(exist_ok=True)
        shot(sb.draw(), shots / f"resize-{size[0]}x{size[1]}.png")
    assert sb.scale == base
    assert heights[(2560, 1440)] > heights[(1440, 900)] >= heights[(800, 600)]
    # the card's text follows the scale too
    assert sb.label_rects and sb.rects["card"].w > 0


def test_a_window_smaller_than_the_least_is_laid_out_at_the_least(make):
    """A window resized below screen_layout.MIN_WINDOW (the widget library's layout recursed
    without end below ~350x260) is laid out at MIN_WINDOW, what does not fit cut off; growing it
    again lays it out at its size; a sandbox made on a tiny surface starts at the least too."""
    from sim.sandbox.app import Sandbox
    from sim.sandbox.screen_layout import MIN_WINDOW
    d = make(ROOT / "scenarios" / "battle_default.toml")
    sb = d.sb
    for size in ((320, 240), (200, 150), (1200, 300), (300, 1000)):
        _resize(d, size)
        assert sb.size == (max(size[0], MIN_WINDOW[0]), max(size[1], MIN_WINDOW[1]))
        sb.draw()
    _resize(d, (1024, 700))
    assert sb.size == (1024, 700)
    small = Sandbox(str(ROOT / "scenarios" / "battle_default.toml"), pygame.Surface((300, 200)))
    try:
        assert small.size == MIN_WINDOW
        small.update(1 / 60)
        small.draw()
    finally:
        small.battle.close()
