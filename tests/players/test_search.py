"""The search player (issue 27 item 2): the tactician's choices weighed by rollouts on forks. It
finds a better command than the tactician's first where playing forward shows one; it never
disturbs the battle it searches (events, dice, world, the tactician's record); a battle it
plays is the same for a seed, byte for byte, and replays from its log with no player; its
budget is read from a scenario's kind ("search:0.5") or --budget, with one clear error."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import esper
import pytest

from sim.battle import Battle
from sim.cli import main
from sim.commands import EndPhase, Shoot, StartBattle
from sim.errors import ScenarioError
from sim.phases.state import Phase
from sim.players import make_player, play_battle
from sim.players import options as O
from sim.players import search as S
from sim.players.search import SearchPlayer
from sim.players.tactician import Scored
from sim.replay.log import Recorder, replay, write_log
from sim.scenario.load import load_scenario
from sim.scenario.mission import split_kind

ROOT = Path(__file__).resolve().parents[2]

# One red gunner; blue's nearest unit is a wall it can hardly hurt, the farther one a squad it can
# destroy, worth twice as much: playing forward shows the squad is the better target.
TWO_TARGETS = """
[battle]
name = "Two targets"
seed = 3
board = [60, 44]

[mission]
first = "red"
rounds = 1
players = { red = "search", blue = "tactician" }

[weapons."long rifle"]
range = 48
A = 6
BS = 2
S = 6
AP = -2
D = 2

[weapons."stick"]
range = "melee"
A = 1
WS = 5
S = 3
AP = 0
D = 1

[[armies]]
name = "Red"

[[armies.units]]
id = "gunners"
name = "Gunners"
keywords = ["INFANTRY"]
points = 100
models = [
  { name = "Gunner", count = 1, base_mm = 32, M = 1, T = 4, Sv = 3, W = 3, Ld = 6, OC = 1, weapons = ["long rifle"], at = [[30, 8]] },
]

[[armies]]
name = "Blue"

[[armies.units]]
id = "wall"
name = "Stone Wall"
keywords = ["VEHICLE"]
points = 100
models = [
  { name = "Wall", count = 1, base_mm = 60, M = 1, T = 12, Sv = 2, W = 24, Ld = 6, OC = 1, weapons = ["stick"], at = [[30, 34]] },
]

[[armies.units]]
id = "runners"
name = "Runners"
keywords = ["INFANTRY"]
points = 200
models = [
  { name = "Runner", count = 3, base_mm = 32, M = 1, T = 3, Sv = 6, W = 1, Ld = 6, OC = 1, weapons = ["stick"], at = [[50, 40], [52, 40], [54, 40]] },
]
"""


@pytest.fixture
def two_targets(tmp_path):
    path = tmp_path / "two_targets.toml"
    path.write_text(TWO_TARGETS)
    return path


def _at_shooting(spec):
    b = Battle(spec)
    b.run_command(StartBattle())
    while b.turn_state.phase != Phase.SHOOTING:
        b.run_command(EndPhase())
    return b


def _shots(b):
    """The gunners' shot at the wall and at the runners."""
    g = b.units["gunners"]
    return [O.shoot_at(b, g, b.units[t]).command for t in ("wall", "runners")]


def _wall_first(p, b):
    """The tactician's candidates made to put the wall first (whatever its own judgement: the
    search is tested, not the tactician), recording what it proposed as its phase modules do."""
    wall, runners = _shots(b)

    def candidates(battle):
        p.tactician.fresh(battle)
        p.tactician.memo.setdefault("done", set()).add(("gunners", "shoot"))
        p.tactician.fallback._done.add(("gunners", "shoot"))
        return [Scored(2.0, wall, "Gunners shoots at Stone Wall"), Scored(1.0, runners, "Gunners shoots at Runners")]
    p.tactician.candidates = candidates
    return wall, runners


def test_search_finds_a_better_target_than_the_tacticians_first(two_targets):
    spec = load_scenario(two_targets)
    with _at_shooting(spec) as b:
        p = SearchPlayer(0, b, spec, budget=0.5)
        wall, runners = _wall_first(p, b)
        said = []
        p.on_explain = said.append
        c = p.choose(b)
        assert c.command == runners
        # (--explain says why: the runners beat the tactician's first on the same futures; each
        # option says where it came from and how it did against the first; ">" marks the choice)
        assert said and said[0].chosen.startswith(
            "Gunners shoots at Runners (chosen over the tactician's first: +")
        runners_o, wall_o = said[0].options
        assert (runners_o.label, runners_o.chosen, wall_o.label, wall_o.chosen) == (
            "Gunners shoots at Runners", True, "Gunners shoots at Stone Wall", False)
        assert runners_o.detail.startswith("the tactician's second; ")
        assert " VP against the first on the same " in runners_o.detail
        assert wall_o.detail.startswith("the tactician's first; ") and "against" not in wall_o.detail
        text = said[0].text().splitlines()
        assert text[1].startswith("  > ") and text[2].startswith("    ") and text[1].endswith("]")
        assert p.searches and p.searches[0][0] == S.MAX_OPTIONS[Phase.SHOOTING] == 2  # (the wall, the runners)


def test_thinking_a_rollout_at_a_time_chooses_as_choose_does(two_targets):
    """Player.thinking (the sandbox drives the computer's choice with it, a few rollouts a
    frame): the search yields after each rollout, the real battle's world current and the
    battle unchanged between steps, and returns the Choice ``choose`` makes from the same
    position, with the same futures (its own stream's seeds) and the same work done."""
    spec = load_scenario(two_targets)
    chosen = []
    for by_steps in (False, True):
        with _at_shooting(spec) as b:
            p = SearchPlayer(0, b, spec, budget=0.2)
            _wall_first(p, b)
            mark, events = b.state_hash(), len(b.events)
            runners = _shots(b)[1]
            if not by_steps:
                chosen.append((p.choose(b), p.searches, p.rng.getstate()))
                continue
            steps, counted = p.thinking(b), []
            while True:
                try:
                    counted.append(next(steps))
                except StopIteration as done:
                    choice = done.value
                    break
                assert esper.current_world == b.world and b.state_hash() == mark and len(b.events) == events
            assert counted == list(range(1, len(counted) + 1)) and len(counted) == p.searches[0][1] >= 4
            chosen.append((choice, p.searches, p.rng.getstate()))
    assert chosen[0] == chosen[1] and chosen[0][0].command == runners


def test_thinking_of_a_player_that_does_not_search_is_its_choice_at_once(two_targets):
    spec = load_scenario(two_targets)
    with _at_shooting(spec) as b:
        for kind in ("default", "random"):
            steps = make_player(kind, 0, b, spec).thinking(b)
            with pytest.raises(StopIteration) as done:
                next(steps)
            assert done.value.value.command == make_player(kind, 0, b, spec).choose(b).command


def test_the_tacticians_shooting_choice_thought_a_unit_at_a_time_is_its_choice(two_targets):
    """The tactician weighs a Shooting phase's options a unit at a time when driven step by
    step (the sandbox draws between steps): the battle unchanged between them, the same Choice
    as ``choose``; the steps' hold on the battle ends with them."""
    from sim.odds import problem as OP
    spec = load_scenario(two_targets)
    with _at_shooting(spec) as b:
        mark, events = b.state_hash(), len(b.events)
        steps, n = make_player("tactician", 0, b, spec).thinking(b), 0
        while True:
            try:
                next(steps)
                n += 1
            except StopIteration as done:
                choice = done.value
                break
            assert OP._HELD[0] is not None and b.state_hash() == mark and len(b.events) == events
        assert n >= 1 and OP._HELD[0] is None
        want = make_player("tactician", 0, b, spec).choose(b)
        assert (choice.command, choice.why, choice.expected) == (want.command, want.why, want.expected)
        closed = make_player("tactician", 0, b, spec).thinking(b)
        next(closed)
        closed.close()  # (a thinking thrown away: its hold ends at once)
        assert OP._HELD[0] is None


def test_a_budget_too_small_for_two_futures_plays_the_tacticians_first(two_targets):
    spec = load_scenario(two_targets)
    with _at_shooting(spec) as b:
        p = SearchPlayer(0, b, spec, budget=0.01)  # (less than two futures each: no search)
        wall, _ = _wall_first(p, b)
        assert p.choose(b).command == wall and p.searches == []


def test_search_leaves_the_battle_it_searches_alone(two_targets):
    spec = load_scenario(two_targets)
    with _at_shooting(spec) as b:
        p = SearchPlayer(0, b, spec, budget=0.2)
        t = p.tactician
        t.fresh(b)
        t.memo["done"] = {("other", "unit")}
        _wall_first(p, b)
        events, mark, state = list(b.events), b.state_hash(), b.dice._rng.getstate()
        c = p.choose(b)
        assert b.events == events and b.state_hash() == mark and b.dice._rng.getstate() == state
        assert esper.current_world == b.world and not b.busy
        # it chose another command than the tactician's first: the tactician's record of the
        # phase is as before it was asked (so it proposes its own again next time)
        assert c.command == _shots(b)[1]
        assert t.memo["done"] == {("other", "unit")} and ("gunners", "shoot") not in t.fallback._done
        b.run_command(c.command)  # (and the real battle takes the choice)
        assert any(e["type"] == "command" for e in b.events[len(events):])


def _played(tmp_path, spec, path, players, seed, name):
    s = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=players))
    with Battle(s, seed=seed) as b:
        rec = Recorder(b, str(path))
        ps = [make_player(kind, side, b, s) for side, kind in enumerate(players)]
        play_battle(b, s, rec, ps)
        assert b.turn_state.over
        assert ps[0].searches  # (it searched: the forks were played)
        return write_log(tmp_path / f"{name}.jsonl", rec), b.commands_done


def test_a_search_battle_is_deterministic_and_replays_without_a_player(tmp_path):
    path = tmp_path / "short_battle.toml"  # (three units a side, two battle rounds)
    path.write_text((ROOT / "scenarios/imported_battle.toml").read_text().replace("[mission]\n", "[mission]\nrounds = 2\n"))
    spec = load_scenario(path)
    assert spec.mission.rounds == 2
    log1, n = _played(tmp_path, spec, path, ("search:0.2", "tactician"), 4, "one")
    log2, _ = _played(tmp_path, spec, path, ("search:0.2", "tactician"), 4, "two")
    assert Path(log1).read_bytes() == Path(log2).read_bytes()
    done, div = replay(log1)
    assert div is None and done == n


def test_the_budget_is_a_fixed_amount_of_work(two_targets):
    spec = load_scenario(two_targets)
    assert S.work_for(0.5, Phase.SHOOTING) == S.work_for(0.5, Phase.SHOOTING) > S.work_for(0.1, Phase.SHOOTING) > 0
    spent = []
    for budget in (0.3, 0.3, 1.0):
        with _at_shooting(spec) as b:
            p = SearchPlayer(0, b, spec, budget=budget)
            p.choose(b)
            spent.append(p.searches[0])
    assert spent[0] == spent[1]  # (the same work: no clock)
    assert spent[2][1] > spent[0][1]  # (a larger budget plays more futures)


def test_the_work_is_counted_at_the_cost_of_a_command_from_the_phase_searched():
    # (a Movement phase's rollouts play the turn's moves and first Shooting choices: dearer
    # commands, so fewer of them for the same seconds)
    for budget in (0.1, 0.5, 2.0):
        work = {ph: S.work_for(budget, ph) for ph in S.SEARCHED}
        assert work[Phase.MOVEMENT] < min(work[Phase.SHOOTING], work[Phase.FIGHT]) <= work[Phase.CHARGE]
        assert all(w == max(1, int(budget / (S.REFERENCE_BASELINE * S.COMMAND_COST[ph]))) for ph, w in work.items())


def test_no_rollout_starts_once_the_work_is_spent(two_targets, monkeypatch):
    spec = load_scenario(two_targets)
    with _at_shooting(spec) as b:
        p = SearchPlayer(0, b, spec, budget=0.5)
        wall, runners = _wall_first(p, b)
        p.work = dict.fromkeys(S.SEARCHED, 150)
        played = []

        def rollout(battle, command, seed, saved):
            played.append(command)  # (each rollout "plays" 100 commands; the runners score better)
            return (5.0 if command == runners else 0.0), 100
        monkeypatch.setattr(p, "rollout", rollout)
        c = p.choose(b)
        # the wall's two futures spend the work (2 x 101 > 150): the runners never play, so the
        # incumbent stands, and the work is overrun by the last rollout only
        assert played == [wall, wall] and c.command == wall
        options, rollouts, spent = p.searches[-1]
        assert options >= 2 and rollouts == 2 and spent - (100 + S.FORK_COST) < 150 <= spent


@pytest.mark.parametrize("text,kind", [("search", ("search", None)), ("search:0.5", ("search", 0.5)),
                                       ("search:2", ("search", 2.0)), ("search:.25", ("search", 0.25)),
                                       ("tactician", ("tactician", None))])
def test_player_kinds_read(text, kind):
    assert split_kind(text) == kind


@pytest.mark.parametrize("text", ["search:x", "search:", "search:0", "search:61", "search:-1", "search:nan",
                                  "search:1e3", "default:0.5", "clever", "search:0.5:1"])
def test_bad_player_kinds_are_refused(text):
    with pytest.raises(ValueError):
        split_kind(text)


def test_a_scenario_with_a_bad_search_budget_is_one_clear_error(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(TWO_TARGETS.replace('red = "search"', 'red = "search:x"'))
    with pytest.raises(ScenarioError) as e:
        load_scenario(path)
    assert e.value.path == "mission.players.red"
    assert "'search:SECONDS' with a budget from 0.01 to 60 seconds" in str(e.value) and "search:x" in str(e.value)
    path.write_text(TWO_TARGETS.replace('red = "search"', 'red = "search:0.3"'))
    spec = load_scenario(path)
    with Battle(spec) as b:
        p = make_player(spec.mission.players[0], 0, b, spec)
        assert isinstance(p, SearchPlayer) and p.budget == 0.3 and p.work[Phase.FIGHT] == S.work_for(0.3, Phase.FIGHT)


@pytest.mark.parametrize("args,words", [
    (["--red", "search:x"], "--red: expected 'scripted' or 'random' or 'default' or 'tactician' or 'search'"),
    (["--blue", "search:0"], "--blue: expected"),
    (["--red", "search", "--budget", "abc"], "--budget: expected seconds a decision from 0.01 to 60, found 'abc'"),
    (["--red", "search", "--budget", "0"], "--budget: expected seconds a decision from 0.01 to 60, found 0"),
    (["--red", "default", "--blue", "tactician", "--budget", "0.5"], "expected a search player for --budget"),
])
def test_bad_budgets_on_the_command_line_are_one_clear_line(two_targets, capsys, args, words):
    code = main(["run", str(two_targets), "--quiet", *args])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert words in err, err


def test_budget_on_the_command_line_sets_every_search_player(two_targets, tmp_path):
    from types import SimpleNamespace

    from sim.cli import with_players
    spec = load_scenario(two_targets)
    s = with_players(spec, SimpleNamespace(red=None, blue="search", budget=0.25))
    assert s.mission.players == ("search:0.25", "search:0.25")
    s = with_players(spec, SimpleNamespace(red=None, blue=None, budget=None))
    assert s.mission.players == ("search", "tactician")


def test_a_search_battle_makes_no_reference_cycles(two_targets):
    """The forks it plays and throws away are freed by reference counting alone (a headless run
    switches the cyclic collector off: sim.players.runner.frozen_heap)."""
    from young_garbage import young_garbage
    spec = load_scenario(two_targets)
    with Battle(spec) as warm:  # (what a first run imports once is not counted)
        play_battle(warm, spec)
    searched = []

    def run():  # (the collector off; what was alive before set aside: tests/support/young_garbage.py)
        with Battle(spec) as b:
            p = SearchPlayer(0, b, spec, budget=0.2)
            play_battle(b, spec, players=[p, make_player("tactician", 1, b, spec)])
            searched.append(p.searches)

    assert young_garbage(run) == (0, []) and searched[0]


def test_explain_says_why_the_incumbent_is_kept_or_overturned():
    # (--explain's verdict follows the overturning rule: a gain on the same futures of more than
    # MIN_GAIN VP and Z standard errors; values are on the incumbent's futures)
    opts = [(EndPhase(), "A", "the tactician's first"), (EndPhase(), "B", "the tactician's second"),
            (EndPhase(), "C", "the end of the phase")]
    noisy = {1: (0.9, 1.2, 4), 2: (-0.5, 0.1, 4)}
    said = S._verdict(None, opts, 0, [1.0, 1.9, 0.5], noisy)
    assert said == ("A (kept: the tactician's second scored +0.90 VP on the same 4 futures, not more than "
                    f"{S.MIN_GAIN:g} VP and {S.Z:g} standard error (1.20): within the dice's noise)")
    clear = {1: (0.9, 0.2, 6), 2: (-0.5, 0.1, 6)}
    assert S._verdict(None, opts, 1, [1.0, 1.9, 0.5], clear) == (
        "B (chosen over the tactician's first: +0.90 VP on the same 6 futures, more than "
        f"{S.MIN_GAIN:g} VP and {S.Z:g} standard error (0.20))")
    assert S._verdict(None, opts, 0, [1.0, 0.9, 0.5], {1: (-0.1, 0.2, 6)}) == "A"  # (the first is best)
    just = {1: (1.5812, 1.5806, 2), 2: (-0.5, 0.1, 2)}  # (just over the bar: as many decimals as tell them apart)
    said = S._verdict(None, opts, 1, [1.0, 2.6, 0.5], just)
    assert "+1.5812 VP on the same 2 futures" in said and "standard error (1.5806)" in said
    assert S._detail("the tactician's second", 6, (0.9, 0.2, 6)) == \
        "the tactician's second; 6 futures; +0.90 VP against the first on the same 6 (± 0.20)"


def test_the_rules_other_options_are_named_in_words(two_targets):
    # (--explain names every option weighed as a person reads it, the rules' own options too)
    spec = load_scenario(two_targets)
    with _at_shooting(spec) as b:
        wall, runners = _shots(b)
        said = S._alternatives(b, 0, wall)
        assert [label for _cmd, label in said] == ["Gunners shoots Stone Wall", "Gunners shoots Runners"]
        assert [cmd for cmd, _label in said] == [wall, runners]


def test_a_search_battle_with_units_off_the_table_plays_out():
    # (found by playing the search on every shipped mission, 4 December: when the tactician's
    # first was a unit's arrival from strategic reserves, the rules' other options for that unit
    # were looked for from where its models stand, and it has none on the battlefield)
    spec = load_scenario(ROOT / "scenarios/reserves.toml")
    s = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=("search", "tactician")))
    with Battle(s, seed=9000) as b:
        ps = [make_player(kind, side, b, s) for side, kind in enumerate(("search", "tactician"))]
        play_battle(b, s, None, ps)
        assert b.turn_state.over and ps[0].searches


@pytest.mark.parametrize("x", [0.1 * k + 0.3 for k in range(40)] + [3.16, 1.580258 * 2, 7.0 / 3])
def test_a_tie_and_a_gain_on_two_futures_do_not_overturn_the_incumbent(two_targets, monkeypatch, x):
    # (their mean is exactly one standard error, not more: whichever way the two floats round)
    spec = load_scenario(two_targets)
    with _at_shooting(spec) as b:
        p = SearchPlayer(0, b, spec, budget=0.2)
        wall, runners = _wall_first(p, b)
        futures = iter([0.0, 0.0, 0.0, x] * 50)  # (the incumbent 0, 0; the other 0, x)
        monkeypatch.setattr(p, "rollout", lambda battle, command, seed, saved: (next(futures), 1))
        options = [(wall, "", "the tactician's first"), (runners, "", "the tactician's second")]
        monkeypatch.setattr(S, "MAX_FUTURES", 2)
        _means, best, judged, _futures = p.search(b, options, None, Phase.SHOOTING)
        assert judged[1][2] == 2 and best == 0


def test_the_options_on_one_future_roll_the_same_dice_where_they_make_the_same_roll(two_targets):
    # (common random numbers: the gunner's hit rolls are the same whichever target it shoots,
    # and whatever was rolled before them on that future, so the options' difference is the
    # target's, not the dice's; a fork's stream would have rolled other dice after another
    # roll; the real battle's dice are not touched)
    spec = load_scenario(two_targets)
    with _at_shooting(spec) as b:
        state = b.dice._rng.getstate()
        hits = {}
        for name, cmd, before in zip(("wall", "runners"), _shots(b), (0, 4)):
            for fork in (S.fork, Battle.fork):
                f = fork(b, 12345)
                rolls = []
                f.dice.d6(before, "charge roll runners")
                f.dice.listener = lambda purpose, results: rolls.append((purpose, results))
                f.run_command(cmd)
                hits[name, fork] = [r for p, r in rolls if p == "hit rolls"]
                f.close()
        assert hits["wall", S.fork] and hits["wall", S.fork] == hits["runners", S.fork]
        assert hits["wall", Battle.fork] != hits["runners", Battle.fork]
        assert b.dice._rng.getstate() == state
