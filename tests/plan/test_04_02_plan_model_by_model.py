"""04.01/04.02 plan_shoot works out what models share once (loadouts, each weapon at each
target with 04.02's answer for every model at once, each distinct attack key): the plan of a
whole unit must be exactly the plans of its models one at a time, and a refusal must name
the first model, in unit order, whose selection is illegal."""

from __future__ import annotations

from dataclasses import astuple

import esper
import pytest

from scen import kill, model, row, scenario, unit, weapon
from sim.battle import Battle
from sim.commands import Selection, Shoot
from sim.components import Wounds
from sim.errors import PlanError, Refusal
from sim.plan import plan_shoot
from sim.world import queries as W

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
    """The declared attacks, each as its fields' values (its attack key included)."""
    b._enter()
    return [astuple(d) for d in plan_shoot(b, Shoot("sh", tuple(sels))).declared]


def _whole_and_one_at_a_time(b, sels) -> tuple:
    """The unit's plan for ``sels`` and the concatenated plans of its selections one at a time,
    each replaced by its refusal's message when refused (the first refusal model by model)."""
    try:
        whole = _plan(b, sels)
    except Exception as e:  # noqa: BLE001 - compared with the first model's own refusal
        whole = str(e)
    alone = []
    for s in sels:
        try:
            alone += _plan(b, [s])
        except Exception as e:  # noqa: BLE001
            return whole, str(e)
    return whole, alone


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
        whole, alone = _whole_and_one_at_a_time(b, _selections(choice, target))
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
        with pytest.raises(Refusal, match=rf"^sh/{first_bad} rifle -> near: out of range \(04\.02\)$"):
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
    from sim.plan import shooting_facts
    from sim.rules.shooting import ASSAULT, shooting_type_eligibility
    from sim.world import queries as W

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



WALL = [[18, 5], [34, 5], [34, 5.5], [18, 5.5]]  # a solid wall (dense terrain, 13.05)
WOOD = [[3, 9], [7, 9], [7, 11], [3, 11]]  # light terrain (13.04): cover within it (13.08)


def _alike_spec(target: str = ""):
    """Ten alike shooters (one loadout) in a line, and targets whose distances to them lie
    within half the rifle's range of all of them ("close"), within range of all but half range
    of some ("mid"), within range of some ("near"), beyond range of all ("far"); "behind" is
    seen by the first models only (the wall hides it from the others); "wooded" is within half
    range of all of them and has the benefit of cover against all of them (a battle of its own:
    the wood would hide some of the others)."""
    from sim.scenario.load import parse_scenario
    wood = target == "wooded"
    area, category = (WOOD, "light") if wood else (WALL, "dense")
    return parse_scenario({
        "battle": {"name": "alike", "seed": 1, "board": [60, 44]},
        "terrain": [{"name": category, "area": area,
                     "features": [{"category": category, "polygon": area}]}],
        "weapons": WEAPONS,
        "armies": [
            {"name": "A", "units": [unit("sh", model(row(2, 2, 10), ["rifle", "heavy gun"]))]},
            {"name": "B", "units": [unit("wooded", model(row(4, 10, 2), ["rifle"]))] if wood else [
                                    unit("close", model(row(6, 8, 4), ["rifle"])),
                                    unit("mid", model(row(2, 13, 4), ["rifle"])),
                                    unit("near", model(row(2, 26, 4), ["rifle"])),
                                    unit("far", model(row(2, 40, 4), ["rifle"])),
                                    unit("behind", model(row(24, 8, 2), ["rifle"]))]},
        ],
    }, "alike.toml")


ALIKE_TARGETS = ["close", "mid", "near", "far", "behind", "wooded"]


@pytest.mark.parametrize("lost", [(), ("sh/2", "sh/9")])
@pytest.mark.parametrize("w", ["rifle", "heavy gun"])
@pytest.mark.parametrize("target", ALIKE_TARGETS)
def test_alike_unit_plan_is_its_models_plans(target, w, lost):
    """Alike models selecting one weapon at one target (04.02 answered for all of them at once
    when it answers them all alike, WeaponAt.alike): the same plan as model by model, or the
    same refusal."""
    with Battle(_alike_spec(target)) as b:
        for mid in lost:
            kill(b, mid)
        b._enter()
        b.visibility.refresh()
        sels = [Selection(f"sh/{i}", w, target) for i in range(1, 11) if f"sh/{i}" not in lost]
        whole, alone = _whole_and_one_at_a_time(b, sels)
        assert whole == alone


def test_the_alike_cases_above_are_answered_at_once_or_model_by_model():
    """Each of the cases above goes the way it should: 04.02 answered once for every model when
    range, half range, visibility and cover are the same for all, model by model otherwise."""
    from sim.plan.shoot_targets import ShootPlanTargets, shooters_of

    ways = {}
    for target in ALIKE_TARGETS:
        with Battle(_alike_spec(target)) as b:
            b._enter()
            unit = b.units["sh"]
            rifle = next(w for w in W.weapons_of(b.models["sh/1"]) if w.name == "rifle")
            at = ShootPlanTargets(b, unit, "normal", shooters_of(unit), True).weapon_at(rifle, b.units[target])
            at._settle()    # (the cover, read when a model first declares: here, asked now)
            try:
                _plan(b, [Selection(f"sh/{i}", "rifle", target) for i in range(1, 11)])
                legal = "legal"
            except Exception as e:  # noqa: BLE001
                legal = str(e)
            ways[target] = ("at once" if at.alike is not None else "model by model", legal)
    assert ways == {"close": ("at once", "legal"), "wooded": ("at once", "legal"),
                    "mid": ("model by model", "legal"),
                    "near": ("model by model", "sh/10 rifle -> near: out of range (04.02)"),
                    "far": ("at once", "sh/1 rifle -> far: out of range (04.02)"),
                    "behind": ("model by model", "sh/9 rifle -> behind: not visible to this model (06.01)")}
    with Battle(_alike_spec("mid")) as b:  # half range per model, from the distances
        b._enter()
        plan = plan_shoot(b, Shoot("sh", tuple(Selection(f"sh/{i}", "rifle", "mid")
                                                for i in range(1, 11))))
        half = [d.half_range for d in plan.declared]
        assert half == [W.nearest_distance(d.model, W.unit_models(b.units["mid"])) <= 12
                        for d in plan.declared]
        assert True in half and False in half
    with Battle(_alike_spec("wooded")) as b:
        b._enter()
        plan = plan_shoot(b, Shoot("sh", tuple(Selection(f"sh/{i}", "heavy gun", "wooded")
                                                for i in range(1, 11))))
        assert {(d.hit_mods, d.skill_mods, d.half_range) for d in plan.declared} == {
            ((("[HEAVY] (24.16)", 1),), (("benefit of cover (13.08)", -1),), True)}


def test_10_02_the_units_shooting_types_follow_its_moves():
    """Shooters.types (eligibility and default type, kept per combination of the facts that
    change): the same unit, with the same living models, after it advanced and after it fell
    back, has the types of its new facts."""
    from sim.world import queries as W

    weapons = {"bolter": weapon(24, 2, 3, 4, 0, 1, "[ASSAULT]")}
    sp = scenario(weapons, [unit("sh", model((10, 10), ["bolter"]))],
                  [unit("t", model((10, 20), ["bolter"]))])
    with Battle(sp) as b:
        b._enter()
        st = W.unit_state(b.units["sh"])
        sels = (Selection("sh/1", "bolter", "t"),)
        assert plan_shoot(b, Shoot("sh", sels)).shooting_type == "normal"
        st.advanced = True
        assert plan_shoot(b, Shoot("sh", sels)).shooting_type == "assault"
        st.advanced, st.fell_back = False, True
        with pytest.raises(Exception, match=r"^the unit qualifies for no shooting type"):
            plan_shoot(b, Shoot("sh", sels))


def test_a_refused_plan_reads_no_cover(monkeypatch):
    """Every run of a Shoot is checked (04.02, in declaration order) before any is declared, so
    a plan refused for one selection reads no benefit of cover (13.08) for any, and gives the
    first refused selection's reason, as before; a legal plan reads it once per weapon."""
    from sim.systems.visibility import BattleVisibility
    reads = []
    real = BattleVisibility.benefit_of_cover_rows

    def spy(self, *a, **k):
        reads.append(a[1])
        return real(self, *a, **k)
    monkeypatch.setattr(BattleVisibility, "benefit_of_cover_rows", spy)
    with Battle(_alike_spec("near")) as b:          # sh/10 out of the rifle's range (above)
        b._enter()
        with pytest.raises(PlanError, match=r"sh/10 rifle -> near: out of range \(04\.02\)"):
            plan_shoot(b, Shoot("sh", tuple(Selection(f"sh/{i}", "rifle", "near") for i in range(1, 11))))
        assert reads == []
        # (two runs: the first legal, the second refused: neither reads cover)
        sels = [Selection(f"sh/{i}", "rifle", "close") for i in range(1, 6)] + \
               [Selection(f"sh/{i}", "rifle", "near") for i in range(6, 11)]
        with pytest.raises(PlanError, match=r"sh/10 rifle -> near: out of range"):
            plan_shoot(b, Shoot("sh", tuple(sels)))
        assert reads == []
        plan_shoot(b, Shoot("sh", tuple(Selection(f"sh/{i}", "rifle", "close") for i in range(1, 11))))
        assert reads == [b.units["close"]]
