"""The scenario format of a battle deployed by the rules (26 steps 5-11): `deployment = "rules"`
in [mission], units without `at` waiting to be deployed, `reserves = true` for the formations
the file plans. Bad input gets one clear message (the file, where, expected, found), exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.cli import main
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[2]
GOOD = (ROOT / "scenarios/deployment.toml").read_text()


def check(tmp_path, capsys, text: str) -> tuple[int, str]:
    path = tmp_path / "deploy.toml"
    path.write_text(text)
    code = main(["check", str(path)])
    return code, capsys.readouterr().err.strip()


def test_a_rules_deployment_scenario_loads_with_no_positions(tmp_path, capsys):
    spec = load_scenario(ROOT / "scenarios/deployment.toml")
    assert spec.mission.deployment == "rules" and not spec.mission.deployed
    assert not any(u.planned for u in spec.units)
    assert check(tmp_path, capsys, GOOD)[0] == 0


@pytest.mark.parametrize("change, fragments", [
    (lambda s: s.replace('deployment = "rules"', 'deployment = "by hand"'),
     ["mission.deployment", "'placed' or 'rules'", "'by hand'"]),
    (lambda s: s.replace('deployment = "rules"', 'deployment = "rules"\ndeployed = false'),
     ["mission.deployed", "no 'deployed' in a battle deployed by the rules"]),
    (lambda s: s.replace('deployment = "rules"\n', ''),
     ["at"]),  # placed by the file: every model needs a position
])
def test_a_bad_deployment_field_is_one_clear_error(tmp_path, capsys, change, fragments):
    code, err = check(tmp_path, capsys, change(GOOD))
    assert code == 2 and "Traceback" not in err and err.count("\n") == 0, err
    for f in fragments:
        assert f in err, (f, err)
