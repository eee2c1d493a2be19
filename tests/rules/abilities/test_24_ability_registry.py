"""24 The ability registry (sim.rules.abilities.registry): one record per ability, the only
place in the engine that names one. Every other module asks the records' hooks and functions."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from sim.plan.common import Declared
from sim.rules import abilities as AB
from sim.rules.abilities import Hook
from sim.rules.abilities.registry import REGISTRY, WEAPON, tag, with_hook
from code_strings import code_strings

SIM = Path(__file__).resolve().parents[3] / "sim"
REGISTRY_HOME = SIM / "rules" / "abilities"


def _names() -> list[str]:
    return sorted({*REGISTRY, *(a for r in REGISTRY.values() for a in r.aliases)}, key=len, reverse=True)


def _name_pattern() -> re.Pattern:
    """Any ability name or alias as a whole upper-case word (BLAST, not BLASTER, nor SUPPORT in
    the identifier PYGAME_HIDE_SUPPORT_PROMPT)."""
    return re.compile(r"(?<![A-Z_])(" + "|".join(re.escape(n) for n in _names()) + r")(?![A-Z_])")




def test_24_no_module_outside_the_registry_names_an_ability():
    """An ability's name appears in the engine's code only in its registry record: the parser,
    help text, planning, the attack sequence, the systems and the sandbox ask the records (by
    hook), so adding an ability is one record. (Docstrings and comments may cite a rule.)"""
    pattern = _name_pattern()
    found = []
    for path in sorted(SIM.rglob("*.py")):
        if REGISTRY_HOME in path.parents:
            continue
        for line, text in code_strings(path):
            m = pattern.search(text)
            if m:
                found.append(f"{path.relative_to(SIM.parent)}:{line}: {m.group(1)!r} in {text!r}")
    assert found == []


def test_24_the_name_check_would_see_a_name_in_code(tmp_path):
    """(The check above can fail: a code string naming an ability is found, a docstring citing
    one is not.)"""
    src = tmp_path / "m.py"
    src.write_text('"""24.05 [BLAST] cited for the reader."""\nx = "[BLAST] weapons never target"\n')
    hits = [line for line, text in code_strings(src) if _name_pattern().search(text)]
    assert hits == [2]


def test_24_every_record_is_complete_and_parses_as_printed():
    for name, r in REGISTRY.items():
        # a core ability has its section 24 entry; the project's own abilities (01.05.02 re-roll
        # 1s) say so and name the core rule they apply
        core = re.fullmatch(r"24\.\d\d", r.section) is not None
        assert r.name == name and r.rule.endswith(".")
        assert core or (r.rule.startswith("(A project ability.)") and re.fullmatch(r"\d\d\.\d\d\.\d\d", r.section))
        assert AB.ABILITY_HELP[name] == (r.section, r.rule)
        text = {"none": name, "count": f"{name} 2", "optional count": name, "dice": f"{name} D3",
                "roll": f"{name} 5+", "inches": name if r.default is not None else f'{name} 6"', "wounds": f"{name} 3",
                "keyword roll": f"{name}-VEHICLE 4+"}[r.value]
        parse = AB.parse_weapon_abilities if r.scope == WEAPON else AB.parse_unit_abilities
        (a,) = parse(text, "w")
        assert a.spec is r and a.name == name
        for alias in r.aliases:
            assert parse(alias if r.value == "none" else text.replace(name, alias), "w")[0].spec is r


def test_24_each_hook_a_rule_names_an_ability_by_has_one_record():
    """Messages name an ability through the record that has the hook (tag, with_hook)."""
    for hook in (Hook.NOT_AT_ENGAGED, Hook.CLOSE_QUARTERS, Hook.SHOOTS_AFTER_ADVANCING, Hook.INDIRECT,
                 Hook.EXTRA_WEAPON, Hook.ONCE_PER_BATTLE, Hook.PRECISION, Hook.IGNORES_MODIFIERS,
                 Hook.HAZARD_ROLL, Hook.DENIES_COVER):
        r = with_hook(hook)
        assert tag(hook) == f"[{r.name}]"
    with pytest.raises(LookupError):
        with_hook(Hook.ADDS_DICE)  # (three records add dice)


def test_24_selection_only_abilities_never_split_a_pool():
    """04.03: abilities the registry marks selection-only take no part in an attack's key."""
    from sim.rules.dice import DiceExpr
    from sim.rules.pools import effective_key

    for r in REGISTRY.values():
        if r.scope != WEAPON or r.value == "keyword roll":
            continue
        (a,) = AB.parse_weapon_abilities(r.name + (" 1" if r.value in ("count", "dice") else ""), "w")
        key = effective_key(3, (), 4, 0, DiceExpr(0, 0, 1), (a,), ())
        assert (key.abilities == ()) == r.selection_only, r.name


def test_declared_for_model_copies_every_field():
    """Declared.for_model: the same declaration for another model, every other field copied."""
    values = {f.name: object() for f in fields(Declared)}
    d = Declared(**values)
    c = d.for_model("other", "other-id")
    for f in fields(Declared):
        want = {"model": "other", "model_id": "other-id"}.get(f.name, values[f.name])
        assert getattr(c, f.name) is want, f.name


def test_declared_for_models_copies_every_field():
    """Declared.for_models: the same declaration for each of other models, in order, every
    other field copied."""
    values = {f.name: object() for f in fields(Declared)}
    d = Declared(**values)
    copies = d.for_models(["a", "b"], ["a-id", "b-id"])
    assert len(copies) == 2
    for c, (m, mid) in zip(copies, [("a", "a-id"), ("b", "b-id")]):
        for f in fields(Declared):
            want = {"model": m, "model_id": mid}.get(f.name, values[f.name])
            assert getattr(c, f.name) is want, f.name
