"""The library's documents as a table: each ready document with its pages, sections and chunks; each file that
failed with its reason; and, while an ingest runs, each file's live stage and progress."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Qt

from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, say, tr
from courtroom_desktop.ui.qt_models import ProgressRole, RecordTableModel
from courtroom_desktop.ui.text import NOTICE_WORDS
from courtroom_desktop.ui.theme import accent

if TYPE_CHECKING:
    from courtroom_desktop.core.records import Document, FileProgress, IngestEvent, Notice

def added_words(doc: Document) -> str:
    """'Added 2026-12-07 15:40 by ada@lab-laptop' (each part as far as known; '' when neither is)."""
    when = doc.added_when
    if when and doc.added_by:
        return tr("Added {when} by {who}").format(when=when, who=doc.added_by)
    if when:
        return tr("Added {when}").format(when=when)
    return tr("Added by {who}").format(who=doc.added_by) if doc.added_by else ""


COLUMNS = (QT_TRANSLATE_NOOP("", "Document"), QT_TRANSLATE_NOOP("", "Status"), QT_TRANSLATE_NOOP("", "Pages"),
           QT_TRANSLATE_NOOP("", "Sections"), QT_TRANSLATE_NOOP("", "Chunks"), QT_TRANSLATE_NOOP("", "Reason"),
           QT_TRANSLATE_NOOP("", "In trials"))
DOCUMENT, STATUS, PAGES, SECTIONS, CHUNKS, REASON, USE = range(len(COLUMNS))
KIND_NAMES = {"markdown": "Markdown", "text": "text", "docx": "Word", "note": "note"}  # shown for documents without pages
PRIVATE_TIP = QT_TRANSLATE_NOOP("", "private: its text is never sent to a model server on another machine")
#: A row's status words (core.records.DocStatus, and the ingest's own), for lupdate: shown through tr
STATUSES = (QT_TRANSLATE_NOOP("", "ready"), QT_TRANSLATE_NOOP("", "failed"), QT_TRANSLATE_NOOP("", "pending"),
            QT_TRANSLATE_NOOP("", "removing"), QT_TRANSLATE_NOOP("", "queued"), QT_TRANSLATE_NOOP("", "cancelled"),
            QT_TRANSLATE_NOOP("", "indexing"), QT_TRANSLATE_NOOP("", "text"), QT_TRANSLATE_NOOP("", "note"))


class LibraryUse(Protocol):
    """One document across the stored trials (the core's LibraryUse, as the workspace gives it)."""

    @property
    def trials_in_scope(self) -> int: ...
    @property
    def trials_retrieved(self) -> int: ...
    @property
    def trials_cited(self) -> int: ...
    @property
    def citations(self) -> int: ...
    @property
    def never_retrieved(self) -> bool: ...


@dataclass
class DocRow:
    path: str
    doc: Document | None = None    # a core Document, or None for a file that never made it in
    status: str = ""
    reason: str = ""
    progress: int | None = None    # 0..100 while being ingested

    @property
    def doc_id(self) -> str:
        return self.doc.id if self.doc is not None else ""

    @property
    def title(self) -> str:
        if self.doc is not None and self.doc.title:
            return self.doc.title
        return Path(self.path).name


def use_words(use: LibraryUse | None) -> str:
    """'cited 4× in 2 trials', 'retrieved, never cited', 'never retrieved (3 trials)', '' (no trial could search it,
    or not asked)."""
    if use is None or not use.trials_in_scope:
        return ""
    if use.citations:
        return tr("cited {citations}\u00d7 in {trials} trials").format(citations=use.citations, trials=use.trials_cited)
    if use.trials_retrieved:
        return tr("retrieved, never cited")
    return tr("never retrieved ({trials} trials)").format(trials=use.trials_in_scope)


def ingest_progress(event: FileProgress) -> tuple[str, int]:
    stage = event.stage.value
    if stage == "extract":
        frac = event.pages_done / event.pages if event.pages else 0.0
        return tr("reading page {done}/{pages}").format(done=event.pages_done, pages=event.pages), round(30 * frac)
    if stage == "ocr":  # scanned pages read one by one: the bar starts again for them
        frac = event.pages_done / event.pages if event.pages else 0.0
        return tr("OCR page {done}/{pages}").format(done=event.pages_done, pages=event.pages), round(30 * frac)
    if stage == "chunk":
        return tr("{count} passages").format(count=event.chunks), 35
    if stage == "embed":
        frac = event.chunks_done / event.chunks if event.chunks else 0.0
        return tr("embedding {done}/{chunks}").format(done=event.chunks_done, chunks=event.chunks), 35 + round(60 * frac)
    return tr("indexing"), 97


class DocumentsModel(RecordTableModel[DocRow]):
    COLUMNS = COLUMNS

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._active: dict[str, tuple[str, int | None]] = {}  # path -> (status, progress) during an ingest
        self.use: dict[str, LibraryUse] = {}  # doc id -> LibraryUse across the stored trials (once asked for)
        self.notices: dict[str, Notice] = {}  # doc id -> a retraction, correction or expression of concern

    # ---------------------------------------------------------------- Qt
    def cell(self, row: DocRow, column: int, role: int) -> Any:
        if role == ProgressRole:
            return row.progress if column == STATUS else None
        if role == Qt.ItemDataRole.DisplayRole:
            doc = row.doc
            if column == DOCUMENT:
                notice = self.notices.get(row.doc_id)
                return (row.title + (tr(" (private)") if doc is not None and doc.private else "")
                        + (" \u2014 " + tr(NOTICE_WORDS[notice.kind]) if notice is not None else ""))
            if column == STATUS:
                return tr(row.status)
            if column in (PAGES, SECTIONS, CHUNKS):
                if doc is None:
                    return ""
                if column == PAGES and not doc.on_pages:  # a text document has no pages: its kind instead
                    return tr(KIND_NAMES.get(doc.kind, doc.kind))
                return str({PAGES: doc.pages, SECTIONS: doc.sections, CHUNKS: doc.chunks}[column])
            if column == REASON:
                return say(row.reason)
            if column == USE:
                return use_words(self.use.get(row.doc_id))
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == USE and row.doc_id in self.use:
                use = self.use[row.doc_id]
                return tr("in the scope of {scope} trials, retrieved in {retrieved}, cited in {cited} ({citations} "
                          "citations)").format(scope=use.trials_in_scope, retrieved=use.trials_retrieved,
                                               cited=use.trials_cited, citations=use.citations)
            if column == REASON and row.reason:
                return say(row.reason)
            if column == DOCUMENT and (notice := self.notices.get(row.doc_id)) is not None:
                return "\n".join(x for x in (tr(NOTICE_WORDS[notice.kind]), notice.date, notice.reason,
                                             tr("from Zotero") if notice.source == "zotero"
                                             else tr("from Retraction Watch")) if x)
            doc = row.doc
            extra = ""
            if doc is not None:
                extra = "\n".join(x for x in (doc.authors, str(doc.year or ""),
                                             tr("{count} passages").format(count=doc.chunks), f"id {doc.id}",
                                             added_words(doc),
                                             tr(PRIVATE_TIP) if doc.private else "", say(row.reason)) if x)
            elif row.reason:
                extra = say(row.reason)
            return f"{row.path}\n{extra}".strip()
        if role == Qt.ItemDataRole.ForegroundRole and column == DOCUMENT and row.doc_id in self.notices:
            return accent("error") if self.notices[row.doc_id].retracted else accent("warning")
        if role == Qt.ItemDataRole.ForegroundRole and column == USE and row.doc_id in self.use:
            return accent("warning") if self.use[row.doc_id].never_retrieved else None
        if role == Qt.ItemDataRole.ForegroundRole and column in (STATUS, REASON):
            if row.status == "failed":
                return accent("error")
            if row.status in ("cancelled",) or row.reason and column == REASON:
                return accent("warning")
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (PAGES, SECTIONS, CHUNKS):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    # ---------------------------------------------------------------- records in
    def set_notices(self, notices: dict[str, Notice]) -> None:
        """Retractions, corrections and expressions of concern, by document id (shown beside the title)."""
        self.notices = dict(notices)
        if self._rows:
            self.dataChanged.emit(self.index(0, DOCUMENT), self.index(len(self._rows) - 1, DOCUMENT))

    def set_documents(self, documents: Sequence[Document], failures: Sequence[tuple[str, str]]) -> None:
        rows = [DocRow(path=d.path, doc=d, status=d.status.value, reason=d.error or d.no_text_note()) for d in documents]
        known = {r.path for r in rows}
        rows += [DocRow(path=p, status="failed", reason=reason) for p, reason in failures if p not in known]
        for path, (status, progress) in self._active.items():
            existing = next((r for r in rows if r.path == path), None)
            if existing is None:
                rows.append(DocRow(path=path, status=status, progress=progress))
            else:
                existing.status, existing.progress = status, progress
        if self.use:  # sorted by their use in trials once asked
            rows.sort(key=self._use_rank)
        self._replace_rows(rows)

    def apply_ingest_event(self, event: IngestEvent) -> None:
        from courtroom_desktop.core.records import FileFinished, FileProgress, FileStarted

        if not isinstance(event, FileStarted | FileProgress | FileFinished):  # started, finished
            self._active.clear()
            for row_number, row in enumerate(self._rows):
                if row.progress is not None:
                    row.progress = None
                    self._changed(row_number)
            return
        path = event.path
        if isinstance(event, FileStarted):
            self._set(path, "queued", 0)
        elif isinstance(event, FileProgress):
            self._set(path, *ingest_progress(event))
        else:
            self._active.pop(path, None)
            outcome = event.outcome.value
            self._set(path, "ready" if outcome in ("added", "updated", "skipped") else outcome, None,
                      reason=event.reason if outcome in ("failed", "cancelled") else event.note, track=False)

    def _set(self, path: str, status: str, progress: int | None, reason: str | None = None, track: bool = True) -> None:
        if track:
            self._active[path] = (status, progress)
        for row_number, row in enumerate(self._rows):
            if row.path == path:
                row.status, row.progress = status, progress
                if reason is not None:
                    row.reason = reason
                self._changed(row_number)
                return
        self._append_row(DocRow(path=path, status=status, progress=progress, reason=reason or ""))

    def _changed(self, row_number: int) -> None:
        self.dataChanged.emit(self.index(row_number, 0), self.index(row_number, len(COLUMNS) - 1))

    def set_use(self, use: Mapping[str, LibraryUse]) -> None:
        """Each document's use across the stored trials; the documents then sorted by it: the most cited first, those
        never retrieved last."""
        self.use = dict(use)
        self._replace_rows(sorted(self._rows, key=self._use_rank))

    def _use_rank(self, row: DocRow) -> tuple[int, int, int]:
        use = self.use.get(row.doc_id)
        if use is None:
            return (1, 0, 0)
        return (2 if use.never_retrieved else 0, -use.citations, -use.trials_retrieved)

    # ---------------------------------------------------------------- records out
    def row(self, row_number: int) -> DocRow:
        return self._rows[row_number]

    def rows(self) -> list[DocRow]:
        return list(self._rows)
