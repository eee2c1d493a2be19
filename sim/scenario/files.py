"""Reading a file a stranger gave us: a regular file of bounded size, read with its bytes
counted. The scenario loader and the roster/catalogue importers share it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from sim.errors import ScenarioError


def read_capped(path: Path, name: str, max_bytes: int, what: str,
                error: type[ScenarioError] = ScenarioError) -> bytes:
    """The file's bytes: a regular file of at most ``max_bytes`` (opened without blocking, so a
    FIFO is refused rather than waited on; /dev/zero is refused as a device; the size is
    checked before reading and the bytes counted while reading, for a file that grows).
    ``what`` names the file in the message ("a scenario file"); every refusal is ``error``
    (file, place, expected, found)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise error(name, "", f"a readable {what.removeprefix('a ')}", e.strerror or str(e)) from None
    too_big = f"{what} of at most {max_bytes // 2**20} MB"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = ("a directory" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode)
                    else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
                    else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
            raise error(name, "", f"a regular {what.removeprefix('a ')}", kind)
        if st.st_size > max_bytes:
            raise error(name, "", too_big, f"{st.st_size} bytes")
        chunks, total = [], 0
        while total <= max_bytes:
            b = os.read(fd, max_bytes + 1 - total)
            if not b:
                break
            chunks.append(b)
            total += len(b)
        if total > max_bytes:
            raise error(name, "", too_big, "more bytes")
        return b"".join(chunks)
    except OSError as e:
        raise error(name, "", f"a readable {what.removeprefix('a ')}", e.strerror or str(e)) from None
    finally:
        os.close(fd)


def read_head(path: Path, n: int) -> bytes | None:
    """The first ``n`` bytes of a regular file, or None when it is anything else (a FIFO, a
    device, a directory, unreadable): for cheap looks at the files of a folder, which must never
    open a FIFO for a blocking read (opened without blocking, checked with fstat, then read)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, total = [], 0
        while total < n:
            b = os.read(fd, n - total)
            if not b:
                break
            chunks.append(b)
            total += len(b)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)
