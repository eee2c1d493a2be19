"""VisibilitySystem: keeps the battle's model-by-model visibility up to date every tick.

Target selection (04.02), [PRECISION] (24.28), benefit of cover (13.08) and the sandbox overlay
all read ``battle.visibility``; nothing else computes line of sight."""

from __future__ import annotations

import esper

from sim import world as W


class OpenTableView:
    """Visibility on a table without terrain: every model sees every other; no cover except
    what Stealth and indirect shooting grant. Used until terrain visibility is wired in."""

    def __init__(self, battle):
        self.battle = battle

    def model_visible(self, observer: str, target: str) -> bool:
        return True

    def lone_operative_beyond(self, observer: str, target_unit: int) -> bool:
        return False

    def benefit_of_cover(self, observer: str, target_unit: int, weapon, shooting_type: str) -> bool:
        if weapon.has("IGNORES COVER"):
            return False
        if shooting_type == "indirect" and weapon.has("INDIRECT FIRE"):
            return True
        models = W.unit_models(target_unit)
        return bool(models) and all(any(a.name == "STEALTH" for a in W.model_abilities(m)) for m in models)


class VisibilitySystem(esper.Processor):
    def __init__(self, battle):
        battle.visibility = OpenTableView(battle)

    def process(self, battle) -> None:
        if battle.moved_models:
            battle.moved_models = []
