"""The doctor's checks (core.llm.doctor.DoctorRow) as a table, for the settings dialog's Test button: setup checks
(ok, FAILED, skipped), the probes (pass, miss) and each role's rating (good, usable, demo only)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt

from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, say, tr
from courtroom_desktop.ui.qt_models import RecordTableModel
from courtroom_desktop.ui.theme import accent

if TYPE_CHECKING:
    from courtroom_desktop.core.services.models import DoctorRow

COLUMNS = (QT_TRANSLATE_NOOP("", "Role"), QT_TRANSLATE_NOOP("", "Check"), QT_TRANSLATE_NOOP("", "Result"),
           QT_TRANSLATE_NOOP("", "Detail"), QT_TRANSLATE_NOOP("", "Fix"))
ROLE, CHECK, RESULT, DETAIL, FIX = range(len(COLUMNS))
RESULT_WORDS = {True: QT_TRANSLATE_NOOP("", "ok"), False: QT_TRANSLATE_NOOP("", "FAILED"),
                None: QT_TRANSLATE_NOOP("", "skipped")}
#: The doctor's own words for its checks, probes and results (core.llm.doctor: CHECKS, PROBES, RATINGS), for lupdate.
DOCTOR_WORDS = (
    QT_TRANSLATE_NOOP("", "settings"), QT_TRANSLATE_NOOP("", "context"), QT_TRANSLATE_NOOP("", "server"),
    QT_TRANSLATE_NOOP("", "model"), QT_TRANSLATE_NOOP("", "one-token call"), QT_TRANSLATE_NOOP("", "structured call"),
    QT_TRANSLATE_NOOP("", "probe: JSON"), QT_TRANSLATE_NOOP("", "probe: citations"),
    QT_TRANSLATE_NOOP("", "probe: known answer"), QT_TRANSLATE_NOOP("", "rating"),
    QT_TRANSLATE_NOOP("", "pass"), QT_TRANSLATE_NOOP("", "miss"), QT_TRANSLATE_NOOP("", "good"),
    QT_TRANSLATE_NOOP("", "usable"), QT_TRANSLATE_NOOP("", "demo only"), QT_TRANSLATE_NOOP("", "not rated"),
)


class DoctorModel(RecordTableModel["DoctorRow"]):
    COLUMNS = COLUMNS

    def cell(self, row: DoctorRow, column: int, role: int) -> Any:
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if column == ROLE:
                return tr(row.role) if role == Qt.ItemDataRole.DisplayRole else (
                    f"{tr(row.role)}: {row.provider}, {row.model}")
            result = getattr(row, "result", "") or RESULT_WORDS[row.ok]
            return {CHECK: tr(row.check), RESULT: tr(result), DETAIL: say(row.detail), FIX: say(row.fix)}[column]
        if role == Qt.ItemDataRole.ForegroundRole and column == RESULT:
            missed = "warning" if getattr(row, "kind", "check") != "check" else "error"
            return accent({True: "ok", False: missed, None: "unclear"}[row.ok])
        return None

    def ratings(self) -> dict[str, str]:
        """role -> the rating its probes earned."""
        return {r.role: r.result for r in self._rows if getattr(r, "kind", "") == "rating"}

    def set_rows(self, rows: Sequence[DoctorRow]) -> None:
        self._replace_rows(rows)

    def failed(self) -> bool:
        return any(r.ok is False and getattr(r, "kind", "check") == "check" for r in self._rows)
