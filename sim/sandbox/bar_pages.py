"""The action bar in a narrow window (issue 28 item 9): one row at every width. The bar
(sim.sandbox.widgets.Bar) first shortens its buttons' texts (the keys stay in the tips and the
F1 help), then hides its spare buttons (Set up, Open replay, Save replay) behind "More...";
"More..." shows the ones it hid (only those: a wider bar hides fewer) in the bar's place with
"Back", and any of them brings the usual bar back; each has its key too (F2, Ctrl+O, Ctrl+S),
said on its button. Nothing here touches the battle."""

from __future__ import annotations


def spare_buttons(sb, f) -> None:
    """The battle bar's buttons a narrow window may hide behind "More...", and that button."""
    for text, fn, name, tip in _spares(sb):
        f.button(text, fn, name=name, height=28, tip=f"{KEYS[name]}: {tip}", spare=True)
    f.more_button(lambda: _show_more(sb, True), height=28)


def more_page(sb, f) -> bool:
    """The bar's "More" page when it is open (True: the page was given to ``f``): the spare
    buttons the usual bar hides at the bar's width now, each with its key."""
    if not getattr(sb, "bar_more", False):
        return False
    hidden = hidden_spares(sb)
    if not hidden:  # (the window grew: every button fits the usual bar again)
        sb.bar_more = False
        return False
    f.button("< Back", lambda: _show_more(sb, False), name="bar:back", height=28, tip="the usual buttons")
    for text, fn, name, tip in _spares(sb):
        if name in hidden:
            f.button(text if KEYS[name] in text else f"{text} ({KEYS[name]})", lambda fn=fn: _then_back(sb, fn), name=name, height=28, tip=tip)
    return True


def hidden_spares(sb) -> set[str]:
    """The names of the spare buttons the usual bar hides behind "More..." at its width now."""
    from sim.sandbox.widgets import Bar
    probe = Bar(None, {}, {}, sb.scale)
    was, sb.bar_more = getattr(sb, "bar_more", False), False
    try:
        sb._bar_buttons(probe)
    finally:
        sb.bar_more = was
    return set(probe.hidden(sb.rects["action"].w))


KEYS = {"bar:setup": "F2", "bar:open": "Ctrl+O", "bar:save": "Ctrl+S"}  # (sim.sandbox.input)


def _spares(sb):
    return (("Set up (F2)", sb.toggle_setup, "bar:setup", "edit the table: terrain pieces and units"),
            ("Open replay", sb.open_replay_dialog, "bar:open", "open a replay log"),
            ("Save replay", sb.save_replay, "bar:save", "the battle's log; the table as a scenario file: Ctrl+T"))


def _show_more(sb, on: bool) -> None:
    sb.bar_more = on
    sb.dirty.add("action")


def _then_back(sb, fn) -> None:
    _show_more(sb, False)
    fn()
