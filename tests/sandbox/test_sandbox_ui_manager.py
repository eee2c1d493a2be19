"""The sandbox's UI manager (sim.sandbox.ui_manager): its theme gives every element the theming
ids the library's own gives, asking the library once per place in the containers in a process;
its cache of drawn shapes keeps the free space the library's keeps."""

from __future__ import annotations

import itertools

import pygame
import pytest
import pygame_gui
from hypothesis import given, strategies as st
from pygame_gui.core.surface_cache import SurfaceCache
from pygame_gui.elements import UIButton, UIPanel

from sim.sandbox import ui_manager
from sim.sandbox.ui_manager import UIManager

_PLACES = itertools.count()


def _ids(manager, panel_id="#orders"):
    pygame.display.set_mode((400, 300))
    panel = UIPanel(pygame.Rect(0, 0, 300, 200), manager=manager, object_id=panel_id)
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
    new_place = f"#panel{next(_PLACES)}"  # (a place no manager of this process has asked about)
    fresh = UIManager((400, 300))
    _ids(fresh, new_place)
    _ids(fresh, new_place)
    places = {tuple(map(tuple, a)) for a in calls}
    assert calls and len(calls) == len(places)  # (each place asked once, though all was made twice)
    asked = len(calls)
    _ids(UIManager((400, 300)), new_place)  # (another manager: the places are known)
    assert len(calls) == asked
    assert _ids(UIManager((400, 300)), new_place) == _ids(pygame_gui.UIManager((400, 300)), new_place)


def test_the_kept_ids_are_bounded(monkeypatch):
    monkeypatch.setattr(ui_manager, "_KEPT_MAX", 3)
    pygame.init()
    _ids(UIManager((400, 300)), f"#panel{next(_PLACES)}")
    assert 1 <= len(ui_manager._KEPT) <= 3


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


# --- the shape cache's clean-up of its free space ----------------------------------------------

_rect = st.builds(pygame.Rect, st.integers(-4, 12), st.integers(-4, 12), st.integers(-3, 10), st.integers(-3, 10))


@given(st.lists(_rect, max_size=14), st.lists(st.integers(0, 13), max_size=4))
def test_the_shape_cache_drops_the_free_rectangles_the_librarys_drops(rects, copies):
    """The same rectangles kept in the same order as pygame-gui's own clean-up, on rectangles of
    every kind (inside one another, equal, touching, empty, of negative size)."""
    rects = rects + [pygame.Rect(rects[k]) for k in copies if k < len(rects)]
    theirs, ours = {}, {}
    SurfaceCache._clean_up_lt_cache(theirs, list(rects))
    ui_manager._ShapeCache._clean_up_lt_cache(ours, list(rects))
    assert [tuple(r) for r in ours["free_space_rectangles"]] == [tuple(r) for r in theirs["free_space_rectangles"]]


def test_the_shape_cache_packs_as_the_librarys():
    """Many shapes cached one a frame: the same places in the same surfaces as the library's."""
    pygame.init()
    pygame.display.set_mode((400, 300))
    caches = [SurfaceCache(), ui_manager._ShapeCache()]
    for k in range(120):
        surf = pygame.Surface((7 + (k * 37) % 90, 5 + (k * 53) % 40), pygame.SRCALPHA, 32)
        for c in caches:
            c.add_surface_to_cache(surf, f"s{k}")
            c.update()
    a, b = ([{k: (v["surface"].get_offset(), v["surface"].get_size()) for k, v in c.cache_long_term_lookup.items()},
             [[tuple(r) for r in s["free_space_rectangles"]] for s in c.cache_surfaces]] for c in caches)
    assert a == b and len(a[0]) == 120


def test_a_managers_theme_has_the_numpy_shape_cache():
    pygame.init()
    assert isinstance(UIManager((400, 300)).get_theme().shape_cache, ui_manager._ShapeCache)


# --- a shape's states other than the normal one, drawn when shown ------------------------------

def _button(manager, monkeypatch=None, eager=False):
    if eager:  # (the library's own states, drawn one a frame from the start)
        monkeypatch.setattr(ui_manager.drawable_shape, "DrawableShapeState",
                            ui_manager._StateDrawnWhenShown.__bases__[0])
    b = UIButton(pygame.Rect(10, 10, 120, 30), "Advance", manager, tool_tip_text=None)
    for _ in range(6):
        manager.update(1 / 60)
    return b


def test_only_the_normal_state_is_drawn_until_another_is_shown():
    pygame.init()
    pygame.display.set_mode((400, 300))
    b = _button(UIManager((400, 300)))
    states = b.drawable_shape.states
    assert {k for k, st_ in states.items() if st_.generated} == {"normal"}
    assert set(states) >= {"normal", "hovered", "active", "disabled"}
    b.drawable_shape.set_active_state("hovered")
    assert states["hovered"].generated


@pytest.mark.parametrize("state", ["hovered", "active", "disabled"])
def test_a_state_drawn_when_shown_has_the_librarys_pixels(monkeypatch, state):
    pygame.init()
    pygame.display.set_mode((400, 300))
    ours = _button(UIManager((400, 300)))
    theirs = _button(UIManager((400, 300)), monkeypatch, eager=True)
    if state != "disabled":
        assert theirs.drawable_shape.states[state].generated  # (the library's: drawn before shown)
    assert not ours.drawable_shape.states[state].generated
    for b in (ours, theirs):
        b.drawable_shape.set_active_state(state)
    a, t = (b.drawable_shape.get_active_state_surface() for b in (ours, theirs))
    assert a.get_size() == t.get_size()
    assert pygame.image.tobytes(a, "RGBA") == pygame.image.tobytes(t, "RGBA")
