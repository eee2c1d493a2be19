"""The decision panel's choices for the whole-battle decisions: a stratagem offered at its
moment (15: every option a button, with its CP cost and the CP its player has), and the models
an out-of-coherency unit loses (03.03: a toggle per model, in the order clicked, then Confirm).
The rules check the answer (sim.plan.answers.validate_answer); a refusal is shown as given."""

from __future__ import annotations

from sim.names import ids_in, ids_named, in_words, model_of_unit, possessive
from sim.rules import command_reroll as RR
from sim.stratagems import by_name
from sim.stratagems import command_reroll as CR


def _unit_name(sb, uid: str) -> str:
    """A unit by the name a person reads (sim.names: "Raider Mob (2)" when two share it)."""
    uv = sb.scene.units.get(uid)
    return uv.name if uv is not None else uid


# --- Command Re-roll (15.02): which questions the person is asked (sim.rules.command_reroll.ASK) ---
ASK_WORDS = {RR.ALWAYS: "every die that can do better", RR.FAILED: "only failed rolls", RR.NEVER: "never"}


def reroll_setting(sb, player: int) -> str:
    """What the person playing ``player`` is asked about (the sandbox's setting; at first the
    scenario's ``[mission] command_reroll``)."""
    asks = getattr(sb, "reroll_asks", None)
    if asks is None:
        mission = getattr(sb.spec, "mission", None)
        asks = sb.reroll_asks = list(mission.command_reroll) if mission is not None else [RR.ALWAYS, RR.ALWAYS]
    return asks[player] if 0 <= player < len(asks) else RR.ALWAYS


def set_reroll_setting(sb, player: int, value: str) -> None:
    reroll_setting(sb, player)
    sb.reroll_asks[player] = value
    sb.status = f"{CR.NAME}: {sb.spec.armies[player].name} is asked about {ASK_WORDS[value]}"
    if not auto_answer(sb):
        sb.dirty |= {"orders", "dice"}


def is_reroll(req) -> bool:
    return CR.is_offer(req)


def reroll_options(sb, req) -> list:
    """The options of a Command Re-roll decision the person is asked about, by their setting
    (the dice of failed rolls only, or none), "decline" last."""
    setting = reroll_setting(sb, req.player)
    ctx = req.context
    dice = ctx.get("dice")
    if dice is None:  # (a whole roll: use or decline)
        return list(req.options) if RR.asks_whole(setting, bool(ctx.get("failed"))) else ["decline"]
    keep = set(RR.asked_dice(setting, list(dice.values()), ctx.get("failed") or []))
    return [o for o in req.options if o == "decline" or dice.get(o) in keep]


def auto_answer(sb) -> bool:
    """A Command Re-roll the person's setting does not ask about is declined for them (the log
    keeps the decision, so a replay is the same). True when it answered."""
    req = sb.battle.pending
    if req is None or not is_reroll(req) or req.player in getattr(sb, "ai", {}):
        return False
    if reroll_options(sb, req) != ["decline"] or "decline" not in req.options:
        return False
    sb.answer("decline")
    sb.status = (f"{CR.NAME} not asked ({sb.spec.armies[req.player].name}: asked about "
                 f"{ASK_WORDS[reroll_setting(sb, req.player)]}): declined")
    return True


def option_label(sb, req, opt) -> tuple[str, int | None]:
    """The button text for a stratagem decision's option, and its CP cost (None: declining)."""
    name = req.context.get("stratagem", "")
    try:
        record = by_name(name)
    except KeyError:
        record = None
    if opt == "decline":
        return "Decline", None
    if record is None:
        return str(opt), None
    cost = record.cost_of(opt)
    if is_reroll(req) and opt in req.context.get("dice", {}):  # (a die, counted from 1 for people)
        return f"Re-roll {RR.option_words(str(opt))} ({cost} CP)", cost
    if opt == "use":
        target = req.context.get("target")
        return f"Use {name} ({cost} CP)" + (f" on {_unit_name(sb, target)}" if target else ""), cost
    if " -> " in str(opt):  # "unit -> target" (Fire Overwatch's shooter and target): by their names
        uid, tid = str(opt).split(" -> ", 1)
        return f"{option_text(sb, uid)} -> {option_text(sb, tid)} ({cost} CP)", cost
    if ": " in str(opt):  # "unit: mode" (15.11's modes)
        uid, mode = str(opt).split(": ", 1)
        return f"{_unit_name(sb, uid)}: {mode} ({cost} CP)", cost
    # (a unit's option: the stratagem it uses, then its cost - "Warden Squad (3) (2 CP)" read as
    # a number beside a number and did not say what the button does)
    return f"{record.name}: {_unit_name(sb, str(opt))}, {cost} CP", cost


def option_forms(sb, req, opt) -> list[str]:
    """A stratagem option's button text (option_label), then shorter forms for a narrow panel
    that keep every unit's name whole: the stratagem is named in the paragraph above the
    buttons, the cost in the tip and the "CP to spend" line (Flow.first_fitting picks the first
    that shows whole)."""
    text, cost = option_label(sb, req, opt)
    if cost is None:
        return [text]
    s = str(opt)
    if is_reroll(req) and opt in req.context.get("dice", {}):
        words = RR.option_words(s)
        return [text, f"Re-roll {words}", "Re-roll " + words.split(", ", 1)[-1]]
    if opt == "use":
        target = req.context.get("target")
        if not target:
            return [text, f"Use ({cost} CP)", "Use"]
        name = _unit_name(sb, target)
        return [text, f"Use ({cost} CP) on {name}", f"Use on {name}", name]
    if " -> " in s:
        uid, tid = s.split(" -> ", 1)
        return [text, f"{option_text(sb, uid)} -> {option_text(sb, tid)}"]
    if ": " in s:
        uid, mode = s.split(": ", 1)
        return [text, f"{_unit_name(sb, uid)}: {mode}"]
    name = _unit_name(sb, s)
    return [text, f"{name}, {cost} CP", name]


def build_stratagem(flow, sb, req) -> None:
    ts = sb.battle.turn_state
    name = req.context.get("stratagem", "")
    who = sb.battle.scenario.armies[req.player].name
    cp = ts.cp[req.player] if ts is not None else 0
    try:
        record = by_name(name)
        flow.para(f"{record.name} ({record.section}): {record.paraphrase}", "#muted")
    except KeyError:
        pass
    flow.label(f"CP to spend: {who} {cp}", "#subheading")
    flow.newline()
    options = list(req.options)
    if is_reroll(req):
        options = reroll_options(sb, req)
        if req.context.get("dice"):
            flow.para("The dice are in the tray: click one to re-roll it, or choose here.", "#muted")
    for opt in options:
        text, cost = option_label(sb, req, opt)
        tip = "the default policy's choice (Part A ruling 25)" if opt == req.default else None
        if cost is not None:
            tip = (tip + "<br>" if tip else "") + f"{cost} CP of {possessive(who)} {cp}"
        shown = flow.first_fitting(option_forms(sb, req, opt))
        if shown != text:  # (shortened: the tip says it whole)
            tip = f"{text}<br>{tip}" if tip else text
        b = flow.button(shown, lambda o=opt: sb.answer(o), name=f"answer:{opt}", tip=tip,
                        object_id="#primary" if opt == req.default else None)
        mark_option(sb, b, opt, req.context.get("target") if opt != "decline" else None)
        flow.newline()
    if is_reroll(req):  # (the setting: ask me about...)
        flow.space(4)
        flow.para(f"Ask {who} about {CR.NAME}s:", "#muted")  # (wrapped: cut at 800x600)
        flow.newline()
        now = reroll_setting(sb, req.player)
        for v in RR.ASK:
            flow.button(ASK_WORDS[v], lambda v=v: set_reroll_setting(sb, req.player, v), name=f"ask:{v}",
                        object_id="#toggle_on" if v == now else "#toggle", height=22, size=12)
        flow.newline()


def build_removal(flow, sb, req) -> None:
    """03.03: toggle the models the unit loses (first clicked, first removed); the default
    (Part A ruling 29's order) is preselected."""
    chosen = sb.decision_state.setdefault("removal", list(req.default))
    flow.para("Click the models it loses, one at a time until the unit is coherent and not one more "
              "(03.03); the numbers are the order of removal. The preselection is ruling 29's.", "#muted")
    for mid in req.options:
        m = sb.scene.models.get(mid)
        label = m.name if m is not None else str(mid)
        if mid in chosen:
            label = f"{chosen.index(mid) + 1}. remove {label}"
        flow.button(flow.fit(label, flow.width - 8), lambda o=mid: toggle_removal(sb, o), name=f"coh:{mid}",
                    object_id="#toggle_on" if mid in chosen else "#toggle")
        flow.newline()
    flow.button("Confirm", lambda: sb.answer(list(chosen)), name="confirm", object_id="#primary")


def toggle_removal(sb, mid: str) -> None:
    chosen = sb.decision_state.setdefault("removal", [])
    if mid in chosen:
        chosen.remove(mid)
    else:
        chosen.append(mid)
    sb.dirty.add("orders")


# --- any other decision (a rule's choice, issue 26, or a kind this panel has no dialog for) ----
WORDS = {"decline": "Decline", "use": "Use", "call": "Call it now", "reroll": "Re-roll", "yes": "Yes", "no": "No",
         "pass": "Not now", "skip": "Not now", "none": "None"}
WORDS["done"] = "Done: no more units"  # the end of a choice of several friendly units (V.DONE)


def option_text(sb, opt) -> str:
    """An option in words: a unit id by its unit's name (sim.names: numbered when two units
    share one), a model id by its model's name and its unit's, True/False as Yes/No, a list item by item."""
    if opt is True or opt is False:
        return "Yes" if opt else "No"
    if opt is None:
        return "None"
    if isinstance(opt, (list, tuple)):
        return ", ".join(option_text(sb, o) for o in opt) or "none"
    s = str(opt)
    uv = sb.scene.units.get(s)
    if uv is not None:  # (the scene's names are sim.names': numbered when two units share one)
        return uv.name
    m = sb.scene.models.get(s)
    if m is not None:
        return model_of_unit(m.name, sb.scene.units[m.unit].name) if m.unit in sb.scene.units else m.name
    if " at " in s:  # a ritual's answer, "<ritual key> at <unit id>[ +D6]" (sim.rules.effects.rituals)
        from sim.rules.effects import rituals as RT
        from sim.rules.effects import table
        key, target, extra = RT.parse(s)
        rec = table.by_key(key)
        if rec is not None and target in sb.scene.units:
            return f"{rec.name} at {option_text(sb, target)}" + (", with a third die" if extra else "")
    return WORDS.get(s.casefold(), s)


def option_text_forms(sb, opt, options=()) -> list[str]:
    """An option in words (option_text), then, for a model whose name no other option's model
    shares, its name alone (the prompt names its unit): "Warden Sergeant of Warden Squad (2)"
    did not fit a button at 800x600."""
    text = option_text(sb, opt)
    m = sb.scene.models.get(opt) if isinstance(opt, str) else None
    if m is None:
        return [text]
    same = [o for o in options if isinstance(o, str) and o in sb.scene.models and sb.scene.models[o].name == m.name]
    return [text] if len(same) > 1 else [text, m.name]


def allocation_forms(sb, n: int, label: str) -> list[str]:
    """An allocation group's row (05.03; the engine's "key (2 models, W1 Sv3+)"), counted from
    1, in people's words, then without its characteristics, then its first model alone."""
    full = sb.said(f"{n}. {label}")
    head, _, rest = label.partition(" (")
    kind = rest.split(",", 1)[0].rstrip(")")
    return [full, sb.said(f"{n}. {head} ({kind})") if kind else full, sb.said(f"{n}. {head}")]


def prompt_text(sb, req) -> str:
    """The decision's prompt in words: the units its context names (``unit``, ``target``...) by
    their names, a repeated "<rule>: " lead said once."""
    text = in_words(req.prompt or req.kind.replace("_", " "), sb.scene.words)
    parts = text.split(": ")
    return ": ".join(p for i, p in enumerate(parts) if i == 0 or p != parts[i - 1])


def rule_of(req):
    """The rule record a decision is about (its context's ``rule``, a key or printed name), if any."""
    name = req.context.get("rule") if isinstance(req.context, dict) else None
    if not isinstance(name, str) or not name:
        return None
    from sim.rules.effects import table
    try:
        return table.resolve(name)
    except Exception:  # (a malformed name is no reason to fail drawing the panel)
        return None


def build_generic(flow, sb, req) -> None:
    """Any decision without a dialog of its own: the rule's summary when it is a rule's choice,
    then one button per option in words (a unit by its name); a decision whose default is a
    list picks several: a toggle per option, then Confirm."""
    rec = rule_of(req)
    if rec is not None:
        flow.para(f"{rec.name} ({rec.source}): {rec.summary}", "#muted")
    legend = req.context.get("legend") if isinstance(req.context, dict) else None  # what options' words mean
    for line in legend if isinstance(legend, list) else ():
        flow.para(str(line), "#muted")
    options = list(req.options) if isinstance(req.options, (list, tuple)) else []
    if isinstance(req.default, list):
        chosen = sb.decision_state.setdefault("generic", list(req.default))
        flow.para("Click an option to choose it or leave it out ([x]: chosen), then Confirm:", "#muted")
        for k, opt in enumerate(options):
            on = opt in chosen
            flow.button(flow.fit(tick(option_text(sb, opt), on), flow.width - 8), lambda o=opt: toggle_generic(sb, o),
                        name=f"pick:{k}", object_id="#toggle_on" if on else "#toggle", tip=tick_tip(on))
            flow.newline()
        n = sum(1 for o in options if o in chosen)
        flow.button(f"Confirm: {n} of {len(options)} chosen", lambda: sb.answer(list(chosen)), name="confirm",
                    object_id="#primary")
        return
    for k, opt in enumerate(options):
        tip = "the default policy's choice" if opt == req.default else None
        b = flow.button(flow.first_fitting(option_text_forms(sb, opt, options)), lambda o=opt: sb.answer(o),
                        name=f"answer:{opt}" if isinstance(opt, (str, int, bool)) else f"answer:#{k}", tip=tip,
                        object_id="#pick" if opt == req.default else None)
        mark_option(sb, b, opt)
        flow.newline()


def build_oath(flow, sb, req) -> None:
    """An oath (sim.phases.oaths): a row per deed, a button per quality ("random": rolled), the
    legend of what each names above; the default policy's oath highlighted."""
    rec = rule_of(req)
    if rec is not None:
        flow.para(f"{rec.name} ({rec.source}): {rec.summary}", "#muted")
    for line in req.context.get("legend", ()):
        flow.para(str(line), "#muted")
    rows: dict[str, list[str]] = {}
    for opt in req.options:
        deed, quality = (p.strip() for p in str(opt).split("/", 1))
        rows.setdefault(deed, []).append(quality)
    for deed, qualities in rows.items():
        flow.inline_label(deed, width=60, height=24)
        w = max(40, (flow.width - 70) // max(1, len(qualities)) - 4)
        for q in qualities:
            opt = f"{deed} / {q}"
            flow.button(flow.fit(q, w), lambda o=opt: sb.answer(o), name=f"answer:{opt}", width=w, height=24, size=12,
                        tip="the default policy's oath" if opt == req.default else None,
                        object_id="#pick" if opt == req.default else None)
        flow.newline()


def tick(label: str, on: bool) -> str:
    """A toggle's text that says whether it is chosen (not only its colour): "[x] rifle"."""
    return f"[x] {label}" if on else f"[  ] {label}"


def tick_tip(on: bool) -> str:
    return "chosen: click to leave it out" if on else "not chosen: click to choose it"


def toggle_generic(sb, opt) -> None:
    chosen = sb.decision_state.setdefault("generic", [])
    if opt in chosen:
        chosen.remove(opt)
    else:
        chosen.append(opt)
    sb.dirty.add("orders")


# --- what stands in the way of the next order, in words (End phase, Shoot, Fight...) ----------
def what_is_pending(sb) -> str:
    """Why the sandbox cannot take a new order now, in words a player can act on: the decision
    waiting for an answer (whose, about what, where to answer it), or the activation still
    being resolved (whose, and at which step) and how to see it through."""
    b = sb.battle
    req = b.pending
    if req is not None:
        armies = b.scenario.armies
        who = armies[req.player].name if isinstance(req.player, int) and 0 <= req.player < len(armies) else "a player"
        about = prompt_text(sb, req)
        return (f"{who} has a decision to answer first: {about} - answer it in the orders panel "
                f"(Use default answers it as the default policy would)")
    stage = in_words(sb.stage_text(), sb.scene.words)
    if stage in ("done", "starting..."):
        return "an order is still being resolved: Step (Space) or Finish to see it through"
    return f"still resolving {stage}: Step (Space) or Finish to see it through, then end the phase"


# --- hover: the units and models an option or a log line names, highlighted on the table -----
def mark_option(sb, button, *values) -> None:
    """Remember which units and models ``button`` (an option) names: its option values, read for
    unit and model ids (a unit id, a model id, "unit -> target", "unit: mode"...). A panel
    rebuilt with the same button (sim.sandbox.widgets.Flow keeps it) marks it afresh."""
    ids: set[str] = set()
    words = sb.scene.words

    def collect(v) -> None:
        if isinstance(v, (list, tuple)):
            for x in v:
                collect(x)
        elif isinstance(v, str):
            ids.update(ids_in(v, words))

    collect(values)
    marks = sb.__dict__.setdefault("option_marks", {})
    if ids:
        marks[button] = _models_of(sb, ids)
    else:
        marks.pop(button, None)


def _models_of(sb, ids) -> frozenset:
    out = set()
    for i in ids:
        uv = sb.scene.units.get(i)
        if uv is not None:
            out.update(m for m in uv.models if sb.scene.models[m].alive)
        elif i in sb.scene.models:
            out.add(i)
    return frozenset(out)


def hovered_marks(sb) -> set:
    """The models to highlight for what the pointer is on: an option's button (mark_option) or
    a log line (the models its event names)."""
    marks = getattr(sb, "option_marks", None)
    out: set = set()
    if marks:
        for b in [b for b in marks if not b.alive()]:
            del marks[b]
        panel = sb.rects["orders"]
        for b, ms in marks.items():
            if _under(b, sb.mouse) and panel.collidepoint(sb.mouse):
                out |= ms
    log = getattr(sb, "log_list", None)
    if log is not None and log.rect.collidepoint(sb.mouse):
        key = (sb.mouse, len(sb.battle.events), sb._log_shown)
        if getattr(sb, "_log_hover", (None,))[0] != key:
            found: set = set()
            for item in log.item_list:
                btn = item.get("button_element")
                if btn is not None and _under(btn, sb.mouse):
                    oid = str(item.get("object_id") or "")
                    if oid.startswith("#ev") and oid[3:].isdigit() and int(oid[3:]) < len(sb.battle.events):
                        found = set(_models_of(sb, ids_named(sb.battle.events[int(oid[3:])],
                                                              lambda v: v in sb.scene.units or v in sb.scene.models)))
                    break
            sb._log_hover = (key, found)
        out |= sb._log_hover[1]
    return out


def _under(button, pos) -> bool:
    """The pointer is on ``button`` (read from the sandbox's pointer, which every motion event
    sets, rather than the widget's own hover state)."""
    return bool(button.visible) and button.rect.collidepoint(pos)
