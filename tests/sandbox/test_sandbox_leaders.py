"""19.01 In set-up mode the player attaches a leader to a bodyguard ("Attach to..." lists only the
units the rule allows, by name; else why none), the table shows the attached unit as one unit,
and the leader can be detached again; the table saves with ``leads``."""

from __future__ import annotations

from pathlib import Path

import pygame

from sandbox_support import ROOT, shot
from sim.sandbox import table_edit as TE
from sim.sandbox.save_table import spec_toml
from sim.scenario.load import parse_scenario

SHOTS = ROOT / "tests" / "sandbox" / "screenshots"
GUN = {"range": 24, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1}


def _unit(uid, name, at, **kw):
    m = {"name": name, "count": len(at), "at": [list(p) for p in at], "M": 6, "T": kw.pop("T", 4), "Sv": 3,
         "W": kw.pop("W", 1), "Ld": 6, "OC": 1, "base_mm": 32, "weapons": ["gun"], "keywords": kw.pop("kw", ["INFANTRY"])}
    return {"id": uid, "name": name, "models": [m], **kw}


def table(tmp_path: Path) -> Path:
    red = [_unit("overlord", "Overlord", [(10, 36)], W=4, T=5, kw=["CHARACTER", "INFANTRY"], abilities="Leader",
                 can_lead=["Necron Warriors", "Immortals"]),
           _unit("warriors", "Necron Warriors", [(14 + 1.5 * i, 36) for i in range(5)]),
           _unit("scarabs", "Canoptek Scarabs", [(14 + 1.5 * i, 40) for i in range(3)])]
    blue = [_unit("immortals", "Immortals", [(20 + 1.5 * i, 8) for i in range(5)])]
    data = {"battle": {"name": "leaders", "seed": 1, "board": [60, 44]}, "weapons": {"gun": GUN},
            "armies": [{"name": "Red", "units": red}, {"name": "Blue", "units": blue}]}
    path = tmp_path / "leaders.toml"
    path.write_text(spec_toml(parse_scenario(data, "leaders.toml")))
    return path


def _shot(d, name: str) -> None:
    """tests/sandbox/screenshots/NAME (git-ignored) for a person to look at."""
    SHOTS.mkdir(exist_ok=True)
    shot(d.sb.draw(), SHOTS / name)


def test_19_01_attach_lists_only_legal_bodyguards_by_name(tmp_path):
    spec = parse_scenario(__import__("tomllib").loads(table(tmp_path).read_text()), "t")
    choices = {name: problems for _, name, problems in TE.bodyguards(spec, "overlord")}
    # Immortals are listed in its datasheet but are the enemy's; Scarabs are not listed
    assert choices == {"Necron Warriors": [],
                       "Canoptek Scarabs": ["Overlord can lead only Necron Warriors, Immortals (its datasheet's "
                                            "list), not Canoptek Scarabs"]}


def test_19_01_the_player_attaches_and_detaches_a_leader(make, tmp_path):
    d = make(table(tmp_path))
    sb = d.sb
    d.key(pygame.K_F2)
    assert sb.mode == "setup"
    d.click_model("overlord/1")
    assert sb.selected_unit == "overlord"
    d.button("setup:attach:warriors")
    assert "setup:attach:scarabs" not in sb.names and "setup:attach:immortals" not in sb.names
    _shot(d, "leaders-attach.png")
    d.click_button("setup:attach:warriors")  # (the panel scrolled to the selection's rows)
    assert sb.status == "Overlord attached to Necron Warriors", sb.status
    ids = [u.id for u in sb.spec.units]
    assert ids == ["warriors", "scarabs", "immortals"]
    # one unit on the table: the leader's model is the bodyguard's unit's
    assert sb.scene.models["overlord/1"].unit == "warriors" and sb.selected_unit == "warriors"
    assert "overlord/1" in sb.scene.units["warriors"].models and "overlord" not in sb.scene.units
    assert sb.scene.units["warriors"].name == "Overlord + Necron Warriors"
    assert 'leads = "warriors"' in spec_toml(sb.spec)
    _shot(d, "leaders-attached.png")
    # moving the attached unit moves them all; detached, the leader stays where it stands
    a = d.model_pos("warriors/1")
    d.drag(a, (a[0], a[1] - 2 * sb.camera.scale))
    assert abs(sb.scene.models["overlord/1"].y - 34) < 1e-6, sb.status
    d.click_button("setup:detach:overlord")
    assert sb.status == "Overlord detached from Necron Warriors" and sb.selected_unit == "overlord"
    assert [u.id for u in sb.spec.units] == ["warriors", "overlord", "scarabs", "immortals"]
    assert sb.scene.models["overlord/1"].unit == "overlord" and abs(sb.scene.models["overlord/1"].y - 34) < 1e-6
    assert "leads" not in spec_toml(sb.spec)


def test_19_01_a_unit_that_can_join_none_says_why(make, tmp_path):
    d = make(table(tmp_path))
    sb = d.sb
    d.key(pygame.K_F2)
    d.click_model("overlord/1")
    sb.actions[d.button("setup:attach:warriors")]()
    d.pump(2)
    # a second leader: Necron Warriors already has one, Scarabs are not in its list
    spec = TE.add_unit(sb.spec, TE.unit_spec(parse_scenario(__import__("tomllib").loads(table(tmp_path).read_text()),
                                                            "t"), "overlord"), 0, 40, 30)
    sb.start_battle(spec, sb.battle.seed)
    d.pump(2)
    new = next(u.id for u in sb.spec.units if u.id.startswith("overlord"))
    d.click_model(f"{new}/1")
    assert sb.selected_unit == new
    assert not [n for n in sb.names if n.startswith("setup:attach:")]
    _shot(d, "leaders-none.png")
    from pygame_gui.elements import UILabel
    from sim.sandbox.widgets import TextLine
    shown = " ".join(e.text for e in sb.orders_flow.scroll.get_container().elements if isinstance(e, (UILabel, TextLine)))
    assert "Attach to: no unit it can join" in shown and "Necron Warriors: Necron Warriors already has" in shown
    (_, _, why), = [c for c in TE.bodyguards(sb.spec, new) if c[0] == "warriors"]
    assert why == ["Necron Warriors already has Overlord as its leader (19.01: at most one leader and one support)"]
