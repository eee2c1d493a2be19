"""The sandbox's pygame-gui manager: the library's, with its theme's lookup of an element's
theming ids kept by a cheap key.

pygame-gui (0.6.14) keeps the ids it works out for an element's place in the containers, but
keys that cache with a string it makes by joining the id lists' strings into one another: for a
button three containers deep that string runs to megabytes, made and hashed at every element
made, about a third of the cost of making a button. The ids depend only on the four lists, so
the same answer is kept here by a tuple of them, and the library's own is asked once per place.

Each manager the library makes also adds its translations folder to python-i18n's search path
again, and every text with a dot in it ("3.2 models", a unit's name) that is not a translation
key is looked for in each folder of that path (a directory listing each time): after a hundred
managers in one process (a window resized, the tests) a label cost a hundred listings. The path
is kept to one copy of each folder here."""

from __future__ import annotations

import i18n
import pygame_gui


class UIManager(pygame_gui.UIManager):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        i18n.load_path[:] = list(dict.fromkeys(i18n.load_path))

    def create_new_theme(self, theme_path=None):
        theme = super().create_new_theme(theme_path)
        theme.build_all_combined_ids = _kept(theme.build_all_combined_ids)
        return theme


def _kept(work):
    kept: dict = {}

    def build_all_combined_ids(element_base_ids, element_ids, class_ids, object_ids):
        key = tuple(None if ids is None else tuple(ids)
                    for ids in (element_base_ids, element_ids, class_ids, object_ids))
        ids = kept.get(key)
        if ids is None:
            ids = kept[key] = work(element_base_ids, element_ids, class_ids, object_ids)
        return ids

    return build_all_combined_ids
