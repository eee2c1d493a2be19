"""Who the computer plays in the sandbox and how fast: `sim play --ai SIDE[:PLAYER]`, `--ai-speed`,
and the choices of the start-of-battle dialog (sim.sandbox.computer_panel)."""

from __future__ import annotations

import math

from sim.rules.turn import PLAYER

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 20.0)  # commands a second the speed keys step through
DEFAULT_SPEED = 2.0
DEFAULT_KIND = "tactician"


def ai_kinds() -> tuple[str, ...]:
    """The players that may play a side in the sandbox (every headless kind but a script)."""
    from sim.players.loop import KINDS
    return tuple(k for k in KINDS if k != "scripted")


def parse_ai(values) -> dict[int, str]:
    """``--ai`` values ("red", "blue:random", "none") as {side: player kind}. Raises ValueError
    with the message for a bad one."""
    kinds = ai_kinds()
    out: dict[int, str] = {}
    for raw in values or ():
        text = str(raw).strip().casefold()
        if text == "none":
            continue
        side, _, kind = text.partition(":")
        kind = kind or DEFAULT_KIND
        if side not in PLAYER:
            raise ValueError(f"--ai {raw}: the side is one of {', '.join(PLAYER)} (or none), "
                             f"optionally with :PLAYER")
        if not _known(kind, kinds):
            raise ValueError(f"--ai {raw}: the computer's player is one of {', '.join(kinds)}, not {kind!r}")
        s = PLAYER.index(side)
        if s in out:
            raise ValueError(f"--ai {raw}: {side} is already given")
        out[s] = kind
    return out


def parse_speed(text) -> float:
    """``--ai-speed``: commands a second, 0 (paused: one command per press of ".") to 60."""
    try:
        v = float(text)
    except (TypeError, ValueError):
        raise ValueError(f"--ai-speed {text}: a number of commands a second (0 pauses; at most 60)") from None
    if not (0 <= v <= 60) or math.isnan(v):
        raise ValueError(f"--ai-speed {text}: a number of commands a second from 0 (paused) to 60")
    return v


def speed_text(v: float) -> str:
    return f"{v:g}/s"


def _known(kind: str, kinds) -> bool:
    """A player the sandbox can run: one of ``kinds``, with a budget where its kind takes one
    ('search:0.5', sim.scenario.mission.split_kind)."""
    from sim.scenario.mission import split_kind
    try:
        name, _budget = split_kind(kind)
    except ValueError:
        return False
    return name in kinds
