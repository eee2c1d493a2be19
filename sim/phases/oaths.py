"""Oaths in the battle (the pure rules: sim.rules.effects.oaths; a record's OATH grant switches
them on): each army holding such a rule swears its oath before the battle, at the end of reading
the mission (an ``oath`` decision: "<deed> / <quality>", either part "random" to roll it on the
battle's dice; a scenario's ``chosen`` may swear it instead), picks the enemy CHARACTER model a
TYRANT deed names at the start of the battle (an ``oath_target`` decision: a model id), and its
deed is judged at its moment (the end of a turn or of a battle round) until it is done: then the
army is Honoured and gains its CP, as the Command phase's are gained (TurnState.cp, a ``cp``
event). Everything is logged (``oath sworn`` and ``oath target`` events, a ``deed`` event each
time the deed is judged) and kept in Resources.oaths. A battle without rules does nothing here
(``any_rules``)."""

from __future__ import annotations

import esper

from sim import events as ev
from sim.components import Character, Stats, Unit
from sim.decisions import DecisionRequest, ask
from sim.rules import command as CMD
from sim.rules.effects import oaths as OA
from sim.rules.effects import vocabulary as V
from sim.rules.turn import PLAYER
from sim.world import queries as W
from sim.world import resources as R
from sim.world import rule_effects as RE

KIND, TARGET_KIND = "oath", "oath_target"


def oath_rule(player: int) -> tuple[V.RuleRecord, V.Grant] | None:
    """The first rule with an OATH grant that a unit of ``player`` holds (unit order), and that grant."""
    for u in W.all_units():
        if esper.component_for_entity(u, Unit).owner != player:
            continue
        for h in RE.held_by(u):
            for g in h.record.grants:
                if g.what.kind == V.OATH:
                    return h.record, g
    return None


def _scenario_oath(battle, player: int, key: str):
    """The oath a scenario's ``chosen`` swore for this army's rule (None: none)."""
    armies = getattr(battle.scenario, "armies", ())
    if player >= len(armies):
        return None
    return dict(armies[player].chosen).get(key)


def swear(battle):
    """Each army holding an oath rule swears it (player order): its answer, or the scenario's;
    a part answered "random" is rolled on a D6."""
    if not RE.any_rules():
        return
    res = R.current
    for p in (0, 1):
        found = oath_rule(p)
        if found is None or PLAYER[p] in res.oaths:
            continue
        rec, g = found
        answer = _scenario_oath(battle, p, rec.key)
        if answer is None:
            req = DecisionRequest(KIND, f"{rec.key} {PLAYER[p]}", p, OA.oath_options(),
                                  f"{OA.DEFAULT_DEED} / {OA.DEFAULT_QUALITY}",
                                  prompt=f"{rec.name}: swear the oath, a deed and a quality, each picked or "
                                         f"\"random\" (rolled: one more CP when the deed is done)",
                                  context={"rule": rec.key, "legend": OA.legend()})
            answer = yield from ask(battle, req)
        deed, quality = OA.parse(answer)
        randomly = OA.RANDOM in (deed, quality)
        if deed == OA.RANDOM:
            deed = OA.rolled(OA.DEEDS, battle.dice.d6(1, f"{rec.name}: the deed ({PLAYER[p]})")[0])
        if quality == OA.RANDOM:
            quality = OA.rolled(OA.QUALITIES, battle.dice.d6(1, f"{rec.name}: the quality ({PLAYER[p]})")[0])
        res.oaths[PLAYER[p]] = {"deed": deed, "quality": quality, "random": randomly,
                                "cp": OA.reward(g.what.value, randomly), "rule": rec.name}
        battle.emit(ev.OATH, rule=rec.name, player=PLAYER[p], deed=OA.DEEDS[deed].name,
                    quality=OA.QUALITIES[quality].name, random=randomly)


def _enemy_characters(player: int) -> list[tuple[str, int]]:
    """(model id, W) of each CHARACTER model of ``player``'s opponent, in unit then model order."""
    out = []
    for u in W.all_units():
        if esper.component_for_entity(u, Unit).owner == player:
            continue
        for m in W.unit_models(u):
            if esper.has_component(m, Character) or "CHARACTER" in W.model_keywords(m):
                out.append((W.model_id(m), esper.component_for_entity(m, Stats).W))
    return out


def start_of_battle(battle):
    """An oath whose deed is TYRANT: its player picks an enemy CHARACTER model (the default: the
    one with the fewest wounds, the first of them)."""
    res = R.current
    if res is None or not res.oaths:
        return
    for p in (0, 1):
        oath = res.oaths.get(PLAYER[p])
        if oath is None or oath["deed"] != OA.TYRANT or "target" in oath:
            continue
        chars = _enemy_characters(p)
        target = None
        if chars:
            req = DecisionRequest(TARGET_KIND, f"tyrant {PLAYER[p]}", p, [m for m, _w in chars],
                                  min(chars, key=lambda c: c[1])[0],
                                  prompt=f"{oath['rule']}: pick the enemy CHARACTER model to lay low",
                                  context={"deed": OA.TYRANT})
            target = yield from ask(battle, req)
        oath["target"] = target
        battle.emit(ev.OATH_TARGET, rule=oath["rule"], player=PLAYER[p], model=target)


def _destroyed_this_round(battle, player: int) -> int:
    """The units of ``player``'s opponent destroyed since this battle round began (the log's
    ``unit destroyed`` events since its ``battle round`` event: a unit returned since counts)."""
    mine = {esper.component_for_entity(u, Unit).id for u in W.all_units()
            if esper.component_for_entity(u, Unit).owner == player}
    n = 0
    for e in reversed(battle.events):
        t = e["type"]
        if t == ev.ROUND:
            break
        if t == ev.UNIT_DESTROYED and e["unit"] not in mine:
            n += 1
    return n


def _facts(battle, player: int, oath: dict, moment: str) -> OA.DeedFacts:
    ts = battle.turn_state
    deed = oath["deed"]
    ctl = [0, 0]
    if deed == OA.REALM:
        for c in ts.control.values():
            if c.controller is not None:
                ctl[c.controller] += 1
    tyrant = False
    if deed == OA.TYRANT and oath.get("target"):
        m = battle.models.get(oath["target"])
        tyrant = m is not None and not W.alive(m)
    return OA.DeedFacts(moment, ts.active == player, ts.round,
                        _destroyed_this_round(battle, player) if deed == OA.TALLY else 0,
                        ctl[player], ctl[1 - player], tyrant)


def judge(battle, moment: str) -> None:
    """At the end of a turn (OA.END_OF_TURN) or of a battle round (OA.END_OF_ROUND): each oath
    not yet fulfilled whose deed is judged now is judged (a ``deed`` event, with its progress);
    done, the oath is fulfilled: the army is Honoured and its CP gained (sim.rules.command.gain_cp:
    not held to the per-round cap)."""
    res = R.current
    if res is None or not res.oaths:
        return
    ts = battle.turn_state
    for p in (0, 1):
        oath = res.oaths.get(PLAYER[p])
        if oath is None or oath.get("fulfilled") is not None:
            continue
        if not OA.judged_now(oath["deed"], moment, ts.active == p):
            continue
        f = _facts(battle, p, oath, moment)
        done = OA.deed_done(oath["deed"], f)
        battle.emit(ev.DEED, rule=oath["rule"], player=PLAYER[p], deed=OA.DEEDS[oath["deed"]].name, round=ts.round,
                    done=done, progress=OA.progress(oath["deed"], f))
        if not done:
            continue
        oath["fulfilled"] = ts.round
        ts.cp[p] = CMD.gain_cp(ts.cp[p], oath["cp"], capped=False)
        battle.emit(ev.CP, gained=oath["cp"], cp={PLAYER[q]: ts.cp[q] for q in (0, 1)},
                    source=f"{oath['rule']}: the oath fulfilled", player=PLAYER[p])
