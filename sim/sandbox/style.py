"""Colours and sizes for the tabletop: calm, muted, legible."""

from __future__ import annotations

BACKDROP = (30, 33, 31)
MAT = (92, 104, 90)
MAT_EDGE = (64, 72, 63)
GRID = (104, 117, 101)
GRID_MAJOR = (112, 126, 108)
GRID_STEP = 6.0  # inches

TERRAIN = {
    # category: (fill, outline)
    "exposed": ((138, 128, 100), (160, 150, 118)),
    "light": ((82, 104, 68), (108, 132, 88)),
    "dense": ((74, 72, 70), (120, 116, 108)),
}
AREA_FILL = (120, 126, 104, 46)
AREA_EDGE = (176, 172, 140)

TEXT = (232, 228, 206)
TEXT_DIM = (170, 172, 160)
SELECT = (240, 222, 150)
HOVER = (220, 220, 210)
ENGAGED = (226, 128, 72)
LEGAL = (132, 214, 128)
ILLEGAL = (214, 96, 86)
HIGHLIGHT = (250, 236, 120)
CHARACTER = (244, 214, 108)
PIP_FULL = (236, 236, 224)
PIP_LOST = (60, 50, 48)
BADGE = (46, 58, 74)  # 18.01 a transport's count of embarked models
BADGE_TEXT = (236, 236, 224)
RING = (236, 232, 200)
LOS_VISIBLE = (120, 220, 130)
LOS_FULL = (170, 240, 255)
LOS_BLOCKED = (220, 90, 80)
COVER = (120, 180, 240)
HIDDEN = (196, 170, 230)  # 13.09 hidden models: a closed-eye mark

DIE_FAIL = ((98, 92, 88), (214, 206, 196))
DIE_SUCCESS = ((222, 218, 200), (40, 40, 36))
DIE_CRITICAL = ((214, 170, 64), (30, 24, 10))
DIE_NA = ((52, 56, 54), (110, 114, 108))


# the attacked models' mark: of these, the one farthest from every army's colour (and the mat)
MARK_CHOICES = ((255, 64, 240), (40, 236, 255), (150, 255, 40), (255, 140, 0))


def attack_mark(colours) -> tuple:
    """The colour that rings the models being attacked: no army uses anything near it (a red
    ring vanished on red models, issue 28 item 9)."""
    def dist(a, b):
        return sum((int(x) - int(y)) ** 2 for x, y in zip(a[:3], b[:3]))
    return max(MARK_CHOICES, key=lambda c: min(dist(c, x) for x in (*colours, MAT, SELECT, HIGHLIGHT, LEGAL,
                                                                     ILLEGAL)))


def shade(c, f: float):
    """Darken (f < 1) or lighten (f > 1) an RGB colour."""
    if f <= 1:
        return tuple(int(v * f) for v in c[:3])
    return tuple(int(v + (255 - v) * (f - 1)) for v in c[:3])


def mix(a, b, t: float):
    return tuple(int(a[i] + (b[i] - a[i]) * t) for i in range(3))


# --- UI scale: the interface follows the window ---------------------------------------------
# Sizes in the sandbox's code are given at scale 1 (a 1440x900 window) and multiplied by the
# scale of the window they are drawn in: 0.9 up to 1024x700 and below (never smaller, so text
# stays legible), 1.6 at 2560x1440. The scale moves in steps of 0.05, so a window dragged a
# few pixels wider keeps its theme.
DESIGN_SIZE = (1440, 900)
MIN_SCALE, MAX_SCALE = 0.9, 2.5
MIN_FONT = 10  # px: the smallest text drawn, whatever the scale


def ui_scale(size) -> float:
    w, h = size
    s = min(w / DESIGN_SIZE[0], h / DESIGN_SIZE[1])
    s = max(MIN_SCALE, min(MAX_SCALE, s))
    return round(s * 20) / 20


def font_px(size: float, scale: float) -> int:
    """A font size given at scale 1, at ``scale`` (never below MIN_FONT)."""
    return max(MIN_FONT, round(size * scale))


def scaled_theme(path, scale: float) -> dict | None:
    """The pygame-gui theme at ``path`` with its font sizes, list item heights and tooltip
    width multiplied by ``scale`` (None when there is no theme file)."""
    import json
    from pathlib import Path
    p = Path(path)
    if not p.is_file():
        return None
    theme = json.loads(p.read_text())
    # pygame-gui reads only colours from "defaults": the elements that would take its own
    # default font (14 px, unscaled) get it by name
    for el in ("button", "label", "tool_tip", "text_entry_line", "drop_down_menu", "window",
               "horizontal_scroll_bar", "vertical_scroll_bar"):
        block = theme.setdefault(el, {})
        block.setdefault("font", {"name": "noto_sans", "size": "14"})
    for block in theme.values():
        if not isinstance(block, dict):
            continue
        f = block.get("font")
        if isinstance(f, dict) and "size" in f:
            f["size"] = str(font_px(int(f["size"]), scale))
        misc = block.get("misc")
        if isinstance(misc, dict):
            for k in ("list_item_height", "rect_width", "text_horiz_alignment_padding"):
                if k in misc:
                    misc[k] = str(round(int(misc[k]) * scale))
    return theme


def text_looks(theme: dict) -> dict:
    """What a label of each object id looks like in a theme (scaled_theme's dict): object id
    (None: a plain label) -> (font px, bold, colour (r, g, b, a)), from the theme's "label" block
    and the id's own block, as pygame-gui reads them (sim.sandbox.widgets.TextLine draws its
    lines with them)."""
    def colour(block, default):
        text = ((block or {}).get("colours") or {}).get("normal_text")
        if text is None:
            return default
        h = text.lstrip("#")
        return tuple(int(h[i:i + 2], 16) for i in range(0, len(h), 2)) + ((255,) if len(h) == 6 else ())

    def font_of(block, default):
        f = (block or {}).get("font") or {}
        return (int(f["size"]) if "size" in f else default[0], bool(int(f.get("bold", "0"))) if "bold" in f else default[1])

    base_block = theme.get("label") or {}
    base_colour = colour(base_block, colour(theme.get("defaults"), (220, 220, 207, 255)))
    base_font = font_of(base_block, (14, False))
    looks = {None: (*base_font, base_colour)}
    for key, block in theme.items():
        if key.startswith("#") and isinstance(block, dict):
            looks[key] = (*font_of(block, base_font), colour(block, base_colour))
    return looks
