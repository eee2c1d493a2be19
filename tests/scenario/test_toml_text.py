"""sim.scenario.toml_text.quote: any text written as a TOML string reads back as itself, in
printable characters only (so `sim import` without --out prints a file TOML can read: the
terminal escaping of sim.cli leaves printable text alone)."""

from __future__ import annotations

import tomllib

from hypothesis import given, strategies as st

from sim.errors import escape_controls
from sim.scenario.toml_text import quote

# (TOML cannot hold a lone surrogate: no name the importers keep has one)
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@given(TEXT)
def test_quote_reads_back_as_the_same_text_and_is_printable(text):
    q = quote(text)
    assert tomllib.loads(f"k = {q}")["k"] == text
    assert q.isprintable() and escape_controls(q) == q


def test_quote_the_characters_json_leaves_unreadable_to_toml():
    """Beyond U+FFFF (json's surrogate pairs with ensure_ascii), a soft hyphen, a zero-width
    joiner, a bidirectional override (raw without it, then escaped Python's way on a terminal)."""
    for text in ("emoji \U0001F600", "Duty\xadblade", "x\u200dy", "a\u202eb", "c\x1b[31m"):
        q = quote(text)
        assert tomllib.loads(f"k = {q}")["k"] == text and q.isprintable(), q
