"""The [PSYCHIC] (24.29) and duplicated-ability (24.02) decision dialogs, driven by posted events."""

from __future__ import annotations

import pygame

from sandbox_support import DATA, ROOT


def _until(d, kind, limit=200):
    sb = d.sb
    for _ in range(limit):
        req = sb.battle.pending
        if req is not None and req.kind == kind:
            return req
        if not sb.resolving:
            return None
        if req is not None:
            d.click_button("confirm" if req.kind == "allocation_order" else "default")
        else:
            d.click_button("step")
    return None


def _finish(d):
    sb = d.sb
    for _ in range(200):
        if not sb.resolving:
            return
        req = sb.battle.pending
        d.click_button(("confirm" if req.kind == "allocation_order" else "default") if req else "finish")


def test_psychic_dialog(make):
    d = make(ROOT / "scenarios" / "psychic_cover_heavy.toml")
    sb = d.sb
    d.click_model("seer")
    d.key(pygame.K_s, "s")
    d.click_button("type:normal")
    d.click_model("squad/3")
    d.key(pygame.K_RETURN, "\r")
    req = _until(d, "psychic")
    assert req is not None, [e["type"] for e in sb.battle.events][-5:]
    # toggle every option off, then the cover one back on, and confirm
    for opt in req.options:
        if opt in sb.decision_state.get("psychic", req.default):
            d.click_button(f"psychic:{opt}")
    assert sb.decision_state["psychic"] == []
    cover = next(o for o in req.options if "cover" in str(o).lower())
    d.click_button(f"psychic:{cover}")
    d.click_button("confirm")
    dec = [e for e in sb.battle.events if e["type"] == "decision" and e["kind"] == "psychic"]
    assert dec and dec[-1]["answer"] == [cover]
    _finish(d)
    assert not sb.resolving


def test_duplicate_dialog(make):
    d = make(DATA / "extra" / "duplicates.toml")
    sb = d.sb
    d.click_model("gunners/1")
    d.key(pygame.K_s, "s")
    d.click_button("type:normal")
    d.click_model("squad/1")
    d.key(pygame.K_RETURN, "\r")
    req = _until(d, "duplicate")
    assert req is not None
    assert set(req.options) == {"SUSTAINED HITS 1", "SUSTAINED HITS 2"}
    d.click_button("answer:SUSTAINED HITS 1")
    dec = [e for e in sb.battle.events if e["type"] == "decision" and e["kind"] == "duplicate"]
    assert dec[-1]["answer"] == "SUSTAINED HITS 1"
    _finish(d)
    pool = next(e for e in sb.battle.events if e["type"] == "pool")
    assert "SUSTAINED HITS 1" in pool["abilities"] and "SUSTAINED HITS 2" not in pool["abilities"]


def test_lethal_hits_dialog(make):
    """24.23 with [DEVASTATING WOUNDS]: the dialog offers take and decline (not only the
    default, decline), and the answer clicked is the one the battle records."""
    d = make(DATA / "extra" / "lethal_devastating.toml")
    sb = d.sb
    d.click_model("gunners/1")
    d.key(pygame.K_s, "s")
    d.click_button("type:normal")
    d.click_model("squad/1")
    d.key(pygame.K_RETURN, "\r")
    req = _until(d, "lethal_hits")
    assert req is not None and req.default == "decline"
    d.click_button("answer:take")
    dec = [e for e in sb.battle.events if e["type"] == "decision" and e["kind"] == "lethal_hits"]
    assert dec[-1]["answer"] == "take"
    _finish(d)
    assert not sb.resolving
