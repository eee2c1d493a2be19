"""26 step 8: an army deployed by the rules whose units cannot all be set up wholly within its
zone stops the battle with one clear error giving the placement solver's reason (which model,
the room free and the room needed), exit status 2, no traceback, for every player kind."""

from __future__ import annotations

import pytest

from sim.cli import main

TEXT = """
[battle]
name = "too many tanks"
seed = 1

[weapons.gun]
range = 24
A = 1
BS = 3
S = 4
AP = 0
D = 1

[[armies]]
name = "Red"
[[armies.units]]
id = "tanks"
name = "Tank Column"
keywords = ["VEHICLE"]
models = [{ count = 3, base_mm = 150, M = 10, T = 9, Sv = 3, W = 10, Ld = 6, OC = 3, weapons = ["gun"] }]
[[armies.units]]
id = "more"
name = "Tank Column"
keywords = ["VEHICLE"]
models = [{ count = 3, base_mm = 150, M = 10, T = 9, Sv = 3, W = 10, Ld = 6, OC = 3, weapons = ["gun"] }]

[[armies]]
name = "Blue"
[[armies.units]]
id = "b1"
keywords = ["INFANTRY"]
models = [{ count = 2, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["gun"] }]

[mission]
deployment = "rules"
defender = "red"
first = "red"
zones = { red = [[0, 0], [20, 0], [20, 8], [0, 8]], blue = [[0, 36], [60, 36], [60, 44], [0, 44]] }
"""


@pytest.mark.parametrize("kind", ["default", "random"])
def test_26_08_an_army_that_does_not_fit_its_zone_is_one_clear_error(tmp_path, capsys, kind):
    path = tmp_path / "tanks.toml"
    path.write_text(TEXT)
    code = main(["run", str(path), "--quiet", "--red", kind, "--blue", kind])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err, err
    assert "red's army does not fit its deployment zone" in err and "150 mm round base" in err, err
    assert "sq in free there" in err and "(26 step 8)" in err, err
