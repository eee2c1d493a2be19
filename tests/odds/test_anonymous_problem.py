"""sim.odds.problem.anonymous: an attack's odds are its anonymous problem's (every name made
positional), to the bit, so sim.odds.engine.summary keeps them per anonymous problem and
attacks that differ only in names are solved once. Checked on constructed problems whose
names matter to the rules (a [PRECISION] pick, a declared and a scripted allocation order, a
hazard's mortal wounds on the attacker) renamed in every way, against solve on the problem as
given, and on every attack a full-size tactician battle weighs in its first two rounds."""

from __future__ import annotations

from dataclasses import replace

import pytest

from odds_support import pool, problem, unit
from sim.odds import engine as E
from sim.odds.problem import anonymous


pytestmark = pytest.mark.usefixtures("fresh_odds_caches")


def _means(pr) -> E.Summary:
    odds = E.solve(pr, counters=False)
    return E.Summary(tuple((t.uid, t.models, t.destroyed.mean, t.damage.mean, t.wiped) for t in odds.targets),
                     odds.hazard_destroyed.mean if odds.hazard_rolls else 0.0)


def _renamed(pr, how: dict):
    """The same problem with its names changed (``how``: old name -> new, units and models)."""
    def of(x):
        return how.get(x, x)

    def view(tv):
        return replace(tv, uid=of(tv.uid), name=of(tv.name) + "!", ids=tuple(of(i) for i in tv.ids),
                       preferred=tuple(of(i) for i in tv.preferred))
    decisions = tuple((k, tuple(of(x) for x in v) if isinstance(v, tuple) else of(v)) for k, v in pr.decisions)
    return replace(pr, attacker=view(pr.attacker), targets=tuple(view(t) for t in pr.targets),
                   pools=tuple(replace(p, attackers=tuple(of(i) for i in p.attackers),
                                       visible_characters=tuple(of(i) for i in p.visible_characters),
                                       weapons=("another gun",)) for p in pr.pools),
                   decisions=decisions, label="renamed")


def _character_unit(uid, preferred=()):
    # 4 W2 Sv3 models and 2 CHARACTERs (W4 Sv3 InSv4; W3 Sv2), one model wounded
    return unit(uid, ((4, 2, 3, None, False), (1, 4, 3, 4, True), (1, 3, 2, None, True)),
                start=(2, 1, 2, 2, 4, 3), preferred=preferred)


CASES = {
    "precision pick": lambda: problem([pool(A=12, S=5, AP=-1, D=2, abilities="PRECISION", visible=("t/5", "t/6"))],
                                      [_character_unit("t")], decisions=(("precision", "t/6"),)),
    "precision declined": lambda: problem([pool(A=12, S=5, AP=-1, D=2, abilities="PRECISION", visible=("t/5",))],
                                          [_character_unit("t")], decisions=(("precision", "decline"),)),
    "precision default": lambda: problem([pool(A=12, S=5, AP=-1, D=2, abilities="PRECISION", visible=("t/5", "t/6"))],
                                         [_character_unit("t")]),
    "declared order": lambda: problem([pool(A=14, S=4, AP=-1, D=1)],
                                      [unit("t", ((3, 1, 4, None, False), (3, 1, 3, None, False)),
                                            preferred=("t/5", "t/9", "t/1"))]),
    "scripted order": lambda: problem([pool(A=14, S=4, AP=-1, D=1)],
                                      [unit("t", ((3, 1, 4, None, False), (3, 1, 3, None, False)))],
                                      decisions=(("allocation_order", ("t/4", "t/1")),)),
    "hazard on the attacker": lambda: problem([pool(A="2D6", S=7, AP=-2, D="D3")],
                                              [unit("t", ((5, 2, 4, None, False),), fnp=5)], hazard=3,
                                              attacker=unit("a", ((2, 2, 3, None, False), (1, 4, 3, 4, True)))),
    "two targets": lambda: problem([pool(0, 0, A=10, S=4, AP=-1, D=1), pool(1, 1, A=4, S=8, AP=-3, D="D6")],
                                   [_character_unit("t"), unit("u", ((3, 3, 2, None, False),), kw=("VEHICLE",))]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_attack_s_odds_are_its_anonymous_problem_s(case):
    pr = CASES[case]()
    want = _means(pr)
    assert E.summary(pr) == want                     # (float ==: the same bits)
    # the same attack with every name changed: the same odds, the unit ids its own, from the
    # summary kept for the first (one entry)
    how = {"t": "z", "u": "y", "a": "b"} | {f"{u}/{k}": f"{u}{u}-{9 - k}" for u in "tua" for k in range(1, 9)}
    other = _renamed(pr, how)
    got = E.summary(other)
    assert got == _means(other)
    assert [t[1:] for t in got.targets] == [t[1:] for t in want.targets]
    assert [t[0] for t in got.targets] == [t.uid for t in other.targets]
    assert E._summary.cache_info().currsize == 1
    assert anonymous(other) == anonymous(pr)


def test_names_the_rules_read_are_told_apart():
    """A [PRECISION] pick of another model, or another declared order, is another problem."""
    a = CASES["precision pick"]()
    b = replace(a, decisions=(("precision", "t/5"),))
    assert anonymous(a) != anonymous(b) and E.summary(a) != E.summary(b)
    c = CASES["declared order"]()
    d = replace(c, targets=(replace(c.targets[0], preferred=("t/1",)),))
    assert anonymous(c) != anonymous(d) and E.summary(c) != E.summary(d)


def test_what_the_odds_never_read_is_left_out():
    """The attacker of an attack that makes no hazard roll, and the models making each pool's
    attacks, are read by no step of the odds: two units' attacks that differ only there are
    solved once. With hazard rolls the attacker is read (its models lose wounds to them): an
    attacker with other wounds is another problem."""
    base = problem([pool(A=10, S=4, AP=-1, D=1)], [unit("t", ((5, 2, 3, None, False),))])
    other = replace(base, attacker=unit("b", ((3, 1, 4, None, False),), start=(1, 1, 1)),
                    pools=(replace(base.pools[0], attackers=("b/1", "b/2", "b/3")),))
    assert anonymous(other) == anonymous(base)
    assert E.summary(base) == _means(base)
    assert E.summary(other) == _means(other) == _means(base)
    assert E._summary.cache_info().currsize == 1
    hazard = CASES["hazard on the attacker"]()
    wounded = replace(hazard, attacker=replace(hazard.attacker, start=(1, 2, 4)))
    assert anonymous(hazard) != anonymous(wounded)
    assert E.summary(hazard) == _means(hazard) and E.summary(wounded) == _means(wounded)
    assert E.summary(hazard).hazard_destroyed != E.summary(wounded).hazard_destroyed


def test_every_attack_a_full_size_tactician_battle_weighs():
    from sim.battle import Battle
    from sim.players import play_battle
    from sim.players.tactician import judge as J
    from sim.analysis.stats import with_players
    from sim.scenario.load import load_scenario
    asked = []
    summary = J.summary

    def keep(pr):
        asked.append(pr)
        return summary(pr)
    J.summary = keep
    try:
        spec = with_players(load_scenario("scenarios/ladder/full_size.toml"), ("tactician", "tactician"))
        spec = replace(spec, mission=replace(spec.mission, rounds=2))
        with Battle(spec, seed=1, record_dice=False) as b:
            play_battle(b, spec)
    finally:
        J.summary = summary
    shared = len(asked) - len({anonymous(pr) for pr in asked})
    assert len(asked) > 100 and shared > 10     # (two squads of one datasheet at one target...)
    for pr in asked:
        E._summary.cache_clear()
        assert E.summary(pr) == _means(pr)
        E.solve.cache_clear()
