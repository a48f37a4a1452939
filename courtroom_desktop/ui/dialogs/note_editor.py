"""The note editor: a title, the text (typed or pasted; Markdown headings make sections), and whether the note is
private. Saving writes ``<data folder>/notes/<slug>.md`` and adds it to the library (the library controller does)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.controls import named
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from courtroom_desktop.ui.window_layout import fit_to_screen

PRIVATE_TIP = QT_TRANSLATE_NOOP("", "A private note is never sent to a model server on another machine: a trial that "
                                    "would send it there refuses, and says which role and server.")


class NoteEditor(QDialog):
    """New note (``path`` None) or an existing one (its ``title``, ``text`` and ``private`` flag filled in)."""

    def __init__(self, title: str = "", text: str = "", private: bool = False, path: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.setObjectName("noteEditor")
        self.setWindowTitle(tr("Edit note") if path else tr("New note"))
        self.title_edit = QLineEdit(title)
        self.title_edit.setObjectName("noteTitle")
        named(self.title_edit, tr("Title"))
        self.title_edit.setPlaceholderText(tr("Title, e.g. Lisbon: rents and commute"))
        self.text_edit = QPlainTextEdit(text)
        self.text_edit.setTabChangesFocus(True)  # Tab moves on; a note that needs a tab character gets spaces
        self.text_edit.setObjectName("noteText")
        named(self.text_edit, tr("Note text"))
        self.text_edit.setPlaceholderText(tr("Type or paste the note. Lines starting with # or ## make sections; blank "
                                          "lines separate paragraphs."))
        self.private_box = QCheckBox(tr("Private: never send this note to a model server on another machine"))
        self.private_box.setObjectName("notePrivate")
        self.private_box.setToolTip(tr(PRIVATE_TIP))
        self.private_box.setChecked(private)
        self.problem = QLabel("")
        self.problem.setObjectName("noteProblem")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.title_edit.textChanged.connect(self._check)
        self.text_edit.textChanged.connect(self._check)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(tr("Title")))
        layout.addWidget(self.title_edit)
        layout.addWidget(self.text_edit, 1)
        layout.addWidget(self.private_box)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        fit_to_screen(self, 620, 520)
        self._check()

    def _check(self) -> None:
        title, text = self.title_edit.text().strip(), self.text_edit.toPlainText().strip()
        self.save_button.setEnabled(bool(title and text))
        self.problem.setText("" if title and text else tr("A note needs a title and some text."))

    def values(self) -> tuple[str, str, bool]:
        """(title, text, private) as entered."""
        return self.title_edit.text().strip(), self.text_edit.toPlainText(), self.private_box.isChecked()
