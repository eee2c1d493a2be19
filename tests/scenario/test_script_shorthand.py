"""The ``targets`` shorthand of a script step (README): ``targets = { weapon = unit }`` selects
the weapon, at that unit, for the models that can use it on that target (04.02: visible, in
range, unengaged unless 10.06/17.03; engaged with the model in a fight). The others do not
select it at all (so they make no hazard rolls for a [HAZARDOUS] weapon they could not fire,
24.15); the run says which were left out and why, with the rule's number, in the report and
as a ``left out`` event the replay reproduces. When no model can use it, the step fails as the
explicit command would: a script error naming the rule."""

from __future__ import annotations

import json
import tomllib

from sim.battle import Battle
from sim.cli import main
from sim.replay.log import Recorder, replay, write_atomic
from sim.replay.report import report
from sim.players.runner import play
from sim.scenario.load import load_scenario, parse_scenario

HEAD = """
[battle]
name = "shorthand"
seed = 5

[weapons."plasma"]
range = 12
A = 1
BS = 3
S = 7
AP = -2
D = 1
abilities = "[HAZARDOUS]"

[weapons."grenade"]
range = 12
A = 1
BS = 3
S = 4
AP = 0
D = 1
abilities = "[BLAST]"

[weapons."blade"]
range = "melee"
A = 2
WS = 3
S = 4
AP = 0
D = 1

[[armies]]
name = "Red"
"""

# three gunners; the third stands far beyond 12" of the mob
GUNNERS = """
[[armies.units]]
id = "sq"
keywords = ["INFANTRY"]
models = [
  { name = "Gunner", count = 3, base_mm = 32, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["plasma", "grenade"], at = [[10, 10], [11.5, 10], [45, 10]] },
]
"""

# three fighters; only the first two are in base contact with the mob
FIGHTERS = """
[[armies.units]]
id = "sq"
keywords = ["INFANTRY"]
models = [
  { name = "Fighter", count = 3, base_mm = 32, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["blade"], at = [[10, 18.74], [11.5, 18.74], [30, 10]] },
]
"""

MOB = """
[[armies]]
name = "Blue"

[[armies.units]]
id = "mob"
keywords = ["INFANTRY"]
models = [
  { name = "Mobster", count = 3, base_mm = 32, M = 6, T = 4, Sv = 6, W = 1, Ld = 6, OC = 1, weapons = ["blade"], at = [[10, 20], [11.5, 20], [13, 20]] },
]
"""

# a tank in base contact with a friendly squad of the shooters (so engaged with it, 17.03)
TANK = """
[[armies.units]]
id = "pals"
keywords = ["INFANTRY"]
models = [
  { name = "Pal", base_mm = 32, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["blade"], at = [[14, 18.74]] },
]

[[armies]]
name = "Blue"

[[armies.units]]
id = "tank"
keywords = ["VEHICLE"]
models = [
  { name = "Tank", base_mm = 32, M = 10, T = 9, Sv = 3, W = 10, Ld = 6, OC = 3, weapons = ["blade"], at = [[14, 20]] },
]
"""


def spec(body: str):
    return parse_scenario(tomllib.loads(body), "shorthand.toml")


def shoot_text(targets: str) -> str:
    return HEAD + GUNNERS + MOB + f'\n[[script]]\nshoot = "sq"\ntargets = {targets}\n'


def events(b: Battle, t: str) -> list[dict]:
    return [e for e in b.events if e["type"] == t]


def test_24_15_shorthand_leaves_out_models_that_cannot_fire_so_they_make_no_hazard_roll():
    sc = spec(shoot_text('{ "plasma" = "mob" }'))
    with Battle(sc, seed=5) as b:
        play(b, sc)
        (cmd,) = [e["command"] for e in events(b, "command")]
        assert [(s["model"], s.get("target")) for s in cmd["selections"]] == [("sq/1", "mob"), ("sq/2", "mob")]
        (haz,) = events(b, "hazard rolls")
        assert len(haz["rolls"]) == 2  # sq/3 never selected the plasma gun (it was 3 before)
        (out,) = events(b, "left out")
        assert out["unit"] == "sq"
        assert out["models"] == [["sq/3", "plasma", "mob", "out of range (04.02)"]]
        text = report(b.events)
        assert "plasma -> mob: sq/3 left out: out of range (04.02)" in text
        assert "no target" not in text


def test_04_02_shorthand_in_a_fight_leaves_out_the_models_not_engaged():
    body = HEAD + FIGHTERS + MOB + '\n[[script]]\nfight = "sq"\ntargets = { "blade" = "mob" }\n'
    sc = spec(body)
    with Battle(sc, seed=5) as b:
        play(b, sc)
        (cmd,) = [e["command"] for e in events(b, "command")]
        assert [s["model"] for s in cmd["selections"]] == ["sq/1", "sq/2"]
        (out,) = events(b, "left out")
        assert out["models"] == [["sq/3", "blade", "mob", "not engaged with this model (04.02)"]]


# a second enemy unit, in base contact with sq/3 only
GUARDS = """
[[armies.units]]
id = "guards"
keywords = ["INFANTRY"]
models = [
  { name = "Guard", base_mm = 32, M = 6, T = 4, Sv = 6, W = 1, Ld = 6, OC = 1, weapons = ["blade"], at = [[30, 11.26]] },
]
"""


def test_12_04_shorthand_in_a_fight_a_model_engaged_elsewhere_attacks_that_unit_instead(tmp_path):
    """sq/3 cannot reach the mob but is engaged with the guards: it must fight (12.04), so the
    shorthand's blade attacks the guards, and the note says so (it used to make no attacks)."""
    path = tmp_path / "elsewhere.toml"
    path.write_text(HEAD + FIGHTERS + MOB + GUARDS + '\n[[script]]\nfight = "sq"\ntargets = { "blade" = "mob" }\n')
    sc = load_scenario(path)
    with Battle(sc, seed=5) as b:
        rec = Recorder(b, str(path))
        play(b, sc, rec)
        (cmd,) = [e["command"] for e in events(b, "command")]
        assert [(s["model"], s["target"]) for s in cmd["selections"]] == [
            ("sq/1", "mob"), ("sq/2", "mob"), ("sq/3", "guards")]
        (out,) = events(b, "left out")
        assert out["models"] == [["sq/3", "blade", "mob", "not engaged with this model (04.02); it attacks "
                                                           "guards instead, an enemy unit it is engaged with (12.04)"]]
        assert {p["target"] for p in events(b, "pool")} == {"mob", "guards"}
    log = tmp_path / "elsewhere.jsonl"
    write_atomic(log, rec.text())
    assert replay(log) == (1, None)


def test_12_04_shorthand_a_model_engaged_elsewhere_keeps_one_weapon_and_its_extra_attacks():
    """sq/1 and sq/2 reach the mob only, sq/3 the guards only. ``blade = mob, knife = guards,
    spike = guards``: sq/1 and sq/2 keep the blade and drop the knife (one melee weapon, 04.01)
    but their [EXTRA ATTACKS] spike attacks the mob instead (24.11); sq/3 keeps knife and spike
    and drops the blade."""
    extra = ('\n[weapons."knife"]\nrange = "melee"\nA = 1\nWS = 4\nS = 3\nAP = 0\nD = 1\n'
             '\n[weapons."spike"]\nrange = "melee"\nA = 1\nWS = 4\nS = 3\nAP = 0\nD = 1\n'
             'abilities = "[EXTRA ATTACKS]"\n')
    body = (HEAD.replace("[[armies]]", extra + "\n[[armies]]", 1)
            + FIGHTERS.replace('weapons = ["blade"]', 'weapons = ["blade", "knife", "spike"]') + MOB + GUARDS
            + '\n[[script]]\nfight = "sq"\ntargets = { "blade" = "mob", "knife" = "guards", "spike" = "guards" }\n')
    sc = spec(body)
    with Battle(sc, seed=5) as b:
        play(b, sc)
        (cmd,) = [e["command"] for e in events(b, "command")]
        assert [(s["model"], s["weapon"], s["target"]) for s in cmd["selections"]] == [
            ("sq/1", "blade", "mob"), ("sq/1", "spike", "mob"), ("sq/2", "blade", "mob"), ("sq/2", "spike", "mob"),
            ("sq/3", "knife", "guards"), ("sq/3", "spike", "guards")]


def test_17_03_shorthand_no_model_can_use_is_a_script_error_naming_the_rule(tmp_path, capsys):
    """[BLAST] at an engaged VEHICLE is refused for every model: the step fails (it used to
    select the weapon without a target and make no attacks, silently)."""
    path = tmp_path / "blast.toml"
    path.write_text(HEAD + GUNNERS.replace("[45, 10]", "[13, 10]") + TANK
                    + '\n[[script]]\nshoot = "sq"\ntargets = { "grenade" = "tank" }\n')
    log = tmp_path / "blast.jsonl"
    assert main(["run", str(path), "--log", str(log)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "script[0]" in err and "[BLAST]" in err and "(17.03)" in err
    assert not log.exists()


def test_shorthand_left_out_is_in_the_replay_log_and_replays(tmp_path):
    path = tmp_path / "shorthand.toml"
    path.write_text(shoot_text('{ "plasma" = "mob" }'))
    sc = load_scenario(path)
    with Battle(sc) as b:
        rec = Recorder(b, str(path))
        play(b, sc, rec)
    log = tmp_path / "shorthand.jsonl"
    write_atomic(log, rec.text())
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert [r["event"]["type"] for r in lines if r["t"] == "event"][0] == "left out"
    assert replay(log) == (1, None)
    # and a log whose note was tampered with is caught
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text(log.read_text().replace("out of range (04.02)", "out of sight"))
    n, divergence = replay(tampered)
    assert divergence is not None


def test_cli_run_prints_who_was_left_out(tmp_path, capsys):
    path = tmp_path / "shorthand.toml"
    path.write_text(shoot_text('{ "plasma" = "mob" }'))
    assert main(["run", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Gunner 3 left out: out of range (04.02)" in out  # (sq/3, by its name: sim.names)


def test_shorthand_models_are_left_out_when_a_models_own_entry_uses_the_weapon():
    """sq/1 fires by its own ``models`` entry; the shorthand's models (both out of range) are
    left out rather than failing the step: some model uses the weapon on that target."""
    body = shoot_text('{ "plasma" = "mob" }\nmodels = { "sq/1" = { "plasma" = "mob" } }')
    body = body.replace("[11.5, 10], [45, 10]", "[45, 12], [45, 10]")
    sc = spec(body)
    with Battle(sc, seed=5) as b:
        play(b, sc)
        (cmd,) = [e["command"] for e in events(b, "command")]
        assert [s["model"] for s in cmd["selections"]] == ["sq/1"]
        (out,) = events(b, "left out")
        assert [m[0] for m in out["models"]] == ["sq/2", "sq/3"]
