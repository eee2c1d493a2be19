"""A battle: one esper world, one dice stream, the event stream and the decision in waiting.

Commands and decisions are the only input (DESIGN.md). ``tick()`` runs every system once in
their declared order; a headless run ticks until idle, answering decisions as they come.
"""

from __future__ import annotations

import itertools
from collections import deque
from typing import Callable

import esper

from sim import events as ev
from sim.world.changes import Changes
from sim import commands as C
from sim import stratagems as STRATAGEMS
from sim.components import UnitState
from sim.decisions import PENDING, DecisionRequest, Scripted
from sim.errors import Refusal
from sim.phases.scoring import mission_objectives
from sim.phases.state import TurnState
from sim.rules.dice import Dice
from sim.plan.answers import fit_scripted_answer, validate_answer
from sim.world import resources
from sim.world import state_hash as SH
from sim.world import templates
from sim.world.build import build_world

_world_ids = itertools.count(1)


def _pristine(scenario) -> "Battle":
    """A battle of ``scenario`` built from it and never played: what sim.world.templates keeps
    and copies for its later battles."""
    b = object.__new__(Battle)
    b._build(scenario, scenario.seed, None, False)
    return b


def _install_systems(battle) -> None:
    """The battle's systems, in the declared order, as the two lists of methods a run calls:
    ``systems``, each one's ``process`` (one step each: Battle.tick, which a front end shows
    step by step), and ``settling``, each one's ``settle`` where it has one (the steps it can
    take in a row with nothing else acting between them: the same events, fewer ticks) or its
    ``process`` (Battle.step_until_blocked). Each is called plainly, as esper.process would
    call them (it passes *args and **kwargs on to each: about half a tick's cost when the
    systems have nothing to do)."""
    from sim.systems import register_systems
    procs = register_systems(battle)
    battle.systems = tuple(proc.process for proc in procs)
    battle.settling = tuple(getattr(proc, "settle", proc.process) for proc in procs)


class Battle:
    """One battle. Use as a context manager (or call close()) so its esper world is deleted."""

    def __init__(self, scenario, seed: int | None = None, dice: Dice | None = None,
                 record_dice: bool = True):
        seed = scenario.seed if seed is None else int(seed)
        # (a scenario played before: a copy of a pristine battle of it, sim.world.templates)
        pristine = None
        if dice is None and seed is not None and type(self) is Battle:
            pristine = templates.pristine_for(scenario, lambda: _pristine(scenario))
        if pristine is None:
            self._build(scenario, seed, dice, record_dice)
            return
        from sim.world.fork import fork_battle
        fork_battle(pristine, f"battle-{next(_world_ids)}", seed, record_dice, into=self)
        self.forked_from, self.forked_events, self._origin = None, 0, None  # (an original)
        self._enter()
        _install_systems(self)

    def _build(self, scenario, seed, dice, record_dice: bool) -> None:
        """The battle built from ``scenario``: its world, turn state, resources and systems."""
        self.scenario = scenario
        self.seed = seed
        self.world = f"battle-{next(_world_ids)}"
        self.events: list[dict] = []
        self.listeners: list[Callable[[dict], None]] = []
        self.dice = dice if dice is not None else Dice(self.seed)
        if record_dice:
            self.dice.listener = self._on_roll
        self.pending: DecisionRequest | None = None
        self._answers: dict[tuple[str, str], object] = {}
        self.queue: deque = deque()
        # a command being carried out that waits for a decision (a generator: its record's
        # apply, sim.commands; resumed by CommandSystem once the answer is in)
        self.action = None
        self.activation_unit: int | None = None  # unit entity currently selected to attack
        # its Activation component, kept here so the systems skip the look-up every tick: set
        # and cleared together with activation_unit (CommandSystem, CasualtySystem)
        self.activation = None
        self.turn = 1
        # 07 the battle round, phase and step, CP, VP and control (None in free play: a
        # scenario without a mission accepts every command at any time)
        mission = getattr(scenario, "mission", None)
        self.turn_state = None if mission is None else TurnState(mission, objectives=mission_objectives(scenario))
        self.commands_done = 0
        self.units: dict[str, int] = {}
        self.models: dict[str, int] = {}
        self._visibility = None  # set by VisibilitySystem; read through .visibility
        self.validated = None  # sim.plan.validated.ValidatedPlan: the last accepted Shoot/Fight's plan
        # the verdicts ``check`` gave since the battle's mark last changed: (mark, {id of the
        # command: (the command, its refusal or None, its plan)}) (_verdict): a player checks its
        # options, then submits one of those very commands; none is validated twice
        self._checked: tuple | None = None
        self.scenario_allocation_orders: dict[int, tuple[str, ...]] = {}
        # a fork (Battle.fork): the world of the battle it was forked from, and how many events
        # it started with (what the rules read of the past: sim.world.fork.history)
        self.forked_from: str | None = None
        self.forked_events = 0
        self._origin = None  # (a fork: a weak reference to its original, entered again when it closes)
        esper.switch_world(self.world)  # (a new, empty world for build_world)
        # the per-battle resources the world queries read, installed with the world (_enter)
        self.resources = resources.Resources(build_world(self, scenario))
        from sim.components import UnitRules
        self.resources.has_rules = bool(esper.get_component(UnitRules))  # (sim.world.rule_effects)
        if self.resources.has_rules:  # what every_model_has reads of the unit abilities rules confer
            from sim.phases.rule_choices import scenario_choices
            from sim.world.rule_reads import conferred_hooks
            self.resources.conferred = conferred_hooks
            scenario_choices(self.resources, scenario)  # (the choices in force as it starts: a scenario's)
        if mission is not None and mission.deployment == "rules":  # 26 step 8: every unit is still to set up
            self.resources.undeployed = set(self.units.values())
        resources.install(self.resources)
        # what the systems must catch up with (every unit: the scenario may have set its state)
        self.changes = Changes(touched_units=dict.fromkeys(self.units.values()))
        _install_systems(self)

    # --- visibility, brought up to date when read ---------------------------------------------
    @property
    def visibility(self):
        """The battle's BattleVisibility (sim.systems.visibility), current: moves, removals and
        who has shot since it was last read are taken in first. Only shooting, fighting and a
        front end's overlays read it, so a Movement phase of many moves costs one update, made
        when the Shooting phase first asks."""
        v = self._visibility
        if v is not None:
            changes = self.changes
            if changes.moved_models or changes.shots_changed or v.rules:  # (rules: target limits)
                v.refresh()
        return v

    @visibility.setter
    def visibility(self, value) -> None:
        self._visibility = value

    # --- world context ---------------------------------------------------------------------
    def _enter(self) -> None:
        """Make this battle's world the one esper and the world queries read. Only a Battle
        switches esper's world, and always with its resources, so the two never part."""
        if esper.current_world != self.world:
            esper.switch_world(self.world)
            resources.install(self.resources)

    def close(self) -> None:
        """Delete the battle's esper world and let go of everything that points back at the
        battle (its systems and their bound methods, its visibility, its resources, listeners,
        the dice's listener), so that the battle and its parts are freed by reference counting
        alone, with the cyclic collector off (sim.players.runner.frozen_heap) or frozen at the next
        run. What a finished battle is read for stays: events, units, models, turn, seed.
        Closing twice is harmless. A fork closed while its world is the current one enters its
        original's again (if still open)."""
        origin = self._origin() if self._origin is not None and esper.current_world == self.world else None
        if resources.current is self.resources:
            resources.install(None)
        if self.world in esper.list_worlds():
            if esper.current_world == self.world:
                esper.switch_world("default")
            esper.delete_world(self.world)
        self.systems = ()
        self.visibility = None
        self.resources = None
        self.listeners = []
        self.validated = None
        self._checked = None
        self.activation = None
        self.action = None
        if getattr(self.dice, "listener", None) == self._on_roll:
            self.dice.listener = None
        if origin is not None and origin.resources is not None:
            origin._enter()

    def fork(self, seed: int | None = None, record_dice: bool = False, keyed: bool = False) -> "Battle":
        """An independent copy of the battle as it is now, to be played forward and thrown away
        (a search player's look ahead): its own esper world (the same entity ids: ``units`` and
        ``models`` hold), resources, turn state and visibility; what never changes shared
        (sim.world.fork says what is copied and what is shared). Its dice go on from the same
        state (``seed`` None: the same commands give the same events and state hash) or from a
        fresh stream of ``seed``. Its events start with what the rules read of the past (this
        battle round's, of a few kinds: ``forked_events`` of them); no listeners; dice events
        only with ``record_dice``. ``keyed``: its dice are common random numbers of ``seed``
        (sim.rules.dice.KeyedDice: another fork of the seed that makes the same roll sees the
        same dice, whatever came before). Only where a player chooses a command (not ``busy``): else
        ForkError. close() it when done; the original is unchanged and plays on as if never
        forked."""
        from sim.world.fork import fork_battle
        f = fork_battle(self, f"battle-{next(_world_ids)}", seed, record_dice, keyed)
        esper.switch_world(f.world)
        resources.install(f.resources)
        try:
            _install_systems(f)
        finally:
            self._enter()
        return f

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- events ------------------------------------------------------------------------------
    def emit(self, type_: str, **fields) -> dict:
        fields["type"] = type_  # (a fresh dict already; logs write keys sorted)
        self.events.append(fields)
        for f in self.listeners:
            f(fields)
        return fields

    def record(self, event: dict) -> dict:
        """emit for an event built by the caller (a fresh dict holding its "type"): the attack
        sequence's steps build theirs as one dict display, half the cost of keyword arguments."""
        self.events.append(event)
        for f in self.listeners:
            f(event)
        return event

    def _on_roll(self, purpose: str, results: tuple[int, ...]) -> None:
        e = {"type": ev.DICE, "purpose": purpose, "results": list(results)}
        self.events.append(e)
        for f in self.listeners:
            f(e)

    # --- input -------------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        return (self.activation_unit is not None or bool(self.queue) or self.pending is not None
                or self.action is not None)

    def submit(self, command) -> None:
        """Accept a command, or raise Refusal with the reason (and change nothing)."""
        self._enter()
        if self.activation_unit is not None or self.queue or self.pending is not None or self.action is not None:
            raise Refusal("another activation is still being resolved")
        problem = None if self._accepted_before(command) else C.validate(self, command)
        if problem:
            self.emit(ev.REFUSED, command=C.to_dict(command), reason=problem)
            raise Refusal(problem)
        self.record({"type": ev.COMMAND, "command": C.to_dict(command)})
        self.queue.append(command)

    def check(self, command) -> str | None:
        """Why ``command`` would be refused now, or None; nothing is recorded (a player trying
        its options, a front end greying a control)."""
        self._enter()
        if self.busy:
            return "another activation is still being resolved"
        table = self._verdicts()
        got = table.get(id(command))
        if got is not None and got[0] is command:  # (checked already, nothing happened since)
            self.validated = got[2]
            return got[1]
        problem = C.validate(self, command)
        table[id(command)] = (command, problem, None if problem else self.validated)
        return problem

    def _verdicts(self) -> dict:
        """The verdicts given since the battle's mark last changed (a fresh table when it has)."""
        mark = self._mark()
        c = self._checked
        if c is None or c[0] != mark:
            c = self._checked = (mark, {})
        return c[1]

    def mark(self) -> tuple[int, int]:
        """``_mark`` for a caller that keeps a verdict of its own (a player that knows a command
        refused when it built it): equal marks, nothing a command's legality reads has changed."""
        return self._mark()

    def _mark(self) -> tuple[int, int]:
        """What changes whenever anything a command's legality reads may have changed: every
        roll, move, removal, answer and phase change is an event, and every command resolved
        is counted."""
        return len(self.events), self.commands_done

    def _accepted_before(self, command) -> bool:
        """``command`` (this very object) is one ``check`` accepted, and nothing has happened
        since: the verdict stands, and its plan is put back (validate_command's
        ``battle.validated``). A player checks its options and then submits one (sim.players):
        validating it again would compute the same answer."""
        c = self._checked
        if c is None or c[0] != self._mark():
            return False
        got = c[1].get(id(command))
        if got is None or got[0] is not command or got[1] is not None:
            return False
        self.validated = got[2]
        return True

    def decide(self, request: DecisionRequest):
        """For systems: the answer to ``request`` if given, else post it and return PENDING."""
        key = (request.kind, request.key)
        if key in self._answers:
            return self._answers.pop(key)
        if self.pending is None:
            self.pending = request
        return PENDING

    def answer(self, value) -> None:
        """Answer the pending decision. Raises Refusal for an answer not among the options.
        A script's standing answer (``Scripted``) is fitted to the request first
        (sim.plan.answers.fit_scripted_answer); when that changes it, the decision event keeps the
        script's answer and a note, so the report shows it and a replay fits it again."""
        req = self.pending
        if req is None:
            raise Refusal("no decision is pending")
        note = None
        if isinstance(value, Scripted):
            scripted = value.value
            value, note = fit_scripted_answer(self, req, scripted)
        value = validate_answer(self, req, value)
        if note:
            self.emit(ev.DECISION, kind=req.kind, key=req.key, player=req.player, answer=value,
                      scripted=scripted, note=note)
        else:
            self.emit(ev.DECISION, kind=req.kind, key=req.key, player=req.player, answer=value)
        self._answers[(req.kind, req.key)] = value
        self.pending = None

    # --- running -----------------------------------------------------------------------------
    def tick(self) -> None:
        """Advance the battle by one step: every system runs once, in declared order (what
        esper.process does: entities deleted since the last tick are cleared first)."""
        self._enter()
        if self.pending is None:
            esper.clear_dead_entities()
            for process in self.systems:
                process(self)

    def step_until_blocked(self, limit: int = 100000) -> None:
        """Tick until idle or a decision is pending."""
        self._enter()
        clear_dead_entities, systems = esper.clear_dead_entities, self.settling
        for _ in range(limit):
            # (self.busy and self.tick, inline: a headless run spends its life here)
            if self.pending is not None or (self.activation_unit is None and not self.queue
                                            and self.action is None):
                return
            clear_dead_entities()
            for process in systems:
                process(self)
        raise RuntimeError("battle did not settle")  # a bug in a system, never bad input

    def run_command(self, command, answer: Callable[[DecisionRequest], object] | None = None):
        """Submit a command and resolve it to the end, answering decisions with ``answer``
        (default: the request's default policy)."""
        self.submit(command)
        self.resolve(answer)

    def resolve(self, answer: Callable[[DecisionRequest], object] | None = None) -> None:
        """Tick the accepted command to the end, answering each decision with ``answer`` (default:
        the request's default policy). A refused answer raises Refusal with the request still
        pending (``self.pending``)."""
        while True:
            self.step_until_blocked()
            if self.pending is None:
                break
            req = self.pending
            self.answer(answer(req) if answer else req.default)
        self.commands_done += 1

    # --- stratagems (15): the moments their windows open at -------------------------------
    def offer(self, moment):
        """Offer every stratagem whose window ``moment`` opens (sim.rules.stratagems.Moment): a
        generator for the battle round and the commands, which say what moment it is and never
        which stratagem (sim.stratagems.offer_at); returns the names of those used."""
        return STRATAGEMS.offer_at(self, moment)

    def roll_window_open(self, player: int, unit: int) -> bool:
        """The quick look of the attack sequence before it offers anything after a roll for
        ``unit`` to ``player`` (sim.stratagems.roll_window_open)."""
        return STRATAGEMS.roll_window_open(self, player, unit)

    def offer_after_roll(self, player: int, unit: int, roll):
        """The offer just after a roll of the attack sequence (sim.rules.stratagems.Roll), for a
        system that re-enters until the answer is in: PENDING, None, or what was re-rolled
        (sim.stratagems.offer_after_roll)."""
        return STRATAGEMS.offer_after_roll(self, player, unit, roll)

    # --- state -------------------------------------------------------------------------------
    def state(self) -> dict:
        """A canonical, JSON-safe snapshot of everything the rules read that changes during a
        battle: every declared field of the state dataclasses that is not marked a cache
        (sim.world.state_hash), entities shown by their unit and model ids."""
        return SH.battle_state(self.turn, **self._state_parts())

    def state_hash(self) -> str:
        """The state hash written after every command of a replay log (16 hex digits): the
        sha256 of ``state()`` as canonical JSON (SH.battle_digest writes it faster)."""
        return SH.battle_digest(self.turn, **self._state_parts())

    def _state_parts(self) -> dict:
        """What the state is read from: the entities' ids and state components, the reserves,
        the resources and the turn state (SH.battle_state's arguments)."""
        self._enter()
        ids = {"unit": dict(zip(self.units.values(), self.units)),
               "model": dict(zip(self.models.values(), self.models))}
        off = self.resources.spatial.off_table
        # (20.01 the units in strategic reserves: those off the table that are not embarked, whose
        # transport their UnitState's embarked_in says, 18.02)
        reserves = {u for u in off if esper.component_for_entity(u, UnitState).embarked_in is None} if off else off
        return dict(ids=ids, models={cls: esper.get_component(cls) for cls in SH.MODEL_STATE},
                    units={cls: esper.get_component(cls) for cls in SH.UNIT_STATE},
                    reserves=reserves, resources=self.resources, turn_state=self.turn_state)
