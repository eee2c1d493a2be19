"""`sim rules` (issue 26 item 3): every rule the engine models, with its key (what a scenario's
``rules`` takes), name, source, faction and summary; --faction and --json. Built on whatever
records the table holds (the seed records named)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

from sim.cli import main
from sim.rules.effects import table


def sim(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def test_sim_rules_lists_every_modelled_rule():
    rc, out, err = sim("rules")
    assert rc == 0 and err == ""
    n = len(table.records())
    assert out.splitlines()[-1] == f"{n} modelled rules"
    assert "oath-of-moment: Oath of Moment (army rule, Adeptus Astartes)" in out.splitlines()
    assert "waaagh: Waaagh! (army rule, Orks)" in out.splitlines()
    rc, out, _ = sim("rules", "--json")
    rows = json.loads(out)
    assert rc == 0 and len(rows) == n
    assert {"key": "reanimation-protocols", "name": "Reanimation Protocols", "source": "army rule",
            "faction": "Necrons"}.items() <= rows[[r["key"] for r in rows].index("reanimation-protocols")].items()
    assert all(isinstance(r["effects"], list) and r["summary"] for r in rows)
    assert len(rows[[r["key"] for r in rows].index("waaagh")]["effects"]) == len(table.by_key("waaagh").grants)
    rc, out, _ = sim("rules", "--faction", "orks", "--json")
    assert rc == 0 and {r["faction"] for r in json.loads(out)} <= {"Orks", ""}
    assert "waaagh" in [r["key"] for r in json.loads(out)] and "oath-of-moment" not in out
    rc, out, err = sim("rules", "--faction", "Ashen Concord")
    assert rc == 2 and out == "" and "rules --faction: expected a faction of the modelled rules" in err
