"""A read-only snapshot of the battle for drawing and hit-testing.

Built from world queries only (sim.world.queries); nothing here writes a component. Rebuilt
when the event stream grows (every change to the world emits an event)."""

from __future__ import annotations

from dataclasses import dataclass, field

import esper

from sim import names
from sim.components import Character, Destroyed, Position, Stats, Unit, Wounds
from sim.rules import geometry
from sim.world import queries as W


@dataclass(slots=True)
class ModelView:
    ent: int
    id: str
    name: str
    unit: str
    owner: int
    x: float
    y: float
    fp: geometry.Footprint
    W: int
    remaining: int
    M: int
    character: bool
    alive: bool
    removed: bool

    @property
    def radius(self) -> float:
        return self.fp.bounding_radius


@dataclass(slots=True)
class UnitView:
    ent: int
    id: str
    name: str
    owner: int
    models: list[str] = field(default_factory=list)  # all model ids, listed order
    engaged: bool = False
    destroyed: bool = False
    advance_roll: int | None = None  # 09.06 its advance roll this turn, once rolled
    carried: int = 0  # 18.01 the living models embarked in it (a transport's badge)
    embarked_in: str | None = None  # 18.02 the transport it is embarked in (not drawn meanwhile)


class Scene:
    def __init__(self, battle):
        self.battle = battle
        self.version = -1
        self.models: dict[str, ModelView] = {}
        self.units: dict[str, UnitView] = {}
        self.order: list[str] = []  # model ids in creation order
        # (the names a person reads: "Raider Mob (2)", "Raider 3": sim.names)
        self.names = names.models_of_battle(battle)
        self.unit_names = names.of_battle(battle)
        # (ids in a line of text: names.in_words; the sides by their armies' names, "red" -> "Wardens")
        self.words = {**names.sides_of_battle(battle), **self.names, **self.unit_names}
        # (a line that does not say a model's unit: "Raider 1 of Raider Mob (2)", report.MODELS_AWAY)
        self.words_away = {**self.words, **names.models_with_units_of_battle(battle), **self.unit_names}
        # (a list of removed models read grouped by unit: "3 of Raider Mob (2)", names.in_words)
        self.model_units = names.models_in_units_of_battle(battle)
        self.refresh(force=True)

    def refresh(self, force: bool = False) -> bool:
        """Re-read the world if anything happened since the last read. True if it did."""
        n = len(self.battle.events)
        if not force and n == self.version:
            return False
        self.version = n
        self.battle._enter()
        models: dict[str, ModelView] = {}
        units: dict[str, UnitView] = {}
        for uent in W.all_units():
            u = esper.component_for_entity(uent, Unit)
            uv = UnitView(uent, u.id, self.unit_names.get(u.id, u.name), u.owner, advance_roll=W.unit_state(uent).advance_roll)
            # (20.01 in strategic reserves, 26 step 8 still to be deployed, 18.02 embarked in a
            # transport: not on the table to draw)
            t = W.embarked_in(uent)
            off = W.in_reserves(uent) or W.undeployed(uent) or t is not None
            if t is not None:
                uv.embarked_in = esper.component_for_entity(t, Unit).id
            for m in u.models:
                mid = W.model_id(m)
                pos = esper.component_for_entity(m, Position)
                st = esper.component_for_entity(m, Stats)
                rem = esper.component_for_entity(m, Wounds).remaining
                d = esper.try_component(m, Destroyed)
                models[mid] = ModelView(
                    m, mid, self.names.get(mid, mid), u.id, u.owner, pos.x, pos.y, W.footprint(m), st.W, rem, st.M,
                    esper.has_component(m, Character), rem > 0 and not off, (d is not None and d.removed) or off)
                uv.models.append(mid)
            uv.destroyed = not any(models[x].alive for x in uv.models)
            units[u.id] = uv
        for uv in units.values():  # (18.01 each transport's passengers, counted on its badge)
            if uv.embarked_in is not None:  # (not drawn: 'destroyed' for the table's purposes)
                units[uv.embarked_in].carried += sum(1 for x in uv.models if models[x].remaining > 0)
        self.models, self.units = models, units
        self.order = list(models)
        self._engagement()
        return True

    def _engagement(self) -> None:
        """03.04 engaged units: the world's answer (W.unit_engaged, the spatial index's
        contacts, kept while nothing moves), for the units on the table."""
        for uv in self.units.values():
            if not uv.destroyed and uv.embarked_in is None:
                uv.engaged = W.unit_engaged(uv.ent)

    def living(self, unit_id: str) -> list[ModelView]:
        return [self.models[m] for m in self.units[unit_id].models if self.models[m].alive]

    def model_at(self, x: float, y: float, slack: float = 0.15) -> ModelView | None:
        """The living model whose base is under the table point (x, y), nearest centre first."""
        best, bd = None, 1e9
        for m in self.models.values():
            if not m.alive:
                continue
            r = m.radius + slack
            dx, dy = x - m.x, y - m.y
            d2 = dx * dx + dy * dy
            if d2 <= r * r and d2 < bd:
                best, bd = m, d2
        return best

