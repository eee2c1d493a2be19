"""The facts of the rules' conditions read from where models stand, kept while nothing moves
(sim.world.rule_effects: a unit's domain facts and its army's units near it, kept for the
spatial index's version; an army's domain, kept by the zones, objectives and control it reads):
each read after a move, a removal or a change of control is what a fresh reading gives."""

from __future__ import annotations

import dataclasses

from phased import mission_scenario, model, unit
from scen import kill
from sim.battle import Battle
from sim.commands import StartBattle
from sim.rules.effects.domain import domain
from sim.rules.objectives import ObjectiveControl
from sim.world import mutations as M
from sim.world import queries as W
from sim.world import rule_effects as RE


def _centre(poly):
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def _battle():
    red = [unit("r", model((20, 20), ["gun"]), model((21.5, 20), ["gun"])), unit("q", model((40, 20), ["gun"]))]
    blue = [unit("b", model((30, 30), ["gun"]))]
    b = Battle(mission_scenario(red, blue))
    b.run_command(StartBattle())
    return b


def _fresh_domain_facts(b, u, owner):
    d = RE.domain_of(b, owner)
    return RE._domain_of_bases([W.footprint(m) for m in W.unit_models(u)], d)


def test_a_units_domain_facts_follow_its_moves():
    with _battle() as b:
        r = b.units["r"]
        zones = b.turn_state.zones()
        seen = []
        for x, y in (_centre(zones[0]), _centre(zones[1]), (30, 22), _centre(zones[0])):
            models = W.unit_models(r)
            M.move_models([(models[0], x, y), (models[1], x + 1.5, y)])
            got = RE._domain_facts(b, r, 0, True)
            assert got == _fresh_domain_facts(b, r, 0)
            assert RE._domain_facts(b, r, 0, True) is got  # (kept until something moves)
            seen.append(got["in_domain"])
        assert seen == [True, False, False, True]


def test_a_units_domain_facts_follow_a_removal():
    with _battle() as b:
        r = b.units["r"]
        own, enemy = b.turn_state.zones()
        a, c = W.unit_models(r)
        M.move_models([(a, *_centre(own)), (c, *_centre(enemy))])
        assert RE._domain_facts(b, r, 0, True) == {"in_domain": True, "wholly_in_domain": False}
        kill(b, W.model_id(a))
        M.remove_casualties([a])
        assert W.unit_models(r) == [c]
        assert RE._domain_facts(b, r, 0, True) == {"in_domain": False, "wholly_in_domain": False}


def test_the_army_near_a_unit_follows_its_moves():
    with _battle() as b:
        r, q = b.units["r"], b.units["q"]
        first = RE._holder_units(r, q)
        assert first[0][1] == 0.0 and first[1][1] == min(W.nearest_distances(W.unit_models(q), W.unit_models(r)))
        assert RE._holder_units(r, q) is first  # (kept until something moves)
        M.move_models([(W.unit_models(q)[0], 25, 20)])
        moved = RE._holder_units(r, q)
        assert moved != first and moved[1][1] < first[1][1]
        assert moved[1][1] == min(W.nearest_distances(W.unit_models(q), W.unit_models(r)))


def test_an_armys_domain_follows_the_control_of_the_objectives():
    with _battle() as b:
        ts = b.turn_state
        own, enemy = ts.zones()
        assert RE.domain_of(b, 0) == domain(0, own, enemy, ts.objectives, ts.control)
        for o in ts.objectives:
            ts.control[o.name] = ObjectiveControl(0)
        got = RE.domain_of(b, 0)
        assert got == domain(0, own, enemy, ts.objectives, ts.control) and got.no_mans_land and got.enemy_zone
        ts.control.clear()
        assert RE.domain_of(b, 0) == domain(0, own, enemy, ts.objectives, ts.control)
        assert not RE.domain_of(b, 0).no_mans_land


def _checked_through_battles(path, seed: int, every: int, check) -> None:
    """The file's battle played by the default players and by the random players (``seed``),
    ``check(battle)`` after every ``every``-th command."""
    from sim.players import play_battle
    from sim.scenario.load import load_scenario
    for players in (("default", "default"), ("random", "random")):
        spec = load_scenario(path)
        spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=players))
        with Battle(spec, seed=seed) as b:
            n = [0]

            def on_event(e, b=b, n=n):
                if e["type"] == "command":
                    n[0] += 1
                    if n[0] % every == 0:
                        check(b)
            b.listeners.append(on_event)
            play_battle(b, spec)


def test_kept_facts_and_the_stat_filter_read_as_fresh_ones_through_whole_battles(tmp_path):
    """The default battle with rules whose conditions read the domain, the units near and
    auras (The Shadow of Chaos, Power Matrix, Flow of Magic, Shadow in the Warp, Carrier Wave,
    Brood Progenitor), played by the default and the random players: after every command, for
    every unit on the battlefield, each kept reading equals a fresh one (a unit's domain facts,
    the distance from each other unit, the army near it) and a grant asked for by its stat is
    the grant of that stat among all of them."""
    from rules_replay import default_table_with
    from sim.rules.effects import vocabulary as V
    path = default_table_with(tmp_path, ["the-shadow-of-chaos", "flow-of-magic", "carrier-wave"],
                              ["power-matrix", "shadow-in-the-warp", "brood-progenitor"])
    checked = [0]

    def check(b):
        units = [u for u in W.all_units() if not W.off_table(u) and not W.unit_destroyed(u)]
        for u in units:
            for side in (0, 1):
                got = RE._domain_facts(b, u, side, True)
                d = RE.domain_of(b, side)
                assert got == ({} if d is None else RE._domain_of_bases([W.footprint(m) for m in W.unit_models(u)], d))
            for o in units:
                fresh = min(W.nearest_distances(W.unit_models(o), W.unit_models(u)))
                assert RE._gap(o, u) == fresh
            for s in ("M", "OC", "Ld", "T", "Sv"):
                every = [a for a in RE.acting(b, u, (V.MODIFY,)) if a.grant.what.stat == s]
                assert RE.acting(b, u, (V.MODIFY,), stat=s) == every
        checked[0] += 1

    _checked_through_battles(path, 3, 7, check)
    assert checked[0] > 20


def _fresh_reaching(u, kinds=None):
    """``RE.reaching`` worked out afresh: the kept readings set aside for the call, then put back."""
    kept = W.kept_while_still()
    saved = dict(kept)
    kept.clear()
    try:
        return RE.reaching(u, kinds)
    finally:
        kept.clear()
        kept.update(saved)


def _walked(u, kinds=None):
    """The grants reaching ``u`` by the plain walk (the module docstring read source by source,
    as ``reaching`` worked before it kept anything): its own rules, the rituals, then every aura
    source of the battle in order, each distance measured: the oracle of what ``reaching`` answers."""
    import esper
    from sim.components import ModelId, Unit
    from sim.rules.effects import vocabulary as V
    from sim.rules.geometry import within_distance
    from sim.world import resources as R
    out, picked = [], set()
    me = esper.component_for_entity(u, Unit)
    kws = W.unit_keywords(u) or W.roster(u).keywords
    alive_ids = {esper.component_for_entity(m, ModelId).id for m in W.unit_models(u)}
    for h in RE.held_by(u):
        if h.bearers and not alive_ids & set(h.bearers):
            continue
        for g in h.record.grants:
            if kinds is not None and g.what.kind not in kinds:
                continue
            if g.who in (V.BEARER, V.UNIT, V.ARMY, V.AURA, V.ENGAGED_ENEMY) and all(k in kws for k in g.keywords):
                out.append(RE.Acting(h, g, u))
            elif g.who == V.CHOSEN_FRIEND and (h.record.key, g) not in picked and RE._picked(me.owner, u, h, me.id):
                picked.add((h.record.key, g))
                out.append(RE.Acting(h, g, u))
    if R.current.rule_choices:
        out += RE._rituals(u, me.owner, kws, kinds)
    for other, h, g in RE._aura_sources():
        if other == u or (kinds is not None and g.what.kind not in kinds):
            continue
        friendly = esper.component_for_entity(other, Unit).owner == me.owner
        there = not W.unit_destroyed(other) and not W.off_table(other)
        if g.who == V.CHOSEN_FRIEND:
            if friendly and there and (h.record.key, g) not in picked and RE._picked(me.owner, other, h, me.id):
                picked.add((h.record.key, g))
                out.append(RE.Acting(h, g, other))
        elif g.who == V.ENEMIES:
            if not friendly and there and (h.record.key, g) not in picked and all(k in kws for k in g.keywords):
                picked.add((h.record.key, g))
                out.append(RE.Acting(h, g, other))
        elif g.who == (V.AURA if friendly else V.ENEMY_AURA) and all(k in kws for k in g.keywords) and there:
            srcs = [m for m in W.unit_models(other)
                    if not h.bearers or esper.component_for_entity(m, ModelId).id in h.bearers]
            mine = W.unit_models(u)
            if srcs and mine and within_distance(min(W.nearest_distances(srcs, mine)), g.range):
                out.append(RE.Acting(h, g, other))
    return out


def test_reaching_kept_while_still_reads_as_a_fresh_one_through_whole_battles(tmp_path):
    """The default battle with rules that reach other units (ENEMIES: The Shadow of Chaos;
    ENEMY_AURA: Harbingers of Dread; AURA: Throne of Judgement, Projected Void Shields), played by
    the default and the random players: after every third command, for every unit (those off the
    battlefield and destroyed too), the grants reaching it, of every kind and of some kinds, kept
    while nothing moves (sim.world.rule_effects._reach, _aura_candidates), are a fresh reading's,
    in order (of each kind alone too, the kinds no rule of the battle grants answered first: none);
    and no pair of units the units' boxes say is farther than an inch count is within it
    (sim.world.queries.may_be_within, which an aura's range reads first). A chosen friend's pick,
    which changes while nothing moves: test_rule_reach."""
    from rules_replay import default_table_with
    from sim.rules.effects import vocabulary as V
    path = default_table_with(tmp_path, ["the-shadow-of-chaos", "throne-of-judgement"],
                              ["harbingers-of-dread", "projected-void-shields"])
    checked, reached = [0], set()

    def check(b):
        units = W.all_units()
        for u in units:
            for kinds in (None, (V.MODIFY,), (V.FORCED_SHOCK, V.REROLL)):
                kept = RE.reaching(u, kinds)
                assert kept == _fresh_reaching(u, kinds) == _walked(u, kinds)
                reached.update((a.grant.who, a.holder == u) for a in kept)
            every = _walked(u)
            for kind in V.KINDS:   # (a kind no rule of the battle can grant: none, read first, RE.kinds_held)
                assert RE.reaching(u, (kind,)) == [a for a in every if a.grant.what.kind == kind]
            for o in units:
                if o == u or W.unit_destroyed(u) or W.unit_destroyed(o):
                    continue
                gap = min(W.nearest_distances(W.unit_models(o), W.unit_models(u)))
                for inches in (1.0, 6.0, 12.0):
                    assert W.may_be_within(u, o, inches) or gap > inches
        checked[0] += 1

    _checked_through_battles(path, 5, 3, check)
    assert checked[0] > 30
    # (every reach met, from another unit's rule)
    assert {(V.ENEMIES, False), (V.ENEMY_AURA, False), (V.AURA, False)} <= reached
