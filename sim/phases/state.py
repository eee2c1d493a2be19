"""Named state of a whole battle (07): the round, the active player, the phase and step, each
player's CP and VP, objective control, and the per-phase bookkeeping the phase rules read. One
``TurnState`` per battle (``battle.turn_state``); None in free play."""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.rules.mission import VPTally
from sim.rules.turn import FightStep, Phase, PreBattleStep  # (the vocabulary's home; named here for the phase machine)

__all__ = ["FightStep", "Phase", "PreBattleStep", "ObjectiveSpec", "MissionSpec", "TurnState", "DEPLOYMENTS"]

DEPLOYMENTS = ("placed", "rules")  # how a battle's armies reach the table (MissionSpec.deployment)


@dataclass(frozen=True, slots=True)
class ObjectiveSpec:
    """14.01.01 An objective marker (40 mm disc) at (x, y); ``kind`` home/central/expansion,
    ``owner`` the army whose home it is (None otherwise)."""

    name: str
    x: float
    y: float
    kind: str
    owner: int | None = None


@dataclass(frozen=True, slots=True)
class MissionSpec:
    """26 The mission a scenario plays (Part A rulings 20-24): Battlefield Dominance over
    ``rounds`` battle rounds, the first player (an army index, or None for the roll-off of
    26 step 10), the Defender (deploys in the zone at y = 0-12, ruling 22), objectives and
    deployment zones, and who plays each side headless."""

    name: str = "battlefield dominance"
    rounds: int = 5
    first: int | None = None
    defender: int = 0
    objectives: tuple[ObjectiveSpec, ...] = ()
    zones: tuple[tuple[tuple[float, float], ...], ...] = ()  # per army: a polygon
    players: tuple[str, str] = ("scripted", "scripted")
    deployed: bool = True  # the battle starts at the beginning: every unit is wholly in its zone
    # "placed": the units start where the scenario puts them (26 steps 5-9 done beforehand);
    # "rules": the battle begins with 26 steps 5-11 (roles, battle formations, deployment,
    # the first-turn roll-off, pre-battle rules), the players' commands setting every unit up
    deployment: str = "placed"
    roles_rolled: bool = False  # 26 step 5 by the roll-off (a "rules" deployment naming no defender)
    size: str = "strike force"  # the battle size (sim.rules.effects.vocabulary.BATTLE_SIZES)
    # per army: which Command Re-roll questions its player is asked (sim.rules.command_reroll.ASK)
    command_reroll: tuple[str, str] = ("always", "always")


@dataclass(slots=True)
class TurnState:
    """Where the battle is (07) and what each player has (08.02 CP, 26 VP, 14.02 control).

    Every field is in the state hash unless marked ``cache`` (sim.world.state_hash); ``ids:
    unit`` fields hold unit entities (shown by unit id); ``reset: phase`` fields go back to
    their defaults when a phase begins (battle_round._enter, and the End of turn)."""

    mission: MissionSpec = field(metadata={"cache": "fixed by the scenario (its digest is in the log's header)"})
    # sim.rules.objectives.Objective, in the mission's order
    objectives: tuple = field(default=(), metadata={"cache": "fixed by the scenario, like the mission"})
    round: int = 0  # 0 before the battle starts
    first: int = 0  # the player who goes first in every round (07.02)
    active: int = 0  # whose turn it is
    phase: Phase = Phase.COMMAND
    step: FightStep | None = field(default=None, metadata={"reset": "phase"})  # Fight phase only
    chooser: int = 0  # who submits the next command (the active player outside the Fight phase)
    fights_first_step: bool = True  # 12.04 sequence step 1 (Fights First) or step 2
    cp: list[int] = field(default_factory=lambda: [0, 0])
    vp: list[int] = field(default_factory=lambda: [0, 0])
    tallies: list = field(default_factory=lambda: [VPTally(), VPTally()])  # 26 VP booked, per player
    control: dict = field(default_factory=dict)  # objective name -> ObjectiveControl (14.02)
    # 12.04 "at the start of this step"
    engaged_at_fight_step: set[int] = field(default_factory=set, metadata={"ids": "unit", "reset": "phase"})
    # 12.08 "was eligible to fight this phase"
    eligible_this_phase: set[int] = field(default_factory=set, metadata={"ids": "unit", "reset": "phase"})
    # 12.04.01 the players who have passed in succession since the last fight (or the start of
    # the Fight step): 1 after a pass, and still 1 after the same player's next pass in a row
    # (the pick came back to them: the other player could not pick); 2, when the other player
    # passes next, ends the Fight step
    fight_passes: int = 0
    # unit -> models (01.02.01)
    starting_strength: dict[int, int] = field(default_factory=dict, metadata={"ids": "unit"})
    # 15.01 stratagem limits, per player: names used this phase, units targeted this phase,
    # names used this battle (once-per-battle ones)
    stratagems_used: tuple = field(default_factory=lambda: ([], []), metadata={"reset": "phase"})
    stratagem_targets: tuple = field(default_factory=lambda: ([], []), metadata={"reset": "phase"})
    once_per_battle: tuple = field(default_factory=lambda: ([], []))
    # 15.12 the unit a Counteroffensive makes the next pick
    forced_pick: int | None = field(default=None, metadata={"ids": "unit"})
    # 15.10 units a Smokescreen covers this phase
    smoke: list[int] = field(default_factory=list, metadata={"ids": "unit", "reset": "phase"})
    # 12.08 (errata) enemy units a consolidation engaged that had not fought: each is selected
    # to fight by its player, one at a time, before the Consolidate step goes on
    pending_fights: list[int] = field(default_factory=list, metadata={"ids": "unit"})
    # 09.02 / 11.02 units are moved and charge one at a time: the unit selected to move (or
    # that declared a charge) whose move is not made yet
    in_progress: int | None = field(default=None, metadata={"ids": "unit", "reset": "phase"})
    resume_chooser: int | None = None
    # 12.06 the unit selected for an overrun fight (its extra pile-in made): its fight is next
    overrun: int | None = field(default=None, metadata={"ids": "unit", "reset": "phase"})
    # 15.03 until the end of the phase: model id -> the hooks of the abilities its melee
    # weapons gained (Epic Challenge: the one of [PRECISION]); read when a fight is planned
    melee_gains: dict[str, tuple[str, ...]] = field(default_factory=dict, metadata={"reset": "phase"})
    over: bool = False
    result: str | None = None  # "red", "blue" or "draw" once over
    # --- 26 steps 5-11, before battle round 1 (a battle whose mission deploys by the rules) ---
    pre_battle: PreBattleStep | None = None  # the step that takes commands now
    defender: int | None = None  # 26 step 5 as the roll-off's winner chose (None: the mission's)
    # 26 step 7 each player's declared battle formations once made: {"reserves": [unit ids]}
    formations: list = field(default_factory=lambda: [None, None])
    deploy_skips: list[bool] = field(default_factory=lambda: [False, False])  # 26 step 8 TITANIC
    pre_battle_done: list[bool] = field(default_factory=lambda: [False, False])  # 26 step 11 passed
    scouted: list[int] = field(default_factory=list, metadata={"ids": "unit"})  # 24.31 used once

    def the_defender(self) -> int:
        """26 step 5 The Defender's army index (the roll-off's choice, else the mission's)."""
        return self.mission.defender if self.defender is None else self.defender

    def zones(self) -> tuple:
        """Each army's deployment zone polygon (by army index): the mission's, written for its
        ``defender``; when the roll-off made the other army the Defender, the zones swap with
        the roles (26 step 5)."""
        z = self.mission.zones
        if not z or self.the_defender() == self.mission.defender:
            return z
        return (z[1], z[0])
