"""Set-up mode: edit the table before any battle happens.

Place terrain pieces from the library (R or the wheel rotates while placing), add units from
the unit library (assets/unit_library.toml) to either army, select a unit or a terrain piece by
clicking it, drag it to move it, remove it (Del) or duplicate it (D), and set how tall the
selected area's dense features are (Part A ruling 12: 2" or less, any model crosses them and
sight passes over them; no height, they count as taller). The edits are made on a
copy of the ScenarioSpec (sim.sandbox.table_edit) and each one starts a fresh Battle from it:
the sandbox never changes a running battle's world. A mixin of :class:`Sandbox`."""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from sim.rules import terrain as TR
from sim.sandbox import style as S
from sim.sandbox import table_edit as TE
from sim.sandbox.catalogue_browser import build_catalogue_panel
from sim.sandbox.import_dialog import build_import_section
from sim.sandbox.fonts import text

ROT_STEP = 15.0
HEIGHTS = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0)  # inches offered for a selected area's dense features


def height_words(area) -> str:
    """How tall the area's dense features are, in words (Part A ruling 12, 13.06, 24.35)."""
    hs = sorted({f.tall for f in area.features if f.solid})
    if not hs:
        return "no dense feature"
    if len(hs) > 1:
        return "dense features of " + ", ".join(f'{h:g}"' if h != float("inf") else "no height" for h in hs)
    h = hs[0]
    if h == float("inf"):
        return "dense: no height given (taller than 2\")"
    if h <= TR.LOW_FEATURE:
        return f'dense: {h:g}" tall (low: any model crosses it, sight passes over it)'
    return f'dense: {h:g}" tall'


@dataclass
class SetupState:
    placing: dict | None = None  # {"kind": "terrain", "piece", "rot"} | {"kind": "unit", "template", "owner"}
    terrain: int | None = None  # selected terrain area index
    drag: dict | None = None  # {"kind": "unit"|"terrain", "id", "start": (tx, ty), "delta": (dx, dy)}
    library: tuple = ()
    weapons: dict = field(default_factory=dict)


class SetupMixin:
    # ----------------------------------------------------------------------------- entering
    def toggle_setup(self) -> None:
        if self.mode == "setup":
            self.mode = "battle"
            self.setup.placing = self.setup.drag = None
            self.status = "set-up done: the battle starts from this table"
        else:
            if self.mode == "replay":
                self.leave_replay()
            if self.resolving or self.battle.busy:
                self.status = "finish the current activation first"
                return
            if self.battle.commands_done > 0 and self.has_unsaved():
                self.ask_first("Opening set-up (it restarts the battle from the table)", "Open set-up",
                               self._enter_setup)
                return
            self._enter_setup()
            return
        self.order = None
        self.dirty |= {"orders", "action", "card"}

    def _enter_setup(self) -> None:
        if self.mode == "battle":
            restarted = self.battle.commands_done > 0
            self.mode = "setup"
            if not self.setup.library:
                self.setup.library, self.setup.weapons = TE.load_library()
            if restarted:
                self.start_battle(self.spec, self.battle.seed)
            self.status = ("set-up: pick a terrain piece or a unit from the panel, click the table to place it"
                           + ("; the battle was restarted from the table" if restarted else ""))
        self.order = None
        self.dirty |= {"orders", "action", "card"}

    def _edit(self, fn, *args, ok: str = "") -> bool:
        """Apply a table edit; on success start a fresh battle from the edited table."""
        try:
            spec = fn(self.spec, *args)
        except TE.EditError as e:
            self.status = f"{'not removed' if fn in (TE.remove_unit, TE.remove_terrain) else 'not placed'}: {e}"
            return False
        self.edited = True
        self.start_battle(spec, self.battle.seed, scenario_path=self._table_name(spec))
        self.status = ok or "table changed"
        return True

    def _table_name(self, spec) -> str:
        """The file name an edited table is saved under beside a replay log (names its digest)."""
        from pathlib import Path
        stem = Path(self.origin[1]).stem.split("-table")[0]
        return f"{stem}-table-{spec.digest[:10]}.toml"

    # ----------------------------------------------------------------------------- palette
    def pick_terrain(self, piece: str) -> None:
        self.setup.placing = {"kind": "terrain", "piece": piece, "rot": 0.0}
        self.setup.terrain = None
        self.status = f"placing {piece}: click the table to place it, R or the wheel rotates, Esc stops"
        self.dirty |= {"orders"}

    def pick_unit(self, template_id: str, owner: int) -> None:
        tpl = next(u for u in self.setup.library if u.id == template_id)
        self.setup.placing = {"kind": "unit", "template": tpl, "owner": owner}
        self.status = f"placing {tpl.name} for {self.spec.armies[owner].name}: click the table"
        self.dirty |= {"orders"}

    def rotate_placing(self, steps: int) -> None:
        p = self.setup.placing
        if p is not None and p["kind"] == "terrain":
            p["rot"] = (p["rot"] + steps * ROT_STEP) % 360
            self.status = f"placing {p['piece']} rotated {p['rot']:g} degrees"
        elif p is None and self.setup.terrain is not None:
            i = self.setup.terrain
            if self._edit(TE.move_terrain, i, 0.0, 0.0, steps * ROT_STEP, ok="terrain rotated"):
                self.setup.terrain = i

    def place_at(self, tx: float, ty: float) -> bool:
        p = self.setup.placing
        if p is None:
            return False
        if p["kind"] == "terrain":
            if self._edit(TE.add_terrain, p["piece"], tx, ty, p["rot"], ok=f"placed {p['piece']}"):
                self.setup.terrain = len(self.spec.terrain) - 1
                return True
            return False
        tpl, owner = p["template"], p["owner"]
        before = {u.id for u in self.spec.units}
        if self._edit(TE.add_unit, tpl, owner, tx, ty, ok=f"added {tpl.name} to {self.spec.armies[owner].name}"):
            new = next(u.id for u in self.spec.units if u.id not in before)
            self.setup.placing = None
            self.select(new, self.scene.units[new].models[0])
            self.setup.terrain = None
            self.dirty |= {"orders"}
            return True
        return False

    def remove_selected(self) -> None:
        if self.mode != "setup":
            return
        if self.selected_unit is not None:
            uid = self.selected_unit
            if self._edit(TE.remove_unit, uid, ok=f"removed {uid}"):
                self.select(None)
        elif self.setup.terrain is not None:
            i = self.setup.terrain
            name = self.spec.terrain[i].name
            if self._edit(TE.remove_terrain, i, ok=f"removed {name}"):
                self.setup.terrain = None
        self.dirty |= {"orders", "card"}

    def duplicate_selected(self) -> None:
        """Pick up a copy of the selected unit or terrain piece: the next click places it."""
        if self.mode != "setup":
            return
        if self.selected_unit is not None:
            us = TE.unit_spec(self.spec, self.selected_unit)
            self.setup.placing = {"kind": "unit", "template": us, "owner": us.owner}
            self.status = f"placing a copy of {us.name}: click the table"
        elif self.setup.terrain is not None:
            from sim.sandbox.save_table import piece_params
            pp = piece_params(self.spec.terrain[self.setup.terrain])
            if pp is None:
                self.status = "only library terrain pieces can be duplicated"
                return
            self.setup.placing = {"kind": "terrain", "piece": pp[0], "rot": pp[3]}
            self.status = f"placing a copy of {pp[0]}: click the table"
        self.dirty |= {"orders"}

    def attach_selected(self, bodyguard: str) -> None:
        """19.01 The selected unit joins ``bodyguard`` as its leader or support: one unit."""
        uid = self.selected_unit
        if self.mode != "setup" or uid is None:
            return
        name, mine = TE.unit_spec(self.spec, bodyguard).name, self.scene.units[uid].name
        if self._edit(TE.attach, uid, bodyguard):
            self.select(bodyguard, self.scene.units[bodyguard].models[0])
            self.status = f"{mine} attached to {name}"
        else:
            self.status = f"not attached: {self.status.split(': ', 1)[-1]}"
        self.dirty |= {"orders", "card"}

    def detach_part(self, part: str) -> None:
        """The unit ``part`` leaves the selected attached unit and stands on its own."""
        uid = self.selected_unit
        if self.mode != "setup" or uid is None:
            return
        if self._edit(TE.detach, uid, part):
            self.select(part, self.scene.units[part].models[0])
            self.status = f"{self.scene.units[part].name} detached from {self.scene.units[uid].name}"
        self.dirty |= {"orders", "card"}

    def set_height(self, height: float | None) -> None:
        """Part A ruling 12: the selected area's dense features ``height`` inches tall (None: no
        height given; a library piece's own height)."""
        i = self.setup.terrain
        if self.mode != "setup" or i is None or i >= len(self.spec.terrain):
            return
        name = self.spec.terrain[i].name
        if self._edit(TE.set_terrain_height, i, height):
            self.setup.terrain = i
            self.status = f"{name}: {height_words(self.spec.terrain[i])}"
        self.dirty |= {"orders"}

    def cycle_height(self) -> None:
        """H: the selected area's dense features to the next height offered (HEIGHTS, then no
        height for an area drawn as polygons; a library piece's own height is among HEIGHTS)."""
        i = self.setup.terrain
        if self.mode != "setup" or i is None or i >= len(self.spec.terrain):
            return
        area = self.spec.terrain[i]
        if not area.solid_features:
            self.status = f"{area.name} has no dense feature: only a dense feature's height is read (13.06)"
            return
        from sim.sandbox.save_table import dense_height, piece_params
        order = list(HEIGHTS) + ([] if piece_params(area) is not None else [None])
        same, now = dense_height(area)
        self.set_height(order[(order.index(now) + 1) % len(order)] if same and now in order else order[0])

    # ----------------------------------------------------------------------------- input
    def setup_press(self, pos) -> None:
        tx, ty = self.camera.to_table(*pos)
        if self.setup.placing is not None:
            self.place_at(tx, ty)
            return
        m = self.scene.model_at(tx, ty)
        if m is not None:
            self.select(m.unit, m.id)
            self.setup.terrain = None
            self.setup.drag = {"kind": "unit", "id": m.unit, "start": (tx, ty), "delta": (0.0, 0.0), "pos": pos}
        else:
            i = TE.terrain_at(self.spec, tx, ty)
            self.select(None)
            self.setup.terrain = i
            if i is not None:
                area = self.spec.terrain[i]
                tall = f" ({height_words(area)}; H changes it)" if area.solid_features else ""
                self.status = f"selected terrain {area.name}{tall}: drag to move, R rotates, Del removes, D duplicates"
                self.setup.drag = {"kind": "terrain", "id": i, "start": (tx, ty), "delta": (0.0, 0.0), "pos": pos}
        self.dirty |= {"orders", "card"}

    def setup_motion(self, pos) -> None:
        d = self.setup.drag
        if d is None:
            return
        if abs(pos[0] - d["pos"][0]) + abs(pos[1] - d["pos"][1]) < 5 and d["delta"] == (0.0, 0.0):
            return
        tx, ty = self.camera.to_table(*pos)
        d["delta"] = (TE.snap(tx - d["start"][0]), TE.snap(ty - d["start"][1]))

    def setup_release(self, pos) -> None:
        d, self.setup.drag = self.setup.drag, None
        if d is None or d["delta"] == (0.0, 0.0):
            return
        dx, dy = d["delta"]
        if d["kind"] == "unit":
            uid = d["id"]
            if self._edit(TE.move_unit, uid, dx, dy, ok=f"moved {uid}"):
                self.select(uid, self.scene.units[uid].models[0])
        else:
            i = d["id"]
            if self._edit(TE.move_terrain, i, dx, dy, ok="terrain moved"):
                self.setup.terrain = i

    def setup_ghosts(self) -> dict:
        d = self.setup.drag
        if d is None or d["kind"] != "unit" or d["delta"] == (0.0, 0.0):
            return {}
        dx, dy = d["delta"]
        return {mid: (self.scene.models[mid].x + dx, self.scene.models[mid].y + dy)
                for mid in self.scene.units[d["id"]].models if mid in self.scene.models}

    # ----------------------------------------------------------------------------- drawing
    def draw_setup(self, surf, look) -> None:
        cam = self.camera
        st = self.setup
        if st.terrain is not None and st.terrain < len(self.spec.terrain):
            area = self.spec.terrain[st.terrain]
            dx, dy = st.drag["delta"] if st.drag and st.drag["kind"] == "terrain" else (0.0, 0.0)
            pts = [cam.to_screen(x + dx, y + dy) for x, y in area.polygon]
            pygame.draw.polygon(surf, S.SELECT, pts, 2)
        p = st.placing
        if p is None or not cam.viewport.collidepoint(self.mouse):
            return
        tx, ty = cam.to_table(*self.mouse)
        if p["kind"] == "terrain":
            area = TR.place(p["piece"], TE.snap(tx), TE.snap(ty), p["rot"])
            ok = not TR.validate_terrain([area], self.spec.board)
            col = S.LEGAL if ok else S.ILLEGAL
            for f in area.features:
                pygame.draw.polygon(surf, S.shade(col, 0.8), [cam.to_screen(x, y) for x, y in f.polygon], 1)
            pygame.draw.polygon(surf, col, [cam.to_screen(x, y) for x, y in area.polygon], 2)
            label = f"{p['piece']}  {p['rot']:g} deg"
        else:
            tpl = p["template"]
            at, why = self._preview(tpl, tx, ty)
            ok = why is None
            col = S.LEGAL if ok else S.ILLEGAL
            base = self.colours[p["owner"]]
            for m, (x, y) in zip(tpl.models, at):
                fp = m.length / 2
                c = cam.to_screen(x, y)
                r = max(2, cam.length(fp))
                if m.shape == "round":
                    pygame.draw.circle(surf, S.mix(base, S.MAT, 0.35), c, r)
                    pygame.draw.circle(surf, col, c, r, 1)
                else:
                    pygame.draw.ellipse(surf, S.mix(base, S.MAT, 0.35),
                                        pygame.Rect(c[0] - r, c[1] - cam.length(m.width / 2), 2 * r,
                                                    2 * cam.length(m.width / 2)))
            label = f"{tpl.name} ({self.spec.armies[p['owner']].name})" + ("" if ok else f": {self.said(why)}")
        t = text(label, 12, col)
        surf.blit(t, (self.mouse[0] + 14, self.mouse[1] + 12))

    def _preview(self, tpl, tx: float, ty: float):
        """(positions, None) where the unit would be set up by a click at (tx, ty) (the
        placement solver's, TE.unit_spots), or (its formation at the pointer, the reason it
        cannot be); kept while the pointer stays on the same 1/4" and the table is unchanged."""
        key = (id(self.spec), id(tpl), TE.snap(tx), TE.snap(ty))
        memo = getattr(self, "_preview_memo", None)
        if memo is not None and memo[0] == key:
            return memo[1]
        try:
            got = (TE.unit_spots(self.spec, tpl, tx, ty), None)
        except TE.EditError as e:
            got = (TE.unit_at(tpl, tx, ty), str(e))
        self._preview_memo = (key, got)
        return got


def build_setup_panel(flow, sb) -> None:
    """The orders panel in set-up mode: the terrain palette, the unit library, the selection."""
    st = sb.setup
    if build_catalogue_panel(flow, sb):  # a catalogue browsed: its search and datasheets instead
        return
    flow.label("Set up the table", "#heading")
    flow.para("Pick a piece or a unit, then click the table to place it (R or the wheel rotates "
              "terrain). Click to select, drag to move; Del removes, D duplicates, H sets a "
              "selected area's dense height.", "#muted")
    flow.label("Terrain", "#subheading")
    flow.newline()
    for name in TR.TERRAIN_LIBRARY:
        on = st.placing is not None and st.placing.get("piece") == name
        flow.button(name, lambda n=name: sb.pick_terrain(n), name=f"terrain:{name}",
                    object_id="#toggle_on" if on else "#toggle", height=24, size=12)
    flow.newline()
    for owner, army in enumerate(sb.spec.armies):
        flow.space(2)
        flow.label(f"Add to {army.name}", "#subheading")
        flow.newline()
        for tpl in st.library:
            on = st.placing is not None and st.placing.get("template") is tpl and st.placing["owner"] == owner
            flow.button(tpl.name, lambda t=tpl.id, o=owner: sb.pick_unit(t, o), name=f"unit:{owner}:{tpl.id}",
                        tip=library_tip(tpl),
                        object_id="#toggle_on" if on else "#toggle", height=24, size=12)
        flow.newline()
    build_import_section(flow, sb)  # Import army... (import_dialog.py)
    flow.space(4)
    what = None
    if sb.selected_unit is not None:
        what = sb.scene.units[sb.selected_unit].name
    elif st.terrain is not None and st.terrain < len(sb.spec.terrain):
        what = f"terrain: {sb.spec.terrain[st.terrain].name}"
    flow.label("Selected: " + (what or "nothing"), "#subheading")
    if what:
        flow.newline()
        flow.button("Duplicate (D)", sb.duplicate_selected, name="setup:duplicate", height=24, size=12)
        flow.button("Remove (Del)", sb.remove_selected, name="setup:remove", object_id="#danger", height=24, size=12)
        shown = sb.selected_unit is not None and _attach_rows(flow, sb, TE.unit_spec(sb.spec, sb.selected_unit))
        if st.terrain is not None:
            flow.button("Rotate (R)", lambda: sb.rotate_placing(1), name="setup:rotate", height=24, size=12)
            area = sb.spec.terrain[st.terrain] if st.terrain < len(sb.spec.terrain) else None
            if area is not None and area.solid_features:
                _height_buttons(flow, sb, area)
    flow.finish()
    bar = getattr(flow.scroll, "vert_scroll_bar", None)
    if what and shown and bar is not None:  # (the selection's attach rows are at the panel's end)
        bar.set_scroll_from_start_percentage(1.0)


def library_tip(tpl) -> str:
    """A library unit's hover: its models, its modelled rules (issue 26) apart from its inert labels."""
    out = [f"{len(tpl.models)} models"]
    rules, labels = [], []
    for ms in tpl.models:
        rules += [k for k in ms.rules if k not in rules]
        labels += [k for k in ms.labels if k not in labels]
    labels += [k for k in getattr(tpl, "labels", ()) if k not in labels]
    if rules:
        from sim.rules.effects import table
        out.append("rules: " + ", ".join(getattr(table.by_key(k), "name", k) for k in rules))
    if labels:
        out.append("not modelled: " + ", ".join(labels))
    return "<br>".join(out)


def _height_buttons(flow, sb, area) -> None:
    """The selected area's dense height (Part A ruling 12) and a button for each height offered."""
    from sim.sandbox.save_table import dense_height, piece_params
    flow.newline()
    flow.label(height_words(area), "#muted", size=12)
    flow.newline()
    same, now = dense_height(area)
    piece = piece_params(area) is not None
    for h in HEIGHTS:
        on = same and now == h
        flow.button(f'{h:g}"', lambda h=h: sb.set_height(h), name=f"setup:height:{h:g}",
                    tip=("low: any model crosses it, sight passes over it (13.06)" if h <= TR.LOW_FEATURE
                         else f'taller than 2"; a Super-heavy Walker crosses it (24.35)' if h <= 4
                         else "only INFANTRY, BEASTS, SWARM, MOBILE or flying models cross it"),
                    object_id="#toggle_on" if on else "#toggle", height=24, size=12)
    own = "piece's own" if piece else "no height"
    flow.button(own, lambda: sb.set_height(None), name="setup:height:none",
                tip="the library piece's height" if piece else "counts as taller than 2\" (Part A ruling 12)",
                object_id="#toggle_on" if (same and now is None) else "#toggle", height=24, size=12)


def _attach_rows(flow, sb, us) -> bool:
    """19.01 The selected unit's attachment: "Attach to..." a button per bodyguard the rule
    allows, by name (else why none can be joined); of an attached unit, a button to detach each
    unit that joined it. Whether it showed any."""
    from sim.rules.leaders import join_role
    from sim.scenario.attach import facts
    if us.parts:
        flow.newline()
        for p in us.parts[1:]:
            flow.button(f"Detach {p.name}", lambda p=p.id: sb.detach_part(p), name=f"setup:detach:{p.id}",
                        tip=f"{p.name} stands on its own again", height=24, size=12)
        return True
    if join_role(a for m in us.models for a in m.abilities) is None or facts(us).roles:
        return False
    choices = TE.bodyguards(sb.spec, us.id)
    legal = [(b, name) for b, name, problems in choices if not problems]
    flow.newline()
    flow.label("Attach to..." if legal else "Attach to: no unit it can join", "#muted", size=12)
    flow.newline()
    for b, name in legal:
        flow.button(name, lambda b=b: sb.attach_selected(b), name=f"setup:attach:{b}",
                    tip=f"{us.name} joins {name}: one unit (19.01)", height=24, size=12)
    if not legal:
        for _, name, problems in choices[:4]:
            flow.para(f"{name}: {problems[0]}", "#muted", indent=8)
    return True
