"""The trial history as a table over the trial store's summaries."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt

from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from courtroom_desktop.ui.qt_models import RecordTableModel
from courtroom_desktop.ui.text import VERDICT_WORDS, date_time
from courtroom_desktop.ui.theme import accent

if TYPE_CHECKING:
    from courtroom_desktop.core.services.trials import TrialSummary

COLUMNS = (QT_TRANSLATE_NOOP("", "Claim or decision"), QT_TRANSLATE_NOOP("", "Case"),
           QT_TRANSLATE_NOOP("", "Status"), QT_TRANSLATE_NOOP("", "Verdict"), QT_TRANSLATE_NOOP("", "Confidence"),
           QT_TRANSLATE_NOOP("", "Started"), QT_TRANSLATE_NOOP("", "Events"))
CLAIM, CASE, STATUS, VERDICT, CONFIDENCE, STARTED, EVENTS = range(len(COLUMNS))
# what the store records (core.court.records.CaseType; TrialStore statuses) -> the words shown, through tr
CASE_WORDS = {"claim": QT_TRANSLATE_NOOP("", "Claim"), "decision": QT_TRANSLATE_NOOP("", "Decision")}
STATUS_WORDS = {"running": QT_TRANSLATE_NOOP("", "Running"), "paused": QT_TRANSLATE_NOOP("", "Paused"),
                "finished": QT_TRANSLATE_NOOP("", "Finished"), "stopped": QT_TRANSLATE_NOOP("", "Stopped"),
                "cancelled": QT_TRANSLATE_NOOP("", "Cancelled")}


class TrialsModel(RecordTableModel["TrialSummary"]):
    """TrialSummary rows, newest first."""

    COLUMNS = COLUMNS

    def cell(self, trial: TrialSummary, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if column == CLAIM:
                return trial.claim
            if column == CASE:
                return tr(CASE_WORDS.get(trial.case_type, trial.case_type))
            if column == STATUS:
                return tr(STATUS_WORDS.get(trial.status, trial.status))
            if column == VERDICT:
                return tr(VERDICT_WORDS.get(trial.label or "", trial.label or ""))
            if column == CONFIDENCE:
                return "" if trial.confidence is None else f"{trial.confidence:.0%}"
            if column == STARTED:
                return date_time(trial.created_at)
            if column == EVENTS:
                return str(trial.events)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{trial.claim}\n{trial.id}" if column == CLAIM else None
        if role == Qt.ItemDataRole.ForegroundRole and column == VERDICT and trial.label:
            return accent({"supported": "support", "refuted": "refute"}.get(trial.label, "unclear"))
        return None

    def set_trials(self, trials: Iterable[TrialSummary]) -> None:
        self._replace_rows(sorted(trials, key=lambda t: t.created_at, reverse=True))

    def trial(self, row: int) -> TrialSummary:
        return self._rows[row]

    def row_of(self, trial_id: str) -> int:
        return next((i for i, t in enumerate(self._rows) if t.id == trial_id), -1)
