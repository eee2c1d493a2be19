"""Datasheet abilities of xenos factions (Orks, Tyranids, Genestealer Cults, Necrons, Leagues of
Votann) and of the unaligned fortifications every catalogue may take: one record each, in our own
words (sim.rules.effects.vocabulary)."""

from sim.rules.effects.records._kit import ability, aura, bearer, ds, enemy_aura, fnp, invuln, led, mod, reroll, unit, when
from sim.rules.effects.vocabulary import ONES

ORKS, NIDS, GSC, UNALIGNED = "Orks", "Tyranids", "Genestealer Cults", "Unaligned Forces"

RECORDS = (
    # --- Orks ----------------------------------------------------------------------------------
    ds("more-dakka", "More Dakka",
       "While leading, the unit re-rolls ranged hit rolls of 1.",
       led(reroll("hit", ONES), "ranged"),
       ids=('4c4-6591-d937-ac05', '6e21-b063-bf40-57af', 'a2ce-292e-f4ca-78ca', 'ae52-f631-b301-c1f3', 'db2b-7a43-7a2d-14ca'), faction=ORKS),
    ds("might-is-right", ("Might is Right", "Speedboss"),
       "While leading, the unit gets +1 to hit in melee.",
       led(mod("hit", 1), "melee"),
       ids=('1cd0-7589-b11f-2830', '2a90-5b01-924f-d72c', '84d7-7bf4-8f5f-a79c', 'b69d-41f0-d640-64'), faction=ORKS),
    ds("doks-toolz", "Dok’s Toolz",
       "While leading, the unit has Feel No Pain 5+.",
       led(fnp(5)),
       ids=('4702-4e9d-f8ee-1826', 'b339-20ed-75ec-eea5', 'ca5b-4050-c32a-7fa'), faction=ORKS),
    ds("volley-fire", "Volley Fire",
       "While leading, the unit's ranged weapons get +1 Attacks.",
       led(mod("A", 1), "ranged"),
       ids=('44e0-f176-3cd1-114b', '5fe0-afe2-451c-38d2'), faction=ORKS),
    ds("death-totem", "Death Totem",
       "The bearer re-rolls melee hit rolls of 1.",
       bearer(reroll("hit", ONES), when("melee")),
       ids=('970c-3a08-c8df-0557', 'a661-be27-a2d2-caa7'), faction=ORKS),
    # --- Tyranids and Genestealer Cults -----------------------------------------------------------
    ds("alpha-warrior", "Alpha Warrior",
       "While leading, the unit's weapons have [SUSTAINED HITS 1].",
       led(ability("SUSTAINED HITS 1")),
       ids=('a4ec-5941-e494-6ed0', 'dece-0e85-25f7-c68f'), faction=NIDS),
    ds("alpha-invader", "Alpha Invader",
       "The unit's weapons have [SUSTAINED HITS 1].",
       unit(ability("SUSTAINED HITS 1")),
       ids=('5021-8bf2-f214-c0ad',), faction=NIDS),
    ds("fear-of-the-unseen", "Fear of the Unseen (Aura)",
       "Enemy units within 6\" have Leadership 1 worse.",
       enemy_aura(mod("Ld", -1), 6),
       ids=('5bd7-b7c-42a4-3055',), faction=NIDS,
       partial="the Battle-shock test forced on such units below starting strength is not modelled"),
    ds("bestial-prophet", ("Bestial Prophet", "Cult Demagogue"),
       "While leading, the unit gets +1 to hit.",
       led(mod("hit", 1)),
       ids=('2b0d-53da-81d7-5f40', '4941-832c-725a-4ab4', '6a64-5c0f-6b5f-15e2', 'e6fd-1844-f9b2-6f07'), faction=GSC),
    # --- Necrons, Leagues of Votann ---------------------------------------------------------------
    ds("necrodermis", "Necrodermis",
       "Each attack allocated to this model has its Damage reduced by 1.",
       bearer(mod("damage taken", -1)),
       ids=('61c9-1b37-b067-44ba',), faction="Necrons"),
    ds("firebase-control", "Firebase Control (Aura)",
       "LEAGUES OF VOTANN INFANTRY units within 6\" of the transport have [SUSTAINED HITS 1] on ranged weapons.",
       aura(ability("SUSTAINED HITS 1"), 6, when("ranged"), keywords=("LEAGUES OF VOTANN", "INFANTRY")),
       ids=('d890-09df-9ccc-0d3b',), faction="Leagues of Votann",
       partial="the unit need only be within 6\", not wholly within"),
    # --- unaligned fortifications ---------------------------------------------------------------
    ds("drone-commander", "Drone Commander (Aura)",
       "SPINDLE DRONES units within 6\" add 1 to their hit rolls.",
       aura(mod("hit", 1), 6, keywords=("SPINDLE DRONES",)),
       ids=('6177-edd5-89f8-10f0',), faction=UNALIGNED),
    ds("disruptive-influence", "Disruptive Influence (Aura)",
       "Enemy units within 6\" subtract 1 from their Battle-shock tests.",
       enemy_aura(mod("battle-shock", -1), 6),
       ids=('6e34-22d9-a4ab-22ad',), faction=UNALIGNED, partial="the -1 to their Leadership tests is not modelled"),
    ds("projected-void-shields", "Projected Void Shields (Aura)",
       "Friendly models within 6\" of the fortification have a 4+ invulnerable save against ranged attacks.",
       aura(invuln(4), 6, when("ranged")),
       ids=('37d7-4c6f-14e0-42c0',), faction=UNALIGNED, partial="models need only be within 6\", not wholly within"),
    ds("inviolable-bastion", "Inviolable Bastion",
       "Each attack allocated to the fortification has its Damage reduced by 1.",
       bearer(mod("damage taken", -1)),
       ids=('f194-faba-c927-ba75',), faction=UNALIGNED),
)
