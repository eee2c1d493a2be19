"""The odds of the order being declared (issue 16 item 3), in the orders panel: per target the
expected models destroyed, the chance of destroying the unit, and P(k models destroyed) as a
row of bars; with the engine's note where it falls back to a Monte Carlo or leaves something
out.

The numbers are sim.odds's (``for_plan``, split in its two halves): the frame in which the
order changes validates the command (``Battle.check``, as Resolve would) and builds the odds
problem from the world (``sim.odds.engine.problem_for_plan``, a fraction of a millisecond);
solving it, which reads no world, runs in a worker process (``sim.odds.engine.solve_preview``,
for_plan's other half, with the engine's cache there). The result is kept per order content and drawn into one image that is
only redrawn when the result changes; ``draw`` never computes anything."""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ThreadPoolExecutor

import pygame
from pygame_gui.elements import UIImage

from sim.odds import engine as E
from sim.sandbox import odds_summary, odds_worker
from sim.names import in_words
from sim.sandbox.fonts import font
from sim.sandbox.style import font_px
from sim.sandbox.widgets import wrap_line

ROW_H = 88  # one target: a line of text, the hits-wounds-damage line, the bars with their % and k labels
NOTE_LINES = 3
LINE_H = 15
BG = (30, 33, 40)
TEXT = (222, 226, 232)
MUTED = (150, 156, 168)
WARN = (236, 190, 96)
BAR = (110, 170, 235)

class _Process:
    """One worker process (spawned on the first order with a target) fed through a pipe: the
    frame sends a problem (about 1 kB pickled) and polls for answers; no thread of this process
    runs meanwhile, so the solve takes nothing from the frame, not even the GIL."""

    def __init__(self):
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=odds_worker.serve, args=(child,), daemon=True, name="sandbox-odds")
        self.proc.start()
        child.close()

    def submit(self, job: int, problem) -> None:
        self.conn.send((job, problem))

    def poll(self) -> list:
        out = []
        while self.conn.poll(0):
            out.append(self.conn.recv())
        return out


class _Thread:
    """The same on a thread, where no process can be started."""

    def __init__(self):
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sandbox-odds")
        self.futures: list = []

    def submit(self, job: int, problem) -> None:
        self.futures.append((job, self.pool.submit(odds_summary.solve_summary, problem)))

    def poll(self) -> list:
        out = []
        while self.futures and self.futures[0][1].done():
            job, f = self.futures.pop(0)
            try:
                out.append((job, True, f.result()))
            except Exception as e:
                out.append((job, False, f"{type(e).__name__}: {e}"))
        return out


_worker = None


def _backend():
    global _worker
    if _worker is None:
        try:
            _worker = _Process()
        except (OSError, RuntimeError, ValueError):
            _worker = _Thread()
    return _worker


def _fallback() -> None:
    global _worker
    _worker = _Thread()


class OddsView:
    """What the orders panel shows of the odds; owned by the Sandbox (``sb.odds``)."""

    def __init__(self):
        self.key = None
        self.state = "none"  # none | working | ready | refused
        self.preview: E.Preview | None = None
        self.chains: tuple = ()  # per target: attacks, hits, wounds, damage (odds_summary.Chain)
        self.notes: tuple = ()
        self.method = ""
        self.refusal = ""
        self.targets: tuple = ()  # the declared targets, in order (the rows before the result)
        self.job = 0  # the number of the problem sent last (older answers are dropped)
        self.image: UIImage | None = None
        self.size = (0, 0)
        self.k = 1.0  # the orders panel's UI scale (the block is drawn at it, like the panel's text)
        self._rendered = None
        # the time update took in each frame (wall clock; and this thread's CPU time, which a busy
        # machine does not inflate): the figure the README gives
        self.frame_ms: list[float] = []
        self.frame_cpu_ms: list[float] = []
        self.check_ms: list[float] = []  # of which Battle.check, in the frames an order changed
        _backend()  # (the worker process starts now, not in a frame)

    # --- the frame path: cheap unless the order changed ------------------------------------
    @staticmethod
    def key_of(sb):
        o = sb.order
        b = sb.battle
        if o is None or sb.mode != "battle" or b.busy or sb.resolving or b.pending is not None:
            return None
        if getattr(o, "type", True) is None:
            return None
        sels = o.selections()
        if not sels:
            return None
        return (id(b), b.commands_done, len(b.events), o.record.kind, o.unit_id, getattr(o, "type", None), sels)

    def update(self, sb) -> None:
        t0, c0 = time.perf_counter(), time.thread_time()
        k = self.key_of(sb)
        if k != self.key:
            self.key = k
            self._start(sb, k)
        self._collect()
        self._paint()
        self.frame_ms.append((time.perf_counter() - t0) * 1000)
        self.frame_cpu_ms.append((time.thread_time() - c0) * 1000)
        if len(self.frame_ms) > 600:
            del self.frame_ms[:300], self.frame_cpu_ms[:300]

    def _start(self, sb, k) -> None:
        self.preview, self.notes, self.method, self.refusal = None, (), "", ""
        self.chains = ()
        if k is None:
            self.state, self.targets = "none", ()
            return
        b = sb.battle
        cmd = sb.order.command()
        self.targets = tuple(dict.fromkeys(s.target for s in cmd.selections))
        kept = b.validated
        t0 = time.perf_counter()
        try:
            why = b.check(cmd)  # (the rules' verdict on what Resolve would submit)
            plan = b.validated
        finally:
            b.validated = kept
            self.check_ms.append((time.perf_counter() - t0) * 1000)
        if why is not None:
            self.state, self.refusal = "refused", why
            return
        problem = E.problem_for_plan(b, plan)
        if problem is None:
            self.state = "none"
            return
        self.state = "working"
        self.job += 1
        try:
            _backend().submit(self.job, problem)
        except (OSError, ValueError):  # (the worker process is gone: a thread takes over)
            _fallback()
            _backend().submit(self.job, problem)

    def wait(self, timeout: float = 60.0) -> None:
        """Block until the worker's result is in (tests, screenshots)."""
        end = time.monotonic() + timeout
        while self.state == "working" and time.monotonic() < end:
            time.sleep(0.005)
            self._collect()

    def _collect(self) -> None:
        """Take the worker's answer to the problem sent last, if it is in (a poll: no wait)."""
        if self.state != "working":
            return
        try:
            answers = _backend().poll()
        except (EOFError, OSError):  # (the worker process died: a thread takes over)
            _fallback()
            self.key = None  # (sent again next frame)
            return
        for job, ok, value in answers:
            if job != self.job:
                continue
            if ok:
                self.preview, self.notes, self.method = value[:3]
                self.chains = value[3] if len(value) > 3 else ()
                self.state = "ready"
            else:
                self.state, self.refusal = "refused", f"odds: {value}"

    # --- the panel ----------------------------------------------------------------------------
    def height(self) -> int:
        n = max(1, len(self.targets))
        return n * ROW_H + NOTE_LINES * LINE_H + 8

    def build(self, flow, sb) -> None:
        """The odds block in the orders panel (an image the frame path repaints in place)."""
        self.image = None
        self._rendered = None
        self.names = sb.scene.unit_names  # (targets by the names a person reads: sim.names)
        self.words = sb.scene.words  # (a refusal's units, models and players, likewise)
        if self.key_of(sb) is None:
            return
        flow.space(2)
        flow.label("Odds", "#subheading")
        w, h = flow.width - 8, self.height()  # (the flow's units: px at UI scale 1)
        self.k = flow.s
        rect = flow._rect(flow.PAD, flow.y, w, h)  # (placed and sized at the panel's scale: at
        self.size = rect.size  # 2560x1440 it sat 200 px up, over the weapons, its text half size)
        self.image = UIImage(rect, self.render(), flow.manager, container=flow.scroll)
        self._rendered = self._sig()
        flow.y += h + 4

    def _sig(self):
        return (self.key, self.state, self.preview, self.notes, self.refusal, self.size)

    def _paint(self) -> None:
        if self.image is None or not self.image.alive():
            return
        sig = self._sig()
        if sig != self._rendered:
            self._rendered = sig
            self.image.set_image(self.render())

    def lines(self) -> list[str]:
        """The text of each row, as drawn (tests read it)."""
        names = getattr(self, "names", {})
        if self.state == "refused":  # (the rules' reason, its units by their names: sim.names)
            return [f"no odds: {in_words(self.refusal, getattr(self, 'words', names))}"]
        if self.state == "working" or self.preview is None:
            return [f"{names.get(t, t)}: working out the odds..." for t in self.targets]
        return [f"{names.get(uid, uid)}: {mean:.2f} models destroyed expected; destroys the unit {100 * wiped:.1f}%"
                for uid, mean, wiped, _hist in self.preview.targets]

    def chain_lines(self) -> list[str]:
        """Per target (when ready): the expected attack dice, hits, wounds and damage."""
        if self.state != "ready":
            return []
        return [f"attacks {c.attacks:.1f} > hits {c.hits:.1f} > wounds {c.wounds:.1f} > damage {c.damage:.1f} "
                f"of {c.wounds_left}" for c in self.chains]

    def note_lines(self) -> list[str]:
        if self.state != "ready":
            return []
        out = [("exact" if self.preview.exact else "estimated") + " odds, by the rules the battle plays"]
        return out + list(self.notes)

    def render(self) -> pygame.Surface:
        k = self.k
        w, h = self.size if self.size[0] > 0 else (round(360 * k), round(self.height() * k))
        surf = pygame.Surface((w, h))
        surf.fill(BG)
        f, small = font(font_px(12, k), True), font(font_px(10, k))
        row_h, line_h, line, bar_y = round(ROW_H * k), round(LINE_H * k), round(16 * k), round(31 * k)
        y = 2
        rows = self.preview.targets if self.state == "ready" and self.preview is not None else ()
        for i, text in enumerate(self.lines()):
            if self.state == "refused":  # (the reason in full, wrapped: it is the point)
                for row in wrap_line(text, f, w - 8)[:max(1, (h - y) // line)]:
                    surf.blit(f.render(row, True, WARN), (4, y))
                    y += line
                continue
            colour = TEXT if rows else MUTED
            head, _, tail = text.partition("; ")
            surf.blit(f.render(_fit(f, head, w - 8), True, colour), (4, y))
            if i < len(rows):
                chain = self.chain_lines()
                if i < len(chain):
                    surf.blit(small.render(_fit(small, chain[i], w - 8), True, MUTED), (4, y + line))
                t = f.render(tail, True, WARN if rows[i][2] >= 0.5 else TEXT)
                surf.blit(t, (w - 4 - t.get_width(), y + bar_y))  # (over the bars' right end)
                _bars(surf, pygame.Rect(4, y + bar_y, w - 12 - t.get_width(), row_h - round(35 * k)), rows[i][3],
                      small, k)
            y += row_h
        y = h - NOTE_LINES * line_h - 4
        for text in self.note_lines()[:NOTE_LINES]:
            colour = MUTED if text.startswith(("exact", "estimated")) else WARN
            surf.blit(small.render(_fit(small, text, w - 8), True, colour), (4, y))
            y += line_h
        return surf


def _bars(surf, r: pygame.Rect, hist, small, k: float = 1.0) -> None:
    """P(k models destroyed) for k = 0..n: a bar each, its height the probability (the tallest
    fills the row), k under it and its percentage over it where there is room."""
    n = len(hist)
    if n == 0:
        return
    label_h = round(11 * k)
    gap = 2
    bw = max(2, min(round(30 * k), (r.w - gap * n) // n))
    top = max(hist) or 1.0
    hh = r.h - label_h
    pct_h = label_h if bw >= 18 * k else 0  # (a percentage needs a bar about "35%" wide)
    hh_bars = hh - pct_h
    pygame.draw.line(surf, MUTED, (r.x, r.y + hh), (r.x + n * (bw + gap), r.y + hh))
    step = max(1, (n * round(14 * k)) // max(1, r.w) + 1)
    for k, p in enumerate(hist):
        x = r.x + k * (bw + gap)
        bh = int(round(hh_bars * p / top))
        if bh:
            pygame.draw.rect(surf, BAR, (x, r.y + hh - bh, bw, bh))
        if pct_h and p >= 0.005:
            t = small.render(f"{100 * p:.0f}%", True, TEXT)
            surf.blit(t, (x + (bw - t.get_width()) // 2, r.y + hh - bh - t.get_height()))
        if k % step == 0 or k == n - 1:
            t = small.render(str(k), True, MUTED)
            surf.blit(t, (x + (bw - t.get_width()) // 2, r.y + hh + 1))


def _fit(f, text: str, width: int) -> str:
    if f.size(text)[0] <= width:
        return text
    while text and f.size(text + "...")[0] > width:
        text = text[:-1]
    return text + "..."
