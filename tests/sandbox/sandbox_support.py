"""Shared constants of the sandbox tests (a module with a unique name: several test folders
have a conftest.py, so tests must not import from "conftest")."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
SIZE = (1440, 900)


def all_scenarios() -> list[Path]:
    return sorted((ROOT / "scenarios").glob("*.toml")) + sorted(DATA.glob("*.toml"))


def shot(surface, path) -> None:
    """A screenshot for a person to look at (tests/sandbox/screenshots, git-ignored), written
    when SANDBOX_SHOTS is set (`make shots`): the surface is drawn either way, by the caller, and
    writing a PNG costs 0.05-0.15 s of CPU that proves nothing."""
    if os.environ.get("SANDBOX_SHOTS"):
        import pygame
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, str(path))

# The computer's pace in tests that play its turn through: a command every other frame (the
# thinking frame, then the command), where the speed keys' fastest (20 a second) takes 4-5 frames:
# the same commands, in the same order, in half the frames drawn and updated.
FAST = 60.0
