"""The dice tray: the latest pool's hit, wound and save dice and the hazard rolls that follow
the unit's attacks, drawn as pips on faces. Every die rolled is drawn (and no die that was not):
dice shrink to fit a row, then wrap onto more lines, and the tray scrolls when the rows are
taller than it. A pool belongs to its activation: the next command clears it.

While a Command Re-roll is asked (15.02), the roll's dice are drawn and the ones offered are
buttons: a click re-rolls that die (the decision's answer). Dice and pools are counted from 1.

Classification re-applies the pure single-die rules (sim.rules.attack) to the logged rolls;
the counts in the events stay the authority (shown beside each row). Save dice are classified
as soon as they are rolled, against the model the first save goes to (``save_preview``, read
from the world); the damage event then gives each die's verdict."""

from __future__ import annotations

import pygame
from pygame_gui.elements import UIButton, UIImage, UIPanel, UIScrollingContainer

from sim import events as ev
from sim.rules.attack import CRITICAL, FAIL, SUCCESS, hit_result, save_fails, wound_result
from sim.sandbox import style as S
from sim.sandbox.fonts import text
from sim.sandbox.widgets import SCROLL_BAR_W
from sim.stratagems import command_reroll as CR

_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def save_preview(pool, attacker: int, melee: bool) -> dict | None:
    """For a pool whose save dice are rolled and not yet resolved (05.04 next): the model the
    first save goes to (the current allocation group's, [PRECISION] first, a wounded model
    first), the value its save needs and whether each face fails. Read-only."""
    from sim.plan.scenario_modifiers import save_modifiers
    from sim.rules.allocation import first_group_with_models, select_model
    # (the pool's step is a StrEnum: compared by value, so the sandbox imports no system)
    if pool.step != "damage" or not pool.saves or not pool.models:
        return None
    remaining = {m.id: m.remaining for m in pool.models}
    by_id = {m.id: m for m in pool.models}
    members = {g.key: g.members for g in pool.groups}
    group = first_group_with_models(pool.order, remaining, members, pool.precision)
    if group is None:
        return None
    mid = select_model(members[group], remaining, {m.id: m.W for m in pool.models})
    if mid is None:
        return None
    m = by_id[mid]
    mod = (save_modifiers(pool.spec.target, attacker, melee) or {}).get(mid, 0)
    AP = pool.state.AP
    fails = [None] + [save_fails(f, AP, m.Sv, m.InSv, mod) for f in range(1, 7)]
    needed = next((f for f in range(2, 7) if not fails[f]), None)
    return {"pool": pool.index, "model": mid, "Sv": m.Sv, "InSv": m.InSv, "mod": mod,
            "AP": AP, "fails": fails, "needed": needed}


def _needs(pv: dict) -> str:
    parts = [f"Sv {pv['Sv']}+"]
    if pv["InSv"]:
        parts.append(f"invulnerable {pv['InSv']}+")
    if pv["mod"]:
        parts.append(f"{pv['mod']:+d} save")
    need = f"needs {pv['needed']}+" if pv["needed"] else "cannot be saved"
    return f"{need} on {pv['model']} ({', '.join(parts)})"


def latest_pool(events, preview: dict | None = None) -> dict | None:
    """The most recent pool with dice of the activation being resolved (or the last one, until
    the next command) and what its steps rolled so far (``preview``: the save_preview of the
    pool being resolved, if any). None once another command has begun."""
    start = None
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e["type"] == ev.POOL and e.get("dice"):
            start = i
            break
        if e["type"] == ev.COMMAND:  # (a pool belongs to its activation: a new command clears it)
            return None
    if start is None:
        return None
    pool = events[start]
    out = {"pool": pool, "rows": []}
    for e in events[start + 1:]:
        t = e["type"]
        if t == ev.POOL or t == ev.COMMAND:
            break
        if t == ev.HITS:
            if e.get("auto"):
                out["rows"].append(("Hit", [], f"automatic: {_n(e['hits'], 'hit')}"))
                continue
            if e.get("snap"):  # 15.09: an unmodified 6 hits, never critically (the log's rule)
                dice = [(r, SUCCESS if r == 6 else FAIL) for r in e["rolls"]]
                out["rows"].append(("Hit", dice, f"snap shooting, need an unmodified 6: {_n(e['hits'], 'hit')}, "
                                    "never critical"))
                continue
            dice = [(r, hit_result(r, e["skill"], e.get("modifier", 0))) for r in e["rolls"]]
            mod = f" {e['modifier']:+d}" if e.get("modifier") else ""
            out["rows"].append(("Hit", dice, f"need {e['skill']}+{mod}: {_n(e['hits'], 'hit')}, "
                                f"{e['criticals']} critical"))
        elif t == ev.WOUNDS:
            wm = pool.get("wound_mod", 0)
            strengths = e.get("strengths") or [e["S"]] * len(e["rolls"])  # (a random S: each its own, 02.02.03)
            dice = [(r, wound_result(r, s, e["T"], wm, e.get("critical_on", 6))) for r, s in zip(e["rolls"], strengths)]
            out["rows"].append(("Wound", dice, f"S{e['S']} vs T{e['T']}: {_n(e['wounds'], 'wound')}"))
        elif t == ev.HAZARD and e.get("rolls"):  # 06.03: after all the unit's attacks
            dice = [(r, FAIL if r <= 2 else SUCCESS) for r in e["rolls"]]
            out["rows"].append(("Hazard", dice, f"1-2 fails: {e['failures']} failed, "
                                f"{_n(e['mortal_wounds'], 'mortal wound')}"))
        elif t == ev.SAVES:
            out["saves"] = list(e["rolls"])
            out["save_ap"] = e["AP"]
            pv = preview if preview is not None and preview.get("pool") == pool.get("pool") else None
            if pv is not None:
                dice = [(r, FAIL if pv["fails"][r] else SUCCESS) for r in e["rolls"]]
                fails = sum(1 for _r, v in dice if v == FAIL)
                note = (f"AP{e['AP']}, {_needs(pv)}: {len(dice) - fails} would save, "
                        f"{fails} would fail")
            else:
                dice, note = [(r, None) for r in e["rolls"]], f"AP{e['AP']}"
            out["rows"].append(("Save", dice, note))
        elif t == ev.DAMAGE:
            steps = [s for s in e["steps"] if "save" in s]
            verdict = [(s["save"], SUCCESS if s["saved"] else FAIL) for s in steps]
            lost = sum(s.get("lost", 0) for s in e["steps"] if isinstance(s.get("lost"), int))
            for k, (label, dice, note) in enumerate(out["rows"]):
                if label == "Save":  # (the dice each save used; those no model needed are not drawn)
                    unused = len(dice) - len(verdict)
                    saved = sum(1 for _r, v in verdict if v)
                    out["rows"][k] = ("Save", verdict,
                                      f"AP{out.get('save_ap', 0)}: {saved} saved, {len(verdict) - saved} "
                                      f"failed, {_n(lost, 'wound')} lost"
                                      + (f"; {unused} not needed" if unused > 0 else ""))
    return out


# --- a Command Re-roll being asked (15.02): the roll's dice, the offered ones clickable -------
ROW_LABEL = {"attacks": "Attacks", "hit": "Hit", "wound": "Wound", "save": "Save", "damage": "Damage",
             "hazard": "Hazard", "advance": "Advance", "charge": "Charge"}


def asking(req) -> dict | None:
    """The row a pending Command Re-roll decision draws: (label, dice, note) with the offered
    dice (index -> option; none for a whole roll, answered with its own button), or None when
    ``req`` is not one. A die's colour: failed (offered and failed), success otherwise
    (a non-critical success may be offered for a critical), unknown for a count or a damage
    roll."""
    if not CR.is_offer(req) or "values" not in req.context:
        return None
    ctx = req.context
    kind = ctx.get("roll", "")
    values = list(ctx["values"])
    offered = {i: opt for opt, i in ctx.get("dice", {}).items()}
    failed = ctx.get("failed")
    if kind in ("attacks", "damage", "advance"):
        dice = [(v, None) for v in values]
    elif isinstance(failed, bool):  # (a whole roll: a charge that reached or not)
        dice = [(v, FAIL if failed else SUCCESS) for v in values]
    else:
        dice = [(v, FAIL if i in (failed or ()) else CRITICAL if v == 6 and i not in offered else SUCCESS)
                for i, v in enumerate(values)]
    what = f"{len(offered)} of these dice can" if len(offered) != 1 else "1 of these dice can"
    note = (f"{CR.NAME}: {what} come out better - click one to re-roll it ({CR.COST} CP), or Decline"
            if offered else f"{CR.NAME}: re-roll the whole roll ({CR.COST} CP)? Answer in the orders panel")
    return {"row": (ROW_LABEL.get(kind, kind.capitalize()) + "?", dice, note), "offered": offered,
            "pool": ctx.get("pool")}


def tray_info(sb) -> dict | None:
    """What the tray shows now: the latest pool of the activation (latest_pool), with the roll
    a Command Re-roll asks about added as a row of clickable dice."""
    info = latest_pool(sb.battle.events, sb._save_preview())
    req = sb.battle.pending
    ask = asking(req)
    if ask is not None and req.player not in getattr(sb, "ai", {}):  # (the person's setting: which dice)
        from sim.sandbox.decision_panel import reroll_options
        keep = set(reroll_options(sb, req))
        ask["offered"] = {i: o for i, o in ask["offered"].items() if o in keep}
    elif ask is not None:
        ask["offered"] = {}  # (the computer answers its own)
    if ask is None:
        if getattr(sb, "order", None) is not None and not sb.resolving:
            return None  # (a new order is being declared: the last activation's pool is not its)
        return None if info is None else dict(info, names=sb.scene.unit_names)
    if info is None or (ask["pool"] is not None and info["pool"].get("pool") != ask["pool"]):
        info = {"pool": None, "rows": []}
    info = dict(info, rows=list(info["rows"]) + [ask["row"]], offered=ask["offered"], names=sb.scene.unit_names)
    return info


def _n(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


# --- drawing ---------------------------------------------------------------------------------
class Layout:
    """Where render put things: per row its label and the dice drawn (for tests)."""

    def __init__(self):
        self.rows: list[tuple[str, int]] = []  # (label, dice drawn)
        self.dice: list[tuple] = []  # (rect, option, index, value) of each die a click re-rolls
        self.head = ""
        self.height = 0


def render(width: int, info, scale: float = 1.0, min_height: int = 0) -> tuple[pygame.Surface, Layout]:
    """The tray's content, ``width`` px wide and as tall as it needs (at least ``min_height``)."""
    s = scale
    lay = Layout()
    fs = S.font_px(13, s)
    small = S.font_px(11, s)
    pad = round(10 * s)
    if info is None:
        surf = pygame.Surface((max(1, width), max(1, min_height)))
        surf.fill((31, 35, 33))
        surf.blit(text("No attacks rolled yet.", fs, S.TEXT_DIM), (pad, pad))
        lay.height = min_height
        return surf, lay
    p = info["pool"]
    names = info.get("names") or {}
    head = ("A roll just made" if p is None else
            f"Pool {p['pool'] + 1}: {p['dice']} dice of {', '.join(p.get('weapons', []))} at "
            f"{names.get(p['target'], p['target'])}")
    lay.head = head
    heads = _wrap(head, fs, width - 2 * pad, bold=True)
    x0 = pad + round(54 * s)  # the dice start here, after the row's label
    room = max(1, width - x0 - pad)
    gap = max(2, round(4 * s))
    big, least = round(24 * s), round(15 * s)
    plan = []
    h = round(6 * s) + sum(text(t, fs, S.TEXT, True).get_height() for t in heads) + round(6 * s)
    for label, dice, note in info["rows"]:
        n = max(1, len(dice))
        size_d = max(least, min(big, (room + gap) // n - gap))
        per_line = max(1, (room + gap) // (size_d + gap))
        lines = -(-len(dice) // per_line) if dice else 0
        notes = _wrap(note, small, width - x0 - pad)
        row_h = lines * (size_d + gap) + len(notes) * text("Ag", small, S.TEXT_DIM).get_height() + round(8 * s)
        plan.append((label, dice, notes, size_d, per_line, h, row_h))
        h += row_h
    legend_y = h + round(2 * s)
    h = max(min_height, legend_y + round(20 * s))
    surf = pygame.Surface((max(1, width), max(1, h)))
    surf.fill((31, 35, 33))
    y = round(6 * s)
    for t in heads:
        ts = text(t, fs, S.TEXT, True)
        surf.blit(ts, (pad, y))
        y += ts.get_height()
    offered = info.get("offered") or {}
    last = len(plan) - 1
    for n, (label, dice, notes, size_d, per_line, top, row_h) in enumerate(plan):
        surf.blit(text(label, S.font_px(12, s), S.TEXT_DIM, True), (pad, top + max(0, (size_d - fs) // 2)))
        for k, (r, res) in enumerate(dice):
            line, col = divmod(k, per_line)
            dx, dy = x0 + col * (size_d + gap), top + line * (size_d + gap)
            _die(surf, dx, dy, size_d, r, res)
            if n == last and k in offered:  # (the row a Command Re-roll asks about: a ring, a button)
                pygame.draw.rect(surf, S.TEXT, pygame.Rect(dx - 2, dy - 2, size_d + 4, size_d + 4), 2,
                                 border_radius=max(2, size_d // 5))
                lay.dice.append((pygame.Rect(dx, dy, size_d, size_d), offered[k], k, r))
        lines = -(-len(dice) // per_line) if dice else 0
        ny = top + lines * (size_d + gap)
        for t in notes:
            ts = text(t, small, S.TEXT_DIM)
            surf.blit(ts, (x0, ny))
            ny += ts.get_height()
        lay.rows.append((label, len(dice)))
    # legend (of the kinds of die drawn)
    lx = pad
    ds = round(13 * s)
    shown = {res for _l, dice, *_rest in plan for _r, res in dice}
    for name, res in (("fail", FAIL), ("success", SUCCESS), ("critical", CRITICAL), ("not judged", None)):
        if res not in shown:
            continue
        _die(surf, lx, legend_y, ds, 6 if res == CRITICAL else 4 if res else 1 if res == FAIL else 3, res)
        t = text(name, small, S.TEXT_DIM)
        surf.blit(t, (lx + ds + 4, legend_y))
        lx += ds + t.get_width() + round(16 * s)
    lay.height = h
    return surf, lay


def _wrap(s: str, size: int, width: int, bold: bool = False) -> list[str]:
    from sim.sandbox.fonts import font
    from sim.sandbox.widgets import wrap_line
    return wrap_line(s, font(size, bold), max(40, width))


def _die(surf, x, y, s, value, res) -> None:
    face, pip = {FAIL: S.DIE_FAIL, SUCCESS: S.DIE_SUCCESS, CRITICAL: S.DIE_CRITICAL}.get(res, S.DIE_NA)
    r = pygame.Rect(x, y, s, s)
    pygame.draw.rect(surf, face, r, border_radius=max(2, s // 5))
    pygame.draw.rect(surf, S.shade(face, 0.6), r, 1, border_radius=max(2, s // 5))
    k = s * 0.27
    pr = max(1.2, s * 0.09)
    for dx, dy in _PIPS.get(value, []):
        pygame.draw.circle(surf, pip, (x + s / 2 + dx * k, y + s / 2 + dy * k), pr)


class TrayView:
    """The tray in its panel: the rendered rows in a container that scrolls when they are
    taller than the panel (kept scrolled to the newest row)."""

    def __init__(self, manager, rect: pygame.Rect, scale: float):
        self.scale = scale
        self.manager = manager
        self.outer = UIPanel(rect, manager=manager)
        self.inner = pygame.Rect(0, 0, rect.w - 2, rect.h - 2)
        self.scroll = None
        self.layout = Layout()
        self.info = None
        self._shown = None  # what the tray last drew (its info, the names copied)

    def show(self, info, sb=None) -> None:
        """Draw ``info`` (tray_info); with ``sb``, the dice a Command Re-roll offers become
        buttons that answer it (registered in the sandbox's actions, named "die:<k>", k from 1)."""
        shown = None if info is None else dict(info, names=dict(info.get("names") or {}))
        if self.scroll is not None and shown == self._shown and self.scroll.alive():
            return  # (the same pool as drawn: a tray drawn again costs milliseconds)
        self.info, self._shown = info, shown
        w, h = self.inner.size
        surf, lay = render(w, info, self.scale, h)
        if lay.height > h:  # a scroll bar: draw again in the room it leaves
            surf, lay = render(w - SCROLL_BAR_W, info, self.scale, h)
        self.layout = lay
        if self.scroll is not None:  # (a fresh container: none keeps an old scroll position)
            self.scroll.kill()
        self.scroll = UIScrollingContainer(self.inner, manager=self.manager, container=self.outer,
                                           allow_scroll_x=False)
        UIImage(pygame.Rect((0, 0), surf.get_size()), surf, self.manager, container=self.scroll)
        self.scroll.set_scrollable_area_dimensions(surf.get_size())
        if sb is not None:
            for b in [b for b in sb.actions if not b.alive()]:  # (the previous tray's buttons)
                sb.actions.pop(b, None)
            for name in [k for k in sb.names if k.startswith("die:")]:
                sb.names.pop(name, None)
            for rect, opt, k, value in lay.dice:
                b = UIButton(rect, str(value), self.manager, container=self.scroll, object_id="#pick",
                             tool_tip_text=f"re-roll die {k + 1} (showing {value}): 1 CP")
                sb.actions[b] = lambda o=opt: sb.answer(o)
                sb.names[f"die:{k + 1}"] = b
        bar = getattr(self.scroll, "vert_scroll_bar", None)
        if bar is not None and surf.get_height() > h:
            bar.set_scroll_from_start_percentage(1.0)
