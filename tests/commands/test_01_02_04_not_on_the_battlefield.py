"""01.02.04 A unit in strategic reserves is not on the battlefield: it can be neither picked as a
target (04.02 shooting, 04.02 fighting) nor selected to shoot, fight or charge, and the refusal
says so (it is not "destroyed"); a destroyed unit is still refused as destroyed. Nothing changes
on a refusal."""

from __future__ import annotations

import pytest

from phased import mission_scenario, model, unit
from sim.battle import Battle
from sim.cli import main
from sim.commands import DeclareCharge, EndPhase, Fight, Selection, Shoot, StartBattle
from sim.errors import Refusal

GONE = r"is not on the battlefield: it is in strategic reserves \(01\.02\.04\)"


def _spec():
    # red r1 engaged with blue b1 from the start (so red's Fight phase has a fight step), red r2
    # free to shoot; blue's br and red's rr wait in strategic reserves
    red = [unit("r1", model([(30, 20), (31.5, 20)], ["gun", "blade"])),
           unit("r2", model([(10, 6), (11.5, 6)], ["gun"])),
           unit("rr", model([(5, 2), (6.5, 2)], ["gun", "blade"]), reserves=True)]
    blue = [unit("b1", model([(30, 21.5), (31.5, 21.5)], ["gun", "blade"])),
            unit("br", model([(50, 42), (51.5, 42)], ["gun"]), reserves=True)]
    return mission_scenario(red, blue)


def _to(b, phase, step=None):
    while str(b.turn_state.phase) != phase or (step is not None and str(b.turn_state.step) != step):
        b.run_command(EndPhase())


def _refused(b, cmd, match):
    h = b.state_hash()
    with pytest.raises(Refusal, match=match):
        b.submit(cmd)
    assert b.state_hash() == h


def test_01_02_04_shooting_at_a_unit_in_strategic_reserves_says_where_it_is():
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        _to(b, "shooting")
        assert b.turn_state.active == 0
        _refused(b, Shoot("r2", (Selection("r2/1", "gun", "br"),)), r"^r2/1: br " + GONE + "$")
        _refused(b, Shoot("rr", (Selection("rr/1", "gun", "b1"),)), r"^unit rr " + GONE + "$")


def test_01_02_04_fighting_or_charging_with_or_at_a_unit_in_reserves_says_where_it_is():
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        _to(b, "charge")
        _refused(b, DeclareCharge("rr"), r"^unit rr " + GONE + "$")
        _to(b, "fight", "fight")
        _refused(b, Fight("r1", (Selection("r1/1", "blade", "br"),)), r"^r1/1: br " + GONE + "$")
        _refused(b, Fight("rr", (Selection("rr/1", "blade", "b1"),)), r"^unit rr " + GONE + "$")


def test_01_02_04_a_script_step_aimed_at_a_unit_in_reserves_fails_with_where_it_is(tmp_path, capsys):
    """The targets shorthand leaves every model out with that reason, and the step fails as the
    explicit command would (exit status 2, one line)."""
    text = '''[battle]
name = "reserves target"
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
id = "r1"
keywords = ["INFANTRY"]
models = [ { count = 2, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["gun"], at = [[30, 6], [31.5, 6]] } ]
[[armies]]
name = "Blue"
[[armies.units]]
id = "b1"
keywords = ["INFANTRY"]
models = [ { M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["gun"], at = [[30, 38]] } ]
[[armies.units]]
id = "br"
reserves = true
keywords = ["INFANTRY"]
models = [ { M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["gun"], at = [[50, 42]] } ]
[mission]
first = "red"
rounds = 1
players = { red = "scripted", blue = "default" }
deployed = false
[[script]]
shoot = "r1"
targets = { gun = "br" }
'''
    path = tmp_path / "s.toml"
    path.write_text(text)
    assert main(["run", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "is destroyed" not in err
    assert "br is not on the battlefield: it is in strategic reserves (01.02.04)" in err


def test_05_04_04_a_destroyed_target_is_still_refused_as_destroyed():
    from scen import kill
    with Battle(_spec()) as b:
        b.run_command(StartBattle())
        for mid in ("b1/1", "b1/2"):
            kill(b, mid)
        _to(b, "shooting")
        _refused(b, Shoot("r2", (Selection("r2/1", "gun", "b1"),)), r"^r2/1: b1 is destroyed$")
