"""The sandbox opens a generated full-size battle (issue 24 item 5: tools/make_armies.py, two
20-unit armies of the invented catalogues of tests/importers/full_size.py, deployed by the
rules): before the battle every unit waits off the table; once the default players have deployed
both armies through the sandbox's battle, it draws every model where it was set up, wholly
within its zone (or, Infiltrators, where they were set up). Writes
tests/sandbox/screenshots/full-size-*.png (git-ignored) for a person to look at."""

from __future__ import annotations

import sys

import esper
import pygame

from sandbox_support import ROOT, shot
from sim.commands import StartBattle
from sim.components import Position
from sim.players.loop import make_player
from sim.players.resolve import submit_and_resolve
from sim.world import queries as W

sys.path[:0] = [str(ROOT / "tools"), str(ROOT / "tests" / "importers")]
import full_size  # noqa: E402
import make_armies  # noqa: E402

SHOTS = ROOT / "tests" / "sandbox" / "screenshots"


def test_the_sandbox_opens_a_full_size_battle_and_draws_it_deployed(make, tmp_path):
    folder = full_size.write(tmp_path / "catalogues")
    path = tmp_path / "full_size.toml"
    path.write_text(make_armies.scenario(folder, "Ember Pact", "Glass Choir", seed=3))
    d = make(path)
    sb = d.sb
    d.pump(3)
    SHOTS.mkdir(exist_ok=True)
    shot(sb.draw(), SHOTS / "full-size-before.png")
    b = sb.battle
    b._enter()
    assert len(b.units) == 40 and all(W.undeployed(u) for u in b.units.values())
    players = [make_player("default", side, b, b.scenario) for side in (0, 1)]

    def by_player(req):
        return players[req.player].answer(b, req)

    submit_and_resolve(b, b.scenario, "start", StartBattle(), by_player, None)
    ts = b.turn_state
    while ts.round == 0:
        c = players[ts.chooser].choose(b)
        submit_and_resolve(b, b.scenario, c.where, c.command, c.answer or by_player, None, c.step, c.left_out)
    d.pump(3)
    shot(sb.draw(), SHOTS / "full-size-deployed.png")
    b._enter()
    on_table = [mid for mid, m in b.models.items() if W.on_table(m)]
    assert len(on_table) == len(b.models) > 100
    for mid in on_table:  # the scene draws each model where the battle has it
        p = esper.component_for_entity(b.models[mid], Position)
        assert (sb.scene.models[mid].x, sb.scene.models[mid].y) == (p.x, p.y)
