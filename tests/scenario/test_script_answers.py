"""A script step's decisions answer every decision of their kind in that step, pool after pool
(README, Decisions). Pools resolved earlier in the step can change what an answer names: a
group's key is its first living model, and a CHARACTER named for [PRECISION] may be dead. The
script's answer is fitted to each request: an allocation order is re-keyed onto the groups as
they are now (by membership), and an answer that no longer applies falls back to the default
with a note in the decision event (so the report and the replay show it), never an abort."""

from __future__ import annotations

import tomllib

import esper
import pytest

from sim.battle import Battle
from sim.cli import main
from sim.components import Wounds
from sim.replay.log import Recorder, replay, write_atomic
from sim.replay.report import report
from sim.rules.dice import ForcedDice
from sim.players.runner import play
from sim.scenario.load import load_scenario, parse_scenario
from sim.scenario.script_run import to_command

HEAD = """
[battle]
name = "stale answers"
seed = 3

[weapons."cannon"]
range = 36
A = 1
BS = 2
S = 8
AP = -3
D = 3
abilities = "{cannon}"

[weapons."rifle"]
range = 36
A = 1
BS = 2
S = 4
AP = 0
D = 1
abilities = "{rifle}"

[weapons."claws"]
range = "melee"
A = 1
WS = 4
S = 3
AP = 0
D = 1

[[armies]]
name = "Red"

[[armies.units]]
id = "sq"
keywords = ["INFANTRY"]
models = [
  {{ name = "Gunner", base_mm = 32, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["cannon"], at = [[10, 10]] }},
  {{ name = "Rifleman", base_mm = 32, M = 6, T = 4, Sv = 3, W = 1, Ld = 6, OC = 1, weapons = ["rifle"], at = [[11.5, 10]] }},
]

[[armies]]
name = "Blue"
"""

# troopers (one group, key mob/1) listed before two veterans (one group, key mob/4)
MOB = """
[[armies.units]]
id = "mob"
keywords = ["INFANTRY"]
models = [
  { name = "Trooper", count = 3, base_mm = 32, M = 6, T = 4, Sv = 4, W = 2, Ld = 6, OC = 1, weapons = ["claws"], at = [[10, 20], [11.5, 20], [13, 20]] },
  { name = "Veteran", count = 2, base_mm = 32, M = 6, T = 4, Sv = 4, W = 3, Ld = 6, OC = 1, weapons = ["claws"], at = [[14.5, 20], [16, 20]] },
]
"""

# two CHARACTERs (each its own group) and their guards
SQUAD = """
[[armies.units]]
id = "squad"
keywords = ["INFANTRY"]
models = [
  { name = "Captain", id = "captain", role = "leader", base_mm = 32, M = 6, T = 4, Sv = 4, W = 3, Ld = 6, OC = 1, keywords = ["CHARACTER"], weapons = ["claws"], at = [[10, 20]] },
  { name = "Lieutenant", id = "lt", role = "leader", base_mm = 32, M = 6, T = 4, Sv = 4, W = 4, Ld = 6, OC = 1, keywords = ["CHARACTER"], weapons = ["claws"], at = [[11.5, 20]] },
  { name = "Guard", count = 2, base_mm = 32, M = 6, T = 4, Sv = 4, W = 1, Ld = 6, OC = 1, weapons = ["claws"], at = [[13, 20], [14.5, 20]] },
]
"""


def text(target: str, decisions: str, cannon: str = "", rifle: str = "") -> str:
    units = MOB if target == "mob" else SQUAD
    return (HEAD.format(cannon=cannon, rifle=rifle) + units
            + f'\n[[script]]\nshoot = "sq"\ntargets = {{ "cannon" = "{target}", "rifle" = "{target}" }}\n'
            + f"decisions = {decisions}\n")


def spec(body: str):
    return parse_scenario(tomllib.loads(body), "stale.toml")


def decisions_of(b: Battle, kind: str) -> list[dict]:
    return [e for e in b.events if e["type"] == "decision" and e["kind"] == kind]


def left(b: Battle, mid: str) -> int:
    b._enter()
    return esper.component_for_entity(b.models[mid], Wounds).remaining


# pool 0 (the cannon): hit 4, wound 4, save 1 -> 3 damage; pool 1 (the rifle): the same, 1 damage
DICE = [4, 4, 1, 4, 4, 1]


def test_05_03_scripted_order_is_rekeyed_when_its_groups_first_model_dies():
    """The script puts the veterans (key mob/4) first. Pool 0 destroys mob/4, so in pool 1 the
    veterans' group is keyed mob/5: the script's order is re-keyed by membership, not refused,
    and the surviving veteran takes pool 1's damage (the default would hit mob/1)."""
    sc = spec(text("mob", '{ allocation_order = ["mob/4", "mob/1"] }'))
    with Battle(sc, dice=ForcedDice(DICE)) as b:
        play(b, sc)
        orders = decisions_of(b, "allocation_order")
        assert [d["answer"] for d in orders] == [["mob/4", "mob/1"], ["mob/5", "mob/1"]]
        assert "note" not in orders[0]
        assert orders[1]["scripted"] == ["mob/4", "mob/1"] and "re-keyed" in orders[1]["note"]
        assert (left(b, "mob/4"), left(b, "mob/5"), left(b, "mob/1")) == (0, 2, 2)
        assert "re-keyed" in report(b.events)


def test_05_03_scripted_order_illegal_after_a_wound_uses_the_rules_order_with_a_note():
    """Pool 0 (the rifle, 1 damage) is answered by hand with the troopers first, so a trooper
    is wounded. For pool 1 (the cannon) the script's order puts the veterans first: 05.03 now
    forces the wounded troopers' group first, so the script's order is illegal; the rules'
    order is used (the script's where the rules leave a choice) with a note saying why."""
    body = text("mob", '{ allocation_order = ["mob/4", "mob/1"] }')
    body = body.replace('weapons = ["cannon"], at = [[10, 10]]', 'weapons = ["rifle"], at = [[10, 10]]')
    body = body.replace('weapons = ["rifle"], at = [[11.5, 10]]', 'weapons = ["cannon"], at = [[11.5, 10]]')
    sc = spec(body)
    with Battle(sc, dice=ForcedDice(DICE)) as b:
        # pool 0 (rifle, 1 damage): answered by hand with the troopers first, so mob/1 is wounded
        from sim.decisions import Scripted
        answers = iter([["mob/1", "mob/4"]])

        def answer(req):
            if req.kind == "allocation_order":
                got = next(answers, None)
                return got if got is not None else Scripted(["mob/4", "mob/1"])
            return req.default
        b.submit(to_command(b, sc.script[0]))
        b.resolve(answer)
        orders = decisions_of(b, "allocation_order")
        damage = [e for e in b.events if e["type"] == "damage"]
        assert orders[0]["answer"] == ["mob/1", "mob/4"] and "note" not in orders[0]
        assert [(s["model"], s["lost"]) for s in damage[0]["steps"]] == [("mob/1", 1)]
        assert orders[1]["answer"] == ["mob/1", "mob/4"]
        assert orders[1]["scripted"] == ["mob/4", "mob/1"]
        assert "must come first" in orders[1]["note"] and "05.03" in orders[1]["note"]
        # the cannon's 3 damage go to the wounded trooper first (05.04)
        assert left(b, "mob/1") == 0 and left(b, "mob/4") == 3


def test_24_28_scripted_precision_naming_a_dead_character_falls_back_to_the_default():
    """Both weapons are [PRECISION]; the script names the captain. Pool 0 kills him; pool 1's
    precision request offers the lieutenant: the stale answer falls back to the default (the
    visible CHARACTER with the fewest wounds left: the lieutenant) with a note, instead of
    stopping the run."""
    sc = spec(text("squad", '{ precision = "captain" }', cannon="[PRECISION]", rifle="[PRECISION]"))
    with Battle(sc, dice=ForcedDice(DICE)) as b:
        play(b, sc)
        prec = decisions_of(b, "precision")
        assert [d["answer"] for d in prec] == ["captain", "lt"]
        assert prec[1]["scripted"] == "captain"
        assert "captain was destroyed" in prec[1]["note"] and "default" in prec[1]["note"]
        assert (left(b, "captain"), left(b, "lt")) == (0, 3)
        assert "captain was destroyed" in report(b.events)


def test_stale_answers_replay_identically(tmp_path):
    """The fallback is part of the log (the decision event keeps the script's answer and the
    note); replaying re-fits the script's answer and reproduces every line."""
    path = tmp_path / "stale.toml"
    path.write_text(text("squad", '{ precision = "captain", allocation_order = ["squad/3", "captain", "lt"] }',
                         cannon="[PRECISION]", rifle="[PRECISION]"))
    sc = load_scenario(path)
    for seed in range(1, 40):
        with Battle(sc, seed=seed) as b:
            rec = Recorder(b, str(path))
            play(b, sc, rec)
            if any(e.get("note") for e in b.events if e["type"] == "decision"):
                break
    else:
        pytest.fail("no seed made a scripted answer stale")
    log = tmp_path / "stale.jsonl"
    write_atomic(log, rec.text())
    n, divergence = replay(log)
    assert n == 1 and divergence is None


def test_cli_run_does_not_stop_on_a_stale_answer(tmp_path, capsys):
    path = tmp_path / "stale.toml"
    path.write_text(text("mob", '{ allocation_order = ["mob/4", "mob/1"] }'))
    for seed in range(1, 60):
        assert main(["run", str(path), "--seed", str(seed)]) == 0, capsys.readouterr().err
    capsys.readouterr()


@pytest.mark.parametrize("decisions,fragments", [
    ('{ precision = "mob/1" }', ["script[0].decisions.precision", "CHARACTER", "'mob/1'"]),
    ('{ precision = "sq/1" }', ["script[0].decisions.precision", "'sq/1'"]),
    ('{ allocation_order = ["mob/1", "nobody"] }', ["script[0].decisions.allocation_order[1]", "'nobody'"]),
    ('{ allocation_order = ["mob/1", "sq/1"] }', ["script[0].decisions.allocation_order[1]", "'sq/1'"]),
    ('{ allocation_order = "mob/1" }', ["script[0].decisions.allocation_order", "a list"]),
    ('{ allocation_order = ["mob/1"] }', ["script[0].decisions.allocation_order", "mob/4"]),
    ('{ lethal_hits = "yes" }', ["script[0].decisions.lethal_hits", "take or decline", "'yes'"]),
    ('{ psychic = "cover" }', ["script[0].decisions.psychic", "a list"]),
    ('{ duplicate = 3 }', ["script[0].decisions.duplicate", "a string"]),
])
def test_scripted_answers_are_checked_when_the_scenario_loads(tmp_path, capsys, decisions, fragments):
    """What a script's answer names is checked once, when the scenario is read: the usual one
    line (file, place, expected, found), exit 2, for ``sim check`` as for ``sim run``."""
    path = tmp_path / "bad.toml"
    path.write_text(text("mob", decisions))
    for cmd in ("check", "run"):
        assert main([cmd, str(path)]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and err.startswith(f"sim: {path}"), err
        for f in fragments:
            assert f in err, (f, err)
