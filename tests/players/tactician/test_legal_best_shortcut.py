"""The tactician's movement skips the check of a move certainly refused for where it ends
(routes.ends_in_feature: a model over a light or dense feature, the check's own end_blockers)
and reads such a move's reason only when a later move's detour depends on it: its choices are
the checks' own. Over a whole battle: every move ends_in_feature marks is refused by the check,
and _legal_best gives what checking every move in turn (the way it was written before) gives."""

from __future__ import annotations

from sim.battle import Battle
from sim.players import play_battle
from sim.players.tactician import TacticianPlayer
from sim.players.tactician import movement as MVT
from sim.players.tactician import routes as R
from sim.players import options as O
from sim.scenario.load import load_scenario


def _checked_in_turn(battle, scored, top):
    """_legal_best as written before the shortcut: every move checked in turn."""
    out = []
    detours = MVT.MAX_DETOURS
    for v, _i, cmd, label in sorted(scored, key=lambda s: (-s[0], s[1])):
        if callable(cmd):
            cmd = cmd()
        if cmd is None or O.quick_refusal(battle, cmd):
            continue
        why = battle.check(cmd)
        if (why is not None and detours and "path" in why and getattr(cmd, "to", None)
                and getattr(cmd, "via", None) == ()):
            detours -= 1
            cmd = R.detoured(battle, cmd)
            why = battle.check(cmd) if cmd is not None else why
        if why is None:
            out.append((v, cmd, label() if callable(label) else label))
            if len(out) >= top:
                break
    return out


def test_the_shortcut_gives_the_checks_choices_over_a_battle(monkeypatch):
    spec = load_scenario("scenarios/battle_default.toml")
    real = MVT._legal_best
    seen = {"calls": 0, "marked": 0, "pending read": 0}
    spent = MVT._spent

    def counted(battle, pending, detours):
        seen["pending read"] += bool(pending)
        return spent(battle, pending, detours)

    ends = R.ends_in_feature

    def marked(battle, cmd):
        got = ends(battle, cmd)
        if got:
            seen["marked"] += 1
            assert battle.check(cmd) is not None, cmd  # (refused, as the shortcut says)
        return got

    def both(battle, scored, top=MVT.TOP):
        scored = list(scored)
        want = _checked_in_turn(battle, scored, top)
        got = real(battle, scored, top)
        assert [(s.value, s.command, s.label) for s in got] == want
        seen["calls"] += 1
        return got
    monkeypatch.setattr(MVT, "_legal_best", both)
    monkeypatch.setattr(MVT, "_spent", counted)
    monkeypatch.setattr(R, "ends_in_feature", marked)
    with Battle(spec, seed=2) as b:
        play_battle(b, spec, players=[TacticianPlayer(s, b, spec) for s in (0, 1)])
    assert seen["calls"] > 50 and seen["marked"] > 20 and seen["pending read"] > 0, seen
