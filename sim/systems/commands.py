"""CommandSystem: takes the next accepted command and starts it (one per tick): its record's
apply (sim.commands), which is done at once or leaves a generator (``battle.action``) that
waits for decisions and is resumed here, tick by tick, until it ends."""

from __future__ import annotations

import esper


def resume(battle) -> None:
    """Run the command in progress (``battle.action``) until it waits again or ends."""
    try:
        next(battle.action)
    except StopIteration:
        battle.action = None


def start(battle, action) -> None:
    """Carry out ``action`` (a generator: a command's apply, or what the end of an activation
    leads to) as the battle's action in progress."""
    battle.action = action
    resume(battle)


class CommandSystem(esper.Processor):
    def process(self, battle) -> None:
        if battle.action is not None:  # a command waiting on a decision: resume it
            resume(battle)
            return
        if battle.activation_unit is not None or not battle.queue:
            return
        cmd = battle.queue.popleft()
        action = cmd.record.apply(battle, cmd)
        if action is not None:
            start(battle, action)
