"""04.03 split melee attacks, declared through posted events: at least 1 per target, adding up
to A, no more targets than A."""

from __future__ import annotations

from sandbox_support import DATA

TABLE = DATA / "extra" / "split_fight.toml"


def test_split_attacks_between_two_units(make):
    d = make(TABLE)
    sb = d.sb
    d.click_model("brutes/1")
    d.click_button("fight")
    d.click_model("pickets/1")
    slots = sb.order.slots
    assert all(s.target == "pickets" for s in slots if s.selected)
    d.click_model("guards/1")  # only brutes/1 is engaged with the guards: its glaive splits
    s0 = next(i for i, s in enumerate(slots) if s.model == "brutes/1")
    assert slots[s0].split == {"pickets": 2, "guards": 1}
    assert all(not s.split for s in slots if s.model != "brutes/1")
    d.click_button(f"split:{s0}:guards:+")
    assert slots[s0].split == {"pickets": 1, "guards": 2}
    d.click_button(f"split:{s0}:guards:+")  # the pickets keep their 1 attack
    assert slots[s0].split == {"pickets": 1, "guards": 2}
    assert "at least 1" in sb.status
    d.click_button("resolve")
    assert sb.resolving, sb.status
    for _ in range(50):
        if not sb.resolving:
            break
        d.click_button("default" if sb.battle.pending else "finish")
    sel = next(e for e in sb.battle.events if e["type"] == "weapons selected")
    got = sorted(tuple(x) for x in sel["selections"] if x[0] == "brutes/1")
    assert got == [("brutes/1", "chain glaive", "guards", 2), ("brutes/1", "chain glaive", "pickets", 1)]
    pools = [e for e in sb.battle.events if e["type"] == "pool"]
    assert {p["target"] for p in pools} == {"pickets", "guards"}


def test_minus_drops_a_target(make):
    d = make(TABLE)
    sb = d.sb
    d.click_model("brutes/1")
    d.click_button("fight")
    d.click_model("pickets/1")
    d.click_model("guards/2")
    s0 = next(i for i, s in enumerate(sb.order.slots) if s.model == "brutes/1")
    d.click_button(f"split:{s0}:guards:-")
    s = sb.order.slots[s0]
    assert s.split == {} and s.target == "pickets"
    assert [x for x in sb.order.selections() if x.model == "brutes/1"][0].attacks is None
