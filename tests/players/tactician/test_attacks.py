"""The tactician's shooting and fighting (issue 27 item 1), in constructed positions where the
right choice is clear: the target worth most is shot; a second unit does not shoot at a target
the first is expected to destroy (overkill); a unit's weapons split between targets when each
does most to its own; the unit fights the enemy worth most; the same position gives the same
commands; each candidate is legal, best first, in words with names."""

from __future__ import annotations

from phased import mission_scenario, model, unit, weapon
from sim.battle import Battle
from sim.commands import EndPhase, Fight, Shoot, StartBattle
from sim.phases.state import FightStep, Phase
from sim.players.default import DefaultPlayer
from sim.players.tactician import TacticianPlayer
from sim.players.tactician import attacks as A
from sim.players.tactician import judge as J

WEAPONS = {"gun": weapon(24, 2, 3, 4, 0, 1), "volley gun": weapon(24, 12, 3, 4, 0, 1),
           "cannon": weapon(36, 1, 3, 12, -4, 6), "blade": weapon("melee", 3, 3, 4, 0, 1),
           "claw": weapon("melee", 4, 3, 5, -1, 1)}
# (objectives far from every unit: where they are plays no part in these positions)
FAR = [{"name": "n", "at": [30, 42], "kind": "central"}]


def _battle(red, blue, seed=1):
    b = Battle(mission_scenario(red, blue, weapons=WEAPONS, objectives=FAR, seed=seed), seed=seed)
    b.run_command(StartBattle())
    return b


def _to_shooting(b):
    while b.turn_state.phase != Phase.SHOOTING:
        b.run_command(EndPhase())
    b._enter()
    return TacticianPlayer(0, b, b.scenario)


def _targets(cmd) -> set:
    return {s.target for s in cmd.selections if s.target is not None}


def test_shoots_the_target_worth_most_a_nearly_destroyed_valuable_unit():
    red = [unit("r-gun", model([(10, 10), (11.5, 10)], ["gun"]))]
    # a valuable unit with one model left, and a cheap one at full strength, both in range
    blue = [unit("b-elite", model([(10, 22), (11.5, 22), (13, 22)], ["gun"]), points=300),
            unit("b-chaff", model([(20, 22), (21.5, 22), (23, 22), (24.5, 22), (26, 22)], ["gun"]), points=25)]
    with _battle(red, blue) as b:
        from scen import kill
        kill(b, "b-elite/1")
        kill(b, "b-elite/2")
        p = _to_shooting(b)
        cands = p.candidates(b)
        assert cands and isinstance(cands[0].command, Shoot)
        assert _targets(cands[0].command) == {"b-elite"}
        assert [c.value for c in cands] == sorted((c.value for c in cands), reverse=True)
        for c in cands:
            assert b.check(c.command) is None
        assert cands[0].label.startswith("r-gun shoots b-elite:") and "pts expected" in cands[0].label


def test_a_second_unit_does_not_shoot_at_a_target_the_first_is_expected_to_destroy():
    # the volley guns all but surely destroy the lone valuable model; the other gun unit is
    # better used on the healthy unit than on what is expected gone
    red = [unit("r-volley", model([(10, 10), (11.5, 10)], ["volley gun"])),
           unit("r-gun", model([(20, 10), (21.5, 10)], ["gun"]))]
    blue = [unit("b-elite", model([(14, 22), (15.5, 22)], ["gun"]), points=200),
            unit("b-line", model([(24, 22), (25.5, 22), (27, 22), (28.5, 22)], ["gun"]), points=60)]
    with _battle(red, blue) as b:
        from scen import kill
        kill(b, "b-elite/1")
        p = _to_shooting(b)
        options = {u: A.unit_options(p, b, u) for u in A.shooters(p, b)}
        planned = A.plan(options)
        assigned = {J.name(o.unit): _targets(o.command) for _urg, o in planned}
        assert assigned == {"r-volley": {"b-elite"}, "r-gun": {"b-line"}}
        # alone, the gun unit would have shot the valuable model
        alone = A.plan({u: o for u, o in options.items() if J.name(u) == "r-gun"})
        assert _targets(alone[0][1].command) == {"b-elite"}


def test_a_units_weapons_split_each_at_the_target_it_does_most_to():
    # the cannon wounds the tank; the volley gun only scratches it but cuts down infantry
    red = [unit("r-team", model([(10, 10)], ["cannon"]), model([(11.5, 10)], ["volley gun"]))]
    blue = [unit("b-tank", model([(10, 24)], ["gun"], T=10, Sv=3, W=12, base_mm=60), keywords=("VEHICLE",),
                 points=240),
            unit("b-line", model([(24, 22), (25.5, 22), (27, 22), (28.5, 22), (30, 22)], ["gun"], Sv=6),
                 points=75)]
    with _battle(red, blue) as b:
        p = _to_shooting(b)
        best = p.candidates(b)[0].command
        by_weapon = {s.weapon: s.target for s in best.selections}
        assert by_weapon == {"cannon": "b-tank", "volley gun": "b-line"}
        assert b.check(best) is None


def test_the_same_position_gives_the_same_commands():
    red = [unit("r-volley", model([(10, 10), (11.5, 10)], ["volley gun"])),
           unit("r-gun", model([(20, 10), (21.5, 10)], ["gun"]))]
    blue = [unit("b-a", model([(14, 22), (15.5, 22)], ["gun"])),
            unit("b-b", model([(24, 22), (25.5, 22), (27, 22)], ["gun"]))]
    seen = []
    for _ in range(2):
        with _battle(red, blue, seed=7) as b:
            p = _to_shooting(b)
            seen.append([(c.command, round(c.value, 9), c.label) for c in p.candidates(b)])
    assert seen[0] and seen[0] == seen[1]


def _to_fight(b):
    """Play both sides with the default player until red picks a unit to fight."""
    players = [DefaultPlayer(0, b, b.scenario), DefaultPlayer(1, b, b.scenario)]
    from sim.players.resolve import submit_and_resolve
    for _ in range(200):
        ts = b.turn_state
        if ts.phase == Phase.FIGHT and ts.step == FightStep.FIGHT and ts.chooser == 0:
            b._enter()
            return TacticianPlayer(0, b, b.scenario)
        c = players[ts.chooser].choose(b)
        submit_and_resolve(b, b.scenario, "test", c.command, lambda r: r.default)
    raise AssertionError("no fight for red")


def test_fights_the_engaged_enemy_worth_most():
    # the red unit stands engaged with two enemy units: a valuable one and a cheap one
    red = [unit("r-claws", model([(20, 20), (21.5, 20), (23, 20)], ["claw"], W=3, Sv=2))]
    blue = [unit("b-boss", model([(20, 21.4)], ["blade"], W=2), points=150),
            unit("b-grunts", model([(21.5, 21.4), (23, 21.4)], ["blade"]), points=20)]
    with _battle(red, blue) as b:
        p = _to_fight(b)
        cands = p.candidates(b)
        assert cands and isinstance(cands[0].command, Fight)
        assert b.check(cands[0].command) is None
        targets = [s.target for s in cands[0].command.selections]
        assert targets.count("b-boss") >= 2  # (every model that reaches the boss attacks it)


def test_a_unit_holding_an_objective_is_shot_before_an_equal_one_off_it():
    # two equal enemy units at equal distances; one holds an objective our unit contests
    red = [unit("r-gun", model([(19.25, 8), (20.75, 8)], ["gun"])),
           unit("r-holder", model([(40, 19.5)], ["gun"]))]
    blue = [unit("b-holder", model([(37.75, 23.5), (39.25, 23.5)], ["gun"]), points=40),
            unit("b-other", model([(0.75, 23.5), (2.25, 23.5)], ["gun"]), points=40)]
    objectives = [{"name": "hill", "at": [38.5, 21.5], "kind": "central"}]
    spec = mission_scenario(red, blue, weapons=WEAPONS, objectives=objectives)
    with Battle(spec, seed=1) as b:
        b.run_command(StartBattle())
        p = _to_shooting(b)
        stakes = J.objective_stakes(b)
        assert stakes.get("b-holder", 0.0) > 0.0 and "b-other" not in stakes
        gun = b.units["r-gun"]
        alone = A.plan({gun: A.unit_options(p, b, gun)})
        assert _targets(alone[0][1].command) == {"b-holder"}


def test_a_counteroffensive_s_unit_is_the_next_pick():
    # two red units engaged; a Counteroffensive (15.12) made the one worth less the next pick
    red = [unit("r-claws", model([(20, 20), (21.5, 20), (23, 20)], ["claw"], W=3, Sv=2)),
           unit("r-blades", model([(40, 20)], ["blade"]))]
    blue = [unit("b-boss", model([(20, 21.4)], ["blade"], W=2), points=150),
            unit("b-grunts", model([(40, 21.4)], ["blade"]), points=20)]
    with _battle(red, blue) as b:
        p = _to_fight(b)
        free = p.candidates(b)
        assert free and free[0].command.unit == "r-claws"  # (its fight is worth more)
        assert A.HONOURS_FORCED_PICK
        b.turn_state.forced_pick = b.units["r-blades"]
        cands = p.candidates(b)
        assert cands and {c.command.unit for c in cands} == {"r-blades"}
        assert b.check(cands[0].command) is None


def test_an_options_tie_break_key_is_its_words_with_datasheet_names_never_the_odds_memo_key():
    # two identical target units: their options are worth the same, so the order between them
    # is the tie-break key, the label spelled with datasheet names (Option.key); the odds memo's
    # own key (a tuple holding the command) once shadowed it, and sorting equal options raised
    red = [unit("r-gun", model([(10, 10), (11.5, 10)], ["gun"]))]
    blue = [unit("b-twin1", model([(8, 22), (9.5, 22)], ["gun"]), points=60),
            unit("b-twin2", model([(12, 22), (13.5, 22)], ["gun"]), points=60)]
    with _battle(red, blue) as b:
        p = _to_shooting(b)
        gun = b.units["r-gun"]
        opts = A.unit_options(p, b, gun)
        assert sorted(o.key for o in opts) == ["r-gun shoots b-twin1", "r-gun shoots b-twin2"]
        cands = p.candidates(b)  # (sorts the options of equal value by their keys)
        assert {frozenset(_targets(c.command)) for c in cands} == {frozenset({"b-twin1"}), frozenset({"b-twin2"})}


def test_an_attack_s_odds_are_solved_once_a_battle_for_an_equal_problem(monkeypatch):
    # (judge.attack_odds keeps each Problem's odds for the battle: the candidates solved the best
    # option's; asked again, as the same command or an equal one, with sim.odds's own cache
    # emptied, it is not solved again, and the answer is the same)
    red = [unit("r-gun", model([(10, 10), (11.5, 10)], ["gun"]))]
    blue = [unit("b1", model([(10, 22), (11.5, 22), (13, 22)], ["gun"]))]
    with _battle(red, blue) as b:
        p = _to_shooting(b)
        cmd = p.candidates(b)[0].command
        summary = J.summary
        calls = []
        monkeypatch.setattr(J, "summary", lambda problem: calls.append(problem) or summary(problem))
        first = J.attack_odds(b, cmd)
        again = J.attack_odds(b, Shoot(cmd.unit, cmd.selections, cmd.type))
        assert first is not None and again == first and first.targets[0].destroyed > 0
        assert calls == []


def test_a_shoot_the_expansion_knows_is_refused_is_refused_by_the_check(monkeypatch):
    """A Shoot whose shorthand found a weapon no model can use at its target (a target the
    phase's list keeps after its seen models were removed, Expansion.refused) is left out of the
    tactician's options without its check: in whole battles, every such command is one the
    rules refuse at that moment, and some come up."""
    from pathlib import Path

    from sim.players import play_battle
    from sim.scenario.load import load_scenario
    from sim.analysis.stats import with_players
    from sim.scenario import script_run as SR
    seen = []
    expand = SR.expand

    def checked(battle, step, shared=None):
        got = expand(battle, step, shared)
        if got.refused is not None:
            assert battle.check(got.command) is not None
            seen.append(got.refused)
        return got
    monkeypatch.setattr(A, "expand", checked)
    root = Path(__file__).resolve().parents[3]
    spec = with_players(load_scenario(root / "scenarios/ladder/full_size.toml"), ("tactician", "tactician"))
    with Battle(spec, seed=1) as b:
        play_battle(b, spec)
    assert seen and all("(04.02)" in w or "(06.01)" in w or "(1" in w for w in seen)


def test_a_refusal_the_expansion_knew_is_kept_only_while_nothing_happens(monkeypatch):
    """The option of a command its expansion knew refused is dropped without the check only
    while the battle's mark is the one it was noted at: the same command met later (its
    expansion no longer refused, the engaged enemy gone, say) is checked again."""
    red = [unit("r-gun", model([(10, 10), (11.5, 10)], ["gun"]))]
    blue = [unit("b-line", model([(10, 22), (11.5, 22)], ["gun"]))]
    with _battle(red, blue) as b:
        p = _to_shooting(b)
        u = b.units["r-gun"]
        cmd = A._shoot(p, b, u, {"gun": "b-line"})
        checked = []
        check = b.check
        monkeypatch.setattr(b, "check", lambda c: checked.append(c) or check(c))
        p.memo[("refused", cmd)] = b.mark()                 # (as if its expansion knew it refused now)
        assert A.evaluate(p, b, u, cmd, "") is None and checked == []
        p.memo.clear()
        p.memo[("refused", cmd)] = (b.mark()[0] - 1, b.mark()[1])   # (noted before something happened)
        assert A.evaluate(p, b, u, cmd, "") is not None and checked[:1] == [cmd]
