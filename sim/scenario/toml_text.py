"""A string as a TOML basic string, for the files the simulator writes (sim.importers.scenario,
the sandbox's Save table): what TOML reads back as the same text, in printable characters only.

json.dumps is nearly that, but not quite: with ``ensure_ascii`` it writes a character beyond
U+FFFF as a surrogate pair (``\\ud83d\\ude00``), which TOML refuses; without it, format
characters (U+202E, U+200B, a soft hyphen) stay raw, and a terminal the file is printed to
(`sim import` without --out) shows them escaped Python's way, which TOML cannot read."""

from __future__ import annotations

import json


def quote(s: str) -> str:
    """``s`` as a double-quoted TOML string: JSON's escapes (quotes, backslashes, C0 controls:
    all TOML escapes too), and every other character that is not printable as TOML's escape of
    its code point (a backslash, ``u`` and 4 hex digits, or ``U`` and 8)."""
    out = json.dumps(s, ensure_ascii=False)
    if out.isprintable():
        return out
    return "".join(c if c.isprintable() else
                   (f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}") for c in out)
