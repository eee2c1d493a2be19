"""The datasheet card at 800x600 (issue 28 leftovers): one row of characteristics per datasheet
model and profile ("Warden x5"), not one per model (the models' shown names are numbered,
"Warden 1".."Warden 5", and had made a row each, the table running off the card); the card's
heading is the unit's shown name ("Warden Squad (1)", as the status line says)."""

from __future__ import annotations

import pygame
from pygame_gui.elements import UILabel
from sim.sandbox.widgets import TextLine

from test_play_vs_computer import TABLE


def _card(sb) -> list[str]:
    return [e.text for e in sb.card_flow.scroll.get_container().elements if isinstance(e, (UILabel, TextLine))]


def test_one_row_per_datasheet_model_and_the_shown_name(make):
    pygame.display.set_mode((800, 600))
    d = make(TABLE)
    sb = d.sb
    d.post(pygame.VIDEORESIZE, size=(800, 600), w=800, h=600)
    d.pump(2)
    d.click_model(sb.scene.units["w-squad1"].models[0])
    assert sb.selected_unit == "w-squad1"
    texts = _card(sb)
    assert "Warden Squad (1)" in texts and "Warden x5" in texts, texts
    assert not any(t.startswith("Warden 1") for t in texts), texts
