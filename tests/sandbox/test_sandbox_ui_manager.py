"""The sandbox's UI manager (sim.sandbox.ui_manager): its theme gives every element the theming
ids the library's own gives, asking the library once per place in the containers."""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIPanel

from sim.sandbox.ui_manager import UIManager


def _ids(manager):
    pygame.display.set_mode((400, 300))
    panel = UIPanel(pygame.Rect(0, 0, 300, 200), manager=manager, object_id="#orders")
    return [UIButton(pygame.Rect(10, 10 + 30 * k, 100, 26), f"b{k}", manager, container=panel,
                     object_id="#pick" if k % 2 else None).combined_element_ids for k in range(4)]


def test_the_kept_theme_ids_are_the_librarys(monkeypatch):
    pygame.init()
    ours, theirs = UIManager((400, 300)), pygame_gui.UIManager((400, 300))
    assert _ids(ours) == _ids(theirs)
    assert "#orders.#pick" in _ids(ours)[1] and "#orders.#pick" not in _ids(ours)[0]
    calls = []
    work = type(ours.get_theme()).build_all_combined_ids
    monkeypatch.setattr(type(ours.get_theme()), "build_all_combined_ids",
                        lambda self, *a: calls.append(a) or work(self, *a))
    fresh = UIManager((400, 300))
    _ids(fresh)
    _ids(fresh)
    places = {tuple(map(tuple, a)) for a in calls}
    assert calls and len(calls) == len(places)  # (each place asked once, though all was made twice)


def test_many_managers_keep_one_copy_of_each_translations_folder():
    """The library adds its translations folder to python-i18n's path with each manager; ours
    keeps one copy, so a label's text is not looked for once per manager ever made."""
    import i18n
    pygame.init()
    for _ in range(3):
        UIManager((400, 300))
    assert len(i18n.load_path) == len(set(i18n.load_path)) >= 1
    pygame_gui.UIManager((400, 300))  # (the library's own adds another copy: what this undoes)
    assert len(i18n.load_path) == len(set(i18n.load_path)) + 1
    UIManager((400, 300))
    assert len(i18n.load_path) == len(set(i18n.load_path))
