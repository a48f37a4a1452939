"""A trial's coverage: which documents its searches reached (passages found, admitted, turned away, cited), which
documents in its scope no search ever retrieved, and every passage found: admitted to the pool (with the judge's
reading of it, flagged when it reads like instructions) or turned away and why (already in the pool, not novel
enough). Computed in a thread from the trial store (Workspace.trial_coverage); this dialog only shows it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.controls import named
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from courtroom_desktop.ui.text import said
from courtroom_desktop.ui.theme import accent
from courtroom_desktop.ui.window_layout import fit_to_screen

if TYPE_CHECKING:
    from courtroom_desktop.core.court.records import Reason

DOCUMENT_COLUMNS = (QT_TRANSLATE_NOOP("", "Document"), QT_TRANSLATE_NOOP("", "Found"), QT_TRANSLATE_NOOP("", "Admitted"),
                    QT_TRANSLATE_NOOP("", "Turned away"), QT_TRANSLATE_NOOP("", "Cited"))
PASSAGE_COLUMNS = (QT_TRANSLATE_NOOP("", "Round"), QT_TRANSLATE_NOOP("", "Found by"), QT_TRANSLATE_NOOP("", "Document"),
                   QT_TRANSLATE_NOOP("", "Page"), QT_TRANSLATE_NOOP("", "What became of it"), QT_TRANSLATE_NOOP("", "Passage"))


#: The judge's model's reading of an admitted passage, as the window words it.
JUDGED = {"supports": QT_TRANSLATE_NOOP("", "supports"), "refutes": QT_TRANSLATE_NOOP("", "refutes"),
          "mixed": QT_TRANSLATE_NOOP("", "mixed"), "irrelevant": QT_TRANSLATE_NOOP("", "irrelevant")}


# What this dialog reads of a trial's coverage (the core's court.coverage records, which the services do not name).
class PassageCoverage(Protocol):
    """One passage a search found: admitted (with its pool id) or turned away (with the reason)."""

    @property
    def doc_id(self) -> str: ...
    @property
    def doc_title(self) -> str: ...
    @property
    def page(self) -> int: ...
    @property
    def excerpt(self) -> str: ...
    @property
    def query(self) -> str: ...
    @property
    def round(self) -> int: ...
    @property
    def found_by(self) -> str: ...
    @property
    def admitted(self) -> bool: ...
    @property
    def evidence_id(self) -> str: ...
    @property
    def reason(self) -> Reason | None: ...
    @property
    def judged(self) -> str: ...
    @property
    def relevance(self) -> float | None: ...
    @property
    def injection(self) -> bool: ...
    @property
    def cited(self) -> int: ...


class DocumentCoverage(Protocol):
    """A document in the trial's scope, or that its searches reached."""

    @property
    def doc_id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def found(self) -> int: ...
    @property
    def admitted(self) -> int: ...
    @property
    def turned_away(self) -> int: ...
    @property
    def cited(self) -> int: ...
    @property
    def retrieved(self) -> bool: ...


class TrialCoverage(Protocol):
    """What a trial's searches covered."""

    @property
    def queries(self) -> Sequence[str]: ...
    @property
    def passages(self) -> Sequence[PassageCoverage]: ...
    @property
    def documents(self) -> Sequence[DocumentCoverage]: ...
    @property
    def never_retrieved(self) -> Sequence[DocumentCoverage]: ...


def passage_fate(passage: PassageCoverage) -> str:
    """'admitted as E3 · judged irrelevant (0.10)', 'turned away: already in the pool as E2' and the like."""
    if not passage.admitted:
        return tr("turned away: {reason}").format(reason=said(passage.reason))
    parts = [tr("admitted as {id}").format(id=passage.evidence_id)]
    if passage.judged:
        relevance = f" ({passage.relevance:.2f})" if passage.relevance is not None else ""
        parts.append(tr("judged {reading}").format(reading=tr(JUDGED.get(passage.judged, passage.judged))) + relevance)
    if passage.injection:
        parts.append(tr("flagged: reads like instructions to a model (never obeyed)"))
    if passage.cited:
        parts.append(tr("cited {count}\u00d7").format(count=passage.cited))
    return " \u00b7 ".join(parts)


def coverage_summary(coverage: TrialCoverage) -> str:
    found = len(coverage.passages)
    admitted = sum(p.admitted for p in coverage.passages)
    retrieved = sum(d.retrieved for d in coverage.documents)
    never = len(coverage.never_retrieved)
    return tr("{queries} queries searched; {found} passages found: {admitted} admitted, {turned} turned away. "
              "{retrieved} documents retrieved, {never} in scope never retrieved.").format(
        queries=len(coverage.queries), found=found, admitted=admitted, turned=found - admitted, retrieved=retrieved,
        never=never)


def _table(name: str, columns: tuple[str, ...], label: str) -> QTableWidget:
    table = named(QTableWidget(0, len(columns)), label)
    table.setTabKeyNavigation(False)
    table.setObjectName(name)
    table.setHorizontalHeaderLabels([tr(column) for column in columns])
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.verticalHeader().setVisible(False)
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    table.horizontalHeader().setStretchLastSection(True)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    return table


def _cell(text: object, tip: str = "", dim: bool = False, right: bool = False) -> QTableWidgetItem:
    item = QTableWidgetItem(str(text))
    if tip:
        item.setToolTip(tip)
    if dim:
        item.setForeground(QBrush(accent("warning")))
    if right:
        item.setTextAlignment(int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter))
    return item


class CoveragePanel(QDialog):
    def __init__(self, coverage: TrialCoverage, title: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("coveragePanel")
        self.setWindowTitle(tr("Coverage of the trial: {claim}").format(claim=title) if title else
                            tr("Coverage of the trial"))
        self.coverage = coverage
        self.summary = QLabel(coverage_summary(coverage))
        self.summary.setObjectName("coverageSummary")
        self.summary.setWordWrap(True)
        self.documents = _table("coverageDocuments", DOCUMENT_COLUMNS, tr("Documents the searches reached"))
        self.passages = _table("coveragePassages", PASSAGE_COLUMNS, tr("Passages found"))
        for doc in coverage.documents:
            row = self.documents.rowCount()
            self.documents.insertRow(row)
            never = not doc.retrieved
            name = doc.title or doc.doc_id[:12]
            self.documents.setItem(row, 0, _cell(name + (" \u2014 " + tr("never retrieved") if never else ""),
                                                 f"id {doc.doc_id}", dim=never))
            for column, count in enumerate((doc.found, doc.admitted, doc.turned_away, doc.cited), 1):
                self.documents.setItem(row, column, _cell(count, right=True, dim=never))
        for passage in coverage.passages:
            row = self.passages.rowCount()
            self.passages.insertRow(row)
            fate = passage_fate(passage)
            values = (passage.round, passage.found_by, passage.doc_title or passage.doc_id[:12],
                      passage.page if passage.page > 0 else "\u2013", fate, passage.excerpt)
            for column, value in enumerate(values):
                tip = passage.excerpt if column == 5 else (tr("query: {query}").format(query=passage.query) if column < 2 else "")
                self.passages.setItem(row, column, _cell(value, tip or fate, dim=not passage.admitted and column == 4,
                                                         right=column in (0, 3)))
        for table, widths in ((self.documents, (300, 60, 70, 90, 60)), (self.passages, (55, 70, 180, 45, 330))):
            for column, width in enumerate(widths):
                table.setColumnWidth(column, width)
        split = QSplitter(Qt.Orientation.Vertical)
        for label, table in ((tr("Documents"), self.documents),
                             (tr("Passages found, in the order of the searches"), self.passages)):
            pane = QWidget()
            box = QVBoxLayout(pane)
            box.setContentsMargins(0, 0, 0, 0)
            box.addWidget(QLabel(f"<b>{label}</b>"))
            box.addWidget(table)
            split.addWidget(pane)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        layout.addWidget(buttons)
        fit_to_screen(self, 1000, 640)

    def document_rows(self) -> list[str]:
        return [_text(self.documents, r, 0) for r in range(self.documents.rowCount())]

    def passage_fates(self) -> list[str]:
        return [_text(self.passages, r, 4) for r in range(self.passages.rowCount())]


def _text(table: QTableWidget, row: int, column: int) -> str:
    item = table.item(row, column)
    assert item is not None  # every cell is set when the table is filled
    return item.text()
