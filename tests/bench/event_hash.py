"""The event hash of 20 random battles: a fingerprint of what the whole-battle rules do, to
check that a restructuring changed nothing (README, Performance; the issue notes name it).

The default table (scenarios/battle_default.toml) played by two random players for seeds 1-20,
every event of every battle (dice, decisions, moves...) written as sorted JSON and hashed in
order. Same code, same hash, on any machine and Python version. A restructuring step that
keeps the hash keeps every one of those battles byte-identical.

Run: .venv/bin/python tests/bench/event_hash.py [--battles N] [--players red,blue] [--scenario FILE]
(e.g. --scenario scenarios/ladder/full_size.toml: the full-size armies, deployed by the rules)
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sim.battle import Battle  # noqa: E402
from sim.players import play_battle  # noqa: E402
from sim.scenario.load import load_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def events_hash(battles: int = 20, players=("random", "random"),
                scenario: Path = ROOT / "scenarios/battle_default.toml") -> tuple[str, str]:
    """The hash of every event of the battles, and the hash of their final state hashes (which
    changes when the state hash's definition does, while the events stay the same)."""
    spec = load_scenario(scenario)
    spec = dataclasses.replace(spec, mission=dataclasses.replace(spec.mission, players=tuple(players)))
    h, states = hashlib.sha256(), hashlib.sha256()
    for seed in range(1, battles + 1):
        with Battle(spec, seed=seed) as b:
            play_battle(b, spec)
            for e in b.events:
                h.update(json.dumps(e, sort_keys=True, separators=(",", ":")).encode())
                h.update(b"\n")
            states.update(f"{b.state_hash()}\n".encode())
    return h.hexdigest()[:16], states.hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--battles", type=int, default=20)
    ap.add_argument("--players", default="random,random")
    ap.add_argument("--scenario", default=str(ROOT / "scenarios/battle_default.toml"))
    args = ap.parse_args()
    players = tuple(args.players.split(","))
    events, states = events_hash(args.battles, players, Path(args.scenario))
    print(f"{args.battles} battles ({' v '.join(players)}) of {Path(args.scenario).name}: event hash {events}, "
          f"final-state hash {states}")


if __name__ == "__main__":
    main()
