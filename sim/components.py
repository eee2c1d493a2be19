"""ECS components: small slotted dataclasses of data, no behaviour.

Model entities carry Keyword, Weapon, Position, Base, Stats, Wounds, UnitMember and ModelId,
plus Character for CHARACTER models. Unit entities carry Unit and UnitState. The names
Keyword, Weapon and Character are the project brief's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from sim.rules.attack import AttackKind
from sim.rules.profiles import WeaponProfile


# --- model components -------------------------------------------------------------------

@dataclass(slots=True)
class ModelId:
    """Stable identity of a model: ``"<unit id>/<n>"`` and a battle-wide creation order."""

    id: str
    order: int


@dataclass(slots=True)
class Keyword:
    """The model's own keywords, upper-case (02.05.01). A unit has the union (19.03)."""

    names: frozenset[str]


@dataclass(slots=True)
class Weapon:
    """The model's weapon profiles, in datasheet order."""

    profiles: tuple[WeaponProfile, ...]


@dataclass(slots=True)
class Character:
    """Marks a CHARACTER model: its own allocation group (05.03), last for mortal wounds (06.02)."""

    name: str = ""


@dataclass(slots=True)
class Position:
    """Centre of the model's footprint on the 2-D battlefield, in inches (Part A ruling 1), and
    the facing it was last turned to (03.01: a model may rotate as it moves or is set up), in
    degrees; None: its base's own (``Base.angle``, the scenario's), so a model never turned
    states nothing more."""

    x: float
    y: float
    angle: float | None = None


@dataclass(slots=True)
class Base:
    """The model's footprint: 'round' (diameter = length), 'oval' or 'rect' (length x width), in
    inches, rotated by ``angle`` degrees (Part A ruling 1) as the scenario sets it up; a turn
    during the battle is the model's ``Position.angle``."""

    shape: str
    length: float
    width: float
    angle: float = 0.0


@dataclass(slots=True)
class Stats:
    """02.02 M, T, Sv, InSv, W, Ld, OC."""

    M: int
    T: int
    Sv: int
    W: int
    Ld: int
    OC: int
    InSv: int | None = None
    InSv_against: str = ""  # "ranged" or "melee": InSv counts only against those attacks (05.03)


@dataclass(slots=True)
class Wounds:
    """Wounds remaining; 0 or fewer = destroyed (02.02)."""

    remaining: int


@dataclass(slots=True)
class UnitMember:
    """Which unit the model belongs to, its place in it, and its role in an attached unit (19.02)."""

    unit: int  # unit entity
    index: int  # 0-based position in the unit's listed order
    role: str = "bodyguard"  # "bodyguard" | "leader" | "support"


@dataclass(slots=True)
class ModelAbilities:
    """Unit abilities held by this model (Feel No Pain, Stealth, Lone Operative, ...), parsed."""

    abilities: tuple = ()


@dataclass(slots=True)
class Destroyed:
    """The model is destroyed; ``removed`` once it has been taken off the table (05.04.04)."""

    removed: bool = False
    by: str = ""


# --- unit components --------------------------------------------------------------------

@dataclass(slots=True)
class Unit:
    """A unit (or attached unit, 19.01): id, name, owning army and its models in listed order."""

    id: str
    name: str
    owner: int  # army index 0 or 1
    order: int  # battle-wide unit order
    models: list[int] = field(default_factory=list)  # model entities, listed order


@dataclass(slots=True, kw_only=True)
class Roster:
    """A unit's models as the rules read them, index i being its i-th model in listed order.

    Derived once from the model components when the world is built: stats, keywords, roles and
    abilities never change during a battle, so the attack path reads them here instead of
    looking up each model's components again. ``wounds`` holds the models' own Wounds
    components, so it always reads the live value. Built by keyword only (23 fields: a
    positional call would silently swap two of the same type)."""

    models: tuple[int, ...]  # model entities
    ids: tuple[str, ...]
    rows: tuple[int, ...]  # ModelId.order: the model's row in the distance and visibility indexes
    wounds: tuple[Wounds, ...]
    T: tuple[int, ...]
    bodyguard: tuple[bool, ...]  # role "bodyguard" (19.02: an attached unit uses their T)
    character: tuple[bool, ...]
    fnp: tuple[int | None, ...]  # 24.12 Feel No Pain X+ (the best one the model has)
    stealth: tuple[bool, ...]  # 24.33
    lone_operative: tuple[bool, ...]  # 24.24
    monster_or_vehicle: tuple[bool, ...]
    keywords: frozenset[str]  # 19.03 the union of its models' keywords, while none is destroyed
    weapons: tuple  # each model's Weapon.profiles (models with equal loadouts share one tuple)
    damaged: tuple[int | None, ...]  # 24.39 Damaged X (None: the model does not have it)
    full: tuple  # sim.rules.allocation.TargetModel per model at full wounds
    full_wounds: tuple[int, ...]
    full_groups: tuple  # 05.03 allocation groups at full wounds
    full_order: tuple  # 05.03 the default allocation order then (Part A ruling 9)
    W_of: dict  # model id -> W, Sv, InSv (what 05.04 reads per model)
    Sv_of: dict
    InSv_of: dict  # the invulnerable save against ranged attacks (sim.rules.attack.invulnerable_against)
    InSv_melee_of: dict  # against melee attacks (the same dict when no model's InSv has a condition)
    full_T: int  # 05.02.01 / 19.02 the unit's T for wound rolls while none of its models is lost
    OC: tuple[int, ...]  # 02.02 each model's Objective Control (14.02)


@dataclass(frozen=True, slots=True)
class Transport:
    """18.01 On the entity of a TRANSPORT unit with a capacity: what it may carry
    (sim.rules.transport.Capacity, fixed by the scenario)."""

    capacity: object


@dataclass(frozen=True, slots=True)
class RollModifiers:
    """On the entity of a unit any of whose models has scenario modifiers (README
    ``modifiers``; sim.rules.modifiers.RollModifier): each such model's (its unit's and its
    own; equal ones share one tuple), by model entity and by model id. Read by sim.plan.scenario_modifiers."""

    by_model: dict  # model entity -> tuple of RollModifier
    by_id: dict  # model id -> the same tuple


@dataclass(frozen=True, slots=True)
class UnitRules:
    """On the entity of a unit that holds datasheet abilities, army rules or detachment rules
    (sim.rules.effects): each as held (sim.rules.effects.vocabulary.Held: the record and its
    bearers), its army's first, then its models', in the scenario's order. Fixed by the
    scenario; read by sim.world.rule_effects."""

    held: tuple


@dataclass(slots=True)
class UnitState:
    """Per-turn bookkeeping the shooting and fighting rules read (09.04-09.07, 10.02, 12.04).

    Every field is in the state hash (sim.world.state_hash). ``reset: turn`` fields go back to
    their defaults at the end of each turn (upkeep.roll_over_turn, for the units touched)."""

    advanced: bool = field(default=False, metadata={"reset": "turn"})
    fell_back: bool = field(default=False, metadata={"reset": "turn"})
    # furthest any model moved in total this turn, inches ([HEAVY] 24.16)
    moved: float = field(default=0.0, metadata={"reset": "turn"})
    # the move made this turn: "normal", "advance", "fall back" (09.02)
    move_type: str | None = field(default=None, metadata={"reset": "turn"})
    # each model's total this turn
    model_moved: dict[str, float] = field(default_factory=dict, metadata={"reset": "turn"})
    set_up_this_turn: bool = field(default=False, metadata={"reset": "turn"})
    # 03.02.02 set up this turn touching an edge: no moves, charges, shooting
    oversized_set_up: bool = field(default=False, metadata={"reset": "turn"})
    charged: bool = field(default=False, metadata={"reset": "turn"})
    selected_to_shoot: bool = field(default=False, metadata={"reset": "turn"})
    selected_to_fight: bool = field(default=False, metadata={"reset": "turn"})
    ranged_attacks_this_turn: bool = field(default=False, metadata={"reset": "turn"})
    # 13.09 "this turn or last": not a reset. At the end of each turn roll_over_turn copies
    # ranged_attacks_this_turn here before the turn's reset clears that one
    ranged_attacks_last_turn: bool = False
    used_one_shot: frozenset[str] = frozenset()
    # 09.06 rolled when selected to advance, before moving
    advance_roll: int | None = field(default=None, metadata={"reset": "turn"})
    # 09.02 the move type it was selected for, this phase
    move_selected: str | None = field(default=None, metadata={"reset": "turn"})
    # 11.02 declared a charge this phase: the 2D6 roll
    charge_roll: int | None = field(default=None, metadata={"reset": "turn"})
    # 11.02 step 3 done (moved or not)
    charge_resolved: bool = field(default=False, metadata={"reset": "turn"})
    # 12.02 one pile-in move per unit per Fight phase
    piled_in: bool = field(default=False, metadata={"reset": "turn"})
    # 12.07 one consolidation move per unit per Fight phase
    consolidated: bool = field(default=False, metadata={"reset": "turn"})
    # 15.12 Fights First this phase (a Counteroffensive's target)
    counteroffensive: bool = field(default=False, metadata={"reset": "turn"})
    battle_shocked: bool = False  # 01.07 until a passed roll in its Battle-shock step (08.03)
    snap_shooting: bool = False  # 15.09 a rule (15.08 Fire Overwatch) lets it shoot with snap shooting now
    # 18.02 / 26 step 7 the TRANSPORT it is embarked in (not on the battlefield meanwhile)
    embarked_in: int | None = field(default=None, metadata={"ids": "unit"})
    # 18.04 / 18.05 the disembark it made this turn (sim.rules.transport.DisembarkMode)
    disembarked: str | None = field(default=None, metadata={"reset": "turn"})
    # 24.14 it was embarked in a transport whose embarked models shot from it (Firing Deck) this
    # turn: not eligible to shoot this turn
    transport_fired: bool = field(default=False, metadata={"reset": "turn"})
    # 20.03.01 the turn (battle round, active player) it was last set up as Reinforcements (an
    # ingress move), kept in a battle where some unit holds a rule (what V.ARRIVED reads)
    arrived: tuple[int, int] | None = None
    # 20.03 put into strategic reserves by a rule during the battle: not destroyed at the end of
    # battle round 3 for not having arrived
    repositioned: bool = False


class Stage(StrEnum):
    """Where an activation is (each stage is one system's work): 10.02 the shooting type (shoot
    only) -> 04.01/04.02 weapons and targets -> 04.03 the attacks, pool by pool -> 24.15 hazard
    rolls -> removing casualties and ending the activation."""

    TYPE = "type"
    WEAPONS = "weapons"
    ATTACKS = "attacks"
    HAZARD = "hazard"
    CLEANUP = "cleanup"


@dataclass(slots=True)
class Activation:
    """On a unit selected to shoot or fight, until its attacks (and hazard rolls) are done."""

    kind: AttackKind  # ranged (a unit selected to shoot) or melee (selected to fight)
    command: object
    stage: Stage
    shooting_type: str | None = None
    declared: list = field(default_factory=list)  # sim.plan.Declared
    pools: list = field(default_factory=list)  # sim.systems.attack_pool.Pool, in order
    pool_index: int = 0
    choices: dict = field(default_factory=dict)  # decisions taken in Select Weapons
    # what the abilities (24) of the weapons selected do (their hooks), once Select Weapons has run
    weapon_effects: frozenset | None = None
    # 06.03 the hazard rolls made, kept while a Command Re-roll of one of them is offered (15.02)
    hazard_rolls: list | None = None
    # what the activation's command does once its attacks are resolved: (battle, unit entity) ->
    # a generator (12.04: whose pick is next, a Counteroffensive; 15.05: Explosives again), or None
    then: object = None
    # 05.04.04 the removal of its casualties in progress (sim.systems.removal.remove_casualties,
    # a generator), while it waits for a decision (18.05 an emergency disembark's placement)
    removal: object = None
