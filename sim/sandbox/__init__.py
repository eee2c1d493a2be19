"""The interactive battle sandbox (pygame-ce + pygame-gui).

Input becomes commands and decisions; drawing reads the world and never writes it (DESIGN.md).
"""

import os

# before pygame is first imported: no support banner on `sim play`
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
