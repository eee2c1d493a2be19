"""15.02 Command Re-roll of one die: which dice are worth offering (a face of the die would
give a better result: better_faces, raisable), how an option names the die, and
how a script's standing answer (README, Decisions) fits an offer. Pure: the offers themselves
are the stratagem's record's (sim.stratagems.command_reroll)."""

from __future__ import annotations

import re

from sim.rules.attack import SUCCESS

DECLINE = "decline"
# the rolls offered one die at a time, in the words the options use (the registry's ROLLS)
ROLLS = ("attacks", "hit", "wound", "save", "damage", "hazard")
# what a script may answer: a roll, a die of it, a pool's, or an option as offered
SCRIPT_FORM = re.compile(r"^(?:pool (\d+) )?(attacks|hit|wound|save|damage|hazard)(?: (\d+))?(?:: \d+)?$")


def better_faces(results, critical_counts: bool) -> frozenset[int]:
    """15.02 The faces of a hit or wound roll's die worth re-rolling: those that another face of
    the D6 betters for the rolling player under the rules the step applies. ``results``: the
    step's result of each face 1..6 (index 0 unused; FAIL < SUCCESS < CRITICAL,
    sim.rules.attack). A critical result betters a success only when ``critical_counts``: an
    ability acting in the pool does more with it (critical_matters). So a failed die is worth
    it when some face succeeds, and a successful non-critical one when a critical counts."""
    if critical_counts:
        ranks = results[1:]
    else:
        ranks = [r if r < SUCCESS else SUCCESS for r in results[1:]]
    best = max(ranks)
    return frozenset(face for face, r in enumerate(ranks, 1) if r < best)


def critical_matters(acting, hook: str) -> bool:
    """15.02 Whether a critical result of the step does more than a success: an ability acting
    in the pool has the registry's ``hook`` for it (Hook.CRITICAL_HIT_EFFECT for a hit roll,
    Hook.CRITICAL_WOUND_MORTALS for a wound roll; ``acting``: PoolState.acting)."""
    return hook in acting


def raisable(value: int, sides: int) -> bool:
    """15.02 A die of an attack-count or damage roll worth re-rolling: a higher face would give
    more (every face but the highest; a damage roll is asked about only while its total is
    short of the model's remaining wounds, sim.rules.sequence.damage_steps)."""
    return value < sides


def whole_roll_raisable(dice, sides: int = 6) -> bool:
    """15.02 An advance or charge roll (re-rolled in full) worth offering: another roll could
    give more, so its total is below the highest (never an advance of 6, never a charge of
    12). Whether a charge that reached is worth the risk is the player's to say (ASK)."""
    return sum(dice) < sides * len(dice)


# --- which questions a player is asked (issue 28: a per-player setting) ---------------------
ALWAYS, FAILED, NEVER = "always", "failed", "never"
ASK = (ALWAYS, FAILED, NEVER)
"""What a player is asked about: every die worth re-rolling (the default), only a die of a
failed roll (a failed hit, wound, save or hazard roll, a charge that reaches no enemy unit),
or never. The scenario's ``[mission] command_reroll`` sets it per player, the sandbox's
settings for the person at the screen."""
_ALL_FAILED = ("save", "hazard")  # (their offered dice are all failed ones: a failed save, a 1-2)
_NEVER_FAIL = ("attacks", "damage", "advance")  # (a low roll is not a failed one)


def failed_dice(kind: str, candidates, failing=None) -> list[int]:
    """The offered dice (``candidates``) of a roll of ``kind`` that failed: ``failing`` when the
    step knows them (a hit or wound roll's failed dice), else all of a save or hazard roll's,
    none of an attack-count, damage or advance roll's."""
    if failing is not None:
        return [i for i in candidates if i in failing]
    if kind in _NEVER_FAIL:
        return []
    return list(candidates) if kind in _ALL_FAILED else []


def asked_dice(setting: str, candidates, failed) -> list[int]:
    """The offered dice a player whose setting is ``setting`` (ASK) is asked about."""
    if setting == NEVER:
        return []
    if setting == FAILED:
        return [i for i in candidates if i in failed]
    return list(candidates)


def asks_whole(setting: str, failed: bool) -> bool:
    """Whether a player with ``setting`` is asked about a whole roll (an advance or charge
    roll; ``failed``: a charge roll that reaches no enemy unit)."""
    return setting == ALWAYS or (setting == FAILED and failed)


def option(roll: str, die: int, value: int, pool: int | None = None) -> str:
    """The option naming one die, as scripts and logs write it (counted from 0): "pool 0 hit 3:
    1" (pool 0's hit roll, its die 3, showing 1); "hazard 1: 2" for a roll of no pool. A
    person reads it as option_words says."""
    return f"{roll} {die}: {value}" if pool is None else f"pool {pool} {roll} {die}: {value}"


def option_words(value: str) -> str:
    """An option as a person reads it, counted from 1: "pool 0 hit 3: 1" is "pool 1, hit
    die 4 (rolled 1)"; "hazard 1: 2" is "hazard die 2 (rolled 2)"; anything else unchanged."""
    m = SCRIPT_FORM.match(value) if isinstance(value, str) else None
    if m is None or m.group(3) is None or ":" not in value:
        return value
    pool, roll, die = m.groups()
    shown = value.rsplit(":", 1)[1].strip()
    lead = "" if pool is None else f"pool {int(pool) + 1}, "
    return f"{lead}{roll} die {int(die) + 1} (rolled {shown})"


def about_words(about: str) -> str:
    """A Command Re-roll's note as a person reads it (the stratagem event's ``about``, counted
    from 0: "pool 0 hit 3 (was 1)"): "pool 1, hit die 4 (was 1)"."""
    m = re.match(r"^(?:pool (\d+) )?(attacks|hit|wound|save|damage|hazard) (\d+)( \(was \d+\))$", about or "")
    if m is None:
        return about
    pool, roll, die, was = m.groups()
    return ("" if pool is None else f"pool {int(pool) + 1}, ") + f"{roll} die {int(die) + 1}{was}"


def fit_script(req, value) -> tuple[object, str | None] | None:
    """A script's standing stratagem answer (README, Decisions) fitted to a Command Re-roll of
    the attack sequence: ``"hit"`` (the first die offered of a hit roll), ``"hit 3"`` (die 3),
    ``"pool 1 hit 3"``, or an option as written. Returns (answer, note), or None when ``req``
    is not such a request (the caller fits it as usual). An answer for another roll, or for
    another stratagem ("unit -> enemy unit"...), is a decline without a note: it stands for
    their offers, not this one's (what a script may answer is checked when it is read)."""
    if "roll" not in req.context or not isinstance(value, str):  # (not an offer after a roll)
        return None
    m = SCRIPT_FORM.match(value)
    if "dice" not in req.context:  # (an advance or charge roll's: "use" or "decline")
        return (DECLINE, None) if m is not None else None
    if m is None:
        return DECLINE, None
    pool, roll, die = m.groups()
    if roll != req.context["roll"] or (pool is not None and int(pool) != req.context["pool"]):
        return DECLINE, None  # (another roll's, another pool's)
    for option, i in req.context["dice"].items():
        if die is None or int(die) == i:
            return option, (None if option == value else f"{value!r} stands for {option!r}")
    return DECLINE, (f"the script's answer does not apply: {value!r} is not a die offered here "
                     f"({', '.join(req.context['dice'])}); the default 'decline' is used")


def names_a_save(value) -> bool:
    """A script answer that names a save roll's die: the defender's Command Re-roll, which the
    attacking side's step answers (sim.players.resolve.answer_from)."""
    m = SCRIPT_FORM.match(value) if isinstance(value, str) else None
    return m is not None and m.group(2) == "save"
