"""The per-battle resources the world queries and mutations read besides the esper components.

Each Battle owns one ``Resources`` (``battle.resources``) and installs it whenever it enters its
esper world (``Battle._enter``), the way esper switches its own world: so a query reaches the
current battle's spatial index with one attribute read, with no module-level table of battles
and no look-up by world name on the attack path. ``current`` is that pointer and nothing else:
what it points to belongs to the Battle, which uninstalls it when it closes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.world.spatial import SpatialIndex


@dataclass(slots=True)
class Resources:
    # distances between every pair of models, 03.04 engagement, and the per-unit answers
    # derived from who is on the battlefield (sim.world.spatial); built with the world
    spatial: SpatialIndex = field(metadata={
        "cache": "derived from the models' positions and removals; its one record of its own, "
                 "the units off the table (off_table), is hashed as the state's reserves (those not "
                 "embarked) and the embarked units' UnitState.embarked_in"})
    # 05.04.04 models destroyed and not yet removed from the table, in the order destroyed:
    # mutations.mark_destroyed adds them, mutations.remove_casualties takes them away
    casualties: list[int] = field(default_factory=list, metadata={"ids": "model"})
    # 26 step 8 units not yet set up: off the battlefield (in the spatial index's off_table,
    # as strategic reserves are) until their Deploy command, in a battle deployed by the rules
    undeployed: set[int] = field(default_factory=set, metadata={"ids": "unit"})
    # some unit holds a rule of sim.rules.effects (a UnitRules component): else every query of
    # sim.world.rule_effects answers nothing at once
    has_rules: bool = field(default=False, metadata={"cache": "fixed by the scenario (its units' rules)"})
    # the choices rules asked of their players (sim.rules.effects.vocabulary.RuleChoice), by
    # "<player>:<rule key>": {"value": the enemy unit id picked or True once called, "round": the
    # battle round, "player": whose turn it was made in}
    # and the rituals in force (sim.phases.rituals), by "<player>:<ritual key>", with "result" (the
    # Psychic test's total) and "ritual" (its key) besides; they end with the phase
    rule_choices: dict = field(default_factory=dict)
    # uses made of rules limited per battle, by "<player>:<rule key>"
    rule_uses: dict = field(default_factory=dict)
    # the oaths sworn (sim.rules.effects.oaths), by player name: {"deed", "quality" (keys),
    # "random" (a part rolled), "cp" (gained when fulfilled), "target" (TYRANT's model id, once picked),
    # "fulfilled" (the battle round it was, once it is)}; empty (unhashed) in a battle without one
    oaths: dict = field(default_factory=dict)
    # the dice each army's rule keeps in its pool (GAIN_DICE, SUBSTITUTE: Miracle dice), by
    # "<player>:<rule key>": their values, in the order gained (hashed once a die is gained)
    dice_pools: dict = field(default_factory=dict)
    # every (holding unit, held rule, aura grant) of the battle (sim.world.rule_effects), listed
    # on first use
    rule_auras: tuple | None = field(default=None, metadata={"cache": "fixed by the scenario (its units' rules)"})
    # the kinds of grant the battle's rules can make (sim.world.rule_effects.kinds_held), listed on
    # first use
    rule_kinds: frozenset | None = field(default=None, metadata={"cache": "fixed by the scenario (its units' rules)"})
    # in a battle with rules, sim.world.rule_reads.conferred_hooks (the hooks of the unit abilities
    # rules confer on a unit now), which queries.every_model_has reads; None without rules
    conferred: object = field(default=None, metadata={"cache": "fixed by the scenario (its units' rules)"})
    # what rules remember of the battle besides choices and uses (hashed once set): by
    # "<player>:<rule key>|marked" the unit id a MARK grant moved the rule's mark to; by "<unit id>|engaged at
    # start" {"turn": "<round>.<active player>", "units": [enemy unit ids]} for a unit an ELIGIBLE grant reaches
    rule_marks: dict = field(default_factory=dict)


current: Resources | None = None  # the installed battle's (Battle._enter), else None


def install(resources: Resources | None) -> None:
    """Make ``resources`` the current battle's (None: no battle's)."""
    global current
    current = resources
