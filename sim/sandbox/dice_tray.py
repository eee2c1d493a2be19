"""The dice tray: the latest pool's hit, wound and save dice (and the hazard rolls that follow
the unit's attacks), drawn as pips on faces.

Classification re-applies the pure single-die rules (sim.rules.attack) to the logged rolls;
the counts in the events stay the authority (shown beside each row)."""

from __future__ import annotations

import pygame

from sim.rules.attack import CRITICAL, FAIL, SUCCESS, hit_result, wound_result
from sim.sandbox import style as S
from sim.sandbox.fonts import text

_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def latest_pool(events) -> dict | None:
    """The most recent pool with dice and what its steps rolled so far."""
    start = None
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e["type"] == "pool" and e.get("dice"):
            start = i
            break
    if start is None:
        return None
    pool = events[start]
    out = {"pool": pool, "rows": []}
    for e in events[start + 1:]:
        t = e["type"]
        if t == "pool" or t == "command":
            break
        if t == "hit rolls":
            if e.get("auto"):
                out["rows"].append(("Hit", [], f"automatic: {e['hits']} hits"))
                continue
            dice = [(r, hit_result(r, e["skill"], e.get("modifier", 0))) for r in e["rolls"]]
            mod = f" {e['modifier']:+d}" if e.get("modifier") else ""
            out["rows"].append(("Hit", dice, f"{e['skill']}+{mod}: {e['hits']} hits, {e['criticals']} crit"))
        elif t == "wound rolls":
            wm = pool.get("wound_mod", 0)
            dice = [(r, wound_result(r, e["S"], e["T"], wm, e.get("critical_on", 6))) for r in e["rolls"]]
            out["rows"].append(("Wound", dice, f"S{e['S']} vs T{e['T']}: {e['wounds']} wounds"))
        elif t == "hazard rolls" and e.get("rolls"):  # 06.03: after all the unit's attacks
            dice = [(r, FAIL if r <= 2 else SUCCESS) for r in e["rolls"]]
            out["rows"].append(("Hazard", dice, f"1-2 fails: {e['failures']} failed, "
                                f"{e['mortal_wounds']} mortal wounds"))
        elif t == "save rolls":
            out["saves"] = list(e["rolls"])
            out["rows"].append(("Save", [(r, None) for r in e["rolls"]], f"AP{e['AP']}"))
        elif t == "damage":
            steps = [s for s in e["steps"] if "save" in s]
            verdict = [(s["save"], SUCCESS if s["saved"] else FAIL) for s in steps]
            lost = sum(s.get("lost", 0) for s in e["steps"] if isinstance(s.get("lost"), int))
            for k, (label, dice, note) in enumerate(out["rows"]):
                if label == "Save":
                    rest = [(r, None) for r, _ in dice[len(verdict):]]
                    saved = sum(1 for _r, v in verdict if v)
                    out["rows"][k] = ("Save", verdict + rest,
                                      f"{note}: {saved} saved, {len(verdict) - saved} failed, {lost} wounds lost")
    return out


def render(size, info) -> pygame.Surface:
    w, h = size
    surf = pygame.Surface((max(1, w), max(1, h)))
    surf.fill((31, 35, 33))
    if info is None:
        t = text("No attacks rolled yet.", 13, S.TEXT_DIM)
        surf.blit(t, (10, 10))
        return surf
    p = info["pool"]
    head = f"Pool {p['pool']}: {p['dice']} dice of {', '.join(p.get('weapons', []))} at {p['target']}"
    surf.blit(text(head, 13, S.TEXT, True), (10, 6))
    y = 28
    for label, dice, note in info["rows"]:
        surf.blit(text(label, 12, S.TEXT_DIM, True), (10, y + 4))
        x = 62
        size_d = 24 if len(dice) <= 14 else 18 if len(dice) <= 22 else 13
        for r, res in dice:
            if x + size_d > w - 8:
                surf.blit(text("...", 12, S.TEXT_DIM), (x, y + 4))
                break
            _die(surf, x, y, size_d, r, res)
            x += size_d + 4
        surf.blit(text(note, 11, S.TEXT_DIM), (62, y + size_d + 2))
        y += size_d + 20
        if y > h - 44:
            break
    # legend
    lx = 10
    for name, res in (("fail", FAIL), ("success", SUCCESS), ("critical", CRITICAL)):
        _die(surf, lx, h - 20, 13, 6 if res == CRITICAL else 4 if res else 1, res)
        t = text(name, 11, S.TEXT_DIM)
        surf.blit(t, (lx + 17, h - 20))
        lx += t.get_width() + 30
    return surf


def _die(surf, x, y, s, value, res) -> None:
    face, pip = {FAIL: S.DIE_FAIL, SUCCESS: S.DIE_SUCCESS, CRITICAL: S.DIE_CRITICAL}.get(res, S.DIE_NA)
    r = pygame.Rect(x, y, s, s)
    pygame.draw.rect(surf, face, r, border_radius=max(2, s // 5))
    pygame.draw.rect(surf, S.shade(face, 0.6), r, 1, border_radius=max(2, s // 5))
    k = s * 0.27
    pr = max(1.2, s * 0.09)
    for dx, dy in _PIPS.get(value, []):
        pygame.draw.circle(surf, pip, (x + s / 2 + dx * k, y + s / 2 + dy * k), pr)
