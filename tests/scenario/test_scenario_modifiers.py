"""Scenario ``modifiers`` (README): unit- and model-level roll and characteristic modifiers
with a source label, ``{ roll = "hit" | "wound" | "save" | "BS" | "WS", value = N, source = "..." }``
(optionally ``against = "melee" | "ranged" | <enemy unit id>``). Hit, wound, BS and WS ones
apply to the attacks the unit (or model) makes and join the attack's own modifiers, so 02.02.01
applies as written: hit and wound rolls net to at most +1/-1, BS/WS stay within 2+..6+, and a
[PSYCHIC] attack ignores the harmful BS/hit ones by default (24.29). Save ones apply to the
saving throws the unit's (or model's) models make."""

from __future__ import annotations

import tomllib

import pytest

from sim.battle import Battle
from sim.cli import main
from sim.commands import Fight, Selection, Shoot
from sim.replay.report import report
from sim.rules.dice import ForcedDice
from sim.scenario.load import parse_scenario

WEAPONS = """
[battle]
name = "modifiers"
seed = 9

[weapons."rifle"]
range = 24
A = 2
BS = 4
S = 4
AP = 0
D = 1

[weapons."smite"]
range = 24
A = 1
BS = 4
S = 4
AP = 0
D = 1
abilities = "[PSYCHIC]"

[weapons."lance"]
range = 24
A = 1
BS = 2
S = 4
AP = 0
D = 1
abilities = "[LANCE]"

[weapons."blade"]
range = "melee"
A = 1
WS = 4
S = 4
AP = 0
D = 1
"""


def body(shooter_mods: str = "", target_mods: str = "", model_mods: str = "", charged: bool = False,
         target_insv: str = "", engaged: bool = False) -> str:
    """The gunners ``sq`` (two models), the ``mob`` 11" away, and the ``brutes``: in base contact
    with the gunners when ``engaged`` (to fight them), else far away."""
    m = f", modifiers = [{model_mods}]" if model_mods else ""
    brutes = "[[10, 20], [11.5, 20]]" if engaged else "[[50, 40], [51.5, 40]]"
    return WEAPONS + f"""
[[armies]]
name = "Red"

[[armies.units]]
id = "sq"
keywords = ["INFANTRY"]
charged = {'true' if charged else 'false'}
modifiers = [{shooter_mods}]
models = [
  {{ name = "Gunner", base_mm = 32, M = 6, T = 4, Sv = 4, W = 1, Ld = 6, OC = 1, weapons = ["rifle", "smite", "lance", "blade"], at = [[10, 18.74]]{m} }},
  {{ name = "Gunner", base_mm = 32, M = 6, T = 4, Sv = 4, W = 1, Ld = 6, OC = 1, weapons = ["rifle", "smite", "lance", "blade"], at = [[11.5, 18.74]] }},
]

[[armies]]
name = "Blue"

[[armies.units]]
id = "mob"
keywords = ["INFANTRY"]
modifiers = [{target_mods}]
models = [
  {{ name = "Mobster", count = 4, base_mm = 32, M = 6, T = 4, Sv = 4, W = 1, Ld = 6, OC = 1{target_insv}, weapons = ["blade"], at = [[10, 30], [11.5, 30], [13, 30], [14.5, 30]] }},
]

[[armies.units]]
id = "brutes"
keywords = ["INFANTRY"]
models = [
  {{ name = "Brute", count = 2, base_mm = 32, M = 6, T = 4, Sv = 4, W = 1, Ld = 6, OC = 1, weapons = ["blade"], at = {brutes} }},
]
"""


def spec(text: str):
    return parse_scenario(tomllib.loads(text), "modifiers.toml")


def pools(b):
    return [e for e in b.events if e["type"] == "pool"]


def hits(b):
    return [e for e in b.events if e["type"] == "hit rolls"]


def wounds(b):
    return [e for e in b.events if e["type"] == "wound rolls"]


def shoot(weapon="rifle", target="mob", models=("sq/1", "sq/2")):
    return Shoot("sq", tuple(Selection(m, weapon, target) for m in models))


FIGHT = Fight("sq", (Selection("sq/1", "blade", "brutes"), Selection("sq/2", "blade", "brutes")))
TARGET_LOCK = '{ roll = "hit", value = 1, source = "Target lock" }'
SPOTTER = '{ roll = "hit", value = 1, source = "Spotter" }'


def test_02_02_01_plus_two_to_hit_from_two_sources_is_capped_at_plus_one():
    """BS 4+ with +1 from two sources: the net +2 is clamped to +1, so a 2 (2+1=3) misses and a
    3 (3+1=4) hits; both sources are listed on the pool."""
    sc = spec(body(shooter_mods=f"{TARGET_LOCK}, {SPOTTER}"))
    # 4 dice: hit rolls 2 3 2 3; wounds 1 1 (fail)
    with Battle(sc, dice=ForcedDice([2, 3, 2, 3, 1, 1])) as b:
        b.run_command(shoot())
        (p,) = pools(b)
        assert p["hit_mod"] == 1
        assert ["Target lock", 1] in p["modifiers"] and ["Spotter", 1] in p["modifiers"]
        assert hits(b)[0]["hits"] == 2
        assert "Target lock +1; Spotter +1" in report(b.events)


def test_02_02_01_two_minus_ones_to_hit_are_minus_one():
    sc = spec(body(shooter_mods='{ roll = "hit", value = -1, source = "Smoke" }, '
                                '{ roll = "hit", value = -2, source = "Blinded" }'))
    # BS 4+: a 5 with -1 hits (4), a 4 misses (3)
    with Battle(sc, dice=ForcedDice([5, 4, 5, 4, 1, 1])) as b:
        b.run_command(shoot())
        assert pools(b)[0]["hit_mod"] == -1
        assert hits(b)[0]["hits"] == 2


def test_02_02_01_wound_modifier_from_the_scenario():
    """S4 vs T4 needs 4+: +1 to wound turns a 3 into a wound, a 2 stays a failure."""
    sc = spec(body(shooter_mods='{ roll = "wound", value = 1, source = "Venom" }'))
    # hits 4 4 4 4 (BS4+), wound rolls 3 3 2 2, saves 1 1 (fail)
    with Battle(sc, dice=ForcedDice([4, 4, 4, 4, 3, 3, 2, 2, 1, 1])) as b:
        b.run_command(shoot())
        (p,) = pools(b)
        assert p["wound_mod"] == 1 and ["Venom", 1] in p["modifiers"]
        assert wounds(b)[0]["wounds"] == 2


def test_02_02_01_wound_modifiers_net_with_lance_and_clamp():
    """[LANCE] after a charge (+1) and the scenario's +1 to wound net to +2, clamped to +1: a 2
    (needs 4+) still fails, a 3 wounds."""
    sc = spec(body(shooter_mods='{ roll = "wound", value = 1, source = "Venom" }', charged=True))
    with Battle(sc, dice=ForcedDice([4, 4, 2, 3, 1])) as b:
        b.run_command(shoot("lance"))
        (p,) = pools(b)
        assert p["wound_mod"] == 1
        assert {s for s, _v in p["modifiers"]} == {"Venom", "[LANCE] after a charge (24.21)"}
        assert wounds(b)[0]["wounds"] == 1


def test_02_02_01_BS_modifiers_change_the_characteristic_within_2_to_6():
    sc = spec(body(shooter_mods='{ roll = "BS", value = 1, source = "Scope" }'))
    with Battle(sc, dice=ForcedDice([3, 2, 3, 2, 1, 1])) as b:
        b.run_command(shoot())
        assert pools(b)[0]["skill"] == 3  # 4+ improved to 3+
        assert hits(b)[0]["hits"] == 2
    sc = spec(body(shooter_mods='{ roll = "BS", value = -3, source = "Dazed" }'))
    with Battle(sc, dice=ForcedDice([1, 1, 1, 1])) as b:
        b.run_command(shoot())
        assert pools(b)[0]["skill"] == 6  # 4+ worsened by 3 is 7+: clamped to 6+
    sc = spec(body(shooter_mods='{ roll = "BS", value = 3, source = "Oracle" }'))
    with Battle(sc, dice=ForcedDice([1, 1, 1, 1])) as b:
        b.run_command(shoot("lance"))
        assert pools(b)[0]["skill"] == 2  # BS 2+ improved stays 2+


def test_02_02_01_WS_modifiers_apply_to_melee_attacks_and_BS_ones_do_not():
    mods = ('{ roll = "WS", value = 1, source = "Frenzy" }, '
            '{ roll = "BS", value = -1, source = "Scope broken" }')
    with Battle(spec(body(shooter_mods=mods, engaged=True)), dice=ForcedDice([1, 1])) as b:
        b.run_command(FIGHT)
        (p,) = pools(b)
        assert p["skill"] == 3 and p["modifiers"] == [["Frenzy", 1]]
    with Battle(spec(body(shooter_mods=mods)), dice=ForcedDice([1, 1, 1, 1])) as b:
        b.run_command(shoot())
        (p,) = pools(b)
        assert p["skill"] == 5 and p["modifiers"] == [["Scope broken", -1]]


def test_02_02_01_against_limits_a_modifier_to_melee_ranged_or_one_target():
    mods = ('{ roll = "hit", value = 1, source = "Hunter", against = "brutes" }, '
            '{ roll = "hit", value = -1, source = "Clumsy", against = "melee" }')
    with Battle(spec(body(shooter_mods=mods)), dice=ForcedDice([1, 1, 1, 1])) as b:
        b.run_command(shoot())
        assert pools(b)[0]["modifiers"] == []  # ranged, at the mob
    with Battle(spec(body(shooter_mods=mods, engaged=True)), dice=ForcedDice([1, 1])) as b:
        b.run_command(FIGHT)
        assert pools(b)[0]["modifiers"] == [["Hunter", 1], ["Clumsy", -1]]
        assert pools(b)[0]["hit_mod"] == 0


def test_04_03_a_model_level_modifier_splits_the_pool():
    """Only sq/1 has the modifier: its attacks are not identical to sq/2's (04.03)."""
    sc = spec(body(model_mods=TARGET_LOCK))
    with Battle(sc, dice=ForcedDice([1, 1, 1, 1])) as b:
        b.run_command(shoot())
        ps = pools(b)
        assert [(p["attackers"], p["hit_mod"]) for p in ps] == [(["sq/1"], 1), (["sq/2"], 0)]


def test_24_29_psychic_ignores_a_harmful_scenario_hit_modifier_by_default():
    sc = spec(body(shooter_mods='{ roll = "hit", value = -1, source = "Smoke" }, ' + TARGET_LOCK))
    asked = []

    def answer(req):
        asked.append(req)
        return req.default
    with Battle(sc, dice=ForcedDice([1, 1])) as b:
        b.run_command(shoot("smite"), answer)
        assert [r.kind for r in asked] == ["psychic", "psychic"]
        assert all(r.default == ["Smoke"] and set(r.options) == {"Smoke", "Target lock"} for r in asked)
        (p,) = pools(b)
        assert p["hit_mod"] == 1 and p["psychic"] and p["ignored"] == ["Smoke"]


SMOKE = '{ roll = "save", value = 1, source = "Smoke" }'


def test_05_04_save_modifier_applies_to_the_models_saving_throws():
    """Sv 4+ with +1 to saves: a 3 saves (3+1=4), a 2 does not, an unmodified 1 never does;
    the damage step shows the modifier."""
    sc = spec(body(target_mods=SMOKE))
    # hits 4 4 4 4, wounds 4 4 4 4, saves 1 2 3 3 (sorted lowest first)
    with Battle(sc, dice=ForcedDice([4, 4, 4, 4, 4, 4, 4, 4, 1, 2, 3, 3])) as b:
        b.run_command(Shoot("sq", (Selection("sq/1", "rifle", "mob"), Selection("sq/2", "rifle", "mob"))))
        (dmg,) = [e for e in b.events if e["type"] == "damage"]
        assert [(s["save"], s["saved"]) for s in dmg["steps"]] == [(1, False), (2, False), (3, True), (3, True)]
        assert all(s["save_mod"] == 1 for s in dmg["steps"])
        assert "3 (+1 save) on mob/3: saved" in report(b.events)


def test_05_04_save_modifiers_are_not_clamped_but_an_unmodified_one_fails():
    """02.02.01 clamps only hit and wound rolls: +2 to saves makes a 2 save against Sv 4+."""
    sc = spec(body(target_mods=SMOKE + ', { roll = "save", value = 1, source = "Shield" }'))
    with Battle(sc, dice=ForcedDice([4, 4, 4, 4, 4, 4, 4, 4, 1, 2, 2, 2])) as b:
        b.run_command(shoot())
        (dmg,) = [e for e in b.events if e["type"] == "damage"]
        assert [(s["save"], s["saved"]) for s in dmg["steps"]] == [(1, False), (2, True), (2, True), (2, True)]


def test_05_04_save_modifier_applies_to_the_invulnerable_save_too():
    """AP -3 against Sv 4+ leaves only the 5+ invulnerable save; -1 to saves makes a 5 fail."""
    text = body(target_mods='{ roll = "save", value = -1, source = "Exposed" }', target_insv=", InSv = 5")
    text = text.replace('AP = 0\nD = 1\n\n[weapons."smite"]', 'AP = -3\nD = 1\n\n[weapons."smite"]')
    sc = spec(text)
    with Battle(sc, dice=ForcedDice([4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 6, 6])) as b:
        b.run_command(shoot())
        (dmg,) = [e for e in b.events if e["type"] == "damage"]
        assert [(s["save"], s["saved"]) for s in dmg["steps"]] == [(5, False), (5, False), (6, True), (6, True)]


def test_05_04_save_modifier_against_ranged_attacks_only():
    sc = spec(body(target_mods='{ roll = "save", value = 1, source = "Smoke", against = "ranged" }'))
    with Battle(sc, dice=ForcedDice([4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3])) as b:
        b.run_command(shoot())
        (dmg,) = [e for e in b.events if e["type"] == "damage"]
        assert all(s["saved"] for s in dmg["steps"])


BAD = [
    ('modifiers = [{ roll = "hit", value = 1, source = "Spotter" }]',
     'modifiers = [{ roll = "hits", value = 1, source = "Spotter" }]',
     ["armies[0].units[0].modifiers[0].roll", "hit, wound, save, BS or WS", "'hits'"]),
    ('modifiers = [{ roll = "hit", value = 1, source = "Spotter" }]',
     'modifiers = [{ roll = "hit", value = 0, source = "Spotter" }]',
     ["armies[0].units[0].modifiers[0].value", "a whole number other than 0", "found 0"]),
    ('modifiers = [{ roll = "hit", value = 1, source = "Spotter" }]',
     'modifiers = [{ roll = "hit", value = 1 }]',
     ["armies[0].units[0].modifiers[0].source", "<missing>"]),
    ('modifiers = [{ roll = "hit", value = 1, source = "Spotter" }]',
     'modifiers = [{ roll = "hit", value = 1, source = "" }]',
     ["armies[0].units[0].modifiers[0].source", "a source label", "''"]),
    ('modifiers = [{ roll = "hit", value = 1, source = "Spotter" }]',
     'modifiers = [{ roll = "hit", value = 1, source = "Spotter", against = "sq" }]',
     ["armies[0].units[0].modifiers[0].against", "an enemy unit id", "'sq'"]),
    ('modifiers = [{ roll = "hit", value = 1, source = "Spotter" }]',
     'modifiers = [{ roll = "BS", value = 1, source = "Spotter", against = "melee" }]',
     ["armies[0].units[0].modifiers[0].against", "'melee'"]),
    ('modifiers = [{ roll = "hit", value = 1, source = "Spotter" }]',
     'modifiers = [{ roll = "hit", value = 1, source = "Spotter", when = "always" }]',
     ["armies[0].units[0].modifiers[0].when", "unknown field 'when'"]),
    ('modifiers = [{ roll = "hit", value = 1, source = "Spotter" }]',
     'modifiers = { roll = "hit", value = 1, source = "Spotter" }',
     ["armies[0].units[0].modifiers", "a list"]),
    ('at = [[10, 18.74]] }', 'at = [[10, 18.74]], modifiers = [{ roll = "save", value = "1", source = "x" }] }',
     ["armies[0].units[0].models[0].modifiers[0].value", "'1'"]),
]


@pytest.mark.parametrize("old,new,fragments", BAD, ids=[b[2][0] + " " + b[2][-1] for b in BAD])
def test_bad_modifiers_are_one_clear_message(tmp_path, capsys, old, new, fragments):
    good = body(shooter_mods=SPOTTER)
    assert old in good
    path = tmp_path / "bad.toml"
    path.write_text(good.replace(old, new, 1))
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"sim: {path}"), err
    for f in fragments:
        assert f in err, (f, err)


def test_a_saved_table_keeps_the_modifiers():
    """The sandbox's saved table (sim.sandbox.save_table) writes each model's modifiers (its
    unit's and its own) and reads back the same."""
    from sim.sandbox.save_table import spec_toml
    sc = spec(body(shooter_mods=TARGET_LOCK + ', { roll = "save", value = -1, source = "Exposed", against = "melee" }',
                   model_mods='{ roll = "WS", value = 1, source = "Frenzy \\"Red\\"" }'))
    again = parse_scenario(tomllib.loads(spec_toml(sc)), "saved.toml")
    assert [m.modifiers for u in again.units for m in u.models] == [m.modifiers for u in sc.units for m in u.models]
    assert sc.units[0].models[0].modifiers[-1].source == 'Frenzy "Red"'
