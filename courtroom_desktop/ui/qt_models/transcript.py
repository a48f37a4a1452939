"""The live transcript as a one-column model: one item per counsel turn (its text growing token by token), per judge
ruling, per role switch, for the verdict, and for warnings and errors. Built from the engine's events, live or
replayed from the trial store; the transcript view turns each item into a card."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Signal

from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, say, tr
from courtroom_desktop.ui.qt_models import RecordRole, RecordTableModel
from courtroom_desktop.ui.text import said, said_all

if TYPE_CHECKING:
    from courtroom_desktop.core.court.records import RolesSwitched, Ruling, TrialEvent, TrialSpec, Turn, Verdict


@dataclass
class TurnItem:
    index: int
    round: int
    seat: str
    stance: str
    role: str
    text: str = ""
    attempt: int = 0
    status: str = QT_TRANSLATE_NOOP("", "searching the library\u2026")  # shown through tr
    evidence_added: list[str] = field(default_factory=list)
    turn: Turn | None = None            # the core Turn once finished
    interrupted: bool = False           # the trial stopped during this turn; it was redone after resuming
    kind: str = "turn"

    @property
    def finished(self) -> bool:
        return self.turn is not None


@dataclass
class RulingItem:
    ruling: Ruling                      # core Ruling
    kind: str = "ruling"


@dataclass
class SwitchItem:
    switch: RolesSwitched               # core RolesSwitched
    kind: str = "switch"


@dataclass
class VerdictItem:
    verdict: Verdict                    # core Verdict
    kind: str = "verdict"


@dataclass
class NoticeItem:
    level: str                          # info, warning, error
    text: str
    fix: str = ""
    kind: str = "notice"


Item = TurnItem | RulingItem | SwitchItem | VerdictItem | NoticeItem


def summary(item: Item) -> str:
    """One line per item (the view's accessible text; what tests read)."""
    if isinstance(item, TurnItem):
        return f"{item.role} (round {item.round}): {item.text}"
    if isinstance(item, RulingItem):
        r = item.ruling
        return f"Judge (round {r.round}): {r.ruling.tendency.value} {r.ruling.confidence:.2f}"
    if isinstance(item, SwitchItem):
        return f"Sides switched after round {item.switch.round}: {said_all(item.switch.reasons)}"
    if isinstance(item, VerdictItem):
        return f"Verdict: {item.verdict.label.value} {item.verdict.confidence:.2f}"
    return f"{item.level}: {item.text}"


class TranscriptModel(RecordTableModel[Item]):
    sig_rulings_changed = Signal()
    """A ruling or switch was added (the confidence chart redraws)."""

    COLUMNS = ("Transcript",)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.case = "claim"
        self.claim = ""
        self.max_rounds = 0
        self.threshold = 0.0
        self.assignments: dict[str, str] = {"A": "against", "B": "for"}
        self.models: dict[str, str] = {}       # role -> provider:model the trial ran on (the demo-model label)
        self._turn_rows: dict[int, int] = {}   # turn index -> row

    # ---------------------------------------------------------------- Qt
    def cell(self, record: Item, column: int, role: int) -> Any:
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return summary(record)
        return None

    # ---------------------------------------------------------------- events in
    def reset(self, spec: TrialSpec | None = None, events: Iterable[TrialEvent] = ()) -> None:
        """Show a trial from scratch: its spec and the events stored so far (none for a new trial)."""
        self.beginResetModel()
        self._rows, self._turn_rows = [], {}
        self.assignments = {"A": "against", "B": "for"}
        if spec is not None:
            self.case = spec.case.value
            self.claim = spec.claim
            self.models = dict(getattr(spec, "models", None) or {})
            self.max_rounds = int(spec.settings.get("max_rounds", 0) or 0)
            self.threshold = float(spec.settings.get("confidence_threshold", 0) or 0)
        else:
            self.case, self.claim, self.max_rounds, self.threshold = "claim", "", 0, 0.0
            self.models = {}
        for event in events:
            self._apply(event, live=False)
        self.endResetModel()
        self.sig_rulings_changed.emit()

    def apply(self, event: TrialEvent) -> None:
        self._apply(event, live=True)

    def _apply(self, event: TrialEvent, live: bool) -> None:
        if event.kind == "trial_started":
            self.assignments = {k: getattr(v, "value", v) for k, v in event.assignments.items()}
        elif event.kind == "trial_resumed":
            for row_number, shown in enumerate(self._rows):
                if isinstance(shown, TurnItem) and not shown.finished and not shown.interrupted:
                    shown.interrupted = True
                    shown.status = tr("interrupted: redone after resuming")
                    self._changed(row_number, live)
            text = tr("Trial resumed at round {round}").format(round=event.from_round)
            if event.discarded:
                text += tr("; {what} is redone").format(what=event.discarded)
            self._append(NoticeItem("info", text), live)
        elif event.kind == "turn_started":
            item = TurnItem(index=event.index, round=event.round, seat=event.seat.value, stance=event.stance.value,
                            role=event.role, status=tr(TurnItem.status))
            self._append(item, live)
            self._turn_rows[event.index] = len(self._rows) - 1
        elif event.kind == "token":
            row = self._turn_rows.get(event.index)
            if row is not None:
                item = self._turn_at(row)
                if event.attempt != item.attempt:
                    item.attempt, item.text = event.attempt, ""
                item.text += event.text
                item.status = (tr("arguing\u2026") if event.attempt == 0 else
                               tr("arguing again (the first answer was rejected)\u2026"))
                self._changed(row, live)
        elif event.kind == "evidence_added":
            row = self._open_turn_row()
            if row is not None:
                item = self._turn_at(row)
                item.evidence_added.append(event.entry.id)
                n = len(item.evidence_added)
                item.status = (tr("1 new passage found; preparing the argument\u2026") if n == 1 else
                               tr("{count} new passages found; preparing the argument\u2026").format(count=n))
                self._changed(row, live)
        elif event.kind == "turn_finished":
            turn = event.turn
            row = self._turn_rows.get(turn.index)
            if row is None or self._turn_at(row).interrupted:
                self._append(TurnItem(index=turn.index, round=turn.round, seat=turn.seat.value,
                                      stance=turn.stance.value, role=turn.role), live)
                row = len(self._rows) - 1
                self._turn_rows[turn.index] = row
            item = self._turn_at(row)
            item.turn, item.text, item.status = turn, turn.text, ""
            item.evidence_added = list(turn.evidence_added)
            self._changed(row, live)
        elif event.kind == "ruling":
            self._append(RulingItem(event.ruling), live)
            if live:
                self.sig_rulings_changed.emit()
        elif event.kind == "switch":
            self.assignments = {k: getattr(v, "value", v) for k, v in event.assignments.items()}
            self._append(SwitchItem(event), live)
            if live:
                self.sig_rulings_changed.emit()
        elif event.kind == "verdict":
            self._append(VerdictItem(event.verdict), live)
        elif event.kind == "warning":
            self._append(NoticeItem("warning", said(event.reason)), live)
        elif event.kind == "error":
            fix = say(event.fix) + (tr("; then press Resume") if event.resumable else "") if event.fix else (
                tr("press Resume to continue") if event.resumable else "")
            self._append(NoticeItem("error", say(event.message), fix), live)

    def _turn_at(self, row: int) -> TurnItem:
        item = self._rows[row]
        assert isinstance(item, TurnItem)  # the rows of _turn_rows and _open_turn_row are turns'
        return item

    def _open_turn_row(self) -> int | None:
        for row in range(len(self._rows) - 1, -1, -1):
            item = self._rows[row]
            if isinstance(item, TurnItem):
                return None if item.finished or item.interrupted else row
        return None

    def _append(self, item: Item, live: bool) -> None:
        if live:
            self._append_row(item)
        else:  # replayed inside a model reset
            self._rows.append(item)

    def _changed(self, row: int, live: bool) -> None:
        if live:
            index = self.index(row, 0)
            self.dataChanged.emit(index, index, [RecordRole, Qt.ItemDataRole.DisplayRole])

    # ---------------------------------------------------------------- records out
    def item(self, row: int) -> Item:
        return self._rows[row]

    def items(self) -> list[Item]:
        return list(self._rows)

    def rulings(self) -> list[Ruling]:
        return [i.ruling for i in self._rows if isinstance(i, RulingItem)]

    def switch_rounds(self) -> list[int]:
        return [i.switch.round for i in self._rows if isinstance(i, SwitchItem)]

    def verdict(self) -> Verdict | None:
        return next((i.verdict for i in self._rows if isinstance(i, VerdictItem)), None)
