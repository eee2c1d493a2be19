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


FRONTS = DATA / "extra" / "fight_two_fronts.toml"


def test_12_04_a_click_on_another_unit_first_targets_the_models_engaged_only_with_it(make):
    """brutes/3 is engaged with the guard only: the click on the guard gives it its target (it
    must fight, 12.04) instead of splitting the others' attacks, and the fight is accepted."""
    d = make(FRONTS)
    sb = d.sb
    d.click_model("brutes/1")
    d.click_button("fight")
    d.click_model("pickets/1")
    slots = sb.order.slots
    assert [(s.model, s.target) for s in slots] == [("brutes/1", "pickets"), ("brutes/2", "pickets"),
                                                     ("brutes/3", None)]
    d.click_model("guards/1")
    assert [(s.model, s.target, s.split) for s in slots] == [
        ("brutes/1", "pickets", {}), ("brutes/2", "pickets", {}), ("brutes/3", "guards", {})]
    d.click_button("resolve")
    assert sb.resolving, sb.status
    for _ in range(50):
        if not sb.resolving:
            break
        d.click_button("default" if sb.battle.pending else "finish")
    sel = next(e for e in sb.battle.events if e["type"] == "weapons selected")
    assert [(x[0], x[2]) for x in sel["selections"]] == [("brutes/1", "pickets"), ("brutes/2", "pickets"),
                                                         ("brutes/3", "guards")]


def test_faq_a_unit_without_melee_weapons_is_selected_to_fight_from_the_sandbox(make):
    d = make(FRONTS)
    sb = d.sb
    d.click_model("gunners/1")
    d.click_button("fight")
    assert sb.order.slots == []
    d.click_button("resolve")
    assert sb.resolving or any(e["type"] == "weapons selected" and e["unit"] == "gunners"
                               for e in sb.battle.events), sb.status
