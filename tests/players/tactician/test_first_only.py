"""The tactician's own choice stops at the first legal option (TacticianPlayer.first_only: its
movement checks candidates until one is legal, not three, and asks no stay-put move then), and
skips the check of moves the rules would certainly refuse (options.quick_refusal): a battle
played so is the same, event for event, as one where every candidate list is made in full."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from sim.battle import Battle
from sim.commands import EndPhase
from sim.players import options as O
from sim.players import play_battle
from sim.players.base import Choice
from sim.players.tactician import TacticianPlayer
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[3]


class InFull(TacticianPlayer):
    """The tactician choosing from its full candidate lists (as the search player and --explain
    read them)."""

    def choose(self, battle) -> Choice:
        cands = self.candidates(battle)
        if not cands:
            return Choice(EndPhase(), self.name)
        return Choice(cands[0].command, self.name, why=cands[0].label or None)


def events(player_class, seed: int) -> list[dict]:
    s = load_scenario(ROOT / "scenarios/battle_default.toml")
    s = dataclasses.replace(s, mission=dataclasses.replace(s.mission, players=("tactician", "tactician")))
    with Battle(s, seed=seed) as b:
        play_battle(b, s, players=[player_class(side, b, s) for side in (0, 1)])
        return b.events


def test_the_battle_is_the_same_as_with_full_candidate_lists(monkeypatch):
    fast = events(TacticianPlayer, 12)
    monkeypatch.setattr(O, "quick_refusal", lambda battle, cmd: False)
    assert events(InFull, 12) == fast
