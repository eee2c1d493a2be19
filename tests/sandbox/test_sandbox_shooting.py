"""A whole shooting activation and a fight, driven by posted pygame events only."""

from __future__ import annotations

import pygame

from sandbox_support import DATA
from sim.replay.log import replay

TABLE = DATA / "precision_hazard.toml"


def _resolve_all(d, pick_character=None, limit=200):
    """Step (button clicks) until the activation is done; precision answered by clicking the
    CHARACTER on the table when given, other decisions with the dialog's default button."""
    sb = d.sb
    for _ in range(limit):
        if not sb.resolving:
            return
        req = sb.battle.pending
        if req is not None:
            if req.kind == "precision" and pick_character:
                d.click_model(pick_character)
            elif req.kind == "allocation_order":
                d.click_button("confirm")
            else:
                d.click_button("default")
        else:
            d.click_button("step")
    raise AssertionError("the activation did not finish")


def test_shooting_activation_through_events(make):
    d = make(TABLE)
    sb = d.sb
    before = sb.battle.state_hash()
    d.click_model("snipers/1")
    assert sb.selected_unit == "snipers"
    d.click_button("shoot")
    assert sb.order is not None and sb.order.record.kind == "shoot"
    d.click_button("type:normal")
    assert sb.order.type == "normal"
    # preselection: each Marksman's long rifle (its non-pistol weapon), never both (24.07)
    slots = sb.order.slots
    assert [(s.model, s.weapon.name) for s in slots if s.selected] == [
        ("snipers/1", "long rifle"), ("snipers/2", "long rifle"), ("snipers/3", "long rifle")]
    # clicking the pistol swaps it in for that model; clicking the rifle swaps back
    pistol = next(i for i, s in enumerate(slots) if s.model == "snipers/1" and s.weapon.name == "autopistol")
    rifle = next(i for i, s in enumerate(slots) if s.model == "snipers/1" and s.weapon.name == "long rifle")
    d.click_button(f"slot:{pistol}")
    assert slots[pistol].selected and not slots[rifle].selected
    assert "24.07" in sb.status
    d.click_button(f"slot:{rifle}")
    assert slots[rifle].selected and not slots[pistol].selected
    # the engaged pickets are not a legal target, and say why
    assert sb.order.targets()["pickets"] is not None
    assert "engaged" in sb.order.targets()["pickets"]
    d.click_model("pickets/1")
    assert all(s.target is None for s in slots)
    # the guards are: click one of them
    assert sb.order.targets()["guards"] is None
    d.click_model("guards/2")
    assert all(s.target == "guards" for s in slots if s.selected)
    assert sb.battle.state_hash() == before  # declaring changes nothing
    d.click_button("resolve")
    assert sb.resolving and sb.order is None
    kinds = set()
    for _ in range(200):
        if not sb.resolving:
            break
        req = sb.battle.pending
        if req is not None:
            kinds.add(req.kind)
            if req.kind == "precision":
                assert "captain" in req.options
                d.click_model("captain")
            elif req.kind == "allocation_order":
                d.click_button("confirm")
            else:
                d.click_button("default")
        else:
            d.click_button("step")
    assert not sb.resolving and not sb.battle.busy
    types = [e["type"] for e in sb.battle.events]
    sel = next(e for e in sb.battle.events if e["type"] == "weapons selected")
    assert sorted(sel["selections"]) == [[f"snipers/{i}", "long rifle", "guards", None] for i in (1, 2, 3)]
    assert "hit rolls" in types
    if "precision" in kinds:
        prec = [e for e in sb.battle.events if e["type"] == "precision" and e.get("chosen")]
        assert prec and prec[0]["chosen"] == "captain"
    assert sb.battle.state_hash() != before or "damage" not in types
    # the session saves as a replay that `sim replay` verifies
    path = sb.save_replay()
    n, div = replay(path)
    assert n == 1 and div is None


def test_precision_click_picks_the_character(make):
    """Seeds vary; find one where a wound reaches allocation, then check the click answers it."""
    for seed in range(1, 40):
        d = make(TABLE, seed=seed)
        sb = d.sb
        d.click_model("snipers/2")
        d.key(pygame.K_s, "s")
        d.click_button("type:normal")
        d.click_model("guards/1")
        d.key(pygame.K_RETURN, "\r")
        assert sb.resolving
        seen = False
        for _ in range(200):
            if not sb.resolving:
                break
            req = sb.battle.pending
            if req is not None and req.kind == "precision":
                seen = True
                d.click_model("captain")
                assert sb.battle.pending is None or sb.battle.pending.kind != "precision"
            elif req is not None:
                d.click_button("default")
            else:
                d.key(pygame.K_SPACE, " ")
        if seen:
            prec = [e for e in sb.battle.events if e["type"] == "precision"]
            assert prec[-1]["chosen"] == "captain"
            alloc = [e for e in sb.battle.events if e["type"] == "allocation order"]
            assert alloc and alloc[0]["precision"] == "captain"
            return
    raise AssertionError("no seed reached the precision decision")


def test_fight_with_hazardous_weapon(make):
    d = make(TABLE)
    sb = d.sb
    d.click_model("brutes/1")
    d.click_button("fight")
    assert sb.order.record.kind == "fight" and sb.order.eligible is None
    d.click_model("pickets/2")
    assert all(s.target == "pickets" for s in sb.order.slots if s.selected)
    d.click_button("resolve")
    assert sb.resolving
    d.click_button("finish")
    for _ in range(50):
        if not sb.resolving:
            break
        d.click_button("default" if sb.battle.pending else "finish")
    assert not sb.resolving
    hz = [e for e in sb.battle.events if e["type"] == "hazard rolls"]
    assert hz and hz[0]["unit"] == "brutes" and len(hz[0]["rolls"]) == 3
    assert any(e["type"] == "weapons selected" and e["kind"] == "fight" for e in sb.battle.events)


def test_move_by_dragging_submits_a_move(make):
    d = make(TABLE)
    sb = d.sb
    d.click_model("snipers/1")
    a = d.model_pos("snipers/1")
    px = sb.camera.scale  # pixels per inch
    d.drag(a, (a[0] + 3 * px, a[1] + 2 * px))
    moved = [e for e in sb.battle.events if e["type"] == "moved"]
    assert moved and moved[0]["unit"] == "snipers" and len(moved[0]["to"]) == 3
    x = sb.scene.models["snipers/1"].x
    assert abs(x - 13.0) < 0.2
    # a second move in the same turn is refused, with the rule, and nothing moves (09.05.01)
    a = d.model_pos("snipers/2")
    d.drag(a, (a[0] + 2 * px, a[1]))
    assert "09.05.01" in sb.status
    assert len([e for e in sb.battle.events if e["type"] == "moved"]) == 1
    # next turn (E): a drag further than M is clamped to M
    d.key(pygame.K_e, "e")
    a = d.model_pos("snipers/2")
    was = sb.scene.models["snipers/2"]
    d.drag(a, (a[0] + 20 * px, a[1]))
    last = [e for e in sb.battle.events if e["type"] == "moved"][-1]
    assert last["unit"] == "snipers"
    now = sb.scene.models["snipers/2"]
    # (the drag is along whole pixels: its direction is horizontal to within a pixel)
    assert abs(((now.x - was.x) ** 2 + (now.y - was.y) ** 2) ** 0.5 - 6) < 0.01
    assert abs(now.x - (12 + 3 + 6)) < 0.1


def test_refusal_is_shown_not_raised(make):
    d = make(TABLE)
    sb = d.sb
    d.click_model("snipers/1")
    d.key(pygame.K_f, "f")  # the snipers are not engaged: fighting is refused with the reason
    assert sb.order.eligible
    d.click_button("resolve")
    assert "no weapon has a target" in sb.status or "refused" in sb.status
    d.key(pygame.K_ESCAPE)
    assert sb.order is None


def test_the_status_line_after_shooting_says_what_the_attacks_removed(make):
    """After the dice, the status line says the casualties by unit ('1 model of Guards removed'
    or 'no model removed'), not the last dice lines (a hazard roll made after the damage)."""
    import re
    d = make(TABLE, seed=3)
    sb = d.sb
    d.click_model("snipers/1")
    d.click_button("shoot")
    d.click_button("type:normal")
    d.click_model("guards/2")
    d.click_button("resolve")
    _resolve_all(d, pick_character="captain")
    done = [e for e in sb.battle.events if e["type"] == "attacks resolved"]
    assert len(done) == 1
    sb.update(0)
    shown = sb.status_label.text
    n = len(done[0]["removed"])
    if n:
        assert re.search(rf"- {n} models? of [A-Z][\w ]+ removed", shown), shown
    else:
        assert "- no model removed" in shown, shown
    assert "resolved its attacks" not in shown and "rolls" not in shown, shown
