"""Every command that carries positions holds them on the measuring grid (sim.commands.base.on_grid,
sim.rules.grid): whoever made it, the check, the apply and the log see the one snapped position."""

from __future__ import annotations

import json
import math

import esper
import numpy as np
import pytest

from scen import model, scenario, unit
from sim.battle import Battle
from sim.commands import (RECORDS, ChargeMove, Consolidate, Deploy, Disembark, Ingress, Move, Overrun, PileIn,
                          ScoutMove, from_dict, to_dict)
from sim.commands.base import TO
from sim.components import Position
from sim.errors import Refusal

GUN = {"gun": {"range": 24, "A": 1, "BS": 3, "S": 4, "AP": 0, "D": 1}}
RAW = (("r1/1", 10.123456789, np.float64(14.0000004999)),)
SNAPPED = (("r1/1", 10.123457, 14.0),)


def test_every_command_kind_with_positions_snaps_them():
    with_to = {r.cls for r in RECORDS if TO in r.fields}
    made = {Move("r1", RAW), ChargeMove("r1", ("b1",), RAW), PileIn("r1", RAW), Consolidate("r1", RAW),
            Overrun("r1", RAW), Deploy("r1", RAW), ScoutMove("r1", RAW), Disembark("r1", RAW), Ingress("r1", RAW)}
    assert {type(c) for c in made} == with_to       # (a new kind with positions must be listed here)
    for c in made:
        assert c.to == SNAPPED and type(c.to[0][2]) is float, type(c).__name__


def test_turning_points_are_snapped_and_a_command_reads_back_from_its_log_unchanged():
    c = Move("r1", RAW, via=(("r1/1", ((11.00000049, 12.5555555555),)),))
    assert c.via == (("r1/1", ((11.0, 12.555556),)),)
    text = json.dumps(to_dict(c))
    assert "10.123457" in text and "12.555556" in text and "10.123456789" not in text
    assert from_dict(json.loads(text)) == c


def test_a_move_proposed_off_the_grid_is_checked_and_made_at_the_snapped_position():
    spec = scenario(GUN, [unit("r1", model((10, 10), ["gun"], M=6))], [unit("b1", model((50, 40), ["gun"]))])
    with Battle(spec) as b:
        cmd = Move("r1", (("r1/1", 10 + math.pi / 3, 10 + math.e / 2),))
        assert b.check(cmd) is None
        b.run_command(cmd)
        p = esper.component_for_entity(b.models["r1/1"], Position)
        assert (p.x, p.y) == (11.047198, 11.359141)
        moved = [e for e in b.events if e.get("type") == "moved"][-1]
        assert moved["to"] == [["r1/1", 11.047198, 11.359141]]


def test_a_move_that_is_no_number_is_still_refused_by_name():
    spec = scenario(GUN, [unit("r1", model((10, 10), ["gun"], M=6))], [unit("b1", model((50, 40), ["gun"]))])
    with Battle(spec) as b:
        for bad in (math.nan, math.inf, 1e300):
            with pytest.raises(Refusal, match=r"r1/1 would go off the battlefield"):
                b.submit(Move("r1", (("r1/1", bad, 10.0),)))
