"""The tactician: a player that plays Battlefield Dominance to win, judging its options with the
same rules and the exact odds engine (sim.odds) the battle resolves with (issue 27).

Each phase's choices have one home in this package; the player only dispatches:
* ``attacks``   shooting and fighting: weapons and units to targets, expected value destroyed;
* ``charges``   which charges to declare, pile-in and consolidation targets;
* ``movement``  objectives, threat, advancing, falling back, disembarking, arriving;
* ``decisions`` the answers to decisions: stratagems, allocation, [PRECISION] picks...;
* ``judge``     what an attack is worth (sim.odds), what a unit is worth; ``threat`` the enemy's reach.

Every phase module offers ``candidates(player, battle) -> list[Scored]``: the commands it would
play now, checked legal by the rules, best first (the search player reads them); ``choose`` is
the first. The tactician draws nothing at random (its choices are a function of the battle as it
is, ties broken by unit and option order), never touches the battle's dice, and its commands go
in the log like any player's: a battle is the same for a seed, and a replay needs no player.
"""

from __future__ import annotations

from sim.commands import EndPhase
from sim.phases.state import Phase
from sim.players.base import Choice, Player, to_the_end
from sim.players.default import DefaultPlayer
from sim.players.tactician.scored import Scored


class TacticianPlayer(Player):
    kind = "tactician"
    step_words = "units weighed"

    def __init__(self, side, battle, scenario):
        super().__init__(side, battle, scenario)
        # the default player's choices for what the tactician does not judge itself (and its
        # record of what it tried this phase, shared: sim.players.default)
        self.fallback = DefaultPlayer(side, battle, scenario)
        self.memo: dict = {}  # per phase: what the phase modules worked out once (cleared with it)
        # (True while choose asks for the best option alone, not explaining: the phase modules
        # may then stop at the first legal one instead of finding their TOP; the same choice)
        self.first_only = False
        self._phase_key = None

    def fresh(self, battle) -> None:
        """A new phase or step: forget what was tried and worked out in the last one."""
        ts = battle.turn_state
        key = (ts.round, ts.active, ts.phase, ts.step, ts.pre_battle)
        if key != self._phase_key:
            self._phase_key = key
            self.memo.clear()
        self.fallback._fresh(battle)

    def candidates(self, battle) -> list[Scored]:
        """The commands the tactician would play now, legal, best first (empty: end the phase)."""
        from sim.players.tactician import attacks, charges, movement
        self.fresh(battle)
        ts = battle.turn_state
        if ts.pre_battle is not None:  # (26 steps 7-11)
            return movement.deploy_candidates(self, battle)
        if ts.phase == Phase.MOVEMENT:
            return movement.candidates(self, battle)
        if ts.phase == Phase.SHOOTING:
            return attacks.shooting_candidates(self, battle)
        if ts.phase == Phase.CHARGE:
            return charges.candidates(self, battle)
        if ts.phase == Phase.FIGHT:
            return attacks.fight_candidates(self, battle)
        return []

    def choose(self, battle) -> Choice:
        return to_the_end(self.thinking(battle))

    def thinking(self, battle):
        """``choose`` a step at a time (Player.thinking): in the Shooting phase, a unit's options
        at a time (sim.players.tactician.attacks.shooting_thinking: the first choice of a
        full-size army's phase weighs every unit's); elsewhere one step."""
        from sim.players.tactician import attacks
        ts = battle.turn_state
        self.first_only = not self.explaining
        try:
            if ts.pre_battle is None and ts.phase == Phase.SHOOTING:
                self.fresh(battle)
                cands = yield from attacks.shooting_thinking(self, battle)
            else:
                cands = self.candidates(battle)
        finally:
            self.first_only = False
        return self._choice(cands)

    def _choice(self, cands: list[Scored]) -> Choice:
        """The Choice of the best candidate (none: end the phase)."""
        if not cands:
            return Choice(EndPhase(), self.name)
        best = cands[0]
        return Choice(best.command, self.name, why=best.label or None, expected=best.expect or None)

    def answer(self, battle, request):
        from sim.players.tactician import decisions
        return decisions.answer(self, battle, request)


__all__ = ["Scored", "TacticianPlayer"]
