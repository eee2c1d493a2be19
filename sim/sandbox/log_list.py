"""The battle log's list: pygame-gui's selection list, its rows added as the battle goes on.

pygame-gui's ``UISelectionList.set_item_list`` makes every row again: its visible rows' buttons
(each a font render and a themed shape, ~1 ms) from the top of the list, then a second set
when the list is scrolled to its end on the next update. The log only ever grows at its end
(or is laid out again when its width changes), so ``LogList.add_rows`` appends rows: the
buttons of the rows still in view are kept and moved, only the new rows' are made, and the
view follows the end of the log while it is there (a player who scrolled up to read keeps
the rows they are reading). Each row is the library's own item (text, button, selection,
object id), so selecting, hovering and scrolling are the library's.
"""

from __future__ import annotations

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIButton, UISelectionList


class LogList(UISelectionList):
    """A selection list that rows are added to at its end (the module's docstring)."""

    def add_rows(self, rows: list[tuple[str, str]], keep: int) -> None:
        """Append ``rows`` (text, object id), keeping the last ``keep`` rows in all. The view
        stays at the end when it was there (or had no scroll bar), else where it was."""
        if not rows:
            return
        bar = self.scroll_bar
        h = self.list_item_height
        follow = bar is None or self._offset() >= self.lowest_list_pos - h / 2
        top = self._offset()
        items = self.item_list
        for text, oid in rows:
            items.append({"text": text, "button_element": None, "selected": False, "object_id": oid,
                          "height": len(items) * h})
        self._raw_item_list.extend(rows)
        drop = len(items) - keep
        if drop > 0:
            for it in items[:drop]:
                if it["button_element"] is not None:
                    it["button_element"].kill()
            del items[:drop]
            del self._raw_item_list[:drop]
            for i, it in enumerate(items):
                it["height"] = i * h
            top = max(0, top - drop * h)
        view = self._view_height()
        self.total_height_of_list = h * len(items)
        self.lowest_list_pos = self.total_height_of_list - view
        if self.total_height_of_list > view and bar is None:
            # (the first time a scroll bar is needed: the library makes it and narrows the rows)
            self.set_item_list(list(self._raw_item_list))
            top, follow = 0, True
        bar = self.scroll_bar
        if bar is not None:
            bar.set_visible_percentage(view / max(self.total_height_of_list, 1))
            bar.set_scroll_from_start_percentage(
                1.0 if follow else min(top, self.lowest_list_pos) / max(self.total_height_of_list, 1))
        self._place()

    def _view_height(self) -> int:
        c = self.list_and_scroll_bar_container
        return int(c.relative_rect.height) if c is not None else 0

    def _offset(self) -> float:
        """How far down the list the view is, in pixels (as the library's update reckons it)."""
        bar = self.scroll_bar
        if bar is None:
            return 0.0
        return min(bar.start_percentage * self.total_height_of_list, self.lowest_list_pos)

    def _place(self) -> None:
        """The buttons of the rows in view made or moved, the others' removed: what the
        library's update does when the scroll bar moves, done now (so the update has nothing
        left to do)."""
        box = self.item_list_container
        if box is None:
            return
        h = self.list_item_height
        adj = self._offset()
        view = box.relative_rect.height
        for index, item in enumerate(self.item_list):
            y = int(index * h - adj)
            btn = item["button_element"]
            if -h <= y <= view:
                if btn is None:
                    btn = UIButton(relative_rect=pygame.Rect(0, y, box.relative_rect.width, h), text=item["text"],
                                   manager=self.ui_manager, parent_element=self, container=box,
                                   object_id=ObjectID(object_id=item["object_id"], class_id="@selection_list_item"),
                                   allow_double_clicks=self.allow_double_clicks,
                                   anchors={"left": "left", "right": "right", "top": "top", "bottom": "top"})
                    self.join_focus_sets(btn)
                    if item["selected"]:
                        btn.select()
                    item["button_element"] = btn
                elif btn.relative_rect.y != y:
                    btn.set_relative_position((0, y))
            elif btn is not None:
                btn.kill()
                item["button_element"] = None
        if self.scroll_bar is not None:
            self.scroll_bar.has_moved_recently = False  # (placed: the library's update need not again)
