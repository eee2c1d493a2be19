"""19.01 Judging an attachment (sim.rules.leaders): 24.22 Leader, 24.34 Support, at most one
leader and one support per bodyguard, one bodyguard per unit, friendly units only; every
refusal names the units."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

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


_unit = st.builds(lambda i, owner, char, role, listed: UnitFacts(f"u{i}", f"Unit {i}", owner, char, role,
                                                                  tuple(f"Unit {j}" for j in listed)),
                  st.integers(0, 5), st.integers(0, 1), st.booleans(), st.sampled_from([None, LEADER, SUPPORT]),
                  st.lists(st.integers(0, 5), max_size=3))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(units=st.lists(_unit, min_size=1, max_size=6, unique_by=lambda u: u.id),
       wanted=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=8))
def test_19_01_accepted_attachments_keep_every_limit(units, wanted):
    """Whatever is asked, in whatever order: the accepted attachments give each bodyguard at
    most one leader and one support, each unit one bodyguard, no unit both joining and joined,
    only friendly units, and only units that have the ability; a refusal always says why."""
    ids = [u.id for u in units]
    pairs = [(ids[a % len(ids)], ids[b % len(ids)]) for a, b in wanted]
    by_id = {u.id: u for u in units}
    out = judge(units, pairs)
    ok = [(u, b) for (u, b), problems in zip(pairs, out) if not problems]
    joiners = [u for u, _ in ok]
    assert len(joiners) == len(set(joiners)) and not set(joiners) & {b for _, b in ok}
    for u, b in ok:
        assert u != b and by_id[u].owner == by_id[b].owner and by_id[u].joins_as is not None
        assert by_id[b].joins_as is None
    for b in {b for _, b in ok}:
        roles = [by_id[u].joins_as for u, g in ok if g == b]
        assert len(roles) == len(set(roles))
    assert all(problems == [] or all(isinstance(p, str) and p for p in problems) for problems in out)
