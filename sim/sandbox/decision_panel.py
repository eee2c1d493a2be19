"""The decision panel's choices for the whole-battle decisions: a stratagem offered at its
moment (15: every option a button, with its CP cost and the CP its player has), and the models
an out-of-coherency unit loses (03.03: a toggle per model, in the order clicked, then Confirm).
The rules check the answer (sim.plan.answers.validate_answer); a refusal is shown as given."""

from __future__ import annotations

import re

from sim.stratagems import by_name


def _unit_name(sb, uid: str) -> str:
    uv = sb.scene.units.get(uid)
    return f"{uv.name} ({uid})" if uv is not None else uid


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
    if opt == "use":
        target = req.context.get("target")
        return f"Use {name} ({cost} CP)" + (f" on {target}" if target else ""), cost
    if " -> " in str(opt):  # "unit -> target" (Fire Overwatch's shooter and target): by their names
        uid, tid = str(opt).split(" -> ", 1)
        return f"{option_text(sb, uid)} -> {option_text(sb, tid)} ({cost} CP)", cost
    if ": " in str(opt):  # "unit: mode" (15.11's modes)
        uid, mode = str(opt).split(": ", 1)
        return f"{_unit_name(sb, uid)}: {mode} ({cost} CP)", cost
    return f"{_unit_name(sb, str(opt))} ({cost} CP)", cost


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
    for opt in req.options:
        text, cost = option_label(sb, req, opt)
        tip = "the default policy's choice (Part A ruling 25)" if opt == req.default else None
        if cost is not None:
            tip = (tip + "<br>" if tip else "") + f"{cost} CP of {who}'s {cp}"
        flow.button(flow.fit(text, flow.width - 8), lambda o=opt: sb.answer(o), name=f"answer:{opt}", tip=tip,
                    object_id="#primary" if opt == req.default else None)
        flow.newline()


def build_removal(flow, sb, req) -> None:
    """03.03: toggle the models the unit loses (first clicked, first removed); the default
    (Part A ruling 29's order) is preselected."""
    chosen = sb.decision_state.setdefault("removal", list(req.default))
    flow.para("Click the models it loses, one at a time until the unit is coherent and not one more "
              "(03.03); the numbers are the order of removal. The preselection is ruling 29's.", "#muted")
    for mid in req.options:
        m = sb.scene.models.get(mid)
        label = f"{m.name} ({mid})" if m is not None else str(mid)
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
    """An option in words: a unit id by its unit's NAME (its id too only when two units share
    the name), a model id by its model's name, True/False as Yes/No, a list item by item."""
    if opt is True or opt is False:
        return "Yes" if opt else "No"
    if opt is None:
        return "None"
    if isinstance(opt, (list, tuple)):
        return ", ".join(option_text(sb, o) for o in opt) or "none"
    s = str(opt)
    uv = sb.scene.units.get(s)
    if uv is not None:
        twins = sum(1 for u in sb.scene.units.values() if u.name == uv.name)
        return uv.name if twins == 1 else f"{uv.name} ({s})"
    m = sb.scene.models.get(s)
    if m is not None:
        return f"{m.name} ({s})"
    if " at " in s:  # a ritual's answer, "<ritual key> at <unit id>[ +D6]" (sim.rules.effects.rituals)
        from sim.rules.effects import rituals as RT
        from sim.rules.effects import table
        key, target, extra = RT.parse(s)
        rec = table.by_key(key)
        if rec is not None and target in sb.scene.units:
            return f"{rec.name} at {option_text(sb, target)}" + (", with a third die" if extra else "")
    return WORDS.get(s.casefold(), s)


def prompt_text(sb, req) -> str:
    """The decision's prompt in words: the units its context names (``unit``, ``target``...) by
    their names, a repeated "<rule>: " lead said once."""
    text = req.prompt or req.kind.replace("_", " ")
    ctx = req.context if isinstance(req.context, dict) else {}
    for v in ctx.values():
        if isinstance(v, str) and v in sb.scene.units:
            text = re.sub(rf"(?<![\w/-]){re.escape(v)}(?![\w/-])", lambda _m, v=v: option_text(sb, v), text)
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
        flow.para("Toggle the options to choose, then Confirm:", "#muted")
        for k, opt in enumerate(options):
            flow.button(flow.fit(option_text(sb, opt), flow.width - 8), lambda o=opt: toggle_generic(sb, o),
                        name=f"pick:{k}", object_id="#toggle_on" if opt in chosen else "#toggle")
            flow.newline()
        flow.button("Confirm", lambda: sb.answer(list(chosen)), name="confirm", object_id="#primary")
        return
    for k, opt in enumerate(options):
        tip = "the default policy's choice" if opt == req.default else None
        flow.button(flow.fit(option_text(sb, opt), flow.width - 8), lambda o=opt: sb.answer(o),
                    name=f"answer:{opt}" if isinstance(opt, (str, int, bool)) else f"answer:#{k}", tip=tip,
                    object_id="#pick" if opt == req.default else None)
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


def toggle_generic(sb, opt) -> None:
    chosen = sb.decision_state.setdefault("generic", [])
    if opt in chosen:
        chosen.remove(opt)
    else:
        chosen.append(opt)
    sb.dirty.add("orders")
