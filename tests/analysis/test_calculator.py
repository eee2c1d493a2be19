"""The odds calculator (sim.analysis.calculator, `sim odds --attacker/--defender`): units from
catalogues, rosters and scenarios; the conditions change the odds as the rules say; bad input is
one line and exit status 2. The invented catalogue: tests/importers/data/cat_xml."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from sim.analysis import calculator as C
from sim.errors import ScenarioError

ROOT = Path(__file__).resolve().parents[2]
CAT = str(ROOT / "tests/importers/data/cat_xml/Ashen Concord.cat")
CATZ = str(ROOT / "tests/importers/data/cat_zip/Ashen Concord.catz")
ROSTER = str(ROOT / "tests/importers/data/ashen.ros")
SCENARIO = str(ROOT / "scenarios/battle_default.toml")


def one(att, dfn, **cond):
    return C.columns(att, dfn, C.Conditions(**cond))[0]


def test_charged_hounds_on_wardens_by_hand():
    # 5 hounds x 3 attacks, WS 4+ with [SUSTAINED HITS 1]: 15 x (1/2 + 1/6) = 10 hits; S4 v T4
    # wounds on 4+ (the anti ability needs INFANTRY 4+ too): 5 wounds; AP -1 against Sv 3+: 4+,
    # half saved: 2.5 damage, D1 on W2 models
    c = one(C.load_unit(CAT, "Ember Hounds"), C.load_unit(CAT, "Warden Blades", "--defender"), charged=True)
    assert c.attacks == pytest.approx(15.0)
    assert c.hits == pytest.approx(10.0)
    assert c.wounding == pytest.approx(5.0)
    assert c.damage.mean == pytest.approx(2.5, abs=1e-4)  # (less a little: 10 wounds at most)
    assert c.models == 5 and c.method == "exact"
    assert sum(c.destroyed.p) == pytest.approx(1.0, abs=1e-12)


def test_stationary_gives_heavy_and_cover_worsens_the_bs():
    strider, wardens = C.load_unit(CAT, "Furnace Strider"), C.load_unit(CAT, "Ember Hounds", "--defender")
    moved, still = one(strider, wardens, range=20), one(strider, wardens, range=20, stationary=True)
    assert still.hits > moved.hits  # (24.16 [HEAVY]: +1 to hit, Slag cannon)
    open_, covered = one(strider, wardens, range=20, stationary=True), \
        one(strider, wardens, range=20, stationary=True, cover=True)
    assert covered.hits == pytest.approx(11 * 3 / 6)  # (13.08: BS 4+ worsened to 5+, then [HEAVY] +1)
    assert covered.damage.mean < open_.damage.mean


def test_range_leaves_out_weapons_that_cannot_reach():
    wardens, hounds = C.load_unit(CAT, "Warden Blades"), C.load_unit(CAT, "Ember Hounds", "--defender")
    near, far = one(wardens, hounds, range=12), one(wardens, hounds, range=20)
    assert far.attacks < near.attacks  # (rapid fire 1 within half range; the pistol within 12")
    assert not one(wardens, hounds, range=30).answered


def test_weapons_side_by_side_add_up():
    cols = C.columns(C.load_unit(CAT, "Warden Blades"), C.load_unit(CAT, "Ember Hounds", "--defender"),
                     C.Conditions(range=12, stationary=True), per_weapon=True)
    assert [c.label for c in cols] == ["Warden Blades", "Warden Blades: Flux pistol - steady",
                                       "Warden Blades: Arc carbine"]
    assert cols[0].attacks == pytest.approx(sum(c.attacks for c in cols[1:]))
    assert cols[0].hits == pytest.approx(sum(c.hits for c in cols[1:]))


def test_catalogue_forms_roster_and_scenario_give_the_same_unit():
    a = one(C.load_unit(CAT, "Furnace Strider"), C.load_unit(SCENARIO, "Raider Mob", "--defender"), range=10)
    b = one(C.load_unit(CATZ, "furnace strider"), C.load_unit(SCENARIO, "Raider Mob", "--defender"), range=10)
    r = one(C.load_unit(ROSTER, "Furnace Strider"), C.load_unit(SCENARIO, "Raider Mob", "--defender"), range=10)
    assert a.damage.mean == pytest.approx(b.damage.mean) == pytest.approx(r.damage.mean)


def test_two_units_of_one_name_are_told_apart():
    first, second = C.load_unit(SCENARIO, "Raider Mob"), C.load_unit(SCENARIO, "Raider Mob (2)")
    assert first.unit.id != second.unit.id
    assert second.shown == "Raider Mob (2)"
    # (the sandbox's numbering, sim.names': "Raider Mob (1)" is the first, as `sim odds --unit` reads it)
    assert C.load_unit(SCENARIO, "raider mob (1)").unit.id == first.unit.id
    assert C.load_unit(SCENARIO, "Raider Mob (3)").unit.id not in (first.unit.id, second.unit.id)


def test_unknown_unit_names_the_close_ones():
    with pytest.raises(ScenarioError, match="close: 'Raider Mob'"):
        C.load_unit(SCENARIO, "Raidr Mob")
    with pytest.raises(ScenarioError, match="did you mean 'Warden Blades'"):
        C.load_unit(CAT, "Warden Bladez")


def test_text_shows_percentages_and_at_least_k():
    cond = C.Conditions(charged=True)
    out = C.text(C.columns(C.load_unit(CAT, "Ember Hounds"), C.load_unit(CAT, "Warden Blades"), cond), cond)
    assert "destroy the unit" in out and "at least 5 models" in out and "%" in out
    assert "a:" not in out and "d:" not in out


def _sim(*args):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sim", "odds", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)


JSON_ARGS = ("--attacker", CAT, "Warden Blades", "--defender", CAT, "Ember Hounds", "--weapons", "--json")
BAD = [
    (["--attacker", CAT, "Nobody", "--defender", CAT, "Ember Hounds"], "it holds 'Warden Blades'"),
    (["--attacker", CAT, "Ember Hounds"], "found only --attacker"),
    (["--attacker", "/no/such.cat", "X", "--defender", CAT, "Ember Hounds"], "no such file"),
    (["--attacker", CAT, "Ember Hounds", "--defender", CAT, "Warden Blades", "--charged", "--cover"], "--cover"),
    (["--attacker", CAT, "Ember Hounds", "--defender", CAT, "Warden Blades", "--range", "-3"], "--range"),
    ([SCENARIO, "--attacker", CAT, "Ember Hounds", "--defender", CAT, "Warden Blades"], "found both"),
    ([], "found neither"),
]


@pytest.fixture(scope="module")
def cli_runs(tmp_path_factory):
    """The command lines below run once each through the real command line in one interpreter
    (tests/support/hostile_driver.py: each as `python -m sim ARGS` runs it, its exit status and
    its stdout and stderr apart), keyed by their arguments: one interpreter start and import of
    the odds machinery (~1.4 s CPU) for all of them, not one each. test_cli_prints_the_odds
    still starts `python -m sim` itself."""
    jobs = [["odds", *JSON_ARGS]] + [["odds", *args] for args, _ in BAD]
    d = tmp_path_factory.mktemp("odds_cli")
    (d / "jobs.json").write_text(json.dumps(jobs))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, str(ROOT / "tests/support/hostile_driver.py"), str(d / "jobs.json"),
                        str(d / "results.json")], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads((d / "results.json").read_text())["results"]
    assert len(res) == len(jobs)

    def text(x: str) -> str:  # (the driver sends the bytes as Latin-1 text)
        return x.encode("latin-1").decode("utf-8")

    return {tuple(j[1:]): SimpleNamespace(returncode=x["rc"], stdout=text(x["stdout"]), stderr=text(x["stderr"]))
            for j, x in zip(jobs, res)}


def test_cli_prints_the_odds():
    r = _sim("--attacker", CAT, "Ember Hounds", "--defender", SCENARIO, "Raider Mob", "--charged")
    assert r.returncode == 0, r.stderr
    assert "Ember Hounds" in r.stdout and "Raider Mob" in r.stdout and "at least 1 model" in r.stdout


def test_cli_json_for_machines(cli_runs):
    r = cli_runs[JSON_ARGS]
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["conditions"]["range"] == 12.0 and len(doc["columns"]) == 3
    whole = doc["columns"][0]
    assert whole["label"] == "Warden Blades" and 0 <= whole["p_destroy_unit"] <= 1
    assert abs(sum(whole["models_destroyed"]["p"]) - 1) < 1e-12


@pytest.mark.parametrize("args, says", BAD)
def test_cli_bad_input_is_one_line_and_status_2(cli_runs, args, says):
    r = cli_runs[tuple(args)]
    assert r.returncode == 2
    assert says in r.stderr and "Traceback" not in r.stderr
