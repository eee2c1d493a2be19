"""The decision panel's choices for the whole-battle decisions: a stratagem offered at its
moment (15: every option a button, with its CP cost and the CP its player has), and the models
an out-of-coherency unit loses (03.03: a toggle per model, in the order clicked, then Confirm).
The rules check the answer (sim.plan.answers.validate_answer); a refusal is shown as given."""

from __future__ import annotations

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
