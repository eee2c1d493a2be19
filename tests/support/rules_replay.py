"""The default battle (scenarios/battle_default.toml) with rules on its armies, written to a file,
played by the default and by the random players, recorded and replayed with no player: the check
each battle with a rule's choices, dice or tests must pass (every pick and roll is in the log)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def default_table_with(tmp_path, red: list[str], blue: list[str] = (), name: str = "rules") -> Path:
    """The default battle's file with ``red``'s rules on its first army and ``blue``'s on its second."""
    parts = (ROOT / "scenarios/battle_default.toml").read_text().split("[[armies]]\n")
    assert len(parts) == 3
    for i, rules in ((1, red), (2, blue)):
        if rules:
            head, rest = parts[i].split("\n", 1)
            parts[i] = f"{head}\nrules = [{', '.join(f'{chr(34)}{r}{chr(34)}' for r in rules)}]\n{rest}"
    path = tmp_path / f"{name}.toml"
    path.write_text("[[armies]]\n".join(parts))
    return path


def played_and_replayed(tmp_path, path: Path, seed: int, check) -> None:
    """Play the file's battle with each pair of players (default, random), ``check(battle)`` at its
    end, record it, and replay the log: no divergence, every command replayed."""
    from sim.battle import Battle
    from sim.players import play_battle
    from sim.replay.log import Recorder, replay, write_log
    from sim.scenario.load import load_scenario
    spec = load_scenario(path)
    for players in (("default", "default"), ("random", "random")):
        s = dataclasses.replace(spec, script=(), mission=dataclasses.replace(spec.mission, players=players))
        with Battle(s, seed=seed) as b:
            rec = Recorder(b, str(path))
            play_battle(b, s, rec)
            assert b.turn_state.over
            check(b)
            log = write_log(tmp_path / f"{players[0]}.jsonl", rec)
        n, div = replay(log)
        assert div is None and n == b.commands_done
