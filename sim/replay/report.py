"""The battle report: events in words a person can follow (also the sandbox's log lines)."""

from __future__ import annotations

import re

from sim import events as ev
from sim.commands import describe as describe_command
from sim.names import everything_of_battle, everything_with_units_of_battle, in_words, models_in_units_of_battle
from sim.rules.command_reroll import about_words, option_words
from sim.rules.abilities import Hook, tag
from sim.rules.transport import DisembarkMode
from sim.rules.turn import PLAYER
from sim.stratagems.command_reroll import NAME as COMMAND_REROLL

_PRECISION = tag(Hook.PRECISION)  # (as datasheets print it)


def _n(count: int, word: str) -> str:
    """'1 hit', '3 hits'."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _mods(e) -> str:
    """'; modifier: [HEAVY] (24.16) +1' (a source may carry brackets of its own, so the list is
    not bracketed again)."""
    parts = [f"{s} {v:+d}" for s, v in e.get("modifiers", [])]
    if e.get("ignored"):
        parts.append("psychic: ignores " + ", ".join(e["ignored"]))
    if not parts:
        return ""
    return f"; {'modifier' if len(parts) == 1 else 'modifiers'}: {'; '.join(parts)}"


def _save(step: dict) -> str:
    """A save roll, with the model's save-roll modifier if it has one: '3 (+1 save)'."""
    mod = step.get("save_mod")
    return f"{step['save']} ({mod:+d} save)" if mod else str(step["save"])


def _cr(e: dict, before: str = "; ", after: str = "") -> str:
    """A Command Re-roll (15.02) of one die of the roll, between ``before`` and ``after``:
    '; Command Re-roll: die 3, 1 -> 5'; nothing without one."""
    rr = e.get("command_reroll")
    return f"{before}{COMMAND_REROLL}: die {rr['die'] + 1}, {rr['from']} -> {rr['to']}{after}" if rr else ""


def describe(e: dict) -> str | None:
    """One line for an event, or None for events the report folds into others (dice). Pools
    are numbered from 1 for people (the events count from 0)."""
    line = _LINES.get(e["type"])
    return None if line is None else line(e)


def _nothing(e) -> None:
    """(An event the report folds into others: the dice into the rolls' events, a model
    destroyed into the damage it took.)"""
    return None


def _refused(e) -> str:
    return f"!! refused: {e['reason']}"


def _shooting_type(e) -> str:
    why = "" if e.get("requested") else " (the default: 10.02)"
    return f"   shooting type: {e['shooting_type']}{why}"


def _weapons(e) -> str:
    lines = {}
    for mid, w, tgt, n in e["selections"]:
        lines.setdefault((w, tgt, n), []).append(mid)
    parts = [f"{w} x{len(ms)} -> {tgt or 'no target'}" + (f" ({n} attacks)" if n else "")
             for (w, tgt, n), ms in lines.items()]
    return "   weapons: " + "; ".join(parts)


def _left_out(e) -> str:
    by: dict = {}
    for mid, w, tgt, why in e["models"]:
        by.setdefault((w, tgt, why), []).append(mid)
    return "\n".join(f"   {w} -> {tgt}: {', '.join(ms)} left out: {why}" for (w, tgt, why), ms in by.items())


def _pool(e) -> str:
    if e.get("note"):
        return f"   pool {e['pool'] + 1}: {e['note']}"
    ab = f" [{', '.join(e['abilities'])}]" if e["abilities"] else ""
    skill = "WS" if e.get("melee") else "BS"
    dmg = f"D{e['D']}" if e["D"].isdigit() else f"D({e['D']})"
    dice = "1 die" if e["dice"] == 1 else f"{e['dice']} dice"
    skill = "snap shooting" if e.get("snap") else f"{skill} {e['skill']}+"
    return (f"   pool {e['pool'] + 1}: {dice} of {', '.join(e['weapons'])} at {e['target']}"
            f" ({skill} S{e['S']} AP{e['AP']} {dmg} vs T{e['T']}){ab}{_mods(e)}"
            + (" (psychic attacks)" if e.get("psychic") else "")
            + _cr(e, " (attack count: ", ")"))


def _hits(e) -> str:
    if e.get("auto"):
        return f"     hits: automatic, {_n(e['hits'], 'hit')} (no hit roll, never critical)"
    extra = ""
    if e.get("sustained"):
        extra += f", +{e['sustained']} sustained"
    if e.get("lethal"):
        extra += f", {e['lethal']} lethal (wound automatically)"
    if e.get("snap"):
        return (f"     hit rolls {e['rolls']} need an unmodified 6 (snap shooting, 15.09): "
                f"{_n(e['hits'], 'hit')} (never critical)")
    if e.get("rerolled"):
        extra += f", 1s re-rolled {e['rerolled']}"
    mod = f" {e['modifier']:+d}" if e.get("modifier") else ""
    return (f"     hit rolls {e['rolls']} need {e['skill']}+{mod}: {_n(e['hits'], 'hit')} "
            f"({e['criticals']} critical{extra}{_cr(e)})")


def _wounds(e) -> str:
    rr = f", re-rolled {e['rerolled']}" if e.get("rerolled") else ""  # ([TWIN-LINKED], re-roll 1s)
    dev = f", {e['devastating']} devastating" if e.get("devastating") else ""
    crit = f" (critical on {e['critical_on']}+)" if e.get("critical_on", 6) < 6 else ""
    strength = f"S{e['S']} {e['strengths']}" if e.get("strengths") else f"S{e['S']}"  # (02.02.03)
    return (f"     wound rolls {e['rolls']} {strength} vs T{e['T']}{crit}: {_n(e['wounds'], 'wound')}"
            f" ({e['criticals']} critical{dev}{rr}{_cr(e)})")


def _allocation(e) -> str:
    s = f"     allocation order: {' > '.join(e['order'])}"
    return s + (f" (precision: {e['precision']} first)" if e.get("precision") else "")


def _precision(e) -> str:
    if e.get("chosen"):
        return f"     {_PRECISION}: {e['chosen']} chosen among the visible {', '.join(e['visible'])}"
    return f"     {_PRECISION}: {e.get('note') or 'declined'}"


def _saves(e) -> str:
    cr = _cr(e, " (", ")")
    return f"     save rolls (AP{e['AP']}): {e['rolls']}{cr}"


def _damage(e) -> str | None:
    out = []
    for s in e["steps"]:
        if "mortal" in s:
            out.append(f"       devastating wounds: {_n(s['mortal'], 'mortal wound')} to {s['model']}, "
                       f"{s['lost']} lost" + _cr(s, " (", ")")
                       + (" - destroyed" if s["destroyed"] else ""))
        elif "save" not in s:
            out.append(f"       {s['lost']}")
        elif s["saved"]:
            out.append(f"       {_save(s)} on {s['model']}: saved" + (" (invulnerable)" if s.get("invulnerable") else ""))
        else:
            out.append(f"       {_save(s)} on {s['model']}: fails, {s['damage']} damage, {s['lost']} lost"
                       + _cr(s, " (", ")")
                       + (f" (feel no pain {s['fnp']})" if s.get("fnp") else "")
                       + (" - destroyed" if s["destroyed"] else ""))
    return "\n".join(out) if out else None


def _mortal(e) -> str:
    per: dict[str, list] = {}
    for s in e["steps"]:
        got = per.setdefault(s["model"], [0, False])
        got[0] += s["lost"]
        got[1] = got[1] or s["destroyed"]
    hurt = ", ".join(f"{m} -{n}{' (destroyed)' if d else ''}" for m, (n, d) in per.items() if n)
    mw = "1 mortal wound" if e["count"] == 1 else f"{e['count']} mortal wounds"
    return f"     {e['unit']} suffers {mw} from {e['source']}: {hurt or 'none lost'}"


def _hazard(e) -> str:
    if e.get("note") and not e.get("rolls"):
        return f"   hazard rolls: {e['note']}"
    cr = _cr(e, " (", ")")
    if e.get("note"):  # (a Desperate Escape's, 09.07: one per model, 1 mortal wound per 1-2)
        return (f"   hazard rolls {e['rolls']} ({e['note']}){cr}: {e['failures']} failed (1-2) -> "
                f"{_n(e['mortal_wounds'], 'mortal wound')}")
    return (f"   hazard rolls {e['rolls']}{cr}: {e['failures']} failed (1-2) -> "
            f"{_n(e['mortal_wounds'], 'mortal wound')} ({e['per_failure']} per failure)")


def _deadly_demise(e) -> str:
    hit = f": {', '.join(e['units'])} within 6\" suffer mortal wounds" if e["units"] else ""
    return f"   deadly demise of {e['model']}: rolled {e['roll']}{hit}"


def _unit_destroyed(e) -> str:
    why = f" ({e['by']})" if "reserves" in str(e.get("by", "")) else ""
    return f"   ** {e['unit']} is destroyed{why}"


def _moved(e) -> str:
    roll = f" (advance roll {e['advance_roll']})" if e.get("advance_roll") else ""
    far = f", furthest {e['distance']:.2f}\"" if e.get("distance") is not None else ""
    sky = " taking to the skies (21.03)" if e.get("fly") else ""
    return f"   moved {_n(len(e['to']), 'model')}{sky}{far}{roll}{_turned(e)}"


def _turned(e) -> str:
    """'; turned: tank/1 to 90 degrees' for an event whose models were turned (03.01)."""
    face = e.get("face")
    return "; turned: " + ", ".join(f"{m} to {a:g} degrees" for m, a in face) if face else ""


def _decision(e) -> str:
    what = f"stratagem {_pools_from_1(e['key'])}" if e["kind"] == "stratagem" else e["kind"]  # (which one, for whom)
    answer = option_words(e["answer"]) if isinstance(e["answer"], str) else e["answer"]  # (a die: from 1)
    line = f"     decision ({what}, {PLAYER[e['player']]}): {answer}"  # (a person reads the army: sim.names)
    return line + (f"\n       note: {e['note']}" if e.get("note") else "")


def _pools_from_1(key: str) -> str:
    """A decision's key as a person reads it: its pools counted from 1 ("pool 0 hit roll" is
    "pool 1 hit roll"; the key itself, counted from 0, is what logs and scripts hold)."""
    return re.sub(r"\bpool (\d+)\b", lambda m: f"pool {int(m.group(1)) + 1}", key)


def _nothing_happens(events, i: int) -> bool:
    """The step event at ``i`` is followed by another step or phase before anything else
    (dice and commands aside, the report prints nothing for it)."""
    for e in events[i + 1:]:
        t = e["type"]
        if t == ev.STEP or t == ev.PHASE:
            return True
        if t == ev.COMMAND and describe_command(e["command"]) is None:
            continue
        return False
    return True


def _phase(e) -> str:
    if e["phase"] == "end of turn":
        return f"-- {e['player']}: end of turn"
    return f"-- {e['player']}: {e['phase']} phase"


def _charge(e) -> str | None:
    r = e["result"]
    if r == "declared":
        return f"   charge roll: {e['roll']}\""
    if r == "made":
        return (f"   charges {', '.join(e['targets'])} (roll {e['roll']}\"): made, {_n(len(e['to']), 'model')} moved"
                + _turned(e))
    return f"   charge ({e['roll']}\"): not made"


def _shock(e) -> str:
    if e.get("roll") is None:
        return f"   battle-shock test for {e['unit']}: passed automatically ({e.get('note')})"
    note = f" {e['note']}" if e.get("note") else ""
    state = f" ({e['strength']})" if e.get("strength") else ""
    verdict = "passed" if e["passed"] else "failed: battle-shocked"
    return f"   battle-shock roll{note} for {e['unit']}{state}: {e['roll']} vs Ld {e['needed']}+, {verdict}"


def _disembarked(e) -> str:
    emergency = e["mode"] == DisembarkMode.EMERGENCY
    line = f"{'  ' if emergency else '=='} {e['unit']} makes {'an' if e['mode'][0] in 'aeiou' else 'a'} {e['mode']} " \
           f"from {e['transport']}: {_n(len(e['to']), 'model')} set up ({'18.05' if emergency else '18.04'})"
    if e.get("destroyed"):
        line += f"; {', '.join(e['destroyed'])} could not be set up and {'is' if len(e['destroyed']) == 1 else 'are'} destroyed"
    if e.get("engaged"):
        line += f"; engaged with {', '.join(e['engaged'])}"
    if e.get("battle_shocked"):
        line += "; battle-shocked"
    return line + _turned(e)


# Each declared event type's line (sim.events.declared: tests/events checks every type has one).
_LINES = {
    ev.DICE: _nothing,
    ev.COMMAND: lambda e: describe_command(e["command"]),  # (each command's record says it: sim.commands)
    ev.REFUSED: _refused,
    ev.DECISION: _decision,
    ev.LEFT_OUT: _left_out,
    ev.TURN: lambda e: None if e.get("phased") else f"== turn {e['turn']}",
    ev.SHOOTING_TYPE: _shooting_type,
    ev.WEAPONS_SELECTED: _weapons,
    ev.POOL: _pool,
    ev.HITS: _hits,
    ev.WOUNDS: _wounds,
    ev.ALLOCATION: _allocation,
    ev.PRECISION: _precision,
    ev.SAVES: _saves,
    ev.DAMAGE: _damage,
    ev.MORTAL: _mortal,
    ev.HAZARD: _hazard,
    ev.DEADLY_DEMISE: _deadly_demise,
    ev.DESTROYED: _nothing,
    ev.UNIT_DESTROYED: _unit_destroyed,
    ev.ATTACKS_DONE: lambda e: f"   {e['unit']} has resolved its attacks; removed: {', '.join(e['removed']) or 'none'}",
    ev.MOVED: _moved,
    ev.MOVE_NOT_MADE: lambda e: f"   move not made (advance roll {e['advance_roll']}): {e['reason']}",
    ev.ROLES: lambda e: (f"== {e['defender']} is the Defender, {e['attacker']} the Attacker"
                         + (f" ({e['chosen_by']} won the roll-off and chose)" if e.get("chosen_by") else "")
                         + " (26 step 5)"),
    ev.PRE_BATTLE: lambda e: f"\n== before the battle: {e['step']}; {e['player']} first",
    ev.FORMATIONS: lambda e: (f"   {e['player']}'s battle formations: "
                              + (f"{', '.join(e['reserves'])} in strategic reserves" if e["reserves"]
                                 else "every unit deploys")
                              + "".join(f"; {u} embarked in {t}" for u, t in e.get("embarked", {}).items())
                              + " (26 step 7)"),
    ev.DEPLOYED: lambda e: (f"   {e['player']} sets up {e['unit']}: {_n(len(e['to']), 'model')}"
                            + (" as Infiltrators (24.20)" if e.get("infiltrators") else " (26 step 8)") + _turned(e)),
    ev.SCOUTED: lambda e: (f"   {e['player']}'s {e['unit']} uses Scouts: "
                           + ("set up from strategic reserves (24.31)" if e.get("from_reserves")
                              else f"a scout move of up to {e['distance']:g}\" (24.32)") + _turned(e)),
    ev.BATTLE_START: lambda e: f"== battle: {e['rounds']} rounds; {e['first']} goes first",
    ev.ROUND: lambda e: f"\n===== battle round {e['round']} =====",
    ev.PLAYER_TURN: lambda e: f"\n=== {e['player']}'s turn (round {e['round']})",
    ev.PHASE: _phase,
    ev.STEP: lambda e: f"   ({e['step']} step: {e['player']}'s choice)",  # (no verb after a name: "Wardens' choice")
    ev.CP: lambda e: (f"   +{e['gained']} CP " + (f"to {e['player']}" if e.get("player") else "each")
                      + f" ({e['source']}): " + ", ".join(f"{p} {e['cp'][p]}" for p in PLAYER)),
    ev.BATTLE_SHOCK: _shock,
    ev.STATIONARY: lambda e: f"   remained stationary ({e['rule']}): {', '.join(e['units'])}",
    ev.SELECTED_TO_MOVE: lambda e: (f"== {e['unit']} is selected to {'remain stationary' if e['mode'] == 'stationary' else e['mode']}"
                                    + (f" (advance roll {e['advance_roll']})" if e.get("advance_roll") else "")),
    ev.CHARGE: _charge,
    ev.PILED_IN: lambda e: (f"   {e['unit']} piles in: {_n(len(e['to']), 'model')} moved"
                            + (f" ({e['note']})" if e.get("note") else "") + _turned(e)),
    ev.OVERRUN: lambda e: f"== {e['unit']} is selected to fight: an overrun fight ({e['rule']})",
    ev.CRUSHING_IMPACT: lambda e: (f"   Crushing Impact: {e['model']} (T{e['T']}) rolls {e['rolls']} against "
                                   f"{e['target']}: {_n(e['to_enemy'], 'mortal wound')} to {e['target']}, "
                                   f"{_n(e['to_own'], 'mortal wound')} to {e['unit']} (at most 6 each)"),
    ev.CONSOLIDATED: lambda e: f"   {e['unit']} consolidates: {_n(len(e['to']), 'model')} moved" + _turned(e),
    ev.FIGHT_PASS: lambda e: f"   {e['player']} passes (12.04.01)",
    ev.INGRESS: lambda e: (f"== {e['unit']} arrives from strategic reserves: {_n(len(e['to']), 'model')} set up (20.04)"
                           + _turned(e)),
    ev.EMBARKED: lambda e: f"   {e['unit']} embarks in {e['transport']} (18.02)",
    ev.DISEMBARKED: _disembarked,
    ev.DESTROYED_EMPTY: lambda e: f"   {e['unit']} is destroyed: a DEDICATED TRANSPORT with no unit embarked ({e['rule']})",
    ev.RULE_EFFECT: lambda e: f"   {e['rule']}: {e['unit']} {e['effect']}",
    ev.OATH: lambda e: (f"   {e['player']}'s {e['rule']}: the oath is sworn: {e['deed']} {e['quality']}"
                        + (" (rolled: one more CP)" if e["random"] else "")),
    ev.OATH_TARGET: lambda e: (f"   {e['player']}'s {e['rule']}: " + (f"{e['model']} is the tyrant to lay low"
                               if e["model"] else "no enemy CHARACTER to lay low")),
    ev.DEED: lambda e: (f"   {e['player']}'s {e['rule']}: {e['deed']} " + ("done" if e["done"] else "not done yet")
                        + f" ({e['progress']})" + (": the army is Honoured" if e["done"] else "")),
    ev.RULE_CHOICE: lambda e: (f"   {e['player']}'s {e['rule']}: "
                               + (f"rolls {e['dice']}: " if e.get("dice") else "")  # dice options
                               + ("expires" if e["value"] is None else "called" if e["value"] is True
                                  else "not called" if e["value"] is False else f"{e['value']} is picked")),
    ev.DICE_POOL: lambda e: f"   {e['player']}'s {e['rule']}: {e['effect']} (pool {e['pool']})",
    ev.PSYCHIC_TEST: lambda e: (f"   {e['rule']}: {e['model']} ({e['unit']}) attempts {e['ritual']} at {e['target']}: "
                                f"rolls {e['dice']} = {e['total']} (needs {e['needed']}+)"
                                + (", perils" if e["perils"] else "")
                                + (": manifested" if e["manifested"] else ": not manifested")),
    ev.STRATAGEM: lambda e: (f"   {e['player']} uses {e['stratagem']} ({e['section']}, {e['cp']} CP; {e['cp_left']} left)"
                             f" on {e['target']}" + (f": {about_words(e['about'])}" if e.get("about") else "")),
    ev.EXPLOSIVES: lambda e: (f"   explosives (15.05): {e['model']} at {e['target']}, rolls {e['rolls']} (4+): "
                              f"{_n(e['mortal_wounds'], 'mortal wound')}"),
    ev.COHERENCY_REMOVED: lambda e: f"   {e['unit']} out of coherency ({e['rule']}): {', '.join(e['models'])} removed",
    ev.CONTROL: lambda e: (f"   objective {e['objective']}: "
                           + (f"controlled by {e['controller']}" if e["controller"] else "no longer controlled")
                           + " (" + ", ".join(f"{p} OC {v}" for p, v in e["levels"].items()) + ")"),
    ev.VP: lambda e: (f"   +{e['granted']} VP to {e['player']}: {e['source']}"  # (no verb: an army's name reads the same)
                      + (f" ({e['scored'] - e['granted']} lost to the cap)" if e["granted"] < e["scored"] else "")
                      + f"; total {e['total']}"),
    ev.RESULT: lambda e: (f"\n===== the battle ends after round {e['rounds']}: "
                          + ", ".join(f"{p} {e['vp'][p]} VP" for p in PLAYER) + ": "
                          + ("a draw" if e["result"] == "draw" else f"won by {e['result']}")),
}


# (events whose line names models without saying their unit: an attack's removed models after
# the attacker's name, a model's deadly demise, a thrower, the tyrant to lay low: their models
# read with their unit's name where another unit has such a model, sim.names.models_with_units;
# an attack's dice lines sit under the line naming its target and keep the short names)
MODELS_AWAY = frozenset({ev.ATTACKS_DONE, ev.DEADLY_DEMISE, ev.EXPLOSIVES, ev.OATH_TARGET})


def report(events, battle=None) -> str:
    """The battle report; given the ``battle``, its units and models by the names a person
    reads (sim.names: "Raider Mob (2)"), and the state at the end."""
    words = away = grouped = None
    if battle is not None:
        words, away = everything_of_battle(battle), everything_with_units_of_battle(battle)
        grouped = models_in_units_of_battle(battle)  # (removed models by unit: sim.names.in_words)
    lines = []
    for i, e in enumerate(events):
        if e["type"] == ev.STEP and _nothing_happens(events, i):
            continue  # (a Fight-phase step in which the player had nothing to do)
        line = describe(e)
        if line:
            lines.append(line if words is None else in_words(line, away if e["type"] in MODELS_AWAY else words, grouped))
    if battle is not None:
        lines.append("")
        lines.append(state_table(battle))
    return "\n".join(lines)


def state_table(battle) -> str:
    import esper
    from sim.components import Unit, Wounds
    from sim.world import queries as W
    battle._enter()
    names = everything_of_battle(battle)
    out = ["state at the end:"]
    for ent in W.all_units():
        u = esper.component_for_entity(ent, Unit)
        models = u.models
        alive = [m for m in models if W.alive(m)]
        wounds = sum(esper.component_for_entity(m, Wounds).remaining for m in alive)
        army = battle.scenario.armies[u.owner].name
        status = "destroyed" if not alive else f"{len(alive)}/{len(models)} models, {wounds} wounds left"
        if alive and W.in_reserves(ent):
            status = "in strategic reserves"
        elif alive and W.embarked_in(ent) is not None:
            status = f"embarked in {names.get(esper.component_for_entity(W.embarked_in(ent), Unit).id)}"
        out.append(f"  {army:<12} {names.get(u.id, u.name):<28} {status}")
    return "\n".join(out)
