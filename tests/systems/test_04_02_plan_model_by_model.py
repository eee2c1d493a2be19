"""04.01/04.02 plan_shoot works out what models share once (loadouts, each weapon at each
target, the last model's selection reused by a neighbour making the same one): the plan of a
whole unit must be exactly the plans of its models one at a time, and a refusal must name
the first model, in unit order, whose selection is illegal."""

from __future__ import annotations

from dataclasses import astuple

import esper
import pytest

from scen import kill, model, row, scenario, unit, weapon
from sim.battle import Battle, Refusal
from sim.commands import Selection, Shoot
from sim.components import Wounds
from sim.plan import plan_shoot

WEAPONS = {"rifle": weapon(24, 1, 3, 4, 0, 1), "heavy gun": weapon(36, 2, 4, 5, -1, 2, "[HEAVY]"),
           "pistol": weapon(12, 1, 3, 4, 0, 1, "[PISTOL]")}


def spec():
    """Ten shooters in a line whose distances to the targets ("mid" is within the rifle's range
    of all of them, "near" of the first eight) straddle half range and range;
    models 4 and 5 carry another loadout, model 7 has Damaged (24.39)."""
    shooters = [model(p, ["rifle", "heavy gun"]) for p in row(2, 2, 3, dx=3.0)]
    shooters += [model(p, ["rifle", "pistol"]) for p in row(11, 2, 2, dx=3.0)]
    shooters += [model(p, ["rifle", "heavy gun"]) for p in row(17, 2, 5, dx=3.0)]
    shooters[6]["abilities"] = "Damaged: 1-3 wounds remaining"
    for m in shooters:
        m["W"] = 8
    data = scenario(WEAPONS, [unit("sh", *shooters)],
                    [unit("near", model(row(2, 20, 5), ["rifle"])),
                     unit("mid", model(row(12, 20, 4), ["rifle"])),
                     unit("far", model(row(30, 30, 4), ["rifle"]))])
    return data


def _plan(b, sels):
    b._enter()
    return [astuple(d) for d in plan_shoot(b, Shoot("sh", tuple(sels))).declared]


def _selections(choice: str, target: str) -> list[Selection]:
    """Every model selecting the rifle, or the heavy gun (models 4 and 5 do not carry one), or
    the two in turn (with a neighbour's weapon or target different from its own)."""
    out = []
    for i in range(1, 11):
        w = choice if choice != "mixed" else ("rifle" if i % 2 else "heavy gun")
        if w == "heavy gun" and i in (4, 5):
            continue
        t = target if target != "mixed" else ("mid" if i % 3 else "far")
        out.append(Selection(f"sh/{i}", w, t))
    return out


@pytest.mark.parametrize("choice", ["rifle", "heavy gun", "mixed"])
@pytest.mark.parametrize("target", ["near", "mid", "far", "mixed"])
def test_unit_plan_is_its_models_plans(choice, target):
    with Battle(spec()) as b:
        b._enter()
        esper.component_for_entity(b.models["sh/7"], Wounds).remaining = 2  # Damaged applies
        sels = _selections(choice, target)
        whole, alone = None, []
        try:
            whole = _plan(b, sels)
        except Exception as e:  # noqa: BLE001 - compared with the first model's own refusal
            whole = str(e)
        for s in sels:
            try:
                alone += _plan(b, [s])
            except Exception as e:  # noqa: BLE001
                alone = str(e)
                break
        assert whole == alone
        assert isinstance(whole, list) or "out of range" in whole


def test_the_cases_above_include_plans_and_refusals():
    with Battle(spec()) as b:
        assert len(_plan(b, _selections("mixed", "mid"))) == 9  # (sh/4 carries no heavy gun)
        assert len(_plan(b, _selections("rifle", "mid"))) == 10
        with pytest.raises(Exception, match="out of range"):
            _plan(b, _selections("rifle", "mixed"))


def test_refusal_names_the_first_illegal_model_after_a_run_of_legal_ones():
    with Battle(spec()) as b:
        # the rifle (24") reaches "far" from none of them, "near" from the first few only
        sels = tuple(Selection(f"sh/{i}", "rifle", "near") for i in range(1, 11))
        legal = []
        for i in range(1, 11):
            try:
                _plan(b, [Selection(f"sh/{i}", "rifle", "near")])
                legal.append(i)
            except Exception:  # noqa: BLE001
                break
        assert 1 < len(legal) < 10
        first_bad = len(legal) + 1
        with pytest.raises(Refusal, match=rf"^sh/{first_bad} rifle -> near: out of range$"):
            b.submit(Shoot("sh", sels))


def test_a_model_lost_in_the_middle_breaks_the_run():
    with Battle(spec()) as b:
        kill(b, "sh/2")
        sels = [Selection(f"sh/{i}", "heavy gun", "near") for i in (1, 3)]
        whole = _plan(b, sels)
        assert whole == _plan(b, sels[:1]) + _plan(b, sels[1:])
        with pytest.raises(Refusal, match=r"^model sh/2 is destroyed$"):
            b.submit(Shoot("sh", (sels[0], Selection("sh/2", "heavy gun", "near"), sels[1])))


def test_a_neighbour_with_another_loadout_is_checked_again():
    with Battle(spec()) as b:
        sels = tuple(Selection(f"sh/{i}", "heavy gun", "near") for i in (3, 4))
        with pytest.raises(Refusal, match=r"^sh/4 has no weapon 'heavy gun' \(it has: rifle, pistol\)$"):
            b.submit(Shoot("sh", sels))


def test_10_05_the_units_weapon_facts_follow_its_losses():
    """ShooterFacts' per-model part (which weapons the living models carry, kept with the
    unit's living models): once the only model with an [ASSAULT] weapon is destroyed, the
    advanced unit no longer qualifies for assault shooting."""
    from sim import world as W
    from sim.plan import shooting_facts
    from sim.rules.shooting import ASSAULT, shooting_type_eligibility

    weapons = {"rifle": weapon(24, 1, 3, 4, 0, 1), "bolter": weapon(24, 2, 3, 4, 0, 1, "[ASSAULT]")}
    sp = scenario(weapons, [unit("sh", model((10, 10), ["bolter"]), model((11.5, 10), ["rifle"]))],
                  [unit("t", model((10, 20), ["rifle"]))])
    with Battle(sp) as b:
        b._enter()
        ent = b.units["sh"]
        W.unit_state(ent).advanced = True
        assert shooting_type_eligibility(shooting_facts(ent))[ASSAULT] is None
        kill(b, "sh/1")
        assert shooting_type_eligibility(shooting_facts(ent))[ASSAULT] == "no [ASSAULT] weapon (10.05)"
        with pytest.raises(Refusal, match=r"^cannot use assault shooting: no \[ASSAULT\] weapon"):
            b.submit(Shoot("sh", (Selection("sh/2", "rifle", "t"),), type="assault"))
