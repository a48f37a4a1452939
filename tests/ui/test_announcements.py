"""Progress and outcomes are said, not only drawn (ui.announce): an error (assertive), a check's progress once per
claim, an ingest's end, a trial's rounds and verdict (assertive); each announcement is a Qt accessibility event and
is echoed in the status bar."""

from __future__ import annotations

from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent

from courtroom_desktop.ui import announce as announce_module
from courtroom_desktop.ui.announce import announce, announcer


def heard():
    said: list[tuple[str, bool]] = []
    announcer().sig_said.connect(lambda text, assertive: said.append((text, assertive)))
    return said


def test_an_announcement_is_a_qt_accessibility_event_with_its_politeness(qapp, monkeypatch):
    from PySide6.QtWidgets import QLabel

    events = []
    monkeypatch.setattr(announce_module.QAccessible, "updateAccessibility",
                        lambda event: events.append((type(event), event.message(), event.politeness())))
    label = QLabel("x")
    announce(label, "Verdict: Supported", assertive=True)
    announce(label, "2 of 5 claims checked")
    announce(label, "")  # nothing to say: nothing said
    assert events == [(QAccessibleAnnouncementEvent, "Verdict: Supported", QAccessible.AnnouncementPoliteness.Assertive),
                      (QAccessibleAnnouncementEvent, "2 of 5 claims checked",
                       QAccessible.AnnouncementPoliteness.Polite)]


def test_errors_check_progress_and_ingest_ends_are_said(qapp):
    """Break: the check table's announcement removed, and its progress is silent."""
    from courtroom_desktop.core.services.check import Progress
    from courtroom_desktop.ui.qt_models.checks import CheckRowsModel
    from courtroom_desktop.ui.widgets.check_table import CheckTablePanel
    from courtroom_desktop.ui.widgets.notice_bar import NoticeBar

    said = heard()
    NoticeBar().show_error("Adding documents", "the file is encrypted", "remove its password")
    assert said[-1] == ("Adding documents: the file is encrypted Fix: remove its password", True)

    panel = CheckTablePanel(CheckRowsModel())
    for done in (1, 1, 2, 3):  # the same count twice is said once
        panel.on_progress(Progress(done=done, total=3))
    assert [text for text, _ in said[1:]] == ["1 of 3 claims checked", "2 of 3 claims checked",
                                              "All 3 claims checked"]


def test_the_end_of_an_ingest_is_said(sample_window):
    from courtroom_desktop.core.records import IngestFinished

    said = heard()
    sample_window.library_panel._on_event(IngestFinished(added=2, failed=1, pages=7, seconds=3.0))
    assert said[-1] == ("Adding documents: Done: 2 added, 0 updated, 0 unchanged, 1 failed (7 pages in 3.0 s)", False)
