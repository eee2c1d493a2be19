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
        d.click_button("bar:more")  # (the spare buttons the bar hid: all three at 800, two at 1024)
        assert _rows(sb) == 1 and {"bar:back", "bar:open", "bar:save"} <= set(sb.names), sorted(sb.names)
        d.click_button("bar:back")
        assert "bar:shoot" in sb.names and sb.names["bar:shoot"].alive()
    _resize(d, (2560, 1440))  # (room for every button's full text: no "More")
    assert _rows(sb) == 1 and "bar:setup" in sb.names and sb.names["bar:setup"].alive()
    assert sb.names["bar:shoot"].text == "Shoot (S)"


def _bar(sb) -> set[str]:
    return {n for n in sb.names if n.startswith("bar:") and sb.names[n].alive()}


def test_more_lists_exactly_the_buttons_the_bar_hid_each_with_its_key(make):
    """"More..." shows the spare buttons the bar could not hold at its width (none twice: a
    button still on the bar is not on the page), each saying its key; at a width that holds
    them all there is no "More"."""
    d = make(TABLE, seed=5)
    sb = d.sb
    d.click_button("phase:start")
    d.click_model("w-squad1/1")
    spares = {"bar:setup", "bar:open", "bar:save"}
    seen = {}
    for size in ((800, 600), (1024, 700), (1600, 1000)):
        _resize(d, size)
        on_bar = _bar(sb) & spares
        if "bar:more" not in _bar(sb):
            assert on_bar == spares, (size, on_bar)
            seen[size] = set()
            continue
        d.click_button("bar:more")
        page = _bar(sb) & spares
        assert page == spares - on_bar and page, (size, on_bar, page)
        keys = {"bar:setup": "(F2)", "bar:open": "(Ctrl+O)", "bar:save": "(Ctrl+S)"}
        assert all(keys[n] in sb.names[n].text for n in page), [sb.names[n].text for n in page]
        seen[size] = page
        d.click_button("bar:back")
    assert seen[(800, 600)] == spares and seen[(1024, 700)] == {"bar:open", "bar:save"} and not seen[(1600, 1000)]


def test_the_more_page_gives_way_when_the_window_grows(make):
    d = make(TABLE, seed=5)
    sb = d.sb
    d.click_button("phase:start")
    _resize(d, (800, 600))
    d.click_button("bar:more")
    assert "bar:back" in _bar(sb)
    _resize(d, (1600, 1000))  # (every button fits: the usual bar, no empty page)
    assert "bar:back" not in _bar(sb) and {"bar:shoot", "bar:setup", "bar:open", "bar:save"} <= _bar(sb)
