"""A bar at the top of the window for errors a person can act on (never a modal box that blocks the loop)."""

from __future__ import annotations

import html

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from courtroom_desktop.ui.announce import announce
from courtroom_desktop.ui.i18n import say, tr
from courtroom_desktop.ui.theme import accent, palette_watcher, tint


class NoticeBar(QFrame):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("noticeBar")
        self.text = QLabel("")
        self.text.setWordWrap(True)
        self.close_button = QToolButton()
        self.close_button.setText("\u2715")
        self.close_button.setToolTip(tr("Dismiss"))
        self.close_button.setAccessibleName(tr("Dismiss"))  # its symbol is no name to read out
        self.close_button.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.close_button)
        self.messages: list[tuple[str, str, str]] = []
        self.hide()
        palette_watcher().sig_changed.connect(self._restyle)
        self._restyle()

    def show_error(self, title: str, message: str, fix: str = "") -> None:
        self.messages.append((title, message, fix))
        text = f"<b>{html.escape(title)}:</b> {html.escape(say(message))}"
        if fix:
            text += "<br><b>" + html.escape(tr("Fix:")) + f"</b> {html.escape(say(fix))}"
        self.text.setText(text)
        self.show()
        announce(self, tr("{title}: {message}").format(title=title, message=say(message))
                 + (" " + tr("Fix:") + " " + say(fix) if fix else ""), assertive=True)

    def _restyle(self) -> None:
        palette = QGuiApplication.palette()
        self.setStyleSheet(f"QFrame#noticeBar {{ background: {tint('error', palette, 36).name()}; border: 1px solid "
                           f"{accent('error', palette).name()}; border-radius: 4px; }}"
                           " QFrame#noticeBar QLabel { background: transparent; }")

