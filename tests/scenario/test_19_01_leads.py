"""19.01 A scenario's ``leads`` (sim.scenario.attach): the army list's attachment (Muster Armies,
26 step 1) checked by the rule and made ONE attached unit: the bodyguard's id, every model of
both (01.02.01 starting strength), the leader's models with role leader and their own keywords
(19.03); a bad ``leads`` is one clear error; the unit deploys as one and plays a whole battle."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import esper
import pytest

from phased import WEAPONS
from scen import model, row, unit
from sim.battle import Battle
from sim.commands import DeclareFormations, Deploy, StartBattle
from sim.components import Keyword, UnitMember
from sim.errors import ScenarioError
from sim.events import DEPLOYED
from sim.players.loop import play_battle
from sim.rules.dice import ForcedDice
from sim.sandbox.save_table import spec_toml
from sim.scenario.load import parse_scenario
from sim.world import queries as W

ROOT = Path(__file__).resolve().parents[2]


def lord(leads="warriors", **kw):
    m = model((10, 10), ["gun"], keywords=("CHARACTER", "PSYKER"), W=4, T=5, name="Overlord")
    kw.setdefault("abilities", "Leader")
    kw.setdefault("name", "Overlord")
    if leads is not None:
        kw["leads"] = leads
    return unit("overlord", m, **kw)


def warriors(**kw):
    kw.setdefault("name", "Necron Warriors")
    return unit("warriors", model(row(12, 10, 5), ["gun"]), **kw)


def foe(id="foe", at=(40, 30), **kw):
    return unit(id, model(at, ["gun"]), **kw)


def data(red, blue, mission=None):
    d = {"battle": {"name": "leads", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
         "armies": [{"name": "A", "units": red}, {"name": "B", "units": blue}]}
    if mission is not None:
        d["mission"] = mission
    return d


def load(red, blue=None, mission=None):
    return parse_scenario(data(red, blue or [foe()], mission), "test.toml")


def refusal(red, blue=None, mission=None) -> ScenarioError:
    with pytest.raises(ScenarioError) as e:
        load(red, blue, mission)
    return e.value


# --- the attached unit ------------------------------------------------------------------------

def test_19_01_a_leader_that_leads_a_unit_makes_one_attached_unit_with_the_bodyguards_id():
    spec = load([lord(can_lead=["Necron Warriors"]), warriors()])
    assert [u.id for u in spec.units] == ["warriors", "foe"]
    us = spec.units[0]
    assert us.name == "Overlord + Necron Warriors" and us.owner == 0
    assert [(m.id, m.role) for m in us.models] == [(f"warriors/{i}", "bodyguard") for i in range(1, 6)] + \
        [("overlord/1", "leader")]
    assert [p.id for p in us.parts] == ["warriors", "overlord"] and us.parts[1].leads == "warriors"


def test_19_03_keywords_stay_on_their_models_and_the_unit_has_them_all():
    spec = load([lord(), warriors()])
    with Battle(spec, dice=ForcedDice([])) as b:
        u = b.units["warriors"]
        assert set(W.roster(u).keywords) >= {"CHARACTER", "PSYKER", "INFANTRY"}
        leader = b.models["overlord/1"]
        assert esper.component_for_entity(leader, UnitMember).role == "leader"
        assert "PSYKER" in esper.component_for_entity(leader, Keyword).names
        assert "PSYKER" not in esper.component_for_entity(b.models["warriors/1"], Keyword).names
        # 19.02 while a bodyguard model remains, the unit's T is the bodyguard's (the leader's is 5)
        assert W.roster(u).full_T == 4


def test_01_02_01_the_attached_units_starting_strength_counts_every_model():
    spec = load([lord(), warriors()], mission={"first": "red", "deployed": False})
    with Battle(spec, seed=3) as b:
        b.run_command(StartBattle())
        b.step_until_blocked()
        assert b.turn_state.round == 1
        assert b.turn_state.starting_strength[b.units["warriors"]] == 6


def test_19_01_a_support_joins_beside_the_leader():
    cryptek = unit("cryptek", model((10, 12), ["gun"], keywords=("CHARACTER",), name="Cryptek"),
                   name="Cryptek", abilities="Support", leads="warriors")
    spec = load([lord(), cryptek, warriors()])
    (us,) = [u for u in spec.units if u.owner == 0]
    assert us.name == "Overlord + Cryptek + Necron Warriors"
    assert [m.role for m in us.models][-2:] == ["leader", "support"] and len(us.models) == 7


def test_19_01_the_table_writes_back_as_the_file_had_it():
    spec = load([lord(can_lead=["Necron Warriors"], labels=["Kindled Command"], points=65), warriors(points=90)])
    text = spec_toml(spec)
    assert 'leads = "warriors"' in text and 'can_lead = ["Necron Warriors"]' in text
    again = parse_scenario(tomllib.loads(text), "again.toml")
    assert again.units[0].models == spec.units[0].models and again.units[0].points == 155
    assert again.units[0].parts[1].labels == ("Kindled Command",)


# --- refusals: one clear error naming the unit and why ----------------------------------------

def test_19_01_leads_names_a_unit_of_the_scenario():
    e = refusal([lord(leads="wariors"), warriors()])
    assert e.path == "armies[0].units[0].leads"
    assert e.expected == "the id of a friendly unit for it to lead (19.01)" and e.found == "'wariors'"


@pytest.mark.parametrize("red, blue, why", [
    ([lord(abilities="Stealth"), warriors()], None,
     "Overlord has neither the LEADER nor the SUPPORT ability (24.22, 24.34)"),
    ([lord(can_lead=["Immortals"]), warriors()], None,
     "Overlord can lead only Immortals (its datasheet's list), not Necron Warriors"),
    ([lord(leads="foe")], [foe(name="Ghouls")], "Overlord and Ghouls are in different armies (19.01: a friendly bodyguard)"),
    ([lord(leads="overlord")], None, "Overlord cannot join itself"),
])
def test_19_01_each_refused_attachment_says_why(red, blue, why):
    e = refusal(red, blue)
    assert e.path == "armies[0].units[0].leads"
    assert e.expected == "a bodyguard unit Overlord can join (19.01, 24.22, 24.34)"
    assert e.found == f"<{red[0]['leads']!r}: {why}>"


def test_24_22_a_leader_that_is_not_a_character_is_refused():
    plain = unit("overlord", model((10, 10), ["gun"]), name="Overlord", abilities="Leader", leads="warriors")
    e = refusal([plain, warriors()])
    assert "Overlord is not a CHARACTER (24.22: a leader is)" in e.found


def test_19_01_a_second_leader_for_one_bodyguard_is_refused():
    warden = unit("warden", model((10, 13), ["gun"], keywords=("CHARACTER",)), name="Royal Warden",
                  abilities="Leader", leads="warriors")
    e = refusal([lord(), warden, warriors()])
    assert e.path == "armies[0].units[1].leads"
    assert "Necron Warriors already has Overlord as its leader" in e.found
    # an attached unit written as one unit (a model with role leader) has its leader too
    written = unit("warriors", model(row(12, 10, 5), ["gun"]),
                   model((12, 12), ["gun"], keywords=("CHARACTER",), role="leader", name="Lord"),
                   name="Necron Warriors")
    e = refusal([lord(), written])
    assert "Necron Warriors already has its leader" in e.found


def test_19_01_leader_and_bodyguard_start_together():
    e = refusal([lord(reserves=True), warriors()], mission={"first": "red", "deployed": False})
    assert e.path == "armies[0].units[0].reserves" and "Necron Warriors is not" in e.expected


def test_19_01_leader_and_bodyguard_are_embarked_together():
    carrier = unit("carrier", model((30, 20), ["gun"], base_mm=100, W=10, T=9), keywords=["VEHICLE", "TRANSPORT"],
                   transport={"models": 12, "keywords": ["INFANTRY"]})
    e = refusal([lord(embarked="carrier"), warriors(), carrier], mission={"first": "red", "deployed": False})
    assert e.path == "armies[0].units[0].embarked" and "Necron Warriors is not embarked" in e.expected


def test_19_01_a_modifier_against_a_leader_that_joined_names_the_bodyguard():
    mod = {"roll": "hit", "value": 1, "source": "Marked", "against": "overlord"}
    e = refusal([lord(), warriors()], [foe(modifiers=[mod])])
    assert e.path == "armies[1].units[0].modifiers" and "'warriors'" in e.expected


def test_can_lead_is_a_list_of_datasheet_names():
    e = refusal([lord(can_lead=["Necron Warriors", 3]), warriors()])
    assert e.path == "armies[0].units[0].can_lead[1]"


def test_a_refused_attachment_is_exit_status_2_without_a_traceback(tmp_path):
    from sim.sandbox.save_table import _q  # (a TOML string)
    ok = load([lord(leads=None), warriors()])
    text = spec_toml(ok).replace('name = "Overlord"\n', 'name = "Overlord"\nleads = ' + _q("foe") + "\n", 1)
    path = tmp_path / "bad.toml"
    path.write_text(text)
    r = subprocess.run([sys.executable, "-m", "sim", "check", str(path)], capture_output=True, text=True,
                       cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "units[0].leads" in r.stderr and "Overlord and foe are in different armies" in r.stderr


# --- deployed by the rules, and a whole battle -------------------------------------------------

def _waiting(u: dict) -> dict:
    for m in u["models"]:
        del m["at"]
    return u


def test_26_08_an_attached_unit_deploys_as_one():
    spec = load([_waiting(lord()), _waiting(warriors())], [_waiting(foe())],
                mission={"deployment": "rules", "first": "red", "defender": "red"})
    us = spec.units[0]
    assert not us.planned and len(us.models) == 6
    # the leader waits below its bodyguard (one block, clear of its bases)
    assert us.models[-1].y > max(m.y for m in us.models[:-1])
    with Battle(spec, dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        for _ in range(2):
            b.run_command(DeclareFormations(("red", "blue")[b.turn_state.chooser], ()))
        at = tuple((m.id, 10.0 + 1.5 * i, 6.0) for i, m in enumerate(us.models))
        b.run_command(Deploy("warriors", at))
        assert not W.in_reserves(b.units["warriors"])
        b.run_command(Deploy("foe", (("foe/1", 30.0, 38.0),)))
        assert b.turn_state.round == 1 and b.turn_state.starting_strength[b.units["warriors"]] == 6


def test_a_whole_battle_with_an_attached_leader_plays_to_its_end():
    spec = load([lord(), warriors()], [foe(), foe("foe2", at=(44, 30))], mission={"first": "red", "deployed": False,
                                                                  "players": {"red": "random", "blue": "random"}})
    with Battle(spec, seed=11) as b:
        play_battle(b, spec)
        assert b.turn_state.over and b.turn_state.round == 5
        assert b.turn_state.starting_strength[b.units["warriors"]] == 6
        assert "overlord" not in b.units


def test_26_08_the_default_players_deploy_an_attached_unit_by_the_rules_and_play_on():
    big = unit("overlord", {**model((0, 0), ["gun"], keywords=("CHARACTER",), W=4, base_mm=40), "name": "Overlord"},
               name="Overlord", abilities="Leader", leads="warriors")
    spec = load([_waiting(big), _waiting(warriors())], [_waiting(foe()), _waiting(foe("foe2", at=(44, 30)))],
                mission={"deployment": "rules", "players": {"red": "default", "blue": "default"}})
    with Battle(spec, seed=5) as b:
        play_battle(b, spec)
        assert b.turn_state.over
        deployed = [e for e in b.events if e["type"] == DEPLOYED and e["unit"] == "warriors"]
        assert len(deployed) == 1 and b.turn_state.starting_strength[b.units["warriors"]] == 6


def test_a_battle_saved_mid_battle_writes_the_units_back_while_each_has_models():
    from scen import kill
    from sim.sandbox.save_table import spec_from_world
    spec = load([lord(), warriors()])
    with Battle(spec, dice=ForcedDice([])) as b:
        kill(b, "warriors/1")
        saved, _ = spec_from_world(b)
        again = parse_scenario(tomllib.loads(spec_toml(saved)), "s")
        assert [p.id for p in again.units[0].parts] == ["warriors", "overlord"] and len(again.units[0].models) == 5
        # the leader dead: the attached unit is written as one unit (what is left of it)
        kill(b, "overlord/1")
        saved, _ = spec_from_world(b)
        again = parse_scenario(tomllib.loads(spec_toml(saved)), "s")
        assert again.units[0].id == "warriors" and again.units[0].parts == ()
        assert [m.id for m in again.units[0].models] == [f"warriors/{i}" for i in range(2, 6)]
