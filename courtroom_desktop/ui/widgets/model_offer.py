"""On first run (no settings file yet): the models found on this computer, offered for the court in one click.

The window looks for model servers in the background once it shows (``SettingsController.find_models``); when a
chat model is found, this bar says which model each role would get and why, with "Use these models" (saved at
once) and "Not now" (remembered: the offer is not made again; Settings, Models tab, has it any time)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from courtroom_desktop.ui.controls import push_button
from courtroom_desktop.ui.i18n import tr
from courtroom_desktop.ui.theme import accent, palette_watcher, tint

if TYPE_CHECKING:
    from courtroom_desktop.core.services.models import Detection, Proposal


class ModelOfferBar(QFrame):
    sig_accept = Signal(object)
    """The Proposal the person accepted."""
    sig_dismiss = Signal()
    """"Not now"."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("modelOffer")
        self.proposal: Proposal | None = None
        self.text = QLabel("")
        self.text.setObjectName("modelOfferText")
        self.text.setWordWrap(True)
        self.use_button = push_button(tr("Use these models"), tr("Save this model for each role (Settings \u2192 Models "
                                      "changes it later)"), self._accept, name="useModels")
        self.later_button = push_button(tr("Not now"), tr("Keep the bundled demo model"), self._dismiss, name="notNow")
        buttons = QVBoxLayout()
        buttons.addWidget(self.use_button)
        buttons.addWidget(self.later_button)
        buttons.addStretch(1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.text, 1)
        layout.addLayout(buttons)
        self.hide()
        palette_watcher().sig_changed.connect(self._restyle)
        self._restyle()

    def offer(self, detection: Detection, proposal: Proposal | None) -> bool:
        """Show the offer when there is a proposal; returns whether it is shown."""
        self.proposal = proposal
        if proposal is None:
            self.hide()
            return False
        servers = ", ".join(s.name for s in detection.servers)
        lines = "".join(f"<br>\u2022 {html.escape(line)}" for line in proposal.lines)
        self.text.setText(tr("<b>Models found on this computer</b> ({servers}). The bundled demo model is only for "
                             "trying the app; for verdicts worth reading, use these:").format(
            servers=html.escape(servers)) + lines)
        self.show()
        return True

    def _accept(self) -> None:
        if self.proposal is not None:
            self.sig_accept.emit(self.proposal)
        self.hide()

    def _dismiss(self) -> None:
        self.sig_dismiss.emit()
        self.hide()

    def _restyle(self) -> None:
        palette = QGuiApplication.palette()
        self.setStyleSheet(f"QFrame#modelOffer {{ background: {tint('for', palette, 30).name()}; border: 1px solid "
                           f"{accent('for', palette).name()}; border-radius: 4px; }}"
                           " QFrame#modelOffer QLabel { background: transparent; }")
