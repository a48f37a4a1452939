"""Progress and outcomes said to screen readers, not only drawn: a trial's rounds and verdict, an ingest's end, a
check's progress, errors. Each is a Qt accessibility announcement (``QAccessibleAnnouncementEvent``), which Qt hands
to AT-SPI (Linux), UIA (Windows) and NSAccessibility (macOS); polite ones wait for the reader to finish what it is
saying, assertive ones (a verdict, an error) interrupt it. The same words go out on ``announcer().sig_said``, which
the status bar shows for a few seconds: what a screen reader hears, a sighted user can read."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent


class Announcer(QObject):
    sig_said = Signal(str, bool)
    """(the words, whether they were assertive) after each announcement."""


_announcer: Announcer | None = None


def announcer() -> Announcer:
    """The application's one announcer (made on first use, on the GUI thread)."""
    global _announcer
    if _announcer is None:
        _announcer = Announcer()
    return _announcer


def announce(source: QObject, message: str, *, assertive: bool = False) -> None:
    """Say ``message`` to assistive technology, as coming from ``source`` (the widget whose news it is)."""
    if not message:
        return
    event = QAccessibleAnnouncementEvent(source, message)
    event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive if assertive
                        else QAccessible.AnnouncementPoliteness.Polite)
    QAccessible.updateAccessibility(event)
    announcer().sig_said.emit(message, assertive)
