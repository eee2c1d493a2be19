"""07.02 Which commands each phase accepts, and from whom: a pure table and one question,
answered before any command-specific rule (sim.validate)."""

from __future__ import annotations

from sim.rules.turn import PLAYER, FightStep, Phase

# command kind -> (phase, Fight-phase step or None, the rule that places it)
ACCEPTS: dict[str, tuple[Phase, FightStep | None, str]] = {
    "select to move": (Phase.MOVEMENT, None, "09.02"),
    "move": (Phase.MOVEMENT, None, "09.02"),
    "ingress": (Phase.MOVEMENT, None, "20.04"),
    "shoot": (Phase.SHOOTING, None, "10.02"),
    "declare charge": (Phase.CHARGE, None, "11.02"),
    "charge move": (Phase.CHARGE, None, "11.02"),
    "pile in": (Phase.FIGHT, FightStep.PILE_IN, "12.02"),
    "fight": (Phase.FIGHT, FightStep.FIGHT, "12.04"),
    "overrun": (Phase.FIGHT, FightStep.FIGHT, "12.06"),
    "consolidate": (Phase.FIGHT, FightStep.CONSOLIDATE, "12.07"),
}

NAMES = {Phase.COMMAND: "Command phase", Phase.MOVEMENT: "Movement phase",
         Phase.SHOOTING: "Shooting phase", Phase.CHARGE: "Charge phase",
         Phase.FIGHT: "Fight phase", Phase.END: "End of Turn step"}


def where(ts) -> str:
    """'round 2, blue's Movement phase' (and the Fight phase's step)."""
    step = f", {ts.step} step" if ts.phase == Phase.FIGHT and ts.step is not None else ""
    return f"round {ts.round}, {PLAYER[ts.active]}'s {NAMES[ts.phase]}{step}"


def phase_refusal(ts, kind: str, owner: int | None) -> str | None:
    """07.02 Why a command of ``kind`` for a unit of army ``owner`` is not accepted now, or
    None. ``ts`` is the battle's TurnState (None in free play: everything is accepted)."""
    if ts is None:
        return None
    if kind == "start battle":
        return None if ts.round == 0 else "the battle has already started (07)"
    if ts.round == 0:
        return "the battle has not started yet: start it first (07)"
    if ts.over:
        return f"the battle is over after round {ts.round} (26 step 13)"
    if kind == "end turn":
        return (f"a battle with a mission goes phase by phase: end the phase instead (07.02); "
                f"now: {where(ts)}")
    if kind == "end phase":
        return None
    rule = ACCEPTS.get(kind)
    if rule is None:
        return f"unknown command {kind!r}"
    phase, step, section = rule
    if ts.phase != phase or (step is not None and ts.step != step):
        place = NAMES[phase] + (f", {step} step" if step is not None else "")
        return f"a {kind} command is accepted only in the {place} ({section}); now: {where(ts)}"
    if owner is not None and owner != ts.chooser:
        if step is None:
            return (f"only {PLAYER[ts.active]}, whose turn it is, acts in the {NAMES[phase]} "
                    f"({section}); the unit is {PLAYER[owner]}'s")
        return (f"it is {PLAYER[ts.chooser]}'s choice in the {step} step ({section}); "
                f"the unit is {PLAYER[owner]}'s")
    return None
