"""Leader lists: which bodyguard datasheets a CHARACTER can lead (19.01), as the data gives it.

The 11th-edition catalogues record it only in the text of the datasheet's "Leader" ability:
a list after "can be attached to the following units", one name a line ("\u25a0 IMMORTALS") or
marked up on one line ("^^**Immortals, Lychguard**^^"). No entry, constraint or structured field
holds it. So the list's part of the text is found (the marked lines and spans, else the rest of
the sentence that introduces them), and in it only **the names of datasheets known** (those of
the catalogues read, or of a roster's units) are taken, longest first, each span used once: never
the prose around them ("even if NEMESOR ZAHNDREKH has already been attached" names a datasheet
in a sentence that is not the list, and is not taken). The result is datasheet names as the
data spells them.
"""

from __future__ import annotations

import re

from sim.importers import bsdata as B

MAX_TEXT = 4000  # characters of an ability's text looked at
_BULLET = re.compile(r"^\s*(?:[\u25a0\u25aa\u2022\u25cf\u2023\u2043*\-\u2013])\s*(.+?)\s*$")
_MARKED = re.compile(r"\^\^(.+?)\^\^")
_INTRO = re.compile(r"following\s+units?\s*:?(.*)", re.I | re.S)


def list_part(text: str) -> list[str]:
    """The pieces of a Leader ability's text that hold its list of units."""
    text = text[:MAX_TEXT]
    parts = [m.group(1) for line in text.splitlines() if (m := _BULLET.match(line))]
    parts += _MARKED.findall(text)
    if not parts:
        m = _INTRO.search(text)
        if m:
            parts = [re.split(r"(?<=[a-z])\.\s|\n\s*\n", m.group(1), maxsplit=1)[0]]
    return parts


def can_lead(texts: list[str], known: dict[str, str]) -> list[str]:
    """The datasheets the Leader texts name: ``known`` maps a folded name (bsdata.norm) to the
    datasheet's name as the data spells it. In the order the text names them, each once."""
    if not known or not texts:
        return []
    names = sorted(known, key=len, reverse=True)
    found: list[tuple[int, int, str]] = []  # (piece, position, name)
    pieces = [p for t in texts for p in list_part(t)]
    for k, piece in enumerate(pieces):
        s = _fold(piece)
        used = [False] * len(s)
        for n in names:
            if len(n) > len(s) or n not in s:
                continue
            for m in re.finditer(r"(?<![\w])" + re.escape(n) + r"(?![\w])", s):
                a, b = m.span()
                if not any(used[a:b]):
                    used[a:b] = [True] * (b - a)
                    found.append((k, a, known[n]))
    found.sort(key=lambda x: (x[0], x[1]))
    return list(dict.fromkeys(name for _, _, name in found))


def _fold(s: str) -> str:
    """A text folded as names are (bsdata.norm), its mark-up stripped."""
    return B.norm(re.sub(r"[*_^]", " ", s))


def known_names(names) -> dict[str, str]:
    """folded name -> name, for the datasheets a leader list may name."""
    out: dict[str, str] = {}
    for n in names:
        n = B.clean_name(n)
        if n and len(n) >= 3:
            out.setdefault(_fold(n), n)
    return out
