"""09.06 / 09.07 / 10.02 / 11.02 Rules that let a unit shoot or declare a charge in a turn in which
it advanced or fell back (the ELIGIBLE effects of sim.rules.effects.vocabulary): which permissions
a unit needs after its move this turn, whether those acting on it cover the move, and, where a
permission's conditions restrict the other unit (the target of the shoot or charge it permits),
why that target is refused. Pure: the world's answers are sim.world.rule_reads.permitting.

The core rules bar both: an advanced unit qualifies only for assault shooting (09.06, 10.04-10.07)
and cannot declare a charge; a unit that fell back is not eligible to shoot nor to declare a
charge (09.07, 11.02). A permission lifts the bar its move puts on that act, nothing else: the
shooting types still need what else they need (10.04 an unengaged unit), a charge an enemy
within 12"."""

from __future__ import annotations

from typing import Iterable

from sim.rules.effects import vocabulary as V

SHOOT, CHARGE = "shooting", "charging"  # what a permission lets a unit do
ACTS = (SHOOT, CHARGE)
_SHOOTING = (V.SHOOT_AFTER_ADVANCE, V.SHOOT_AFTER_FALL_BACK)
_AFTER_ADVANCE = (V.SHOOT_AFTER_ADVANCE, V.CHARGE_AFTER_ADVANCE)


def needed(act: str, advanced: bool, fell_back: bool) -> tuple[str, ...]:
    """The permissions (V.PERMISSIONS) a unit that ``advanced`` / ``fell_back`` this turn needs to
    ``act`` (SHOOT or CHARGE): () when its move bars nothing."""
    if act not in ACTS:
        raise ValueError(f"act must be one of {ACTS}, not {act!r}")
    out = []
    if advanced:
        out.append(V.SHOOT_AFTER_ADVANCE if act == SHOOT else V.CHARGE_AFTER_ADVANCE)
    if fell_back:
        out.append(V.SHOOT_AFTER_FALL_BACK if act == SHOOT else V.CHARGE_AFTER_FALL_BACK)
    return tuple(out)


def lifted(permissions: Iterable[str], act: str, advanced: bool, fell_back: bool) -> bool:
    """The permissions acting on the unit cover every bar its move this turn puts on ``act``
    (False when its move bars nothing: there is nothing to lift)."""
    need = needed(act, advanced, fell_back)
    have = set(permissions)
    return bool(need) and all(p in have for p in need)


def refusal(rule: str, permission: str, target: str, why: str) -> str:
    """Why a permission of ``rule`` does not cover the shoot or charge at ``target``: ``why`` is
    the first of its conditions that fails for that target, in words (conditions.why_not)."""
    moved = "advanced" if permission in _AFTER_ADVANCE else "fell back"
    verb = "shoot at" if permission in _SHOOTING else "charge"
    return f"{rule} lets it {verb} {target} in a turn it {moved} only {why.removesuffix(' (not now)')}: not so now"


def permission_words(permission: str) -> str:
    """A permission in words: "may make ranged attacks in a turn it advanced" (words.py's)."""
    verb = "make ranged attacks" if permission in _SHOOTING else "declare a charge"
    return f"may {verb} in a turn it {'advanced' if permission in _AFTER_ADVANCE else 'fell back'}"
