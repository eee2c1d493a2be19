"""`sim ladder`: every pair of players over seeded battles, sides swapped, measured.

The schedule (``game_at``): for each scenario (in the order given), for each pair of players
(i < j, in the order given), for each seed (``first`` .. ``first + battles - 1``, the first the
scenario's own seed unless --seed), the seed played both ways: player i red against j blue,
then j red against i blue. A game is its index in that order, so the games go to worker
processes as `sim stats`'s seeds do (sim.analysis.workers.ordered_runs: ``_run(index)``, the
results back in order) and the tally is the same for any number of processes.

What a pair's results say (``PairTally``, integers only, from the first player's side): wins,
draws and losses; the score (wins + half the draws, over the games) with its 95% Wilson score
interval (``wilson``: a draw counts as half a win); the mean VP margin (the first player's VP
minus the other's) with its 95% interval (``mean_interval``: Student's t). And the players'
Elo ratings (``elo``), fitted by maximum likelihood to every result (Bradley-Terry on the Elo
scale, a draw half a win and half a loss), with one virtual draw added to every pair's games
(a tiny prior: a player that won every game gets a finite rating), anchored at a mean of 1500.
"""

from __future__ import annotations

from sim.rules.turn import PLAYER
from sim.names import counted

import math
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

Z95 = 1.959963984540054  # the standard normal's 97.5th percentile
ELO_MEAN = 1500.0
ELO_SCALE = 400.0  # 400 points: 10 to 1 odds
VIRTUAL_DRAWS = 1  # added to every pair's games (the prior of ``elo``)
MAX_BATTLES = 100_000  # seeds per pair and scenario, at most
PARAMETRISED = ("search",)  # kinds whose name can carry a parameter: KIND:NUMBER (a budget)
NOT_LADDER = ("scripted",)  # kinds that play a script, not a battle of their own choosing

# Student's t, 97.5th percentile, for 1..30 degrees of freedom (above: the Cornish-Fisher
# expansion, within 0.001 of the exact value there)
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
         2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
         2.052, 2.048, 2.045, 2.042)


class LadderError(ValueError):
    """Bad input to a ladder (an unknown player, too few players...): its one-line message."""


# -- the players ----------------------------------------------------------------------------

def known_kinds() -> tuple[str, ...]:
    """The player kinds a ladder can play: the battle loop's (sim.players.loop.KINDS), the
    scripted player aside."""
    from sim.players.loop import KINDS
    return tuple(k for k in KINDS if k not in NOT_LADDER)


def parse_players(text: str, kinds: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The comma-separated player names of --players, each a kind (``default``) or, for a kind
    that takes one, a kind and a parameter (``search:0.5``: a positive number, passed through
    whole to the scenario's mission players, sim.analysis.stats.with_players). At least two,
    no name twice."""
    kinds = known_kinds() if kinds is None else kinds
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise LadderError(f"--players: expected comma-separated player names, found {text!r}")
    from sim.scenario import mission
    budgeted = getattr(mission, "BUDGETED_KINDS", PARAMETRISED)
    for n in names:
        kind, sep, param = n.partition(":")
        if kind not in kinds:
            raise LadderError(f"--players: expected players among {', '.join(kinds)}, found {n!r}")
        if sep:
            if kind not in budgeted:
                raise LadderError(f"--players: expected no parameter for {kind} (only {', '.join(budgeted)} "
                                  f"takes one: KIND:NUMBER), found {n!r}")
            if not _budget_ok(n, param):
                span = (f"from {mission.MIN_BUDGET:g} to {mission.MAX_BUDGET:g}" if hasattr(mission, "MAX_BUDGET")
                        else "above 0")
                raise LadderError(f"--players: expected {kind}:NUMBER, a budget {span}, found {n!r}")
    if len(names) < 2:
        raise LadderError(f"--players: expected two players or more, found {len(names)} ({text})")
    dup = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if dup is not None:
        raise LadderError(f"--players: expected each player once, found {dup!r} twice")
    return tuple(names)


def _budget_ok(name: str, param: str) -> bool:
    """Whether a player name's parameter is one its kind takes: as a scenario file's players
    are read (sim.scenario.mission.split_kind, where there is one), else a positive number."""
    from sim.scenario import mission
    split = getattr(mission, "split_kind", None)
    if split is not None:
        try:
            split(name)
        except ValueError:
            return False
        return True
    try:
        v = float(param) if len(param) <= 20 else math.nan
    except ValueError:
        v = math.nan
    return math.isfinite(v) and v > 0


# -- the schedule ---------------------------------------------------------------------------

def pairs(n: int) -> list[tuple[int, int]]:
    """Every pair of n players, (i, j) with i < j, in order."""
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


@dataclass(frozen=True, slots=True)
class Game:
    """One battle of the schedule: its index, the scenario's index, the red and blue players'
    indices, the pair's (i < j) and its seed."""

    index: int
    scenario: int
    red: int
    blue: int
    seed: int

    @property
    def pair(self) -> tuple[int, int]:
        return (min(self.red, self.blue), max(self.red, self.blue))


def games_total(scenarios: int, players: int, battles: int) -> int:
    return scenarios * len(pairs(players)) * battles * 2


def game_at(k: int, players: int, battles: int, firsts: tuple[int, ...]) -> Game:
    """The k-th game of the schedule (module docstring); ``firsts``: each scenario's first seed."""
    ps = pairs(players)
    per_scenario = len(ps) * battles * 2
    s, r = divmod(k, per_scenario)
    p, r = divmod(r, battles * 2)
    b, swapped = divmod(r, 2)
    i, j = ps[p]
    red, blue = (j, i) if swapped else (i, j)
    return Game(k, s, red, blue, firsts[s] + b)


# -- playing a game -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class GameResult:
    """A game's outcome: "red", "blue" or "draw" and each side's VP; or ``stopped``, why the
    battle could not be played to its end (a player's command the rules refused)."""

    game: Game
    result: str | None
    vp: tuple[int, int] = (0, 0)
    stopped: str | None = None


def log_name(stem: str, game: Game, names: tuple[str, ...]) -> str:
    """A game's replay log's file name: scenario, seed, red v blue (names made safe for a file)."""
    def safe(n: str) -> str:
        return re.sub(r"[^A-Za-z0-9_.-]+", "-", n)
    return f"{safe(stem)}-seed{game.seed}-{safe(names[game.red])}-v-{safe(names[game.blue])}.jsonl"


@dataclass(frozen=True)
class Ladder:
    """What a ladder plays: the scenarios (loaded, each with a [mission]), the paths they were
    given as (a log names its scenario by it), the players, seeds per pair and scenario, each
    scenario's first seed and the folder for replay logs (None: no logs)."""

    specs: tuple
    paths: tuple[str, ...]
    players: tuple[str, ...]
    battles: int
    firsts: tuple[int, ...]
    logs: str | None = None
    # (--resume) each game's result read from the log already in ``logs`` (None: play it), by
    # index; read in the parent (``resumed``) and sent to the workers with the rest
    known: tuple = ()

    @property
    def total(self) -> int:
        return games_total(len(self.specs), len(self.players), self.battles)

    @property
    def to_play(self) -> int:
        """The games to play: all of them, less those read from their logs (``known``)."""
        return self.total - sum(r is not None for r in self.known)

    def game(self, k: int) -> Game:
        return game_at(k, len(self.players), self.battles, self.firsts)

    def stems(self) -> list[str]:
        """Each scenario's name for log files (its file's stem; numbered when two are alike)."""
        stems = [Path(p).stem for p in self.paths]
        return [f"{k + 1}-{s}" if stems.count(s) > 1 else s for k, s in enumerate(stems)]

    def play(self, k: int) -> GameResult:
        """Play game k to its end (its replay log written if asked)."""
        from sim.battle import Battle
        from sim.errors import ScriptError
        from sim.players import play_battle
        from sim.players.runner import frozen_heap
        from sim.analysis.stats import with_players
        if k < len(self.known) and self.known[k] is not None:
            return self.known[k]
        g = self.game(k)
        spec = with_players(self.specs[g.scenario], (self.players[g.red], self.players[g.blue]))
        with Battle(spec, seed=g.seed, record_dice=self.logs is not None) as battle, frozen_heap():
            rec = None
            if self.logs is not None:
                from sim.replay.log import Recorder
                rec = Recorder(battle, self.paths[g.scenario])
            stopped = None
            try:
                play_battle(battle, spec, rec)
            except ScriptError as e:
                stopped = str(e)
            if rec is not None:
                from sim.replay.log import write_atomic
                write_atomic(log_path(self, g), rec.text())
            ts = battle.turn_state
            if stopped is not None or not ts.over:
                return GameResult(g, None, (0, 0), stopped or "the battle did not end")
            return GameResult(g, ts.result, (ts.vp[0], ts.vp[1]))


def log_path(ladder: Ladder, game: Game) -> Path:
    """Where the ladder writes (and, resuming, looks for) a game's replay log."""
    return Path(ladder.logs) / log_name(ladder.stems()[game.scenario], game, ladder.players)


def logged_result(path: Path, game: Game, spec) -> GameResult:
    """A game's result read from its replay log (sim.replay.log.read_log: any malformed log is a
    LogError, one line): the log must be of that scenario as it is now (its digest) and that
    seed, and whole (its trailer); its last ``result`` event gives the winner and the VP. A log
    with no result is a battle that was not played out (as ``play`` reports it)."""
    from sim import events as ev
    from sim.errors import LogError
    from sim.replay.log import read_log
    recs = read_log(path)
    head = recs[0]
    if head.get("digest") != spec.digest:
        raise LogError(f"{path}: expected the log of the scenario as it is now (sha256 {spec.digest[:12]}...), "
                       f"found one of another version ({str(head.get('digest'))[:12]}...): delete it to play "
                       f"the battle again")
    if head.get("seed") != game.seed:
        raise LogError(f"{path}: expected the log of seed {game.seed}, found seed {head.get('seed')!r}")
    if recs[-1]["t"] != "end":
        raise LogError(f"{path}: expected a whole log (its last line the trailer), found it cut short: delete "
                       f"it to play the battle again")
    result = None
    for rec in reversed(recs):
        e = rec.get("event") if rec["t"] == "event" else None
        if isinstance(e, dict) and e.get("type") == ev.RESULT:
            result = e
            break
    if result is None:
        return GameResult(game, None, (0, 0), "the battle did not end (read from its log)")
    vp = result.get("vp")
    if (result.get("result") not in (*PLAYER, "draw") or not isinstance(vp, dict)
            or not all(type(vp.get(side)) is int and 0 <= vp[side] < 10 ** 6 for side in PLAYER)):
        raise LogError(f"{path}: expected a result event with the winner ({', '.join(PLAYER)} or draw) and each "
                       f"side's VP, found {str(result)[:120]}")
    return GameResult(game, result["result"], (vp[PLAYER[0]], vp[PLAYER[1]]))


def resumed(ladder: Ladder) -> Ladder:
    """The ladder with the result of each game whose replay log is already in its ``logs``
    folder read from that log (``logged_result``; LogError for a log that is not that game's
    or not whole), so that only the others are played: a ladder that was stopped goes on where
    it stopped, and pieces played apart (other seeds, other machines), their logs put in one
    folder, give one table."""
    known = []
    for k in range(ladder.total):
        g = ladder.game(k)
        path = log_path(ladder, g)
        known.append(logged_result(path, g, ladder.specs[g.scenario]) if os.path.lexists(path) else None)
    return replace(ladder, known=tuple(known))


_LADDER: Ladder | None = None  # in a worker process


def _init(ladder: Ladder) -> None:
    """A worker's start (sim.analysis.workers): the ladder the parent checked, sent whole."""
    global _LADDER
    _LADDER = ladder


def _run(k: int) -> GameResult:
    return _LADDER.play(k)


def _warm() -> None:
    """What a process does once (sim.analysis.workers forks the workers after it): each
    scenario's first Battle built (its imports and the tables every seed copies), the battle
    loop and the players' modules imported."""
    from sim.battle import Battle
    from sim.players import play_battle  # noqa: F401
    from sim.analysis.stats import with_players
    for spec, first in zip(_LADDER.specs, _LADDER.firsts):
        spec = with_players(spec, _LADDER.players[:2])
        with Battle(spec, seed=first, record_dice=False):
            pass


def iter_games(ladder: Ladder, jobs: int = 1):
    """Every GameResult of the schedule, in order, as they come (``jobs`` processes, which take
    the games in chunks sized by the time a battle takes, as `sim stats`'s seeds: usually one
    battle a chunk)."""
    total = ladder.total
    if jobs <= 1 or total < 2:
        for k in range(total):
            yield ladder.play(k)
        return
    from sim.analysis.workers import ordered_runs
    yield from ordered_runs(__name__, (ladder,), 0, total, jobs)


def _ray_chunk(ladder: Ladder, lo: int, n: int) -> list[GameResult]:
    """A Ray task: games lo .. lo + n - 1."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return [ladder.play(k) for k in range(lo, lo + n)]


def iter_games_ray(ladder: Ladder, address: str | None = None, workers: int | None = None, costs=None):
    """iter_games on Ray (sim.analysis.stats.iter_runs_ray's machinery, these tasks; ``costs``:
    a sim.analysis.ray_session.Costs told what Ray's start-up and shutdown took)."""
    from sim.analysis.stats import iter_runs_ray
    yield from iter_runs_ray(ladder, 0, ladder.total, address, workers, task=_ray_chunk, costs=costs)


# -- the numbers ----------------------------------------------------------------------------

def wilson(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: ``score`` successes (a draw counted as half
    of one) out of ``n``; (0, 1) with no games."""
    if n <= 0:
        return (0.0, 1.0)
    p = score / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z / d * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def t975(df: int) -> float:
    """Student's t distribution's 97.5th percentile for ``df`` degrees of freedom."""
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def mean_interval(total: int, squares: int, n: int) -> tuple[float, float, float]:
    """The mean of n values given their sum and sum of squares, and its 95% interval (Student's
    t: mean +- t * sd / sqrt(n)); with fewer than two values the interval is the mean's own."""
    if n <= 0:
        return (math.nan, math.nan, math.nan)
    mean = total / n
    if n < 2:
        return (mean, mean, mean)
    var = max(0, n * squares - total * total) / (n * (n - 1))
    half = t975(n - 1) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def elo(score: list[list[float]], games: list[list[int]], virtual: int = VIRTUAL_DRAWS,
        iterations: int = 100_000, tolerance: float = 1e-13) -> list[float]:
    """Elo ratings by maximum likelihood: ``score[i][j]`` what i scored against j (wins and half
    the draws) in ``games[i][j]`` games; the probability that i beats j is
    1 / (1 + 10 ** ((R_j - R_i) / 400)) (Bradley-Terry), a draw half a win and half a loss.
    ``virtual`` draws are added to every pair (the prior that keeps an unbeaten player's rating
    finite). Fitted by Hunter's MM iteration (deterministic: fixed order, a fixed tolerance),
    then anchored at a mean of 1500. A pair that never met adds nothing but its virtual draws."""
    k = len(score)
    w = [sum(score[i][j] + virtual / 2 for j in range(k) if j != i) for i in range(k)]
    n = [[games[i][j] + virtual if i != j else 0 for j in range(k)] for i in range(k)]
    g = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            den = sum(n[i][j] / (g[i] + g[j]) for j in range(k) if j != i and n[i][j])
            new.append(w[i] / den if den > 0 else g[i])
        gm = math.exp(sum(math.log(x) for x in new) / k)
        new = [x / gm for x in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, g))
        g = new
        if change < tolerance:
            break
    r = [ELO_SCALE * math.log10(x) for x in g]
    shift = ELO_MEAN - sum(r) / k
    return [x + shift for x in r]


def expected_score(ra: float, rb: float) -> float:
    """The share of the points a player rated ``ra`` expects against one rated ``rb``."""
    return 1 / (1 + 10 ** ((rb - ra) / ELO_SCALE))


@dataclass
class PairTally:
    """A pair's games from player ``a``'s side (a < b): wins, draws, losses, the VP margin's sum
    and sum of squares (a's VP minus b's), and the games that could not be played out."""

    a: int
    b: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    margin: int = 0
    margin_sq: int = 0
    stopped: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Wins and half the draws (a's points)."""
        return self.wins + self.draws / 2

    def merge(self, other: PairTally) -> PairTally:
        return PairTally(self.a, self.b, self.wins + other.wins, self.draws + other.draws,
                         self.losses + other.losses, self.margin + other.margin,
                         self.margin_sq + other.margin_sq, self.stopped + other.stopped)

    def flipped(self) -> PairTally:
        """The same games from b's side."""
        return PairTally(self.b, self.a, self.losses, self.draws, self.wins, -self.margin, self.margin_sq,
                         self.stopped)

    def summary(self) -> dict:
        n = self.games
        lo, hi = wilson(self.score, n)
        mean, mlo, mhi = mean_interval(self.margin, self.margin_sq, n)
        return {"wins": self.wins, "draws": self.draws, "losses": self.losses, "games": n,
                "stopped": self.stopped, "score": self.score / n if n else None,
                "score_95": [lo, hi] if n else None,
                "vp_margin": mean if n else None, "vp_margin_95": [mlo, mhi] if n else None}


class Tally:
    """A ladder's results, added one game at a time (``add``), per scenario and pair."""

    def __init__(self, ladder: Ladder):
        self.ladder = ladder
        self.n = 0
        self.cells = {(s, i, j): PairTally(i, j) for s in range(len(ladder.specs))
                      for i, j in pairs(len(ladder.players))}
        self.stops: dict[str, int] = {}
        self.first_stopped: dict[str, Game] = {}  # each reason's first game (to play it again)

    def add(self, r: GameResult) -> None:
        g = r.game
        self.n += 1
        i, j = g.pair
        c = self.cells[(g.scenario, i, j)]
        if r.result is None:
            c.stopped += 1
            self.stops[r.stopped] = self.stops.get(r.stopped, 0) + 1
            self.first_stopped.setdefault(r.stopped, g)
            return
        a_red = g.red == i
        a_vp, b_vp = (r.vp[0], r.vp[1]) if a_red else (r.vp[1], r.vp[0])
        if r.result == "draw":
            c.draws += 1
        elif (r.result == PLAYER[0]) == a_red:
            c.wins += 1
        else:
            c.losses += 1
        c.margin += a_vp - b_vp
        c.margin_sq += (a_vp - b_vp) ** 2

    def stopped_lines(self) -> list[str]:
        """Each reason battles were not played out, most frequent first, with its first battle
        (scenario, seed, red and blue: `sim run SCENARIO --seed S --red R --blue B` plays it)."""
        lad = self.ladder
        out = []
        for reason, n in sorted(self.stops.items(), key=lambda kv: -kv[1]):
            g = self.first_stopped[reason]
            out.append(f"not played out in {counted(n, 'battle')} (first: {lad.paths[g.scenario]} seed {g.seed}, "
                       f"{lad.players[g.red]} red v {lad.players[g.blue]} blue): {reason}")
        return out

    def pair(self, i: int, j: int, scenario: int | None = None) -> PairTally:
        """Player i's games against j (i != j): on one scenario, or all of them (None)."""
        a, b = min(i, j), max(i, j)
        out = PairTally(a, b)
        for s in range(len(self.ladder.specs)):
            if scenario is None or s == scenario:
                out = out.merge(self.cells[(s, a, b)])
        return out if i == a else out.flipped()

    def ratings(self, scenario: int | None = None) -> list[float]:
        k = len(self.ladder.players)
        score = [[0.0] * k for _ in range(k)]
        games = [[0] * k for _ in range(k)]
        for i in range(k):
            for j in range(k):
                if i != j:
                    p = self.pair(i, j, scenario)
                    score[i][j], games[i][j] = p.score, p.games
        return elo(score, games)
