"""Issue 25: the cases of the second hostile corpus (hostile_cli.py) that are command lines more
than files: `sim odds` and `sim matrix` of attacks too big to work out exactly in memory or time,
`--range` out of its domain, every numeric option of every subcommand out of range or not a
number, seeds outside the log's range, and unknown arguments carrying terminal controls,
bidirectional or zero-width characters. The scenarios they need are written here, within the
scenario limits (README, Limits), so only the attack is too big."""

from __future__ import annotations

from pathlib import Path

from hostile_cli import CAT, DATA, ROOT, Case, Spec, first_sheet


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


# --- odds and matrix: attacks too big to work out exactly ---------------------------------------------

def _grid(n: int, x0: float, y0: float, per_row: int = 20, step: float = 1.3) -> str:
    return ", ".join(f"[{x0 + step * (i % per_row):.1f}, {y0 + step * (i // per_row):.1f}]" for i in range(n))


def _weapon(name: str, a: str, abilities: str, melee: bool, k: int = 0) -> str:
    """The ``k``-th weapon: S and AP differ for each of the first 100, so each is a pool of its own."""
    lines = [f'[weapons."{name}"]', "range = " + ('"melee"' if melee else "48"),
             "A = " + (a if a.isdigit() else f'"{a}"'), ("WS" if melee else "BS") + " = 3", f"S = {3 + k % 10}",
             f"AP = {-(k // 10 % 10)}", "D = 1"]
    if abilities:
        lines.append(f'abilities = "{abilities}"')
    return "\n".join(lines) + "\n\n"


def scenario(guns: list[tuple[str, str, str]], defenders: list[tuple[int, int, int]], *, melee: bool = False,
             name: str = "Hostile odds", script: bool = False) -> str:
    """A scenario of one attacking unit ("guns": one model per weapon of (name, A, abilities))
    and one target unit ("horde": entries of (count, W, Sv)), the attackers 24" away (or in base
    contact for ``melee``). Numbers within the scenario limits (README, Limits)."""
    weapons = "".join(_weapon(w, a, ab, melee, k) for k, (w, a, ab) in enumerate(dict.fromkeys(guns)))
    gy = 5.0 if not melee else 20.0
    gun_models = ",\n".join(
        f'  {{ name = "Gunner {i}", base_mm = 25, M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 1, '
        f'weapons = ["{w}"], at = [[{5 + 1.3 * (i % 20):.1f}, {gy + 1.3 * (i // 20):.1f}]] }}'
        for i, (w, _, _) in enumerate(guns))
    y = 29.0 if not melee else gy + 1.0 + 1.3 * ((len(guns) - 1) // 20)
    models, placed = [], 0
    for count, w, sv in defenders:
        models.append(f'  {{ name = "Horde {w}W {sv}+", count = {count}, base_mm = 25, M = 6, T = 4, Sv = {sv}, '
                      f'W = {w}, Ld = 7, OC = 1, '
                      f'at = [{_grid(count, 5 + 1.3 * (placed % 20), y + 1.3 * (placed // 20))}] }}')
        placed += count
    return (f'[battle]\nname = "{name}"\nseed = 3\nboard = [60, 44]\n\n{weapons}'
            f'[[armies]]\nname = "Red"\n\n[[armies.units]]\nid = "guns"\nname = "Guns"\nkeywords = ["INFANTRY"]\n'
            f'models = [\n{gun_models},\n]\n\n[[armies]]\nname = "Blue"\n\n[[armies.units]]\nid = "horde"\n'
            f'name = "Horde"\nkeywords = ["INFANTRY"]\nmodels = [\n' + ",\n".join(models) + ",\n]\n"
            + (_script(guns) if script else ""))


def _script(guns) -> str:
    targets = ", ".join(f'"{w}" = "horde"' for w in dict.fromkeys(w for w, _, _ in guns))
    return f'\n[[script]]\nshoot = "guns"\ntargets = {{ {targets} }}\n'



STORM = ("storm", "20D6+100", "[BLAST]")
BIG = {  # (what, guns, defenders): attacks whose exact chain is too big for memory or time
    # (the W1 horde's is exact without the counters since the shared chains of sim.odds.fast:
    # NOTE says what its output says instead of the Monte Carlo)
    "10 weapons of A 20D6+100 [BLAST] at 200 W1 models": ([STORM] * 10, [(200, 1, 5)]),
    "10 weapons of A 20D6+100 [BLAST] at a mixed-save W3 horde of 200": (
        [STORM] * 10, [(50, 3, 3), (50, 3, 4), (50, 3, 5), (50, 3, 6)]),
    "20 pools at a mixed-save W3 target": ([(f"gun {i}", "10D6+10", "") for i in range(20)],
                                           [(10, 3, 3), (10, 3, 5)]),
    "100 pools at 200 W2 models": ([(f"gun {i}", "D6", "") for i in range(100)], [(200, 2, 4)]),
    "10 weapons of A 20D6+100 at one model of W 10^9": ([STORM] * 10, [(1, 10**9, 3)]),
}

NOTE = {"10 weapons of A 20D6+100 [BLAST] at 200 W1 models": "not counted: intractable exactly with them"}


def odds_specs() -> list[Spec]:
    """`sim odds` of attacks too big to work out exactly within memory and time: the Monte
    Carlo with its note, or the exact odds, within the case's bounds (exit 0)."""
    out = []
    for k, (what, (guns, defenders)) in enumerate(BIG.items()):
        mc = NOTE.get(what, "Monte Carlo" if "pools" not in what else "")

        def build(f, guns=guns, defenders=defenders, mc=mc, json_=k % 2 == 1):
            path = _write(f / "odds.toml", scenario(guns, defenders).encode())
            argv = ("odds", str(path), "--unit", "guns", "--target", "horde") + (("--json",) if json_ else ())
            return Case("", "", argv, (0,), (str(path),), mc)
        out.append(Spec("odds", what, build))
    for what in list(BIG)[:2]:
        guns, defenders = BIG[what]

        def step(f, guns=guns, defenders=defenders, note=NOTE.get(what, "Monte Carlo")):
            path = _write(f / "odds.toml", scenario(guns, defenders, script=True).encode())
            return Case("", "", ("odds", str(path), "--step", "1"), (0,), (str(path),), note)
        out.append(Spec("odds", f"{what}, a script step", step))
    return out


def matrix_specs() -> list[Spec]:
    out = []
    shipped = str(ROOT / "scenarios/worked_example_pools.toml")
    for value in ("inf", "-inf", "nan", "1e308", "1e400", "-1", "-1e-300", "1e9", "0x10", "\u202e12"):
        out.append(Spec("matrix", f"--range {value!r}", lambda f, v=value: Case(
            "", "", ("matrix", shipped, shipped, "--range", v), (2,), ("--range",), mode="option")))
    for what in ("10 weapons of A 20D6+100 [BLAST] at 200 W1 models", "20 pools at a mixed-save W3 target"):
        guns, defenders = BIG[what]

        def build(f, guns=guns, defenders=defenders):
            path = _write(f / "matrix.toml", scenario(guns, defenders).encode())
            return Case("", "", ("matrix", str(path), str(path)), (0,), (str(path),), "expected damage")
        out.append(Spec("matrix", f"a matrix of {what}", build))
    return out


# --- options: every numeric option out of range, seeds, unknown arguments -------------------------------

SEED_OUT = [str(2**63), str(-(2**63)), str(2**70), "1e3", "nan", "0x10"]


def option_specs() -> list[Spec]:
    """Each numeric option of each subcommand out of its range or not a number, seeds outside the
    log's range (-(2^63-1) to 2^63-1), and unknown arguments carrying ESC, OSC, BEL and
    bidirectional or zero-width characters: one escaped line naming the option (status 2)."""
    out = []
    default = str(ROOT / "scenarios/default.toml")
    pools = str(ROOT / "scenarios/worked_example_pools.toml")
    roster = str(DATA / "ashen.json")
    catalogue = str(DATA / "cat_json" / f"{CAT}.json")

    def add(what, argv, option, writes=False):
        def build(f, argv=argv):
            full = tuple(a.replace("{out}", str(f / "out.toml")) for a in argv)
            return Case("", "", full, (2,), (option,), mode="option", out=str(f / "out.toml") if writes else None)
        out.append(Spec("options", what, build))

    for v in SEED_OUT[:3] + SEED_OUT[3:]:
        add(f"run --seed {v}", ("run", default, "--quiet", "--seed", v), "--seed")
    for v in (str(2**63), str(-(2**63))):
        add(f"play --headless --seed {v}", ("play", default, "--headless", "--seed", v), "--seed")
        add(f"odds --seed {v}", ("odds", pools, "--step", "1", "--seed", v), "--seed")
        add(f"import --seed {v}", ("import", "roster", roster, "--out", "{out}", "--seed", v), "--seed", True)
    for v in (str(2**63 - 1), str(2**63), str(2**70), str(-(2**63)), "2.5"):
        add(f"stats --seed {v}", ("stats", default, "--runs", "2", "--jobs", "1", "--quiet", "--seed", v), "--seed")
    for v in ("0", "-1", str(10**12), "1e3", "many"):
        add(f"stats --runs {v}", ("stats", default, "--runs", v, "--jobs", "1", "--quiet"), "--runs")
    for v in ("0", "-3", "nan"):
        add(f"stats --jobs {v}", ("stats", default, "--runs", "2", "--jobs", v, "--quiet"), "--jobs")
    for v in ("-1", "1000001", str(10**30), "inf"):
        add(f"odds --runs {v}", ("odds", pools, "--step", "1", "--runs", v), "--runs")
    for v in ("0", "-1", str(2**63), str(10**30), "1.5"):
        add(f"odds --step {v}", ("odds", pools, "--step", v), "--step")
    for v in ("0", "201", str(2**70), "-5", "nan"):
        add(f"import --models {v}", ("import", "datasheet", catalogue, first_sheet(), "--models", v, "--out", "{out}"),
            "--models", True)
    for what, argv in (("an unknown option with CSI", ("run", default, "--\x1b[31mevil")),
                       ("an unknown option with OSC and BEL", ("--\x1b]0;owned\x07",)),
                       ("an unknown option with U+202E", ("odds", default, "--\u202eevil")),
                       ("an unknown command with CSI", ("fr\x1b[2Jobnicate",)),
                       ("an extra argument with BEL", ("check", default, "extra\x07arg")),
                       ("a bad --runs with ESC", ("stats", default, "--runs", "\x1b[2J5")),
                       ("a bad choice with U+200B", ("import", "roster\u200b", roster)),
                       ("a bad --army with U+2066", ("import", "roster", roster, "--army", "re\u2066d")),
                       ("an unknown option with a newline", ("check", default, "--a\nsim: forged line"))):
        add(what, argv, "")
    return out
