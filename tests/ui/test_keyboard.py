"""Flows done by the keyboard alone (#49). Files added (Ctrl+O, a name typed into the file dialog, Enter). A
trial: focus the claim (Ctrl+L), type it, start it (Ctrl+Return), reach
the transcript by Tab, move to a citation chip by Tab and open its passage with Enter, go to each round by "Jump to
round…", then export the report (Ctrl+E, Tab to Export, Space). The settings, and a draft checked and signed off. No
mouse event is sent; every key goes to the widget that has the focus."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from .conftest import run, until
from .test_trial_window import CLAIM, wait_ready

MOST_TABS = 60  # a control more Tab presses away than this is not reachable in practice


def focused():
    return QApplication.focusWidget()


def tab_until(qtbot, predicate, what: str, backwards: bool = False) -> int:
    """Press Tab (Shift+Tab) on the focused widget until ``predicate(focus)``; the presses it took."""
    for presses in range(MOST_TABS):
        if predicate(focused()):
            return presses
        qtbot.keyClick(focused(), Qt.Key.Key_Backtab if backwards else Qt.Key.Key_Tab)
    raise AssertionError(f"{what}: not reached in {MOST_TABS} Tab presses (focus: {focused()!r})")


def test_a_trial_read_cited_and_exported_by_keyboard_alone(sample_window, qloop, qtbot, tmp_path, monkeypatch):
    """Break: the transcript's links not reachable by keyboard (its text interaction without
    LinksAccessibleByKeyboard), and Tab never lands on a citation."""
    window = sample_window
    window.activateWindow()
    run(qloop, wait_ready(window), 120)
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    run(qloop, until(lambda: focused() in (window.courtroom.claim, window.courtroom.claim.lineEdit()), 10,
                     "Ctrl+L to focus the claim"))
    qtbot.keyClick(focused(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(focused(), CLAIM)
    assert window.courtroom.claim_text() == CLAIM
    qtbot.keyClick(focused(), Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    run(qloop, until(lambda: window.trial.state == "finished", 90, "Ctrl+Return to run the trial to its verdict"), 120)
    window.courtroom.view.flush()

    view = window.courtroom.view
    tab_until(qtbot, lambda w: w is view, "the transcript")
    tab_until(qtbot, lambda w: w is view and view.textCursor().charFormat().anchorHref().startswith("cite:"),
              "a citation chip in the transcript")
    href = view.textCursor().charFormat().anchorHref()
    opened: list[str] = []
    view.anchorClicked.connect(lambda url: opened.append(url.toString()))
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert opened == [href]
    evidence_id = href.split(":", 1)[1]
    run(qloop, until(lambda: getattr(window.inspector.entry, "id", None) == evidence_id, 20,
                     f"the passage {evidence_id} shown"))

    # move through the transcript by round: Tab to "Jump to round…", Down to each round in turn
    rounds = window.courtroom.record_bar.rounds
    tab_until(qtbot, lambda w: w is rounds, "Jump to round")
    for number in (1, 2):  # Alt+Down opens the list, Down to the round, Enter jumps (and the list resets)
        qtbot.keyClick(rounds, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
        run(qloop, until(lambda: rounds.view().isVisible(), 5, "the list of rounds open"))
        for _ in range(number):
            qtbot.keyClick(rounds.view(), Qt.Key.Key_Down)
        qtbot.keyClick(rounds.view(), Qt.Key.Key_Return)
        run(qloop, until(lambda: not rounds.view().isVisible(), 5, "the list of rounds closed"))
        first = view.first_row_of_round(number)
        assert first is not None and view.textCursor().position() == view.tables[first].firstPosition(), number

    qtbot.keyClick(window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    run(qloop, until(lambda: window.dialogs.get("export") is not None and window.dialogs["export"].isVisible(), 10,
                     "Ctrl+E to open the export dialog"))
    dialog = window.dialogs["export"]
    dialog.folder.setFocus()
    qtbot.keyClick(dialog.folder, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(dialog.folder, str(tmp_path / "report"))
    tab_until(qtbot, lambda w: w is dialog.export_button, "the Export button")
    qtbot.keyClick(dialog.export_button, Qt.Key.Key_Space)
    run(qloop, until(lambda: bool(dialog.written), 60, "the report written"))
    assert any(p.suffix == ".html" for p in dialog.written) and (tmp_path / "report").is_dir()


def test_settings_changed_by_keyboard_alone(sample_window, qloop, qtbot):
    """Ctrl+, opens the settings; Ctrl+Tab moves to the Retrieval tab, Tab to "Passages per search", the Up arrow
    raises it, Tab to OK and Space applies it: the workspace's config has the new value."""
    from courtroom_desktop.ui.i18n import tr

    window = sample_window
    window.activateWindow()
    run(qloop, wait_ready(window), 120)
    before = window.workspace.config.retrieval.k
    qtbot.keyClick(window, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    run(qloop, until(lambda: window.dialogs.get("settings") is not None and window.dialogs["settings"].isVisible(), 10,
                     "Ctrl+, to open the settings"))
    dialog = window.dialogs["settings"]
    dialog.activateWindow()
    spin = dialog.fields["retrieval.k"].widget
    for _ in range(dialog.tabs.count()):  # Ctrl+Tab through the tabs, as a keyboard user does
        if dialog.tabs.tabText(dialog.tabs.currentIndex()).replace("&", "") == tr("Retrieval"):
            break
        qtbot.keyClick(focused() or dialog, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    tab_until(qtbot, lambda w: w is spin or (w is not None and w.parent() is spin), "Passages per search")
    qtbot.keyClick(focused(), Qt.Key.Key_Up)
    assert spin.value() == before + 1
    ok = dialog.buttons.button(dialog.buttons.StandardButton.Ok)
    tab_until(qtbot, lambda w: w is ok, "the OK button")
    qtbot.keyClick(ok, Qt.Key.Key_Space)
    run(qloop, until(lambda: window.workspace.config.retrieval.k == before + 1, 10, "the new setting applied"))


def test_a_draft_checked_and_each_claim_signed_off_by_keyboard_alone(make_window, sample_library_template, qloop,
                                                                     qtbot, tmp_path):
    """Ctrl+Shift+K opens the check window; Tab to the paste box, the draft typed in, Tab to "Find the claims",
    Space; Tab to "Check N claims", Space; in the results, Tab to the table, Down to each claim in turn, Tab to
    Accept, Space: every claim signed off, the court's verdict kept beside each."""
    from .test_check_window import check_workspace, finished

    ws, _judge = check_workspace(tmp_path, sample_library_template)
    window = make_window(workspace=ws)
    window.activateWindow()
    run(qloop, wait_ready(window), 120)
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    run(qloop, until(lambda: window.check_window is not None and window.check_window.isVisible(), 10,
                     "Ctrl+Shift+K to open the check window"))
    check = window.check_window
    check.activateWindow()
    check.start.paste.setFocus()  # where the window opens its start page: the keyboard starts from here
    run(qloop, until(lambda: focused() is check.start.paste, 5, "the paste box focused"))
    qtbot.keyClicks(focused(), "Antiretroviral therapy reduced the incidence of tuberculosis among adults living "
                               "with HIV. Obesity doubled the risk of type 2 diabetes according to a cohort study.")
    tab_until(qtbot, lambda w: w is check.start.paste_button, "Find the claims in the pasted text")
    qtbot.keyClick(focused(), Qt.Key.Key_Space)
    run(qloop, until(lambda: check.stack.currentIndex() == check.REVIEW, 30, "the review page"))
    review = check.review
    tab_until(qtbot, lambda w: w is review.check_button, "Check N claims")
    qtbot.keyClick(focused(), Qt.Key.Key_Space)
    run(qloop, finished(check), 120)
    table = check.results.table
    tab_until(qtbot, lambda w: w is table, "the table of claims")
    rows = check.rows_model.rowCount()
    assert rows == 2
    for row in range(rows):
        qtbot.keyClick(table, Qt.Key.Key_Home if row == 0 else Qt.Key.Key_Down)
        run(qloop, until(lambda r=row: check.pane.row is not None and check.pane.row.index == r, 10, f"claim {row + 1}"))
        tab_until(qtbot, lambda w: w is check.pane.accept_button, "Accept")
        qtbot.keyClick(focused(), Qt.Key.Key_Space)
        run(qloop, until(lambda r=row: check.rows_model.row(r).signoff is not None, 10, f"claim {row + 1} signed off"))
        tab_until(qtbot, lambda w: w is table, "back to the table", backwards=True)
    record = ws.checks.record(check.controller.check_id)
    assert all(r.signoff is not None and r.signoff.decision == "accepted" for r in record.rows)
    assert all(r.label is not None for r in record.rows)  # the court's verdict stays beside the sign-off


def test_files_added_by_keyboard_alone(sample_window, qloop, qtbot, tmp_path):
    """Ctrl+O opens the file dialog with the focus in its name box; the file's path typed there and Enter add it to
    the library, whose table then lists it. Break: the dialog's chosen files not ingested (its filesSelected left
    unconnected): "timed out waiting for the typed file added"."""
    from .test_panels import small_pdf

    window = sample_window
    window.activateWindow()
    run(qloop, wait_ready(window), 120)
    model = window.library_panel.table.model()
    before = model.rowCount()
    added = small_pdf(tmp_path / "keyboard-study.pdf", "Keyboard Study")
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    run(qloop, until(lambda: window.dialogs.get("add_files") is not None and window.dialogs["add_files"].isVisible(),
                     10, "Ctrl+O to open the file dialog"))
    dialog = window.dialogs["add_files"]
    run(qloop, until(lambda: focused() is not None and dialog.isAncestorOf(focused()), 10, "the focus in the dialog"))
    qtbot.keyClicks(focused(), str(added))
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    run(qloop, until(lambda: model.rowCount() == before + 1 and not window.library.busy, 120, "the typed file added"),
        150)
    assert any("Keyboard Study" in str(model.index(row, 0).data()) for row in range(model.rowCount()))
    assert window.settings.value("paths/last_add") == str(tmp_path)


def tab_chain(qtbot, start, most: int = 2 * MOST_TABS) -> list:
    """The widgets Tab visits from ``start`` until it comes back round (or ``most`` presses)."""
    start.setFocus(Qt.FocusReason.TabFocusReason)
    seen = []
    for _ in range(most):
        widget = focused()
        if widget is None or widget in seen:
            break
        seen.append(widget)
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    return seen


def around(widget, window):
    """The picture of ``widget`` and a few pixels round it, as drawn in its window (a focus ring may lie outside the
    control itself)."""
    from PySide6.QtCore import QRect

    from courtroom_desktop.ui.focus_ring import GAP, WIDTH

    margin = GAP + WIDTH
    return window.grab(QRect(widget.mapTo(window, widget.rect().topLeft()), widget.size())
                       .adjusted(-margin, -margin, margin, margin)).toImage()


def test_focus_is_drawn_on_every_control_tab_reaches(sample_window, qloop, qtbot):
    """Focus is always visible: every control the Tab key reaches in the main window looks different, as drawn in
    the window with what lies a few pixels round it, with the focus than without it. Break: the focus ring not
    installed (``focus_ring.install`` left out of create_window): Fusion draws no focus on push buttons, tables, the
    transcript or the tab bar, and the test names them."""
    window = sample_window
    window.activateWindow()
    run(qloop, wait_ready(window), 120)
    chain = tab_chain(qtbot, window.courtroom.claim)
    assert len(chain) >= 10, chain
    unseen = unseen_focus(chain, window)
    qtbot.keyClick(window, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)  # and a dialog: the settings
    run(qloop, until(lambda: window.dialogs.get("settings") is not None and window.dialogs["settings"].isVisible(), 10,
                     "Ctrl+, to open the settings"))
    dialog = window.dialogs["settings"]
    dialog.activateWindow()
    chain = tab_chain(qtbot, dialog.tabs.currentWidget())
    assert len(chain) >= 5, chain
    unseen += unseen_focus(chain, dialog)
    assert not unseen, f"controls that look the same with and without the focus: {unseen}"


def unseen_focus(chain, window) -> list[str]:
    from PySide6.QtWidgets import QScrollArea

    unseen = []
    for widget in chain:
        holder = widget.parentWidget()
        while holder is not None and not isinstance(holder, QScrollArea):
            holder = holder.parentWidget()
        if holder is not None:  # as Tab does: the control scrolled into view
            holder.ensureWidgetVisible(widget)
        widget.setFocus(Qt.FocusReason.TabFocusReason)
        QApplication.processEvents()
        with_focus = around(widget, window)
        widget.clearFocus()
        QApplication.processEvents()
        without = around(widget, window)
        if with_focus == without:
            unseen.append(f"{type(widget).__name__} {widget.objectName() or widget.accessibleName()!r}")
    return unseen


def test_tab_follows_the_reading_order_within_each_panel(sample_window, qloop, qtbot):
    """The tab order follows the reading order: within each of the window's panels (the library, the courtroom, the
    evidence and its page), Tab moves down the panel, or along a row left to right, never back up. Break: the
    courtroom's "New" button made to take the focus before "Scope" (``QWidget.setTabOrder(new, scope)``)."""
    window = sample_window
    window.activateWindow()
    run(qloop, wait_ready(window), 120)
    panels = [window.library_panel, window.courtroom, window.inspector]
    chain = tab_chain(qtbot, window.courtroom.claim)
    backwards = []
    for panel in panels:
        inside = [w for w in chain if panel.isAncestorOf(w)]
        assert len(inside) >= 2, (type(panel).__name__, inside)
        for before, after in zip(inside, inside[1:]):
            top_b = before.mapTo(window, before.rect().topLeft())
            top_a = after.mapTo(window, after.rect().topLeft())
            same_row = abs(top_a.y() - top_b.y()) < min(before.height(), after.height()) / 2
            if (same_row and top_a.x() < top_b.x()) or (not same_row and top_a.y() < top_b.y()):
                backwards.append(f"{type(panel).__name__}: {name_of(before)} -> {name_of(after)}")
    assert not backwards, f"Tab goes back against the reading order: {backwards}"


def name_of(widget) -> str:
    return f"{type(widget).__name__} {widget.objectName() or widget.accessibleName()!r}"
