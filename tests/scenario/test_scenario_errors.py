"""Bad scenario input gets one clear message naming the file, the path inside it, what was
expected and what was found; exit status 2; never a traceback; nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOOD = (ROOT / "scenarios/worked_example_pools.toml").read_text()


def run_cli(tmp_path, text: str, *args: str, capsys=None, cmd: str = "check"):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    log = tmp_path / "out.jsonl"
    extra = ["--log", str(log)] if cmd == "run" else []
    code = main([cmd, str(path), *extra, *args])
    out = capsys.readouterr()
    return code, out.err.strip(), log


CASES = [
    # (description, transformation of the good file, expected fragments of the message)
    ("not TOML", lambda s: s + "\n[[[", ["expected valid TOML"]),
    ("unknown field", lambda s: s.replace('name = "Wardens"', 'name = "Wardens"\nflag = 1'),
     ["armies[0].flag", "unknown field 'flag'"]),
    ("wrong type", lambda s: s.replace("seed = 5", 'seed = "five"'), ["battle.seed", "whole number", "'five'"]),
    ("W <= 0", lambda s: s.replace('Sv = 3, W = 2, Ld = 6, OC = 2, weapons = ["rifle"]', 'Sv = 3, W = 0, Ld = 6, OC = 2, weapons = ["rifle"]'),
     ["armies[0].units[0].models[0].W", "W of 1 or more", "found 0"]),
    ("BS out of range", lambda s: s.replace("BS = 3\nS = 4\nAP = 0\nD = 1\n\n[weapons.\"sidearm\"]", "BS = 7\nS = 4\nAP = 0\nD = 1\n\n[weapons.\"sidearm\"]"),
     ["weapons.rifle.BS", "2 to 6", "found 7"]),
    ("undefined weapon", lambda s: s.replace('weapons = ["heavy rifle"]', 'weapons = ["laser"]'),
     ["armies[0].units[0].models[2].weapons[0]", "a weapon defined under [weapons]", "'laser'"]),
    ("duplicate unit id", lambda s: s.replace('id = "raiders"', 'id = "wardens"'),
     ["armies[1].units[0].id", "not used before", "'wardens'"]),
    ("off the board", lambda s: s.replace("[[10, 20], [11.5, 20]", "[[-3, 20], [11.5, 20]"),
     ["armies[0].units[0].models[0].at[0]", "wholly on the 60\"x44\" board", "(-3, 20)"]),
    ("overlapping bases", lambda s: s.replace("[[10, 20], [11.5, 20]", "[[10, 20], [10.5, 20]"),
     ["armies[0].units[0].models[0].at[1]", "overlaps no other model", "wardens/1"]),
    ("unknown ability", lambda s: s.replace('abilities = "[PISTOL]"', 'abilities = "[PISTOL, HAZARDUS]"'),
     ["weapons.sidearm.abilities", "HAZARDUS", "did you mean \"HAZARDOUS\"", "'sidearm'"]),
    ("malformed ability", lambda s: s.replace('abilities = "[HEAVY]"', 'abilities = "[ANTI-VEHICLE]"'),
     ["weapons.heavy rifle.abilities", "ANTI-VEHICLE"]),
    ("self-intersecting terrain", lambda s: s.replace("[weapons.\"rifle\"]",
     '[[terrain]]\narea = [[30, 30], [40, 40], [40, 30], [30, 40]]\nfeatures = [{ category = "dense", polygon = [[31, 31], [32, 31], [32, 32]] }]\n\n[weapons."rifle"]'),
     ["terrain[0]", "self-intersect"]),
    ("feature outside its area", lambda s: s.replace("[weapons.\"rifle\"]",
     '[[terrain]]\narea = [[30, 30], [36, 30], [36, 36], [30, 36]]\nfeatures = [{ category = "dense", polygon = [[35, 35], [39, 35], [39, 37]] }]\n\n[weapons."rifle"]'),
     ["terrain[0].features[0]"]),
    ("terrain off the board", lambda s: s.replace("[weapons.\"rifle\"]",
     '[[terrain]]\npiece = "ruins"\nat = [58, 40]\n\n[weapons."rifle"]'),
     ["terrain[0]"]),
    ("terrain height not a number", lambda s: s.replace("[weapons.\"rifle\"]",
     '[[terrain]]\narea = [[30, 30], [36, 30], [36, 36], [30, 36]]\nfeatures = [{ category = "dense", polygon = [[31, 31], [35, 31], [35, 32]], height = "tall" }]\n\n[weapons."rifle"]'),
     ["terrain[0].features[0].height", "a height in inches", "'tall'"]),
    ("terrain height not above 0", lambda s: s.replace("[weapons.\"rifle\"]",
     '[[terrain]]\narea = [[30, 30], [36, 30], [36, 36], [30, 36]]\nfeatures = [{ category = "dense", polygon = [[31, 31], [35, 31], [35, 32]], height = 0 }]\n\n[weapons."rifle"]'),
     ["terrain[0].features[0].height", "above 0 and at most 100", "found 0"]),
    ("terrain height on a light feature", lambda s: s.replace("[weapons.\"rifle\"]",
     '[[terrain]]\narea = [[30, 30], [36, 30], [36, 36], [30, 36]]\nfeatures = [{ category = "light", polygon = [[31, 31], [35, 31], [35, 32]], height = 1.5 }]\n\n[weapons."rifle"]'),
     ["terrain[0].features[0].height", "only on a dense feature", "light feature"]),
    ("terrain height on a piece without dense features", lambda s: s.replace("[weapons.\"rifle\"]",
     '[[terrain]]\npiece = "woods"\nat = [30, 30]\nheight = 2\n\n[weapons."rifle"]'),
     ["terrain[0].height", "a piece with dense features", "woods"]),
    ("an AIRCRAFT unit (Part A ruling 28)", lambda s: s.replace('id = "raiders"\nname = "Raider Mob"\nkeywords = ["INFANTRY"]',
     'id = "raiders"\nname = "Raider Mob"\nkeywords = ["INFANTRY", "Aircraft"]'),
     ["armies[1].units[0].keywords", "a unit that is not AIRCRAFT (not in this version: Part A ruling 28)",
      "found AIRCRAFT unit 'raiders'"]),
    ("an AIRCRAFT model (Part A ruling 28)", lambda s: s.replace('{ name = "Warden Gunner", base_mm = 32,',
     '{ name = "Warden Gunner", keywords = ["AIRCRAFT"], base_mm = 32,'),
     ["armies[0].units[0].models[2].keywords", "not AIRCRAFT", "found AIRCRAFT unit 'wardens'"]),
    ("script names an unknown unit", lambda s: s.replace('shoot = "wardens"', 'shoot = "nobody"'),
     ["script[0].shoot", "'nobody'"]),
]


@pytest.mark.parametrize("name,change,fragments", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("cmd", ["check", "run"])
def test_bad_scenario_is_one_clear_message(tmp_path, capsys, name, change, fragments, cmd):
    bad = change(GOOD)
    assert bad != GOOD, "the test's transformation did not apply"
    code, err, log = run_cli(tmp_path, bad, capsys=capsys, cmd=cmd)
    assert code == 2
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"sim: {tmp_path / 'bad.toml'}")
    for f in fragments:
        assert f in err, f"{f!r} not in {err!r}"
    assert not log.exists(), "nothing may be written on bad input"


def test_good_scenario_checks(tmp_path, capsys):
    code, err, _ = run_cli(tmp_path, GOOD, capsys=capsys)
    assert code == 0 and err == ""


def test_missing_file(tmp_path, capsys):
    assert main(["check", str(tmp_path / "nope.toml")]) == 2
    err = capsys.readouterr().err
    assert "nope.toml" in err and "readable scenario file" in err


def test_script_the_rules_refuse_is_a_clear_error(tmp_path, capsys):
    """A scripted command the rules refuse (a model firing its sidearm and its rifle) names the
    script step and the reason, and writes no log."""
    bad = GOOD.replace('targets = { "rifle" = "raiders", "sidearm" = "raiders", "heavy rifle" = "raiders" }',
                       'targets = { "rifle" = "raiders" }\nmodels = { "wardens/5" = { "sidearm" = "raiders" }, '
                       '"wardens/1" = { "rifle" = "raiders", "sidearm" = "raiders" } }')
    bad = bad.replace('weapons = ["rifle"], at = [[10, 20]', 'weapons = ["rifle", "sidearm"], at = [[10, 20]')
    code, err, log = run_cli(tmp_path, bad, capsys=capsys, cmd="run")
    assert code == 2
    assert "script[0]" in err and "24.07" in err and "never both" in err
    assert not log.exists()


def test_replay_of_garbage_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "x.jsonl"
    bad.write_text("not json\n")
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "line 1" in err and "Traceback" not in err


def test_scripted_decision_the_rules_refuse_is_a_clear_error(tmp_path, capsys):
    """A scripted answer that is not among the options (a CHARACTER who is not in the target)
    names the script step and the decision, exits 2 and writes no log."""
    text = (ROOT / "scenarios/precision_leader_visible.toml").read_text()
    bad = text.replace('targets = { "long rifle" = "retinue" }',
                       'targets = { "long rifle" = "retinue" }\ndecisions = { precision = "nobody" }')
    assert bad != text
    code, err, log = run_cli(tmp_path, bad, capsys=capsys, cmd="run")
    assert code == 2
    assert "script[0].decisions.precision" in err and "'nobody'" in err
    assert not log.exists()
