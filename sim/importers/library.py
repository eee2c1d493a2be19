"""The catalogues one catalogue reads (README "Importing rosters and catalogues", "Catalogues").

A catalogue names the catalogues it uses in ``catalogueLinks``: each link has the linked
catalogue's id (``targetId``) and a name. The files are looked up in the folder the catalogue
sits in: **by id first** (the catalogue whose root id is the link's targetId), by name only as a
fallback (the link's name with .cat, .catz or .json), because names drift (Chaos Daemons links
"Chaos - Daemons Library" while its file is "Chaos - Chaos Daemons Library.json"). Linked
catalogues' own links are followed too; the catalogues whose root entries are imported (a link
with ``importRootEntries``, from the catalogue itself or from one whose root entries are
imported) add their datasheets to its list. The game system is the folder's .gst/.gstz, or the
JSON file whose root is a gameSystem.

A link found nowhere is a :class:`Missing` catalogue, kept for the report: its name and id, the
catalogue that links it, and whether its root entries were to be imported (then every datasheet
of its own is lost too). Hostile folders are bounded: at most MAX_LINKS links per catalogue,
MAX_CATALOGUES catalogues read for one, MAX_FOLDER_FILES files looked at; a catalogue that links
itself, or links that loop back to a catalogue on the way, is one clear error.

:class:`Folder` reads each file of a folder at most once while it lives (the coverage tool keeps
one for a whole data set; sim.importers.coverage), keeping the few most recent documents.
"""

from __future__ import annotations

import os
import re
import stat
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from sim.importers import bsdata as B
from sim.errors import ImportFileError
from sim.importers.source import MAX_FILE_BYTES, read_document, zip_head
from sim.scenario.files import read_head
from sim.names import counted

MAX_LINKS = 64  # catalogue links of one catalogue
MAX_CATALOGUES = 48  # catalogues read for one catalogue (its links, theirs...)
MAX_FOLDER_FILES = 400  # files of the folder looked at
CACHED_DOCUMENTS = 12  # parsed documents a Folder keeps
CATALOGUE_SUFFIXES = (".cat", ".catz", ".json")
SYSTEM_SUFFIXES = (".gst", ".gstz")
_HEAD = 16 * 1024  # bytes of an XML file in which its root element's id is looked for


@dataclass
class Missing:
    """A linked catalogue found nowhere in the folder."""

    name: str
    id: str
    via: str  # the name of the catalogue that links it
    imports_root: bool  # its root entries were to be listed as datasheets
    links: int = 0  # entry and info links of the catalogues read that point to nothing
    datasheets: list[str] = field(default_factory=list)  # root entry links to nothing (datasheets lost)

    def text(self, folder: str) -> str:
        """One line for `sim datasheets` and the import report (names and counts only)."""
        lost = len(self.datasheets)
        own = ", and every datasheet of its own (its root entries are imported)" if self.imports_root else ""
        return (f"catalogue {self.name!r} (id {self.id}, linked by {self.via!r}) is not in {folder}: "
                f"{counted(self.links, 'link')} {'points' if self.links == 1 else 'point'} to nothing, "
                f"{counted(lost, 'datasheet')} lost{own}")


class Folder:
    """The catalogue and game system files of one folder, read on demand, within limits."""

    def __init__(self, folder: str | Path):
        self.path = Path(folder)
        try:
            names = sorted(os.listdir(self.path))
        except OSError:
            names = []
        files = [self.path / n for n in names if n.lower().endswith(CATALOGUE_SUFFIXES + SYSTEM_SUFFIXES)]
        self.files = [p for p in files[:MAX_FOLDER_FILES] if _regular(p)]
        self._ids: dict[Path, str | None] = {}  # file -> its root id (None: not a catalogue)
        self._docs: OrderedDict = OrderedDict()  # file -> (root, doc), the most recent kept
        self._id_sets: dict[Path, frozenset | None] = {}  # file -> the ids its bytes hold (_may_have)

    def document(self, path: Path, roots=("catalogue",)) -> tuple[str, dict]:
        """(root, content) of a file of the folder (read_document's limits and errors)."""
        key = Path(path)
        hit = self._docs.get(key)
        if hit is None:
            hit = read_document(key, ("catalogue", "gameSystem"))
            self._docs[key] = hit
            if len(self._docs) > CACHED_DOCUMENTS:
                self._docs.popitem(last=False)
            self._ids[key] = B.text(hit[1], "id") or None
        else:
            self._docs.move_to_end(key)
        if hit[0] not in roots:
            read_document(key, roots)  # (raises the usual error naming the root found)
        return hit

    def by_name(self, name: str) -> Path | None:
        for ext in CATALOGUE_SUFFIXES:
            p = self.path / (name + ext)
            if p in self.files:
                return p
        return None

    def find(self, target_id: str, name: str, skip: Path | None = None) -> tuple[Path | None, bool]:
        """The file of the catalogue with root id ``target_id``, else the one named ``name``:
        (path or None, found by id)."""
        named = self.by_name(name) if name else None
        if target_id:
            if named is not None and self.root_id(named) == target_id:
                return named, True
            for p in self.files:
                if p != named and p != skip and p.suffix.lower() in CATALOGUE_SUFFIXES and self._may_have(p, target_id) \
                        and self.root_id(p) == target_id:
                    return p, True
        return named, False

    def root_id(self, path: Path) -> str | None:
        if path not in self._ids:
            try:
                root, doc = self.document(path, ("catalogue", "gameSystem"))
            except Exception:  # noqa: BLE001 (a file that cannot be read has no id; it is reported if linked by name)
                self._ids[path] = None
            else:
                self._ids[path] = B.text(doc, "id") or None
        return self._ids[path]

    def _may_have(self, path: Path, target_id: str) -> bool:
        """Cheap test before a file is parsed: its bytes hold ``id`` = target_id (XML: in its
        root element; JSON: anywhere); a zip is looked into. Each file is read for it once
        while the Folder lives (the ids it holds are kept), so a catalogue's many links to
        catalogues the folder lacks cost one read of each file, not one per link."""
        if path not in self._id_sets:
            self._id_sets[path] = _ids_held(path)
        held = self._id_sets[path]
        return held is None or target_id.encode() in held

    def game_system(self, skip: Path) -> Path | None:
        for p in self.files:
            if p.suffix.lower() in SYSTEM_SUFFIXES:
                return p
        for p in self.files:
            if p != skip and p.suffix.lower() == ".json":
                head = read_head(p, 64)  # (a regular file only: a FIFO put there since is never opened to wait)
                if head is not None and b'"gameSystem"' in head:
                    return p
        return None


_JSON_ID = re.compile(rb'"id"\s*:\s*"([^"]*)"')
_XML_ROOT_ID = re.compile(rb"<(?:\w+:)?(?:catalogue|gameSystem)\b[^>]*?\sid=\"([^\"]*)\"")
MAX_IDS_HELD = 100_000  # ids of one file kept for _may_have (beyond: the file is parsed when asked)


def _ids_held(path: Path) -> frozenset | None:
    """The ids a file's bytes hold, for Folder._may_have: an XML file's root element's, every
    ``"id": "..."`` of a JSON file; None when there are too many to keep (then it may hold any)."""
    raw = _head_bytes(path)
    if raw.lstrip()[:1] == b"<":
        m = _XML_ROOT_ID.search(raw[:_HEAD])
        return frozenset([m.group(1)]) if m else frozenset()
    ids = set()
    for m in _JSON_ID.finditer(raw):
        ids.add(m.group(1))
        if len(ids) > MAX_IDS_HELD:
            return None
    return frozenset(ids)


def _regular(p: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(p).st_mode)
    except OSError:
        return False


def _head_bytes(path: Path) -> bytes:
    """A file's bytes (a zip's document's first _HEAD bytes, decompressed in counted pieces by
    sim.importers.source, whatever its method), at most MAX_FILE_BYTES, for the id test; b""
    for anything that is not a regular file of that size or a readable zip."""
    raw = read_head(path, MAX_FILE_BYTES + 1)
    if raw is None or len(raw) > MAX_FILE_BYTES:
        return b""
    if raw[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        try:
            return zip_head(raw, str(path), _HEAD)
        except ImportFileError:
            return b""
    return raw


@dataclass
class Linked:
    """What a catalogue's links bring: the documents read (for the id index), those whose root
    entries are listed, the game system, the missing catalogues."""

    docs: list[dict] = field(default_factory=list)
    roots: list[dict] = field(default_factory=list)
    system: dict | None = None
    missing: list[Missing] = field(default_factory=list)
    no_system: bool = False


def load_links(file: str, doc: dict, path: Path, folder: Folder, is_catalogue: bool) -> Linked:
    """Every catalogue ``doc`` (the catalogue at ``path``) links, followed through their own links,
    and the game system. Raises ImportFileError for a self-link, a loop, or more than the bounds."""
    out = Linked()
    own_id = B.text(doc, "id")
    seen_paths = {path.resolve()}
    seen_ids = {own_id} if own_id else set()
    # depth-first, so a loop back to a catalogue on the way is seen as one
    stack = [(doc, B.text(doc, "name") or path.stem, True, (B.text(doc, "name") or path.stem,), (own_id,))]
    read = 0
    while stack:
        d, dname, importing, chain, chain_ids = stack.pop()
        links = B.items(d, "catalogueLinks")
        if len(links) > MAX_LINKS:
            raise B.where_error(file, "catalogueLinks", B.Bad(
                f"at most {MAX_LINKS} catalogue links in catalogue {dname[:60]!r}", str(len(links))))
        for link in links:
            lname, tid = B.text(link, "name"), B.text(link, "targetId")
            if tid and tid in chain_ids or (not tid and lname in chain):
                what = "itself" if (tid and tid == chain_ids[-1]) or lname == chain[-1] else \
                    "a catalogue that links it (" + " -> ".join(repr(c[:40]) for c in chain + (lname,)) + ")"
                raise B.where_error(file, "catalogueLinks", B.Bad(
                    "catalogue links that do not loop back", f"catalogue {dname[:60]!r} linking {what}"))
            found, _ = folder.find(tid, lname, skip=None)
            if found is None:
                if not any(m.id == tid and m.name == lname for m in out.missing):
                    out.missing.append(Missing(lname, tid, dname, importing and B.flag(link, "importRootEntries")))
                continue
            if found.resolve() in seen_paths or (tid and tid in seen_ids):
                continue  # (reached already by another way: a diamond, not a loop)
            if found.resolve() == path.resolve():
                raise B.where_error(file, "catalogueLinks", B.Bad(
                    "catalogue links that do not loop back", f"catalogue {dname[:60]!r} linking itself"))
            read += 1
            if read > MAX_CATALOGUES:
                raise B.where_error(file, "catalogueLinks", B.Bad(
                    f"at most {MAX_CATALOGUES} linked catalogues", "more"))
            _, ld = folder.document(found, ("catalogue",))
            lid = B.text(ld, "id")
            if lid and lid in chain_ids:
                raise B.where_error(file, "catalogueLinks", B.Bad(
                    "catalogue links that do not loop back", f"catalogue {dname[:60]!r} linking a catalogue that "
                    "links it (" + " -> ".join(repr(c[:40]) for c in chain + (lname,)) + ")"))
            seen_paths.add(found.resolve())
            if lid:
                seen_ids.add(lid)
            out.docs.append(ld)
            sub_importing = importing and B.flag(link, "importRootEntries")
            if sub_importing:
                out.roots.append(ld)
            lname_doc = B.text(ld, "name") or found.stem
            stack.append((ld, lname_doc, sub_importing, chain + (lname_doc,), chain_ids + (lid,)))
    if is_catalogue:
        gst = folder.game_system(path)
        if gst is not None:
            out.system = folder.document(gst, ("gameSystem",))[1]
        else:
            out.no_system = True
    return out
