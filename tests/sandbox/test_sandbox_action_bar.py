"""The action bar keeps one row at 1024x700 and 800x600 (issue 28 item 9): its buttons' short
texts, then its spare buttons (Set up, Open replay, Save replay) behind "More...", which shows
them in the bar's place; every button stays reachable."""

from __future__ import annotations

import pygame

from sandbox_support import ROOT
from test_sandbox_resize import _resize

TABLE = ROOT / "scenarios" / "battle_default.toml"


def _rows(sb) -> int:
    return len({sb.names[n].rect.y for n in sb.names if n.startswith("bar:")})


def test_the_action_bar_is_one_row_at_1024_and_800_wide_and_its_spare_buttons_are_reachable(make):
    d = make(TABLE, seed=5)
    sb = d.sb
    d.click_button("phase:start")
    d.click_model("w-squad1/1")
    for size in ((1024, 700), (800, 600)):
        _resize(d, size)
        assert _rows(sb) == 1, (size, {n: sb.names[n].rect for n in sb.names if n.startswith("bar:")})
        panel = sb.action_flow.outer.rect
        assert all(panel.contains(sb.names[n].rect) for n in sb.names if n.startswith("bar:"))
        for n in ("bar:shoot", "bar:fight", "bar:move", "bar:step", "bar:los", "bar:calculator", "bar:help"):
            d.button(n)
        d.click_button("bar:more")
        assert _rows(sb) == 1 and {"bar:back", "bar:setup", "bar:open", "bar:save"} <= set(sb.names), sorted(sb.names)
        d.click_button("bar:back")
        assert "bar:shoot" in sb.names and sb.names["bar:shoot"].alive()
    _resize(d, (2560, 1440))  # (room for every button's full text: no "More")
    assert _rows(sb) == 1 and "bar:setup" in sb.names and sb.names["bar:setup"].alive()
    assert sb.names["bar:shoot"].text == "Shoot (S)"
