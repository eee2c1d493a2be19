"""The search player (issue 27 item 2): the tactician's choices, weighed by playing them forward.

At each of its choices the player takes the tactician's candidates (best first: the top
``TOP_K``), the end of the phase where the rules allow it, and a few of the rules' other options
for the unit the tactician would act with (moves toward the other objectives, staying still,
advancing; shooting at the other enemy units near it), the first ``MAX_OPTIONS`` of these by
phase (few: a dice future more for each option tells more than another option). Each is judged
by rolling the battle forward on forks (Battle.fork): several dice futures, the same for every
candidate (seeds drawn from the player's own stream), the tactician playing both sides to the
end of the current turn, and the position then scored (``score``: VP, material, objectives).
A future's dice are common random numbers (keyed dice, sim.rules.dice.KeyedDice): each roll's
dice come from the future's seed, the unit whose attacks resolve, the roll's purpose and its
count, not from a stream's place, so two candidates see the same dice wherever they make the
same roll (a unit's charge roll, its hit rolls at whatever target) and their paired difference
is theirs, not the dice's (tests/bench/probe_search_dice.py, two battles, eight futures: the
paired differences' median spread fell from 1.26 to 0.18 VP in the Movement phase and from
1.63 to 0.18 in the Shooting phase; their mean by more than half).
The tactician's first is the incumbent: another option is played only when it beats it on the
same futures by more than MIN_GAIN VP and Z standard errors of the paired differences (the best
such mean gain; ties go to the tactician's order), so that the dice's noise alone never
overturns it. Decisions are the tactician's answers.

The budget (``budget``: seconds a decision on the reference machine, kind ``search:0.5``) is
turned into a fixed amount of work, rollout commands (``work_for``, at what a command of a
rollout from that phase costs: a Movement phase's rollouts play the turn's moves and its first,
dearest, Shooting choices), so that a battle is the same on any machine, however busy: nothing
here reads a clock. It is spent by successive halving: every candidate plays two futures, then
the better half more, and so on; as many candidates as the budget affords two futures each
(none: the tactician's first is played). No rollout starts once the work is spent: a decision
overruns it by one rollout at most.

The real battle is never disturbed: the forks have their own worlds, dice and events, the real
battle's world is entered again before the player returns, and the tactician's record of what
it tried this phase is put back when the search plays another command than its first.
"""

from __future__ import annotations

import json
import math
import random
import statistics

import esper

from sim import commands as C
from sim.commands import EndPhase, SelectToMove
from sim.components import Roster, Unit
from sim.errors import Refusal
from sim.phases.state import Phase
from sim.players import options as O
from sim.players.base import Choice, Player, Weighed, to_the_end
from sim.players.tactician import TacticianPlayer
from sim.players.tactician import judge as J
from sim.scenario.mission import MAX_BUDGET, MIN_BUDGET
from sim.world import queries as W

DEFAULT_BUDGET = 0.5  # seconds a decision on the reference machine
REFERENCE_BASELINE = 0.055  # seconds of the same-run baseline loop there (tests/bench/_baseline.py)
# One rollout command (a tactician's choice, checked, submitted and resolved, on a fork of
# battle_default, with the rollout's share of scoring), in baseline loops, by the phase the search
# is made in (its rollouts play the rest of the turn from there), a little above the mean measured
# by tests/bench/bench_search.py (4 December 2026, late evening, seeds 5-7, 316 decisions, with
# the keyed dice: means Movement 0.033-0.042, Shooting 0.016-0.021, Charge 0.015-0.025, Fight
# 0.014-0.021; they were 0.048, 0.030, 0.030 and 0.034, set on 3 December, when a command cost
# more and the search used two thirds of its budget). Shooting and Charge are set further above
# their means: at 0.021 a Shooting decision of round 3 (seed 6), whose rollouts play the turn's
# charges and fights at 2.3 times the mean, took 1.1 s at the reference machine's speed. A
# command's cost varies with the position (from half the mean to 1.5x it at the 10th and 90th
# percentiles), more than any count of the work inside it (checks, odds solves, rollouts)
# explains, so the time of a decision varies about its budget. One cost for all (0.035 before) put
# most Movement decisions over the budget and the others well under it. Re-measure when the
# tactician's choices get dearer or cheaper.
COMMAND_COST = {Phase.MOVEMENT: 0.040, Phase.SHOOTING: 0.026, Phase.CHARGE: 0.025, Phase.FIGHT: 0.024}
FORK_COST = 1  # a fork and its close, counted as that many rollout commands (measured: ~0.25)
TOP_K = 3  # the tactician's candidates weighed
# candidates weighed in all, by phase: fewer options, more futures each. Measured on 238
# decisions of four battles (seeds 3000-3001, each way), every option played on 16 futures,
# each rule choosing on 8 and judged on the other 8: at the same work, 6 options of 2 futures
# gained 0.12 VP a decision over the tactician's first in the Movement phase and nothing in
# the Shooting phase (-0.01: a shot's dice are too wild for two futures to tell), 3 options
# of 4 futures 0.17 in Movement, 2 options of 6 futures 0.09 in Shooting; in the Charge and
# Fight phases no split gained more than 0.02.
# (Measured with stream dice. With the keyed dice, 4, 4, 3 and 3 won 49.5% [40.4%, 58.7%] of 111
# ladder battles, against 59.7% of 500 for 3, 2, 2 and 2: README, the ladder.) Measured again with
# the keyed dice (4 December, late evening, the same probe on seeds 3000-3001, 334 decisions, up
# to 4 options of 16 futures each, judged on the other half): in the Charge phase a third and
# fourth option gain where they exist (+0.62 VP a decision at 4 options of 4 futures against +0.48
# at 2; the keyed dice make four futures of a charge as good as eight), so the Charge phase weighs
# 4; in the Movement phase 4 options gain little over 3 at a third more work (+0.13 against
# +0.11), in the Shooting phase more options lose at the futures the budget buys (-0.05 at 4 of
# 4), the Fight phase gains nothing from any. MIN_GAIN and Z matter less with the keyed dice: from
# 0 to 0.5 and 0.5 to 1.5 the gains move by about 0.02 VP.
MAX_OPTIONS = {Phase.MOVEMENT: 3, Phase.SHOOTING: 2, Phase.CHARGE: 4, Phase.FIGHT: 2}
MAX_FUTURES = 16  # dice futures a candidate plays at most
FIRST_FUTURES = 2  # ...and at least (the paired differences' spread needs two)
ROLLOUT_GUESS = 16  # rollout commands a rollout is taken to cost before any was played
ROLLOUT_CAP = 400  # commands one rollout plays at most (a turn takes far fewer)
SEARCHED = (Phase.MOVEMENT, Phase.SHOOTING, Phase.CHARGE, Phase.FIGHT)

# the measure a rollout's end is scored in: VP
OBJECTIVE_VP = 3.0  # an objective controlled (what holding it scores in a Command phase, 26)
OC_MARGIN_VP = 0.1  # each point of OC over the opponent's on an objective (at most MARGIN_CAP)
MARGIN_CAP = 6
ARMY_VP = 30.0  # the whole of an army's points
ALIVE_SHARE = 0.5  # of a model's worth for being alive; the rest by its wounds left
RESULT_VP = 20.0  # the battle won
MIN_GAIN = 0.25  # VP an option must gain over the tactician's first, on the same futures...
Z = 1.0  # ...and this many standard errors of the paired differences
# (two futures, one a tie and the other a gain x, give a mean of x/2 and a standard error of
# x/2: not "more than" one standard error, though the two floats may differ in their last bit;
# the bar is raised by that much so that rounding never overturns the incumbent)
SAME = 1.0 + 1e-9


def work_for(budget: float, phase: Phase) -> int:
    """The rollout commands a budget of ``budget`` seconds on the reference machine buys for a
    search made in ``phase``."""
    return max(1, int(budget / (REFERENCE_BASELINE * COMMAND_COST[phase])))


class SearchPlayer(Player):
    kind = "search"
    step_words = "rollouts"

    def __init__(self, side, battle, scenario, budget: float | None = None):
        super().__init__(side, battle, scenario)
        self.budget = DEFAULT_BUDGET if budget is None else float(budget)
        if not MIN_BUDGET <= self.budget <= MAX_BUDGET:
            raise ValueError(f"a search budget from {MIN_BUDGET:g} to {MAX_BUDGET:g} seconds, found {budget!r}")
        self.work = {ph: work_for(self.budget, ph) for ph in SEARCHED}  # rollout commands a decision
        self.rng = random.Random(f"sim-search-player/{battle.seed}/{side}")
        self.tactician = TacticianPlayer(side, battle, scenario)
        self._worth: dict[str, float] = {}  # unit id -> points a model (the scenario's: fixed)
        self._army: float | None = None  # the mean army's points at the start
        # what each search did: (options weighed, rollouts, rollout commands); the benchmark reads it
        self.searches: list[tuple[int, int, int]] = []
        self._cost: dict = {}  # phase -> (rollout commands, rollouts) so far: what a rollout costs

    # --- the player ----------------------------------------------------------------------
    def choose(self, battle) -> Choice:
        return to_the_end(self.thinking(battle))

    def thinking(self, battle):
        """``choose`` a rollout at a time (Player.thinking): it yields after each rollout, the
        real battle's world entered again, and returns the Choice; the same work and the same
        Choice whoever drives it, at whatever pace."""
        t = self.tactician
        saved = _save(t)
        cands = t.candidates(battle)
        ts = battle.turn_state
        if ts.pre_battle is not None or ts.phase not in SEARCHED:
            return _first(self, cands)
        options = self.options(battle, cands)[:self.affordable(ts.phase)]
        if len(options) < 2:
            return _first(self, cands)
        means, best, judged, futures = yield from self.searching(battle, options, saved, ts.phase)
        battle._enter()  # (the real battle's world again: the forks switched it)
        command, label, _source = options[best]
        if not (cands and command is cands[0].command):
            _restore(t, saved)  # (the tactician proposes its own again next time)
        if self.explaining:
            # (each option's value on the incumbent's futures: the incumbent's mean, plus the
            # option's paired difference from it where judged: comparable, unlike means over
            # different futures)
            shown = [means[0] + judged[i][0] if i in judged else means[i] for i in range(len(options))]
            weighed = sorted(((shown[i], i) for i in range(len(options)) if shown[i] is not None),
                             key=lambda m: (-m[0], m[1]))
            self.explain(_what(battle, ts), _verdict(battle, options, best, shown, judged),
                         [Weighed(_words(battle, options[i][0], options[i][1]), m, "VP",
                                  _detail(options[i][2], futures[i], judged.get(i)), i == best)
                          for m, i in weighed])
        expected = next((c.expect for c in cands if c.command is command), "")
        return Choice(command, self.name, why=label or None, expected=expected or None)

    def answer(self, battle, request):
        return self.tactician.answer(battle, request)

    # --- the options weighed ---------------------------------------------------------------
    def options(self, battle, cands) -> list[tuple[object, str, str]]:
        """(command, label, where it comes from in words): the tactician's top candidates, the
        end of the phase, then the rules' other options for the unit of its first; each legal
        now, each once."""
        out: list[tuple[object, str, str]] = []
        seen: set[str] = set()

        most = MAX_OPTIONS[battle.turn_state.phase]  # (a searched phase: choose asks only there)

        def add(cmd, label, source):
            if cmd is None or len(out) >= most:
                return
            key = json.dumps(C.to_dict(cmd), sort_keys=True)
            if key in seen:
                return
            seen.add(key)
            if battle.check(cmd) is None:
                out.append((cmd, label, source))

        for k, s in enumerate(cands[:TOP_K]):
            add(s.command, s.label, f"the tactician's {_NTH[k]}")
        add(EndPhase(), "end the phase", "the end of the phase")
        if cands:
            for cmd, label in _alternatives(battle, self.side, cands[0].command):
                add(cmd, label, "another of the rules' options")
        return out

    # --- the search ------------------------------------------------------------------------
    def affordable(self, phase) -> int:
        """How many options the budget lets this search weigh: FIRST_FUTURES futures each, at
        the commands a rollout of this phase has cost so far (counted, not timed: ROLLOUT_GUESS
        before the first); fewer than two: no search."""
        commands, rollouts = self._cost.get(phase, (ROLLOUT_GUESS, 1))
        return int(self.work[phase] / (FIRST_FUTURES * commands / rollouts))

    def search(self, battle, options, saved, phase) -> tuple[list[float | None], int, dict, list[int]]:
        """``searching`` run to its end."""
        return to_the_end(self.searching(battle, options, saved, phase))

    def searching(self, battle, options, saved, phase):
        """A generator (yielding after each rollout, the real battle's world entered again)
        that returns each option's mean score over the futures it played (None: none), the option
        chosen, each other option's paired difference from the incumbent where it was judged
        (option -> (mean, standard error, futures)) and the futures each played. Successive
        halving within the phase's work (``self.work``, rollout commands): every option plays
        FIRST_FUTURES futures, then the better half and the tactician's first (option 0, the
        incumbent) more, the same futures for each, and so on; no rollout
        starts once the work is spent (an option left with fewer futures than the incumbent's
        is judged on those it played, none with fewer than two). Another option than the
        incumbent is chosen only when it beats it on the same futures by more than MIN_GAIN
        and Z standard errors of the paired differences: the dice's noise alone does not
        overturn the tactician."""
        work = self.work[phase]
        n = len(options)
        values: list[list[float]] = [[] for _ in range(n)]
        seeds: list[int] = []
        spent = rollouts = 0
        alive = list(range(n))
        per_round = FIRST_FUTURES  # futures each survivor plays this round
        while True:
            start = len(seeds)
            while len(seeds) < start + per_round:
                seeds.append(int(self.rng.random() * 2**53))
            for i in alive:
                for seed in seeds[start:]:
                    if spent >= work:
                        break
                    value, used = self.rollout(battle, options[i][0], seed, saved)
                    values[i].append(value)
                    spent += used + FORK_COST
                    rollouts += 1
                    battle._enter()
                    yield rollouts
            if spent >= work:
                break
            if len(alive) > 2:
                ranked = sorted(alive, key=lambda i: (-_mean(values[i]), i))
                alive = sorted(set(ranked[:(len(alive) + 1) // 2]) | {0})
            if len(alive) == 1:
                break
            cost = spent / rollouts  # (mean commands a rollout: counted, not timed)
            rounds = max(1, math.ceil(math.log2(len(alive))))
            per_round = min(int((work - spent) / rounds / (len(alive) * cost)), MAX_FUTURES - len(seeds))
            if per_round < 1:
                break
        self.searches.append((n, rollouts, spent))
        commands, played = self._cost.get(phase, (0, 0))
        self._cost[phase] = (commands + spent, played + rollouts)
        best, gain = 0, 0.0
        judged: dict[int, tuple[float, float, int]] = {}
        for i in range(1, n):
            k = min(len(values[i]), len(values[0]))
            if k < 2:
                continue
            d = [values[i][j] - values[0][j] for j in range(k)]
            m = _mean(d)
            se = statistics.stdev(d) / math.sqrt(k)
            judged[i] = (m, se, k)
            if i in alive and m > max(MIN_GAIN, Z * se * SAME) and m > gain:
                best, gain = i, m
        return [_mean(v) if v else None for v in values], best, judged, [len(v) for v in values]

    def rollout(self, battle, command, seed: int, saved) -> tuple[float, int]:
        """Play ``command`` on a fork with the dice future ``seed``, then the tactician for both
        sides to the end of the turn; (the score then, commands played)."""
        f = fork(battle, seed)
        try:
            players = [TacticianPlayer(s, f, self.scenario) for s in (0, 1)]
            _load(players[self.side], saved)
            ts = f.turn_state
            now = (ts.round, ts.active)

            def by_player(req):
                return players[req.player].answer(f, req)

            played = 0
            try:
                f.submit(command)
                f.resolve(by_player)
                played += 1
                while not ts.over and (ts.round, ts.active) == now and played < ROLLOUT_CAP:
                    c = players[ts.chooser].choose(f)
                    f.submit(c.command)
                    f.resolve(c.answer or by_player)
                    played += 1
            except Refusal:
                pass  # (a rollout player's command the rules refuse: the position as it is)
            return self.score(f), played
        finally:
            f.close()

    # --- the measure ---------------------------------------------------------------------------
    def score(self, b) -> float:
        """The battle ``b`` as it stands, for this side, in VP: VP scored, the points of the
        armies left (ARMY_VP for a whole army; a model's worth half for being alive, half by its
        wounds left), objectives controlled and the OC margin on each, the result when over."""
        b._enter()
        ts = b.turn_state
        me, them = self.side, 1 - self.side
        value = float(ts.vp[me] - ts.vp[them])
        worth = [0.0, 0.0]
        for uid, u in b.units.items():
            owner = esper.component_for_entity(u, Unit).owner
            r = esper.component_for_entity(u, Roster)
            left = sum(ALIVE_SHARE + (1.0 - ALIVE_SHARE) * w.remaining / full
                       for w, full in zip(r.wounds, r.full_wounds) if w.remaining > 0)
            worth[owner] += left * self.worth(b, uid, u)
        value += ARMY_VP * (worth[me] - worth[them]) / self.army(b)
        if ts.objectives:
            from sim.phases.scoring import control_levels
            for o, lv in zip(ts.objectives, control_levels(ts.objectives, b)):
                c = ts.control.get(o.name)
                who = None if c is None else c.controller
                value += OBJECTIVE_VP * ((who == me) - (who == them))
                margin = max(-MARGIN_CAP, min(MARGIN_CAP, lv.get(me, 0) - lv.get(them, 0)))
                value += OC_MARGIN_VP * margin
        if ts.over:
            from sim.rules.turn import PLAYER
            value += RESULT_VP * ((ts.result == PLAYER[me]) - (ts.result == PLAYER[them]))
        return value

    def worth(self, b, uid: str, u: int) -> float:
        w = self._worth.get(uid)
        if w is None:
            from sim.players.tactician.judge import model_worth
            w = self._worth[uid] = model_worth(b, u)
        return w

    def army(self, b) -> float:
        if self._army is None:
            total = sum(len(esper.component_for_entity(u, Roster).full) * self.worth(b, uid, u)
                        for uid, u in b.units.items())
            self._army = max(1.0, total / 2)
        return self._army


# --- forks -----------------------------------------------------------------------------------
def fork(battle, seed: int):
    """A copy of ``battle`` as it is now, with the dice future ``seed`` (Battle.fork; the
    benchmark wraps it to time it): common random numbers (keyed dice, sim.rules.dice.KeyedDice),
    so that the options played on one future see the same dice wherever they make the same roll
    and their paired differences are the options' own, not their dice's."""
    return battle.fork(seed, keyed=True)


# --- the tactician's record of the phase ----------------------------------------------------
def _memo_copy(memo: dict) -> dict:
    """The tactician's memo with its sets copied (its phase modules' records of what they have
    proposed: a restore must undo additions to them); the rest, caches worked out from the
    position (threat maps, plans, odds), kept as they are."""
    return {k: (set(v) if isinstance(v, set) else v) for k, v in memo.items()}


def _save(t: TacticianPlayer) -> tuple:
    fb = t.fallback
    return t._phase_key, _memo_copy(t.memo), fb._phase, set(fb._done)


def _restore(t: TacticianPlayer, saved: tuple) -> None:
    t._phase_key, memo, t.fallback._phase, done = saved
    t.memo.clear()
    t.memo.update(_memo_copy(memo))
    t.fallback._done = set(done)


def _load(t: TacticianPlayer, saved: tuple) -> None:
    """A rollout's tactician for this side: what the real one had proposed this phase (its
    records: sets of plain tuples, copied), never its caches (worked out again on the fork:
    a cache of the real battle's objects is never shared)."""
    key, memo, phase, done = saved
    t._phase_key = key
    t.memo.update({k: set(v) for k, v in memo.items() if isinstance(v, set)})
    t.fallback._phase = phase
    t.fallback._done = set(done)


def _mean(v) -> float:
    return sum(v) / len(v)


def _first(player: SearchPlayer, cands) -> Choice:
    if not cands:
        return Choice(EndPhase(), player.name)
    return Choice(cands[0].command, player.name, why=cands[0].label or None, expected=cands[0].expect or None)


# --- the rules' other options ------------------------------------------------------------------
def _alternatives(battle, side: int, cmd) -> list[tuple[object, str]]:
    """Other commands for the unit of ``cmd`` (not yet checked), with their words, by phase:
    in the Movement phase, for a unit not yet selected to move, moves toward each of the three
    nearest objectives, staying still and advancing; in the Shooting phase, the unit's weapons
    at each of the three nearest enemy units."""
    u = battle.units.get(getattr(cmd, "unit", None))
    if u is None or W.off_table(u) or not W.unit_models(u):
        return []  # (a unit in reserves, embarked or not yet deployed has no place to move from)
    out: list = []
    ts = battle.turn_state
    name = J.shown(battle, u)
    if ts.phase == Phase.MOVEMENT:
        if ts.in_progress is None and W.unit_state(u).move_selected is None and W.unit_state(u).move_type is None \
                and not W.unit_engaged(u):
            cx, cy = O.centroid(u)
            goals = sorted(ts.objectives, key=lambda o: (math.hypot(o.x - cx, o.y - cy), o.name))
            for o in goals[:3]:
                for m in O.moves_toward(battle, u, (o.x, o.y), "normal")[:1]:
                    out.append((m, f"{name} moves toward {o.name}"))
            out.append((O.stationary(u), f"{name} remains stationary"))
            out.append((SelectToMove(O.uid(u), "advance"), f"{name} is selected to advance"))
    elif ts.phase == Phase.SHOOTING:
        for e in O.enemies_by_distance(u)[:3]:
            exp = O.shoot_at(battle, u, e)
            if exp is not None:
                out.append((exp.command, f"{name} shoots {J.shown(battle, e)}"))
    return out


# --- words ---------------------------------------------------------------------------------------
_NTH = ("first", "second", "third", "fourth", "fifth")


def _detail(source: str, futures: int, judged) -> str:
    """Where an option came from and how it did against the incumbent, for --explain."""
    out = f"{source}; {futures} future{'s' if futures != 1 else ''}"
    if judged is not None:
        m, se, k = judged
        out += f"; {m:+.2f} VP against the first on the same {k} (± {se:.2f})"
    return out


def _verdict(battle, options, best: int, means, judged) -> str:
    """The option chosen in words, and why when the order of the values (``means``) does not
    say it: an option chosen over the incumbent by its gain on the same futures, or the
    incumbent kept though another scored more, as the overturning rule (MIN_GAIN, Z) says."""
    words = _words(battle, options[best][0], options[best][1])
    if best != 0:
        m, se, k = judged[best]
        digits = 2  # (more where a gain just over the bar would read as equal to it)
        while digits < 6 and f"{m:.{digits}f}" == f"{Z * se:.{digits}f}":
            digits += 1
        return (f"{words} (chosen over {options[0][2]}: {m:+.{digits}f} VP on the same {k} futures, "
                f"more than {MIN_GAIN:g} VP and {Z:g} standard error ({se:.{digits}f}))")
    higher = [i for i in range(1, len(options)) if means[i] is not None and means[0] is not None
              and means[i] > means[0]]
    if not higher:
        return words
    i = max(higher, key=lambda i: (means[i], -i))
    if i not in judged:
        return f"{words} (kept: {options[i][2]} scored more on a single future, too few to judge)"
    m, se, k = judged[i]
    return (f"{words} (kept: {options[i][2]} scored {m:+.2f} VP on the same {k} futures, not more than "
            f"{MIN_GAIN:g} VP and {Z:g} standard error ({se:.2f}): within the dice's noise)")


def _what(battle, ts) -> str:
    return f"round {ts.round}, {ts.phase.name.lower()} phase"


def _words(battle, cmd, label: str) -> str:
    """The option in words: its label, else the command's kind and its unit's name (numbered
    where two units share one, as everywhere words name units)."""
    if label:
        return label
    u = battle.units.get(getattr(cmd, "unit", None))
    return cmd.record.kind if u is None else f"{cmd.record.kind}: {J.shown(battle, u)}"