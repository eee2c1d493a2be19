"""Base sizes for imported models whose data gives none: the project's table
(``assets/base_sizes.toml``: generic rules by keyword and wounds, and overrides by datasheet
name) and, first, a user's file of the same shape (``--bases FILE``). The import report says
which models got their base from which table and rule."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from sim.errors import ImportFileError
from sim.importers.model import Base
from sim.scenario import load as L
from sim.scenario.files import read_capped

TABLE = Path(__file__).resolve().parents[2] / "assets" / "base_sizes.toml"
MAX_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Rule:
    keywords: frozenset[str]
    max_wounds: int | None
    base: Base
    where: str  # "FILE: generic[3]" for the report


class BaseTable:
    """Where a model's base comes from when its data states none."""

    def __init__(self, user: str | Path | None = None):
        self.layers = []  # (datasheets, rules) of the user file, then the project's
        if user is not None:
            self.layers.append(_read(Path(user)))
        self.layers.append(_read(TABLE))

    def base_for(self, unit_name: str, model_name: str, keywords, wounds: int) -> tuple[Base, str]:
        """(base, where it came from)."""
        kws = {k.upper() for k in keywords}
        for sheets, _ in self.layers:
            for key in (f"{unit_name}/{model_name}", unit_name, model_name):
                if key in sheets:
                    base, where = sheets[key]
                    return base, where
        for _, rules in self.layers:
            for r in rules:
                if r.keywords <= kws and (r.max_wounds is None or wounds <= r.max_wounds):
                    return r.base, r.where
        return Base("round", 32.0, 32.0), "the simulator's default"  # (the project's table ends with a catch-all)


def _read(path: Path) -> tuple[dict, list]:
    name = str(path)
    # (read as the scenario loader reads a file: a regular file of at most MAX_BYTES, never a
    # FIFO or a device, the size checked before reading)
    raw = read_capped(path, name, MAX_BYTES, "a base size table", ImportFileError)
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError) as e:
        raise ImportFileError(name, "", "a TOML base size table", type(e).__name__) from None
    except (RecursionError, MemoryError):
        raise ImportFileError(name, "", "a TOML base size table nested a few levels deep",
                              "nesting too deep to read") from None
    unknown = set(data) - {"generic", "datasheets"}
    if unknown:
        raise ImportFileError(name, sorted(unknown)[0], "generic or datasheets", "an unknown table")
    rules = []
    gen = data.get("generic", [])
    if not isinstance(gen, list):
        raise ImportFileError(name, "generic", "a list of [[generic]] rules", type(gen).__name__)
    for i, r in enumerate(gen):
        at = f"generic[{i}]"
        if not isinstance(r, dict) or set(r) - {"keywords", "max_wounds", "base_mm", "base", "shape"}:
            raise ImportFileError(name, at, "keywords, max_wounds and base_mm or base (and shape)", repr(r)[:80])
        kws = r.get("keywords", [])
        if not isinstance(kws, list) or not all(isinstance(k, str) for k in kws):
            raise ImportFileError(name, f"{at}.keywords", "a list of keywords", repr(kws)[:80])
        mw = r.get("max_wounds")
        if mw is not None and (not isinstance(mw, int) or isinstance(mw, bool) or mw < 1):
            raise ImportFileError(name, f"{at}.max_wounds", "a whole number of 1 or more", repr(mw)[:40])
        rules.append(Rule(frozenset(k.upper() for k in kws), mw, _base(r, name, at),
                          f"{path.name}: generic[{i}]"))
    sheets = {}
    ds = data.get("datasheets", {})
    if not isinstance(ds, dict):
        raise ImportFileError(name, "datasheets", "a table of datasheet names", type(ds).__name__)
    for key, v in ds.items():
        at = f"datasheets.{key}"
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            v = {"base_mm": v}
        if not isinstance(v, dict):
            raise ImportFileError(name, at, "a base size in mm or { base = [l, w], shape = ... }", repr(v)[:60])
        sheets[key] = (_base(v, name, at), f"{path.name}: datasheets.{key}")
    return sheets, rules


def _base(r: dict, name: str, at: str) -> Base:
    if "base_mm" in r:
        mm = r["base_mm"]
        if not isinstance(mm, (int, float)) or isinstance(mm, bool) or not L.BASE_MM[0] <= mm <= L.BASE_MM[1]:
            raise ImportFileError(name, f"{at}.base_mm", f"a size from {L.BASE_MM[0]:g} to {L.BASE_MM[1]:g} mm", repr(mm))
        return Base("round", float(mm), float(mm))
    b = r.get("base")
    if (not isinstance(b, list) or len(b) != 2
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and L.BASE_MM[0] <= x <= L.BASE_MM[1]
                       for x in b)):
        raise ImportFileError(name, f"{at}.base", "base_mm = N or base = [length, width] in mm", repr(b)[:60])
    shape = r.get("shape", "oval")
    if shape not in ("oval", "rect", "round"):
        raise ImportFileError(name, f"{at}.shape", "oval, rect or round", repr(shape)[:40])
    return Base(shape, float(b[0]), float(b[1]))
