"""19.01 Judging an attachment (sim.rules.leaders): 24.22 Leader, 24.34 Support, at most one
leader and one support per bodyguard, one bodyguard per unit, friendly units only; every
refusal names the units."""

from __future__ import annotations

from sim.rules.abilities import parse_unit_abilities
from sim.rules.leaders import LEADER, SUPPORT, UnitFacts, attachment_problems, bodyguards_for, join_role, judge


def lord(id="lord", name="Overlord", owner=0, **kw):
    kw.setdefault("character", True)
    kw.setdefault("joins_as", LEADER)
    return UnitFacts(id, name, owner, **kw)


def squad(id="warriors", name="Necron Warriors", owner=0, **kw):
    kw.setdefault("character", False)
    return UnitFacts(id, name, owner, **kw)


def test_24_22_a_character_with_the_leader_ability_may_lead_a_friendly_unit():
    assert attachment_problems(lord(), squad()) == []


def test_24_22_24_34_which_role_the_abilities_give():
    assert join_role(parse_unit_abilities("Leader, Stealth", "u")) == LEADER
    assert join_role(parse_unit_abilities("Support", "u")) == SUPPORT
    assert join_role(parse_unit_abilities("Stealth", "u")) is None


def test_19_01_a_unit_without_leader_or_support_cannot_join():
    (p,) = attachment_problems(lord(joins_as=None), squad())
    assert p == "Overlord has neither the LEADER nor the SUPPORT ability (24.22, 24.34)"


def test_24_22_a_leader_is_a_character_a_support_need_not_be():
    (p,) = attachment_problems(lord(character=False), squad())
    assert p == "Overlord is not a CHARACTER (24.22: a leader is)"
    assert attachment_problems(lord(name="Cryptek", character=False, joins_as=SUPPORT), squad()) == []


def test_19_01_the_bodyguard_is_friendly():
    (p,) = attachment_problems(lord(), squad(owner=1))
    assert p == "Overlord and Necron Warriors are in different armies (19.01: a friendly bodyguard)"


def test_19_01_the_bodyguard_is_one_its_datasheet_lists_by_name():
    listed = lord(can_lead=("Immortals", "Lychguard"))
    (p,) = attachment_problems(listed, squad())
    assert p == "Overlord can lead only Immortals, Lychguard (its datasheet's list), not Necron Warriors"
    assert attachment_problems(listed, squad(name="  immortals ")) == []  # (case and spacing aside)
    assert attachment_problems(lord(can_lead=()), squad()) == []  # (no list in the data: any unit)


def test_19_01_a_unit_cannot_join_itself_nor_a_unit_that_joins_others():
    assert attachment_problems(lord(), lord()) == ["Overlord cannot join itself"]
    (p,) = attachment_problems(lord(), lord(id="lord2", name="Royal Warden"))
    assert p == "Royal Warden has the LEADER ability itself: it joins a bodyguard, it is not one"


def test_19_01_at_most_one_leader_and_one_support_per_bodyguard():
    warden = lord(id="warden", name="Royal Warden")
    cryptek = lord(id="cryptek", name="Cryptek", joins_as=SUPPORT)
    joined = [(warden, squad())]
    (p,) = attachment_problems(lord(), squad(), joined)
    assert p == "Necron Warriors already has Royal Warden as its leader (19.01: at most one leader and one support)"
    assert attachment_problems(cryptek, squad(), joined) == []  # (a support beside the leader)
    (p,) = attachment_problems(cryptek, squad(), joined + [(lord(id="c2", name="Plasmancer", joins_as=SUPPORT),
                                                            squad())])
    assert p == "Necron Warriors already has Plasmancer as its support (19.01: at most one leader and one support)"
    # an attached unit written as one unit (its models' roles) already has its leader
    (p,) = attachment_problems(lord(), squad(roles=frozenset({LEADER})))
    assert p == "Necron Warriors already has its leader (19.01: at most one leader and one support)"
    assert attachment_problems(cryptek, squad(roles=frozenset({LEADER}))) == []


def test_19_01_a_unit_joins_one_bodyguard_and_is_not_already_attached():
    other = squad(id="immortals", name="Immortals")
    (p,) = attachment_problems(lord(), other, [(lord(), squad())])
    assert p == "Overlord already joins Necron Warriors (a unit joins one bodyguard)"
    (p,) = attachment_problems(lord(roles=frozenset({LEADER})), squad())
    assert p == "Overlord is already an attached unit"
    # a bodyguard that itself joins another unit, a joining unit that is a bodyguard already
    support = lord(id="cryptek", name="Cryptek", joins_as=SUPPORT)
    assert "Cryptek itself joins Immortals: it cannot be a bodyguard too" in \
        attachment_problems(lord(), support, [(support, other)])
    assert "Cryptek is already joined by Overlord: it is a bodyguard" in \
        attachment_problems(support, other, [(lord(), support)])


def test_19_01_judge_takes_the_wanted_attachments_in_order():
    units = [lord(), lord(id="warden", name="Royal Warden"), squad(), squad(id="imm", name="Immortals")]
    out = judge(units, [("lord", "warriors"), ("warden", "warriors"), ("warden", "imm")])
    assert out[0] == [] and out[2] == []
    assert out[1] == ["Necron Warriors already has Overlord as its leader (19.01: at most one leader and one support)"]


def test_19_01_bodyguards_for_lists_each_friendly_unit_with_its_refusals():
    units = [lord(can_lead=("Immortals",)), squad(), squad(id="imm", name="Immortals"), squad(id="e", owner=1)]
    out = [(b.name, ps) for b, ps in bodyguards_for(units[0], units)]
    assert out == [("Necron Warriors", ["Overlord can lead only Immortals (its datasheet's list), not Necron Warriors"]),
                   ("Immortals", [])]
