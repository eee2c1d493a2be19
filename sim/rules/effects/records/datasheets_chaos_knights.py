"""Datasheet abilities of Chaos Knights (their War Dog auras above all): one record each, in our
own words (sim.rules.effects.vocabulary)."""

from sim.rules.effects.records._kit import ability, aura, bearer, ds, mod, reroll, when
from sim.rules.effects.vocabulary import ONES, PICK_ENEMY, UNTIL_NEXT_CHOICE, RuleChoice

KNIGHTS = "Chaos Knights"
WAR_DOG = ("WAR DOG",)
_QUARRY = RuleChoice(PICK_ENEMY, "command", "Pick this model's quarry among the enemy units", UNTIL_NEXT_CHOICE, uses=1)
_ONE_QUARRY = ("the quarry is picked once, in the first Command phase, and not replaced when destroyed; one "
               "quarry per army for this ability")

RECORDS = (
    # --- Chaos Knights -----------------------------------------------------------------------------
    ds("consumed-with-hunger", "Consumed with Hunger (Aura)",
       "WAR DOG models within 6\" may re-roll hit rolls against TITANIC or TOWERING units.",
       aura(reroll("hit"), 6, when(target_keyword="TITANIC"), keywords=WAR_DOG),
       aura(reroll("hit"), 6, when(target_keyword="TOWERING"), keywords=WAR_DOG),
       ids=('c43b-6529-75b4-457a',), faction=KNIGHTS),
    ds("offerings-for-the-dark-gods", "Offerings for the Dark Gods (Aura)",
       "WAR DOG models within 6\" have [SUSTAINED HITS 1] on ranged weapons.",
       aura(ability("SUSTAINED HITS 1"), 6, when("ranged"), keywords=WAR_DOG),
       ids=('75f4-754b-632e-ccb7',), faction=KNIGHTS),
    ds("dark-fervour", ("Dark Fervour (Aura)", "Huntmaster (Aura)"),
       "WAR DOG models within 6\" have [ASSAULT] on ranged weapons.",
       aura(ability("ASSAULT"), 6, when("ranged"), keywords=WAR_DOG),
       ids=('73ac-6b3a-8480-d08a', 'd211-dc16-2bb6-90f7'), faction=KNIGHTS),
    ds("preysight", "Preysight (Aura)",
       "WAR DOG models within 6\" have [IGNORES COVER] on ranged weapons.",
       aura(ability("IGNORES COVER"), 6, when("ranged"), keywords=WAR_DOG),
       ids=('fde0-47bb-5767-5537',), faction=KNIGHTS),
    ds("taskmaster", "Taskmaster (Aura)",
       "WAR DOG models within 9\" re-roll ranged hit rolls of 1.",
       aura(reroll("hit", ONES), 9, when("ranged"), keywords=WAR_DOG),
       ids=('fe14-c4c9-0210-2cd0',), faction=KNIGHTS),
    ds("frenzied-rampage", "Frenzied Rampage (Aura)",
       "WAR DOG models within 9\" re-roll melee hit rolls of 1.",
       aura(reroll("hit", ONES), 9, when("melee"), keywords=WAR_DOG),
       ids=('0e4f-8cca-c666-dbf8',), faction=KNIGHTS),
    ds("dread-dominion", "Dread Dominion (Aura)",
       "WAR DOG models within 9\" have Leadership and Objective Control 1 better.",
       aura(mod("Ld", 1), 9, keywords=WAR_DOG), aura(mod("OC", 1), 9, keywords=WAR_DOG),
       ids=('246f-e1c4-6335-20d1',), faction=KNIGHTS),
    ds("obsessive-ruthlessness", "Obsessive Ruthlessness",
       "Ranged attacks at MONSTER or VEHICLE units have [DEVASTATING WOUNDS].",
       bearer(ability("DEVASTATING WOUNDS: MONSTER/VEHICLE"), when("ranged")),
       ids=('dd85-4783-c495-ca01',), faction=KNIGHTS),
    ds("huntsman", ("Huntsman", "Fiend Slayer"),
       "Attacks at MONSTER or VEHICLE units may re-roll the wound roll.",
       bearer(reroll("wound"), when(target_keyword="MONSTER")), bearer(reroll("wound"), when(target_keyword="VEHICLE")),
       ids=('6e59-6cc9-5270-3482', 'f8ed-1216-e13d-3fdd'), faction=KNIGHTS),
    ds("executioner", "Executioner",
       "+1 to hit against units below half-strength.",
       bearer(mod("hit", 1), when(target_below_half=True)),
       ids=('7e36-46d2-4914-c4af',), faction=KNIGHTS,
       partial="the Battle-shock tests forced when it destroys a unit are not modelled"),
    ds("interceptor", "Interceptor",
       "Ranged attacks at units that can FLY get +1 to hit.",
       bearer(mod("hit", 1), when("ranged", target_keyword="FLY")),
       ids=('abbf-56ef-4bbb-e773', 'abf1-339a-bac5-4830', 'b8d7-10fe-72ed-72bc', 'e615-b2f4-20b6-85c3',
            'f00b-12b3-9b91-270e', 'f531-b188-9179-2f5a'), faction=KNIGHTS),
    ds("methodical-destruction", "Methodical Destruction",
       "Pick a victim at the start: this model's attacks at it may re-roll the wound roll.",
       bearer(reroll("wound"), when(target_chosen=True)),
       ids=('18c3-bb63-3d2b-10fa',), faction=KNIGHTS, choice=_QUARRY, partial=_ONE_QUARRY),
    ds("monarch-of-the-hunt", "Monarch of the Hunt",
       "Pick a quarry at the start: this model's melee attacks at it may re-roll hit and wound rolls.",
       bearer(reroll("hit"), when("melee", target_chosen=True)),
       bearer(reroll("wound"), when("melee", target_chosen=True)),
       ids=('712d-b14d-a795-ba99', 'bfdd-9874-4432-5d1c'), faction=KNIGHTS, choice=_QUARRY, partial=_ONE_QUARRY),
    ds("a-challenge-worthy-of-skill", "A Challenge Worthy of Skill",
       "Attacks at CHARACTER, MONSTER or WALKER units may re-roll hit and wound rolls.",
       *(bearer(reroll(r), when(target_keyword=k)) for k in ("CHARACTER", "MONSTER", "WALKER")
         for r in ("hit", "wound")),
       ids=('01a5-5e86-b905-a68c',), faction=KNIGHTS),
)
