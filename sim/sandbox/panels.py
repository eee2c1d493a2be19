"""Panel contents: the unit card and the orders panel, built with Flow from world reads.

Buttons call back into the sandbox, which turns them into commands and decisions."""

from __future__ import annotations

from collections import Counter

import esper

from sim import commands as C
from sim import events as ev
from sim.components import Stats, Unit
from sim.names import in_words
from sim.rules.abilities import ABILITY_HELP, Hook, tag
from sim.rules.shooting import SHOOTING_TYPES
from sim.sandbox import range_rings, rules_card
from sim.sandbox.decision_panel import mark_option, option_text
from sim.sandbox.charge_flow import build_placement_footer, build_placement_panel, placement_buttons
from sim.sandbox.orders import FightOrder, ShootOrder, order_refusal, weapon_line
from sim.world import queries as W

# the card's characteristics: heading and column width (scale 1 units, the gap included)
STAT_COLS = (("M", 32), ("T", 28), ("Sv", 32), ("W", 30), ("Ld", 32), ("OC", 32), ("InSv", 44))

def _name(sb, uid) -> str:
    """A unit by the name a person reads (sim.names, through the scene)."""
    uv = sb.scene.units.get(uid)
    return uv.name if uv is not None else str(uid)


def ability_tip(a) -> str:
    name = getattr(a, "name", str(a))
    rule, text = ABILITY_HELP.get(name, ("", "No description."))
    label = a.label() if hasattr(a, "label") else str(a)
    return f"<b>{label}</b> ({rule})<br>{text}"


def build_unit_card(flow, sb) -> None:
    uid = sb.selected_unit
    if uid is None:
        flow.label("No unit selected", "#subheading")
        flow.para("Click a model on the table to see its unit's datasheet: characteristics, keywords "
                  "and weapons. Hover an ability for its rule.", "#muted")
        flow.finish()
        return
    battle = sb.battle
    battle._enter()
    ent = battle.units[uid]
    u = esper.component_for_entity(ent, Unit)
    army = battle.scenario.armies[u.owner].name
    uv = sb.scene.units[uid]
    flow.label(uv.name, "#heading")  # (the shown name, "Warden Squad (1)": sim.names)
    living = sb.scene.living(uid)
    status = f"{army}  |  {len(living)}/{len(uv.models)} models"
    if uv.engaged:
        status += "  |  engaged"
    if W.undeployed(ent):  # (26 step 8: off the table until set up)
        status += "  |  to be deployed"
    if uv.embarked_in is not None:
        status += f"  |  embarked in {_name(sb, uv.embarked_in)}"
    st = W.unit_state(ent)
    flags = [n for n, v in (("advanced", st.advanced), ("fell back", st.fell_back), ("charged", st.charged),
                            ("shot", st.selected_to_shoot), ("fought", st.selected_to_fight)) if v]
    if st.moved:
        flags.append(f'moved {st.moved:.1f}"')
    flow.label(status, "#muted")
    if flags:
        flow.label("this turn: " + ", ".join(flags), "#muted")
    flow.space(2)
    # characteristics per distinct model profile: one column per characteristic, so the values
    # stay under their headings at every width (a narrow card puts the name above the values)
    name_w = flow.width - sum(w for _h, w in STAT_COLS) - 8
    narrow = name_w < 96
    if narrow:
        name_w = 12
    flow.newline()
    flow.inline_label("", width=name_w, height=22)
    for hd, w in STAT_COLS:
        flow.inline_label(hd, "#subheading", width=w - 4, height=22)
    flow.newline()
    seen = Counter()
    rows = {}
    # (a row per datasheet model and profile, "Warden x5": the shown names are numbered per model,
    # "Warden 1".."Warden 5", and made one row per model)
    sheet = {ms.id: ms.name for us in battle.scenario.units if us.id == uid for ms in us.models}
    for mid in uv.models:
        m = sb.scene.models[mid]
        stt = esper.component_for_entity(m.ent, Stats)
        key = (sheet.get(mid, m.name), stt.M, stt.T, stt.Sv, stt.W, stt.Ld, stt.OC, stt.InSv)
        if m.alive:
            seen[key] += 1
            rows.setdefault(key, []).append(m)
        else:
            rows.setdefault(key, [])
    for key, ms in rows.items():
        name, M, T, Sv, Wd, Ld, OC, Inv = key
        count = f"{name} x{len(ms)}" if len(ms) != 1 else name
        if any(m.character for m in ms):
            count += " *"
        if narrow:
            flow.label(count)
            flow.inline_label("", width=name_w, height=22)
        else:
            flow.inline_label(count, width=name_w, height=22)
        inv = f"{Inv}+" if Inv else "-"
        for v, (_h, w) in zip((f'{M}"', T, f"{Sv}+", Wd, f"{Ld}+", OC, inv), STAT_COLS):
            flow.inline_label(str(v), width=w - 4, height=22)
        flow.newline()
        wounded = [f"{m.name} {m.remaining}/{m.W}" for m in ms if m.remaining < m.W]
        if wounded:
            flow.label("wounded: " + ", ".join(wounded), "#warning", indent=12)
    flow.space(2)
    cap = W.capacity(ent)
    if cap is not None:  # 18.01 what it carries
        flow.label(f"Transport: {uv.carried} of {cap.models} embarked", "#subheading")
        flow.para(cap.describe() + " (18.01)", "#muted")
        for p in W.passengers(ent):
            pv = sb.scene.units[esper.component_for_entity(p, Unit).id]
            n = sum(1 for x in pv.models if sb.scene.models[x].remaining > 0)
            flow.label(f"{pv.name}: {n} model{'s' if n != 1 else ''}", indent=12)
    kws = sorted(W.unit_keywords(ent)) if living else []
    if kws:
        flow.label("Keywords", "#subheading")
        flow.para(", ".join(kws), "#muted")
    abil = []
    for m in W.unit_models(ent):
        for a in W.model_abilities(m):
            if a not in abil:
                abil.append(a)
    if abil:
        flow.label("Abilities", "#subheading")
        flow.newline()
        for a in abil:
            flow.chip(a.label(), ability_tip(a))
        flow.newline()
    flow.space(2)
    rules_card.build_rules(flow, sb, ent, uid)  # (issue 26: modelled rules, then inert labels)
    flow.label("Weapons", "#subheading")
    counts = Counter()
    order = []
    for m in W.unit_models(ent) or W.unit_models(ent, living=False):
        for w in W.weapons_of(m):
            if w.name not in counts:
                order.append(w)
            counts[w.name] += 1
    for w in order:
        range_rings.weapon_row(flow, sb, w, counts[w.name])  # hover: its range ring
        flow.label(weapon_line(w), "#muted", indent=14)
        if w.abilities:
            flow.newline()
            flow.x += 14
            for a in w.abilities:
                flow.chip(a.label(), ability_tip(a))
            flow.newline()
    flow.finish()


def build_orders(flow, sb) -> None:
    battle = sb.battle
    if battle.pending is not None:
        _decision(flow, sb)
    elif battle.busy or sb.resolving:
        _resolving(flow, sb)
    elif sb.placement is not None:
        build_placement_panel(flow, sb)
    elif isinstance(sb.order, ShootOrder):
        _shoot(flow, sb, sb.order)
    elif isinstance(sb.order, FightOrder):
        _fight(flow, sb, sb.order)
    else:
        _idle(flow, sb)
    flow.finish()


def _idle(flow, sb) -> None:
    if sb.ai and sb.mode == "battle" and sb.battle.turn_state is not None and sb.battle.turn_state.round:  # the computer playing a side (computer_panel.py)
        from sim.sandbox.computer_panel import build_section
        build_section(flow, sb)
        if sb.battle.turn_state.chooser in sb.ai:  # (its turn: nothing to order; the phase as it goes)
            from sim.sandbox.battle_flow import build_phase_panel
            build_phase_panel(flow, sb)
            return
    if sb.pre_battle_step is not None:  # 26 steps 7-11: the deployment as a phase
        from sim.sandbox.deploy_flow import build_pre_battle_panel
        build_pre_battle_panel(flow, sb)
        return
    if sb.battle.turn_state is not None:  # a battle with a mission: the phase, reserves
        from sim.sandbox.battle_flow import build_phase_panel
        build_phase_panel(flow, sb)
    flow.label("Orders", "#heading")
    if sb.selected_unit is None:
        flow.para("Select a unit by clicking one of its models. Drag to pan with the right "
                  "button, wheel to zoom. Press F1 for every shortcut.", "#muted")
        return
    flow.label(f"{sb.scene.units[sb.selected_unit].name}", "#subheading")
    flow.newline()
    for label, fn, record in (("Shoot  (S)", sb.begin_shoot, C.SHOOT), ("Fight  (F)", sb.begin_fight, C.FIGHT)):
        why = order_refusal(sb, record)  # (greyed with the reason when the phase does not accept it)
        flow.button(label, fn, name=record.kind, object_id="#unavailable" if why else "#primary",
                    tip=f"Not now: {why}" if why else None)
    placement_buttons(flow, sb)
    if sb.battle.turn_state is not None:  # (a battle with a mission: the phase panel's one move-type row)
        return
    flow.space(6)
    flow.label("Move type (M): this unit's own", "#subheading")
    flow.newline()
    for mode in ("normal", "advance", "fall back"):
        flow.button(mode, lambda m=mode: sb.set_move_mode(m), name=f"mode:{mode}",
                    object_id="#toggle_on" if sb.move_mode == mode else "#toggle")
    flow.newline()
    flow.para("The type is this unit's, reset after its move. Drag a model to move the whole unit; "
              "Shift-drag places one model at a time, Enter confirms the unit's move. R or the wheel "
              "turns a dragged formation (a vehicle's base turns with it: 03.01, free, but its swing "
              "may not cross what it may not). The ring shows how far each model may go.", "#muted")


def _type_row(flow, sb, order: ShootOrder) -> None:
    flow.label("Shooting type", "#subheading")
    flow.newline()
    for t in SHOOTING_TYPES:
        reason = order.eligibility[t]
        if reason is not None:
            flow.button(t, lambda t=t: sb.choose_type(t), name=f"type:{t}", tip=f"Not eligible: {sb.said(reason)}",
                        object_id="#unavailable")
        else:
            tip = "eligible" + (" (the default choice)" if t == order.default_type else "")
            flow.button(t, lambda t=t: sb.choose_type(t), name=f"type:{t}", tip=tip,
                        object_id="#toggle_on" if order.type == t else "#toggle")
    flow.newline()


def _weapon_rows(flow, sb, order) -> None:
    for mid in order.models():
        idx = order.model_slots(mid)
        m = sb.scene.models.get(mid)
        flow.label(m.name if m is not None else order.slots[idx[0]].model_name, "#muted", size=12)
        flow.newline()
        flow.x += 10
        for k, i in enumerate(idx):
            s = order.slots[i]
            alt = order.alternatives(i)
            if alt and k and order.slots[idx[k - 1]].weapon.weapon == s.weapon.weapon:
                flow.inline_label("or", width=20, height=22)  # 04.01.03 profiles are alternatives
            problem = order.slot_problem(s)
            tgt = f" -> {_name(sb, s.target)}" if s.target and len(s.split) < 2 else " (split)" if s.split else ""
            text = f"{s.weapon.name}{tgt}"
            tip = f"{weapon_line(s.weapon)}" + (
                f"<br>a profile of {s.weapon.weapon}: pick one (04.01.03)" if alt else "") + (
                f"<br>{problem}" if problem else "") + (
                f"<br>target: {_name(sb, s.target)}" if s.target else "")
            oid = "#toggle_on" if s.selected else ("#unavailable" if problem else "#toggle")
            flow.button(text, lambda i=i: sb.toggle_slot(i), name=f"slot:{i}", tip=tip, object_id=oid,
                        height=22, size=12)
            if isinstance(order, FightOrder) and len(s.split) > 1:
                _split_rows(flow, sb, i, s)
        flow.newline()


def _split_rows(flow, sb, i, s) -> None:
    """04.03 split attacks: per target, its attacks and - / + (at least 1 each, adding up to A)."""
    flow.newline()
    for t, n in s.split.items():
        flow.x += 24
        flow.inline_label(flow.fit(f"{n} of A{s.weapon.A.k} at {_name(sb, t)}", 166), width=170, height=22)
        flow.button("-", lambda t=t: sb.adjust_split(i, t, -1), name=f"split:{i}:{t}:-", width=26, height=22, size=12)
        flow.button("+", lambda t=t: sb.adjust_split(i, t, +1), name=f"split:{i}:{t}:+", width=26, height=22, size=12)
        flow.newline()


def _shoot(flow, sb, order: ShootOrder) -> None:
    flow.label(f"Shoot: {sb.scene.units[order.unit_id].name}", "#heading")
    _type_row(flow, sb, order)
    if order.type is None:
        flow.para("Choose a shooting type. Greyed types are not available; hover one for the reason.",
                  "#muted")
    else:
        flow.space(4)
        flow.label("Weapons", "#subheading")  # (the hint apart: at 800x600 "...(click to select per m..." was cut)
        flow.para("click one to select it per model", "#muted")
        _weapon_rows(flow, sb, order)
        _order_footer(flow, sb, order)


def _fight(flow, sb, order: FightOrder) -> None:
    flow.label(f"Fight: {sb.scene.units[order.unit_id].name}", "#heading")
    if order.eligible:
        flow.label(f"Not eligible: {order.eligible}", "#warning")
    flow.label("Melee weapon per model", "#subheading")
    _weapon_rows(flow, sb, order)
    _order_footer(flow, sb, order)


def _order_footer(flow, sb, order) -> None:
    sb.odds.build(flow, sb)  # per target: expected models destroyed, P(destroyed), the bars
    flow.space(4)
    flow.label("Targets", "#subheading")
    flow.para("Click an enemy unit: green ones are legal for a selected weapon; hover a red one "
              "for the reason. Each click targets the selected weapons that have none yet.", "#muted")
    for line in order.summary():
        flow.label(in_words(line, sb.scene.words), indent=6, size=12)
    if order.message:
        flow.para(in_words(order.message, sb.scene.words), "#warning")


def _resolving(flow, sb) -> None:
    flow.label("Resolving", "#heading")
    flow.para(sb.said(sb.stage_text()), "#muted")  # (the unit by its name: sim.names)
    flow.newline()
    flow.label("Auto-play speed", "#muted")
    flow.newline()
    for sp in (1, 3, 8):
        flow.button(f"{sp} step{'s' if sp != 1 else ''}/s", lambda sp=sp: sb.set_speed(sp), name=f"speed:{sp}",
                    object_id="#toggle_on" if sb.speed == sp else "#toggle", size=12, height=22)


def build_setup_footer(flow, sb) -> None:
    flow.y = 6
    flow.button("Save table  (Ctrl+T)", sb.save_table, name="setup:save", object_id="#primary", height=28)
    flow.button("Done  (F2)", sb.toggle_setup, name="setup:done", height=28)
    flow.finish()


def build_footer(flow, sb) -> None:
    """The fixed row under the orders panel: the buttons that finish what the panel declares."""
    flow.y = 6
    b = sb.battle
    if b.pending is not None:  # (always in view, however long the panel's list of options)
        if "decline" in (b.pending.options if isinstance(b.pending.options, (list, tuple)) else ()) \
                and b.pending.default != "decline":
            flow.button("Decline", lambda: sb.answer("decline"), name="footer:decline", height=28)
        flow.button("Use default" + (": decline" if b.pending.default == "decline" else ""),
                    lambda: sb.answer(b.pending.default), name="default", height=28,
                    tip=f"the default policy's answer: {option_text(sb, b.pending.default)}")
    elif b.busy or sb.resolving:
        flow.button("Step  (Space)", sb.step, name="step", object_id="#primary", height=28)
        flow.button("Auto: on" if sb.auto else "Auto  (P)", sb.toggle_auto, name="auto",
                    object_id="#toggle_on" if sb.auto else "#toggle", height=28)
        flow.button("Finish", sb.finish, name="finish", height=28)
    elif sb.placement is not None:
        build_placement_footer(flow, sb)
        return
    elif sb.pre_battle_step is not None:  # 26 steps 7-11 (deploy_flow.py)
        from sim.sandbox.deploy_flow import build_pre_battle_footer
        build_pre_battle_footer(flow, sb)
    elif sb.order is not None:
        flow.button("Resolve  (Enter)", sb.resolve, name="resolve", object_id="#primary", height=28)
        flow.button("Clear targets", sb.clear_targets, name="clear", height=28)
        flow.button("Cancel  (Esc)", sb.cancel, name="cancel", object_id="#danger", height=28)
    flow.finish()


def _decision(flow, sb) -> None:
    from sim.sandbox.decision_panel import (allocation_forms, build_generic, option_text, option_text_forms,
                                            prompt_text, tick, tick_tip)
    req = sb.battle.pending
    armies = sb.battle.scenario.armies
    who = armies[req.player].name if isinstance(req.player, int) and 0 <= req.player < len(armies) else "?"
    flow.label("Decision", "#heading")
    flow.para(f"{who}: {prompt_text(sb, req)}")  # (units by their names)
    flow.newline()
    if req.kind in ("precision", "duplicate", "lethal_hits", "charge_targets", "arrival"):  # (pick one)
        if req.kind == "precision":
            flow.para("Click a highlighted CHARACTER on the table, or choose here:", "#muted")
        for opt in req.options:
            label = flow.first_fitting(option_text_forms(sb, opt, req.options))
            oid = "#pick" if opt == req.default else None
            b = flow.button(label, lambda o=opt: sb.answer(o), name=f"answer:{opt}",
                            tip="the default policy's choice" if opt == req.default else None, object_id=oid)
            mark_option(sb, b, opt)  # (hover: its units and models highlighted on the table)
    elif req.kind == "psychic":
        chosen = sb.decision_state.setdefault("psychic", list(req.default))
        mods = dict((s, v) for s, v in req.context.get("modifiers", []))
        flow.para(f"Toggle the modifiers this {tag(Hook.IGNORES_MODIFIERS)} attack ignores (24.29):", "#muted")
        for opt in req.options:
            v = mods.get(opt)
            text = f"ignore {opt}" + (f" ({v:+d})" if v is not None else "")
            flow.button(tick(text, opt in chosen), lambda o=opt: sb.toggle_psychic(o), name=f"psychic:{opt}",
                        object_id="#toggle_on" if opt in chosen else "#toggle", tip=tick_tip(opt in chosen))
            flow.newline()
        flow.button("Confirm", lambda: sb.answer(list(chosen)), name="confirm", object_id="#primary")
    elif req.kind == "role":  # 26 step 5
        from sim.sandbox.deploy_flow import build_role
        build_role(flow, sb, req)
    elif req.kind == "stratagem":
        from sim.sandbox.decision_panel import build_stratagem
        build_stratagem(flow, sb, req)
    elif req.kind == "coherency_removal":
        from sim.sandbox.decision_panel import build_removal
        build_removal(flow, sb, req)
    elif req.kind == "allocation_order":
        order = sb.decision_state.setdefault("order", list(req.default))
        labels = dict(zip(req.options, req.context.get("groups", req.options)))
        flow.para("Order of allocation groups, first takes wounds first (05.03):", "#muted")
        chosen = precision_choice(sb.battle.events, req.key)
        if chosen:
            flow.para(f"{tag(Hook.PRECISION)} (24.28): the attacker chose {chosen}; its group takes the wounds "
                      f"first whatever this order says, until it has no model left. Then this "
                      f"order applies.", "#warning")
        for k, key in enumerate(order):
            w = flow.width - 110
            flow.inline_label(flow.first_fitting(allocation_forms(sb, k + 1, labels.get(key, key)), w, label=True),
                              width=w, height=26)
            flow.button("up", lambda k=k: sb.move_group(k, -1), name=f"up:{k}", width=40, height=24, size=12)
            flow.button("down", lambda k=k: sb.move_group(k, +1), name=f"down:{k}", width=50, height=24, size=12)
            flow.newline()
        flow.button("Confirm", lambda: sb.answer(list(order)), name="confirm", object_id="#primary")
    elif req.kind == "oath":  # (a deed and a quality: a grid)
        from sim.sandbox.decision_panel import build_oath
        build_oath(flow, sb, req)
    else:  # (a rule's choice, issue 26, or any kind without a dialog of its own)
        build_generic(flow, sb, req)
    if sb.decision_error:
        flow.para(sb.said(sb.decision_error), "#warning")


def precision_choice(events, key: str) -> str | None:
    """The CHARACTER the attacker chose with [PRECISION] for the pool a decision ``key``
    ("pool N") names, if any (read from the latest events back to that pool's start)."""
    for e in reversed(events):
        t = e["type"]
        if t == ev.PRECISION and f"pool {e.get('pool')}" == key:
            return e.get("chosen")
        if t == ev.COMMAND or (t == ev.POOL and f"pool {e.get('pool')}" == key):
            return None
    return None
