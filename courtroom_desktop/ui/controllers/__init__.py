"""One controller QObject per async feature. Widgets call a controller's methods and listen to its ``sig_*``
signals; only controllers await core code (on the qasync loop, blocking calls in threads)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from courtroom_desktop.ui.tasks import Tasks


class Controller(QObject):
    """What every controller has: its :class:`Tasks`, whose failures (and the controller's own refusals) it reports
    on ``sig_error``; the window shows them in its notice bar."""

    sig_error = Signal(str, object, object)
    """(title, message, fix): what failed, why, and what the person can do about it ("" when nothing). The message
    and the fix travel as objects: a core message (core.lexicon Message) stays one until the notice bar says it in
    the window's language (a ``str`` signal would hand over its English text only)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.tasks = Tasks(self.sig_error.emit)
