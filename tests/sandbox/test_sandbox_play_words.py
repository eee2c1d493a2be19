"""Units by their names where a real-window play found ids (issue 28 leftovers): the odds block
while it works out the odds ("Command Guard: working out the odds...", was "guards: ..."), and
the orders panel while a command resolves ("Marksman Squad shoot: attacks, ...", was
"snipers shoot: ...")."""

from __future__ import annotations

import re

import pygame

from test_sandbox_battle import _labels
from test_sandbox_odds import TABLE, _declare


def test_the_odds_block_names_its_target_while_it_works(make):
    d = make(TABLE)
    sb = d.sb
    _declare(d)
    odds = sb.odds
    odds.state, odds.preview = "working", None  # (as drawn until the worker answers)
    assert odds.lines() == ["Command Guard: working out the odds..."], odds.lines()


def test_the_resolving_panel_names_the_unit(make):
    d = make(TABLE)
    sb = d.sb
    _declare(d)
    d.key(pygame.K_RETURN, "\r")
    assert sb.resolving
    d.key(pygame.K_SPACE, " ")
    shown = " ".join(lab.text for lab in _labels(sb.orders_flow))
    assert "Marksman Squad shoot" in shown, shown
    assert not re.search(r"(?<![\w-])snipers(?![\w-])", shown), shown
