"""The random player: at each choice, a uniformly random legal command among what its side
can do now (sim.players.options; a FLY unit takes to the skies, 21.03, on a fair coin; of a
multi-profile weapon, a profile picked uniformly for the unit, 04.01.03), and uniformly random
answers to decisions with a list of options (18: any disembark the rules allow, in a layout of
the solver's picked at random; after a move, on a fair coin, an embark in a transport that can
take the unit then). Its stream is its own (seeded from the battle's seed and its side, read with
``random()`` only: stable across Python versions), so the battle's dice are untouched and a
replay log, which holds the commands, needs no player."""

from __future__ import annotations

import math
import random
from dataclasses import replace

from sim import commands as C
from sim.commands import DeclareCharge, EndPhase, SelectToMove
from sim.phases.state import FightStep, Phase
from sim.players import deployment as DEP
from sim.players import options as O
from sim.players.base import Choice, Player
from sim.plan import moves as MV
from sim.rules.movement.moves import ConsolidationMode
from sim.rules.grid import snap
from sim.rules.movement.solvers import pile_in as PS
from sim.plan.common import could_shoot, could_shoot_candidates
from sim.plan.fight import was_eligible_to_fight
from sim.rules.movement.moves import sky_distance
from sim.world import queries as W
from sim.commands import charge_command, consolidate_command, overrun_command, pile_in_command

TRIES = 4  # random destinations tried per move before the unit remains stationary


class _ShootOptions:
    """The random player's Shooting phase options, made when drawn: option ``i < n * m`` is the
    Shoot of shooter ``i // m`` at enemy ``i % m`` (None when no plan could accept it), the
    last one End Phase. A unit that qualifies for no shooting type has no target (asked once
    a choice); otherwise could_shoot of the one pair drawn: its answer for a target is the
    same alone as among all of the unit's targets, and the pairs never drawn are never asked,
    nor their sight resolved (a large table has many units out of each other's reach); a pair
    drawn whose target is out of every reach of the unit (could_shoot_candidates, could_shoot's
    own first step) is None without asking more. Those targets are asked once per unit while
    no model moves or comes onto the battlefield (``kept``, the player's: unit -> (spatial
    index, its layout_version, the candidates then)): a removal since only takes models away
    (no distance shrinks, no reach grows, no target comes), so the targets kept then hold every
    target within reach now, and a drawn pair among them is asked of could_shoot, which answers
    for now (its first step again). Of a multi-profile weapon, a profile picked uniformly for
    the unit (04.01.03)."""

    __slots__ = ("battle", "shooters", "enemies", "pick", "qualifies", "candidates", "kept")

    def __init__(self, battle, shooters: list[int], enemies: list[int], pick, kept: dict) -> None:
        self.battle, self.shooters, self.enemies, self.pick = battle, shooters, enemies, pick
        self.qualifies: dict[int, bool] = {}
        self.candidates: dict[int, frozenset] = {}
        self.kept = kept

    def __len__(self) -> int:
        return len(self.shooters) * len(self.enemies) + 1

    def __getitem__(self, i: int):
        m = len(self.enemies)
        if i == len(self.shooters) * m:
            return EndPhase()
        u, e = self.shooters[i // m], self.enemies[i % m]
        near = self.candidates.get(u)
        if near is None:
            near = self.candidates[u] = self.near(u)
        if e not in near:  # (could_shoot would refuse it: no plan either)
            return None
        q = self.qualifies.get(u)
        if q is None:
            q = self.qualifies[u] = O.qualifies_to_shoot(u, self.battle)
        if q and could_shoot(self.battle, u, (e,)):
            # (could_shoot only skips what no plan would accept, unplanned)
            return O.shoot_command(self.battle, u, e, self.pick)
        return None

    def near(self, u: int) -> frozenset:
        """The enemies that may be within some reach of ``u`` now: could_shoot_candidates of
        ``u``, as kept since no model moved or came onto the battlefield (every one within
        reach now is among them; a removal since may have taken some out of reach)."""
        sp = W.spatial()
        got = self.kept.get(u)
        if got is not None and got[0] is sp and got[1] == sp.layout_version:
            return got[2]
        near = frozenset(could_shoot_candidates(u, self.enemies))
        self.kept[u] = (sp, sp.layout_version, near)
        return near


class _MoveOptions:
    """The random player's Movement phase options, made when drawn: ``prefix`` (strategic
    reserves' ingress and disembarkations, each a function making its command), then three
    per unit of ``free`` (not yet selected to move), in unit order: remains stationary; an
    engaged unit a fall-back move, one that is not a normal move; an engaged unit selected for
    a desperate escape, one that is not to advance; the last one End Phase. Whether a unit is
    engaged is read when its option is drawn (the choice checks commands, it changes nothing,
    so the same as when the choice began)."""

    __slots__ = ("player", "battle", "prefix", "free")

    def __init__(self, player, battle, prefix: list, free: list[int]) -> None:
        self.player, self.battle, self.prefix, self.free = player, battle, prefix, free

    def __len__(self) -> int:
        return len(self.prefix) + 3 * len(self.free) + 1

    def __getitem__(self, i: int):
        i -= len(self.prefix)
        if i < 0:
            return self.prefix[i]
        if i == 3 * len(self.free):
            return EndPhase()
        u, k = self.free[i // 3], i % 3
        if k == 0:
            return O.stationary(u)
        engaged = W.unit_engaged(u)
        if k == 1:
            return self.player._random_move(self.battle, u, "fall back" if engaged else "normal")
        return SelectToMove(O.uid(u), "desperate escape" if engaged else "advance")


class RandomPlayer(Player):
    kind = "random"

    def __init__(self, side, battle, scenario):
        super().__init__(side, battle, scenario)
        self.rng = random.Random(f"sim-random-player/{battle.seed}/{side}")
        self._step, self._tried = None, set()  # (the pre-battle step, and the units given up in it)
        self._near: dict = {}  # (_ShootOptions.kept: each unit's targets within reach, by layout)
        self._carriers = None  # (_transports: (spatial index, presence_version, the units))

    def _pick(self, items: list):
        return items[int(self.rng.random() * len(items))] if items else None

    def answer(self, battle, request):
        if request.kind in ("precision", "duplicate", "lethal_hits", "stratagem", "role", "rule_choice",
                            "rule_reroll", "oath", "oath_target",
                            "dice_pool") and request.options:  # (dice_pool)
            return self._pick(list(request.options))
        return request.default

    def choose(self, battle) -> Choice:
        ts = battle.turn_state
        if ts.pre_battle is not None:  # (26 steps 7-11)
            if ts.pre_battle != self._step:
                self._step, self._tried = ts.pre_battle, set()
            return Choice(DEP.choose(battle, self.side, self._pick, self._tried), self.name)
        options = self._options(battle, ts)
        order = list(range(len(options)))
        if type(options) is _ShootOptions:
            return self._draw_shot(battle, options, order)
        while order:  # a uniformly random option that the rules accept
            i = order.pop(int(self.rng.random() * len(order)))
            cmd = options[i]
            if callable(cmd):
                cmd = cmd()
            if cmd is not None and battle.check(cmd) is None:
                return Choice(cmd, self.name)
        return Choice(EndPhase(), self.name)

    def _draw_shot(self, battle, options: "_ShootOptions", order: list[int]) -> Choice:
        """``choose``'s draws among the Shooting options: the same draws, each answered as
        ``options[i]`` would; a pair whose target is out of every reach of the unit (what that
        answers first: None) passed over here without the call (most draws on a large table)."""
        rnd = self.rng.random
        shooters, enemies, near_of = options.shooters, options.enemies, options.candidates
        m = len(enemies)
        end = len(shooters) * m
        while order:
            i = order.pop(int(rnd() * len(order)))
            if i != end:
                u = shooters[i // m]
                near = near_of.get(u)
                if near is None:
                    near = near_of[u] = options.near(u)
                if enemies[i % m] not in near:
                    continue
            cmd = options[i]
            if cmd is not None and battle.check(cmd) is None:
                return Choice(cmd, self.name)
        return Choice(EndPhase(), self.name)

    def _options(self, battle, ts) -> list:
        states = O.own_unit_states(battle, self.side)  # (each unit with its state, kept: no lookup a unit)
        out: list = []
        if ts.phase == Phase.MOVEMENT:
            if ts.round >= 2:
                for u in O.reserves_units(battle, self.side):
                    if W.unit_state(u).move_selected is None:
                        out.append(lambda u=u: self._ingress(battle, u))
            for u in O.embarked_units(battle, self.side):  # 18.04 any layout the rules give
                out.append(lambda u=u: self._pick(C.disembark_options(battle, u)))
            free = []
            for u, st in states:
                if st.move_type is not None:
                    continue
                if st.move_selected == "advance":
                    return [lambda u=u: self._random_move(battle, u, "advance")]
                if st.move_selected == "desperate escape":
                    return [lambda u=u: self._random_move(battle, u, "fall back")]
                if st.move_selected is not None:
                    continue
                free.append(u)
            # (each unit's three options, each command made only when drawn: most never are)
            return _MoveOptions(self, battle, out, free)
        elif ts.phase == Phase.SHOOTING:
            # every (unit not yet selected to shoot, enemy unit) pair, unit by unit, then End
            # Phase: made only when drawn (_ShootOptions)
            shooters = [u for u, st in states if not st.selected_to_shoot]
            enemies = W.enemy_units(shooters[0]) if shooters else []  # (the same for every unit of a side)
            return _ShootOptions(battle, shooters, enemies, self._pick, self._near)
        elif ts.phase == Phase.CHARGE:
            for u, st in states:
                if st.charge_roll is not None and not st.charge_resolved:
                    # its charge is resolved before anything else (11.02 step 3)
                    return [lambda u=u: charge_command(battle, O.uid(u), None, None, fly=self._fly(u))]
                out.append(lambda u=u: DeclareCharge(O.uid(u)))
        elif ts.phase == Phase.FIGHT:
            owed = O.pending_fight(battle, self.side)
            if owed is not None:
                return [lambda: O.owed_fight(battle, owed, self._pick)]  # (12.06 / 12.08)
            if ts.step == FightStep.FIGHT:
                from sim.plan.fight import fight_eligible
                from sim.plan.fight import fights_first
                el = fight_eligible(battle, self.side)
                if ts.fights_first_step:
                    el = [u for u in el if fights_first(u, battle)] or el
                out += [lambda u=u: O.default_fight(battle, u, self._pick) for u in el]
                out += [lambda u=u: overrun_command(battle, O.uid(u), None, self._pile_in_targets(u, overrun=True)) for u in el]
            else:
                if ts.step == FightStep.PILE_IN:
                    out += [lambda u=u: pile_in_command(battle, O.uid(u), None, self._pile_in_targets(u),
                                                        checked=False)  # (choose checks it)
                            for u, _st in states]
                else:
                    out += [lambda u=u: self._consolidate(battle, u) for u, _st in states]
        out.append(EndPhase())
        return out

    def _subset(self, items: list) -> list:
        """A uniformly random non-empty subset of ``items`` (in their order)."""
        while True:
            picked = [x for x in items if self.rng.random() < 0.5]
            if picked:
                return picked

    def _pile_in_targets(self, u: int, overrun: bool = False):
        """12.03 The pile-in targets it selects: an engaged unit's are the rule's (None); an
        unengaged one (that charged, or makes an overrun fight's pile-in, 12.06) picks a random
        non-empty subset of the enemy units within 5"."""
        st = W.unit_state(u)
        if W.unit_destroyed(u) or W.unit_engaged(u) or not (overrun or (st.charged and not st.piled_in)):
            return None  # (the rule's selection, or no pile-in to make: 12.03)
        near = PS.pile_in_targets(O.uid(u), MV.bodies())
        return self._subset(near) if near else None

    def _consolidate(self, battle, u: int):
        """12.08 A consolidation toward a random selection: some of the enemy units within 3"
        (engaging), or one of the objectives within 3" (objective); an ongoing one's is the rule's."""
        if W.unit_destroyed(u) or W.unit_state(u).consolidated or not was_eligible_to_fight(battle, u):
            return None
        choices = PS.consolidation_choices(O.uid(u), MV.bodies(), MV.objectives(battle))
        if choices is None or choices[0] == ConsolidationMode.ONGOING:
            return consolidate_command(battle, O.uid(u), None, checked=False)  # (choose checks it)
        mode, units, objs = choices
        if mode == ConsolidationMode.ENGAGING:
            return consolidate_command(battle, O.uid(u), None, targets=tuple(self._subset(units)), checked=False)
        return consolidate_command(battle, O.uid(u), None, objective=MV.objectives(battle)[self._pick(objs)].name,
                                   checked=False)

    def _fly(self, u: int) -> bool:
        """21.03 Whether a FLY unit takes to the skies for this move: a fair coin (no draw for
        a unit without FLY, so their stream is as it was)."""
        return MV.can_fly(u) and self.rng.random() < 0.5

    def _random_move(self, battle, u: int, mode: str):
        st = W.unit_state(u)
        fly = self._fly(u)
        reach = O.min_move(u, battle) + ((st.advance_roll or 0) if mode == "advance" else 0)
        if fly:
            reach = sky_distance(reach, MV.hovers(u))
        for k in range(TRIES):
            if k % 2 == 0:  # the whole unit by one vector (its formation kept)
                a = self.rng.random() * 2 * math.pi
                d = self.rng.random() * reach
                to = O.translate(battle, u, d * math.cos(a), d * math.sin(a))
            else:  # each model its own way (so moves that break coherency are tried too)
                to = []
                for mid, x, y in O.translate(battle, u, 0.0, 0.0):
                    a = self.rng.random() * 2 * math.pi
                    d = self.rng.random() * reach
                    to.append((mid, snap(x + d * math.cos(a)), snap(y + d * math.sin(a))))
                to = tuple(to)
            cmd = O.Move(O.uid(u), to, mode, fly=fly)
            # (models scattered each their own way often break coherency: such a move is
            # refused by the rules' last check, asked alone first; a formation kept is not;
            # nor is a move the rules would certainly refuse from where it ends,
            # options.quick_refusal: the same verdicts, and the same draws, as checking them)
            if (k % 2 == 0 or MV.coherent_at(u, to)) and not O.quick_refusal(battle, cmd) \
                    and battle.check(cmd) is None:
                return self._embark(battle, u, cmd)

        return None if st.move_selected is None else O.Move(O.uid(u), (), mode)

    def _embark(self, battle, u: int, cmd):
        """18.02 The move, and on a fair coin an embark right after it in a friendly transport
        picked at random among those it may embark in then (drawn only when there is one)."""
        carriers = [t for t in self._transports(battle) if t != u]
        if not carriers:
            return cmd
        fits = [e for e in (replace(cmd, embark=O.uid(t)) for t in carriers) if battle.check(e) is None]
        if fits and self.rng.random() < 0.5:
            return self._pick(fits)
        return cmd

    def _transports(self, battle) -> list[int]:
        """The side's units on the battlefield with a transport capacity (18.01), in unit
        order: kept while the spatial index's presence_version stands (a unit's capacity is
        fixed when the world is built; who is on the battlefield changes only with a bump)."""
        sp = W.spatial()
        got = self._carriers
        if got is None or got[0] is not sp or got[1] != sp.presence_version:
            got = self._carriers = (sp, sp.presence_version, [t for t in O.own_units(battle, self.side)
                                                               if W.capacity(t) is not None])
        return got[2]

    def _ingress(self, battle, u: int):
        """An ingress toward a point it draws (a 4" grid over the battlefield): the solver's
        first legal set-up toward it (options.ingress_toward). The solver ranks every spot of
        the region by its distance to the point, so the point alone spreads the arrivals over
        the region; None only when the solver finds no legal set-up anywhere."""
        bw, bh = battle.scenario.board
        point = self._pick([(4.0 * i, 4.0 * j) for i in range(int(bw // 4) + 1) for j in range(int(bh // 4) + 1)])
        return O.ingress_toward(battle, u, [point])

