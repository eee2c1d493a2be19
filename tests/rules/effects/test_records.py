"""The rule records (sim.rules.effects.records): the table builds, every record is written within
the vocabulary, every army rule and first-listed detachment rule of the community data is either
modelled or named here as beyond the vocabulary, and summaries are short one-liners.

(Whether a summary copies the data's prose needs the data, which is not in the repository:
tools/check_records.py checks that against a local copy.)"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from sim.rules.abilities.parse import parse_weapon_abilities
from sim.rules.abilities.value import norm
from sim.rules.effects import table
from sim.rules.effects import vocabulary as V
from sim.rules.effects.conditions import Facts, holds
from sim.rules.effects.records import ALL
from sim.rules.turn import Phase

# Every army rule the community catalogues (wh40k-11e) attach to datasheets: the key of its record,
# or None with why it has none (the part that acts needs a kind the vocabulary lacks).
ARMY_RULES = {
    "Oath of Moment": "oath-of-moment",
    "Waaagh!": "waaagh",
    "Reanimation Protocols": "reanimation-protocols",
    "Harbingers of Dread": "harbingers-of-dread",
    "Nurgle's Gift (Aura)": "nurgles-gift",
    "Martial Ka'tah": "martial-katah",
    "Doctrina Imperatives": "doctrina-imperatives",
    "Templar Vows": "templar-vows",
    "For The Greater Good": "for-the-greater-good",
    "Synapse": "synapse",
    "Prioritised Efficiency": "prioritised-efficiency",
    "The Shadow of Chaos": "the-shadow-of-chaos",
    "Thrill Seekers": "thrill-seekers",
    "Cabal of Sorcerers": "cabal-of-sorcerers",  # its rituals are records of source "ritual"
    "Blessings of Khorne": "blessings-of-khorne",
    "Cult Ambush": "cult-ambush",  # (its markers: the record's partial)
    "Acts of Faith": "acts-of-faith",
    "Gate of Infinity": "gate-of-infinity",
    "Shadow in the Warp": "shadow-in-the-warp",
    "Code Chivalric": "code-chivalric",
    "Assigned Agents": None,  # list building only
    "Mission Tactics": None,  # a pointer to the (missing) Deathwatch detachment rule
}

# The rule of the detachment each faction's catalogue lists first (none for factions whose
# detachments are in catalogues missing from the snapshot): key, or None with why.
FIRST_DETACHMENT_RULES = {
    "Relentless Rage": "relentless-rage",  # World Eaters: Berzerker Warband
    "The Blood of Martyrs": "the-blood-of-martyrs",  # Adepta Sororitas: Hallowed Martyrs
    "Martial Mastery": "martial-mastery",  # Adeptus Custodes: Shield Host
    "Deathwatch Mission Tactics": "deathwatch-mission-tactics",  # Agents: Alien Hunters (Ordo Xenos)
    "Bold Gallantry": "bold-gallantry",  # Imperial Knights: Valourstrike Lance
    "Methodical Annihilation": "methodical-annihilation",  # Leagues of Votann: Hearthband
    "Get Stuck In": "get-stuck-in",  # Orks: War Horde
    "Patient Hunter": "patient-hunter",  # T'au Empire: Kauyon
    "Hyper Adaptions": "hyper-adaptions",  # Tyranids: Invasion Fleet
    "Warp Rifts": "warp-rifts",  # Chaos Daemons: Daemonic Incursion
    "Paragons of Terror": "paragons-of-terror",
    "Verminous Haze": "verminous-haze",  # Death Guard: Flyblown Host
    "Internal Rivalries": "internal-rivalries",  # Emperor's Children: Slaanesh's Chosen
    "Flow of Magic": "flow-of-magic",  # Thousand Sons: Hexwarp Thrallband
    "A Perfect Ambush": "a-perfect-ambush",  # Genestealer Cults: Host of Ascension
    "Rad-bombardment": "rad-bombardment",
    "Duty Before All": "duty-before-all",  # Grey Knights: Hallowed Conclave
    "Command Protocols": "command-protocols",  # Necrons: while a CHARACTER leads the unit
}

KEY = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def test_the_table_builds_with_unique_keys_and_ids():
    table._tables.cache_clear()
    recs = table.records()
    assert len(recs) == len(ALL)
    ids = [i for r in ALL for i in r.ids]
    assert len(ids) == len(set(ids))
    assert len({r.key for r in ALL}) == len(ALL)


def test_printed_names_are_unique_within_a_faction():
    seen: dict[tuple[str, str], str] = {}
    for r in ALL:
        for n in r.names:
            k = (norm(n), norm(r.faction))
            assert k not in seen, f"{n!r} is in {seen[k]!r} and {r.key!r}"
            seen[k] = r.key


@pytest.mark.parametrize("r", ALL, ids=lambda r: r.key)
def test_every_record_is_within_the_vocabulary(r):
    assert KEY.match(r.key)
    assert r.faction
    assert r.source in V.SOURCES and (r.source == V.DETACHMENT_RULE) == bool(r.detachment)
    assert r.grants or (r.choice is not None and r.choice.adds_to), \
        "a record with no grant (nor picks for another rule) is beyond the vocabulary: the importer reports it"
    phases = {p.value for p in Phase}
    for g in r.grants:
        assert set(g.when.phases) <= phases
        if g.what.kind == V.WEAPON_ABILITY:
            assert parse_weapon_abilities(g.what.ability, r.key)
        if g.what.kind == V.UNIT_ABILITY:  # a core unit ability of the registry
            from sim.rules.abilities import UNIT_ABILITY_NAMES
            assert g.what.ability.upper() in UNIT_ABILITY_NAMES
        for kw in g.keywords:
            assert kw == kw.upper()
    if r.choice is not None and r.source != V.RITUAL_SOURCE:  # a choice some grant reads (the converse the record
        # itself checks; a ritual's choice is the unit it is attempted at, struck or read)
        assert r.choice.moment in phases | {V.FORMATIONS, V.AT_ROUND_START}  # (or battle formations;
        # or the battle round's start, a DICE_OPTIONS choice's)
        assert any(c[0] in (V.CHOSEN, V.TARGET_CHOSEN, V.OPTION) for g in r.grants for c in g.when.conditions) \
            or any(g.who == V.CHOSEN_FRIEND for g in r.grants) or r.choice.adds_to  # (another's options)
    assert isinstance(r.ids, tuple) and isinstance(r.names, tuple)
    for text in (r.summary, r.partial):
        assert "\n" not in text and text == text.strip()
    assert len(r.summary) <= 160
    for i in r.ids:
        assert re.fullmatch(r"[0-9a-f]{1,4}(-[0-9a-f]{1,4}){3}", i), i


@pytest.mark.parametrize("name,key", sorted(ARMY_RULES.items()))
def test_every_army_rule_of_the_data_is_modelled_or_named_beyond_the_vocabulary(name, key):
    r = table.lookup(name=name)
    if key is None:
        assert r is None
    else:
        assert r is not None and r.key == key and r.source == V.ARMY_RULE


@pytest.mark.parametrize("name,key", sorted(FIRST_DETACHMENT_RULES.items()))
def test_every_first_detachment_rule_is_modelled_or_named_beyond_the_vocabulary(name, key):
    r = table.lookup(name=name)
    if key is None:
        assert r is None
    else:
        assert r is not None and r.key == key and r.source == V.DETACHMENT_RULE and r.detachment


def test_a_record_is_found_by_community_id_before_name():
    assert table.lookup(ids=("nope", "3b76-4053-ece9-6e7d"), name="Waaagh!").key == "oath-of-moment"
    assert table.lookup(ids=("a511-d9ca-17d0-42c5",)).key == "reanimation-protocols"
    # every profile id of an ability printed on several datasheets leads to its one record
    r = table.by_key("armoured-resilience")
    assert len(r.ids) > 1 and all(table.lookup(ids=(i,)) is r for i in r.ids)
    # a rule's options (stances, imperatives) are its choice's, resolved with the rule
    assert table.resolve("martial-katah").name == "Martial Ka'tah"
    assert table.resolve("Martial Ka'tah").choice.options == ("Dacatarai Stance", "Rendax Stance")


def test_eleventh_edition_numbers():
    oath = table.by_key("oath-of-moment").grants[0].what
    assert (oath.kind, oath.stat, oath.which) == (V.REROLL, "hit", V.ANY)
    rp = table.by_key("reanimation-protocols").grants[0]
    assert rp.what.trigger == V.AT_END_OF_PHASE and rp.when.phases == ("command",) and rp.when.turn == "own"
    assert (rp.what.dice.n, rp.what.dice.sides) == (1, 3)
    rage = {g.what.stat: g.what.value for g in table.by_key("relentless-rage").grants}
    assert rage == {"A": 1, "S": 2}


def _acting(key: str, **facts) -> list[str]:
    f = Facts(**facts)
    return [f"{g.what.kind}:{g.what.stat or g.what.ability}" for g in table.by_key(key).grants if holds(g.when, f)]


def test_conditions_of_records_read_the_facts():
    assert _acting("relentless-rage", attack="melee", charged=True) == ["modify:A", "modify:S"]
    assert _acting("relentless-rage", attack="melee") == []
    assert _acting("relentless-rage", attack="ranged", charged=True) == []
    assert _acting("sanguinary-priest", leading=True) == ["feel no pain:"]
    assert _acting("sanguinary-priest") == []
    assert _acting("patient-hunter", attack="ranged", battle_round=2) == []
    assert _acting("patient-hunter", attack="ranged", battle_round=3) == ["weapon ability:SUSTAINED HITS 1"]
    assert _acting("fortis-doctrines", target_below_half=True) == ["modify:hit"]
    assert _acting("sunderer-of-fortresses", target_keywords=frozenset({"VEHICLE"})) == ["modify:S", "modify:D"]
    assert _acting("oath-of-moment", target_chosen=False) == []
    assert _acting("martial-katah", attack="melee", option="Rendax Stance") == ["weapon ability:LETHAL HITS"]
    assert _acting("martial-katah", attack="melee", option="Dacatarai Stance") == ["weapon ability:SUSTAINED HITS 1"]
    assert _acting("martial-katah", attack="melee") == []  # (no stance picked yet)
    assert _acting("doctrina-imperatives", attack="ranged", option="Conqueror Imperative") == [
        "weapon ability:ASSAULT", "modify:AP"]  # (the AP for BATTLELINE units: a keyword of the grant)
    assert _acting("waaagh", attack="melee", chosen=True) == ["modify:S", "modify:A", "invulnerable:",
                                                                "eligible:charge after advance"]
    # Thrill Seekers' permissions hold with no target, and restrict a target only
    assert len(_acting("thrill-seekers")) == 4
    assert _acting("thrill-seekers", has_target=True, target_engaged_at_start=True) == []
    assert _acting("thrill-seekers", has_target=True, target_targeted=True) == []
    assert len(_acting("thrill-seekers", has_target=True)) == 4
    assert _acting("internal-rivalries", attack="melee")[-1] == "mark:"
    assert _acting("internal-rivalries", attack="melee", marked=True)[-1] == "reroll:wound"


def _check_tool():
    path = Path(__file__).resolve().parents[3] / "tools" / "check_records.py"
    spec = importlib.util.spec_from_file_location("check_records", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_copy_check_finds_a_shared_run_of_eight_words():
    tool = _check_tool()
    theirs = "When the moon rises, every hound of the pack may howl twice at the stars."
    assert tool.shared_run("Ours: every hound of the pack may howl twice, loudly.", theirs) == (
        "every hound of the pack may howl twice")
    assert tool.shared_run("every hound of the pack may howl", theirs) is None  # seven words
    assert tool.shared_run("Hounds howl twice when the moon is up.", theirs) is None
