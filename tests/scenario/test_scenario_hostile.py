"""Issue 13, scenario files: every hostile or out-of-range value gets the one-line error
``FILE: PLACE: expected ..., found ...`` (exit status 2 from ``sim check``), never a traceback
or a hang. A table of (mutation of a small valid scenario -> expected place and text), run
through the loader in-process; a few subprocess checks of ``sim check`` itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.errors import ScenarioError
from sim.scenario.load import load_scenario

ROOT = Path(__file__).resolve().parents[2]
GOOD = (ROOT / "scenarios/worked_example_pools.toml").read_text()
MODEL0 = '{ name = "Warden", count = 4, base_mm = 32, M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2'
RIFLE = '[weapons."rifle"]\nrange = 24\nA = 1\nBS = 3\nS = 4\nAP = 0\nD = 1\n'
ARMY0 = 'name = "Wardens"\n'
UNIT0 = 'id = "wardens"\n'


def sub(old: str, new: str, count: int = 1):
    def f(s: str) -> str:
        assert old in s, old
        return s.replace(old, new, count)
    return f


def model0(extra: str):
    return sub(MODEL0, MODEL0.replace("count = 4, ", "count = 4, " + extra + ", ", 1) if "=" in extra else MODEL0)


def stat(key: str, value: str):
    """Model 0's characteristic ``key`` set to ``value``."""
    import re
    def f(s: str) -> str:
        line = re.sub(rf"\b{key} = [^,]+", f"{key} = {value}", MODEL0, count=1)
        return s.replace(MODEL0, line, 1)
    return f


def weapon(key: str, value: str, name: str = "rifle"):
    import re
    def f(s: str) -> str:
        head = f'[weapons."{name}"]\n'
        i = s.index(head) + len(head)
        j = s.find("\n[", i)
        body = s[i:j]
        if re.search(rf"^{key} = ", body, re.M):
            body = re.sub(rf"^{key} = .*$", lambda m: f"{key} = {value}", body, count=1, flags=re.M)
        else:
            body = f"{key} = {value}\n" + body
        return s[:i] + body + s[j:]
    return f


M0 = "armies[0].units[0].models[0]"
CASES = [
    # (id, mutation, expected place, fragments of the rest of the message)
    ("board inf", sub("board = [60, 44]", "board = [inf, inf]"), "battle.board[0]", ["finite", "inf"]),
    ("board nan", sub("board = [60, 44]", "board = [nan, nan]"), "battle.board[0]", ["finite", "nan"]),
    ("position inf", sub("at = [[10, 20]", "at = [[inf, 20]"), f"{M0}.at[0][0]", ["finite"]),
    ("base nan", sub("base_mm = 32, M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2, weapons = [\"sidearm\"]",
                     "base_mm = nan, M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2, weapons = [\"sidearm\"]"),
     "armies[0].units[0].models[1].base_mm", ["finite"]),
    ("moved nan", sub(UNIT0, UNIT0 + "moved = nan\n"), "armies[0].units[0].moved", ["finite"]),
    ("huge float", sub(UNIT0, UNIT0 + "moved = 1e300\n"), "armies[0].units[0].moved", ["from -1e+06 to 1e+06"]),
    ("huge int in TOML", sub("seed = 5", "seed = " + "9" * 5000), "", ["whole numbers", "thousands of digits"]),
    ("big int", sub("seed = 5", "seed = " + "9" * 30), "battle.seed", ["whole number from", "30 digits"]),
    ("deep list", sub("seed = 5", "seed = " + "[" * 3000 + "]" * 3000), "", ["nested at most 12 deep"]),
    ("deep table", sub("seed = 5", "seed = " + "{a=" * 3000 + "1" + "}" * 3000), "", ["nested at most 12 deep"]),
    ("moderately deep", sub("seed = 5", "seed = " + "[" * 40 + "]" * 40), "battle.seed" + "[0]" * 10,
     ["nested at most 12 deep"]),
    ("ESC in unit id", sub('id = "raiders"', 'id = "rai\\u001b[31mders"'), "armies[1].units[0].id",
     ["without control characters", "'\\x1b'"]),
    ("BEL in name", sub('name = "Raider Mob"', 'name = "Raider\\u0007Mob"'), "armies[1].units[0].name",
     ["without control characters"]),
    ("C1 in battle name", sub('name = "Worked example', 'name = "\\u009bWorked example'), "battle.name",
     ["without control characters"]),
    ("control char in a key", sub('[weapons."rifle"]', '[weapons."ri\\u001bfle"]'), "weapons",
     ["without control characters", "'ri\\x1bfle'"]),
    ("long string", sub('name = "Raider Mob"', 'name = "' + "x" * 3000 + '"'), "armies[1].units[0].name",
     ["at most 2000 characters", "3000 characters"]),
    ("long list", sub('keywords = ["INFANTRY"]', 'keywords = [' + "1," * 10_001 + ']'), "armies[0].units[0].keywords",
     ["at most 10000 items"]),
]


FRIENDS = ('[[armies]]\nname = "Raiders"', '[[armies.units]]\nid = "scouts"\nmodels = [{ M = 6, T = 4, Sv = 3, W = 1, '
           'Ld = 6, OC = 1, at = [[40, 10]] }]\n\n[[armies]]\nname = "Raiders"')
SCRIPT = 'targets = { "rifle" = "raiders", "sidearm" = "raiders", "heavy rifle" = "raiders" }'
R = "weapons.rifle"
CASES += [
    ("M negative", stat("M", "-6"), f"{M0}.M", ["M of 0 or more (to 100)", "found -6"]),
    ("Ld negative", stat("Ld", "-100"), f"{M0}.Ld", ["Ld of 1 or more (to 12)"]),
    ("OC negative", stat("OC", "-5"), f"{M0}.OC", ["OC of 0 or more"]),
    ("T huge", stat("T", "1000000"), f"{M0}.T", ["T of 1 or more (to 30)"]),
    ("W huge", stat("W", "10000000000"), f"{M0}.W", ["(to 1000000000)"]),
    ("count huge", sub("count = 4, ", "count = 1000000, "), f"{M0}.count", ["a count from 1 to 200"]),
    ("base 1e-300", sub("base_mm = 32, M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2, weapons = [\"sidearm\"]",
                        "base_mm = 1e-300, M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2, weapons = [\"sidearm\"]"),
     "armies[0].units[0].models[1].base_mm", ["a base size in mm from 5 to 1000", "1e-300"]),
    ("base inf", sub("base_mm = 32, M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2, weapons = [\"sidearm\"]",
                     "base = [inf, 30], M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2, weapons = [\"sidearm\"]"),
     "armies[0].units[0].models[1].base[0]", ["finite"]),
    ("base too big", sub("base_mm = 32, M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2, weapons = [\"sidearm\"]",
                         "base = [2000, 30], M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2, weapons = [\"sidearm\"]"),
     "armies[0].units[0].models[1].base", ["5 to 1000 mm"]),
    ("angle inf", sub("count = 4, ", "count = 4, angle = inf, "), f"{M0}.angle", ["finite"]),
    ("angle big", sub("count = 4, ", "count = 4, angle = 7200, "), f"{M0}.angle", ["from -360 to 360"]),
    ("rotation inf", sub('[weapons."rifle"]', '[[terrain]]\npiece = "ruins"\nat = [40, 30]\nrotation = inf\n\n[weapons."rifle"]'),
     "terrain[0].rotation", ["finite"]),
    ("rotation big", sub('[weapons."rifle"]', '[[terrain]]\npiece = "ruins"\nat = [40, 30]\nrotation = 1e5\n\n[weapons."rifle"]'),
     "terrain[0].rotation", ["from -360 to 360"]),
    ("board too big", sub("board = [60, 44]", "board = [60, 4400]"), "battle.board", ["1 to 500 inches"]),
    ("board zero", sub("board = [60, 44]", "board = [0, 44]"), "battle.board", ["1 to 500 inches"]),
    ("moved negative", sub(UNIT0, UNIT0 + "moved = -3\n"), "armies[0].units[0].moved", ["from 0 to 1000"]),
    ("many vertices", sub('[weapons."rifle"]', '[[terrain]]\narea = [' + ", ".join(f"[{30 + 5 * __import__('math').cos(i / 500 * 6.283):.4f}, {30 + 5 * __import__('math').sin(i / 500 * 6.283):.4f}]" for i in range(500)) + ']\n\n[weapons."rifle"]'),
     "terrain[0].area", ["3 to 64 vertices", "<500 vertices>"]),
    ("many terrain vertices", sub('[weapons."rifle"]', ('[[terrain]]\narea = [' + ", ".join(f"[{30 + 5 * __import__('math').cos(i / 64 * 6.283):.4f}, {30 + 5 * __import__('math').sin(i / 64 * 6.283):.4f}]" for i in range(64)) + ']\n\n') * 33 + '[weapons."rifle"]'),
     "terrain", ["at most 2048 terrain vertices", "<2112 vertices>"]),
    ("colour of booleans", sub(ARMY0, ARMY0 + "colour = [true, false, true]\n"), "armies[0].colour", ["RGB"]),
    ("colour out of range", sub(ARMY0, ARMY0 + "colour = [0, 256, 0]\n"), "armies[0].colour", ["0..255"]),
    ("allocation_order of junk", sub(UNIT0, UNIT0 + 'allocation_order = [5, {a=1}, "nobody"]\n'),
     "armies[0].units[0].allocation_order[0]", ["a model id", "found 5"]),
    ("end_turn false", lambda s: s + "\n[[script]]\nend_turn = false\n", "script[1].end_turn", ["end_turn = true", "false"]),
    ("shoot a friendly unit", lambda s: sub(*FRIENDS)(s).replace(SCRIPT, 'targets = { "rifle" = "scouts" }'),
     "script[0].targets.rifle", ["an enemy unit id (raiders)", "'scouts'"]),
    ("attacks huge", lambda s: s.replace(SCRIPT, 'targets = { "rifle" = { raiders = 1000000000 } }'),
     "script[0].targets.rifle.raiders", ["1 to 1000"]),
    ("A huge", weapon("A", "1000000000000000000"), f"{R}.A", ["A of at most 100"]),
    ("D huge", weapon("D", "1000000000000000000"), f"{R}.D", ["D of at most 100"]),
    ("A many dice", weapon("A", '"1000D6"'), f"{R}.A", ["A of 1 to 20 dice"]),
    ("D dice plus huge", weapon("D", '"D6+100000"'), f"{R}.D", ["D of at most 100 plus dice"]),
    ("S huge", weapon("S", "1000000"), f"{R}.S", ["S from 1 to 100"]),
    ("AP huge", weapon("AP", "-1000000"), f"{R}.AP", ["AP from -10 to 0"]),
    ("range huge", weapon("range", "100000"), f"{R}.range", ["1 to 1000"]),
    ("modifier huge", sub(UNIT0, UNIT0 + 'modifiers = [{ roll = "hit", value = 1000, source = "x" }]\n'),
     "armies[0].units[0].modifiers[0].value", ["from -6 to 6"]),
    ("long id", sub('id = "raiders"', 'id = "' + "r" * 101 + '"'), "armies[1].units[0].id", ["1 to 100 characters"]),
    ("long script", lambda s: s + "\n[[script]]\nend_turn = true\n" * 1001, "script", ["at most 1000 steps"]),
    ("weapon name a list", sub('weapons = ["rifle"]', 'weapons = [[]]'), f"{M0}.weapons[0]",
     ["a weapon defined under [weapons]", "a list of 0"]),
    ("weapon name a table", sub('weapons = ["rifle"]', 'weapons = [{ name = "rifle" }]'), f"{M0}.weapons[0]",
     ["a weapon defined under [weapons]", "a table"]),
]


def load_text(tmp_path, text: str):
    p = tmp_path / "bad.toml"
    p.write_text(text)
    return load_scenario(p), p


def test_the_base_scenario_loads(tmp_path):
    load_text(tmp_path, GOOD)


@pytest.mark.parametrize("mutate, place, fragments", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_value_gets_one_clear_line(tmp_path, mutate, place, fragments):
    text = mutate(GOOD)
    assert text != GOOD
    with pytest.raises(ScenarioError) as ei:
        load_text(tmp_path, text)
    e = ei.value
    msg = str(e)
    assert e.path == place, msg
    assert "\n" not in msg and "\x1b" not in msg and "\x07" not in msg
    assert msg.startswith(f"{tmp_path / 'bad.toml'}: ")
    for f in fragments:
        assert f in msg, (f, msg)


def test_error_line_escapes_control_characters():
    e = ScenarioError("a\x1b[2Jb.toml", "x\x07", "y\n", "z\x9b")
    assert str(e) == "a\\x1b[2Jb.toml: x\\x07: expected y\\n, found z\\x9b"


@pytest.mark.parametrize("kind", ["fifo", "dir", "devzero", "big"])
def test_only_a_regular_file_of_bounded_size_is_read(tmp_path, kind):
    p = tmp_path / "s.toml"
    if kind == "fifo":
        os.mkfifo(p)  # nobody writes: opening it for reading must not block
        expect = "a FIFO"
    elif kind == "dir":
        p.mkdir()
        expect = "a directory"
    elif kind == "devzero":
        p = Path("/dev/zero")
        expect = "a device"
    else:
        with open(p, "wb") as f:
            f.truncate(5 * 2**20)  # sparse: costs no disk
        expect = "bytes"
    with pytest.raises(ScenarioError) as ei:
        load_scenario(p)
    assert expect in str(ei.value)


def _sim_check(path: Path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "sim", "check", str(path)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)


@pytest.mark.parametrize("text", [
    sub("seed = 5", "seed = " + "[" * 5000 + "]" * 5000)(GOOD),
    sub('name = "Raider Mob"', 'name = "\\u001b]0;owned\\u0007Raider Mob"')(GOOD),
    sub("board = [60, 44]", "board = [nan, inf]")(GOOD),
], ids=["deep nesting", "terminal injection", "nan board"])
def test_sim_check_on_a_hostile_file_exits_2_with_one_line(tmp_path, text, request):
    p = tmp_path / "hostile.toml"
    p.write_text(text)
    r = _sim_check(p)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sim: "), r.stderr
    assert "\x1b" not in r.stderr and "\x07" not in r.stderr
    assert r.stdout == ""
    place = {"deep nesting": "hostile.toml: expected lists and tables nested",
             "terminal injection": "armies[1].units[0].name", "nan board": "battle.board[0]"}
    assert place[request.node.callspec.id] in r.stderr, r.stderr


# --- abilities and dice expressions: bounded values, bounded work ---------------------------------

ABILITY_CASES = [
    ("[SUSTAINED HITS 1000000000000]", "at most 100"),
    ("[RAPID FIRE 1000000000]", "at most 100"),
    ("[BLAST 1000000000]", "at most 100"),
    ("[SUSTAINED HITS 1000D6]", "at most 100"),
    ("[ANTI-INFANTRY " + "1" * 60_000 + "X]", "at most 200"),
    ("[ANTI-INFANTRY " + "9" * 5000 + "+]", "at most 200"),
    ("[ANTI-" + "/".join(["INFANTRY"] * 9) + " 4+]", "at most 8 keywords"),
    ("[ANTI-" + " ".join(["W"] * 7) + " 4+]", "at most 6 words"),
    ("[ANTI-" + " ".join(["W"] * 3000) + " 4+]", "at most 200"),
    ("[SUSTAINED HTS " + "1 " * 30_000 + "]", "at most 200"),
    ("[ANTI-INFANTRY " + "1" * 500 + "X]", "is 515 characters long (an ability has at most 200)"),
    ("[FOO " + "1 " * 500 + "]", "(an ability has at most 200)"),
]


@pytest.mark.parametrize("text, fragment", ABILITY_CASES, ids=[c[0][:30] for c in ABILITY_CASES])
def test_hostile_weapon_abilities_are_refused_at_load(tmp_path, text, fragment):
    s = weapon("abilities", f'"{text}"')(GOOD)
    with pytest.raises(ScenarioError) as ei:
        load_text(tmp_path, s)
    assert ei.value.path == "weapons.rifle.abilities"
    assert fragment in str(ei.value), str(ei.value)[:300]


UNIT_ABILITY_CASES = [
    ('Lone Operative ' + "9" * 5000, "at most 200"),
    ('Lone Operative 1000', "1\" to 100\""),
    ('Damaged ' + "9" * 150, "needs X wounds"),
    ('Damaged: 1-' + "9" * 100 + " wounds remaining", "needs X wounds"),
    ('Deadly Demise 1000', "at most 100"),
]


@pytest.mark.parametrize("text, fragment", UNIT_ABILITY_CASES, ids=[c[0][:20] for c in UNIT_ABILITY_CASES])
def test_hostile_unit_abilities_are_refused_at_load(tmp_path, text, fragment):
    s = sub(UNIT0, UNIT0 + f'abilities = "{text}"\n')(GOOD)
    with pytest.raises(ScenarioError) as ei:
        load_text(tmp_path, s)
    assert ei.value.path == "armies[0].units[0].abilities"
    assert fragment in str(ei.value), str(ei.value)[:300]


@pytest.mark.parametrize("text", ["1" * 5000, "D" + "6" * 5000, " " * 5000 + "D6", "1" * 60_000 + "X",
                                  "D6+" + "9" * 30])
def test_long_dice_expressions_are_refused(tmp_path, text):
    from sim.rules.dice import parse_dice_expr
    with pytest.raises(ValueError):
        parse_dice_expr(text)
    with pytest.raises(ScenarioError) as ei:
        load_text(tmp_path, weapon("D", f'"{text}"')(GOOD))
    assert ei.value.path == "weapons.rifle.D"


class _Counting:
    """A compiled pattern that records the length of every string it is given."""

    def __init__(self, pattern, seen):
        self.pattern, self.seen = pattern, seen

    def match(self, text, *a):
        self.seen.append(len(text))
        return self.pattern.match(text, *a)

    def sub(self, repl, text, *a):
        self.seen.append(len(text))
        return self.pattern.sub(repl, text, *a)


def test_ability_patterns_only_ever_see_short_strings(monkeypatch):
    """Linear-time parsing, bounded by counting: whatever the input, no pattern in the ability
    or dice parsers is handed more than MAX_TOKEN characters (so even a backtracking pattern has
    bounded work), and every adversarial string is refused with an AbilityError."""
    import random

    from sim.rules import dice as DI
    from sim.rules.abilities import AbilityError, parse_unit_abilities, parse_weapon_abilities
    from sim.rules.abilities import parse as P
    seen: list[int] = []
    for attr in ("_KEYWORD_RE", "_NON_RE", "_FNP_RE", "_INCHES_RE", "_WOUNDS_RE"):
        monkeypatch.setattr(P, attr, _Counting(getattr(P, attr), seen))
    monkeypatch.setattr(P, "_KEYWORD_ROLL_RES", {k: _Counting(v, seen) for k, v in P._KEYWORD_ROLL_RES.items()})
    monkeypatch.setattr(P, "_NAME_PATTERNS", [(n, _Counting(p, seen)) for n, p in P._NAME_PATTERNS])
    monkeypatch.setattr(DI, "_DICE_RE", _Counting(DI._DICE_RE, seen))
    rnd = random.Random(13)
    pieces = ["1", "9", "D", "6", "+", "-", " ", "ANTI-", "INFANTRY", "/", "NON-", ":", "X", "\"", "WOUNDS", "4+"]
    heads = ["ANTI-INFANTRY ", "SUSTAINED HITS ", "RAPID FIRE ", "BLAST ", "MELTA ", "ANTI-non-", ""]
    uheads = ["Lone Operative ", "Damaged: ", "Feel No Pain ", "Deadly Demise ", "Damaged "]
    for i in range(200):
        n = rnd.choice([300, 5_000, 60_000])
        body = "".join(rnd.choice(pieces) for _ in range(n // 4))[:n]
        with pytest.raises(AbilityError):
            parse_weapon_abilities(f"[{rnd.choice(heads)}{body}X]", "w")
        with pytest.raises(AbilityError):
            parse_unit_abilities(f"{rnd.choice(uheads)}{body}X", "here")
    assert seen and max(seen) <= P.MAX_TOKEN
