"""What changed in a battle that some part of it must catch up with, in one named place.

A Battle holds one ``Changes`` (``battle.changes``). The systems that change the world note
here what they changed; the ones that keep a derived view note when they have caught up. A
reader sees in this one class everything tracked this way, who sets it and who clears it.

The visibility index is behind while ``moved_models or shots_changed``; Battle.submit and
VisibilitySystem test exactly that (spelled out: a property costs more than the test, and
they run on every command and every tick).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Changes:
    # Models whose footprint changed since the visibility index last caught up: moved (set by
    # CommandSystem through ``moved``) or taken off the table (CasualtySystem, ``moved``).
    # BattleVisibility.refresh takes them (``take_moved``) and updates only their rows.
    moved_models: list[int] = field(default_factory=list)
    # Some unit's 13.09 "made ranged attacks this turn or last" may have changed: set by
    # AttackResolutionSystem (a unit's first ranged attack of the turn, when it had not shot
    # last turn) and by CommandSystem at the end of a turn, each through ``shot``; cleared by
    # BattleVisibility.sync_hidden once the index knows. True at first: nothing is known yet.
    shots_changed: bool = True
    # Which units those are (an ordered set), so that the sync reads them only and not every
    # unit at every first shot; None: any unit may have changed (at first, or when
    # ``shots_changed`` was set without naming a unit).
    shot_units: dict[int, None] | None = None
    # Units whose UnitState may differ from a fresh turn's: set up by the scenario (the Battle
    # starts with every unit), touched by a command this turn (CommandSystem, ``touched``), or
    # shot last turn. The end of turn (CommandSystem) takes them (``take_touched``) and resets
    # only these; UnitState changes only through commands and the systems resolving them.
    touched_units: dict[int, None] = field(default_factory=dict)  # (an ordered set)

    def moved(self, models) -> None:
        """These models moved or left the table."""
        self.moved_models.extend(models)

    def take_moved(self) -> list[int]:
        """The models moved since the last call, in the order noted; the list starts again."""
        moved, self.moved_models = self.moved_models, []
        return moved

    def shot(self, unit: int) -> None:
        """This unit's 13.09 "made ranged attacks this turn or last" may have changed."""
        if not self.shots_changed:
            self.shots_changed, self.shot_units = True, {}
        if self.shot_units is not None:
            self.shot_units[unit] = None

    def take_shot_units(self) -> dict[int, None] | None:
        """The units noted by ``shot`` since the visibility index last caught up (None: any
        unit may have changed); the index is then caught up."""
        units, self.shots_changed, self.shot_units = self.shot_units, False, None
        return units

    def touched(self, unit: int) -> None:
        """A command (or the turn rolling over) may have changed this unit's UnitState."""
        self.touched_units[unit] = None

    def take_touched(self) -> dict[int, None]:
        """The units touched since the last call (an ordered set: in the order first noted);
        the set starts again."""
        touched, self.touched_units = self.touched_units, {}
        return touched
