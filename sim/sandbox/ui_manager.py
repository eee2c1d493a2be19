"""The sandbox's pygame-gui manager: the library's, with four costs it paid taken away (each
with the library's answer: the same ids, the same free space, the same pixels).

pygame-gui (0.6.14) keeps the ids it works out for an element's place in the containers, but
keys that cache with a string it makes by joining the id lists' strings into one another: for a
button three containers deep that string runs to megabytes, made and hashed at every element
made, about a third of the cost of making a button. The ids depend only on the four lists, so
the same answer is kept here by a tuple of them, and the library's own is asked once per place.

Each manager the library makes also adds its translations folder to python-i18n's search path
again, and every text with a dot in it ("3.2 models", a unit's name) that is not a translation
key is looked for in each folder of that path (a directory listing each time): after a hundred
managers in one process (a window resized, the tests) a label cost a hundred listings. The path
is kept to one copy of each folder here.

The theme's cache of drawn shapes packs them, one a frame, into large surfaces, and after each
it drops the free rectangles that lie inside another: a pair of Python loops over them all
(hundreds), 2-3 ms a frame while a new panel's shapes go in (about a twentieth of the sandbox
tests' time). The same rectangles are dropped here in one numpy comparison of them all.

A shape (a button's, a label's) is drawn in each of its states (normal, hovered, selected,
active) when made: the normal state at once, the others one a frame in the frames that follow,
so the frames after a panel is built draw three times its shapes again, for states most of its
buttons never show (a pointer hovers one button at a time). The library draws a state that was
not drawn when it is shown (``set_active_state``: how it draws the disabled state); here every
state but the normal one is drawn that way (_StateDrawnWhenShown), with the same pixels."""

from __future__ import annotations

import i18n
import numpy as np
import pygame_gui
from pygame_gui.core.drawable_shapes import drawable_shape
from pygame_gui.core.surface_cache import SurfaceCache

from sim.sandbox import style


class _StateDrawnWhenShown(drawable_shape.DrawableShapeState):
    """A shape's state that is drawn when it is first shown, unless it is the normal one."""

    def __init__(self, state_id: str):
        super().__init__(state_id)
        self.should_auto_pregen = state_id == "normal"


class UIManager(pygame_gui.UIManager):
    def __init__(self, *args, **kwargs):
        # (the library makes its shapes' states by this name: every shape made from now on)
        drawable_shape.DrawableShapeState = _StateDrawnWhenShown
        super().__init__(*args, **kwargs)
        i18n.load_path[:] = list(dict.fromkeys(i18n.load_path))
        theme = args[1] if len(args) > 1 else kwargs.get("theme_path")
        # (the looks of the theme's labels, for the panels' lines of text: widgets.TextLine)
        self.text_looks = style.text_looks(theme) if isinstance(theme, dict) else None

    def create_new_theme(self, theme_path=None):
        theme = super().create_new_theme(theme_path)
        theme.build_all_combined_ids = _kept(theme.build_all_combined_ids)
        theme.shape_cache = _ShapeCache()  # (before any element is made: nothing holds the old)
        return theme


# The ids of a place, kept for every manager: the library's answer depends on the four lists
# alone (not on the theme), and a window resized, or a test, makes a new manager with the same
# places. Emptied when it reaches _KEPT_MAX places (a bound, never reached by the sandbox).
_KEPT: dict = {}
_KEPT_MAX = 4096


def _kept(work):
    def build_all_combined_ids(element_base_ids, element_ids, class_ids, object_ids):
        key = tuple(None if ids is None else tuple(ids)
                    for ids in (element_base_ids, element_ids, class_ids, object_ids))
        ids = _KEPT.get(key)
        if ids is None:
            if len(_KEPT) >= _KEPT_MAX:
                _KEPT.clear()
            ids = _KEPT[key] = work(element_base_ids, element_ids, class_ids, object_ids)
        return ids

    return build_all_combined_ids


class _ShapeCache(SurfaceCache):
    """pygame-gui's cache of drawn shapes, its clean-up of the free space done in numpy."""

    @staticmethod
    def _clean_up_lt_cache(cache_surface, free_space_rectangles):
        """The library's: every free rectangle that another (unequal) one contains is dropped,
        with every rectangle equal to it; the rest keep their order. ``Rect.contains`` as
        pygame-ce reads it: b contains a when b.x <= a.x, b.y <= a.y, b.right >= a.right,
        b.bottom >= a.bottom, b.right > a.x and b.bottom > a.y."""
        rects = free_space_rectangles
        if len(rects) < 2:
            cache_surface["free_space_rectangles"] = rects[:]
            return
        x, y, w, h = np.array([tuple(r) for r in rects], dtype=np.int64).T
        r, b = x + w, y + h
        # [i, j]: rectangle j contains rectangle i, and is not equal to it
        inside = ((x[None, :] <= x[:, None]) & (y[None, :] <= y[:, None])
                  & (r[None, :] >= r[:, None]) & (b[None, :] >= b[:, None])
                  & (r[None, :] > x[:, None]) & (b[None, :] > y[:, None]))
        same = ((x[None, :] == x[:, None]) & (y[None, :] == y[:, None])
                & (w[None, :] == w[:, None]) & (h[None, :] == h[:, None]))
        gone = (inside & ~same).any(axis=1).tolist()
        cache_surface["free_space_rectangles"] = [rect for rect, g in zip(rects, gone) if not g]
