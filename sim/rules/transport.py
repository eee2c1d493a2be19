"""18 Transports: what a TRANSPORT may carry (18.01, its capacity as the datasheet gives it),
embarking (18.02), the disembark modes and where their models are set up (18.04, 18.04.01),
the emergency disembark of a destroyed transport's passengers (18.05), a DEDICATED TRANSPORT
that starts empty (18.01), and 24.14 Firing Deck's limits. RULES.md §13, §27, the move index of
§20 and docs/rules-additions.md (18.01, 18.04, 18.05) paraphrase them.

Pure functions over plain data; problems come back as sentences naming the model or unit, the
rule and, where there is one, the distance involved.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Iterable, Sequence

from sim.rules.geometry import EPS, Footprint, core, distance, within_distance
from sim.rules.movement.moves import MoveType

__all__ = [
    "TRANSPORT", "DEDICATED", "ANY_NUMBER", "EMBARK_RANGE", "DISEMBARK_RANGE", "COMBAT_RANGE", "EMERGENCY_RANGE",
    "DisembarkMode", "Capacity", "WoundsRule", "Passenger", "model_refusal", "model_space", "capacity_problems",
    "embark_problems", "disembark_mode", "set_up_distance", "reach", "set_up_distance_problems",
    "charge_barred", "battle_shocked_after", "hazard_rolls_for", "empty_dedicated_transport",
    "split_sizes", "split_problems", "split_embark_problems",
    "FiringDeckPick", "firing_deck_problems",
]

TRANSPORT = "TRANSPORT"  # 18.01 the keyword of a unit that carries others
DEDICATED = "DEDICATED TRANSPORT"  # 18.01 destroyed if it starts the battle empty
EMBARK_RANGE = 3.0  # 18.02 every model within 3" of the transport
DISEMBARK_RANGE = 3.0  # 18.04 Rapid and Tactical: wholly within 3" of the transport
COMBAT_RANGE = 6.0  # 18.04 Combat: wholly within 6"
EMERGENCY_RANGE = 6.0  # 18.05 wholly within 6", as close as possible


class DisembarkMode(StrEnum):
    """18.04 / 18.05 The ways a unit leaves its transport (their values are the names events,
    logs and a unit's turn state use)."""

    RAPID = "rapid disembark"
    TACTICAL = "tactical disembark"
    COMBAT = "combat disembark"
    EMERGENCY = "emergency disembark"


def set_up_distance(mode: str) -> float:
    """18.04 / 18.05 How far from the transport the unit's models are set up (wholly within)."""
    return DISEMBARK_RANGE if mode in (DisembarkMode.RAPID, DisembarkMode.TACTICAL) else COMBAT_RANGE


def charge_barred(mode: str | None) -> bool:
    """18.04 / 18.05 / 11.02 A unit that made a Rapid, Combat or Emergency disembark this turn
    cannot declare a charge (nor charge by any other rule) this turn."""
    return mode in (DisembarkMode.RAPID, DisembarkMode.COMBAT, DisembarkMode.EMERGENCY)


def battle_shocked_after(mode: str) -> bool:
    """18.04 / 18.05 After a Combat or an Emergency disembark the unit is battle-shocked."""
    return mode in (DisembarkMode.COMBAT, DisembarkMode.EMERGENCY)


def hazard_rolls_for(mode: str) -> bool:
    """18.04 / 18.05 A Combat or an Emergency disembark makes a hazard roll per model (06.03)."""
    return mode in (DisembarkMode.COMBAT, DisembarkMode.EMERGENCY)


# --- 18.01 capacity ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class WoundsRule:
    """18.01 A capacity's rule by a model's Wounds characteristic (its W, not the wounds it has
    left): a model of the kind ``keywords`` (as Capacity.keywords; empty: any model), with none
    of the ``exempt`` keywords, whose W is at least ``at_least`` (0: any W) takes the space of
    ``space`` models, or (``space`` None) may not be carried. "Each model with a Wounds
    characteristic of 3 or more takes up the space of 2 models": (3, 2); "cannot transport
    non-CHARACTER models with a Wounds characteristic of 4 or more": (4, None, (), ("CHARACTER",))."""

    at_least: int
    space: int | None = None
    keywords: tuple[tuple[str, ...], ...] = ()
    exempt: tuple[str, ...] = ()

    def applies(self, kw: set, wounds: int) -> bool:
        """Whether a model with keywords ``kw`` and W ``wounds`` is one the rule speaks of."""
        return wounds >= self.at_least and _is_kind(self.keywords, kw) and not kw.intersection(self.exempt)

    def models(self) -> str:
        """The models it speaks of, in words ('non-CHARACTER models with W 4 or more')."""
        kind = _kind(self.keywords)
        who = "".join(f"non-{k} " for k in self.exempt) + (kind + " " if kind else "") + "models"
        return who + (f" with W {self.at_least} or more" if self.at_least else "")

    def describe(self) -> str:
        return (f"no {self.models()}" if self.space is None
                else f"each of the {self.models()} takes the space of {self.space}")


@dataclass(frozen=True, slots=True)
class Capacity:
    """18.01 A TRANSPORT's capacity as its datasheet states it, as data:

    * ``models``: how many models' spaces it has;
    * ``keywords``: what a passenger model must have, each entry a tuple of keywords of which
      the model needs one ((("INFANTRY",),) for "INFANTRY models"; (("ORKS",), ("INFANTRY",
      "BEASTS")) for "ORKS INFANTRY or BEASTS models"); empty: any model;
    * ``excluded``: keywords a model may not have ("cannot transport JUMP PACK models");
    * ``spaces``: (keyword, n) pairs: a model with that keyword takes the space of n models
      (the largest such n when it has several);
    * ``units``: how many units it may carry at once (None: as many as fit);
    * ``limits``: (n, keywords) pairs, a capacity of several kinds ("10 WARRIOR models and 1
      CHARACTER model"): at most n of its models may be of that kind (``keywords`` as above);
    * ``wounds``: rules by a model's Wounds characteristic (WoundsRule): the space it takes, or
      that it may not be carried;
    * ``split``: keywords of the units its datasheet lets it split in two at the start of the
      Declare Battle Formations step, one of the halves then starting embarked in it
      (``split_problems``, ``split_embark_problems``); empty: none."""

    models: int
    keywords: tuple[tuple[str, ...], ...] = ()
    excluded: tuple[str, ...] = ()
    spaces: tuple[tuple[str, int], ...] = ()
    units: int | None = None
    limits: tuple[tuple[int, tuple[tuple[str, ...], ...]], ...] = ()
    wounds: tuple[WoundsRule, ...] = ()
    split: tuple[str, ...] = ()

    def describe(self) -> str:
        """The capacity in words, as a datasheet would say it ('12 INFANTRY models; each MEGA
        ARMOUR model takes the space of 2; not JUMP PACK models')."""
        kinds = _kind(self.keywords)
        if self.limits:
            out = [" and ".join(f"{n} {_kind(kw)} model{'s' if n != 1 else ''}" for n, kw in self.limits)]
        elif self.models >= ANY_NUMBER:
            out = [f"any number of {kinds + ' ' if kinds else ''}models"]
        else:
            out = [f"{self.models} {kinds + ' ' if kinds else ''}model{'s' if self.models != 1 else ''}"]
        out += [f"each {k} model takes the space of {n}" for k, n in self.spaces]
        out += [r.describe() for r in self.wounds]
        if self.excluded:
            out.append(f"not {' or '.join(self.excluded)} models")
        if self.units is not None:
            out.append(f"at most {self.units} unit{'s' if self.units != 1 else ''}")
        if self.split:
            out.append(f"may split a {' or '.join(self.split)} unit in two (26 step 7)")
        return "; ".join(out)


ANY_NUMBER = 1000  # models' spaces read as "any number" (a capacity counted in units: "1 INFANTRY unit")


def _kind(keywords) -> str:
    return " ".join(" or ".join(alt) for alt in keywords)


def _is_kind(keywords, kw: set) -> bool:
    """A model with keywords ``kw`` is of the kind ``keywords`` (one of each entry's)."""
    return all(kw.intersection(alt) for alt in keywords)


@dataclass(frozen=True, slots=True)
class Passenger:
    """A unit as 18.01 weighs it: its id and its models' (id, keywords, Wounds characteristic),
    living ones only."""

    unit: str
    models: tuple[tuple[str, frozenset[str], int], ...]


def model_refusal(cap: Capacity, keywords: Iterable[str], wounds: int = 1) -> str | None:
    """18.01 Why a model with ``keywords`` and the Wounds characteristic ``wounds`` may not be
    carried (its datasheet's words), or None."""
    kw = set(keywords)
    for alt in cap.keywords:
        if not kw.intersection(alt):
            return f"it is not {' or '.join(alt)}"
    barred = [k for k in cap.excluded if k in kw]
    if barred:
        return f"it is {barred[0]}, which cannot be carried"
    for r in cap.wounds:
        if r.space is None and r.applies(kw, wounds):
            return f"it has W {wounds}, and {r.models()} cannot be carried"
    return None


def model_space(cap: Capacity, keywords: Iterable[str], wounds: int = 1) -> int:
    """18.01 How many models' spaces a model with ``keywords`` and the Wounds characteristic
    ``wounds`` takes: the largest n of the capacity's "takes the space of n" keywords it has
    and of its rules by W that speak of it, else 1."""
    kw = set(keywords)
    return max([n for k, n in cap.spaces if k in kw]
               + [r.space for r in cap.wounds if r.space is not None and r.applies(kw, wounds)], default=1)


def capacity_problems(transport: str, cap: Capacity | None, passengers: Sequence[Passenger]) -> list[str]:
    """18.01 Whether ``passengers`` fit in the transport together: each of their models one the
    datasheet allows, their spaces (each model's ``model_space``) within its capacity, and no
    more units than it takes. Returns every problem (empty: they fit). A unit that is not a
    TRANSPORT with a capacity (``cap`` None) carries nothing."""
    if not passengers:
        return []
    if cap is None:
        return [f"{transport} has no transport capacity: it carries no unit (18.01)"]
    out = []
    used = 0
    for p in passengers:
        for mid, kw, w in p.models:
            why = model_refusal(cap, kw, w)
            if why:
                out.append(f"{mid} ({p.unit}) cannot embark in {transport}: {why} (18.01: {cap.describe()})")
            used += model_space(cap, kw, w)
    for n, kind in cap.limits:  # (a capacity of several kinds: at most n of each)
        count = sum(1 for p in passengers for _mid, kw, _w in p.models if _is_kind(kind, set(kw)))
        if count > n:
            out.append(f"{count} {_kind(kind)} models in {transport}, more than the {n} its capacity takes "
                       f"(18.01: {cap.describe()})")
    if used > cap.models:
        units = ", ".join(p.unit for p in passengers)
        out.append(f"{units} take{'s' if len(passengers) == 1 else ''} {used} spaces in {transport}, more than "
                   f"its capacity of {cap.models} (18.01: {cap.describe()})")
    if cap.units is not None and len(passengers) > cap.units:
        out.append(f"{transport} carries at most {cap.units} unit{'s' if cap.units != 1 else ''}, not "
                   f"{len(passengers)} (18.01: {cap.describe()})")
    return out


def split_sizes(models: int) -> tuple[int, int]:
    """26 step 7 (a transport's datasheet rule) A unit split in two: each half as equal a number
    of models as possible, the first the larger."""
    return (models + 1) // 2, models // 2


def split_problems(unit: str, keywords: Iterable[str], models: int, transport: str, cap: Capacity | None,
                   splits_before: int) -> list[str]:
    """26 step 7 Whether ``transport``'s datasheet rule may split ``unit`` (with ``keywords`` and
    ``models`` models) at the start of the Declare Battle Formations step: the rule names one of
    the unit's keywords, the unit has two models or more to share out, and the transport has not
    split another (``splits_before``). Returns every problem (empty: it may)."""
    out = []
    if cap is None or not cap.split:
        return [f"{transport} has no rule that splits a unit (26 step 7)"]
    kw = set(keywords)
    if not kw.intersection(cap.split):
        out.append(f"{unit} is not {' or '.join(cap.split)}: {transport}'s rule cannot split it (26 step 7)")
    if models < 2:
        out.append(f"{unit} has {models} model{'s' if models != 1 else ''}: there is nothing to split (26 step 7)")
    if splits_before:
        out.append(f"{transport}'s rule splits one unit, and it splits another already (26 step 7)")
    return out


def split_embark_problems(splits: Iterable[tuple[str, str, str]], embarked: dict) -> list[str]:
    """26 step 7 Of the two units each split (first half, second half, the transport whose rule
    split it), one starts the battle embarked in that transport, the other not (it may start in
    another transport, or be deployed on its own) (``embarked``: unit -> the transport it
    starts in). Returns every problem (empty: each pair has one, and one only, there)."""
    out = []
    for a, b, t in splits:
        inside = (embarked.get(a) == t) + (embarked.get(b) == t)
        if inside != 1:
            out.append(f"one of {a} and {b} (split by {t}'s rule) must start the battle embarked in {t}"
                       + (", and the other not in it" if inside else "") + " (26 step 7)")
    return out


def empty_dedicated_transport(keywords: Iterable[str], passengers: int) -> bool:
    """18.01 A DEDICATED TRANSPORT with no unit embarked once battle formations are declared is
    destroyed (with no 'when destroyed' rules)."""
    return DEDICATED in set(keywords) and passengers == 0


# --- 18.02 embark --------------------------------------------------------------------------

EMBARK_AFTER = (MoveType.NORMAL, MoveType.ADVANCE, MoveType.FALL_BACK)


def embark_problems(unit: str, transport: str, *, move: str, round: int | None, set_up_this_turn: bool,
                    gaps: Sequence[tuple[str, float]], room: Sequence[str]) -> list[str]:
    """18.02 Embarking, right after the unit's ``move`` (a normal, advance or fall-back move):

    * from battle round 1 (``round`` None: free play, no rounds);
    * every model within 3" of the transport when the move ends (``gaps``: each model's id and
      its distance to the nearest of the transport's models);
    * the unit was not set up this turn (it did not arrive from reserves nor disembark);
    * the datasheet allows it and there is room (``room``: capacity_problems with the unit
      added to those already embarked).

    Returns every problem (empty: it embarks)."""
    out = []
    if move not in EMBARK_AFTER:
        out.append(f"{unit} may embark only right after a normal, advance or fall-back move, not a {move} move (18.02)")
    if round is not None and round < 1:
        out.append(f"{unit} may embark only from battle round 1 (18.02)")
    if set_up_this_turn:
        out.append(f"{unit} was set up this turn and cannot embark (18.02)")
    for mid, gap in gaps:
        if not within_distance(gap, EMBARK_RANGE):
            out.append(f"{mid}: {gap:.2f}\" from {transport}; every model must end within "
                       f"{EMBARK_RANGE:g}\" of the transport to embark (18.02)")
    return out + list(room)


# --- 18.04 disembark -----------------------------------------------------------------------

def disembark_mode(transport: str, *, move_selected: str | None, move_type: str | None,
                   advanced: bool, fell_back: bool, tactical_possible) -> tuple[DisembarkMode | None, str | None]:
    """18.04 The mode a unit disembarks in from ``transport`` this Movement phase, the modes
    tested in order (09.02.02), given the transport's move this phase:

    * none if the transport advanced or fell back this phase (refused);
    * Rapid (3") if it made a normal or an ingress move;
    * Tactical (3") if it remained stationary or has not yet been selected to move, and the
      unit can be set up (``tactical_possible``: a callable, asked only then);
    * Combat (6") otherwise.

    Returns (the mode, None) or (None, why not)."""
    if advanced or fell_back or move_type in (MoveType.ADVANCE, MoveType.FALL_BACK) or move_selected in (
            MoveType.ADVANCE, MoveType.FALL_BACK, MoveType.DESPERATE_ESCAPE):
        did = "advanced" if advanced or MoveType.ADVANCE in (move_type, move_selected) else "fell back"
        return None, f"{transport} {did} this phase: no unit may disembark from it (18.04)"
    if move_type in (MoveType.NORMAL, MoveType.INGRESS):
        return DisembarkMode.RAPID, None
    if move_type is None and move_selected not in (None, MoveType.STATIONARY):
        return None, f"{transport} was selected to move and has not moved yet (09.02)"
    if move_type not in (None, MoveType.STATIONARY):
        return None, f"{transport} made a {move_type} move this phase: no unit may disembark from it (18.04)"
    return (DisembarkMode.TACTICAL if tactical_possible() else DisembarkMode.COMBAT), None


def reach(fp: Footprint, transport: Sequence[Footprint]) -> float:
    """01.04.01 "Wholly within X of the transport": how far the farthest point of the base is
    from the transport (the nearest of its models): a base is wholly within X when this is
    not more than X. For a base outside the transport it is exact: the distance to a convex
    footprint grows by the base's radius from its core's farthest vertex."""
    pts, r = core(fp)
    best = float("inf")
    for t in transport:
        far = max(distance(Footprint("round", float(x), float(y), 0.0, 0.0), t) for x, y in pts)
        best = min(best, far + r)
    return best


def set_up_distance_problems(models: Sequence[tuple[str, Footprint]], transport: Sequence[Footprint],
                             transport_id: str, mode: str) -> list[str]:
    """18.04 / 18.05 Every model set up wholly within the mode's distance of the transport
    (3" Rapid and Tactical, 6" Combat and Emergency). Returns a problem per model beyond it."""
    limit = set_up_distance(mode)
    out = []
    for mid, fp in models:
        far = reach(fp, transport)
        if far > limit + EPS:
            out.append(f"{mid}: part of its base is {far:.2f}\" from {transport_id}; a {mode} sets up wholly "
                       f"within {limit:g}\" of the transport ({'18.05' if mode == DisembarkMode.EMERGENCY else '18.04'})")
    return out


# --- 24.14 Firing Deck ---------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class FiringDeckPick:
    """24.14 One embarked model chosen and the ranged weapon it lends: the model's id, its unit
    (the id and whether it was already selected to shoot this phase), the weapon's name, and
    what the model carries (each weapon's name, whether it is ranged, whether [ONE SHOT])."""

    model: str
    unit: str
    unit_shot: bool
    weapon: str
    carried: tuple[tuple[str, bool, bool], ...]


def firing_deck_problems(transport: str, x: int | None, picks: Sequence[FiringDeckPick], *,
                         in_shooting_phase: bool, one_shot: str) -> list[str]:
    """24.14 Firing Deck X: each time the TRANSPORT is selected to shoot in its player's
    Shooting phase, up to X models embarked in it, of units not yet selected to shoot this
    phase, each lend it one of their ranged weapons, never a once-per-battle one (``one_shot``: its tag, 24.26). ``x``:
    the transport's X (None: it has no Firing Deck). A model lends one weapon. Returns every
    problem (empty: the picks are legal)."""
    if not picks:
        return []
    if x is None:
        return [f"{transport} has no Firing Deck: no embarked model can shoot from it (24.14)"]
    out = []
    if not in_shooting_phase:
        out.append(f"embarked models shoot from {transport} only when it is selected to shoot in its "
                   f"player's Shooting phase (24.14, 07.02.01)")
    if len(picks) > x:
        out.append(f"{transport} lets at most {x} embarked model{'s' if x != 1 else ''} shoot, not {len(picks)} (24.14)")
    seen: set[str] = set()
    for p in picks:
        if p.model in seen:
            out.append(f"{p.model} lends one weapon only (24.14)")
        seen.add(p.model)
        if p.unit_shot:
            out.append(f"{p.model}: {p.unit} was already selected to shoot this phase (24.14)")
        found = [c for c in p.carried if c[0] == p.weapon]
        if not found:
            have = ", ".join(name for name, ranged, _o in p.carried if ranged) or "none"
            out.append(f"{p.model} has no ranged weapon {p.weapon!r} (it has: {have}) (24.14)")
        elif not found[0][1]:
            out.append(f"{p.model}: {p.weapon} is a melee weapon; a transport borrows ranged weapons (24.14)")
        elif found[0][2]:
            out.append(f"{p.model}: {p.weapon} is {one_shot}, which cannot be lent (24.14, 24.26)")
    return out
