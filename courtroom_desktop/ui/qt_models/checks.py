"""A check's claims as a table (one ClaimRow a row: the court's verdict, how sure, from which step, the passages it
rests on, where the claim is in the queue, and the reviewer's sign-off beside the verdict, never in its place), the
verdict filter over it, and the list of stored checks."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt

from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, say, tr
from courtroom_desktop.ui.qt_models import RecordTableModel
from courtroom_desktop.ui.text import VERDICT_WORDS, date_time, pages_label
from courtroom_desktop.ui.theme import accent, tint

if TYPE_CHECKING:
    from courtroom_desktop.core.records import Evidence
    from courtroom_desktop.core.services.check import CheckSummary, ClaimRow, SignOff

#: What a cell sorts by (numbers where the text would sort badly: #, confidence).
SortRole = Qt.ItemDataRole.UserRole + 3

COLUMNS = (QT_TRANSLATE_NOOP("", "#"), QT_TRANSLATE_NOOP("", "Claim"), QT_TRANSLATE_NOOP("", "Verdict"),
           QT_TRANSLATE_NOOP("", "Confidence"), QT_TRANSLATE_NOOP("", "By"), QT_TRANSLATE_NOOP("", "Key passages"),
           QT_TRANSLATE_NOOP("", "Status"), QT_TRANSLATE_NOOP("", "Sign-off"))
NUMBER, CLAIM, VERDICT, CONFIDENCE, BY, PASSAGES, STATUS, SIGNOFF = range(len(COLUMNS))
VERDICT_ACCENT = {"supported": "support", "refuted": "refute", "mixed": "switch", "insufficient evidence": "unclear"}
VERDICT_ORDER = {"supported": 0, "mixed": 1, "refuted": 2, "insufficient evidence": 3}
#: The verdict filter's choices: (value, label); "" shows every claim.
#: The verdict filter's choices (shown through tr)
FILTERS = (("", QT_TRANSLATE_NOOP("", "All verdicts")), ("supported", QT_TRANSLATE_NOOP("", "Supported")),
           ("refuted", QT_TRANSLATE_NOOP("", "Refuted")), ("mixed", QT_TRANSLATE_NOOP("", "Mixed")),
           ("insufficient evidence", QT_TRANSLATE_NOOP("", "Insufficient evidence")),
           ("unchecked", QT_TRANSLATE_NOOP("", "Unchecked")), ("failed", QT_TRANSLATE_NOOP("", "Failed")))




def _value(x: object) -> str:
    return str(getattr(x, "value", x) or "")


def verdict_key(row: ClaimRow) -> str:
    """What the verdict filter matches a row by: its court verdict, 'failed', or 'unchecked'."""
    if _value(row.status) == "failed":
        return "failed"
    return _value(row.label) if row.label is not None else "unchecked"


def verdict_words(label: str | None) -> str:
    value = _value(label)
    return tr(VERDICT_WORDS.get(value, value.capitalize())) if value else ""


def passage_label(evidence: Evidence) -> str:
    """'Title p. 3': a cited passage's document and page (the file's name when it has no title)."""
    title = evidence.doc_title or evidence.doc_path.replace("\\", "/").rsplit("/", 1)[-1]
    page = pages_label(evidence.chunk)
    return f"{title} {page}".strip()


def key_passages(row: ClaimRow) -> list[str]:
    """The cited passages, one 'Title p. 3' each (tooltips, the pane)."""
    if row.quick is None:
        return []
    return [passage_label(e) for _cid, e in row.quick.cited()]


def key_passages_short(row: ClaimRow) -> str:
    """The cited passages grouped by document, in the order cited: 'Title p. 1, 3; Other title p. 2'."""
    if row.quick is None:
        return ""
    pages: dict[str, list[str]] = {}
    for _cid, evidence in row.quick.cited():
        title = evidence.doc_title or evidence.doc_path.replace("\\", "/").rsplit("/", 1)[-1]
        page = evidence.chunk.pages
        listed = pages.setdefault(title, [])
        if page and page not in listed:
            listed.append(page)
    return "; ".join(f"{title} p. {', '.join(listed)}" if listed else title for title, listed in pages.items())


def signoff_words(signoff: SignOff | None) -> str:
    if signoff is None:
        return ""
    if _value(signoff.decision) == "overridden":
        return tr("overridden: {label} ({who})").format(label=verdict_words(signoff.label), who=signoff.reviewer)
    return tr("accepted ({who})").format(who=signoff.reviewer)


def status_words(row: ClaimRow, running: bool = False) -> str:
    status = _value(row.status)
    if status == "pending":
        return tr("checking\u2026") if running else tr("waiting")
    if status == "trial":
        if running:
            return tr("in a full trial\u2026")
        return tr("waiting for a full trial") if row.trial is None else tr("full trial stopped")
    if status == "failed":
        return tr("failed")
    return tr("done")


class CheckRowsModel(RecordTableModel["ClaimRow"]):
    """ClaimRow rows, in the check's order."""

    COLUMNS = COLUMNS

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.running: set[int] = set()  # claims in flight

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt's name
                   role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        return super().headerData(section, orientation, role)

    def cell(self, row: ClaimRow, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, column)
        if role == SortRole:
            return self._sort_key(row, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column)
        if role == Qt.ItemDataRole.ForegroundRole:
            if column == VERDICT and row.label is not None:
                return accent(VERDICT_ACCENT.get(_value(row.label), "unclear"))
            if column == STATUS and _value(row.status) == "failed":
                return accent("error")
            if column == SIGNOFF and row.signoff is not None and _value(row.signoff.decision) == "overridden":
                return accent("warning")
        if role == Qt.ItemDataRole.BackgroundRole and column == VERDICT and row.label is not None:
            return tint(VERDICT_ACCENT.get(_value(row.label), "unclear"), alpha=40)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (NUMBER, CONFIDENCE):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _display(self, row: ClaimRow, column: int) -> str:
        if column == NUMBER:
            return str(row.index + 1)
        if column == CLAIM:
            return " ".join(row.claim.text.split())
        if column == VERDICT:
            if row.label is None:
                return "\u2014"
            missing: tuple[str, ...] = (row.quick.missing if row.quick is not None
                                        and _value(row.label) == _value(row.quick.label) else ())
            return verdict_words(row.label) + (" \u00b7 " + tr("no passage states {quantities}").format(
                quantities=tr(", ").join(missing)) if missing else "")
        if column == CONFIDENCE:
            return f"{row.confidence:.0%}" if row.confidence is not None else ""
        if column == BY:
            return tr(row.by) if row.by else ""
        if column == PASSAGES:
            return key_passages_short(row)
        if column == STATUS:
            return status_words(row, row.index in self.running)
        if column == SIGNOFF:
            return signoff_words(row.signoff)
        return ""

    def _sort_key(self, row: ClaimRow, column: int) -> int | float | str:
        if column == NUMBER:
            return row.index
        if column == VERDICT:
            return VERDICT_ORDER.get(_value(row.label), 9 if verdict_key(row) == "failed" else 8)
        if column == CONFIDENCE:
            return row.confidence if row.confidence is not None else -1.0
        return self._display(row, column).lower()

    def _tooltip(self, row: ClaimRow, column: int) -> str | None:
        if column == CLAIM:
            where = "; ".join(say(loc.describe()) for loc in row.claim.locations)
            return row.claim.text + (f"\n\n{where}" if where else "")
        if column == STATUS and row.problem:
            return say(row.problem)
        if column == VERDICT and row.quick is not None and row.quick.reason:
            return row.quick.reason
        if column == PASSAGES:
            return "\n".join(key_passages(row)) or None
        if column == SIGNOFF and row.signoff is not None:
            note = f"\n{row.signoff.note}" if row.signoff.note else ""
            return f"{signoff_words(row.signoff)}, {row.signoff.when()}{note}"
        return self._display(row, column) or None

    # ---------------------------------------------------------------- records in and out
    def set_rows(self, rows: Iterable[ClaimRow]) -> None:
        self.running = set()
        self._replace_rows(list(rows))

    def update_row(self, row: ClaimRow) -> None:
        if 0 <= row.index < len(self._rows):
            self._rows[row.index] = row
            self.dataChanged.emit(self.index(row.index, 0), self.index(row.index, len(COLUMNS) - 1))

    def set_running(self, running: Iterable[int]) -> None:
        changed = self.running.symmetric_difference(running)
        self.running = set(running)
        for index in changed:
            if 0 <= index < len(self._rows):
                self.dataChanged.emit(self.index(index, STATUS), self.index(index, STATUS))

    def rows(self) -> list[ClaimRow]:
        return list(self._rows)

    def row(self, index: int) -> ClaimRow | None:
        return self._rows[index] if 0 <= index < len(self._rows) else None


class VerdictFilter(QSortFilterProxyModel):
    """The claims of one verdict ('' for all; 'unchecked', 'failed'), sortable by any column."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.verdict = ""
        self.setSortRole(SortRole)
        self.setDynamicSortFilter(True)

    def set_verdict(self, verdict: str) -> None:
        self.verdict = verdict or ""
        self.invalidateFilter()

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:  # noqa: N802
        if not self.verdict:
            return True
        model = self.sourceModel()
        assert isinstance(model, CheckRowsModel)  # the filter is only ever over a check's rows
        row = model.row(source_row)
        return row is not None and verdict_key(row) == self.verdict


CHECK_COLUMNS = (QT_TRANSLATE_NOOP("", "Check"), QT_TRANSLATE_NOOP("", "Status"), QT_TRANSLATE_NOOP("", "Claims"),
                 QT_TRANSLATE_NOOP("", "Done"), QT_TRANSLATE_NOOP("", "Signed off"), QT_TRANSLATE_NOOP("", "Made"))


class ChecksModel(RecordTableModel["CheckSummary"]):
    """Stored checks (CheckSummary), newest first."""

    COLUMNS = CHECK_COLUMNS

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.running_id: str | None = None  # the check whose queue runs now, in this window

    def status_words(self, summary: CheckSummary) -> str:
        """Its status; 'stopped' for one stored as running whose queue is not running here (the app was closed or
        killed while it ran, or it was never started): resuming goes on with it."""
        status = _value(summary.status)
        if status == "running" and summary.id != self.running_id:
            status = "stopped"
        return tr(status)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt's name
                   role: int = Qt.ItemDataRole.DisplayRole) -> str | None:
        return super().headerData(section, orientation, role)

    def cell(self, summary: CheckSummary, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return (summary.title or summary.draft, self.status_words(summary),
                    str(summary.claims), str(summary.done + summary.failed), str(summary.signed),
                    date_time(summary.created_at))[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            return "\n".join(x for x in (summary.draft, say(summary.problem)) if x) or None
        return None

    def set_checks(self, checks: Iterable[CheckSummary]) -> None:
        self._replace_rows(list(checks))

    def check(self, row: int) -> CheckSummary | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None
