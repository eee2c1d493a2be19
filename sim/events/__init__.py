"""Events: what happened, as JSON-safe dicts with a ``type``. The battle report, the replay log
and the sandbox's log panel are all views of the event stream.

This package is the events' one home. Here: each event type's name (the value of its "type"
field), which emit sites and readers use, never the string itself (tests/events checks no
module outside this package compares an event's type to a string). Each type's fields are
declared once, as a TypedDict: sim.events.core (commands, dice, decisions), attacks, moves,
rounds and pre_battle; sim.events.declared is the table from name to declaration, and checks an event
against it. README, "Events", says how to add one."""

from __future__ import annotations

# Event types (the values are the "type" field); each is declared in one of the modules above.
DICE = "dice"
COMMAND = "command"
REFUSED = "refused"
SHOOTING_TYPE = "shooting type"
WEAPONS_SELECTED = "weapons selected"
POOL = "pool"
HITS = "hit rolls"
WOUNDS = "wound rolls"
ALLOCATION = "allocation order"
PRECISION = "precision"
SAVES = "save rolls"
DAMAGE = "damage"
MORTAL = "mortal wounds"
DESTROYED = "model destroyed"
UNIT_DESTROYED = "unit destroyed"
HAZARD = "hazard rolls"
ATTACKS_DONE = "attacks resolved"
MOVED = "moved"
MOVE_NOT_MADE = "move not made"  # a free-play advance whose roll left it illegal (03.01)
TURN = "turn"
DECISION = "decision"
DEADLY_DEMISE = "deadly demise"
LEFT_OUT = "left out"  # models a script step's targets shorthand did not select (sim.players.runner)

# a whole battle (sim.phases)
BATTLE_START = "battle start"
ROUND = "round"
PLAYER_TURN = "player turn"
PHASE = "phase"
STEP = "step"
CP = "cp"
BATTLE_SHOCK = "battle-shock"
STATIONARY = "remained stationary"
SELECTED_TO_MOVE = "selected to move"
CHARGE = "charge"
PILED_IN = "piled in"
CONSOLIDATED = "consolidated"
FIGHT_PASS = "fight pass"
COHERENCY_REMOVED = "coherency removal"
CONTROL = "control"
VP = "vp"
RESULT = "result"
STRATAGEM = "stratagem"
EXPLOSIVES = "explosives"  # 15.05 the six D6 and the mortal wounds they inflict
INGRESS = "ingress"
OVERRUN = "overrun fight"  # 12.06 a unit selected to fight with the overrun fight type
CRUSHING_IMPACT = "crushing impact"  # 15.06 the dice and the mortal wounds they inflict
RULE_EFFECT = "rule effect"  # a datasheet ability's, army or detachment rule's effect outside an attack
RULE_CHOICE = "rule choice"  # a choice a rule asks of its player, made (or expired)
PSYCHIC_TEST = "psychic test"  # a ritual attempted: the Psychic test's dice, perils and whether it was manifested
OATH = "oath sworn"  # an army's oath before the battle: its deed and quality (sim.phases.oaths)
DEED = "deed"  # an oath's deed judged at its moment: done (the army is Honoured and gains CP) or not yet
OATH_TARGET = "oath target"  # the enemy CHARACTER model a deed names, picked at the start of the battle
DICE_POOL = "dice pool"  # a die gained into a rule's pool (Miracle dice), or spent for a roll
EMBARKED = "embarked"  # 18.02 a unit embarked in a transport right after its move
DISEMBARKED = "disembarked"  # 18.04 / 18.05 a unit set up out of its transport, in a mode
DESTROYED_EMPTY = "empty transport destroyed"  # 18.01 a DEDICATED TRANSPORT that starts the battle empty

# before battle round 1, in a battle deployed by the rules (sim.phases.pre_battle)
ROLES = "roles"  # 26 step 5 who is Attacker and who Defender
PRE_BATTLE = "pre-battle step"  # 26 steps 7, 8, 11: the step that takes commands now
FORMATIONS = "battle formations"  # 26 step 7 a player's declared formations, revealed
DEPLOYED = "deployed"  # 26 step 8 a unit set up in the deployment
SCOUTED = "scouted"  # 24.31 / 24.32 a unit's pre-battle Scouts move (or set-up from reserves)
