"""The trial's evidence pool as a table: each passage with what it says about the claim (its stance as the claim
verifier scored it, and beside it the judge's model's reading where that differs; never the side that found it),
its level in the evidence hierarchy, where it sits, when, by whom and by which query it was found, and who cited it
(both sides marked)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QLocale, QObject, Qt

from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from courtroom_desktop.ui.qt_models import RecordTableModel
from courtroom_desktop.ui.text import NOTICE_WORDS, assessed_words, clock, pages_label
from courtroom_desktop.ui.theme import accent

if TYPE_CHECKING:
    from courtroom_desktop.core.court.records import Assessment, CaseType, PoolEntry, Turn
    from courtroom_desktop.core.records import VerifierReading

COLUMNS = (QT_TRANSLATE_NOOP("", "ID"), QT_TRANSLATE_NOOP("", "Stance"), QT_TRANSLATE_NOOP("", "Level"),
           QT_TRANSLATE_NOOP("", "Document"), QT_TRANSLATE_NOOP("", "Page"), QT_TRANSLATE_NOOP("", "Found"),
           QT_TRANSLATE_NOOP("", "Query"), QT_TRANSLATE_NOOP("", "Cited by"))
ID, STANCE, LEVEL, DOCUMENT, PAGE, FOUND, QUERY, CITED = range(len(COLUMNS))
STANCE_ACCENT = {"supports": "for", "refutes": "against"}
#: Assessed stances (core.court.records), for lupdate: shown through tr
STANCES = (QT_TRANSLATE_NOOP("", "supports"), QT_TRANSLATE_NOOP("", "refutes"), QT_TRANSLATE_NOOP("", "mixed"),
           QT_TRANSLATE_NOOP("", "irrelevant"), QT_TRANSLATE_NOOP("", "for"), QT_TRANSLATE_NOOP("", "against"),
           QT_TRANSLATE_NOOP("", "neither"))
STANCE_OF_READING = {"supports": "supports", "refutes": "refutes", "neither": "irrelevant"}


class Finding(Protocol):
    @property
    def citations(self) -> Sequence[str]: ...


class Cited(Protocol):
    """What cites the pool's passages in the end: a Verdict's findings (or a quick check's citations, as findings)."""

    @property
    def findings(self) -> Sequence[Finding]: ...


class EvidenceModel(RecordTableModel["PoolEntry"]):
    """PoolEntry rows in order of entry (E1, E2, ...)."""

    COLUMNS = COLUMNS

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.case: str = "claim"
        self._cited: dict[str, list[tuple[str, int] | str]] = {}  # evidence id -> [("Prosecution", 1), ..., "verdict"]
        self._sides: dict[str, set[str]] = {}      # evidence id -> stances of the counsel who cited it
        self._assessed: dict[str, Assessment] = {}  # evidence id -> Assessment

    def cell(self, entry: PoolEntry, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole and column == DOCUMENT and entry.evidence.doc_notice is not None:
            return accent("error") if entry.evidence.retracted else accent("warning")
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(entry, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == DOCUMENT:
                chunk = entry.evidence.chunk
                return f"{entry.evidence.doc_title}\n{chunk.section_path}\n{entry.evidence.doc_path}".strip()
            if column == FOUND:
                return tr("{who} found it in round {round} at {time} (novelty {novelty})").format(
                    who=self._finder(entry), round=entry.round, time=clock(entry.at),
                    novelty=QLocale().toString(entry.novelty, "f", 2))
            if column == QUERY:
                return "\n".join(entry.evidence.queries or (entry.query,))
            if column == ID and entry.injection:
                return tr("This passage reads like instructions to a model: it is treated as a quotation only.")
            if column == STANCE:
                return self._stance_tip(entry)
            return self._display(entry, column) or None
        if role == Qt.ItemDataRole.ForegroundRole and column == STANCE:
            if self.disagree(entry):
                return accent("warning")
            stance = self._stance(entry)
            return accent(STANCE_ACCENT.get(stance, "unclear")) if stance else None
        if role == Qt.ItemDataRole.ForegroundRole and column == ID and entry.injection:
            return accent("warning")
        return None

    def _finder(self, entry: PoolEntry) -> str:
        from courtroom_desktop.core.court.records import CaseType, role_name  # lazily: core.court loads its engine

        if entry.found_by == "judge":
            return tr("Judge")
        if entry.stance is not None:
            return tr(role_name(CaseType(self.case), entry.stance))
        return tr("Counsel {seat}").format(seat=entry.found_by)

    def _display(self, entry: PoolEntry, column: int) -> str:
        chunk = entry.evidence.chunk
        if column == ID:
            return entry.id + (" \u26a0" if entry.injection else "")
        if column == STANCE:
            return self._stance_words(entry)
        if column == LEVEL:
            return tr(entry.level)
        if column == DOCUMENT:
            title = entry.evidence.doc_title or entry.evidence.doc_path.rsplit("/", 1)[-1]
            notice = entry.evidence.doc_notice
            if notice is not None:  # a retracted, corrected or concerned work says so wherever it is shown
                title += f" [{tr(NOTICE_WORDS[notice.kind])}]"
            return f"{title} \u2014 {chunk.section_title}" if chunk.section_title else title
        if column == PAGE:
            return pages_label(chunk)
        if column == FOUND:
            return tr("round {round}, {who}, {time}").format(round=entry.round, who=self._finder(entry),
                                                             time=clock(entry.at))
        if column == QUERY:
            return entry.query
        if column == CITED:
            both = tr("both sides \u00b7 ") if len(self._sides.get(entry.id, ())) > 1 else ""
            return both + tr(", ").join(self.cited_by(entry.id))
        return ""

    # ---------------------------------------------------------------- the stance: the verifier's, the judge's beside it
    def _stance(self, entry: PoolEntry) -> str | None:
        """The stance shown first: the verifier's reading as an assessed stance, else the judge's model's."""
        reading: VerifierReading | None = getattr(entry, "verifier", None)
        if reading is not None:
            return STANCE_OF_READING[reading.shown[0]]
        assessed = self._assessed.get(entry.id)
        return assessed.stance.value if assessed is not None else None

    def disagree(self, entry: PoolEntry) -> bool:
        """The verifier and the judge's model read the passage differently."""
        reading: VerifierReading | None = getattr(entry, "verifier", None)
        assessed = self._assessed.get(entry.id)
        return reading is not None and assessed is not None and reading.agrees_with(assessed.stance.value) is False

    def _stance_words(self, entry: PoolEntry) -> str:
        reading: VerifierReading | None = getattr(entry, "verifier", None)
        assessed = self._assessed.get(entry.id)
        if reading is None:
            return tr(assessed_words(self.case, assessed.stance.value)) if assessed is not None else "\u2014"
        stance, probability = reading.shown
        shown = tr(assessed_words(self.case, STANCE_OF_READING[stance])) + " " + QLocale().toString(probability, "f", 2)
        if assessed is not None and self.disagree(entry):  # (they disagree only where the judge's model assessed it)
            shown += " \u00b7 " + tr("judge: {stance}").format(stance=tr(assessed_words(self.case,
                                                                                        assessed.stance.value)))
        return shown

    def _stance_tip(self, entry: PoolEntry) -> str:
        reading: VerifierReading | None = getattr(entry, "verifier", None)
        assessed = self._assessed.get(entry.id)
        lines: list[str] = []
        if reading is not None:
            lines.append(tr("The claim verifier's reading: supports {s}, refutes {r}, neither {n} (calibrated "
                            "probabilities)").format(s=QLocale().toString(reading.supports, "f", 2),
                                                     r=QLocale().toString(reading.refutes, "f", 2),
                                                     n=QLocale().toString(reading.neither, "f", 2)))
        if assessed is not None:
            lines.append(tr("What the passage says, as the judge's model assessed it: {stance} (relevance "
                            "{relevance})").format(stance=tr(assessed.stance.value),
                                                    relevance=QLocale().toString(assessed.relevance, "f", 2)))
        elif reading is None:
            lines.append(tr("Not assessed yet (the judge assesses new passages after each round)"))
        if self.disagree(entry):
            lines.append(tr("The verifier and the judge's model disagree: both readings are kept."))
        lines.append(tr("Found by {who}").format(who=self._finder(entry)))
        return "\n".join(lines)

    # ---------------------------------------------------------------- records in
    def reset(self, case: CaseType | str = "claim", pool: Iterable[PoolEntry] = (), turns: Iterable[Turn] = (),
              verdict: Cited | None = None, assessments: Iterable[Assessment] = ()) -> None:
        self.beginResetModel()
        self.case = getattr(case, "value", case)
        self._rows = list(pool)
        self._cited, self._sides = {}, {}
        self._assessed = {a.evidence_id: a for a in assessments}
        for turn in turns:
            self._note_turn(turn)
        if verdict is not None:
            self._note_verdict(verdict)
        self.endResetModel()

    def add(self, entry: PoolEntry) -> None:
        if any(e.id == entry.id for e in self._rows):
            return
        self._append_row(entry)

    def note_turn(self, turn: Turn) -> None:
        for evidence_id in self._note_turn(turn):
            self._changed(evidence_id)

    def note_assessed(self, assessments: Iterable[Assessment]) -> None:
        for assessment in assessments:
            self._assessed[assessment.evidence_id] = assessment
            row = self.row_of(assessment.evidence_id)
            if row >= 0:
                self.dataChanged.emit(self.index(row, STANCE), self.index(row, STANCE))

    def note_verdict(self, verdict: Cited) -> None:
        for evidence_id in self._note_verdict(verdict):
            self._changed(evidence_id)

    def _note_turn(self, turn: Turn) -> list[str]:
        who = (turn.role, turn.round)  # shown through cited_by, in the window's language
        changed: list[str] = []
        for citation in turn.citations:
            if citation.valid:
                self._sides.setdefault(citation.evidence_id, set()).add(getattr(turn.stance, "value", turn.stance))
                names = self._cited.setdefault(citation.evidence_id, [])
                if who not in names:
                    names.append(who)
                    changed.append(citation.evidence_id)
        return changed

    def _note_verdict(self, verdict: Cited) -> list[str]:
        changed: list[str] = []
        for finding in verdict.findings:
            for evidence_id in finding.citations:
                names = self._cited.setdefault(evidence_id, [])
                if "verdict" not in names:
                    names.append("verdict")
                    changed.append(evidence_id)
        return changed

    def _changed(self, evidence_id: str) -> None:
        row = self.row_of(evidence_id)
        if row >= 0:
            self.dataChanged.emit(self.index(row, CITED), self.index(row, CITED))

    # ---------------------------------------------------------------- records out
    def row_of(self, evidence_id: str) -> int:
        return next((i for i, e in enumerate(self._rows) if e.id == evidence_id), -1)

    def entry(self, evidence_id: str) -> PoolEntry | None:
        row = self.row_of(evidence_id)
        return self._rows[row] if row >= 0 else None

    def entries(self) -> list[PoolEntry]:
        return list(self._rows)

    def cited_by(self, evidence_id: str) -> list[str]:
        """Who cited the passage, in words: 'Prosecution (round 1)', ..., 'verdict'."""
        return [tr("verdict") if who == "verdict" else tr("{role} (round {round})").format(role=tr(who[0]), round=who[1])
                for who in self._cited.get(evidence_id, [])]
