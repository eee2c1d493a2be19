"""The rule records (sim.rules.effects.table) as data: TOML files of ``[[rule]]`` tables in our
own words (format: sim.rules.effects.data), read in this order: army rules (army.toml),
detachment rules (detachments.toml), then datasheet abilities by faction group
(datasheets_imperium, datasheets_astartes, datasheets_chaos, datasheets_chaos_knights,
datasheets_xenos). Read once, when a rule is first looked up: a battle without rules never
reads them."""

from __future__ import annotations

from pathlib import Path

from sim.rules.effects.data import load_records

FILES = ("army", "detachments", "datasheets_imperium", "datasheets_astartes", "datasheets_chaos",
         "datasheets_chaos_knights", "datasheets_xenos")
HERE = Path(__file__).resolve().parent


def load_all() -> tuple:
    """Every record of every file, in FILES order."""
    out: tuple = ()
    for name in FILES:
        out += load_records(HERE / f"{name}.toml")
    return out


def __getattr__(name: str):
    if name == "ALL":  # (as the records were a module's tuple: read when asked for)
        return load_all()
    raise AttributeError(name)
