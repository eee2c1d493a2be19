"""The battle log's list (sim.sandbox.log_list.LogList): rows added at its end make only the new
rows' buttons, show what the library's own set_item_list shows, follow the end of the log while
the view is there and keep a player's place when they scrolled up."""

from __future__ import annotations

import pygame
import pygame_gui
import pytest
from pygame_gui.elements import UIButton, UISelectionList

from sim.sandbox.log_list import LogList

RECT = pygame.Rect(0, 0, 400, 300)


@pytest.fixture
def manager():
    pygame.init()
    pygame.display.set_mode((800, 600))
    return pygame_gui.UIManager((800, 600))


def _rows(n: int, start: int = 0) -> list[tuple[str, str]]:
    return [(f"event line {i}", f"#ev{i // 3}") for i in range(start, start + n)]


def _shown(lst) -> list[tuple[str, int]]:
    """The rows on screen: each button's text and its place in the list's box."""
    out = []
    for it in lst.item_list:
        b = it["button_element"]
        if b is not None:
            out.append((b.text, b.relative_rect.y))
    return out


def _settle(manager, n: int = 2) -> None:
    for _ in range(n):
        manager.update(0.016)


def test_log_list_add_rows_shows_what_set_item_list_shows(manager):
    """Rows added a few at a time show the same rows at the same places as the library's
    set_item_list with the view scrolled to the end (what the log did before)."""
    lib = UISelectionList(RECT, [], manager)
    ours = LogList(RECT.move(400, 0), [], manager)
    rows = []
    for step in range(12):
        new = _rows(4 + step % 3, len(rows))
        rows += new
        lib.set_item_list(list(rows))
        if lib.scroll_bar is not None:
            lib.scroll_bar.set_scroll_from_start_percentage(1.0)
        ours.add_rows(new, keep=1000)
        _settle(manager)
        assert _shown(ours) == _shown(lib), step
        assert [it["text"] for it in ours.item_list] == [t for t, _ in rows]
        assert [it["object_id"] for it in ours.item_list] == [o for _, o in rows]
    assert ours.scroll_bar is not None  # (the log outgrew its box: the last rows are the ones shown)
    assert _shown(ours)[-1][0] == rows[-1][0]


def test_log_list_add_rows_makes_only_the_new_rows_buttons(manager, monkeypatch):
    """Once the list scrolls, a row added makes one button (the library's path made every
    visible row's, twice: from the top, then at the end)."""
    lst = LogList(RECT, [], manager)
    lst.add_rows(_rows(60), keep=1000)
    _settle(manager)
    made = []
    real = UIButton.__init__

    def counting(self, *a, **k):
        made.append(k.get("text"))
        real(self, *a, **k)

    monkeypatch.setattr(UIButton, "__init__", counting)
    for i in range(5):
        lst.add_rows(_rows(1, 60 + i), keep=1000)
        _settle(manager)
    assert made == [f"event line {60 + i}" for i in range(5)]


def test_log_list_keeps_a_player_s_place_when_scrolled_up(manager):
    """Scrolled to the top to read, the view stays there while rows are added; back at the end,
    it follows the log again."""
    lst = LogList(RECT, [], manager)
    lst.add_rows(_rows(60), keep=1000)
    _settle(manager)
    lst.scroll_bar.set_scroll_from_start_percentage(0.0)
    _settle(manager)
    assert _shown(lst)[0] == ("event line 0", 0)
    lst.add_rows(_rows(10, 60), keep=1000)
    _settle(manager)
    assert _shown(lst)[0] == ("event line 0", 0)
    lst.scroll_bar.set_scroll_from_start_percentage(1.0)
    _settle(manager)
    lst.add_rows(_rows(3, 70), keep=1000)
    _settle(manager)
    assert _shown(lst)[-1][0] == "event line 72"


def test_log_list_keeps_the_last_rows_and_their_selection(manager):
    """Past ``keep`` rows the oldest go; a selected row stays selected as rows are added."""
    lst = LogList(RECT, [], manager)
    lst.add_rows(_rows(30), keep=40)
    _settle(manager)
    lst.item_list[-1]["selected"] = True
    lst.add_rows(_rows(25, 30), keep=40)
    _settle(manager)
    assert len(lst.item_list) == 40
    assert lst.item_list[0]["text"] == "event line 15"
    assert [it["height"] for it in lst.item_list] == [i * lst.list_item_height for i in range(40)]
    assert lst.get_single_selection() == "event line 29"
    assert _shown(lst)[-1][0] == "event line 54"
