"""`sim odds`'s units by the names a person reads (issue 28 item 1): ``--unit`` and ``--target``
take a unit's id or its name (case-insensitive; a name two units share as the sandbox shows it,
"Raider Mob (2)"), and the text printed names units and models by their names (sim.names), the
ids kept for ``--json``, which a machine reads."""

from __future__ import annotations

from sim.errors import ScenarioError
from sim.names import in_words, models_in_units, models_with_units, unit_names
from sim.rules.turn import PLAYER


def resolve(spec, option: str, given: str) -> str:
    """The id of the unit ``given`` names in ``spec``: its id, its shown name (sim.names:
    "Raider Mob (2)") or its datasheet name when no other unit has it, case-insensitive. An
    unknown or ambiguous name is a ScenarioError listing the choices (one line, exit status 2)."""
    units = list(spec.units)
    if any(u.id == given for u in units):
        return given
    shown = unit_names(units)
    key = given.strip().casefold()
    exact = [uid for uid, n in shown.items() if n.casefold() == key]
    if len(exact) == 1:
        return exact[0]
    same = [u.id for u in units if u.name.casefold() == key]
    if len(same) == 1:
        return same[0]
    if same:
        choices = ", ".join(f'"{shown[uid]}"' for uid in same)
        raise ScenarioError(spec.path, option, f"one of {choices} ({len(same)} units are called that)",
                            f'"{given}"')
    choices = ", ".join(f'"{n}"' for n in shown.values())
    raise ScenarioError(spec.path, option, f"a unit's name or id: {choices}", f'"{given}"')


def words_of(spec) -> tuple[dict[str, str], dict]:
    """The names to read ``spec``'s engine text with (in_words): its units', its models' (with
    their unit's where another unit has a model of that name), its players' (the armies')."""
    units = list(spec.units)
    names = {**models_with_units(units), **unit_names(units),
             **dict(zip(PLAYER, (a.name for a in spec.armies)))}
    return names, models_in_units(units)


def said(spec, text: str) -> str:
    """``text`` (a report, a title, a refusal) with the scenario's ids read as names."""
    names, models = words_of(spec)
    return in_words(text, names, models)
