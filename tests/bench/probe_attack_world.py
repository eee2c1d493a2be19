"""Probe: what a lean engine would cost an activation of bench_attacks.py, the world's reads and
writes included (issue 29's attack-path mark: 1/10 of randint(1, 6)'s rate, ~38 us an
activation of 20 attack dice on this host).

The next layer up from probe_attack_rules.py (the rules' own functions and the log, with the
world's answers made ready before the clock). Here nothing is made ready: each activation plays
the benchmark's Shoot and End Turn on a real battle's world, as a design would that kept no
plan objects, no systems and no per-activation components, and read and wrote the world
directly, once each:

- the checks the plan makes for this command (the unit, its state and shooting types, each
  model's weapon by name, the target an enemy unit still there), the target's living models,
  sight and closest distance of every shooting model (the visibility index brought up to date,
  its block resolved, one kernel call), the 04.02 answer, benefit of cover (13.08, one block)
  and the attack key;
- the same rules' functions as the engine (sim.rules: pools, sequence, allocation order) with
  the battle's own dice and log;
- the same writes: the unit selected to shoot and touched, its ranged attacks noted (13.09),
  the wounds written back, the destroyed models marked and taken off the table (sim.world
  .mutations), the removals noted for the indexes, the end of the turn
  (sim.phases.upkeep.roll_over_turn) and the commands counted.

It reads the engine's own facts for 04.02 and its cover modifier (sim.plan.shoot_targets'
``_ranged_facts`` and ``_COVER``, private to the plan), so the two cannot drift apart.
It covers only the plain case the benchmark plays (one weapon profile without abilities, free
play, no rules, no decisions, no model with Deadly Demise or a transport's passengers to
disembark: the engine's general path decides all of those): a floor for a
redesign of the activation's path through the world, not a second engine. Its events are
checked equal to the engine's (JSON with sorted keys, every event of every activation of every
timed battle) and, in a first battle that is not timed, the battle's state hash and commands
counted equal to the engine's after every Shoot and every End Turn (sim.world.state_hash: every
field the rules read), so it makes every write the engine makes that the rules read. The
notices the indexes take changes from (sim.world.changes: the unit touched, its shot, the
removals), which no state hash reads, are checked equal to the engine's, in order, by
tests/bench/test_probe_attack_world.py.

Prints the median microseconds an activation of this layer beside the rules' layer's and the
engine's (the same battles, timed the same way: bench_attacks.run_once) and the same-run
baseline (tests/bench/_baseline.py).
Run: .venv/bin/python tests/bench/probe_attack_world.py [--battles N]
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import bench_attacks as BA  # noqa: E402
import probe_attack_floor as FLOOR  # noqa: E402
import probe_attack_rules as RULES  # noqa: E402
import esper  # noqa: E402
from sim import events as ev  # noqa: E402
from sim.battle import Battle  # noqa: E402
from sim.commands import EndTurn, to_dict  # noqa: E402
from sim.components import Unit  # noqa: E402
from sim.phases.upkeep import roll_over_turn  # noqa: E402
from sim.players.runner import frozen_heap  # noqa: E402
from sim.plan.shoot_targets import _COVER, _ranged_facts, shooters_of  # noqa: E402  (the engine's own)
from sim.rules import pools as PL  # noqa: E402
from sim.rules import shooting as SH  # noqa: E402
from sim.rules.sequence import (DamageState, PoolState, inflict_damage, roll_hits, roll_saves,  # noqa: E402
                                roll_wounds, strength_text)
from sim.rules.visibility.index import rows_seen_nearest  # noqa: E402
from sim.world import mutations as M  # noqa: E402
from sim.world import queries as W  # noqa: E402


class _View:
    """What TargetView gives the 04.02 facts: the target's engagement and keywords."""

    __slots__ = ("engaged_with", "monster_or_vehicle")

    def __init__(self, engaged_with, monster_or_vehicle):
        self.engaged_with, self.monster_or_vehicle = engaged_with, monster_or_vehicle


def lean_activation(battle: Battle, cmd, end) -> None:
    """The benchmark's Shoot (every model of the unit, one weapon, one target) and the End Turn
    after it, on ``battle``'s world (the module's docstring says what it reads and writes)."""
    lean_shoot(battle, cmd)
    lean_end_turn(battle, end)


def lean_shoot(battle: Battle, cmd) -> None:
    """The Shoot of ``lean_activation``."""
    record = battle.record
    # --- the checks the plan makes (04.01, 04.02, 10.02) -----------------------------------
    ent = battle.units[cmd.unit]
    lv = W.living(ent)
    sh = shooters_of(ent, lv)
    st = W.unit_state(ent)
    if st.selected_to_shoot or st.transport_fired or st.oversized_set_up:
        raise SystemExit("the probe plays the plain case only")
    elig, stype = sh.types(W.unit_engaged(ent), st)
    sels = cmd.selections
    s0 = sels[0]
    if stype != SH.NORMAL or len(sels) != len(sh.ids) or any(
            s.model != mid or s.weapon != s0.weapon or s.target != s0.target or s.attacks is not None
            for s, mid in zip(sels, sh.ids)) or sh.loadout_of.count(sh.loadout_of[0]) != len(sh.ids):
        raise SystemExit("the probe plays the plain case only")
    w = next(p for p in sh.weapons[0] if p.name == s0.weapon and not p.is_melee)
    if w.abilities or battle.resources.has_rules or battle.turn_state is not None:
        raise SystemExit("the probe plays the plain case only")
    t = battle.units[s0.target]
    tunit = esper.component_for_entity(t, Unit)
    if tunit.owner == esper.component_for_entity(ent, Unit).owner or W.unit_destroyed(t):
        raise SystemExit("the probe plays the plain case only")
    tlv = W.living(t)
    vis = battle.visibility   # (brought up to date: the last activation's removals and shots)
    rows, cols = sh.index, tlv.index
    seen, nearest = rows_seen_nearest(vis.index.visible_resolved(rows, cols), W.spatial().dist,
                                      rows.start, rows.stop, cols.start, cols.stop)
    seen, nearest = seen.tolist(), nearest.tolist()
    far = max(nearest)
    if seen.count(seen[0]) != len(seen) or sh.mv.count(sh.mv[0]) != len(seen) or (min(nearest) <= w.range) != (
            far <= w.range) or (min(nearest) <= w.range / 2) != (far <= w.range / 2):
        raise SystemExit("the probe plays the plain case only")
    view = _View(W.engaged_with(t), W.unit_is_monster_or_vehicle(t))
    problem, hit_mods = SH.ranged_target_answer(_ranged_facts(stype, w, sh.mv[0], seen[0], far <= w.range,
                                                              ent, view, False))
    if problem is not None:
        raise SystemExit(problem)
    cover = vis.benefit_of_cover_rows(rows, t, w, stype)
    if cover.count(cover[0]) != len(cover):
        raise SystemExit("the probe plays the plain case only")
    key = PL.attack_key(w, (), far <= w.range / 2, _COVER if cover[0] else (), hit_mods, (), (), 0, False)
    # --- the activation (04.03, 05) ---------------------------------------------------------
    record({"type": ev.COMMAND, "command": to_dict(cmd)})
    battle.changes.touched(ent)
    st.selected_to_shoot = True
    eligible, reasons = {}, {}
    for typ, why in elig.items():
        eligible[typ] = why is None
        if why:
            reasons[typ] = why
    uid = cmd.unit
    record({"type": ev.SHOOTING_TYPE, "unit": uid, "shooting_type": stype, "requested": None,
            "eligible": eligible, "reasons": reasons})
    tid = tunit.id
    record({"type": ev.WEAPONS_SELECTED, "unit": uid, "kind": "shoot",
            "selections": [[mid, w.name, tid, None] for mid in sh.ids]})
    spec = PL.gather([(t, key)] * len(sh.ids))[0]
    k = spec.key
    mods = hit_mods + (_COVER if cover[0] else ())   # (the declaration's hit, then skill modifiers)
    p = PoolState(w.A.k * len(spec.members), k.skill, k.S, k.AP, k.D, W.toughness(t), k.hit_mod, k.wound_mod,
                  hit_fail_below=k.fail_below, snap=k.snap)
    record({"type": ev.POOL, "pool": 0, "target": tid, "dice": p.dice, "melee": False, "weapons": [w.name],
            "attackers": list(sh.ids), "skill": k.skill, "S": k.S if type(k.S) is int else strength_text(k.S),
            "AP": k.AP, "D": str(k.D.k) if not k.D.n else str(k.D), "T": p.T, "hit_mod": k.hit_mod,
            "wound_mod": k.wound_mod, "abilities": [], "psychic": False, "ignored": list(k.psychic_ignored),
            "modifiers": [[src, v] for src, v in mods]})
    dice = battle.dice
    record({"type": ev.HITS, "pool": 0, "skill": p.skill, "modifier": p.hit_mod, **roll_hits(p, dice)})
    if not st.ranged_attacks_this_turn:   # 13.09
        st.ranged_attacks_this_turn = True
        if not st.ranged_attacks_last_turn:
            battle.changes.shot(ent)
    if p.hits or p.auto_wounds:
        record({"type": ev.WOUNDS, "pool": 0, "S": strength_text(p.S), "T": p.T,
                "critical_on": p.critical_wound_on, **roll_wounds(p, dice)})
        if p.wounds or p.mortal_criticals:
            models, groups = W.allocation_view(t)
            r = W.roster(t)
            order = r.full_order if groups is r.full_groups else None
            if order is None or len(groups) > 1:
                raise SystemExit("the probe plays the plain case only")
            record({"type": ev.ALLOCATION, "pool": 0, "order": list(order),
                    "groups": {g.key: list(g.members) for g in groups}, "precision": None})
            saves = roll_saves(p, dice)
            record({"type": ev.SAVES, "pool": 0, "rolls": saves, "AP": p.AP})
            st_d = DamageState(models, dict(zip(r.ids, r.full_wounds)), groups, order, None,
                               fnp=W.feel_no_pain(t), W=r.W_of)
            steps = inflict_damage(p, saves, st_d, dice, r.Sv_of, r.InSv_of, None)
            remaining, destroyed = st_d.remaining, []
            hit = {}   # (the models that took damage, a set in record order: their wounds written back)
            for rec in steps:
                if rec.get("saved") is False or "mortal" in rec:
                    hit[rec["model"]] = None
            for mid in hit:
                i = r.ids.index(mid)
                if (rem := remaining[mid]) <= 0:
                    destroyed.append(r.models[i])
                r.wounds[i].remaining = rem
            record({"type": ev.DAMAGE, "pool": 0, "steps": steps})
            if destroyed:
                M.mark_destroyed(destroyed, uid)
                for rec in steps:
                    if rec.get("destroyed"):
                        record({"type": ev.DESTROYED, "model": rec["model"], "by": uid})
                if st_d.destroyed():
                    battle.emit(ev.UNIT_DESTROYED, unit=tid, by=uid)
    # --- 05.04.04 the casualties off the table, the activation ends ------------------------------
    casualties = W.casualties()
    M.remove_casualties(casualties)
    battle.changes.moved(casualties)
    record({"type": ev.ATTACKS_DONE, "unit": uid, "kind": "shoot", "removed": [W.model_id(e) for e in casualties]})
    battle.commands_done += 1


def lean_end_turn(battle: Battle, end) -> None:
    """The End Turn of ``lean_activation`` (07, free play)."""
    battle.record({"type": ev.COMMAND, "command": to_dict(end)})
    roll_over_turn(battle)
    battle.commands_done += 1


def lean_battle(spec, cmds, hashed: bool = False) -> tuple[list[float], list[list[dict]], list[tuple]]:
    """Each activation's seconds, its events and (``hashed``: a run that checks, not one that
    times) the battle's state hash and commands counted after its Shoot and after its End Turn."""
    end = EndTurn()
    times, logs, hashes = [], [], []
    clock = time.perf_counter
    with Battle(spec, record_dice=True) as b, frozen_heap():
        for cmd in cmds:
            n = len(b.events)
            t0 = clock()
            lean_shoot(b, cmd)
            if hashed:
                hashes.append((b.state_hash(), b.commands_done))
            lean_end_turn(b, end)
            times.append(clock() - t0)
            logs.append(b.events[n:])
            if hashed:
                hashes.append((b.state_hash(), b.commands_done))
    return times, logs, hashes


def engine_battle(spec, cmds) -> tuple[list[list[dict]], list[tuple]]:
    """The engine's events, and its state hash and commands counted after each Shoot and each
    End Turn, for the check."""
    end = EndTurn()
    logs, hashes = [], []
    with Battle(spec, record_dice=True) as b:
        for cmd in cmds:
            n = len(b.events)
            b.run_command(cmd)
            hashes.append((b.state_hash(), b.commands_done))
            b.run_command(end)
            logs.append(b.events[n:])
            hashes.append((b.state_hash(), b.commands_done))
    return logs, hashes


def main() -> None:
    args, before, spec = FLOOR.probe_start(__doc__)
    cmds = BA.commands()
    want_logs, want_hashes = engine_battle(spec, cmds)
    want = [[json.dumps(e, sort_keys=True) for e in log] for log in want_logs]
    with Battle(spec, record_dice=True) as b:
        ready = [RULES.Ready(b, c.selections[0].target) for c in cmds]
    turns = [log[-1]["turn"] for log in want_logs]
    _times, logs, hashes = lean_battle(spec, cmds, hashed=True)   # (checked, and a warm-up)
    if [[json.dumps(e, sort_keys=True) for e in log] for log in logs] != want or hashes != want_hashes:
        raise SystemExit("the lean activation's events or state differ from the engine's: the probe needs mending")
    RULES.rules_battle(spec, cmds, ready, turns)   # (warm-up)
    lean_times, rules_times, engine_times = [], [], []

    def lean() -> None:
        times, logs, _hashes = lean_battle(spec, cmds)
        if [[json.dumps(e, sort_keys=True) for e in log] for log in logs] != want:
            raise SystemExit("the lean activation's events differ from the engine's: the probe needs mending")
        lean_times.extend(times)

    layers = [lean, lambda: rules_times.extend(RULES.rules_battle(spec, cmds, ready, turns)[0]),
              lambda: engine_times.extend(BA.run_once(spec)[0])]
    for k in range(args.battles):   # (each battle the three layers in turn, each first in turn)
        for layer in layers[k % 3:] + layers[:k % 3]:
            layer()
    lean, rules, engine = (statistics.median(t) * 1e6 for t in (lean_times, rules_times, engine_times))
    print(f"an activation of bench_attacks (20 attack dice; its events and the state after it equal to the "
          f"engine's, checked), the median over {args.battles} battles x {len(cmds)} activations, wall time:")
    print(f"  the rules' own functions and the log, the world's answers ready (probe_attack_rules): {rules:.1f} us")
    print(f"  a lean activation, the world read and written directly: {lean:.1f} us "
          f"({lean - rules:.1f} us the world's reads and writes)")
    print(f"  the engine: {engine:.1f} us ({engine / lean:.2f}x the lean activation)")
    FLOOR.probe_end(before, [("the rules and the log", rules), ("the lean activation", lean), ("the engine", engine)])


if __name__ == "__main__":
    main()
