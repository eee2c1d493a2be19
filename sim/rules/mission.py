"""[EC] Mission and [CARD] Battlefield Dominance (RULES.md §26, Part A rulings 20-21): primary
scoring, the victory-point caps and the result.

Pure functions. Scoring is split in two: :func:`dominance_scores` says which lines of the card
score at a given moment (what was *asked*), and :func:`award` books VP into an immutable
:class:`VPTally`, applying the caps and saying how much was granted, so a report can show
what a cap took away.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Mapping, Sequence

from sim.rules.objectives import Objective
from sim.rules.turn import PLAYER

__all__ = [
    "BATTLE_ROUNDS", "END_OF_COMMAND_PHASE", "END_OF_TURN", "MOMENTS", "END_OF_BATTLE",
    "PRIMARY", "SECONDARY", "BATTLE_READY", "CAPS",
    "MORE_OBJECTIVES_VP", "PER_OBJECTIVE_VP", "HOME_BONUS_VP",
    "Score", "Award", "VPTally", "dominance_scores", "award", "award_all", "result",
]

Player = Hashable

BATTLE_ROUNDS = 5                                  # [EC] step 13: the battle ends after 5 rounds
END_OF_COMMAND_PHASE = "end of Command phase"      # 08.05
END_OF_TURN = "end of turn"                        # 07.02 step 7
MOMENTS = (END_OF_COMMAND_PHASE, END_OF_TURN)
END_OF_BATTLE = 0   # the ``round`` of VP scored "at the end of the battle": no round cap ([EC] FAQ)

PRIMARY, SECONDARY, BATTLE_READY = "primary", "secondary", "battle ready"
# [EC] step 14: kind -> (battle total cap, per-battle-round cap or None)
CAPS: dict[str, tuple[int, int | None]] = {PRIMARY: (45, 15), SECONDARY: (45, 15), BATTLE_READY: (10, None)}

MORE_OBJECTIVES_VP = 2   # [CARD] rounds 1-2, end of your turn
PER_OBJECTIVE_VP = 3     # [CARD] round 2+, end of your Command phase (round 5: end of your turn)
HOME_BONUS_VP = 2        # [CARD] per other objective, while you control your home objective

_MORE = "Battlefield Dominance: more objectives than the opponent (rounds 1-2)"
_HOLD = "Battlefield Dominance: 3 VP per objective controlled"
_HOME = "Battlefield Dominance: home objective held, +2 VP per other objective controlled"


@dataclass(frozen=True, slots=True)
class Score:
    """[CARD] One line of a mission card that scores now: its label and the VP it asks for."""

    source: str
    vp: int


@dataclass(frozen=True, slots=True)
class Award:
    """[EC] step 14 One booking of VP: the battle round (END_OF_BATTLE for end-of-battle VP),
    the kind (primary, secondary, battle ready), its source, the VP asked and the VP granted
    after the caps."""

    round: int
    kind: str
    source: str
    asked: int
    granted: int

    @property
    def lost(self) -> int:
        """VP above a cap are lost ([EC] step 14)."""
        return self.asked - self.granted


@dataclass(frozen=True, slots=True)
class VPTally:
    """[EC] step 14 One player's victory points: every booking in order (immutable; ``award``
    returns a new tally)."""

    awards: tuple[Award, ...] = ()

    def total(self, kind: str | None = None) -> int:
        """VP granted, of one kind or (None) of every kind."""
        return sum(a.granted for a in self.awards if kind is None or a.kind == kind)

    def in_round(self, round: int, kind: str) -> int:
        """VP of ``kind`` granted in battle round ``round`` (what the per-round cap limits)."""
        return sum(a.granted for a in self.awards if a.round == round and a.kind == kind)

    @property
    def lost(self) -> int:
        """VP lost to the caps so far."""
        return sum(a.lost for a in self.awards)

    @property
    def vp(self) -> int:
        """The player's victory points (every kind)."""
        return self.total()


def award(tally: VPTally, round: int, source: str, vp: int, kind: str = PRIMARY) -> tuple[VPTally, int]:
    """[EC] step 14 Book ``vp`` from ``source`` in battle round ``round``, within the caps:
    primary and secondary at most 45 in the battle and 15 per battle round, battle ready at
    most 10; VP above a cap are lost. VP scored at the end of the battle (``round`` =
    END_OF_BATTLE) do not count toward round 5's 15 VP limit ([EC] FAQ) but do count toward the
    total. Returns (new tally, VP granted)."""
    if kind not in CAPS:
        raise ValueError(f"VP kind must be one of {tuple(CAPS)}, found {kind!r}")
    if round != END_OF_BATTLE and not 1 <= round <= BATTLE_ROUNDS:
        raise ValueError(f"battle round must be 1..{BATTLE_ROUNDS} (or END_OF_BATTLE), found {round}")
    if vp < 0:
        raise ValueError(f"VP scored cannot be negative, found {vp}")
    total_cap, round_cap = CAPS[kind]
    room = total_cap - tally.total(kind)
    if round_cap is not None and round != END_OF_BATTLE:
        room = min(room, round_cap - tally.in_round(round, kind))
    granted = max(0, min(vp, room))
    return VPTally(tally.awards + (Award(round, kind, source, vp, granted),)), granted


def award_all(tally: VPTally, round: int, scores: Sequence[Score], kind: str = PRIMARY) -> tuple[VPTally, int]:
    """``award`` each score in order; returns (new tally, VP granted in all)."""
    granted = 0
    for s in scores:
        tally, g = award(tally, round, s.source, s.vp, kind)
        granted += g
    return tally, granted


def _controller_of(value):
    """A control map's value: a player (or None), or an ObjectiveControl (its controller)."""
    return getattr(value, "controller", value)


def dominance_scores(round: int, moment: str, player: Player,
                     controls: Mapping[str, object],
                     objectives: Sequence[Objective]) -> tuple[Score, ...]:
    """[CARD] Battlefield Dominance: what ``player`` scores at ``moment`` of their own turn in
    battle round ``round``, from the settled control (``controls``: objective name -> the
    controlling player or None, or an ObjectiveControl):

    * rounds 1 and 2, end of your turn: 2 VP if you control more objectives than your opponent;
    * round 2 onwards, end of your Command phase: 3 VP per objective you control, and if you
      control your home objective +2 VP for each other objective you control (cumulative);
    * round 5: that second block is scored at the end of your turn instead of the end of your
      Command phase (Part A ruling 21: "replaces", with the control settled at the end of that
      turn).

    Lines worth 0 VP are left out. Caps are ``award``'s business.
    """
    if not 1 <= round <= BATTLE_ROUNDS:
        raise ValueError(f"battle round must be 1..{BATTLE_ROUNDS}, found {round}")
    if moment not in MOMENTS:
        raise ValueError(f"moment must be one of {MOMENTS}, found {moment!r}")
    names = [o.name for o in objectives]
    mine = [n for n in names if _controller_of(controls.get(n)) == player]
    others: dict = {}
    for n in names:
        c = _controller_of(controls.get(n))
        if c is not None and c != player:
            others[c] = others.get(c, 0) + 1
    theirs = max(others.values(), default=0)
    out: list[Score] = []
    if moment == END_OF_TURN and round <= 2 and len(mine) > theirs:
        out.append(Score(_MORE, MORE_OBJECTIVES_VP))
    hold_moment = END_OF_TURN if round == BATTLE_ROUNDS else END_OF_COMMAND_PHASE
    if round >= 2 and moment == hold_moment and mine:
        out.append(Score(_HOLD, PER_OBJECTIVE_VP * len(mine)))
        homes = {o.name for o in objectives if o.kind == "home" and o.owner == player}
        if homes & set(mine):
            bonus = HOME_BONUS_VP * sum(1 for n in mine if n not in homes)
            if bonus:
                out.append(Score(_HOME, bonus))
    return tuple(out)


def result(vp_red: int, vp_blue: int, names: tuple[str, str] = PLAYER) -> str:
    """[EC] step 14 / Part A ruling 20: most VP wins; equal VP is a draw. Returns the winner's
    name from ``names`` (first for ``vp_red``, second for ``vp_blue``) or "draw"."""
    if vp_red > vp_blue:
        return names[0]
    if vp_blue > vp_red:
        return names[1]
    return "draw"
