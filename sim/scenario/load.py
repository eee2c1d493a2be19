"""Load and validate a scenario file (TOML) into a ScenarioSpec.

Every problem is reported as one ScenarioError naming the file, the path inside it, what was
expected and what was found. See the README for the format."""

from __future__ import annotations

import dataclasses

import hashlib
import math
import tomllib
from pathlib import Path

from sim.scenario.files import read_capped
from sim.errors import ScenarioError
from sim.rules import geometry
from sim.rules.bounds import CircleGrid
from sim.rules.abilities import AbilityError, parse_unit_abilities, parse_weapon_abilities
from sim.rules.abilities import Hook, effects_of
from sim.rules.dice import parse_dice_expr
from sim.rules.leaders import LEADER, SUPPORT
from sim.rules.modifiers import ROLLS, RollModifier
from sim.rules.profiles import ModelProfile, WeaponProfile
from sim.rules.turn import PLAYER_COLOURS
from sim.scenario.attach import join
from sim.scenario.reader import Reader
from sim.scenario.script import read_script
from sim.scenario.spec import Army, ModelSpec, ScenarioSpec, UnitSpec
from sim.scenario.split import SECOND, read_half_of, split_units
from sim.scenario.transport import check_transports, read_capacity

MODEL_FIELDS = {"name", "id", "ids", "count", "base_mm", "base", "shape", "angle", "M", "T", "Sv",
                "InSv", "W", "Ld", "OC", "keywords", "weapons", "at", "role", "abilities", "modifiers",
                "labels", "InSv_against", "rules"}
UNIT_FIELDS = {"id", "name", "keywords", "abilities", "models", "advanced", "fell_back", "charged",
               "moved", "ranged_attacks_last_turn", "allocation_order", "modifiers", "reserves",
               "labels", "points", "can_lead", "leads", "transport", "embarked", "rules", "split_by", "half_of"}


# Limits (README, "Limits"): generous for real games, small enough that no file can make the
# loader or a battle run unbounded.
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 12  # tables and lists inside each other
MAX_LIST = 10_000  # items in any one list or table
MAX_STRING = 2_000  # characters in any string (battle.description: MAX_DESCRIPTION)
MAX_DESCRIPTION = 10_000
MAX_NAME = 100  # ids, names, keywords, weapon names, table keys
MAX_INT = 2**63 - 1  # any whole number (the seed included), either sign
MAX_FLOAT = 1e6  # any number with a fraction or exponent, either sign; finite only
# per field: (lowest, highest)
BOARD = (1.0, 500.0)  # inches, each side
ANGLE = (-360.0, 360.0)  # degrees: a model's angle, a terrain piece's rotation
BASE_MM = (5.0, 1000.0)  # base_mm, and each side of base = [length, width]
MOVED = (0.0, 1000.0)  # inches
VERTICES = (3, 64)  # per terrain area or feature polygon (the checks are O(n^2) per pair of polygons)
TERRAIN_VERTICES = 2048  # in all terrain polygons
TERRAIN_AREAS = 200
FEATURES = 32  # per terrain area
STATS = {"M": (0, 100), "T": (1, 30), "W": (1, 10**9), "Ld": (1, 12), "OC": (0, 100)}
COUNT = (1, 200)  # models in one models entry
MODELS = 2000  # models in the scenario
RANGE = (1, 1000)  # inches
S = (1, 100)
AP = (-10, 0)
DICE_N = (1, 20)  # the number of dice in A or D (2D6: 2)
FIXED = (1, 100)  # A or D fixed, and the +k of a dice expression (0 to 100)
MODIFIER = (-6, 6)
KEYWORDS = 50  # per keywords list
LABELS = 50  # per labels list (inert names of abilities the engine does not implement)
POINTS = (0, 100_000)  # a unit's points (imported rosters; informative only)


def load_scenario(path: str | Path) -> ScenarioSpec:
    path = Path(path)
    name = str(path)
    raw = _read_bytes(path, name)
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ScenarioError(name, "", "UTF-8 text", "undecodable bytes") from None
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(name, "", "valid TOML", str(e)) from None
    except ValueError:  # a whole number of more than 4300 digits (int's conversion limit)
        raise ScenarioError(name, "", f"whole numbers from {-MAX_INT} to {MAX_INT}",
                            "a number of thousands of digits") from None
    except (RecursionError, MemoryError):
        raise ScenarioError(name, "", f"lists and tables nested at most {MAX_DEPTH} deep",
                            "nesting too deep to read") from None
    spec = parse_scenario(data, name)
    return _with(spec, path=name, digest=hashlib.sha256(raw).hexdigest())


def _read_bytes(path: Path, name: str) -> bytes:
    """The scenario file's bytes (sim.scenario.files.read_capped: a regular file of at most MAX_FILE_BYTES)."""
    return read_capped(path, name, MAX_FILE_BYTES, "a scenario file")


def _control(text: str) -> str | None:
    for c in text:
        o = ord(c)
        if o < 0x20 or 0x7F <= o <= 0x9F:
            return c
    return None


def screen(data, file: str) -> None:
    """Checks every value of a parsed file holds, whatever its place (README, Limits): nesting
    depth, list and string lengths, no control characters in any string or key, whole numbers
    and other numbers within range, other numbers finite. Walks without recursion."""
    stack = [(data, "", 0)]
    while stack:
        v, path, depth = stack.pop()
        if isinstance(v, dict):
            if depth >= MAX_DEPTH:
                raise ScenarioError(file, path, f"lists and tables nested at most {MAX_DEPTH} deep", "deeper nesting")
            if len(v) > MAX_LIST:
                raise ScenarioError(file, path, f"a table of at most {MAX_LIST} entries", f"<{len(v)} entries>")
            for k, x in reversed(v.items()):  # (a stack: the first is looked at first)
                at = f"{path}.{k}" if path else k
                if len(k) > MAX_NAME or _control(k) is not None:
                    raise ScenarioError(file, path, f"keys of at most {MAX_NAME} characters, without control characters",
                                        repr(k[:MAX_NAME]) + ("..." if len(k) > MAX_NAME else ""))
                stack.append((x, at, depth + 1))
        elif isinstance(v, list):
            if depth >= MAX_DEPTH:
                raise ScenarioError(file, path, f"lists and tables nested at most {MAX_DEPTH} deep", "deeper nesting")
            if len(v) > MAX_LIST:
                raise ScenarioError(file, path, f"a list of at most {MAX_LIST} items", f"<{len(v)} items>")
            for i, x in reversed(list(enumerate(v))):
                stack.append((x, f"{path}[{i}]", depth + 1))
        elif isinstance(v, str):
            cap = MAX_DESCRIPTION if path == "battle.description" else MAX_STRING
            if len(v) > cap:
                raise ScenarioError(file, path, f"a string of at most {cap} characters", f"<{len(v)} characters>")
            c = _control(v)
            if c is not None:
                raise ScenarioError(file, path, "a string without control characters", f"{c!r} in {v[:60]!r}")
        elif isinstance(v, bool):
            pass
        elif isinstance(v, int):
            if not -MAX_INT <= v <= MAX_INT:
                raise ScenarioError(file, path, f"a whole number from {-MAX_INT} to {MAX_INT}",
                                    f"a number of {len(str(abs(v)))} digits")
        elif isinstance(v, float):
            if not math.isfinite(v):
                raise ScenarioError(file, path, "a finite number", repr(v))
            if not -MAX_FLOAT <= v <= MAX_FLOAT:
                raise ScenarioError(file, path, f"a number from {-MAX_FLOAT:g} to {MAX_FLOAT:g}", repr(v))


def _with(spec: ScenarioSpec, **kw) -> ScenarioSpec:
    from dataclasses import replace
    return replace(spec, **kw)


from sim.scenario.mission import check_deployment, read_mission  # noqa: E402  (after the limits it reads)


def parse_scenario(data: dict, file: str) -> ScenarioSpec:
    screen(data, file)
    top = Reader(file, data)
    top.keys({"battle", "terrain", "weapons", "armies", "script", "mission"}, {"battle", "armies"})
    battle = top.sub("battle")
    battle.keys({"name", "description", "seed", "board"}, {"name"})
    board = battle.point("board") if battle.has("board") else (60.0, 44.0)
    if not all(BOARD[0] <= b <= BOARD[1] for b in board):
        battle.fail(f"a board size [width, depth] of {BOARD[0]:g} to {BOARD[1]:g} inches", list(board), "board")
    _name(battle, "name")
    terrain = _terrain(top, board)
    weapons = _weapons(top)
    mission = read_mission(top, board)  # (before the armies: how they deploy decides what a unit must give)
    armies, units = _armies(top, weapons, board, mission is not None and mission.deployment == "rules")
    check_transports(top, units)
    script = read_script(top, units, weapons)
    check_deployment(top, mission, units, board)
    return ScenarioSpec(
        name=battle.req("name", str), description=battle.get("description", str, ""),
        seed=battle.get("seed", int, 1), board=board, terrain=terrain, armies=armies,
        units=units, weapons=weapons, script=script, mission=mission, path=file)


def _terrain(top: Reader, board) -> tuple:
    from sim.rules import terrain as TR
    if not top.has("terrain"):
        return ()
    areas = []
    titems = top.sub("terrain").items()
    if len(titems) > TERRAIN_AREAS:
        top.fail(f"at most {TERRAIN_AREAS} terrain areas", f"<{len(titems)} areas>", "terrain")
    for r in titems:
        if r.has("piece"):
            r.keys({"piece", "at", "rotation", "name", "height"}, {"piece", "at"})
            piece = r.req("piece", str)
            if piece not in TR.TERRAIN_LIBRARY:
                r.fail(f"a terrain piece from the library ({', '.join(sorted(TR.TERRAIN_LIBRARY))})", piece, "piece")
            x, y = r.point("at")
            height = _height(r, "dense" if piece in TR.PIECE_HEIGHTS else None)
            area = TR.place(piece, x, y, _ranged(r, "rotation", float, ANGLE, 0.0, "a rotation in degrees"),
                            height)
            if r.has("name"):
                from dataclasses import replace
                area = replace(area, name=_name(r, "name"))
            areas.append(area)
            continue
        r.keys({"name", "area", "features"}, {"area"})
        feats = []
        if r.has("features"):
            fitems = r.sub("features").items()
            if len(fitems) > FEATURES:
                r.fail(f"at most {FEATURES} features", f"<{len(fitems)} features>", "features")
            for f in fitems:
                f.keys({"category", "polygon", "height"}, {"category", "polygon"})
                cat = f.req("category", str)
                if cat not in ("exposed", "light", "dense"):
                    f.fail("exposed, light or dense (13.02)", cat, "category")
                feats.append(TR.Feature(cat, _polygon(f, "polygon"), _height(f, cat)))
        areas.append(TR.TerrainArea(_name(r, "name", f"terrain-{len(areas) + 1}"),
                                    _polygon(r, "area"), tuple(feats)))
    total = sum(len(a.polygon) + sum(len(f.polygon) for f in a.features) for a in areas)
    if total > TERRAIN_VERTICES:
        top.fail(f"at most {TERRAIN_VERTICES} terrain vertices in all", f"<{total} vertices>", "terrain")
    problems = TR.validate_terrain(areas, board)
    if problems:
        p = problems[0]
        raise ScenarioError(top.file, p.path, p.expected, p.found)
    return tuple(areas)


def _height(r: Reader, category: str | None) -> float | None:
    """A dense feature's optional ``height`` in inches (Part A ruling 12; terrain.height_problem:
    only on a dense feature, above 0 and at most 100). ``category``: the feature's, or None for
    a library piece with no dense feature (a height is refused there too)."""
    if not r.has("height"):
        return None
    from sim.rules import terrain as TR
    h = r.get("height", float, what="a height in inches, like 2 or 1.5")
    if category is None:
        r.fail(f"a height only on a piece with dense features ({', '.join(sorted(TR.PIECE_HEIGHTS))})",
               f"<a height on a {r.data['piece']} piece>", "height")
    problem = TR.height_problem(category, h)
    if problem is not None:
        r.fail(problem[0], r.data["height"] if category == "dense" else f"<{problem[1]}>", "height")
    return h


def _weapons(top: Reader) -> dict[str, WeaponProfile]:
    out: dict[str, WeaponProfile] = {}
    if not top.has("weapons"):
        return out
    ws = top.sub("weapons")
    if not isinstance(ws.data, dict):
        ws.fail("a table of weapon profiles", ws.data)
    for name in ws.data:
        r = ws.sub(name)
        if not name.strip() or len(name) > MAX_NAME:
            ws.fail(f"a weapon name of 1 to {MAX_NAME} characters", name, name)
        r.keys({"range", "A", "BS", "WS", "S", "AP", "D", "abilities", "labels", "weapon"},
               {"range", "A", "S", "AP", "D"})
        rng = r.data["range"]
        melee = isinstance(rng, str) and rng.lower() == "melee"
        if not melee and (not isinstance(rng, int) or isinstance(rng, bool) or not RANGE[0] <= rng <= RANGE[1]):
            r.fail(f'a range in whole inches ({RANGE[0]} to {RANGE[1]}) or "melee"', rng, "range")
        skill_key = "WS" if melee else "BS"
        if r.has("WS" if not melee else "BS"):
            r.fail(f"{skill_key} for a {'melee' if melee else 'ranged'} weapon", "<the other one>",
                   "WS" if not melee else "BS")
        skill = r.get(skill_key, int, None) if r.has(skill_key) else None
        abil_text = r.get("abilities", str, "")
        try:
            abilities = parse_weapon_abilities(abil_text, name)
        except AbilityError as e:
            raise ScenarioError(top.file, r.at("abilities"), "known weapon abilities",
                                f"{e.message} (weapon {name!r}, token {e.token!r})") from None
        # 24.37: a weapon that hits automatically needs no BS/WS
        automatic = Hook.AUTOMATIC_HITS in effects_of(abilities)
        if skill is None and not automatic:
            raise ScenarioError(top.file, r.at(skill_key), f"{skill_key} (2 to 6, for 2+ to 6+)", "<missing>")
        if skill is not None and not 2 <= skill <= 6:
            r.fail(f"{skill_key} from 2 to 6 (2+..6+, 02.02.01)", skill, skill_key)
        A = _dice(r, "A", minimum=1)
        D = _dice(r, "D", minimum=1)
        S_ = _strength(r)
        AP_ = r.req("AP", int)
        if not AP[0] <= AP_ <= AP[1]:
            r.fail(f"AP from {AP[0]} to {AP[1]} (e.g. -2)", AP_, "AP")
        group = _name(r, "weapon", "")  # 04.01.03 the multi-profile weapon it is a profile of
        out[name] = WeaponProfile(name, None if melee else rng, A, skill or 2, S_, AP_, D,
                                  abilities, abil_text, labels=_labels(r, "labels"), weapon=group)
    for name, w in out.items():  # (a script names a multi-profile weapon by its own name)
        if w.weapon in out:
            ws.sub(name).fail("a multi-profile weapon name that no profile under [weapons] has",
                              w.weapon, "weapon")
    return out


def _strength(r: Reader):
    """A weapon's S: a whole number, or a random S as dice ("2D6", "D6+6": 02.02.03, rolled for
    each attack: sim.rules.sequence.strength_rolled) within the same bounds."""
    v = r.data.get("S")
    if isinstance(v, str):
        d = _dice(r, "S", minimum=S[0])
        if d.maximum > S[1]:
            r.fail(f"S from {S[0]} to {S[1]}", v, "S")
        return d if d.is_random else d.k
    S_ = r.req("S", int)
    if not S[0] <= S_ <= S[1]:
        r.fail(f"S from {S[0]} to {S[1]}", S_, "S")
    return S_


def _dice(r: Reader, key: str, minimum: int):
    v = r.data.get(key)
    try:
        d = parse_dice_expr(v)
    except ValueError:
        r.fail("a number or dice like 'D6+1'", v, key)
    if d.minimum < minimum:
        r.fail(f"{key} of at least {minimum}", v, key)
    if d.is_random and not DICE_N[0] <= d.n <= DICE_N[1]:
        r.fail(f"{key} of {DICE_N[0]} to {DICE_N[1]} dice", v, key)
    if d.k > FIXED[1]:
        r.fail(f"{key} of at most {FIXED[1]}" + (" plus dice" if d.is_random else ""), v, key)
    return d


def _ranged(r: Reader, key: str, kind, bounds, default, what: str):
    """Field ``key`` of ``kind`` (int or float) within ``bounds`` (inclusive), or ``default``."""
    v = r.get(key, kind, default)
    if v is not None and r.has(key) and not bounds[0] <= v <= bounds[1]:
        r.fail(f"{what} from {bounds[0]:g} to {bounds[1]:g}", r.data[key], key)
    return v


def _name(r: Reader, key: str, default=None):
    """A name or id: a string of 1 to MAX_NAME characters (control characters are refused for
    every string by screen)."""
    v = r.get(key, str, default)
    if r.has(key) and not 1 <= len(v) <= MAX_NAME:
        r.fail(f"a name of 1 to {MAX_NAME} characters", v, key)
    return v


def _polygon(r: Reader, key: str):
    pts = r.points(key)
    if not VERTICES[0] <= len(pts) <= VERTICES[1]:
        r.fail(f"a polygon of {VERTICES[0]} to {VERTICES[1]} vertices", f"<{len(pts)} vertices>", key)
    return pts


def _armies(top: Reader, weapons, board, by_rules: bool = False):
    armies_r = top.sub("armies")
    items = armies_r.items()
    if len(items) != 2:
        armies_r.fail("exactly two armies", f"<{len(items)} armies>")
    armies, units = [], []
    seen_units: set[str] = set()
    seen_models: dict[str, str] = {}
    placed = _Placed()  # (id, where, footprint or None) of every model read so far
    # each unit id as written, with its army (for a modifier's ``against``; ids are checked
    # when each unit is read)
    owners: dict[str, int] = {}
    readers: dict[str, Reader] = {}  # unit id -> its reader (for an attachment's error)
    chosen_r: list[Reader] = []  # each army's reader, for its ``chosen`` (read once every unit is known)
    for owner, ar in enumerate(items):
        raw = ar.data.get("units") if isinstance(ar.data, dict) else None
        for u in raw if isinstance(raw, list) else ():
            if isinstance(u, dict) and isinstance(u.get("id"), str):
                owners.setdefault(u["id"], owner)
                if isinstance(u.get("split_by"), str):  # (its second half, sim.scenario.split)
                    owners.setdefault(u["id"] + SECOND, owner)
    for owner, ar in enumerate(items):
        ar.keys({"name", "colour", "units", "rules", "chosen"}, {"name", "units"})
        colour = PLAYER_COLOURS[owner]
        if ar.has("colour"):
            c = ar.data["colour"]
            if not (isinstance(c, list) and len(c) == 3
                    and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in c)):
                ar.fail("an RGB colour [r, g, b] of 0..255", c, "colour")
            colour = tuple(c)
        _name(ar, "name")
        armies.append(Army(ar.req("name", str), colour, _rules(ar, "rules")))
        chosen_r.append(ar)
        enemies = sorted(uid for uid, o in owners.items() if o != owner)
        for ur in ar.sub("units").items():
            units.append(_unit(ur, owner, weapons, board, seen_units, seen_models, placed, enemies, by_rules))
            readers[units[-1].id] = ur
            if len(placed) > MODELS:
                ur.fail(f"at most {MODELS} models in the scenario", f"<{len(placed)} models>", "models")
    units = split_units(units, readers, by_rules)  # 26 step 7 units a transport's rule splits
    joined = join(tuple(units), readers, board, _waiting)  # 19.01 attached units
    armies = [dataclasses.replace(a, chosen=_chosen(r, owner, a, joined)) for owner, (a, r) in
              enumerate(zip(armies, chosen_r))]
    return tuple(armies), joined


def _chosen(ar: Reader, owner: int, army: Army, units) -> tuple:
    """An army's ``chosen`` table (README "Rules"): the choices of its rules in force as the
    battle starts, by rule (key or name) -> the enemy unit it picked (an id), the friendly unit it
    picked (an id, for a rule that picks a friendly unit), the option it picked (its name) or
    true (called).
    The rule must be one a unit of the army holds and one that asks that kind of choice."""
    from sim.rules.effects import table
    from sim.rules.effects import vocabulary as V
    v = ar.get("chosen", dict, {})
    held = set(army.rules) | {k for u in units if u.owner == owner for m in u.models for k in m.rules}
    enemies = sorted(u.id for u in units if u.owner != owner)
    friends = sorted(u.id for u in units if u.owner == owner)
    out = []
    for name, value in v.items():
        rec = table.resolve(name)
        # an oath (its OATH grant) sworn by the scenario: "<deed> / <quality>" (sim.rules.effects.oaths)
        if rec is not None and rec.key in held and any(g.what.kind == V.OATH for g in rec.grants):
            from sim.rules.effects import oaths
            try:
                oaths.parse(value)
            except ValueError:
                deeds, qualities = ", ".join(oaths.options(oaths.DEEDS)), ", ".join(oaths.options(oaths.QUALITIES))
                ar.sub("chosen").fail(f"an oath \"<deed> / <quality>\", a deed of {deeds} and a quality of {qualities}",
                                      value, name)
            out.append((rec.key, value))
            continue
        # a mark (its MARK grant): the friendly unit it starts on
        if rec is not None and rec.key in held and rec.choice is None and any(g.what.kind == V.MARK for g in rec.grants):
            if value not in friends:
                ar.sub("chosen").fail(f"the id of a friendly unit ({', '.join(friends)}) the mark starts on", value, name)
            out.append((rec.key, value))
            continue
        if rec is None or rec.key not in held or rec.choice is None:
            ar.sub("chosen").fail("a rule with a choice that a unit of this army holds", name, name)
        if rec.choice.kind == V.PICK_ENEMY:
            if value not in enemies:
                ar.sub("chosen").fail(f"the id of an enemy unit ({', '.join(enemies)})", value, name)
        elif rec.choice.kind == V.PICK_FRIEND:
            if value not in friends:
                ar.sub("chosen").fail(f"the id of a friendly unit ({', '.join(friends)})", value, name)
        elif rec.choice.kind == V.PICK_OPTION:
            if value not in rec.choice.options:
                ar.sub("chosen").fail(f"one of the rule's options ({', '.join(rec.choice.options)})", value, name)
        elif rec.choice.kind == V.PICK_FRIENDS:  # the friendly units picked, a list
            most = max(rec.choice.most)
            if not (isinstance(value, list) and 1 <= len(value) <= most and len(set(value)) == len(value)
                    and all(x in friends for x in value)):
                ar.sub("chosen").fail(f"a list of 1 to {most} ids of friendly units ({', '.join(friends)})",
                                      value, name)
        elif rec.choice.kind == V.DICE_OPTIONS:  # the options in force (before the first round's roll)
            from sim.rules.effects.dice_options import option_names
            names = option_names(rec.choice)
            if (not isinstance(value, list) or not value or len(value) > rec.choice.picks
                    or any(v not in names for v in value) or len(set(value)) != len(value)):
                ar.sub("chosen").fail(f"a list of at most {rec.choice.picks} of its options ({', '.join(names)})",
                                      value, name)
            value = list(value)
        elif value is not True:
            ar.sub("chosen").fail("true (the rule is called)", value, name)
        out.append((rec.key, value))
    return tuple(out)


def _keywords(r: Reader, key: str) -> frozenset[str]:
    v = r.get(key, list, [])
    if len(v) > KEYWORDS:
        r.fail(f"at most {KEYWORDS} keywords", f"<{len(v)} keywords>", key)
    for i, k in enumerate(v):
        if not isinstance(k, str) or not k.strip() or len(k) > MAX_NAME:
            r.sub(key).fail(f"a keyword string of 1 to {MAX_NAME} characters", k, i)
    return frozenset(k.strip().upper() for k in v)


def _labels(r: Reader, key: str) -> tuple[str, ...]:
    """Inert labels: the names of abilities the engine does not implement (kept for display and
    the record, never read by a rule), as written."""
    v = r.get(key, list, [])
    if len(v) > LABELS:
        r.fail(f"at most {LABELS} labels", f"<{len(v)} labels>", key)
    for i, k in enumerate(v):
        if not isinstance(k, str) or not k.strip() or len(k) > MAX_NAME:
            r.sub(key).fail(f"a label of 1 to {MAX_NAME} characters", k, i)
    return tuple(v)


def _in_version(r: Reader, uid: str, keywords) -> None:
    """Part A ruling 28 (sim.rules.scope): a unit this version cannot play (AIRCRAFT) is refused
    at its keywords, naming it."""
    from sim.rules import scope
    if scope.refusal(keywords) is not None:
        raise ScenarioError(r.file, r.at("keywords"), scope.EXPECTED, f"AIRCRAFT unit {uid!r}")


def _abilities(r: Reader, key: str):
    if not r.has(key):
        return ()
    v = r.data[key]
    if not isinstance(v, (str, list)):
        r.fail("unit abilities as a string or a list of strings", v, key)
    try:
        return parse_unit_abilities(v, r.at(key))
    except AbilityError as e:
        raise ScenarioError(r.file, r.at(key), "known unit abilities", f"{e.message} (token {e.token!r})") from None


def _rules(r: Reader, key: str) -> tuple[str, ...]:
    """A ``rules`` list (README "Rules"): datasheet abilities, army rules and detachment rules
    the engine models (sim.rules.effects.table), each by its key or printed name; their keys,
    in order, once each. A rule the engine does not model belongs in ``labels``."""
    from sim.rules.effects import table
    v = r.get(key, list, [])
    if len(v) > LABELS:
        r.fail(f"at most {LABELS} rules", f"<{len(v)} rules>", key)
    out: list[str] = []
    for i, k in enumerate(v):
        if not isinstance(k, str) or not k.strip() or len(k) > MAX_NAME:
            r.sub(key).fail(f"a rule's key or name of 1 to {MAX_NAME} characters", k, i)
        rec = table.resolve(k.strip())
        if rec is None:
            several = table.named(k.strip())
            if several:
                r.sub(key).fail("a rule's key: the name is printed by several rules ("
                                + ", ".join(x.key for x in several) + ")", k, i)
            r.sub(key).fail("a rule the engine models (`sim rules` lists them; put any other in labels)", k, i)
        if rec.source == "ritual":  # a ritual is attempted through the rule that opens it, never held
            r.sub(key).fail("a rule a unit holds (a ritual is attempted through the rule that opens it: "
                            "Cabal of Sorcerers)", k, i)
        if rec.key not in out:
            out.append(rec.key)
    return tuple(out)


def _modifiers(r: Reader, key: str, enemies) -> tuple[RollModifier, ...]:
    """A ``modifiers`` list (README): tables of roll (hit, wound, save, BS or WS), value (a
    whole number other than 0), source (its label) and, optionally, against (melee, ranged or
    an enemy unit id: ``enemies``)."""
    if not r.has(key):
        return ()
    out = []
    for mr in r.sub(key).items():
        mr.keys({"roll", "value", "source", "against"}, {"roll", "value", "source"})
        roll = mr.req("roll", str)
        if roll not in ROLLS:
            mr.fail("hit, wound, save, BS or WS", roll, "roll")
        value = mr.req("value", int)
        if value == 0 or not MODIFIER[0] <= value <= MODIFIER[1]:
            mr.fail(f"a whole number other than 0, from {MODIFIER[0]} to {MODIFIER[1]} (+1 improves, -1 worsens)",
                    value, "value")
        source = mr.req("source", str)
        if not source.strip():
            mr.fail('a source label (e.g. "Smoke cloud")', source, "source")
        against = mr.get("against", str, None)
        if against in ("melee", "ranged"):
            if (roll, against) in (("BS", "melee"), ("WS", "ranged")):
                kind = "ranged" if roll == "BS" else "melee"
                mr.fail(f"{kind} or an enemy unit id ({roll} is the skill of {kind} attacks)", against, "against")
        elif against is not None and against not in enemies:
            mr.fail(f"melee, ranged or an enemy unit id ({', '.join(enemies) or 'none'})", against, "against")
        out.append(RollModifier(roll, value, source, against))
    return tuple(out)


class _Placed(list):
    """The models read so far, (id, where, footprint or None: embarked), with the bounding
    circles of those on the battlefield in a grid (sim.rules.bounds): ``filed[k]`` is the
    place in the list of the grid's circle ``k``."""

    def __init__(self) -> None:
        super().__init__()
        self.grid = CircleGrid()
        self.filed: list[int] = []


def _unit(ur: Reader, owner, weapons, board, seen_units, seen_models, placed, enemies=(), by_rules=False) -> UnitSpec:
    ur.keys(UNIT_FIELDS, {"id", "models"})
    uid = ur.req("id", str)
    _name(ur, "id")
    _name(ur, "name")
    if not uid or "/" in uid:
        ur.fail("a unit id without '/'", uid, "id")
    if uid in seen_units:
        ur.fail("a unit id not used before", uid, "id")
    seen_units.add(uid)
    ukw = _keywords(ur, "keywords")
    _in_version(ur, uid, ukw)
    # 26 step 7 it starts embarked in that transport: not on the battlefield, so its models'
    # positions overlap nothing (they stand for nothing until it disembarks)
    embarked = _name(ur, "embarked")
    uab = _abilities(ur, "abilities")
    umods = _modifiers(ur, "modifiers", enemies)
    ulabels = _labels(ur, "labels")
    urules = _rules(ur, "rules")
    models: list[ModelSpec] = []
    unplanned = False
    for mr in ur.sub("models").items():
        mr.keys(MODEL_FIELDS, {"M", "T", "Sv", "W", "Ld", "OC"} | (set() if by_rules else {"at"}))
        count = mr.get("count", int, 1)
        if not COUNT[0] <= count <= COUNT[1]:
            mr.fail(f"a count from {COUNT[0]} to {COUNT[1]}", count, "count")
        stats = {}
        for k in ("M", "T", "Sv", "W", "Ld", "OC"):
            stats[k] = mr.req(k, int)
            lo, hi = STATS.get(k, (2, 7))
            if k in STATS and not lo <= stats[k] <= hi:
                mr.fail(f"{k} of {lo} or more (to {hi})", stats[k], k)
        if stats["W"] <= 0:
            mr.fail("W of 1 or more", stats["W"], "W")
        if stats["T"] < 1:
            mr.fail("T of 1 or more", stats["T"], "T")
        if not 2 <= stats["Sv"] <= 7:
            mr.fail("Sv from 2 to 7 (2+..7+; 7 = no save)", stats["Sv"], "Sv")
        insv = mr.get("InSv", int, None)
        if insv is not None and not 2 <= insv <= 6:
            mr.fail("InSv from 2 to 6 (2+..6+)", insv, "InSv")
        against = mr.get("InSv_against", str, "")  # 05.03 an invulnerable save against those attacks only
        if against not in ("", "ranged", "melee") or (against and insv is None):
            mr.fail("ranged or melee (the attacks its InSv counts against), with an InSv", against, "InSv_against")
        profile = ModelProfile(stats["M"], stats["T"], stats["Sv"], stats["W"], stats["Ld"], stats["OC"], insv,
                               against)
        kws = ukw | _keywords(mr, "keywords")
        _in_version(mr, uid, kws)
        abil = uab + _abilities(mr, "abilities")
        mods = umods + _modifiers(mr, "modifiers", enemies)
        mlabels = _labels(mr, "labels")
        mrules = urules + tuple(k for k in _rules(mr, "rules") if k not in urules)
        wnames = mr.get("weapons", list, [])
        wps = []
        for i, wn in enumerate(wnames):
            if isinstance(wn, str) and wn not in weapons and any(w.weapon == wn for w in weapons.values()):
                # 04.01.03 a multi-profile weapon by its own name: each of its profiles, in order
                wps.extend(w for w in weapons.values() if w.weapon == wn)
                continue
            if not isinstance(wn, str) or wn not in weapons:  # (a list or table cannot even be looked up)
                mr.sub("weapons").fail(f"a weapon defined under [weapons] ({', '.join(sorted(weapons)) or 'none defined'})", wn, i)
            wps.append(weapons[wn])
        shape, length, width = "round", 32 / 25.4, 32 / 25.4
        if mr.has("base_mm") and mr.has("base"):
            mr.fail("base_mm (round) or base = [length, width] (mm), not both", "<both>", "base")
        if mr.has("base_mm"):
            mm = _ranged(mr, "base_mm", float, BASE_MM, None, "a base size in mm")
            length = width = mm / 25.4
        elif mr.has("base"):
            L, Wd = mr.point("base")
            if not (BASE_MM[0] <= L <= BASE_MM[1] and BASE_MM[0] <= Wd <= BASE_MM[1]):
                mr.fail(f"a base size [length, width] of {BASE_MM[0]:g} to {BASE_MM[1]:g} mm", [L, Wd], "base")
            shape = mr.get("shape", str, "oval")
            if shape not in ("oval", "rect", "round"):
                mr.fail("oval, rect or round", shape, "shape")
            length, width = L / 25.4, Wd / 25.4
        angle = _ranged(mr, "angle", float, ANGLE, 0.0, "an angle in degrees")
        planned = mr.has("at") or not by_rules
        at = mr.points("at") if planned else _waiting(models, count, length, width, board)
        if not planned:
            unplanned = True
        if len(at) != count:
            mr.fail(f"{count} position{'s' if count != 1 else ''} in 'at' (one per model)",
                    f"<{len(at)} position{'s' if len(at) != 1 else ''}>", "at")
        ids = mr.get("ids", list, None)
        if mr.has("id"):
            if count != 1:
                mr.fail("'id' for a single model (use 'ids' for several)", count, "count")
            ids = [mr.req("id", str)]
        if ids is not None and (len(ids) != count
                                or not all(isinstance(i, str) and 1 <= len(i) <= MAX_NAME for i in ids)):
            mr.fail(f"{count} model ids", ids, "ids" if mr.has("ids") else "id")
        role = mr.get("role", str, "bodyguard")
        if role not in ("bodyguard", LEADER, SUPPORT):
            mr.fail("bodyguard, leader or support (19.01)", role, "role")
        name = _name(mr, "name", ur.get("name", str, uid))
        for i, (x, y) in enumerate(at):
            mid = ids[i] if ids else f"{uid}/{len(models) + 1}"
            where = mr.sub("at").at(i) if planned else mr.at("models")
            if mid in seen_models:
                raise ScenarioError(ur.file, mr.at("ids" if ids else "at"), "a model id not used before",
                                    repr(mid))
            seen_models[mid] = where
            fp = geometry.footprint(shape, x, y, length, width, angle)
            if not planned:  # (a place to wait in until deployed: not on the battlefield)
                models.append(ModelSpec(mid, name, role, x, y, shape, length, width, angle, profile,
                                        kws, tuple(wps), "CHARACTER" in kws, abil, mods, mlabels, mrules))
                continue
            if not _on_board(fp, board):
                raise ScenarioError(ur.file, where, f"a base wholly on the {board[0]:g}\"x{board[1]:g}\" board",
                                    f"({x:g}, {y:g})")
            if embarked is None:
                # (the bounding circles' grid names the models that may overlap, in the order placed)
                for k in placed.grid.near(fp.x, fp.y, fp.bounding_radius):
                    other_id, other_where, ofp = placed[placed.filed[k]]
                    if geometry.overlaps(fp, ofp):
                        raise ScenarioError(ur.file, where, "a base that overlaps no other model",
                                            f"({x:g}, {y:g}) overlapping {other_id} at {other_where}")
                placed.filed.append(len(placed))
                placed.grid.add(fp.x, fp.y, fp.bounding_radius)
            placed.append((mid, where, None if embarked is not None else fp))
            models.append(ModelSpec(mid, name, role, x, y, shape, length, width, angle, profile,
                                    kws, tuple(wps), "CHARACTER" in kws, abil, mods, mlabels, mrules))
    # 18.01 (a TRANSPORT unit: its keyword on the unit, or on every model as a saved table writes it)
    capacity = read_capacity(ur, set(ukw).union(*[set()] if not models else
                                               [frozenset.intersection(*(m.keywords for m in models))]))
    order = ur.get("allocation_order", list, [])
    for i, o in enumerate(order):
        if not isinstance(o, str) or not 1 <= len(o) <= MAX_NAME:
            ur.sub("allocation_order").fail("a model id (a string)", o, i)
    return UnitSpec(uid, ur.get("name", str, uid), owner, tuple(models),
                    advanced=ur.get("advanced", bool, False), fell_back=ur.get("fell_back", bool, False),
                    charged=ur.get("charged", bool, False),
                    moved=_ranged(ur, "moved", float, MOVED, 0.0, "inches moved"),
                    ranged_attacks_last_turn=ur.get("ranged_attacks_last_turn", bool, False),
                    allocation_order=tuple(order), reserves=ur.get("reserves", bool, False),
                    labels=ulabels, points=_ranged(ur, "points", int, POINTS, None, "points"),
                    planned=not unplanned, can_lead=_can_lead(ur), leads=_name(ur, "leads"),
                    transport=capacity, embarked=embarked, split_by=_split_by(ur), split=read_half_of(ur))


def _split_by(ur: Reader) -> str | None:
    """26 step 7 the transport whose rule splits the unit (sim.scenario.split); not on a half
    already split (``half_of``)."""
    v = _name(ur, "split_by")
    if v is not None and ur.has("half_of"):
        ur.fail("split_by or half_of (a half already split), not both", "<both>", "split_by")
    return v


def _can_lead(r: Reader) -> tuple[str, ...]:
    """The datasheets a CHARACTER unit can lead (19.01; an imported Leader ability's list), by
    name: read by the attachment rule (sim.rules.leaders) when the unit ``leads`` one."""
    v = r.get("can_lead", list, [])
    if len(v) > LABELS:
        r.fail(f"at most {LABELS} datasheet names", f"<{len(v)} names>", "can_lead")
    for i, k in enumerate(v):
        if not isinstance(k, str) or not k.strip() or len(k) > MAX_NAME:
            r.sub("can_lead").fail(f"a datasheet name of 1 to {MAX_NAME} characters", k, i)
    return tuple(v)


def _waiting(before: list, count: int, length: float, width: float, board) -> list[tuple[float, float]]:
    """Positions for models a scenario deployed by the rules gives none: a compact block, five
    to a row, 0.5" apart, each model entry in rows below the unit's models ``before`` (so the
    unit is in coherency and on no base of its own: it keeps this shape until it is set up,
    e.g. for an ingress move's default formation)."""
    pitch_x, pitch_y = length + 0.5, width + 0.5
    y0 = board[1] / 2
    if before:
        last = max(before, key=lambda m: m.y + m.width / 2)
        y0 = last.y + last.width / 2 + 0.5 + width / 2
    return [(board[0] / 2 + (k % 5 - 2) * pitch_x, y0 + (k // 5) * pitch_y) for k in range(count)]


def _on_board(fp, board) -> bool:
    r = fp.bounding_radius  # (its bounding circle on the board: so is its outline)
    if fp.x - r >= 0 and fp.y - r >= 0 and fp.x + r <= board[0] and fp.y + r <= board[1]:
        return True
    pts = geometry.outline(fp, 32)
    return bool((pts[:, 0] >= -1e-6).all() and (pts[:, 0] <= board[0] + 1e-6).all()
                and (pts[:, 1] >= -1e-6).all() and (pts[:, 1] <= board[1] + 1e-6).all())
