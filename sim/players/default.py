"""The default headless player (Part A rulings 16-29): moves each unit toward the nearest
objective its side does not hold (a FLY unit takes to the skies, 21.03, when that gets it
further than a ground move; in a charge, when no ground charge is found), shoots each unit at the nearest enemy unit it can, charges
the closest enemy unit in reach (ruling 17), piles in and consolidates whenever a legal move
exists (ruling 18), fights with every eligible unit (an unengaged one by an overrun fight,
12.06, piling in when it can), picks and breaks ties by unit order
(ruling 29), uses no stratagem (ruling 25), and answers decisions with their defaults. A unit
that rules let both shoot and declare a charge after advancing (Thrill Seekers) advances toward
its goal instead of a normal move: it loses nothing by it (sim.world.rule_reads
.advancing_costs_nothing); any unit shoots and charges whenever the rules accept it.

Transports (18): at the start of its Movement phase, before any unit moves, each embarked unit
disembarks (its transport not yet moved: a Tactical disembark, then its normal move toward its
goal) when its transport is within 12" of an enemy unit or of the objective it heads for, or
from battle round 2; where, the solver's layout on the side of that objective
(sim.commands.disembark.default_disembark). It never embarks a unit (a transport carries its
passengers to the front once; re-embarking is left to scripts and the random player)."""

from __future__ import annotations

from sim import commands as C
from sim.commands import ChargeMove, DeclareCharge, EndPhase, SelectToMove
from sim.phases.state import FightStep, Phase
from sim.players import deployment as DEP
from sim.players import options as O
from sim.players.base import Choice, Player
from sim.plan.common import could_shoot
from sim.world import queries as W
from sim.world import rule_reads as RR
from sim.commands import charge_command, consolidate_command, pile_in_command


class DefaultPlayer(Player):
    kind = "default"

    def __init__(self, side, battle, scenario):
        super().__init__(side, battle, scenario)
        self._done: set = set()  # (round, active, phase, unit, what) already tried
        self._phase = None

    def _fresh(self, battle) -> None:
        ts = battle.turn_state
        key = (ts.round, ts.active, ts.phase, ts.step, ts.pre_battle)
        if key != self._phase:
            self._phase = key
            self._done.clear()

    def _first_legal(self, battle, candidates):
        for cmd in candidates:
            # (a move the rules would certainly refuse is not checked: options.quick_refusal)
            if cmd is not None and not O.quick_refusal(battle, cmd) and battle.check(cmd) is None:
                return cmd
        return None

    def choose(self, battle) -> Choice:
        self._fresh(battle)
        ts = battle.turn_state
        cmd = None
        if ts.pre_battle is not None:  # (26 steps 7-11)
            return Choice(DEP.choose(battle, self.side, None, self._done), self.name)
        if ts.phase == Phase.MOVEMENT:
            cmd = self._movement(battle)
        elif ts.phase == Phase.SHOOTING:
            cmd = self._shooting(battle)
        elif ts.phase == Phase.CHARGE:
            cmd = self._charge(battle)
        elif ts.phase == Phase.FIGHT:
            cmd = self._fight(battle)
        return Choice(EndPhase() if cmd is None else cmd, self.name)

    # --- phases -------------------------------------------------------------------------
    def _movement(self, battle):
        ts = battle.turn_state
        going = ts.in_progress
        if going is not None and W.unit_state(going).move_selected is None and (going, C.MOVE) not in self._done:
            # (18.04 a Tactical disembark's move comes next)
            self._done.add((going, C.MOVE))
            goal = O.objective_goal(battle, going, self.side)
            cmd = None if goal is None else self._first_legal(
                battle, O.with_turns(battle, going, O.moves_toward(battle, going, goal, "normal")))
            return cmd if cmd is not None else O.Move(O.uid(going), (), "normal")
        for u in O.embarked_units(battle, self.side):
            if (u, C.DISEMBARK) in self._done:
                continue
            self._done.add((u, C.DISEMBARK))
            goal = O.objective_goal(battle, W.embarked_in(u), self.side)
            if ts.round >= 2 or O.near_goal_or_enemy(W.embarked_in(u), goal, 12.0):
                cmd = C.default_disembark(battle, u, goal)
                if cmd is not None:
                    return cmd
        if battle.turn_state.round >= 2:
            for u in O.reserves_units(battle, self.side):
                if (u, C.INGRESS) in self._done:
                    continue
                self._done.add((u, C.INGRESS))
                cmd = self._ingress(battle, u)
                if cmd is not None:
                    return cmd
        for u in O.own_units(battle, self.side):
            st = W.unit_state(u)
            if st.move_selected == "advance" and st.move_type is None and (u, C.MOVE) not in self._done:
                # (the advance it was selected for, toward its goal, M + the roll)
                self._done.add((u, C.MOVE))
                goal = O.objective_goal(battle, u, self.side)
                cmd = None if goal is None else self._first_legal(
                    battle, O.with_turns(battle, u, O.moves_toward(battle, u, goal, "advance", st.advance_roll or 0)))
                return cmd if cmd is not None else O.Move(O.uid(u), (), "advance")
            if st.move_selected is not None or st.move_type is not None or (u, C.MOVE) in self._done:
                continue
            if W.unit_engaged(u):
                self._done.add((u, C.MOVE))
                return O.stationary(u)  # (it stays to fight)
            if RR.advancing_costs_nothing(battle, u) and (u, "advance") not in self._done:
                self._done.add((u, "advance"))  # (a rule lets it shoot and charge after advancing)
                cmd = SelectToMove(O.uid(u), "advance")
                if battle.check(cmd) is None:
                    return cmd
            self._done.add((u, C.MOVE))
            goal = O.objective_goal(battle, u, self.side)
            if goal is not None:
                # (03.01 each step also with its vehicles turned along the way: through a gap lengthwise)
                cmd = self._first_legal(battle, O.with_turns(battle, u, O.moves_toward(battle, u, goal, "normal")))
                if cmd is not None:
                    return cmd
            return O.stationary(u)
        return None

    def _ingress(self, battle, u: int):
        return O.default_ingress(battle, u, self.side)

    def _shooting(self, battle):
        for u in O.own_units(battle, self.side):
            if W.unit_state(u).selected_to_shoot or (u, C.SHOOT) in self._done:
                continue
            self._done.add((u, C.SHOOT))
            # (a unit that qualifies for no shooting type, an engaged one without [PISTOL] or
            # close-quarters weapons say, has every Shoot refused, 10.02: none is built)
            if not O.qualifies_to_shoot(u, battle):
                continue
            # (only the enemies it could shoot at, 04.02's necessary condition: a Shoot at any
            # other is refused, so the first accepted is the same, without planning the rest)
            for e in could_shoot(battle, u, O.enemies_by_distance(u)):
                exp = O.shoot_at(battle, u, e)
                # (a Shoot the expansion knows is refused, a weapon no model can use at ``e``, is
                # not put to the check: Expansion.refused)
                if exp is not None and exp.refused is None and battle.check(exp.command) is None:
                    return exp.command
        return None

    def _charge(self, battle):
        for u in O.own_units(battle, self.side):
            st = W.unit_state(u)
            if st.charge_roll is not None and not st.charge_resolved:
                # (a FLY unit takes to the skies when no ground charge is found, 21.03)
                cmd = charge_command(battle, O.uid(u), None, None, fly=None)
                if cmd.targets and battle.check(cmd) is not None:
                    # (a charge the rules refuse is not made, as one the solver finds no room for:
                    # the battle goes on; the check's verdict is the submit's, asked once)
                    return ChargeMove(O.uid(u), (), ())
                return cmd
            if (u, C.DECLARE_CHARGE) in self._done:
                continue
            self._done.add((u, C.DECLARE_CHARGE))
            if not any(w.is_melee for m in W.unit_models(u) for w in W.weapons_of(m)):
                continue
            cmd = DeclareCharge(O.uid(u))
            if battle.check(cmd) is None:
                return cmd
        return None

    def _fight(self, battle):
        ts = battle.turn_state
        owed = O.pending_fight(battle, self.side)
        if owed is not None:
            return O.owed_fight(battle, owed)
        if ts.step == FightStep.FIGHT:
            u = O.fight_pick(battle, self.side)
            return None if u is None else O.fight_command(battle, u)
        make = pile_in_command if ts.step == FightStep.PILE_IN else consolidate_command
        for u in O.own_units(battle, self.side):
            if (u, ts.step) in self._done:
                continue
            self._done.add((u, ts.step))
            cmd = make(battle, O.uid(u), None, checked=False)  # (None: the unit cannot make that move)
            if cmd is not None and cmd.to and battle.check(cmd) is None:
                return cmd
        return None

