"""The Player interface: what a side does when it has the choice, and its answers; and what a
player that weighs its options says about them (Weighed, Explanation: `sim run --explain`, the
sandbox's log when the computer plays a side)."""

from __future__ import annotations

from typing import Callable, NamedTuple

from sim.commands import EndPhase
from sim.rules.turn import PLAYER


class Choice(NamedTuple):
    """A player's next command; where it comes from (for messages: a script step or the
    player); how its decisions are answered (None: by the player's ``answer``); the script
    step it expands (for the left-out note) and what its shorthand left out; ``why``: the
    choice in words, with names (the sandbox's log when the computer plays: "shoots Warden
    Guard at Raider Mob: 3.2 models expected"), None where the player says nothing;
    ``expected``: what the player expects of it in words ("3.2 models, 45 pts expected", from
    the odds it already weighed it by), None where it weighed none (the sandbox's log adds it
    to the command's own words)."""

    command: object
    where: str
    answer: Callable | None = None
    step: object = None
    left_out: list = []
    why: str | None = None
    expected: str | None = None


class Weighed(NamedTuple):
    """One option a player weighed: in words (names, never ids) and its value in the player's
    own measure (``unit``: "pts", "VP", "models"...), higher is better; ``detail``: where the
    option came from and how it was judged, in words ("" for none); ``chosen``: the option the
    player chose, where that is not simply the first (the search player's)."""

    label: str
    value: float
    unit: str = ""
    detail: str = ""
    chosen: bool = False


class Explanation(NamedTuple):
    """What a player weighed for one of its decisions (``what``: "shooting: Warden Guard"),
    what it chose (words) and its options, best first (at most a few: `--explain` prints the
    top three; ">" marks a chosen option, with each option's ``detail`` in brackets)."""

    player: str
    what: str
    chosen: str
    options: tuple[Weighed, ...]

    def text(self, top: int = 3) -> str:
        lines = [f"{self.player}: {self.what}: {self.chosen}"]
        for o in self.options[:top]:
            line = f"  {'>' if o.chosen else ' '} {o.value:8.2f} {o.unit:<6} {o.label}"
            lines.append(f"{line}  [{o.detail}]" if o.detail else line)
        return "\n".join(lines)


def to_the_end(steps):
    """What the generator ``steps`` (a player's ``thinking``, or a part of it) returns, run
    without a pause: what a headless battle drives a player's thinking with."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


class Player:
    """One side's choices: ``choose`` when it is this side's choice (TurnState.chooser),
    ``answer`` for a decision of this side (DecisionRequest.player). ``on_explain``: called
    with each Explanation a player that weighs options makes (None: it builds none)."""

    kind = "player"
    step_words = "steps"  # what one step of ``thinking`` is, in words (the sandbox's status line counts them)

    def __init__(self, side: int, battle, scenario):
        self.side = side
        self.scenario = scenario
        self.on_explain: Callable[[Explanation], None] | None = None

    @property
    def name(self) -> str:
        return f"{PLAYER[self.side]} {self.kind} player"

    @property
    def explaining(self) -> bool:
        """Someone listens (build the words of an Explanation only then: they cost)."""
        return self.on_explain is not None

    def explain(self, what: str, chosen: str, options) -> None:
        if self.on_explain is not None:
            self.on_explain(Explanation(self.name, what, chosen, tuple(options)))

    def choose(self, battle) -> Choice:
        return Choice(EndPhase(), self.name)

    def thinking(self, battle):
        """``choose`` a step at a time: a generator that yields between steps of its work and
        returns the Choice (``yield from`` it, or drive it with next() until StopIteration),
        the same Choice as ``choose``. Between two steps the battle's world is the current
        one and unchanged, so that a window may draw it while a slow player thinks (the
        sandbox's computer opponent); nothing else may act on the battle until it returns.
        By default one step: ``choose`` itself."""
        return self.choose(battle)
        yield  # (a generator)

    def answer(self, battle, request):
        return request.default

    def unplayed(self) -> list:
        """What this player was asked to do and never could (a script's steps)."""
        return []
