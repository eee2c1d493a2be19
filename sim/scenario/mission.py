"""The scenario's ``[mission]`` table (README "Whole battles"): a battle with a mission is
played round by round, phase by phase (07); without one it is free play."""

from __future__ import annotations

import re

from sim.phases.state import DEPLOYMENTS, MissionSpec, ObjectiveSpec
from sim.rules.command_reroll import ALWAYS, ASK
from sim.rules.mission import BATTLE_ROUNDS
from sim.rules.objectives import default_zones
from sim.rules.turn import PLAYER
from sim.scenario.reader import Reader

PLAYER_KINDS = ("scripted", "random", "default", "tactician", "search")
BUDGETED_KINDS = ("search",)  # kinds that take a budget: "search:0.5" (seconds a decision, sim.players.search)
MIN_BUDGET, MAX_BUDGET = 0.01, 60.0
KIND_TEXT = (" or ".join(repr(k) for k in PLAYER_KINDS)
             + f" ('search:SECONDS' with a budget from {MIN_BUDGET:g} to {MAX_BUDGET:g} seconds a decision)")
OBJECTIVE_KINDS = ("home", "central", "expansion")
MAX_OBJECTIVES = 12


def split_kind(text: str) -> tuple[str, float | None]:
    """A player kind as a scenario file or --red/--blue names it: its name and its budget
    ('search:0.5' -> ('search', 0.5); 'default' -> ('default', None)). Raises ValueError
    (no message: the caller says what it expected, KIND_TEXT) for anything else."""
    name, sep, rest = text.partition(":")
    if name not in PLAYER_KINDS or (sep and name not in BUDGETED_KINDS):
        raise ValueError(text)
    if not sep:
        return name, None
    return name, budget(rest)


def budget(text: str) -> float:
    """A search player's budget in seconds a decision on the reference machine: a finite
    number from MIN_BUDGET to MAX_BUDGET (ValueError otherwise)."""
    t = text.strip()
    if not re.fullmatch(r"[0-9]{1,6}(\.[0-9]{0,6})?|\.[0-9]{1,6}", t):
        raise ValueError(text)
    v = float(t)
    if not MIN_BUDGET <= v <= MAX_BUDGET:
        raise ValueError(text)
    return v


def _side(r: Reader, key: str, allowed=PLAYER) -> str:
    v = r.req(key, str)
    if v not in allowed:
        r.fail(" or ".join(repr(a) for a in allowed), v, key)
    return v


def _kind(r: Reader, key: str) -> str:
    v = r.req(key, str)
    try:
        split_kind(v)
    except ValueError:
        r.fail(KIND_TEXT, v, key)
    return v


def read_mission(top: Reader, board) -> MissionSpec | None:
    if not top.has("mission"):
        return None
    r = top.sub("mission")
    r.keys({"name", "rounds", "first", "defender", "objectives", "players", "zones", "deployed", "deployment",
            "size", "command_reroll"})  # (the battle size; which Command Re-roll questions each player is asked)
    name = r.get("name", str, "battlefield dominance")
    if name != "battlefield dominance":
        r.fail("'battlefield dominance' (the one mission this simulator plays, 26)", name, "name")
    rounds = r.get("rounds", int, BATTLE_ROUNDS)
    if not 1 <= rounds <= BATTLE_ROUNDS:
        r.fail(f"a number of battle rounds from 1 to {BATTLE_ROUNDS}", rounds, "rounds")
    first = None
    if r.has("first"):
        f = _side(r, "first", PLAYER + ("roll-off",))
        first = None if f == "roll-off" else PLAYER.index(f)
    defender = PLAYER.index(_side(r, "defender")) if r.has("defender") else 0
    players = ("scripted", "scripted")
    if r.has("players"):
        pr = r.sub("players")
        pr.keys(set(PLAYER))
        players = tuple(_kind(pr, s) if pr.has(s) else "scripted" for s in PLAYER)
    asks = _asks(r)
    objectives = ()
    if r.has("objectives"):
        items = r.sub("objectives").items()
        if not 1 <= len(items) <= MAX_OBJECTIVES:
            r.fail(f"1 to {MAX_OBJECTIVES} objectives", f"<{len(items)} objectives>", "objectives")
        seen = set()
        out = []
        for o in items:
            o.keys({"name", "at", "kind", "owner"}, {"name", "at", "kind"})
            oname = o.req("name", str)
            if oname in seen or not 1 <= len(oname) <= 40:
                o.fail("a unique name of 1 to 40 characters", oname, "name")
            seen.add(oname)
            x, y = o.point("at")
            if not (0 <= x <= board[0] and 0 <= y <= board[1]):
                o.fail(f"a point on the {board[0]:g} x {board[1]:g} board", [x, y], "at")
            kind = o.req("kind", str)
            if kind not in OBJECTIVE_KINDS:
                o.fail(" or ".join(OBJECTIVE_KINDS), kind, "kind")
            owner = None
            if kind == "home":
                owner = PLAYER.index(_side(o, "owner"))
            elif o.has("owner"):
                o.fail("no owner (only a home objective has one)", o.data["owner"], "owner")
            out.append(ObjectiveSpec(oname, x, y, kind, owner))
        objectives = tuple(out)
    defaults = default_zones(board)
    zones = [defaults["defender"], defaults["attacker"]]
    if defender == 1:
        zones.reverse()
    if r.has("zones"):
        zr = r.sub("zones")
        zr.keys(set(PLAYER))
        for i, side in enumerate(PLAYER):
            if zr.has(side):
                poly = zr.points(side)
                if not 3 <= len(poly) <= 64:
                    zr.fail("a polygon of 3 to 64 points", f"<{len(poly)} points>", side)
                if any(not (0 <= x <= board[0] and 0 <= y <= board[1]) for x, y in poly):
                    zr.fail(f"points on the {board[0]:g} x {board[1]:g} board", zr.data[side], side)
                zones[i] = poly
    deployed = r.get("deployed", bool, True)
    deployment = r.get("deployment", str, "placed")
    if deployment not in DEPLOYMENTS:
        r.fail(" or ".join(repr(d) for d in DEPLOYMENTS) + " (the armies as the file places them, or deployed by "
               "the rules: 26 steps 5-11)", deployment, "deployment")
    if deployment == "rules" and r.has("deployed"):
        r.fail("no 'deployed' in a battle deployed by the rules (it begins before deployment, 26 step 5)",
               deployed, "deployed")
    return MissionSpec(name=name, rounds=rounds, first=first, defender=defender,
                       objectives=objectives, zones=tuple(tuple(z) for z in zones), players=players,
                       deployed=deployed and deployment == "placed", deployment=deployment,
                       roles_rolled=deployment == "rules" and not r.has("defender"), size=_size(r),
                       command_reroll=asks)


def _asks(r: Reader) -> tuple[str, str]:
    """``command_reroll = { red = "failed" }``: per side, which Command Re-roll questions its
    player is asked (sim.rules.command_reroll.ASK; a side not named: "always")."""
    if not r.has("command_reroll"):
        return (ALWAYS, ALWAYS)
    cr = r.sub("command_reroll")
    cr.keys(set(PLAYER))
    out = []
    for s in PLAYER:
        v = cr.get(s, str, ALWAYS)
        if v not in ASK:
            cr.fail(" or ".join(repr(a) for a in ASK) + " (which Command Re-roll questions the player is asked)", v, s)
        out.append(v)
    return tuple(out)


def _size(r: Reader) -> str:
    """The battle size (what a rule's numbers "by battle size" read; Strike Force unless given)."""
    from sim.rules.effects.vocabulary import BATTLE_SIZES
    size = r.get("size", str, "strike force")
    if size not in BATTLE_SIZES:
        r.fail(" or ".join(repr(s) for s in BATTLE_SIZES), size, "size")
    return size


def check_deployment(top: Reader, mission: MissionSpec | None, units, board=(60.0, 44.0)) -> None:
    """26 step 8: a battle with a mission starts deployed: every model wholly within its army's
    deployment zone, or, for a base that cannot fit in it, touching its player's battlefield
    edge (03.02.02) (``deployed = false`` for a scenario that starts mid-battle)."""
    if any(u.reserves for u in units):
        _check_reserves(top, mission, units)
    if mission is None or not mission.deployed:
        return
    from sim.rules.deployment import deployment_problems
    from sim.rules.geometry import footprint
    from sim.rules.coherency import coherency_problems
    models, problems = [], []
    for u in units:
        if u.reserves or u.embarked is not None:
            continue  # (not on the battlefield: its positions wait for its ingress move, or its disembark)
        mine = [(m.id, footprint(m.shape, m.x, m.y, m.length, m.width, m.angle)) for m in u.models]
        models += [(mid, u.owner, fp) for mid, fp in mine]
        found = coherency_problems(mine)  # 03.02 a unit is set up in coherency
        if found:
            problems.append(f"{u.id} is not set up in coherency: {found[0]} (03.02)")
    problems = deployment_problems(models, mission.zones, board) + problems
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        top.fail("every model wholly within its army's deployment zone (26 step 8; a base too large for it "
                 "touching its player's battlefield edge, 03.02.02; or 'deployed = false' for a battle that "
                 "starts later)", f"<{problems[0]}{more}>", "mission")


def _check_reserves(top: Reader, mission: MissionSpec | None, units) -> None:
    """20.01 / Part A ruling 27: strategic reserves belong to a battle with a mission, and each
    army may put at most half its units (rounded down) in them (a unit embarked in a transport
    in reserves is in them too)."""
    from sim.rules.reserves import FormationUnit, reserves_problems
    first = next(u for u in units if u.reserves)
    if mission is None:
        top.fail("no 'reserves' in free play: strategic reserves need a [mission] (20)", f"<{first.id} in reserves>",
                 "mission")
    for owner in (0, 1):
        army = [FormationUnit(u.id, u.reserves, embarked_in=u.embarked) for u in units if u.owner == owner]
        problems = reserves_problems(army)
        if problems:
            top.fail("at most half of each army's units in strategic reserves (20.01, ruling 27)",
                     f"<{PLAYER[owner]}: {problems[0]}>", "armies")
