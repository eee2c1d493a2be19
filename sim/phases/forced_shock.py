"""Forced battle-shock tests (sim.rules.effects.vocabulary.FORCED_SHOCK): at a moment of the
battle round (V.AT_COMMAND: in a Command phase after its Battle-shock step, 08.04; V.AT_START_OF_PHASE:
at the start of a phase, after its choices) the rules whose tests are due make enemy units take
a battle-shock test, the one test of sim.phases.upkeep.battle_shock_test with the rule's modifier
(logged as its ``battle-shock`` event, naming the rule):

* ENEMIES / ENEMY_AURA grants: each enemy unit they reach and whose conditions hold
  (sim.world.rule_effects.acting), in unit order, one test per rule;
* ENGAGED_ENEMY grants: each holding unit whose grant acts (its conditions read for the holder)
  picks one enemy unit engaged with it, not picked for that rule at this moment already: a
  ``rule_choice`` decision of the holder's player (an enemy unit's id, or "decline"), answered
  by scripts, the default and random players and the sandbox.

A test made on a D6 (the effect's ``roll``) is made only on that roll or more; its mortal wounds
(``dice``) come first, their casualties removed, and a unit so destroyed takes no test. What is
decided (the D6, the pick's options and default) is sim.rules.effects.forced_shock (pure)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Unit
from sim.decisions import DecisionRequest, ask
from sim.phases import upkeep
from sim.rules.effects import forced_shock as FS
from sim.rules.effects import vocabulary as V
from sim.rules.turn import PLAYER
from sim.systems.mortal_wounds import suffer_mortal_wounds
from sim.systems.removal import remove_casualties
from sim.world import queries as W
from sim.world import rule_effects as RE

KIND = "rule_choice"


def _uid(u: int) -> str:
    return esper.component_for_entity(u, Unit).id


def _owner(u: int) -> int:
    return esper.component_for_entity(u, Unit).owner


def forced_tests(battle, moment: str):
    """The forced battle-shock tests due at ``moment`` (a generator: a pick or a re-roll may be
    asked; module docstring)."""
    if not RE.any_rules():
        return
    done: set = set()
    for u in W.all_units():  # (ENEMIES / ENEMY_AURA: the affected units, in unit order)
        if W.off_table(u) or W.unit_destroyed(u) or not any(
                a.grant.who != V.ENGAGED_ENEMY and FS.due(a.grant.what, moment)
                for a in RE.reaching(u, (V.FORCED_SHOCK,))):
            continue  # (none due now reaches it: no conditions read, as acting's answer would be filtered to none)
        for a in RE.acting(battle, u, (V.FORCED_SHOCK,)):
            if a.grant.who == V.ENGAGED_ENEMY or not FS.due(a.grant.what, moment):
                continue
            k = (a.held.record.key, _owner(a.holder), u)
            if k in done or W.unit_destroyed(u):
                continue
            done.add(k)
            RE.use(battle, a)
            yield from _test(battle, u, a)
    picked: dict = {}
    for holder in W.all_units():  # (ENGAGED_ENEMY: each holding unit picks, in unit order)
        if W.off_table(holder) or W.unit_destroyed(holder) or not any(
                a.grant.who == V.ENGAGED_ENEMY and FS.due(a.grant.what, moment)
                for a in RE.reaching(holder, (V.FORCED_SHOCK,))):
            continue
        for a in RE.acting(battle, holder, (V.FORCED_SHOCK,)):
            if a.grant.who != V.ENGAGED_ENEMY or not FS.due(a.grant.what, moment):
                continue
            yield from _pick_and_test(battle, holder, a, picked.setdefault((a.held.record.key, _owner(holder)), set()))


def in_step(battle, u: int, state: str):
    """The test a rule forces on unit ``u`` in its own Battle-shock step (V.IN_SHOCK_STEP: the
    first such grant acting on it), as a generator making it as the unit's one roll of the step
    (08.03.01; a pass clears battle-shock), or None when no rule forces one (none of a unit off
    the battlefield: in reserves or embarked, no rule's range reaches it)."""
    if W.off_table(u):
        return None
    a = next((a for a in RE.acting(battle, u, (V.FORCED_SHOCK,))
              if a.grant.who != V.ENGAGED_ENEMY and FS.due(a.grant.what, V.IN_SHOCK_STEP)), None)
    if a is None:
        return None

    def test():
        RE.use(battle, a)
        e, name = a.grant.what, a.held.record.name
        mod = f" ({e.value:+d})" if e.value else ""
        battle.emit(ev.RULE_EFFECT, rule=name, unit=_uid(u), effect=f"must take a battle-shock test{mod}")
        yield from upkeep.battle_shock_test(battle, u, True, True, {"strength": state, "rule": name}, forced=e.value)
    return test()


def _pick_and_test(battle, holder: int, a, picked: set):
    """An ENGAGED_ENEMY test: the holder's player picks one engaged enemy unit (not in
    ``picked``), which takes the test."""
    engaged = [t for t in W.engaged_with(holder) if not W.unit_destroyed(t) and _owner(t) != _owner(holder)]
    cands = [(_uid(t), W.unit_state(t).battle_shocked) for t in engaged]
    opts = FS.pick_options([c[0] for c in cands], picked)
    if not opts:
        return
    rec, hid = a.held.record, _uid(holder)
    owner = _owner(holder)
    ts = battle.turn_state
    req = DecisionRequest(KIND, f"{RE.choice_key(owner, rec.key, hid)} {ts.phase} {ts.round}.{ts.active}", owner, opts,
                          FS.default_pick(cands, picked),
                          prompt=f"{rec.name} ({hid}): which engaged enemy unit takes a battle-shock test?",
                          context={"rule": rec.key, "choice": V.ENGAGED_ENEMY, "unit": hid, "turn": V.EITHER_TURN})
    answer = yield from ask(battle, req)
    target = next((t for t in engaged if _uid(t) == answer), None)
    if target is None:
        battle.emit(ev.RULE_CHOICE, rule=rec.name, player=PLAYER[owner], value=False, unit=hid)
        return
    picked.add(answer)
    battle.emit(ev.RULE_CHOICE, rule=rec.name, player=PLAYER[owner], value=answer, unit=hid)
    RE.use(battle, a)
    yield from _test(battle, target, a)


def _test(battle, u: int, a):
    """One forced test of unit ``u`` by the acting grant ``a``: its D6 (if any), its mortal
    wounds (if any, casualties removed), then the battle-shock test with the rule's modifier."""
    e, name, uid, by = a.grant.what, a.held.record.name, _uid(u), _uid(a.holder)
    die = battle.dice.d6(1, f"{name} ({uid})")[0] if e.roll > 0 else None
    if not FS.gate_passes(e.roll, die):
        battle.emit(ev.RULE_EFFECT, rule=name, unit=uid, effect=f"rolls {die}: no test (needs {e.roll}+)")
        return
    rolled = "" if die is None else f" (rolled {die})"
    if FS.has_mortal_wounds(e):
        n = e.dice.roll(battle.dice, f"{name} mortal wounds ({uid})")
        battle.emit(ev.RULE_EFFECT, rule=name, unit=uid, effect=f"suffers {n} mortal wound{'s' if n != 1 else ''}{rolled}")
        rolled = ""
        if n > 0:
            suffer_mortal_wounds(battle, u, n, source=name, by=by)
            yield from remove_casualties(battle)
        if W.unit_destroyed(u):
            return
    mod = f" ({e.value:+d})" if e.value else ""
    battle.emit(ev.RULE_EFFECT, rule=name, unit=uid, effect=f"must take a battle-shock test{mod}{rolled}")
    yield from upkeep.battle_shock_test(battle, u, False, True, {"rule": name}, forced=e.value)
