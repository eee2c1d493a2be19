"""Finding a declared attack in a scenario: the script's N-th step (the steps before it played
with the scenario's seed, as `sim run` plays them; in a battle with a mission, a step that is no
attack itself is the shooting its resolution includes, such as 15.08 Fire Overwatch's 15.09 snap
shooting), a unit against a target with the weapons the script or the defaults select, or a
battle's first attack. Bad input is a ScenarioError naming the file, the place (the command-line
option), what was expected and what was found."""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

from sim import events as ev
from sim.battle import Battle
from sim.errors import PlanError, ScenarioError, ScriptError
from sim.odds.problem import OddsError, build_problem, problem_for_command
from sim.players.resolve import run_step
from sim.rules import multi_profile as MP
from sim.rules import shooting as SH
from sim.rules.attack import AttackKind
from sim.scenario.script_run import attack_action, attack_kind, expand, step_record
from sim.scenario.spec import ScriptStep
from sim.world import queries as W

class Located(NamedTuple):
    """A battle (open: close it) at the moment an attack is declared, the command, the answers
    to its decisions, and where it comes from (for the report). ``plan``: for an attack found
    inside a step's resolution (snap shooting), the battle's own validated plan of it, the unit
    already selected to shoot (the battle cannot go on from there)."""

    battle: Battle
    command: object
    decisions: dict
    where: str
    plan: object = None


class _Reached(Exception):
    def __init__(self, choice):
        self.choice = choice


def _play_until(battle: Battle, spec, want):
    """Play a battle with a mission until a player is about to make a command ``want`` accepts
    (a sim.players Choice); returns that Choice, or None if the battle ends first."""
    from sim.players.loop import make_player, play_battle
    ts = battle.turn_state
    players = [make_player(kind, side, battle, spec) for side, kind in enumerate(ts.mission.players)]
    for pl in players:
        def choose(b, _orig=pl.choose):
            c = _orig(b)
            if want(c):
                raise _Reached(c)
            return c
        pl.choose = choose
    try:
        play_battle(battle, spec, players=players)
    except _Reached as r:
        return r.choice
    return None


class _Inside(Exception):
    def __init__(self, plan=None):
        self.plan = plan


def _shooting_inside(battle: Battle, spec, step):
    """Play a battle with a mission until a shooting starts inside the resolution of script
    ``step`` (a unit selected to shoot while the step's command resolves: 15.08 Fire
    Overwatch's snap shooting at the end of a Movement phase): the battle's validated plan of
    it, or None if the step resolves without one or is never played."""
    from sim.players.loop import make_player, play_battle
    ts = battle.turn_state
    players = [make_player(kind, side, battle, spec) for side, kind in enumerate(ts.mission.players)]
    armed = []

    def watch(e):  # (a battle listener: every event, as it is recorded)
        if armed and e["type"] == ev.SHOOTING_TYPE:
            plan, act = battle.validated, battle.activation
            if plan is not None and act is not None and plan.command is act.command:
                raise _Inside(plan)

    for pl in players:
        def choose(b, _orig=pl.choose):
            if armed:
                raise _Inside()  # (the step resolved: no shooting inside it)
            c = _orig(b)
            if c.step is step:
                armed.append(c)
            return c
        pl.choose = choose
    battle.listeners.append(watch)
    try:
        play_battle(battle, spec, players=players)
    except _Inside as r:
        return r.plan
    finally:
        battle.listeners.remove(watch)
    return None


def at_step(spec, n: int, seed: int | None = None) -> Located:
    """The attack of the script's step ``n`` (counted from 1): the steps before it are played
    with the seed (default the scenario's) and the step is expanded against the battle then.
    In a battle with a mission, a step that is no attack is the shooting its resolution
    includes (15.08 Fire Overwatch's 15.09 snap shooting), found as the battle plans it."""
    steps = spec.script
    if not 1 <= n <= len(steps):
        raise ScenarioError(spec.path, f"--step {n}", f"a script step from 1 to {len(steps)}",
                            f"{n}" if steps else "a scenario without a script")
    step = steps[n - 1]
    if attack_kind(step) is None:
        return _inside_step(spec, n, step, seed)
    battle = Battle(spec, seed=seed, record_dice=False)
    try:
        if battle.turn_state is None:
            for s in steps[:n - 1]:
                run_step(battle, spec, s)
            return Located(battle, expand(battle, step).command, dict(step.decisions), f"step {n} ({step.where})")
        c = _play_until(battle, spec, lambda c: c.step is step and c.command.record.attacks)
        if c is None:
            raise ScenarioError(spec.path, f"--step {n}", "a step the battle reaches",
                                f"{step.where}, never played")
        return Located(battle, c.command, dict(step.decisions), f"step {n} ({step.where})")
    except ScriptError as e:
        battle.close()
        raise ScenarioError(spec.path, f"--step {n}", "the steps before it played as the rules allow",
                            str(e)) from None
    except BaseException:
        battle.close()
        raise


def _inside_step(spec, n: int, step, seed: int | None) -> Located:
    """at_step for a step that is no attack: the shooting inside its resolution."""
    expected = "a shoot or fight step, or one whose resolution includes a shooting (Fire Overwatch, 15.08)"
    found = f"{step_record(step).kind} ({step.where})"
    if spec.mission is None:
        raise ScenarioError(spec.path, f"--step {n}", expected, found)
    battle = Battle(spec, seed=seed, record_dice=False)
    try:
        plan = _shooting_inside(battle, spec, step)
    except ScriptError as e:
        battle.close()
        raise ScenarioError(spec.path, f"--step {n}", "the steps before it played as the rules allow",
                            str(e)) from None
    except BaseException:
        battle.close()
        raise
    if plan is None:
        battle.close()
        raise ScenarioError(spec.path, f"--step {n}", expected, found + ", with no shooting inside it")
    kind = "snap shooting (15.09)" if plan.shooting_type == SH.SNAP else f"{plan.shooting_type} shooting"
    return Located(battle, plan.command, dict(step.decisions),
                   f"step {n} ({step.where}): {plan.command.unit}, {kind}", plan)


def first_attack(spec, seed: int | None = None) -> Located:
    """The battle's first shoot or fight command, whoever makes it (script or players)."""
    battle = Battle(spec, seed=seed, record_dice=False)
    try:
        if battle.turn_state is None:
            for s in spec.script:
                if attack_kind(s) is not None:
                    return Located(battle, expand(battle, s).command, dict(s.decisions), s.where)
                run_step(battle, spec, s)
        else:
            c = _play_until(battle, spec, lambda c: c.command.record.attacks)
            if c is not None:
                decisions = dict(c.step.decisions) if c.step is not None else {}
                return Located(battle, c.command, decisions, c.where)
        raise ScenarioError(spec.path, "", "an attack (a shoot or fight command)", "none in the battle")
    except BaseException:
        battle.close()
        raise


def unit_against(spec, unit: str, target: str, seed: int | None = None, fight: bool | None = None) -> Located:
    """``unit`` attacking ``target`` at the scenario's start: with the weapons of the script's
    first step for the unit (its targets turned to ``target``), else every model's weapons (for
    a fight: its first melee weapon and its [EXTRA ATTACKS] ones); a fight when ``fight`` says so
    or, by default, when the units are engaged."""
    units = {u.id: u for u in spec.units}
    for opt, uid in (("--unit", unit), ("--target", target)):
        if uid not in units:
            raise ScenarioError(spec.path, opt, f"a unit id ({', '.join(sorted(units))})", uid)
    if units[unit].owner == units[target].owner:
        raise ScenarioError(spec.path, "--target", f"an enemy unit of {unit}", f"{target}, a friendly unit")
    battle = Battle(spec, seed=seed, record_dice=False)
    try:
        battle._enter()
        engaged = battle.units[target] in W.engaged_with(battle.units[unit])
        step = next((s for s in spec.script if attack_kind(s) is not None and s.action.get("unit") == unit
                     and (fight is None or (attack_kind(s) == AttackKind.FIGHTING) == fight)), None)
        if step is not None:
            a = dict(step.action)
            a["targets"] = {w: _retarget(t, target) for w, t in a["targets"].items()}
            a["models"] = {m: {w: _retarget(t, target) for w, t in ws.items()} for m, ws in a["models"].items()}
            step = ScriptStep(a, step.decisions, step.where)
            where = f"{step.where}'s weapons at {target}"
        else:
            kind = AttackKind.FIGHTING if (engaged if fight is None else fight) else AttackKind.SHOOTING
            step = _default_step(spec, units[unit], target, kind)
            where = f"{unit}'s {'melee' if kind == AttackKind.FIGHTING else 'ranged'} weapons at {target}"
            return Located(battle, usable_command(battle, step), {}, where)
        return Located(battle, expand(battle, step).command, dict(step.decisions), where)
    except BaseException:
        battle.close()
        raise


def usable_command(battle, step: ScriptStep):
    """The command of a default step (per-model selections at one target), without the
    selections no model could use there (04.02: out of range, not visible, not engaged), as the
    script's ``targets`` shorthand leaves them out (in a fight, a model engaged with another
    enemy unit attacks that one instead, 12.04); all of them when none is usable (so the rules
    say why)."""
    from sim.scenario.script_run import why_not, fights_elsewhere
    cmd = expand(battle, step).command
    a = step.action
    unit_ent = battle.units[a["unit"]]
    shared: dict = {}
    dropped = []
    for sel in cmd.selections:
        m = battle.models[sel.model]
        w = next(w for w in W.weapons_of(m) if w.name == sel.weapon)
        dropped.append(why_not(battle, unit_ent, m, w, sel.target, attack_kind(step) == AttackKind.FIGHTING, a.get("type"), shared) is not None)
    if all(dropped) or not any(dropped):
        return cmd
    # (12.04 a model engaged with another enemy unit fights that one, as the shorthand has it)
    elsewhere = (fights_elsewhere(battle, unit_ent, cmd.selections, dropped)
                 if attack_kind(step) == AttackKind.FIGHTING else {})
    kept = [dataclasses.replace(sel, target=elsewhere[i]) if i in elsewhere else sel
            for i, sel in enumerate(cmd.selections) if not dropped[i] or i in elsewhere]
    return dataclasses.replace(cmd, selections=tuple(kept))


def _retarget(t, target):
    if not t:
        return t
    return {target: None} if len(t) == 1 else t


def _default_step(spec, us, target: str, kind: AttackKind) -> ScriptStep:
    from sim.rules.abilities import Hook
    models = {}
    for m in us.models:
        weapons = MP.default_profiles(m.weapons)  # (04.01.03 a multi-profile weapon's first profile)
        if kind == AttackKind.FIGHTING:
            main = [w for w in weapons if w.is_melee and not w.has(Hook.EXTRA_WEAPON)][:1]
            extra = [w for w in weapons if w.is_melee and w.has(Hook.EXTRA_WEAPON)]
            chosen = main + extra
        else:
            ranged = [w for w in weapons if not w.is_melee]
            other = [w for w in ranged if not w.has(Hook.CLOSE_QUARTERS)]
            chosen = ranged if _monster_or_vehicle(m) else (other or ranged)
        if chosen:
            models[m.id] = {w.name: {target: None} for w in chosen}
    return ScriptStep(attack_action(kind, us.id, models=models), {}, f"{us.id} -> {target}")


def _monster_or_vehicle(m) -> bool:
    return bool({"MONSTER", "VEHICLE"} & set(m.keywords))


def problem_at(located: Located):
    """The odds Problem of a located attack. In a battle with a mission the command is planned
    as at its moment (the phase is the located one); otherwise exactly as validated."""
    b, cmd = located.battle, located.command
    if located.plan is not None:  # (the battle's own plan, the unit selected to shoot already)
        from sim.odds.engine import problem_for_plan
        return problem_for_plan(b, located.plan, located.decisions)
    try:
        return problem_for_command(b, cmd, located.decisions)
    except OddsError:
        if b.turn_state is None:
            raise
    # (a mission battle at its start: plan the attack directly, the phase aside)
    from sim.plan import plan_fight, plan_shoot
    b._enter()
    try:
        if not cmd.record.selects_to_fight:
            plan = plan_shoot(b, cmd)
            return build_problem(b, plan.declared, b.units[cmd.unit], AttackKind.SHOOTING, located.decisions,
                                 plan.shooting_type)
        return build_problem(b, plan_fight(b, cmd), b.units[cmd.unit], AttackKind.FIGHTING, located.decisions)
    except PlanError as e:
        raise OddsError(str(e)) from None


def deadly_demise_matters(problem) -> bool:
    """24.08 Deadly Demise can change the outcome: a target model that has it (or an attacker
    model, when the attacker makes hazard rolls) is alive when the attack starts."""
    if any(e and s > 0 for tv in problem.targets for e, s in zip(tv.explodes, tv.start)):
        return True
    av = problem.attacker
    return bool(problem.hazard_rolls) and any(e and s > 0 for e, s in zip(av.explodes, av.start))


def battle_monte_carlo(odds, problem, relocate, runs: int, seed: int = 1):
    """The losses of the attack by a seeded Monte Carlo of the battle itself: ``relocate()``
    gives the battle at the attack again (a Located, built the same way each time), whose dice
    are then replaced by Dice(seed + k) and the command resolved as a headless run resolves it
    (Deadly Demise and everything after the attacks included). The targets' and the attacker's
    losses come from the runs; the pools' dice, hits and wounds stay exact (nothing after them
    changes them). Returns a new Odds (method "monte carlo")."""
    from sim.odds import result as R
    from sim.players.resolve import answer_from, submit_and_resolve
    from sim.rules.dice import Dice
    uids = [tv.uid for tv in problem.targets] + [problem.attacker.uid]
    finals = [dict() for _ in uids]
    for k in range(runs):
        loc = relocate()
        with loc.battle as b:
            b.dice = Dice(seed + k)
            submit_and_resolve(b, b.scenario, loc.where, loc.command, answer_from(loc.decisions))
            b._enter()
            for acc, uid in zip(finals, uids):
                r = tuple(max(w.remaining, 0) for w in W.roster(b.units[uid]).wounds)
                acc[r] = acc.get(r, 0) + 1
    targets = [R.target_odds(tv, {(r, 0, 0): n / runs for r, n in acc.items()}, counted=False)
               for tv, acc in zip(problem.targets, finals)]
    hl, hd = R.hazard_measures(problem, {r: n / runs for r, n in finals[-1].items()})
    notes = [f"Monte Carlo of the battle itself ({runs:,} runs, seeds {seed}..{seed + runs - 1}): Deadly "
             f"Demise (24.08) is resolved there, not in the exact odds; the pools' dice, hits and wounds are "
             f"exact; the attacker's losses include what explosions cost it"]
    return dataclasses.replace(odds, method="monte carlo", targets=targets, hazard_lost=hl, hazard_destroyed=hd,
                               notes=notes, runs=runs, seed=seed)
