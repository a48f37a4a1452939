"""The prompt viewer: the model calls behind one card of the transcript (a counsel's turn, a ruling, the verdict),
each with the exact prompt the model saw (every message, the schema's instruction and a retry's correction included)
and its raw answer, before any parsing or check. Read from the trial store, where the calls are kept on this computer
only; no report includes them unless asked (``courtroom export --with-prompts``)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.controls import named
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from courtroom_desktop.ui.window_layout import fit_to_screen

if TYPE_CHECKING:
    from courtroom_desktop.core.records import ModelCall
    from courtroom_desktop.ui.qt_models.transcript import TranscriptModel

#: What a call asked for, by its schema (shown through tr)
WHAT = {"SearchPlan": QT_TRANSLATE_NOOP("", "Search queries"), "Argument": QT_TRANSLATE_NOOP("", "Argument"),
        "": QT_TRANSLATE_NOOP("", "Argument"),
        "EvidenceAssessment": QT_TRANSLATE_NOOP("", "Assessment of the new passages"),
        "JudgeRuling": QT_TRANSLATE_NOOP("", "Ruling"), "VerdictDraft": QT_TRANSLATE_NOOP("", "Verdict"),
        "DecisionDraft": QT_TRANSLATE_NOOP("", "Verdict")}
#: The role whose model answered (core.records.ModelCall.role), shown through tr
ROLES = {"prosecution": QT_TRANSLATE_NOOP("", "prosecution"), "defense": QT_TRANSLATE_NOOP("", "defense"),
         "judge": QT_TRANSLATE_NOOP("", "judge")}
PRIVACY = QT_TRANSLATE_NOOP("", "Kept with the trial on this computer only, and left out of every report and export "
                                "unless asked (courtroom export --with-prompts).")


def call_label(calls: Sequence[ModelCall], position: int) -> str:
    """'2. Argument, again (the first was rejected) · defense · 1,820 → 210 tokens' and the like."""
    call = calls[position]
    what = tr(WHAT[call.schema_name]) if call.schema_name in WHAT else call.schema_name or tr("Free text")
    earlier = [c for c in calls[:position] if c.schema_name == call.schema_name]
    if earlier:
        retry = call.messages and "was not valid" in call.messages[-1].get("content", "")
        what += tr(", retried (the answer was not valid JSON)") if retry else tr(", again (the first was rejected)")
    usage = call.usage
    role = tr(ROLES[call.role]) if call.role in ROLES else call.role
    tokens = tr("{tokens_in} \u2192 {tokens_out} tokens").format(tokens_in=f"{usage.tokens_in:,}",
                                                                 tokens_out=f"{usage.tokens_out:,}")
    return f"{position + 1}. {what} \u00b7 {role} \u00b7 {tokens}"


def prompt_text(call: ModelCall) -> str:
    """Every message of the call, as the model saw it, under its role."""
    return "\n\n".join(f"\u2500\u2500 {m.get('role', '')} \u2500\u2500\n{m.get('content', '')}" for m in call.messages)


class PromptViewer(QDialog):
    def __init__(self, title: str, calls: Sequence[ModelCall], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("promptViewer")
        self.setWindowTitle(title)
        self.calls = list(calls)
        heading = QLabel(f"<b>{html.escape(title)}</b><br><small>{tr(PRIVACY)}</small>")
        heading.setWordWrap(True)
        self.list = QListWidget()
        self.list.setObjectName("promptCalls")
        named(self.list, tr("Model calls"))
        fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.prompt = QPlainTextEdit()
        self.prompt.setTabChangesFocus(True)
        self.prompt.setObjectName("promptText")
        self.answer = QPlainTextEdit()
        self.answer.setTabChangesFocus(True)
        self.answer.setObjectName("rawAnswer")
        for box in (self.prompt, self.answer):
            box.setReadOnly(True)
            box.setFont(fixed)
            box.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        texts = QSplitter(Qt.Orientation.Vertical)
        for label, box in ((tr("The exact prompt"), self.prompt), (tr("The raw answer"), self.answer)):
            pane = QWidget()
            column = QVBoxLayout(pane)
            column.setContentsMargins(0, 0, 0, 0)
            column.addWidget(QLabel(f"<b>{label}</b>"))
            column.addWidget(named(box, label))
            texts.addWidget(pane)
        texts.setStretchFactor(0, 3)
        texts.setStretchFactor(1, 1)
        body = QSplitter(Qt.Orientation.Horizontal)
        body.addWidget(self.list)
        body.addWidget(texts)
        body.setStretchFactor(1, 3)
        body.setSizes([340, 860])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(body, 1)
        layout.addWidget(buttons)
        self.list.currentRowChanged.connect(self.show_call)
        for position in range(len(self.calls)):
            self.list.addItem(call_label(self.calls, position))
        if self.calls:
            self.list.setCurrentRow(len(self.calls) - 1)  # the call whose answer the card shows
        else:
            self.prompt.setPlainText(tr("No model call was kept for this card: the trial ran before prompts were "
                                        "kept, or the call was still under way."))
        fit_to_screen(self, 980, 640)

    def show_call(self, position: int) -> None:
        if 0 <= position < len(self.calls):
            call = self.calls[position]
            self.prompt.setPlainText(prompt_text(call))
            self.answer.setPlainText(call.answer)


def title_of(step: str, number: int, transcript: TranscriptModel) -> str:
    """The viewer's title for a card: whose turn, which ruling, the verdict."""
    from courtroom_desktop.ui.qt_models.transcript import TurnItem

    if step == "turn":
        item = next((i for i in transcript.items()
                     if getattr(i, "kind", "") == "turn" and isinstance(i, TurnItem) and i.index == number), None)
        if item is None:
            return tr("The prompts of turn {number}").format(number=number + 1)
        return tr("The prompts of turn {number} ({role}, round {round})").format(number=number + 1,
                                                                                 role=tr(item.role), round=item.round)
    if step == "ruling":
        return tr("The prompts of the judge's ruling after round {round}").format(round=number)
    return tr("The prompts of the verdict")
