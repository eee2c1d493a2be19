"""A compiled kernel's twin against its numpy reference (sim.rules.compiled), as every twin's
tests ask it: the twin answers (it does not decline) with the reference's bits."""

from __future__ import annotations

from sim.rules import compiled as C


def twin_answer(kern, *args):
    """The reference's answer of the record ``kern`` to ``args``, after checking that its
    compiled twin gives the same answer to the bit (shape, type and bytes; tuples of arrays
    array by array)."""
    got, want = kern.compiled(*args), kern.reference(*args)
    assert got is not None and C._same_bits(got, want)
    return want


def checked_in_players_battles(kern, seeds=(1, 2, 3, 4), players=("default", "default")) -> int:
    """How many calls of the record ``kern`` the players' whole battles on the default table
    (one a seed) compared with its reference in ``check`` mode (a difference raises): for a
    kernel the golden replays call little or not at all, the players' choices being where it
    runs. Every record's mode is restored after."""
    from pathlib import Path

    from sim.analysis.stats import with_players
    from sim.battle import Battle
    from sim.players import play_battle
    from sim.scenario.load import load_scenario

    spec = with_players(load_scenario(Path(__file__).resolve().parents[2] / "scenarios/battle_default.toml"),
                        players)
    before, checked = C.set_mode(C._mode), kern.checked
    kern.set_mode("check")
    try:
        for seed in seeds:
            with Battle(spec, seed=seed) as b:
                play_battle(b, spec)
    finally:
        C.set_mode(before)
    return kern.checked - checked
