"""A stratagem's option buttons say what they are (issue 28 leftovers): an option that is a unit
(Counteroffensive's, Heroic Intervention's) reads "Counteroffensive: Warden Squad (3), 2 CP",
not "Warden Squad (3) (2 CP)" (a number beside a number); the other forms keep their words."""

from __future__ import annotations

from types import SimpleNamespace as NS

from test_play_vs_computer import TABLE

from sim.sandbox.decision_panel import option_label


def _req(stratagem, options, **ctx):
    return NS(kind="stratagem", context={"stratagem": stratagem, **ctx}, options=options, player=0)


def test_a_units_option_names_the_stratagem_and_its_cost(make):
    sb = make(TABLE).sb
    req = _req("Counteroffensive", ["w-squad3", "decline"])
    assert option_label(sb, req, "w-squad3") == ("Counteroffensive: Warden Squad (3), 2 CP", 2)
    assert option_label(sb, req, "decline") == ("Decline", None)
    use = option_label(sb, _req("Counteroffensive", ["use", "decline"], target="w-squad1"), "use")
    assert use == ("Use Counteroffensive (2 CP) on Warden Squad (1)", 2)


# --- every decision button shows its units' names whole at 800x600 and 1024x700 ----------------
import pytest  # noqa: E402

from sim.decisions import DecisionRequest as DR  # noqa: E402

CR = "Command Re-roll"
# (each kind of decision button, with the names its buttons must show whole)
KINDS = {
    "Insane Bravery": (DR("stratagem", "k", 1, ["use", "decline"], "decline",
                          context={"stratagem": "Insane Bravery", "target": "r-squad2"}), ["Raider Mob (2)"]),
    "Heroic Intervention": (DR("stratagem", "k", 0, ["w-squad2: Into the Fray", "w-squad3: Leap to Defend", "decline"],
                               "decline", context={"stratagem": "Heroic Intervention"}),
                            ["Warden Squad (2): Into the Fray", "Warden Squad (3): Leap to Defend"]),
    "Rapid Ingress": (DR("stratagem", "k", 0, ["w-squad2", "w-squad3", "decline"], "decline",
                         context={"stratagem": "Rapid Ingress"}), ["Warden Squad (2)", "Warden Squad (3)"]),
    "Command Re-roll die": (DR("stratagem", "k", 0, ["pool 0 hit 3: 1", "decline"], "decline",
                               context={"stratagem": CR, "roll": "hit", "dice": {"pool 0 hit 3: 1": 1}, "failed": [1]}),
                            ["hit die 4 (rolled 1)"]),
    "Command Re-roll roll": (DR("stratagem", "k", 0, ["use", "decline"], "decline",
                                context={"stratagem": CR, "roll": "charge", "target": "w-squad2"}), ["Warden Squad (2)"]),
    "Fire Overwatch": (DR("stratagem", "k", 1, ["r-gunners -> w-squad2", "r-squad3 -> w-squad1", "decline"], "decline",
                          context={"stratagem": "Fire Overwatch"}),
                       ["Raider Gunners -> Warden Squad (2)", "Raider Mob (3) -> Warden Squad (1)"]),
    "allocation": (DR("allocation_order", "pool 0", 0, ["w-captain", "w-retinue/2"], ["w-retinue/2", "w-captain"],
                      prompt="w-retinue: order of allocation groups (05.03)",
                      context={"groups": ["w-captain (CHARACTER, W4 Sv3+ 4++)", "w-retinue/2 (2 model(s), W1 Sv3+)"]}),
                   ["1. Retainer 1", "2. Captain"]),
    "precision": (DR("precision", "pool 0", 1, ["w-captain", "w-retinue/2"], "w-captain", prompt="precision"),
                  ["Captain", "Retainer 1"]),
}


@pytest.mark.parametrize("size", [(800, 600), (1024, 700)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_decision_button_shows_its_units_names_whole(sized, size):
    """At 800x600 "Use Insane Bravery (1 CP) on Raid..." hid which unit the stratagem is for
    (and Rapid Ingress's, Heroic Intervention's, Command Re-roll's cost, cut mid-word; an
    allocation row "1. Retainer 1 (2 mo..."). Each button (or allocation row) shows the names
    it is about whole and is not cut by its own edge; a shortened one says it whole in its tip."""
    sb = sized("battle_default.toml", size)
    bad = []
    try:
        for kind, (req, names) in KINDS.items():
            sb.battle.pending = req
            sb.decision_state = {}
            sb.dirty.add("orders")
            sb.update(1 / 60)
            inner = sb.orders_flow.scroll.get_container()
            shown = [w for w in inner.elements if w.alive() and hasattr(w, "text") and hasattr(w, "font")]
            texts = [w.text for w in shown]
            for name in names:
                if not any(name in t for t in texts):
                    bad.append(f"{kind}: {name!r} not whole in {texts}")
            for w in shown:
                if w.font.size(w.text)[0] > w.rect.w - 4 or "..." in w.text:
                    bad.append(f"{kind}: {w.text!r} cut ({w.font.size(w.text)[0]} px in {w.rect.w})")
    finally:
        sb.battle.pending = None
    assert bad == [], bad
