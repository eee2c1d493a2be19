"""`sim odds --attacker FILE NAME --defender FILE NAME [--range R] [--cover] [--stationary]
[--charged] [--fight] [--weapons] [--json]`: the calculator (sim.analysis.calculator) on the
command line. ``--attacker`` and ``--defender`` may each be given more than once: every
attacker against every defender, side by side. Bad input: one line, exit status 2."""

from __future__ import annotations

import json


def run(args, err) -> int:
    """``err(message)`` prints the one-line error and returns the exit status (sim.cli.shell._err)."""
    from sim.analysis import calculator as C
    from sim.errors import ScenarioError
    if args.scenario is not None or args.step is not None or args.unit is not None or args.target is not None:
        return err("sim odds: expected either SCENARIO with --step or --unit/--target, or --attacker "
                   "FILE NAME --defender FILE NAME, found both")
    if not args.attacker or not args.defender:
        return err(f"sim odds: expected --attacker FILE NAME and --defender FILE NAME, found only "
                   f"{'--attacker' if args.attacker else '--defender'}")
    if args.plot:
        return err("--plot: expected a scenario's attack (SCENARIO --unit/--step), found --attacker/--defender")
    cond = C.Conditions(range=12.0 if args.range is None else args.range, cover=args.cover,
                        stationary=args.stationary, charged=args.charged, fight=bool(args.fight))
    if cond.melee and (args.cover or args.stationary or args.range is not None):
        what = "--cover" if args.cover else "--stationary" if args.stationary else "--range"
        return err(f"{what}: expected a shooting, found it with {'--charged' if args.charged else '--fight'}")
    try:
        atts = [C.load_unit(f, n, "--attacker") for f, n in args.attacker]
        dfns = [C.load_unit(f, n, "--defender") for f, n in args.defender]
    except (ScenarioError, OSError) as e:
        return err(str(e))
    cols = []
    for a in atts:
        for d in dfns:
            cols += C.columns(a, d, cond, per_weapon=args.weapons)
    if args.json:
        print(json.dumps(C.as_dict(cols, cond), indent=1, sort_keys=True))
    else:
        from sim.errors import escape_controls
        print("\n".join(escape_controls(line) for line in C.text(cols, cond).split("\n")))
    return 0 if any(c.answered for c in cols) else 1

