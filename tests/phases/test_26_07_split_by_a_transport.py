"""26 step 7 A unit split in two by a transport's datasheet rule (sim.scenario.split, the
rule's checks in sim.rules.transport): the file names the split (``split_by``), the loader
reads the unit as its two halves (as equal as possible, the first the larger), battle formations
must start one half embarked in that transport, and the default player fills it so: a squad too
large for its carrier rides in it by halves, and the carrier is not lost empty (18.01)."""

from __future__ import annotations

import pytest

from phased import WEAPONS, model, unit
from scen import of_type
from sim import events as ev
from sim.battle import Battle
from sim.commands import DeclareFormations, StartBattle
from sim.errors import Refusal, ScenarioError
from sim.players import make_player
from sim.rules import transport as TR
from sim.rules.dice import ForcedDice
from sim.scenario.load import parse_scenario
from sim.world import queries as W

CARRIER = {"models": 6, "keywords": ["INFANTRY"], "split": ["SISTER SQUAD"]}


def _waiting(n: int, **kw) -> dict:
    m = model([(0, 0)] * n, ["gun"], **kw)
    del m["at"]
    return m


def _data(split_by="carrier", keywords=("INFANTRY", "SISTER SQUAD"), capacity=CARRIER, squad=None,
          other=("INFANTRY",), **mission):
    carrier = unit("carrier", _waiting(1, base_mm=100, W=10, T=9),
                   keywords=("VEHICLE", "TRANSPORT", "DEDICATED TRANSPORT"), transport=capacity)
    squad = squad or unit("sisters", _waiting(9), keywords=keywords, points=99)
    if split_by is not None:
        squad["split_by"] = split_by
    red = [carrier, squad, unit("other", _waiting(2), keywords=other)]
    return {"battle": {"name": "split", "seed": 1, "board": [60, 44]}, "weapons": WEAPONS,
            "armies": [{"name": "A", "units": red}, {"name": "B", "units": [unit("b1", _waiting(2))]}],
            "mission": {"deployment": "rules", "first": "red", "defender": "red", **mission}}


def test_26_07_split_sizes_and_the_rules_checks():
    assert TR.split_sizes(9) == (5, 4) and TR.split_sizes(10) == (5, 5) and TR.split_sizes(2) == (1, 1)
    cap = TR.Capacity(6, (("INFANTRY",),), split=("SISTER SQUAD",))
    assert TR.split_problems("s", {"SISTER SQUAD"}, 10, "c", cap, 0) == []
    assert "is not SISTER SQUAD" in TR.split_problems("s", {"INFANTRY"}, 10, "c", cap, 0)[0]
    assert "nothing to split" in TR.split_problems("s", {"SISTER SQUAD"}, 1, "c", cap, 0)[0]
    assert "splits another already" in TR.split_problems("s", {"SISTER SQUAD"}, 10, "c", cap, 1)[0]
    assert "no rule that splits" in TR.split_problems("s", {"SISTER SQUAD"}, 10, "c", TR.Capacity(6), 0)[0]
    assert TR.split_embark_problems([("a", "a-half-2", "c")], {"a-half-2": "c"}) == []
    (p,) = TR.split_embark_problems([("a", "a-half-2", "c")], {"a": "d"})
    assert p == "one of a and a-half-2 (split by c's rule) must start the battle embarked in c (26 step 7)"
    assert "may split a SISTER SQUAD unit in two" in cap.describe()


def test_26_07_the_loader_reads_a_split_unit_as_its_two_halves():
    spec = parse_scenario(_data(), "split.toml")
    first, second = (u for u in spec.units if u.id.startswith("sisters"))
    assert (first.id, second.id) == ("sisters", "sisters-half-2")
    assert (len(first.models), len(second.models)) == (5, 4)
    assert [m.id for m in first.models + second.models] == [f"sisters/{i}" for i in range(1, 10)]
    assert first.name.endswith("(1 of 2)") and second.name.endswith("(2 of 2)")
    assert first.split == ("carrier", "sisters-half-2", "sisters") and second.split == ("carrier", "sisters", "sisters")
    assert (first.points, second.points) == (55, 44)


@pytest.mark.parametrize("change, where, expected", [
    (dict(split_by="other"), "split_by", "a friendly TRANSPORT whose rule splits units (carrier)"),
    (dict(split_by="b1"), "split_by", "a friendly TRANSPORT whose rule splits units"),
    (dict(keywords=("INFANTRY",)), "split_by", "is not SISTER SQUAD"),
    (dict(capacity={"models": 6}), "split_by", "a friendly TRANSPORT whose rule splits units (none in its army)"),
])
def test_26_07_a_split_the_rule_refuses_is_a_clear_error(change, where, expected):
    with pytest.raises(ScenarioError) as e:
        parse_scenario(_data(**change), "split.toml")
    assert expected in str(e.value) and f"units[1].{where}" in str(e.value)


def test_26_07_one_transport_splits_one_unit_and_a_file_set_up_by_hand_writes_its_halves():
    data = _data()
    twin = unit("twins", _waiting(4), keywords=("INFANTRY", "SISTER SQUAD"))
    twin["split_by"] = "carrier"
    data["armies"][0]["units"].append(twin)
    with pytest.raises(ScenarioError, match="splits another already"):
        parse_scenario(data, "split.toml")
    data = _data()
    del data["mission"]
    for i, u in enumerate(data["armies"][0]["units"] + data["armies"][1]["units"]):
        for m in u["models"]:
            m["at"] = [[4.0 + 3 * k, 4.0 + 5 * i] for k in range(m.get("count", 1))]
    with pytest.raises(ScenarioError, match="split_by in a battle deployed by the rules"):
        parse_scenario(data, "split.toml")
    squad = data["armies"][0]["units"][1]
    del squad["split_by"]
    squad["models"][0]["count"], squad["models"][0]["at"] = 5, squad["models"][0]["at"][:5]
    squad.update(embarked="carrier", half_of=["carrier", "sisters-half-2", "Sisters"])
    other = unit("sisters-half-2", model([(40.0 + 2 * k, 20.0) for k in range(4)], ["gun"]),
                 keywords=("INFANTRY", "SISTER SQUAD"))
    other["half_of"] = ["carrier", "sisters", "Sisters"]
    data["armies"][0]["units"].append(other)
    spec = parse_scenario(data, "split.toml")
    assert next(u for u in spec.units if u.id == "sisters").split == ("carrier", "sisters-half-2", "Sisters")
    squad["half_of"] = ["carrier", "sisters-half-2"]
    with pytest.raises(ScenarioError, match="half_of"):
        parse_scenario(data, "split.toml")
    squad.update(half_of=["carrier", "x", "Sisters"], split_by="carrier")
    with pytest.raises(ScenarioError, match="split_by or half_of"):
        parse_scenario(data, "split.toml")


def test_26_07_battle_formations_start_one_half_in_the_transport():
    with Battle(parse_scenario(_data(), "split.toml"), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        with pytest.raises(Refusal, match="one of sisters and sisters-half-2 .* must start the battle embarked in carrier"):
            b.run_command(DeclareFormations("red", (), (("other", "carrier"),)))
        b.run_command(DeclareFormations("red", (), (("sisters-half-2", "carrier"),)))
        b.run_command(DeclareFormations("blue"))
        assert not of_type(b, ev.DESTROYED_EMPTY)
        assert W.embarked_in(b.units["sisters-half-2"]) == b.units["carrier"]


def test_26_07_the_default_player_fills_the_transport_with_a_half():
    """Nine sisters do not fit a carrier of 6; split, the default player starts the five in it.
    Without the split the carrier is destroyed empty (the squad fits nowhere)."""
    for split_by, lost in (("carrier", False), (None, True)):
        spec = parse_scenario(_data(split_by=split_by, other=("MOUNTED",)), "split.toml")
        with Battle(spec, dice=ForcedDice([])) as b:
            b.run_command(StartBattle())
            for side in (0, 1):
                b.run_command(make_player("default", side, b, spec).choose(b).command)
            assert bool(of_type(b, ev.DESTROYED_EMPTY)) is lost
            if not lost:
                assert of_type(b, ev.FORMATIONS)[0]["embarked"] == {"sisters": "carrier"}
                assert len(W.unit_models(b.units["sisters"], living=False)) == 5


def _led_half():
    """The split scenario with the squad named Sisters, and a canoness (can lead Sisters)
    leading its second half."""
    data = _data()
    hero = unit("canoness", _waiting(1, W=4), keywords=("INFANTRY", "CHARACTER"))
    hero["models"][0]["abilities"] = "[LEADER]"
    hero.update(leads="sisters-half-2", can_lead=["Sisters"])
    data["armies"][0]["units"][1]["name"] = "Sisters"
    data["armies"][0]["units"].append(hero)
    return parse_scenario(data, "split.toml")


def test_26_07_a_leader_leads_a_half_by_its_id_and_its_datasheet_name():
    spec = _led_half()
    (joined,) = [u for u in spec.units if u.parts]
    assert joined.id == "sisters-half-2" and len(joined.models) == 5 and joined.split[2] == "Sisters"


def test_26_07_one_half_not_both_and_a_split_no_half_of_which_fits_is_refused():
    with Battle(parse_scenario(_data(squad=unit("sisters", _waiting(6), keywords=("INFANTRY", "SISTER SQUAD"))),
                               "split.toml"), dice=ForcedDice([])) as b:
        b.run_command(StartBattle())
        with pytest.raises(Refusal, match="and the other not in it"):
            b.run_command(DeclareFormations("red", (), (("sisters", "carrier"), ("sisters-half-2", "carrier"))))
    with pytest.raises(ScenarioError, match="one of whose halves fits in carrier"):
        parse_scenario(_data(squad=unit("sisters", _waiting(16), keywords=("INFANTRY", "SISTER SQUAD"))), "split.toml")


def test_26_07_the_default_player_keeps_the_files_plan_and_puts_a_half_in_beside_it():
    """The file holds ``other`` in reserves: kept, beside the half in the carrier; the split
    squad named in the reserves as a whole gives its first half to the carrier and keeps the
    other in reserves."""
    for held, want in (((2,), {"other"}), ((1,), {"sisters-half-2"})):
        data = _data()
        for i in held:
            data["armies"][0]["units"][i]["reserves"] = True
        data["armies"][0]["units"].append(unit("more", _waiting(2), keywords=("MOUNTED",)))
        spec = parse_scenario(data, "split.toml")
        with Battle(spec, dice=ForcedDice([])) as b:
            b.run_command(StartBattle())
            cmd = make_player("default", 0, b, spec).choose(b).command
            assert cmd.embarked == (("sisters", "carrier"),) and set(cmd.reserves) == want


def test_26_07_a_saved_table_keeps_the_halves_and_a_leader_on_one():
    import tomllib

    from sim.sandbox.save_table import table_toml
    spec = _led_half()
    with Battle(spec, seed=1) as b:
        b.run_command(StartBattle())
        while b.turn_state.pre_battle is not None:  # (formations, deployment: the default player's)
            b.run_command(make_player("default", b.turn_state.chooser, b, spec).choose(b).command)
        text = table_toml(b)
    assert 'half_of = ["carrier", "sisters-half-2", "Sisters"]' in text
    again = parse_scenario(tomllib.loads(text), "saved.toml")
    halves = {u.id: u.split for u in again.units if u.split}
    assert halves == {"sisters": ("carrier", "sisters-half-2", "Sisters"),
                      "sisters-half-2": ("carrier", "sisters", "Sisters")}
    assert any(u.parts and u.id == "sisters-half-2" for u in again.units)  # (the canoness leads it still)


def test_26_07_the_random_player_starts_one_half_in_the_transport_and_the_other_not():
    """The random player's battle formations (sim.players.deployment.formations with a pick):
    over many picks, one half of the split unit, and one only, starts in the transport whose
    rule split it, and the rules accept every one."""
    import random

    from sim.players import deployment as D
    for other in (("INFANTRY",), ("MOUNTED",)):
        spec = parse_scenario(_data(other=other), "split.toml")
        with Battle(spec, dice=ForcedDice([])) as b:
            b.run_command(StartBattle())
            b._enter()
            for seed in range(40):
                rng = random.Random(seed)
                cmd = D.formations(b, 0, lambda opts: rng.choice(opts))
                inside = [u for u, t in cmd.embarked if t == "carrier" and u in ("sisters", "sisters-half-2")]
                assert len(inside) == 1 and b.check(cmd) is None, (seed, cmd)
