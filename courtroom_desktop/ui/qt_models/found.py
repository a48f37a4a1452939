"""The models found on this computer's model servers (core.llm.discover.FoundModel), as a table for the settings
dialog's "Find models on this computer"; the rows the proposal assigns say to which roles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt

from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP
from courtroom_desktop.ui.qt_models import RecordTableModel

if TYPE_CHECKING:
    from courtroom_desktop.core.services.models import FoundModel, Proposal

COLUMNS = (QT_TRANSLATE_NOOP("", "Server"), QT_TRANSLATE_NOOP("", "Model"), QT_TRANSLATE_NOOP("", "Size"),
           QT_TRANSLATE_NOOP("", "Parameters"), QT_TRANSLATE_NOOP("", "Family"),
           QT_TRANSLATE_NOOP("", "Quantisation"), QT_TRANSLATE_NOOP("", "Context"),
           QT_TRANSLATE_NOOP("", "Proposed for"))


class FoundModelsModel(RecordTableModel["FoundModel"]):
    COLUMNS = COLUMNS

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._roles: dict[int, str] = {}   # id(FoundModel) -> "judge" / "prosecution, defense"

    def set_found(self, models: Sequence[FoundModel], proposal: Proposal | None = None) -> None:
        self._roles = {}
        if proposal is not None:
            counsel = "prosecution, defense"
            if proposal.judge is proposal.counsel:
                self._roles[id(proposal.judge)] = f"judge, {counsel}"
            else:
                self._roles[id(proposal.judge)] = "judge"
                self._roles[id(proposal.counsel)] = counsel
        self._replace_rows(models)

    def cell(self, m: FoundModel, column: int, role: int) -> Any:
        from courtroom_desktop.core.services.models import context_words, human_bytes

        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if column == 0:
                return m.server if role == Qt.ItemDataRole.DisplayRole else m.base_url or m.server
            if column == 1:
                mark = " (embedding)" if m.embedding else " (base model)" if m.chat is False else ""
                return m.name + mark
            if column == 2:
                return human_bytes(m.size_bytes)
            if column == 3:
                return m.parameter_label or (f"{m.parameters_b:.1f}B" if m.parameters_b else "")
            if column == 4:
                return m.family
            if column == 5:
                return m.quantization
            if column == 6:
                return context_words(m.context_length) if m.context_length else ""
            return self._roles.get(id(m), "")
        if role == Qt.ItemDataRole.FontRole and id(m) in self._roles:
            from PySide6.QtGui import QFont

            font = QFont()
            font.setBold(True)
            return font
        return None
