"""24.29 [PSYCHIC] through the ECS (Part A ruling 7): the attacker may ignore BS/WS and hit-roll
modifiers; the default ignores the harmful ones and keeps the helpful ones; wound-roll modifiers
are never offered; the +-1 clamp applies to what remains; attacks are tagged psychic."""

from __future__ import annotations

import pytest

from scen import model, of_type, row, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Selection, Shoot
from sim.errors import Refusal
from sim.rules.dice import ForcedDice

WEAPONS = {
    "smite": weapon(36, 1, 3, 5, -1, 1, "[PSYCHIC, HEAVY]"),
    "cannon": weapon(36, 1, 3, 5, -1, 1, "[HEAVY]"),
    "lance bolt": weapon(36, 1, 3, 5, -1, 1, "[PSYCHIC, LANCE]"),
    "claws": weapon("melee", 1, 4, 4, 0, 1),
}

COVER = "benefit of cover (13.08)"
HEAVY = "[HEAVY] (24.16)"


def spec(**shooter_kw):
    psykers = unit("psy", model(row(10, 10, 2), ["smite", "cannon", "lance bolt"]), **shooter_kw)
    brawlers = unit("brawlers", model((30, 27.5), ["claws"]))  # engaged with the tank
    tank = unit("tank", model((30, 30), ["claws"], W=12, T=9, base_mm=60), keywords=("VEHICLE",),
                abilities="Stealth")
    return scenario(WEAPONS, [psykers, brawlers], [tank])


def mod_names(req):
    return {s for s, _v in req.context["modifiers"]}


def test_24_29_default_ignores_harmful_keeps_helpful():
    with Battle(spec(), dice=ForcedDice([1, 1])) as b:
        b.submit(Shoot("psy", (Selection("psy/1", "smite", "tank"), Selection("psy/2", "cannon", "tank"))))
        b.step_until_blocked()
        req = b.pending
        assert req.kind == "psychic"
        mods = dict((s, v) for s, v in req.context["modifiers"])
        assert mods[HEAVY] == 1 and mods[COVER] == -1
        engaged = [s for s in mods if "17.03" in s]
        assert len(engaged) == 1 and mods[engaged[0]] == -1
        assert sorted(req.default) == sorted([COVER, engaged[0]])
        b.answer(req.default)
        b.step_until_blocked()
        pools = {p["weapons"][0]: p for p in of_type(b, "pool")}
        # psychic: BS3 kept, +1 (HEAVY) kept; cannon: BS4 (cover), +1 -1 = 0
        assert (pools["smite"]["skill"], pools["smite"]["hit_mod"], pools["smite"]["psychic"]) == (3, 1, True)
        assert (pools["cannon"]["skill"], pools["cannon"]["hit_mod"], pools["cannon"]["psychic"]) == (4, 0, False)
        assert sorted(pools["smite"]["ignored"]) == sorted(req.default)


def test_24_29_ignoring_nothing_keeps_every_modifier():
    with Battle(spec(), dice=ForcedDice([1])) as b:
        b.run_command(Shoot("psy", (Selection("psy/1", "smite", "tank"),)),
                      answer=lambda r: [] if r.kind == "psychic" else r.default)
        (p,) = of_type(b, "pool")
        assert (p["skill"], p["hit_mod"], p["psychic"]) == (4, 0, True)


def test_24_29_clamp_applies_to_what_remains():
    """Ignoring only the +1 leaves -1 (17.03); with the cover kept BS is 4+."""
    with Battle(spec(), dice=ForcedDice([1])) as b:
        b.run_command(Shoot("psy", (Selection("psy/1", "smite", "tank"),)),
                      answer=lambda r: [HEAVY] if r.kind == "psychic" else r.default)
        (p,) = of_type(b, "pool")
        assert (p["skill"], p["hit_mod"]) == (4, -1)


def test_24_29_wound_modifiers_are_never_offered_nor_ignored():
    with Battle(spec(charged=True), dice=ForcedDice([4, 4, 1])) as b:
        b.submit(Shoot("psy", (Selection("psy/1", "lance bolt", "tank"),)))
        b.step_until_blocked()
        req = b.pending
        assert req.kind == "psychic"
        assert not any("LANCE" in s for s in req.options)
        with pytest.raises(Refusal):
            b.answer(["[LANCE] after a charge (24.21)"])
        b.answer(req.default)
        b.step_until_blocked()
        (p,) = of_type(b, "pool")
        assert p["wound_mod"] == 1
        # S5 vs T9 needs 5+: the 4 with +1 wounds
        assert of_type(b, "wound rolls")[0]["wounds"] == 1


def test_24_29_no_modifiers_no_decision():
    sp = scenario(WEAPONS, [unit("psy", model((10, 10), ["lance bolt"]))], [unit("t", model((10, 30), ["claws"]))])
    with Battle(sp, dice=ForcedDice([1])) as b:
        b.run_command(Shoot("psy", (Selection("psy/1", "lance bolt", "t"),)))
        assert of_type(b, "decision") == []
        assert of_type(b, "pool")[0]["psychic"] is True


def test_04_03_alike_models_that_ignore_different_modifiers_pool_apart():
    """Both psykers select smite at the tank: planned alike (one attack key for both), until the
    psychic choice, made per model, differs: then each keeps the modifiers it chose, its key is
    worked out again and they are two pools (checked to fail if Select Weapons kept the
    plan's key)."""
    def choose(req):
        if req.kind == "psychic":
            return [COVER] if req.key.startswith("psy/1") else []
        return req.default

    with Battle(spec(), dice=ForcedDice([1, 1])) as b:
        cmd = Shoot("psy", (Selection("psy/1", "smite", "tank"), Selection("psy/2", "smite", "tank")))
        b.submit(cmd)
        declared = b.validated.declared
        assert declared[0].key == declared[1].key
        b.resolve(choose)
        assert declared[0].key != declared[1].key
        pools = of_type(b, "pool")
        assert [p["attackers"] for p in pools] == [["psy/1"], ["psy/2"]]
        assert [sorted(p["ignored"]) for p in pools] == [[COVER], []]


def test_24_29_one_model_two_targets_each_gets_its_own_default():
    """A psyker carrying two smites fires one at the mob (only HEAVY's +1: nothing harmful) and
    one at the tank (cover and 17.03, both -1). The decision is per declared attack (model,
    weapon, target): the tank's attack ignores its own harmful modifiers by default, and does
    not inherit the mob's empty answer (it did when the key was model and weapon only)."""
    psykers = unit("psy", model((10, 10), ["smite", "smite"]))
    mob = unit("mob", model((12, 20), ["claws"]))
    brawlers = unit("brawlers", model((30, 27.5), ["claws"]))  # engaged with the tank
    tank = unit("tank", model((30, 30), ["claws"], W=12, T=9, base_mm=60), keywords=("VEHICLE",),
                abilities="Stealth")
    sp = scenario(WEAPONS, [psykers, brawlers], [mob, tank])
    with Battle(sp, dice=ForcedDice([1, 1])) as b:
        b.run_command(Shoot("psy", (Selection("psy/1", "smite", "mob"),
                                    Selection("psy/1", "smite", "tank"))))
        pools = {p["target"]: p for p in of_type(b, "pool")}
        # mob: BS3, +1 (HEAVY); tank: cover and 17.03 ignored, BS3, +1 (HEAVY)
        assert (pools["mob"]["skill"], pools["mob"]["hit_mod"]) == (3, 1)
        assert (pools["tank"]["skill"], pools["tank"]["hit_mod"]) == (3, 1)
        assert sorted(pools["tank"]["ignored"]) == sorted([COVER, "engaged MONSTER/VEHICLE target (17.03)"])
        asked = {e["key"]: sorted(e["answer"]) for e in of_type(b, "decision") if e["kind"] == "psychic"}
        assert asked == {"psy/1 smite -> mob": [],
                         "psy/1 smite -> tank": [COVER, "engaged MONSTER/VEHICLE target (17.03)"]}
