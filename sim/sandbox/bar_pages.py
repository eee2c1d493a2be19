"""The action bar in a narrow window (issue 28 item 9): one row at every width. The bar
(sim.sandbox.widgets.Bar) first shortens its buttons' texts (the keys stay in the tips and the
F1 help), then hides its spare buttons (Set up, Open replay, Save replay) behind "More...";
"More..." shows them in the bar's place with "Back", and any of them brings the usual bar back.
Nothing here touches the battle."""

from __future__ import annotations


def spare_buttons(sb, f) -> None:
    """The battle bar's buttons a narrow window may hide behind "More...", and that button."""
    for text, fn, name, tip in _spares(sb):
        f.button(text, fn, name=name, height=28, tip=tip, spare=True)
    f.more_button(lambda: _show_more(sb, True), height=28)


def more_page(sb, f) -> bool:
    """The bar's "More" page when it is open (True: the page was given to ``f``)."""
    if not getattr(sb, "bar_more", False):
        return False
    f.button("< Back", lambda: _show_more(sb, False), name="bar:back", height=28, tip="the usual buttons")
    for text, fn, name, tip in _spares(sb):
        f.button(text, lambda fn=fn: _then_back(sb, fn), name=name, height=28, tip=tip)
    return True


def _spares(sb):
    return (("Set up (F2)", sb.toggle_setup, "bar:setup", "edit the table: terrain pieces and units"),
            ("Open replay", sb.open_replay_dialog, "bar:open", "Ctrl+O"),
            ("Save replay", sb.save_replay, "bar:save", "Ctrl+S; the table as a scenario file: Ctrl+T"))


def _show_more(sb, on: bool) -> None:
    sb.bar_more = on
    sb.dirty.add("action")


def _then_back(sb, fn) -> None:
    _show_more(sb, False)
    fn()
