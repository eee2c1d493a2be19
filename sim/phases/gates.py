"""07.02 Where a battle with a mission is, in words ("round 2, blue's Movement phase"), for the
phase gate's refusals (sim.commands.registry.phase_refusal) and the sandbox's status line."""

from __future__ import annotations

from sim.rules.turn import PHASE_NAMES, PLAYER, Phase

__all__ = ["PLAYER", "where"]


def where(ts, names=PLAYER) -> str:
    """'round 2, blue's Movement phase' (and the Fight phase's step); before the battle, the
    pre-battle step and who acts ('before the battle: deployment, red to act'). ``names``: how
    each side is called (PLAYER; the sandbox gives its armies' names: "Raiders' Movement phase")."""
    if ts.round == 0:
        if ts.pre_battle is None:
            return "before the battle starts"
        return f"before the battle: {ts.pre_battle}, {names[ts.chooser]} to act"
    step = f", {ts.step} step" if ts.phase == Phase.FIGHT and ts.step is not None else ""
    who = names[ts.active]
    own = who + ("'" if who.endswith("s") else "'s")  # ("red's", "Raiders'")
    return f"round {ts.round}, {own} {PHASE_NAMES[ts.phase]}{step}"
