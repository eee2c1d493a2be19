"""15.05/15.08/15.10 scripted answers: an end_phase step may answer what the end of its phase
asks (the opponent's Fire Overwatch, Smokescreen); "unit -> enemy unit" names a unit and an
enemy of it; `weapons` is a list of weapon names. Bad answers are one clear message when the
file is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOOD = (ROOT / "scenarios/shooting_stratagems.toml").read_text()
OVERWATCH = 'decisions = { stratagem = "wardens -> assault" }'


def check(tmp_path, capsys, text: str) -> tuple[int, str]:
    path = tmp_path / "s.toml"
    path.write_text(text)
    code = main(["check", str(path)])
    return code, capsys.readouterr().err.strip()


def test_the_shipped_answers_check(tmp_path, capsys):
    assert check(tmp_path, capsys, GOOD) == (0, "")


@pytest.mark.parametrize("answer,fragments", [
    ('decisions = { stratagem = "wardens -> veil" }', ["script[1].decisions.stratagem", "unit -> enemy unit", "'wardens -> veil'"]),
    ('decisions = { stratagem = "nobody -> assault" }', ["script[1].decisions.stratagem"]),
    ('decisions = { weapons = "heavy rifle" }', ["script[1].decisions.weapons", "list of weapon names"]),
    ('decisions = { weapons = [1] }', ["script[1].decisions.weapons[0]", "weapon name"]),
    ('decisions = { lethal = "take" }', ["script[1].decisions", "lethal"]),
])
def test_a_bad_answer_in_an_end_phase_step_is_one_clear_message(tmp_path, capsys, answer, fragments):
    bad = GOOD.replace(OVERWATCH, answer)
    assert bad != GOOD
    code, err = check(tmp_path, capsys, bad)
    assert code == 2 and len(err.splitlines()) == 1 and "Traceback" not in err
    for f in fragments:
        assert f in err, (f, err)
