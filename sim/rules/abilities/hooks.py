"""24 The effects the engine knows how to give an ability: the vocabulary the ability registry
(sim.rules.abilities.registry) writes its records in.

Planning, the systems and the sandbox ask whether a weapon or a model has one of these hooks,
never for an ability by its name. A new ability whose effect is one the engine already knows
is one registry record (and its tests); a new kind of effect is a new hook here, read where the
rules apply it. The values are readable phrases (they show in the sandbox's ability help)."""

from __future__ import annotations


class Hook:
    """Hook names (plain strings: cheap to hash, as the attack path tests them per weapon)."""

    # 10 shooting types, 04.01 Select Weapons and 04.02 Select Targets
    SHOOTS_AFTER_ADVANCING = "can shoot after advancing (10.05)"
    CLOSE_QUARTERS = "a close-quarters weapon (10.06, 24.07)"
    INDIRECT = "can shoot at unseen targets (10.07)"
    NOT_AT_ENGAGED = "never at a unit engaged with the shooter (10.06, 17.03)"
    DENIES_COVER = "denies the benefit of cover (13.08)"
    ONCE_PER_BATTLE = "selected once per battle"
    EXTRA_WEAPON = "a melee weapon used on top of another (04.01)"
    # 05 the attack sequence
    IGNORES_MODIFIERS = "may ignore harmful hit and BS/WS modifiers"
    PRECISION = "may be allocated to a visible CHARACTER (05.03)"
    HAZARD_ROLL = "a hazard roll after attacking (06.03)"
    CRITICAL_WOUND_MORTALS = "critical wounds become mortal wounds (06.02)"
    CRITICAL_HIT_EFFECT = "a critical hit does more than a hit (05.01)"
    AUTOMATIC_HITS = "hits automatically: no hit roll, so no BS/WS needed"
    HALF_RANGE = "a bonus when the target is within half range"  # (a front end draws half range)
    # set for a weapon by the registry from a record's callables (see AbilityDef)
    ADDS_DICE = "adds attack dice (04.03 step 2)"
    ADDS_DAMAGE = "adds damage"
    PLAN_MODIFIER = "a hit or wound modifier worked out when the target is picked"
    # unit and model abilities
    IGNORES_WOUNDS = "may ignore each wound lost (24.12)"
    COVER_FOR_ALL = "cover against ranged attacks when every model has it"
    DETECTION_LIMIT = "visible and targetable only from close by"
    HIT_PENALTY_WHEN_LOW = "-1 to hit while few wounds remain"
    FIGHTS_IN_FIRST_STEP = "fights in the first fighting step (12.04)"
    EXPLODES = "mortal wounds around it when destroyed"
    NO_SKY_PENALTY = "takes to the skies without losing 2\" of move (21.03)"
    ARRIVES_ANYWHERE = "set up by an ingress move anywhere far enough from the enemy (24.09)"
    DEPLOYS_FORWARD = "deployed anywhere far enough from the enemy and its zone (24.20)"
    SCOUT_MOVE = "a move of X\" before the battle (24.31, 24.32)"
    CROSSES_TALLER = "crosses dense features of 4\" or less in normal, advance and fall-back moves (24.35)"
    LEADS = "may lead a friendly bodyguard unit: one attached unit (19.01)"
    SUPPORTS = "may join a friendly bodyguard unit as its support: one attached unit (19.01)"
