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

import bz2
import io
import json
import lzma
import re
import struct
import zipfile
import zlib
from pathlib import Path

from sim.scenario.files import read_capped
from sim.errors import ImportFileError

MAX_FILE_BYTES = 32 * 1024 * 1024  # the file as stored, and what a zip member may unpack to
MAX_JSON_TOKENS = 1_500_000  # commas, colons and brackets: a 3.5 MB catalogue has ~160,000
MAX_XML_TAGS = 400_000  # '<' characters: a 3.5 MB catalogue has ~30,000 elements
MAX_XML_ATTRIBUTES = 1_500_000  # '=' characters: each attribute has one (a 3.5 MB catalogue: ~120,000)
MAX_XML_ELEMENT_ATTRIBUTES = 256  # attributes of one element (the data's have at most ~15)
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
               NotImplementedError, ValueError, KeyError, struct.error, lzma.LZMAError)
_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate", zipfile.ZIP_BZIP2: "bzip2",
            zipfile.ZIP_LZMA: "LZMA"}
PIECE = 64 * 1024  # bytes a decompressor may give at once (every method is asked with max_length)
MAX_ZIP_ENTRIES = 1000  # central directory records looked at before zipfile reads them


def _unzip(raw: bytes, name: str) -> bytes:
    """The one document in a zip (``.rosz``, ``.catz``), read with its bytes counted."""
    return _zip_member(raw, name, MAX_FILE_BYTES)


def zip_head(raw: bytes, name: str, limit: int) -> bytes:
    """The first ``limit`` bytes (or fewer) of the document in a zip: what a cheap look at a
    file's head reads (sim.importers.library), decompressed in pieces like a whole read."""
    return _zip_member(raw, name, limit, head=True)


def _zip_member(raw: bytes, name: str, cap: int, head: bool = False) -> bytes:
    """The document member of a zip, at most ``cap`` bytes unpacked (``head``: its first
    ``cap`` bytes). Every method zip allows is decompressed by this module, in pieces of at
    most PIECE bytes with ``max_length`` (zipfile's own reader decompresses a whole chunk of a
    bzip2 or LZMA member at once: a 1.7 KB member can unpack to a gigabyte), the bytes counted
    as they come; a member stops at the limit, not at what its header claims. Stored, deflate,
    bzip2 and LZMA are read; any other method, and an encrypted member, are refused."""
    if raw.count(b"PK\x01\x02") > MAX_ZIP_ENTRIES:
        raise ImportFileError(name, "", f"a zip of at most {MAX_ZIP_ENTRIES} entries", "more")
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as z:
            infos = [i for i in z.infolist() if not i.is_dir()]
        if not 1 <= len(infos) <= MAX_ZIP_MEMBERS:
            raise ImportFileError(name, "", "a zip holding one roster or catalogue", f"<{len(infos)} files>")
        docs = [i for i in infos if i.filename.lower().endswith((".ros", ".cat", ".gst", ".json", ".xml"))]
        info = (docs or infos)[0]
        where = info.filename[:100]
        if info.flag_bits & 0x1:
            raise ImportFileError(name, where, "a zip member that is not encrypted", "an encrypted member")
        if info.compress_type not in _METHODS:
            raise ImportFileError(name, where, "a zip member compressed with stored, deflate, bzip2 or LZMA",
                                  f"compression method {info.compress_type}")
        off = info.header_offset
        sig, n, m = struct.unpack("<4s22xHH", raw[off:off + 30])
        if sig != b"PK\x03\x04":
            raise zipfile.BadZipFile("no local header")
        start = off + 30 + n + m
        data = memoryview(raw)[start:start + info.compress_size]
        if len(data) != info.compress_size:
            raise EOFError
        out, crc = bytearray(), 0
        for piece in _pieces(info.compress_type, data, cap):
            out += piece
            crc = zlib.crc32(piece, crc)
            if len(out) > cap:
                if head:
                    return bytes(out[:cap])
                raise ImportFileError(name, where, f"a zipped file of at most {cap // _MB} MB unpacked",
                                      "more bytes (a zip bomb?)")
        if not head and crc != info.CRC:
            raise ImportFileError(name, where, "a whole zip file", "a damaged zip member (its CRC does not match)")
        return bytes(out)
    except ImportFileError:
        raise
    except _ZIP_ERRORS as e:
        raise ImportFileError(name, "", "a whole zip file", f"a damaged or truncated zip ({type(e).__name__})") from None


def _pieces(method: int, data: memoryview, cap: int):
    """The member's bytes out, PIECE at most at a time, until its data ends or ``cap`` is passed."""
    if method == zipfile.ZIP_STORED:
        for i in range(0, len(data), PIECE):
            yield bytes(data[i:i + PIECE])
        return
    if method == zipfile.ZIP_DEFLATED:
        d = zlib.decompressobj(-15)
        for i in range(0, len(data), PIECE):
            buf = bytes(data[i:i + PIECE])
            while buf:
                piece = d.decompress(buf, PIECE)
                if not piece and len(d.unconsumed_tail) == len(buf):
                    raise EOFError  # (no progress: not deflate data)
                buf = d.unconsumed_tail
                yield piece
                if d.eof:
                    return
        yield d.flush()
        return
    if method == zipfile.ZIP_BZIP2:
        d = bz2.BZ2Decompressor()
    else:
        d, data = _lzma(data, cap)
    for i in range(0, len(data), PIECE):
        buf = bytes(data[i:i + PIECE])
        while True:
            piece = d.decompress(buf, PIECE)
            buf = b""
            yield piece
            if d.eof:
                return
            if d.needs_input:
                break
    # (an LZMA stream may end without its end marker: the CRC says whether it is whole)


def _lzma(data: memoryview, cap: int):
    """An LZMA decompressor for zip's form of it (APPNOTE 5.8: a 2-byte version, the size of the
    properties, the 5 properties bytes, then the raw LZMA stream), and the stream. The dictionary
    is at most what the member may unpack to (nothing beyond ``cap`` bytes back can be copied
    from), so a header claiming 4 GB does not allocate it."""
    size, = struct.unpack("<H", data[2:4])
    props = bytes(data[4:4 + size])
    if size != 5 or len(props) != 5 or props[0] >= 9 * 5 * 5:
        raise ValueError("LZMA properties")
    lc, rest = props[0] % 9, props[0] // 9
    dict_size, = struct.unpack("<I", props[1:5])
    filt = {"id": lzma.FILTER_LZMA1, "lc": lc, "lp": rest % 5, "pb": rest // 5,
            "dict_size": max(4096, min(dict_size, cap + 1))}
    return lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[filt]), data[4 + size:]


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

class _TooMuch(Exception):
    """Raised by the tree builder mid-parse: (place, expected, found)."""


def _builder(name: str):
    """An ElementTree tree builder that counts as expat parses: elements, attributes (of each
    element and in all) and nesting, refusing at the element that passes a bound."""
    from xml.etree.ElementTree import TreeBuilder

    class Counting(TreeBuilder):
        elements = attributes = depth = 0

        def start(self, tag, attrs):
            self.elements += 1
            self.attributes += len(attrs)
            self.depth += 1
            where = _local(tag)[:60]
            if len(attrs) > MAX_XML_ELEMENT_ATTRIBUTES:
                raise _TooMuch(where, f"at most {MAX_XML_ELEMENT_ATTRIBUTES} attributes on one element",
                               f"<{len(attrs):,} attributes>")
            if self.depth > MAX_DEPTH:
                raise _TooMuch(where, f"XML nested at most {MAX_DEPTH} deep", "deeper nesting")
            if self.elements > MAX_XML_TAGS or self.attributes > MAX_XML_ATTRIBUTES:
                raise _TooMuch(where, f"at most {MAX_XML_TAGS:,} XML elements and {MAX_XML_ATTRIBUTES:,} attributes",
                               "more")
            return super().start(tag, attrs)

        def end(self, tag):
            self.depth -= 1
            return super().end(tag)

    return Counting()


def _xml(text: str, name: str) -> tuple[str, dict]:
    import defusedxml.ElementTree as DET
    from defusedxml import DefusedXmlException
    from xml.etree.ElementTree import ParseError

    # cheap upper bounds first: every element starts with '<', every attribute has an '=' (a
    # million attributes on one element would cost expat and ElementTree a gigabyte before any
    # builder saw the element); then the builder counts exactly as the parse goes
    tags = text.count("<")
    if tags > MAX_XML_TAGS:
        raise ImportFileError(name, "", f"at most {MAX_XML_TAGS:,} XML elements", f"<about {tags:,}>")
    attrs = text.count("=")
    if attrs > MAX_XML_ATTRIBUTES:
        raise ImportFileError(name, "", f"at most {MAX_XML_ATTRIBUTES:,} XML attributes", f"<up to {attrs:,}>")
    widest = _widest_tag(text)
    if widest > MAX_XML_ELEMENT_ATTRIBUTES:
        raise ImportFileError(name, "", f"at most {MAX_XML_ELEMENT_ATTRIBUTES} attributes on one element",
                              f"<up to {widest:,} on one>")
    try:
        parser = DET.DefusedXMLParser(target=_builder(name), forbid_dtd=True, forbid_entities=True,
                                      forbid_external=True)
        parser.feed(text)
        root = parser.close()
    except _TooMuch as e:
        raise ImportFileError(name, *e.args) from None
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


_QUOTED = r"""(?:"[^"]*+"|'[^']*+')"""  # an attribute's value: '>' and '=' may be inside it
_WIDE_TAG = re.compile(r"""<[^<>"']*+(?:%s[^<>"']*+){%d}""" % (_QUOTED, MAX_XML_ELEMENT_ATTRIBUTES + 1))
_TAG = re.compile(r"""<[^<>"']*+(?:%s[^<>"']*+)*+""" % _QUOTED)


def _widest_tag(text: str) -> int:
    """More than MAX_XML_ELEMENT_ATTRIBUTES when some element may have that many attributes: a
    '<' followed by that many quoted values before the next '>' outside quotes (every attribute
    has one; a '>' or '=' inside a value does not end or count; one linear scan, possessive: no
    backtracking); else 0."""
    if text.count("=") <= MAX_XML_ELEMENT_ATTRIBUTES:
        return 0
    m = _WIDE_TAG.search(text)
    if m is None:
        return 0
    tag = _TAG.match(text, m.start())
    return len(re.findall(_QUOTED, tag.group(0)))


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
