"""26 step 8: an army deployed by the rules whose units cannot all be set up wholly within its
zone stops the battle with one clear error giving the placement solver's reason (which model,
the room free and the room needed), exit status 2, no traceback, for every player kind."""

from __future__ import annotations

import pytest
from too_many_tanks import TEXT

from sim.cli import main


@pytest.mark.parametrize("kind", ["default", "random"])
def test_26_08_an_army_that_does_not_fit_its_zone_is_one_clear_error(tmp_path, capsys, kind):
    path = tmp_path / "tanks.toml"
    path.write_text(TEXT)
    code = main(["run", str(path), "--quiet", "--red", kind, "--blue", kind])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err, err
    assert "red's army does not fit its deployment zone" in err and "150 mm round base" in err, err
    assert "sq in free there" in err and "(26 step 8" in err, err


def test_26_08_the_error_names_the_file_of_a_scenario_parsed_from_data():
    """A scenario made in memory (parse_scenario: tools/make_armies.py's, the benchmarks') is
    named in the error by the file it was parsed as, not by an empty name (": red's army ...")."""
    import tomllib

    from sim.battle import Battle
    from sim.errors import ScriptError
    from sim.players import play_battle
    from sim.scenario.load import parse_scenario
    spec = parse_scenario(tomllib.loads(TEXT), "generated.toml")
    assert spec.path == "generated.toml"
    with Battle(spec) as b, pytest.raises(ScriptError) as e:
        play_battle(b, spec)
    assert str(e.value).startswith("generated.toml: red's army does not fit its deployment zone"), str(e.value)
