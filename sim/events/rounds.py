"""The events of a battle with a mission: the battle round, its turns, phases and Fight-phase
steps (07, 12.01), the Command phase (08), stratagems (15), objectives and victory points (14,
26). Declarations only (sim.events.schema says how to read them)."""

from typing import Annotated, NotRequired

from sim import events as ev
from sim.events.core import Event
from sim.events.schema import registrar

DECLARED: dict[str, type] = {}
declare = registrar(DECLARED)


@declare(ev.BATTLE_START)
class BattleStart(Event):
    """07 The battle starts: who takes the first turn (the roll-off's dice before it)."""

    first: Annotated[str, "the player who goes first"]
    rounds: Annotated[int, "the battle rounds the mission lasts"]


@declare(ev.ROUND)
class Round(Event):
    """07 A battle round begins."""

    round: Annotated[int, "its number, from 1"]


@declare(ev.PLAYER_TURN)
class PlayerTurn(Event):
    """07 A player's turn begins."""

    round: Annotated[int, "the battle round"]
    player: Annotated[str, "the player whose turn it is"]


@declare(ev.PHASE)
class Phase(Event):
    """07 A phase begins (the End of turn counts as one)."""

    round: Annotated[int, "the battle round"]
    player: Annotated[str, "the active player"]
    phase: Annotated[str, "the phase (sim.rules.turn.Phase: 'command', ..., 'end of turn')"]


@declare(ev.STEP)
class Step(Event):
    """12.01 A step of the Fight phase begins, or goes to the other player to choose; 12.08
    enemy units engaged by a consolidation are selected to fight first."""

    step: Annotated[str, "the step (sim.rules.turn.FightStep: 'pile in', 'fight', 'consolidate')"]
    player: Annotated[str, "the player who chooses now"]
    units: NotRequired[Annotated[list[str], "the units selected to fight by 12.08"]]
    rule: NotRequired[Annotated[str, "'12.08', with units"]]


@declare(ev.FIGHT_PASS)
class FightPass(Event):
    """12.04.01 A player passes in the Fight step."""

    player: Annotated[str, "the player who passes"]


@declare(ev.CP)
class CP(Event):
    """08.02 Command points gained."""

    gained: Annotated[int, "the CP each player gains"]
    cp: Annotated[dict[str, int], "each player's CP after"]
    source: Annotated[str, "why ('08.02 core CP')"]
    player: NotRequired[Annotated[str, "the one player who gains them (a rule's CP); absent: each player"]]


@declare(ev.BATTLE_SHOCK)
class BattleShock(Event):
    """01.07 / 08.03 A battle-shock test: a Leadership roll, or passed without one (15.04)."""

    unit: Annotated[str, "the unit's id"]
    roll: Annotated[int | None, "the 2D6's total; null: passed automatically (note says why)"]
    needed: Annotated[int, "the unit's best Leadership (the target number)"]
    passed: Annotated[bool, "the test was passed"]
    battle_shocked: Annotated[bool, "the unit is battle-shocked after it"]
    strength: NotRequired[Annotated[str, "the unit's strength (sim.rules.command: 'at half', ...)"]]
    note: NotRequired[Annotated[str, "what made the test (a Desperate Escape), or passed it (Insane Bravery)"]]


@declare(ev.RULE_EFFECT)
class RuleEffect(Event):
    """A rule's effect outside the attack sequence (sim.systems.rule_effects): a roll or
    characteristic it changed, a re-roll it gave, mortal wounds it set off, wounds regained
    and models returned."""

    rule: Annotated[str, "the rule's name"]
    unit: Annotated[str, "the unit it acted on (or for)"]
    effect: Annotated[str, "what it did, in words"]
    roll: NotRequired[Annotated[str, "the roll it changed or re-rolled ('advance', 'charge', 'battle-shock')"]]
    dice: NotRequired[Annotated[list[int], "the dice before a re-roll"]]
    to: NotRequired[Annotated[list[int], "the dice after a re-roll"]]
    target: NotRequired[Annotated[str, "the unit that suffers mortal wounds"]]
    healed: NotRequired[Annotated[dict[str, int], "wounds regained, by model id"]]
    returned: NotRequired[Annotated[list[str], "the models returned, in order"]]


@declare(ev.RULE_CHOICE)
class RuleChoice(Event):
    """A choice a rule asks of its player (RuleChoice): made at the start of a phase, or
    expired."""

    rule: Annotated[str, "the rule's name"]
    player: Annotated[str, "the player whose rule it is"]
    value: Annotated[str | bool | list[str] | None, "the enemy unit picked (the friendly units picked: a list), true "
                     "when called, false when not; null: expired"]
    unit: NotRequired[Annotated[str, "the unit whose datasheet ability it is (each unit holding one chooses apart)"]]
    dice: NotRequired[Annotated[list[int], "the dice rolled for a dice options choice (Blessings of Khorne)"]]


@declare(ev.DICE_POOL)
class DicePool(Event):
    """A die gained into a rule's pool (GAIN_DICE: rolled as gained, kept), or one spent to stand
    for a die of a roll for a unit (SUBSTITUTE: sim.systems.dice_pools)."""

    rule: Annotated[str, "the rule's name"]
    player: Annotated[str, "the player whose pool it is"]
    effect: Annotated[str, "what happened, in words"]
    pool: Annotated[list[int], "the pool's dice after it"]
    gained: NotRequired[Annotated[int, "the die gained (its value)"]]
    spent: NotRequired[Annotated[int, "the die spent (its value)"]]
    unit: NotRequired[Annotated[str, "the unit the die was spent for, or whose destruction gained it"]]
    roll: NotRequired[Annotated[str, "the roll it stood in ('hit', 'wound', 'save', 'charge', 'advance', 'battle-shock')"]]


@declare(ev.PSYCHIC_TEST)
class PsychicTest(Event):
    """A ritual attempted at the start of the Shooting phase (sim.phases.rituals): the Psychic
    test's dice, its perils (a double or triple: D3 mortal wounds to the caster's unit, told by
    the rule effect event before it), and whether the ritual was manifested."""

    rule: Annotated[str, "the rule the caster attempts it by (Cabal of Sorcerers)"]
    ritual: Annotated[str, "the ritual's name"]
    unit: Annotated[str, "the caster's unit"]
    model: Annotated[str, "the caster"]
    target: Annotated[str, "the unit it is attempted at"]
    dice: Annotated[list[int], "the dice rolled (two, or three with the extra die)"]
    total: Annotated[int, "their total: the Psychic test result"]
    needed: Annotated[int, "the ritual's Warp Charge"]
    perils: Annotated[bool, "two or more dice showed the same number"]
    manifested: Annotated[bool, "the caster survived and the total reached the Warp Charge"]


@declare(ev.STRATAGEM)
class Stratagem(Event):
    """15 A stratagem used: its CP paid."""

    player: Annotated[str, "the player using it"]
    stratagem: Annotated[str, "its name"]
    section: Annotated[str, "its rule's section"]
    cp: Annotated[int, "the CP paid"]
    cp_left: Annotated[int, "the player's CP after"]
    target: Annotated[str | None, "the unit it targets"]
    about: Annotated[str, "what it is used for, in words ('charge roll 3', ...); may be empty"]


@declare(ev.CONTROL)
class Control(Event):
    """14.02 An objective's control changes."""

    objective: Annotated[str, "the objective's name"]
    controller: Annotated[str | None, "the player controlling it now; null: nobody"]
    levels: Annotated[dict[str, int], "each player's Objective Control level there"]


@declare(ev.VP)
class VP(Event):
    """26 Victory points scored (Battlefield Dominance), within the caps."""

    player: Annotated[str, "the player scoring"]
    round: Annotated[int, "the battle round"]
    source: Annotated[str, "what scores"]
    scored: Annotated[int, "the VP it is worth"]
    granted: Annotated[int, "the VP booked (less when a cap is reached)"]
    total: Annotated[int, "the player's VP after"]


@declare(ev.RESULT)
class Result(Event):
    """26 The battle ends: most VP wins."""

    vp: Annotated[dict[str, int], "each player's VP"]
    result: Annotated[str, "the winner's name, or 'draw'"]
    rounds: Annotated[int, "the battle rounds played"]


@declare(ev.OATH)
class Oath(Event):
    """An army swore its oath before the battle (sim.rules.effects.oaths): a deed and a quality."""

    rule: Annotated[str, "the rule's name"]
    player: Annotated[str, "the player whose army swore it"]
    deed: Annotated[str, "the deed's name"]
    quality: Annotated[str, "the quality's name"]
    random: Annotated[bool, "the deed or the quality was rolled (the dice before it): one more CP"]


@declare(ev.OATH_TARGET)
class OathTarget(Event):
    """The enemy CHARACTER model an oath's deed names, picked at the start of the battle."""

    rule: Annotated[str, "the rule's name"]
    player: Annotated[str, "the player whose oath it is"]
    model: Annotated[str | None, "the model's id; null: the enemy has no CHARACTER model"]


@declare(ev.DEED)
class Deed(Event):
    """An oath's deed judged at its moment, until it is done: done the first time, the army is
    Honoured until the battle ends (its CP: the cp event after)."""

    rule: Annotated[str, "the rule's name"]
    player: Annotated[str, "the player whose oath it is"]
    deed: Annotated[str, "the deed's name"]
    round: Annotated[int, "the battle round"]
    done: Annotated[bool, "the deed is done (the oath fulfilled)"]
    progress: Annotated[str, "where the deed stands, in words"]
