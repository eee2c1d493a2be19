"""A panel built again keeps the widgets it makes again (sim.sandbox.widgets Flow and Bar):
the same objects, moved where they now go; the rest removed with their callbacks and names; the
scroll position kept for the same contents and back at the top for others."""

from __future__ import annotations

import pygame
import pygame_gui
import pytest

from sim.sandbox.widgets import Bar, Flow


@pytest.fixture()
def manager():
    pygame.init()
    pygame.display.set_mode((800, 600))
    return pygame_gui.UIManager((800, 600))


def build(manager, actions, names, reuse, rows, top="Orders"):
    f = Flow(manager, pygame.Rect(10, 10, 300, 200), actions, names, reuse=reuse)
    f.label(top, "#heading")
    for text in rows:
        f.button(text, lambda t=text: t, name=f"b:{text}")
        f.newline()
    f.finish()
    f.settle()
    if reuse is not None and not f.kept_panel:
        reuse.kill()
    return f


def test_a_rebuild_keeps_the_widgets_made_again_and_moves_them(manager):
    actions, names = {}, {}
    a = build(manager, actions, names, None, ["Alpha", "Beta", "Gamma"])
    alpha, gamma = names["b:Alpha"], names["b:Gamma"]
    beta = names["b:Beta"]
    b = build(manager, actions, names, a, ["Alpha", "Gamma", "Delta"])
    assert b.kept_panel and b.scroll is a.scroll
    assert names["b:Alpha"] is alpha and names["b:Gamma"] is gamma  # (kept, not made again)
    assert gamma.relative_rect.y == beta.relative_rect.y  # (moved up into Beta's row)
    assert not beta.alive() and names["b:Delta"].alive()
    assert actions[gamma]() == "Gamma"
    assert all(w.alive() for w in names.values() if w is not beta)


def test_a_widget_with_other_text_or_style_is_made_anew(manager):
    actions, names = {}, {}
    a = build(manager, actions, names, None, ["Alpha"])
    alpha = names["b:Alpha"]
    f = Flow(manager, pygame.Rect(10, 10, 300, 200), actions, names, reuse=a)
    f.label("Orders", "#heading")
    f.button("Alpha", None, name="b:Alpha", object_id="#toggle_on")
    f.settle()
    assert names["b:Alpha"] is not alpha and not alpha.alive()
    assert names["b:Alpha"] not in actions  # (no callback now)


def test_a_widget_of_the_same_size_and_style_with_other_text_is_given_the_text(manager):
    """A label or a button whose text changed (a count, a CP cost) keeps its widget, with the new
    text; one of another size or style is made anew."""
    actions, names = {}, {}
    f = Flow(manager, pygame.Rect(10, 10, 300, 200), actions, names)
    lab = f.label("3 models left")
    end = f.button("End phase", lambda: 1, name="end", width=120)
    f.settle()
    g = Flow(manager, pygame.Rect(10, 10, 300, 200), actions, names, reuse=f)
    lab2 = g.label("2 models left")
    end2 = g.button("Next phase", lambda: 2, name="end", width=120)
    wide = g.label("a heading", "#heading")
    g.settle()
    assert lab2 is lab and lab.text == "2 models left" and lab.alive()
    assert end2 is end and end.text == "Next phase" and actions[end]() == 2
    assert wide.alive() and wide is not lab
    h = Flow(manager, pygame.Rect(10, 10, 300, 200), actions, names, reuse=g)
    lab3 = h.label("2 models left", "#heading")  # (another style: made anew)
    h.settle()
    assert lab3 is not lab and not lab.alive() and not end.alive()


def test_other_contents_show_the_panels_top_and_the_same_keep_the_scroll(manager):
    actions, names = {}, {}
    rows = [f"Option {k}" for k in range(30)]
    a = build(manager, actions, names, None, rows)
    inner = a.scroll.get_container()
    inner.set_relative_position((0, -120))  # (the person scrolled down)
    b = build(manager, actions, names, a, rows)
    assert b.kept_panel and inner.relative_rect.y == -120
    c = build(manager, actions, names, b, rows, top="Another unit")
    assert c.kept_panel and inner.relative_rect.y == 0


def test_a_panel_in_another_rect_is_made_anew(manager):
    actions, names = {}, {}
    a = build(manager, actions, names, None, ["Alpha"])
    f = Flow(manager, pygame.Rect(10, 10, 300, 180), actions, names, reuse=a)
    f.label("Orders", "#heading")
    f.settle()
    assert not f.kept_panel and f.scroll is not a.scroll


def test_a_bar_keeps_its_buttons_made_again(manager):
    actions, names = {}, {}
    rect = pygame.Rect(0, 560, 800, 40)
    a = Bar(manager, actions, names)
    a.button("Shoot", lambda: 1, name="bar:shoot")
    a.button("Fight", lambda: 2, name="bar:fight")
    a.place(rect)
    shoot, fight = names["bar:shoot"], names["bar:fight"]
    b = Bar(manager, actions, names)
    b.button("Shoot", lambda: 3, name="bar:shoot")
    b.button("Fight", lambda: 4, name="bar:fight", object_id="#toggle_on")
    b.place(rect, reuse=a)
    assert names["bar:shoot"] is shoot and actions[shoot]() == 3
    assert names["bar:fight"] is not fight and not fight.alive() and actions[names["bar:fight"]]() == 4


def test_a_button_of_the_same_shape_under_another_name_is_kept_and_answers_to_that_name_alone(manager):
    """The deployment's list of units (the other player's after each set-up): buttons of the
    same size, tip and style with other texts and names keep their widgets, given the text, the
    name and the callback; the old names are gone."""
    actions, names = {}, {}
    f = Flow(manager, pygame.Rect(10, 10, 300, 200), actions, names)
    olds = [f.button(f"Red unit {i}", lambda i=i: ("red", i), name=f"place:r{i}", width=200) for i in range(3)]
    f.settle()
    g = Flow(manager, pygame.Rect(10, 10, 300, 200), actions, names, reuse=f)
    news = [g.button(f"Blue unit {i}", lambda i=i: ("blue", i), name=f"place:b{i}", width=200) for i in range(2)]
    g.settle()
    assert news == olds[:2] and not olds[2].alive()
    assert [b.text for b in news] == ["Blue unit 0", "Blue unit 1"]
    assert sorted(n for n, b in names.items() if b.alive()) == ["place:b0", "place:b1"]  # (the dead: the sandbox forgets them)
    assert [actions[names[f"place:b{i}"]]() for i in range(2)] == [("blue", 0), ("blue", 1)]
