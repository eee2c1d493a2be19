"""Issue 17: weapon Keywords characteristics as the data files print them, each printed ability
mapped through the ability registry (kept, and parsed to the expected ability) or reported (an
inert label): a table of real-world styles."""

from __future__ import annotations

import pytest

from sim.importers.model import weapon_keywords
from sim.rules.abilities import parse_weapon_abilities

# printed Keywords -> the abilities the engine implements (names, in order), the labels
TABLE = [
    ("Anti-Infantry 4+, Devastating Wounds", ["ANTI", "DEVASTATING WOUNDS"], []),
    ("Sustained Hits D3", ["SUSTAINED HITS"], []),
    ("Sustained Hits 1", ["SUSTAINED HITS"], []),
    ("Sustained Hits 2", ["SUSTAINED HITS"], []),
    ("Rapid Fire 1", ["RAPID FIRE"], []),
    ("Rapid Fire 2", ["RAPID FIRE"], []),
    ("Rapid Fire D3", ["RAPID FIRE"], []),
    ("Rapid Fire D6+3", ["RAPID FIRE"], []),
    ("Melta 2", ["MELTA"], []),
    ("Melta 4", ["MELTA"], []),
    ("Blast", ["BLAST"], []),
    ("Blast, Heavy", ["BLAST", "HEAVY"], []),
    ("Twin-linked", ["TWIN-LINKED"], []),
    ("Twin-Linked", ["TWIN-LINKED"], []),
    ("Hazardous", ["HAZARDOUS"], []),
    ("Psychic", ["PSYCHIC"], []),
    ("Precision", ["PRECISION"], []),
    ("Pistol", ["CLOSE-QUARTERS"], []),
    ("Lance", ["LANCE"], []),
    ("Ignores Cover", ["IGNORES COVER"], []),
    ("Extra Attacks", ["EXTRA ATTACKS"], []),
    ("One Shot", ["ONE SHOT"], []),
    ("Torrent", ["TORRENT"], []),
    ("Torrent, Ignores Cover", ["TORRENT", "IGNORES COVER"], []),
    ("Assault", ["ASSAULT"], []),
    ("Assault, Heavy", ["ASSAULT", "HEAVY"], []),
    ("Heavy, Indirect Fire", ["HEAVY", "INDIRECT FIRE"], []),
    ("Indirect Fire", ["INDIRECT FIRE"], []),
    ("Lethal Hits", ["LETHAL HITS"], []),
    ("Lethal Hits, Precision", ["LETHAL HITS", "PRECISION"], []),
    ("Devastating Wounds", ["DEVASTATING WOUNDS"], []),
    ("Anti-Vehicle 2+", ["ANTI"], []),
    ("Anti-Monster 4+, Anti-Vehicle 4+", ["ANTI", "ANTI"], []),
    ("Anti-Fly 2+", ["ANTI"], []),
    ("Anti-Psyker 2+", ["ANTI"], []),
    ("Anti-Character 4+, Precision", ["ANTI", "PRECISION"], []),
    ("Anti-Chaos 2+", ["ANTI"], []),
    ("Anti-Infantry 3+, Torrent", ["ANTI", "TORRENT"], []),
    ("Assault, Pistol", ["ASSAULT", "CLOSE-QUARTERS"], []),
    ("Pistol, Hazardous", ["CLOSE-QUARTERS", "HAZARDOUS"], []),
    ("Blast, Hazardous, Heavy", ["BLAST", "HAZARDOUS", "HEAVY"], []),
    ("Psychic, Sustained Hits 1", ["PSYCHIC", "SUSTAINED HITS"], []),
    ("Psychic, Devastating Wounds, Hazardous", ["PSYCHIC", "DEVASTATING WOUNDS", "HAZARDOUS"], []),
    ("Melta 2, Rapid Fire 1", ["MELTA", "RAPID FIRE"], []),
    ("Twin-linked, Lethal Hits", ["TWIN-LINKED", "LETHAL HITS"], []),
    ("Extra Attacks, Anti-Infantry 2+", ["EXTRA ATTACKS", "ANTI"], []),
    ("Lance, Lethal Hits", ["LANCE", "LETHAL HITS"], []),
    ("[ASSAULT], [HEAVY]", ["ASSAULT", "HEAVY"], []),
    ("[ANTI-VEHICLE 4+, PRECISION]", ["ANTI", "PRECISION"], []),
    ("-", [], []),
    ("", [], []),
    ("N/A", [], []),
    ("Conversion", [], ["Conversion"]),
    ("Blast, Conversion", ["BLAST"], ["Conversion"]),
    ("Linked Fire", [], ["Linked Fire"]),
    ("Dead Choppy", [], ["Dead Choppy"]),
    ("Psychic, Overcharge Link", ["PSYCHIC"], ["Overcharge Link"]),
    ("Anti-Infantry 4+, Sustained Hits 1, Fire Discipline", ["ANTI", "SUSTAINED HITS"], ["Fire Discipline"]),
    ("Heavy, Haywire", ["HEAVY"], ["Haywire"]),
    ("Feel No Pain 5+", [], ["Feel No Pain 5+"]),  # a unit ability printed on a weapon: reported
    ("Sustained Hits", [], ["Sustained Hits"]),  # no X: reported, not guessed
    ("Melta", [], ["Melta"]),
    ("Anti-Infantry", [], ["Anti-Infantry"]),
    ("Anti-Infantry 7+", [], ["Anti-Infantry 7+"]),
    ("Rapid Fire X", [], ["Rapid Fire X"]),
    ("Blast 2", ["BLAST"], []),
    ("Lethal Hits: Vehicle", ["LETHAL HITS"], []),
    ("Cleave 1", ["CLEAVE"], []),
    ("Close-quarters", ["CLOSE-QUARTERS"], []),
    ("Heavy, Hazardous, One Shot", ["HEAVY", "HAZARDOUS", "ONE SHOT"], []),
    ("Re-roll Hits 1", ["REROLL HITS 1"], []),
    ("Reroll Wounds 1", ["REROLL WOUNDS 1"], []),
    ("[RE-ROLL HITS 1, RE-ROLL WOUNDS 1]", ["REROLL HITS 1", "REROLL WOUNDS 1"], []),
    ("Twin-linked, Re-roll Hits 1", ["TWIN-LINKED", "REROLL HITS 1"], []),
    ("Re-roll Hits", ["REROLL HITS"], []),  # no "1": every failed hit roll re-rolled (the project's ability)
    ("Re-roll Hits 2", [], ["Re-roll Hits 2"]),
]


def test_the_table_is_large():
    assert len(TABLE) >= 60


@pytest.mark.parametrize("printed, known, labels", TABLE, ids=[t[0] or "empty" for t in TABLE])
def test_keywords_mapped_or_reported(printed, known, labels):
    ok, lab = weapon_keywords(printed)
    assert lab == labels
    assert [a.name for a in parse_weapon_abilities(", ".join(ok), "w")] == known
