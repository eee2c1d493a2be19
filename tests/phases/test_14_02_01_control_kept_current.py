"""14.02.01 Control is settled at every phase and turn end from the levels of control
(sim.phases.scoring.control_levels), which are kept between settlements while nothing they
read changes. Each input gets a test that fails if its invalidation is removed: a move, a
destroyed model, a set-up from strategic reserves, battle-shock; and the spatial index's
version, which every change of who is on the battlefield or where bumps."""

from __future__ import annotations

from phased import mission_scenario, model, unit
from scen import kill
from sim.battle import Battle
from sim.commands import StartBattle
from sim.rules import objectives as OBJ
from sim.rules.dice import ForcedDice
from sim.phases import scoring
from sim.systems.placing import apply_ingress
from sim.world import mutations as M
from sim.world import queries as W

OBJECTIVES = [{"name": "middle", "at": [30, 22], "kind": "central"}]


def _battle():
    red = [unit("r1", model([(28, 20), (29.5, 20)], ["gun"], OC=2)),
           unit("rr", model([(5, 2), (6.5, 2)], ["gun"], OC=5), reserves=True)]
    blue = [unit("b1", model([(30, 24)], ["gun"], OC=3))]
    b = Battle(mission_scenario(red, blue, objectives=OBJECTIVES), dice=ForcedDice([]))
    b.run_command(StartBattle())
    b._enter()
    return b


def _levels(b):
    """The kept levels, checked against a fresh count from the rule on every call."""
    objs = b.turn_state.objectives
    kept = scoring.control_levels(objs)
    assert kept == OBJ.control_levels_all(objs, scoring.oc_models())
    return kept[0]


def test_14_02_01_levels_are_kept_while_nothing_changes():
    with _battle() as b:
        first = scoring.control_levels(b.turn_state.objectives)
        assert first[0] == {0: 4, 1: 3}
        assert scoring.control_levels(b.turn_state.objectives) is first


def test_14_02_01_a_move_out_of_range_changes_the_levels():
    with _battle() as b:
        assert _levels(b) == {0: 4, 1: 3}
        M.move_models([(b.models["b1/1"], 30.0, 35.0)])
        assert _levels(b) == {0: 4, 1: 0}


def test_14_02_01_a_destroyed_model_no_longer_counts():
    with _battle() as b:
        assert _levels(b) == {0: 4, 1: 3}
        kill(b, "r1/1")
        assert _levels(b) == {0: 2, 1: 3}


def test_14_02_01_a_unit_set_up_from_reserves_counts():
    with _battle() as b:
        assert _levels(b) == {0: 4, 1: 3}
        apply_ingress(b, "rr", (("rr/1", 26.0, 21.0), ("rr/2", 26.0, 22.5)))
        assert _levels(b) == {0: 14, 1: 3}


def test_14_02_01_battle_shock_makes_oc_dash():
    with _battle() as b:
        assert _levels(b) == {0: 4, 1: 3}
        W.unit_state(b.units["r1"]).battle_shocked = True
        assert _levels(b) == {0: 0, 1: 3}
        W.unit_state(b.units["r1"]).battle_shocked = False
        assert _levels(b) == {0: 4, 1: 3}


def test_14_02_01_the_spatial_version_is_bumped_by_every_change_of_the_table():
    with _battle() as b:
        sp = W.spatial()
        v = sp.version
        M.move_models([(b.models["b1/1"], 30.0, 25.0)])  # a move (SpatialIndex._changed)
        assert sp.version > v
        v = sp.version
        sp.remove(W.model_row(b.models["r1/2"]))  # a model leaves the battlefield
        assert sp.version > v
        v = sp.version
        sp.forget_unit(b.units["r1"])  # a unit's living models to be worked out again
        assert sp.version > v


def test_14_02_01_the_footprints_read_are_the_models_positions():
    # scoring reads the spatial index's footprints: every move keeps them equal to the models'
    with _battle() as b:
        M.move_models([(b.models["r1/1"], 20.0, 20.0), (b.models["r1/2"], 21.5, 20.0)])
        apply_ingress(b, "rr", (("rr/1", 26.0, 21.0), ("rr/2", 26.0, 22.5)))
        sp = W.spatial()
        for u in W.all_units():
            for m in W.unit_models(u):
                assert sp.fps[W.model_row(m)] == W.footprint(m)


def test_14_02_01_in_range_rows_are_kept_per_footprint_and_measured_again_when_moved(monkeypatch):
    """Who is in range of each objective is kept per model's footprint (an immutable object,
    replaced by every move) between settlements: after a move only the moved models are
    measured again, and the levels are the rule's fresh count (``_levels``)."""
    measured = []
    real = OBJ.in_range_matrix

    def spy(fps, objectives):
        measured.append(len(fps))
        return real(fps, objectives)
    monkeypatch.setattr(OBJ, "in_range_matrix", spy)
    with _battle() as b:
        assert _levels(b) == {0: 4, 1: 3}
        assert measured == [3]                       # (r1's two models and b1's)
        M.move_models([(b.models["b1/1"], 30.0, 35.0)])
        assert _levels(b) == {0: 4, 1: 0}
        assert measured == [3, 1]                    # (b1/1 alone)
        M.move_models([(b.models["b1/1"], 30.0, 24.0)])
        kill(b, "r1/2")
        assert _levels(b) == {0: 2, 1: 3}
        assert measured == [3, 1, 1]
