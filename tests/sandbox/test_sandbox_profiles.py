"""04.01.03 in the sandbox's orders panel: the profiles of a multi-profile weapon are shown as
alternatives ("or" between them), the first is preselected, and picking another profile for a
model unpicks its first, saying why; the command resolved names each model's profile."""

from __future__ import annotations

from pathlib import Path

from sim.replay.log import replay

TABLE = Path(__file__).resolve().parents[2] / "scenarios/multi_profile.toml"
STEADY, OVER = "Fusil - steady", "Fusil - overcharge"


def _slot(slots, mid, name):
    return next(i for i, s in enumerate(slots) if s.model == mid and s.weapon.name == name)


def test_04_01_03_the_orders_panel_offers_profiles_as_alternatives(make):
    d = make(TABLE)
    sb = d.sb
    d.click_model("squad/1")
    d.click_button("shoot")
    d.click_button("type:normal")
    slots = sb.order.slots
    # every profile is a slot; only the first profile of each model's fusil is preselected
    assert [(s.model, s.weapon.name) for s in slots] == [(f"squad/{i}", n) for i in (1, 2, 3) for n in (STEADY, OVER)]
    assert [(s.model, s.weapon.name) for s in slots if s.selected] == [(f"squad/{i}", STEADY) for i in (1, 2, 3)]
    assert sb.order.alternatives(_slot(slots, "squad/2", OVER)) == [_slot(slots, "squad/2", STEADY)]
    # picking the overcharge for squad/2 unpicks its steady profile (04.01.03); the others keep theirs
    d.click_button(f"slot:{_slot(slots, 'squad/2', OVER)}")
    assert slots[_slot(slots, "squad/2", OVER)].selected and not slots[_slot(slots, "squad/2", STEADY)].selected
    assert "04.01.03" in sb.status
    assert slots[_slot(slots, "squad/1", STEADY)].selected
    d.click_model("brutes/1")
    assert all(s.target == "brutes" for s in slots if s.selected)
    assert sb.battle.check(sb.order.command()) is None
    d.click_button("resolve")
    for _ in range(200):
        if not sb.resolving:
            break
        d.click_button("default" if sb.battle.pending is not None else "step")
    assert not sb.resolving
    sel = next(e for e in sb.battle.events if e["type"] == "weapons selected")
    assert sorted(sel["selections"]) == [["squad/1", STEADY, "brutes", None], ["squad/2", OVER, "brutes", None],
                                         ["squad/3", STEADY, "brutes", None]]
    path = sb.save_replay()
    n, div = replay(path)
    assert n == 1 and div is None
