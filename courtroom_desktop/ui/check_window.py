"""The check window (issue #28): a whole draft is the unit of work. Non-modal, beside the main window:

1. start: choose a draft (.pdf .docx .md .txt) or paste its text; or reopen (or delete) a stored check;
2. review: the claims found, each editable in place, with where it stands, why it was found and how worth checking
   it is (core.check.worth); the ones worth less than the threshold the reviewer sets are hidden and not checked;
   remove, merge the selected (adjacent or not), split at the text cursor, add a sentence of the draft; then "Check N
   claims";
3. results: the table of claims filling in live as the queue runs (pause, resume, cancel), sortable and filtered by
   verdict; the chosen claim's evidence (each cited passage opens its page, highlighted), its full trial, and the
   reviewer's sign-off beside the court's verdict; export.

It only calls its CheckController (which awaits the core) and shows what comes back. Text from drafts and documents
is data: shown as plain text, or escaped where it is rich text."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QSplitter,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.controls import named, push_button, record_table
from courtroom_desktop.ui.controls.flow import FlowLayout
from courtroom_desktop.ui.dialogs.export import FolderExportDialog
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, say, tr
from courtroom_desktop.ui.qt_models.checks import CheckRowsModel, ChecksModel
from courtroom_desktop.ui.qt_models.evidence import EvidenceModel
from courtroom_desktop.ui.widgets.check_table import CheckTablePanel, ClaimPane
from courtroom_desktop.ui.widgets.inspector import EvidenceInspector
from courtroom_desktop.ui.widgets.notice_bar import NoticeBar
from courtroom_desktop.ui.widgets.references_panel import ReferencesPanel
from courtroom_desktop.ui.window_layout import fit_to_screen

if TYPE_CHECKING:
    import asyncio

    from PySide6.QtGui import QShowEvent

    from courtroom_desktop.core.court.records import PoolEntry
    from courtroom_desktop.core.services.check import (
        CheckClaim,
        CheckRecord,
        CheckSummary,
        ClaimRow,
        Draft,
        DraftSentence,
        Location,
    )
    from courtroom_desktop.ui.controllers.check import CheckController
    from courtroom_desktop.ui.controllers.pages import PageRenderer

DRAFT_FILTER = QT_TRANSLATE_NOOP("", "Drafts (*.pdf *.docx *.md *.markdown *.txt);;All files (*)")
#: Shown through tr: where a claim came from, and the export formats
ORIGIN_WORDS = {"rules": QT_TRANSLATE_NOOP("", "found by the rules"), "model": QT_TRANSLATE_NOOP("", "found by the model"),
                "edited": QT_TRANSLATE_NOOP("", "edited"), "merged": QT_TRANSLATE_NOOP("", "merged"),
                "split": QT_TRANSLATE_NOOP("", "split"), "added": QT_TRANSLATE_NOOP("", "added by hand")}
#: Why the rules took a sentence for a claim (core.check.claims.FEATURES), shown through tr
FEATURE_WORDS = {"number": QT_TRANSLATE_NOOP("", "number"), "comparison": QT_TRANSLATE_NOOP("", "comparison"),
                 "causal": QT_TRANSLATE_NOOP("", "causal"), "quantifier": QT_TRANSLATE_NOOP("", "quantifier"),
                 "superlative": QT_TRANSLATE_NOOP("", "superlative"),
                 "attribution": QT_TRANSLATE_NOOP("", "attribution")}
FORMAT_WORDS = (("md", "Markdown"), ("html", "HTML"), ("pdf", "PDF"), ("json", "JSON"),
                ("csv", QT_TRANSLATE_NOOP("", "CSV (a spreadsheet)")))


def location_words(location: Location) -> str:
    """Where a claim stands in the draft (core.check.drafts.Location), in the window's language."""
    if location.kind == "pdf":
        return tr("page {page}").format(page=location.page)
    return tr("paragraph {paragraph}, characters {start}-{end}").format(
        paragraph=location.paragraph, start=location.start, end=location.end)


def python_index(text: str, utf16: int) -> int:
    """A Qt text position (UTF-16 code units) as a Python index into ``text``."""
    units = 0
    for i, ch in enumerate(text):
        if units >= utf16:
            return i
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(text)


# ---------------------------------------------------------------------------------------------------- start
class StartPage(QWidget):
    """Choose or paste a draft; the stored checks."""

    sig_read = Signal(object, object)
    """(path or None, pasted text or None)."""
    sig_open = Signal(str, bool)
    """(check id, resume it)."""
    sig_delete = Signal(list)
    sig_refresh = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        intro = QLabel(self.tr("Check a whole draft against your library: its claims are found, you review them, then "
                               "each gets a quick check (and, when it is contested or unsure, a full trial)."))
        intro.setWordWrap(True)
        self.choose_button = push_button(self.tr("Choose a draft\u2026"), self.tr("A .pdf, .docx, .md or .txt file"),
                                         self.choose_file, "chooseDraft")
        self.paste = QPlainTextEdit()
        self.paste.setTabChangesFocus(True)  # Tab moves on (a keyboard user is not kept in the box)
        self.paste.setObjectName("pastedDraft")
        self.paste.setPlaceholderText(self.tr("\u2026or paste the draft's text here"))
        self.paste_button = push_button(self.tr("Find the claims in the pasted text"), "", self.read_pasted,
                                        "readPasted")
        self.paste.textChanged.connect(lambda: self.paste_button.setEnabled(bool(self.paste.toPlainText().strip())))
        self.paste_button.setEnabled(False)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setFormat(self.tr("Reading the draft and finding its claims\u2026"))
        self.busy.setTextVisible(True)
        self.busy.setVisible(False)

        draft_box = QGroupBox(self.tr("A new check"))
        draft_column = QVBoxLayout(draft_box)
        draft_column.addWidget(intro)
        choose_row = QHBoxLayout()
        choose_row.addWidget(self.choose_button)
        choose_row.addStretch(1)
        draft_column.addLayout(choose_row)
        draft_column.addWidget(self.paste, 1)
        paste_row = QHBoxLayout()
        paste_row.addStretch(1)
        paste_row.addWidget(self.paste_button)
        draft_column.addLayout(paste_row)
        draft_column.addWidget(self.busy)

        self.checks_model = ChecksModel(self)
        self.checks = record_table(self.checks_model, "storedChecks")
        header = self.checks.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.checks.doubleClicked.connect(lambda _i: self.open_selected())
        self.open_button = push_button(self.tr("Open"), self.tr("Show the check's results"), self.open_selected,
                                       "openCheck")
        self.resume_button = push_button(self.tr("Open and resume"), self.tr("Go on with the claims left"),
                                         lambda: self.open_selected(resume=True), "resumeCheck")
        self.delete_button = push_button(self.tr("Delete"), self.tr("Delete the selected checks (their trials are "
                                         "kept)"), self.delete_selected, "deleteChecks")
        self.refresh_button = push_button(self.tr("Refresh"), "", self.sig_refresh.emit, "refreshChecks")
        self.empty = QLabel(self.tr("No checks yet."))
        self.empty.setEnabled(False)
        stored_box = QGroupBox(self.tr("Stored checks"))
        stored_column = QVBoxLayout(stored_box)
        buttons = FlowLayout()  # wraps at twice the font size rather than widen the window past a laptop's screen
        for button in (self.open_button, self.resume_button, self.delete_button, self.refresh_button):
            buttons.addWidget(button)
        stored_column.addLayout(buttons)
        stored_column.addWidget(self.checks, 1)
        stored_column.addWidget(self.empty)
        self.checks.selectionModel().selectionChanged.connect(self._update)
        self.checks_model.modelReset.connect(self._update)

        layout = QHBoxLayout(self)
        layout.addWidget(draft_box, 1)
        layout.addWidget(stored_box, 1)
        self._update()

    def set_busy(self, busy: bool) -> None:
        self.busy.setVisible(busy)
        self.choose_button.setEnabled(not busy)
        self.paste_button.setEnabled(not busy and bool(self.paste.toPlainText().strip()))

    def choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a draft to check"), "", tr(DRAFT_FILTER))
        if path:
            self.sig_read.emit(path, None)

    def read_pasted(self) -> None:
        text = self.paste.toPlainText()
        if text.strip():
            self.sig_read.emit(None, text)

    def set_checks(self, checks: list[CheckSummary], running_id: str | None = None) -> None:
        self.checks_model.running_id = running_id
        self.checks_model.set_checks(checks)

    def selected_ids(self) -> list[str]:
        rows = sorted({i.row() for i in self.checks.selectionModel().selectedRows()})
        return [summary.id for r in rows if (summary := self.checks_model.check(r)) is not None]

    def open_selected(self, resume: bool = False) -> None:
        ids = self.selected_ids()
        if ids:
            self.sig_open.emit(ids[0], resume)

    def delete_selected(self, confirm: bool = True) -> QMessageBox | None:
        ids = self.selected_ids()
        if not ids:
            return None
        if not confirm:
            self.sig_delete.emit(ids)
            return None
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Delete checks"),
                          self.tr("Delete {n} stored check(s)? The full trials they started are kept, and exported "
                                  "reports are not touched.").format(n=len(ids)),
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self)
        box.setObjectName("confirmDeleteChecks")
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _r: self.sig_delete.emit(ids)
                             if box.clickedButton() is box.button(QMessageBox.StandardButton.Yes) else None)
        box.open()
        return box

    def _update(self, *args: object) -> None:
        chosen = bool(self.checks.selectionModel().selectedRows())
        self.open_button.setEnabled(chosen)
        self.resume_button.setEnabled(chosen)
        self.delete_button.setEnabled(chosen)
        self.empty.setVisible(self.checks_model.rowCount() == 0)


# ---------------------------------------------------------------------------------------------------- review
class SentencePicker(QDialog):
    """The draft's sentences that are not claims yet: choose one to add."""

    sig_chosen = Signal(int)

    def __init__(self, sentences: list[DraftSentence], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Add a sentence of the draft"))
        self.setObjectName("sentencePicker")
        self.filter = QLineEdit()
        self.filter.setPlaceholderText(self.tr("Filter the sentences"))
        self.filter.textChanged.connect(self._filter)
        self.list = QListWidget()
        self.list.setObjectName("sentenceList")
        self.list.setWordWrap(True)
        for sentence in sentences:
            item = QListWidgetItem(f"{say(sentence.location.describe())}: {' '.join(sentence.text.split())}")
            item.setData(Qt.ItemDataRole.UserRole, sentence.index)
            self.list.addItem(item)
        self.list.itemDoubleClicked.connect(lambda _item: self._choose())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.add_button = buttons.addButton(self.tr("Add as a claim"), QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self._choose)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.list, 1)
        layout.addWidget(buttons)
        fit_to_screen(self, 720, 480)

    def _filter(self, text: str) -> None:
        words = text.lower().split()
        for row in range(self.list.count()):
            item = self.list.item(row)
            item.setHidden(not all(w in item.text().lower() for w in words))

    def _choose(self) -> None:
        item = self.list.currentItem()
        if item is not None and not item.isHidden():
            self.sig_chosen.emit(int(item.data(Qt.ItemDataRole.UserRole)))
            self.accept()


class ReviewPage(QWidget):
    """The claims found in a draft, for the reviewer to edit before they are checked."""

    sig_check = Signal(object, list, str)
    """(Draft, list[CheckClaim], title): check these claims."""
    sig_back = Signal()
    COLUMNS = (QT_TRANSLATE_NOOP("", "Claim"), QT_TRANSLATE_NOOP("", "Where in the draft"), QT_TRANSLATE_NOOP("", "Why"),
               QT_TRANSLATE_NOOP("", "Worth checking"), QT_TRANSLATE_NOOP("", "From"))
    WORTH = 3  # the column of the check-worthiness score

    def __init__(self, on_error: Callable[[str, str, str], None], parent: QWidget | None = None,
                 min_worth: float = 0.0) -> None:
        super().__init__(parent)
        self.on_error = on_error
        self.draft: Draft | None = None
        self.claims: list[CheckClaim] = []
        self.worths: list[float] = []  # each claim's check-worthiness, in the order of ``claims``
        self._filling = False
        self.picker: SentencePicker | None = None

        self.heading = QLabel("")
        self.heading.setObjectName("reviewHeading")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        self.warnings = QLabel("")
        self.warnings.setObjectName("reviewWarnings")
        self.warnings.setTextFormat(Qt.TextFormat.PlainText)
        self.warnings.setWordWrap(True)
        self.warnings.setVisible(False)
        self.title = QLineEdit()
        self.title.setObjectName("checkTitleEdit")
        named(self.title, self.tr("Name of the list of checks"))
        self.title.setPlaceholderText(self.tr("A short name for the list of checks"))

        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setTabKeyNavigation(False)  # arrows within, Tab out
        self.table.setObjectName("reviewTable")
        named(self.table, self.tr("Claims found in the draft"), self.tr("One claim a row: edit, split, merge or "
                                                                         "remove them before the check"))
        self.table.setHorizontalHeaderLabels([tr(c) for c in self.COLUMNS])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed
                                   | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.table.setWordWrap(True)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column, width in ((1, 200), (2, 200), (3, 110), (4, 130)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            self.table.setColumnWidth(column, width)
        # rows as tall as their wrapped text, measured again whenever a column's width changes
        header.sectionResized.connect(lambda *_: self.table.resizeRowsToContents())
        self.table.itemChanged.connect(self._on_item_changed)
        self.table.itemSelectionChanged.connect(self._on_selection)

        self.editor = QPlainTextEdit()
        self.editor.setTabChangesFocus(True)
        self.editor.setObjectName("claimEditor")
        named(self.editor, self.tr("The chosen claim's words"))
        self.editor.setPlaceholderText(self.tr("Choose a claim: edit its words here, or put the cursor where it should "
                                               "be split"))
        self.editor.setMaximumHeight(90)
        self.apply_button = push_button(self.tr("Apply the edit"), self.tr("Keep the new wording"), self.apply_edit,
                                        "applyEdit")
        self.remove_button = push_button(self.tr("Remove"), self.tr("Drop the selected claims"), self.remove_selected,
                                         "removeClaims")
        self.merge_button = push_button(self.tr("Merge selected"), self.tr("One claim of the selected ones (in the "
                                        "draft's order)"), self.merge_selected, "mergeClaims")
        self.split_button = push_button(self.tr("Split at the cursor"), self.tr("Two claims, cut where the cursor "
                                        "is in the text below"), self.split_current, "splitClaim")
        self.add_button = push_button(self.tr("Add a sentence\u2026"), self.tr("A sentence of the draft that is not "
                                      "a claim yet"), self.pick_sentence, "addSentence")
        self.worth_spin = QDoubleSpinBox()
        self.worth_spin.setObjectName("minWorth")
        self.worth_spin.setRange(0.0, 1.0)
        self.worth_spin.setSingleStep(0.05)
        self.worth_spin.setDecimals(2)
        self.worth_spin.setValue(min_worth)
        self.worth_spin.setToolTip(self.tr("Claims scoring less than this for check-worthiness (0: nothing to verify, "
                                           "1: clearly a fact) are hidden and not checked; 0 shows every claim"))
        self.worth_spin.setAccessibleName(self.tr("Hide claims worth less than"))
        self.worth_spin.valueChanged.connect(lambda _value: self._apply_worth())
        worth_label = QLabel(self.tr("Hide claims worth less than:"))
        worth_label.setBuddy(self.worth_spin)
        self.hidden_label = QLabel("")
        self.hidden_label.setObjectName("hiddenClaims")
        self.back_button = push_button(self.tr("Back"), "", self.sig_back.emit, "reviewBack")
        self.check_button = push_button("", self.tr("Store the claims as a check and start checking them"),
                                         self.check, "checkClaims")
        self.check_button.setDefault(True)
        edits = QHBoxLayout()
        for button in (self.remove_button, self.merge_button, self.split_button, self.add_button):
            edits.addWidget(button)
        edits.addStretch(1)
        worth_row = QHBoxLayout()  # its own row: beside the edits it widened the window past a laptop at 2x text
        worth_row.addWidget(worth_label)
        worth_row.addWidget(self.worth_spin)
        worth_row.addWidget(self.hidden_label)
        worth_row.addStretch(1)
        editor_row = QHBoxLayout()
        editor_row.addWidget(self.editor, 1)
        editor_row.addWidget(self.apply_button, 0, Qt.AlignmentFlag.AlignTop)
        bottom = QHBoxLayout()
        bottom.addWidget(self.back_button)
        bottom.addStretch(1)
        bottom.addWidget(QLabel(self.tr("Title:")))
        bottom.addWidget(self.title, 1)
        bottom.addWidget(self.check_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.warnings)
        layout.addLayout(edits)
        layout.addLayout(worth_row)
        layout.addWidget(self.table, 1)
        layout.addLayout(editor_row)
        layout.addLayout(bottom)
        self._update()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        QTimer.singleShot(0, self.table.resizeRowsToContents)

    # ---------------------------------------------------------------- the list
    def set_draft(self, draft: Draft, claims: list[CheckClaim], warnings: list[str]) -> None:
        self.draft, self.claims = draft, list(claims)
        name = Path(draft.source).name if draft.source != "pasted text" else self.tr("pasted text")
        self.heading.setText(self.tr("{name}: {sentences} sentences, {claims} claims found. Double-click a claim to "
                                     "edit it; select several to merge them.").format(
            name=name, sentences=len(draft.sentences), claims=len(claims)))
        self.title.setText(name)
        self.warnings.setText("\n".join(warnings))
        self.warnings.setVisible(bool(warnings))
        self._fill()

    def _fill(self, select: list[int] | None = None) -> None:
        from courtroom_desktop.core.services.check import worth

        self._filling = True
        self.table.setRowCount(len(self.claims))
        self.worths = [worth(claim.text) for claim in self.claims]
        for row, claim in enumerate(self.claims):
            text = QTableWidgetItem(claim.text)
            text.setToolTip(claim.text)
            where = QTableWidgetItem("; ".join(location_words(loc) for loc in claim.locations))
            why = QTableWidgetItem(", ".join(tr(FEATURE_WORDS.get(w, w)) for w in claim.why) or "\u2014")
            origin = QTableWidgetItem(tr(ORIGIN_WORDS.get(claim.origin, claim.origin)))
            score = QTableWidgetItem(f"{self.worths[row]:.2f}")
            score.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            for item in (where, why, score, origin):
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
            for column, item in enumerate((text, where, why, score, origin)):
                self.table.setItem(row, column, item)
        self._filling = False
        self._apply_worth(update=False)
        self.table.resizeRowsToContents()
        self.table.clearSelection()
        for row in select or []:
            if 0 <= row < len(self.claims):
                self.table.selectRow(row) if len(select or []) == 1 else self._add_to_selection(row)
        self._on_selection()

    def _add_to_selection(self, row: int) -> None:
        from PySide6.QtCore import QItemSelectionModel

        flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        self.table.selectionModel().select(self.table.model().index(row, 0), flags)

    def selected_rows(self) -> list[int]:
        return sorted({i.row() for i in self.table.selectionModel().selectedRows() if not self.table.isRowHidden(i.row())})

    def shown_rows(self) -> list[int]:
        """The claims worth at least the threshold: the ones shown, and the ones "Check N claims" checks."""
        return [row for row, score in enumerate(self.worths) if score >= self.worth_spin.value() - 1e-9]

    def _apply_worth(self, update: bool = True) -> None:
        shown = set(self.shown_rows())
        for row in range(self.table.rowCount()):
            self.table.setRowHidden(row, row not in shown)
        hidden = len(self.claims) - len(shown)
        self.hidden_label.setText(self.tr("{n} hidden").format(n=hidden) if hidden else "")
        if update:
            self._on_selection()

    def select_rows(self, rows: list[int]) -> None:
        self.table.clearSelection()
        for row in rows:
            self._add_to_selection(row)
        if rows:
            self.table.setCurrentCell(rows[-1], 0, self.table.selectionModel().SelectionFlag.NoUpdate)
        self._on_selection()

    def _on_selection(self) -> None:
        rows = self.selected_rows()
        current = self.claims[rows[0]] if len(rows) == 1 else None
        self.editor.blockSignals(True)
        self.editor.setPlainText(current.text if current is not None else "")
        self.editor.blockSignals(False)
        self.editor.setEnabled(current is not None)
        self._update()

    def _update(self) -> None:
        rows = self.selected_rows() if self.claims else []
        self.remove_button.setEnabled(bool(rows))
        self.merge_button.setEnabled(len(rows) >= 2)
        self.split_button.setEnabled(len(rows) == 1)
        self.apply_button.setEnabled(len(rows) == 1)
        self.add_button.setEnabled(self.draft is not None and bool(self.remaining_sentences()))
        n = len(self.shown_rows())
        self.check_button.setText(self.tr("Check {n} claims").format(n=n) if n != 1 else self.tr("Check 1 claim"))
        self.check_button.setEnabled(n > 0)

    def _failed(self, title: str, exc: Exception) -> None:
        self.on_error(title, str(exc), getattr(exc, "fix", "") or "")

    # ---------------------------------------------------------------- edits
    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if self._filling or item.column() != 0:
            return
        self.edit_claim(item.row(), item.text())

    def edit_claim(self, row: int, text: str) -> bool:
        from courtroom_desktop.core.services.check import edit

        if not 0 <= row < len(self.claims) or text.strip() == self.claims[row].text:
            return False
        try:
            self.claims[row] = edit(self.claims[row], text)
        except Exception as exc:  # noqa: BLE001 - a CheckError for an empty claim: said, the list kept
            self._failed(self.tr("Editing the claim"), exc)
            self._fill([row])
            return False
        self._fill([row])
        return True

    def apply_edit(self) -> bool:
        rows = self.selected_rows()
        return len(rows) == 1 and self.edit_claim(rows[0], self.editor.toPlainText())

    def remove_selected(self) -> None:
        rows = self.selected_rows()
        self.claims = [c for i, c in enumerate(self.claims) if i not in rows]
        self._fill([min(rows[0], len(self.claims) - 1)] if rows and self.claims else [])

    def merge_selected(self) -> bool:
        from courtroom_desktop.core.services.check import merge

        rows = self.selected_rows()
        try:
            merged = merge([self.claims[r] for r in rows])
        except Exception as exc:  # noqa: BLE001 - fewer than two chosen
            self._failed(self.tr("Merging claims"), exc)
            return False
        kept = [c for i, c in enumerate(self.claims) if i not in rows]
        at = rows[0]
        self.claims = kept[:at] + [merged] + kept[at:]
        self._fill([at])
        return True

    def split_current(self) -> bool:
        from courtroom_desktop.core.services.check import split

        rows = self.selected_rows()
        if len(rows) != 1:
            return False
        row = rows[0]
        position = self.editor.textCursor().position()
        text = self.editor.toPlainText()
        if text.strip() != self.claims[row].text:  # the editor's wording first
            try:
                from courtroom_desktop.core.services.check import edit

                self.claims[row] = edit(self.claims[row], text)
            except Exception as exc:  # noqa: BLE001 - an empty claim
                self._failed(self.tr("Editing the claim"), exc)
                return False
        at = python_index(text, position) - (len(text) - len(text.lstrip()))
        try:
            left, right = split(self.claims[row], at)
        except Exception as exc:  # noqa: BLE001 - a part would be empty
            self._failed(self.tr("Splitting the claim"), exc)
            return False
        self.claims[row:row + 1] = [left, right]
        self._fill([row])
        return True

    def remaining_sentences(self) -> list[DraftSentence]:
        if self.draft is None:
            return []
        used = {i for c in self.claims for i in c.sentences}
        return [s for s in self.draft.sentences if s.index not in used]

    def pick_sentence(self) -> SentencePicker:
        self.picker = SentencePicker(self.remaining_sentences(), self)
        self.picker.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.picker.sig_chosen.connect(self.add_sentence_index)
        self.picker.open()
        return self.picker

    def add_sentence_index(self, sentence_index: int) -> bool:
        from courtroom_desktop.core.services.check import add_sentence

        if self.draft is None:  # (the picker is offered only for a draft)
            return False
        try:
            claim = add_sentence(self.draft, sentence_index)
        except Exception as exc:  # noqa: BLE001 - no such sentence
            self._failed(self.tr("Adding a sentence"), exc)
            return False
        at = next((i for i, c in enumerate(self.claims) if c.sentences and min(c.sentences) > sentence_index),
                  len(self.claims))
        self.claims.insert(at, claim)
        self._fill([at])
        return True

    def check(self) -> None:
        claims = [self.claims[row] for row in self.shown_rows()]
        if self.draft is not None and claims:
            self.sig_check.emit(self.draft, claims, self.title.text().strip())


# ---------------------------------------------------------------------------------------------------- export
class CheckExportDialog(FolderExportDialog):
    """A check's report (the formats chosen) and the annotated draft into a folder; what was written is listed."""

    controller: CheckController

    def __init__(self, controller: CheckController, check_id: str, title: str = "", settings: QSettings | None = None,
                 parent: QWidget | None = None) -> None:
        self.check_id = check_id
        name = QLabel(title or check_id)
        name.setTextFormat(Qt.TextFormat.PlainText)
        self.annotate = QCheckBox(self.tr("An annotated copy of the draft (highlights and notes)"))
        self.annotate.setChecked(True)
        super().__init__(controller, FORMAT_WORDS, "checkExport", f"check-{check_id[:8]}",
                         [(self.tr("Check:"), name), ("", self.annotate)], settings, parent,
                         checked=lambda value: value != "pdf", size=(640, 320))
        self.setWindowTitle(self.tr("Export the check"))
        self.setObjectName("checkExportDialog")

    def start(self, out: Path) -> asyncio.Task[list[Path] | None] | None:
        return self.controller.export(self.chosen_formats(), out, self.annotate.isChecked())

    def written_text(self) -> str:
        return self.tr("Wrote {n} files. Double-click one to open it.").format(n=len(self.written))


# ---------------------------------------------------------------------------------------------------- the window
class CheckWindow(QWidget):
    """Check a draft: start, review, results (see the module's docstring)."""

    START, REVIEW, RESULTS = range(3)

    def __init__(self, controller: CheckController, renderer: PageRenderer,
                 locate: Callable[[PoolEntry], str] | None = None, settings: QSettings | None = None,
                 open_trial: Callable[[str], object] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("checkWindow")
        self.setWindowTitle(self.tr("Check a draft"))
        self.controller = controller
        self.settings = settings
        self.open_trial = open_trial
        self.export_dialog: CheckExportDialog | None = None

        self.notice = NoticeBar()
        self.start = StartPage()
        self.review = ReviewPage(self.notice.show_error, min_worth=controller.min_worth())
        self.rows_model = CheckRowsModel(self)
        self.results = CheckTablePanel(self.rows_model)
        self.pane = ClaimPane(controller.default_reviewer())
        self.evidence_model = EvidenceModel(self)
        self.inspector = EvidenceInspector(self.evidence_model, renderer, locate, settings)
        self.inspector.splitter.setSizes([110, 450])
        self.lower_splitter = QSplitter(Qt.Orientation.Horizontal)  # (not "lower": that is QWidget.lower())
        self.lower_splitter.setObjectName("checkLowerSplitter")
        self.lower_splitter.addWidget(self.pane)
        self.lower_splitter.addWidget(self.inspector)
        self.lower_splitter.setSizes([620, 760])
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("checkSplitter")
        self.references = ReferencesPanel()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.results, self.tr("Claims"))
        self.tabs.addTab(self.references, self.tr("References"))
        self.splitter.addWidget(self.tabs)
        self.splitter.addWidget(self.lower_splitter)
        self.splitter.setSizes([310, 560])
        results_page = QWidget()
        results_column = QVBoxLayout(results_page)
        results_column.setContentsMargins(6, 6, 6, 6)
        results_column.addWidget(self.splitter)

        self.stack = QStackedWidget()
        self.stack.addWidget(self.start)
        self.stack.addWidget(self.review)
        self.stack.addWidget(results_page)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.notice)
        layout.addWidget(self.stack, 1)
        self._wire()
        fit_to_screen(self, 1400, 900)

    def _wire(self) -> None:
        c = self.controller
        c.sig_error.connect(self.notice.show_error)
        c.sig_busy.connect(self.start.set_busy)
        c.sig_draft.connect(self._on_draft)
        c.sig_opened.connect(self._on_opened)
        c.sig_references.connect(self.references.set_references)
        c.sig_row.connect(self.rows_model.update_row)
        c.sig_progress.connect(self.results.on_progress)
        c.sig_paused.connect(self.results.show_paused)
        c.sig_state.connect(self.results.set_state)
        c.sig_checks.connect(lambda checks: self.start.set_checks(checks, c.check_id if c.running else None))
        self.start.sig_read.connect(self._read)
        self.start.sig_open.connect(c.open)
        self.start.sig_delete.connect(c.delete)
        self.start.sig_refresh.connect(c.refresh_list)
        self.review.sig_back.connect(lambda: self.stack.setCurrentIndex(self.START))
        self.review.sig_check.connect(c.create)
        self.results.sig_pause.connect(c.pause)
        self.results.sig_resume.connect(c.resume)
        self.results.sig_cancel.connect(c.cancel)
        self.results.sig_export.connect(self.export)
        self.results.sig_new.connect(self.new_check)
        self.results.sig_current.connect(self._on_current)
        self.pane.sig_passage.connect(self.show_passage)
        self.pane.sig_sign_off.connect(c.sign_off)
        self.pane.sig_send_to_trial.connect(c.send_to_trial)
        self.pane.sig_open_trial.connect(self._open_trial)
        self.inspector.sig_message.connect(lambda text: self.notice.show_error(self.tr("Evidence"), text))

    # ---------------------------------------------------------------- pages
    def _read(self, path: str | None, text: str | None) -> None:
        self.notice.hide()
        self.controller.read(path, text)

    def _on_draft(self, draft: Draft, claims: list[CheckClaim], warnings: list[str]) -> None:
        self.review.set_draft(draft, claims, warnings)
        self.stack.setCurrentIndex(self.REVIEW)

    def _on_opened(self, record: CheckRecord) -> None:
        self.results.set_record(record)
        self.results.set_state(self.controller.state)
        self.pane.show_row(None)
        self.evidence_model.reset("claim")
        self.stack.setCurrentIndex(self.RESULTS)

    def new_check(self) -> None:
        self.controller.refresh_list()
        self.stack.setCurrentIndex(self.START)

    # ---------------------------------------------------------------- a claim's evidence
    def _on_current(self, row: ClaimRow | None) -> None:
        shown = self.pane.row
        self.pane.show_row(row)
        if row is None:
            self.evidence_model.reset("claim")
            return
        if shown is not None and shown.index == row.index and shown.quick == row.quick:
            return  # the same passages: keep the page shown
        self.evidence_model.reset("claim", self.pool_of(row), verdict=self._cited_of(row))

    @staticmethod
    def pool_of(row: ClaimRow) -> list[PoolEntry]:
        """The claim's retrieved passages as evidence-pool entries (E1 first), each with the verifier's reading."""
        from courtroom_desktop.core.court.records import PoolEntry

        if row.quick is None:
            return []
        return [PoolEntry(id=f"E{i}", evidence=evidence, round=1, found_by="judge", query=row.claim.text,
                          verifier=row.quick.reading(f"E{i}"))
                for i, evidence in enumerate(row.quick.passages, start=1)]

    @staticmethod
    def _cited_of(row: ClaimRow) -> SimpleNamespace | None:
        """The quick check's citations, as the evidence model reads a verdict's (its findings' citations)."""
        if row.quick is None or not row.quick.citations:
            return None
        return SimpleNamespace(findings=[SimpleNamespace(citations=list(row.quick.citations))])

    def show_passage(self, evidence_id: str) -> bool:
        return self.inspector.show_evidence(evidence_id)

    def _open_trial(self, trial_id: str) -> None:
        if self.open_trial is not None:
            self.open_trial(trial_id)

    # ---------------------------------------------------------------- export
    def export(self) -> CheckExportDialog | None:
        record = self.controller.record
        if record is None:
            return None
        if self.export_dialog is not None:
            self.export_dialog.close()
        dialog = CheckExportDialog(self.controller, record.id, record.spec.title, self.settings, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.destroyed.connect(lambda *_: setattr(self, "export_dialog", None))
        self.export_dialog = dialog
        dialog.open()
        return dialog

    # ---------------------------------------------------------------- life cycle
    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self.stack.currentIndex() == self.START:
            self.controller.refresh_list()

    async def shutdown(self) -> None:
        await self.controller.shutdown()

