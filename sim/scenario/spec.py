"""A validated scenario, as plain immutable data (what the loader returns, what the world is
built from, what the sandbox saves)."""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.rules.profiles import ModelProfile, WeaponProfile


@dataclass(frozen=True, slots=True)
class ModelSpec:
    id: str  # "<unit id>/<n>" (n from 1), or the model's own id when given
    name: str
    role: str  # bodyguard | leader | support
    x: float
    y: float
    shape: str  # round | oval | rect
    length: float  # inches
    width: float
    angle: float
    profile: ModelProfile
    keywords: frozenset[str]
    weapons: tuple[WeaponProfile, ...]
    character: bool
    abilities: tuple = ()
    modifiers: tuple = ()  # sim.rules.modifiers.RollModifier: its unit's, then its own
    labels: tuple[str, ...] = ()  # its own inert labels (abilities the engine does not implement)
    # the keys of the rules of sim.rules.effects it holds (its unit's, then its own)
    rules: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class UnitSpec:
    id: str
    name: str
    owner: int
    models: tuple[ModelSpec, ...]
    advanced: bool = False
    fell_back: bool = False
    charged: bool = False
    moved: float = 0.0
    ranged_attacks_last_turn: bool = False
    allocation_order: tuple[str, ...] = ()
    reserves: bool = False  # 20.01 starts in strategic reserves (a battle with a mission)
    labels: tuple[str, ...] = ()  # inert labels for every model: abilities the engine does not implement
    points: int | None = None  # informative (an imported roster's points); no rule reads it
    can_lead: tuple[str, ...] = ()  # 19.01 the datasheets it can lead, by name (an imported Leader list)
    transport: object = None  # 18.01 a TRANSPORT's capacity (sim.rules.transport.Capacity), None: carries none
    embarked: str | None = None  # 26 step 7 the transport it starts embarked in (its unit id)
    # False: a unit of a battle deployed by the rules whose file gives no positions (its models
    # wait in a block until set up, 26 step 8); True: positions given (there, its owner's plan)
    planned: bool = True
    # 19.01 as written: the bodyguard unit (its id) this unit joins as leader or support; and, of
    # an attached unit the loader made (sim.scenario.attach), the units it was made of as
    # written, the bodyguard first (their models are in ``models``, the others' with role leader
    # or support)
    leads: str | None = None
    parts: tuple["UnitSpec", ...] = ()
    # 26 step 7 a half of a unit a transport's rule split (sim.scenario.split): (that transport's
    # id, the other half's id, the unit's name as written); None: not split. ``split_by`` as
    # written, before the split
    split: tuple[str, str, str] | None = None
    split_by: str | None = None


@dataclass(frozen=True, slots=True)
class ScriptStep:
    """One scripted step: the action as written (validated shape) and its decisions; it becomes
    a Command against the live battle (sim.scenario.script_run.to_command)."""

    action: dict
    decisions: dict = field(default_factory=dict)
    where: str = ""  # e.g. "script[2]"


@dataclass(frozen=True, slots=True)
class Army:
    name: str
    colour: tuple[int, int, int]
    rules: tuple[str, ...] = ()  # keys of the army and detachment rules (sim.rules.effects) every unit holds
    # the choices of its rules in force when the battle starts: (rule key, the enemy unit id picked
    # or True for a rule called), as a scenario sets a unit's state (``charged``)
    chosen: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True, slots=True)
class ScenarioSpec:
    name: str
    description: str
    seed: int
    board: tuple[float, float]
    terrain: tuple  # sim.rules.terrain.TerrainArea
    armies: tuple[Army, ...]
    units: tuple[UnitSpec, ...]
    weapons: dict  # name -> WeaponProfile
    script: tuple[ScriptStep, ...]
    path: str = ""
    digest: str = ""
    mission: object = None  # sim.phases.state.MissionSpec; None = free play
