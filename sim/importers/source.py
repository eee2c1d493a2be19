"""Reading a BattleScribe-format file into plain data, within limits (README "Importing rosters
and catalogues").

A roster (``.ros``), catalogue (``.cat``) or game system (``.gst``) is XML; ``.rosz`` and
``.catz`` are the same XML zipped; New Recruit and the 11th-edition data repository publish the
same structure as JSON. Whatever the form, :func:`read_document` returns the root element's
name (``roster``, ``catalogue`` or ``gameSystem``) and its content as the JSON form has it:
attributes as keys, each collection (``<profiles>``) as a list of dicts, a characteristic's text
under ``"$text"``, a text-only child (``<description>``) as a string.

Nothing here trusts the file: it must be a regular file of at most MAX_FILE_BYTES; a zip is
read member by member with the bytes counted as they come (a zip bomb stops at the limit, not
at what its header claims); XML goes through defusedxml with DTDs refused, so no entity is ever
expanded (billion laughs, external entities); JSON and XML are counted before they are parsed
(each value costs memory) and their nesting is bounded. Every refusal is an ImportFileError:
one line naming the file, the place, what was expected and what was found.
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from pathlib import Path

from sim.scenario.files import read_capped
from sim.errors import ImportFileError

MAX_FILE_BYTES = 32 * 1024 * 1024  # the file as stored, and what a zip member may unpack to
MAX_JSON_TOKENS = 1_500_000  # commas, colons and brackets: a 3.5 MB catalogue has ~160,000
MAX_XML_TAGS = 400_000  # '<' characters: a 3.5 MB catalogue has ~30,000 elements
MAX_DEPTH = 100  # elements (or JSON containers) inside each other
MAX_ZIP_MEMBERS = 16
ROOTS = ("roster", "catalogue", "gameSystem")
_MB = 1024 * 1024


def read_document(path: str | Path, roots=ROOTS) -> tuple[str, dict]:
    """(root element name, its content as a dict) of a BattleScribe file in any of its forms."""
    name = str(path)
    raw = _read_bytes(Path(path), name)
    if raw[:4] == b"PK\x03\x04" or raw[:4] == b"PK\x05\x06":
        raw = _unzip(raw, name)
    text = _decode(raw, name)
    start = text.lstrip()[:1]
    if start == "<":
        root, data = _xml(text, name)
    elif start in ("{", "["):
        root, data = _json(text, name)
    else:
        raise ImportFileError(name, "", "a BattleScribe roster or catalogue (XML, zipped XML or JSON)",
                              f"a file starting {text[:20]!r}" if text.strip() else "an empty file")
    if root not in roots:
        raise ImportFileError(name, "", f"a root element {' or '.join(roots)}", repr(root[:60]))
    return root, data


def _read_bytes(path: Path, name: str) -> bytes:
    """The file's bytes (sim.scenario.files.read_capped: a regular file of at most MAX_FILE_BYTES)."""
    return read_capped(path, name, MAX_FILE_BYTES, "a file", ImportFileError)


_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError, RuntimeError,
               NotImplementedError, ValueError, KeyError)


def _unzip(raw: bytes, name: str) -> bytes:
    """The one document in a zip (``.rosz``, ``.catz``), read with its bytes counted."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as z:
            infos = [i for i in z.infolist() if not i.is_dir()]
            if not 1 <= len(infos) <= MAX_ZIP_MEMBERS:
                raise ImportFileError(name, "", "a zip holding one roster or catalogue", f"<{len(infos)} files>")
            docs = [i for i in infos if i.filename.lower().endswith((".ros", ".cat", ".gst", ".json", ".xml"))]
            info = (docs or infos)[0]
            out, total = [], 0
            with z.open(info) as f:
                while True:
                    b = f.read(1 << 20)
                    if not b:
                        break
                    total += len(b)
                    if total > MAX_FILE_BYTES:
                        raise ImportFileError(name, info.filename[:100], f"a zipped file of at most "
                                              f"{MAX_FILE_BYTES // _MB} MB unpacked", "more bytes (a zip bomb?)")
                    out.append(b)
            return b"".join(out)
    except ImportFileError:
        raise
    except _ZIP_ERRORS as e:
        raise ImportFileError(name, "", "a whole zip file", f"a damaged or truncated zip ({type(e).__name__})") from None


def _decode(raw: bytes, name: str) -> str:
    if raw[:3] == b"\xef\xbb\xbf":
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ImportFileError(name, f"byte {e.start}", "UTF-8 text", "undecodable bytes") from None


# --- JSON -----------------------------------------------------------------------------------------

def _json(text: str, name: str) -> tuple[str, dict]:
    tokens = sum(text.count(c) for c in ",:[{")
    if tokens > MAX_JSON_TOKENS:
        raise ImportFileError(name, "", f"at most {MAX_JSON_TOKENS:,} JSON values", f"<about {tokens:,}>")
    try:
        data = json.loads(text)
    except RecursionError:
        raise ImportFileError(name, "", f"JSON nested at most {MAX_DEPTH} deep", "deeper nesting") from None
    except json.JSONDecodeError as e:
        raise ImportFileError(name, f"line {e.lineno} column {e.colno}", "valid JSON", e.msg) from None
    except (ValueError, MemoryError) as e:  # a number of thousands of digits
        raise ImportFileError(name, "", "valid JSON within limits", type(e).__name__) from None
    _check_depth(data, name)
    if not isinstance(data, dict) or len(data) != 1:
        raise ImportFileError(name, "", f"a JSON object with one key ({', '.join(ROOTS)})",
                              "a list" if isinstance(data, list) else f"keys {sorted(map(str, data))[:4]}"
                              if isinstance(data, dict) else type(data).__name__)
    (root, body), = data.items()
    if not isinstance(body, dict):
        raise ImportFileError(name, root[:60], "an object", type(body).__name__)
    return root, body


def _check_depth(data, name: str) -> None:
    stack = [(data, 0)]
    while stack:
        v, d = stack.pop()
        if d > MAX_DEPTH:
            raise ImportFileError(name, "", f"JSON nested at most {MAX_DEPTH} deep", "deeper nesting")
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values() if isinstance(x, (dict, list)))
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v if isinstance(x, (dict, list)))


# --- XML ------------------------------------------------------------------------------------------

def _xml(text: str, name: str) -> tuple[str, dict]:
    import defusedxml.ElementTree as DET
    from defusedxml import DefusedXmlException
    from xml.etree.ElementTree import ParseError

    tags = text.count("<")
    if tags > MAX_XML_TAGS:
        raise ImportFileError(name, "", f"at most {MAX_XML_TAGS:,} XML elements", f"<about {tags:,}>")
    try:
        root = DET.fromstring(text, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as e:
        raise ImportFileError(name, "", "XML without a DTD or entity declarations",
                              f"{type(e).__name__} (refused, nothing expanded)") from None
    except ParseError as e:
        line, col = getattr(e, "position", (0, 0))
        raise ImportFileError(name, f"line {line} column {col}", "well-formed XML",
                              str(e).split(":")[0] or "a parse error") from None
    except (RecursionError, MemoryError, ValueError) as e:
        raise ImportFileError(name, "", "XML within limits", type(e).__name__) from None
    return _local(root.tag), _element(root, name, 0)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _element(el, name: str, depth: int) -> dict:
    """An element as the JSON form has it (module docstring)."""
    if depth > MAX_DEPTH:
        raise ImportFileError(name, _local(el.tag)[:60], f"XML nested at most {MAX_DEPTH} deep", "deeper nesting")
    out: dict = dict(el.attrib)
    text = (el.text or "").strip()
    if text:
        out["$text"] = el.text
    for child in el:
        tag = _local(child.tag)
        if not tag:
            continue  # (a comment or processing instruction)
        if len(child) == 0 and not child.attrib:
            # <description>text</description>, or an empty collection <profiles/>
            out[tag] = child.text if (child.text or "").strip() else out.get(tag, [])
        elif not child.attrib and all(_local(g.tag) for g in child):
            out.setdefault(tag, [])
            if isinstance(out[tag], list):
                out[tag].extend(_element(g, name, depth + 2) for g in child)
        else:
            out[tag] = _element(child, name, depth + 1)
    return out
