"""A small typed reader over parsed TOML that reports paths like armies[0].units[2].models[1].W."""

from __future__ import annotations

from sim.errors import ScenarioError


def show(value) -> str:
    """A short, readable rendering of a found value."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return repr(value)


class Reader:
    def __init__(self, file: str, data, path: str = ""):
        self.file, self.data, self.path = file, data, path

    def at(self, key) -> str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else str(key)

    def fail(self, expected: str, found, key=None):
        raise ScenarioError(self.file, self.at(key) if key is not None else self.path, expected,
                            found if isinstance(found, str) and found.startswith("<") else show(found))

    def keys(self, allowed: set[str], required: set[str] = frozenset()) -> None:
        if not isinstance(self.data, dict):
            self.fail("a table", self.data)
        for k in self.data:
            if k not in allowed:
                raise ScenarioError(self.file, self.at(k), f"one of the fields {', '.join(sorted(allowed))}",
                                    f"unknown field {k!r}")
        for k in sorted(required):
            if k not in self.data:
                raise ScenarioError(self.file, self.at(k), "this field", "<missing>")

    def sub(self, key) -> "Reader":
        return Reader(self.file, self.data[key], self.at(key))

    def has(self, key) -> bool:
        return isinstance(self.data, dict) and key in self.data

    def get(self, key, kind, default=None, *, what: str | None = None):
        if not self.has(key):
            return default
        v = self.data[key]
        if kind is float and isinstance(v, int) and not isinstance(v, bool):
            return float(v)
        if kind is int and isinstance(v, bool):
            self.fail(what or "a whole number", v, key)
        if not isinstance(v, kind):
            self.fail(what or {int: "a whole number", float: "a number", str: "a string",
                               bool: "true or false", list: "a list", dict: "a table"}.get(kind, str(kind)), v, key)
        return v

    def req(self, key, kind, *, what: str | None = None):
        if not self.has(key):
            raise ScenarioError(self.file, self.at(key), what or "this field", "<missing>")
        return self.get(key, kind, what=what)

    def items(self):
        if not isinstance(self.data, list):
            self.fail("a list", self.data)
        return [Reader(self.file, v, self.at(i)) for i, v in enumerate(self.data)]

    def point(self, key=None) -> tuple[float, float]:
        r = self.sub(key) if key is not None else self
        v = r.data
        if (not isinstance(v, list) or len(v) != 2
                or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in v)):
            r.fail("a point [x, y] in inches", v)
        return float(v[0]), float(v[1])

    def points(self, key) -> tuple[tuple[float, float], ...]:
        r = self.sub(key)
        return tuple(p.point() for p in r.items())
