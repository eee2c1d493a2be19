"""The allocation order's groups are listed by their models' names (issue 28: names, not ids)."""

from __future__ import annotations

from sandbox_support import DATA


def _shoot_until_allocation(d):
    sb = d.sb
    d.click_model("snipers/1")
    sb.begin_shoot()
    if sb.order is not None and sb.order.default_type:
        sb.choose_type(sb.order.default_type)
    d.click_model("guards/2")
    d.click_button("resolve")
    for _ in range(200):
        req = sb.battle.pending
        if req is not None and req.kind == "allocation_order":
            return req
        if not sb.resolving:
            return None
        d.click_button("default" if req is not None else "step")
    return None


def test_the_allocation_groups_are_named_not_ided(make):
    for seed in range(1, 30):
        d = make(DATA / "precision_hazard.toml", seed=seed)
        req = _shoot_until_allocation(d)
        if req is not None:
            break
    assert req is not None, "no seed reached an allocation order"
    d.pump(2)
    texts = [k[1] for k, _w in d.sb.orders_flow._made if k[0] == "label" and ". " in k[1]]
    assert texts, "no group listed"
    ids = [m for m in d.sb.scene.models if "/" in m or "-" in m]
    assert not [t for t in texts if any(m in t for m in ids)], texts
