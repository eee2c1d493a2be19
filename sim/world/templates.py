"""A battle of a scenario already played, made as a copy of a pristine battle of it (Battle's
constructor) instead of being built again from the scenario.

Building a battle (sim.world.build: every model's components, the rosters, the spatial index,
the systems) costs about as much as a few dozen commands; a batch plays many battles of one
scenario. A battle that nothing has happened in yet is copied as Battle.fork copies one
(sim.world.fork: what changes copied, what never changes shared), so the second battle of a
scenario builds a pristine one that is kept, and that and every later one are copies of it.
A copy is what building would give: the same entities and components, turn state, resources,
visibility and changes, its own fresh dice of its seed, no events (a battle built from a
scenario has none before its first command). tests/world/test_battle_templates.py holds the two
equal on every scenario: the same state hash and the same events when played.

Only the ``KEEP`` scenarios last asked for keep theirs (a kept battle holds its esper world; four,
so that a benchmark interleaving three tables, or a ladder of a few, keeps each);
a scenario is recognised by identity (the object itself is held, so its id is not reused), so
a scenario loaded again, or changed with dataclasses.replace, is a new one. A battle given its
own dice (forced or keyed ones, tests and replays of a log) is built, not copied.
"""

from __future__ import annotations

from typing import Callable

KEEP = 4

# (scenario, its pristine battle, or None when it has been asked for once), the last asked for last
_kept: list[list] = []


def pristine_for(scenario, make: Callable[[], object]):
    """The pristine battle of ``scenario`` to copy, or None (the first time it is asked for:
    build the battle from the scenario). The second time, ``make()`` builds the pristine one,
    kept from then on; of more than KEEP scenarios, the one asked for least lately is let go (its
    world deleted)."""
    for k, entry in enumerate(_kept):
        if entry[0] is scenario:
            if entry[1] is None:
                entry[1] = make()
            _kept.append(_kept.pop(k))      # (the newest asked for now)
            return entry[1]
    _kept.append([scenario, None])
    while len(_kept) > KEEP:
        _scenario, old = _kept.pop(0)
        if old is not None:
            old.close()
    return None


def forget() -> None:
    """Let every kept battle go (their worlds deleted)."""
    while _kept:
        _scenario, old = _kept.pop()
        if old is not None:
            old.close()


def kept_worlds() -> set:
    """The esper worlds of the kept battles."""
    return {t.world for _s, t in _kept if t is not None}
