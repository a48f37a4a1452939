"""Navigating a trial's record, over the transcript: a round selector (jump to round N), folding the rounds
(all but the last, or none; each card folds its own round too), the coverage panel, and the prompt viewer that a
card's 'Prompt…' link opens. The records are read in a thread by the trial controller; this bar only shows them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QComboBox, QLabel, QWidget

from courtroom_desktop.ui.controls import push_button
from courtroom_desktop.ui.controls.flow import FlowLayout
from courtroom_desktop.ui.dialogs.prompt_viewer import PromptViewer, title_of
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from courtroom_desktop.ui.qt_models.transcript import TranscriptModel
from courtroom_desktop.ui.widgets.coverage_panel import CoveragePanel, TrialCoverage
from courtroom_desktop.ui.widgets.transcript import TranscriptView

if TYPE_CHECKING:
    from courtroom_desktop.core.records import ModelCall
    from courtroom_desktop.ui.controllers.trial import TrialController

ALL_ROUNDS = QT_TRANSLATE_NOOP("", "Jump to round\u2026")


class RecordBar(QWidget):
    def __init__(self, controller: TrialController, transcript: TranscriptModel, view: TranscriptView,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("recordBar")
        self.controller = controller
        self.transcript = transcript
        self.view = view
        self.prompt_viewer: PromptViewer | None = None
        self.coverage_panel: CoveragePanel | None = None
        self.rounds = QComboBox()
        self.rounds.setObjectName("roundSelector")
        self.rounds.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)  # its words, in any language
        self.rounds.setToolTip(tr("Show a round of the transcript from its first card"))
        self.rounds.activated.connect(self._on_round_chosen)
        self.fold_button = push_button(tr("Fold earlier rounds"), tr("Show every round but the last on one line a card "
                                       "(each card's 'Unfold round' link opens its round again)"), self.fold_earlier,
                                       name="foldButton")
        self.unfold_button = push_button(tr("Unfold all"), tr("Show every round in full"), self.unfold_all,
                                         name="unfoldButton")
        self.coverage_button = push_button(tr("Coverage\u2026"), tr("Which documents the searches reached, which passages "
                                           "were admitted or turned away and why, which documents were never "
                                           "retrieved"), controller.show_coverage, name="coverageButton")
        row = FlowLayout(self)  # wraps on a narrow window
        for widget in (QLabel(tr("Record:")), self.rounds, self.fold_button, self.unfold_button, self.coverage_button):
            row.addWidget(widget)
        transcript.rowsInserted.connect(self._refresh)
        transcript.modelReset.connect(self._on_reset)
        view.sig_folded.connect(self._refresh)
        view.sig_prompt.connect(controller.show_calls)
        controller.sig_calls.connect(self.show_calls)
        controller.sig_coverage.connect(self.show_coverage)
        controller.sig_state.connect(self._refresh)
        self._refresh()

    # ---------------------------------------------------------------- rounds
    def _on_reset(self) -> None:
        self.view.folded = set()  # another trial (or a new one): nothing folded
        self._refresh()

    def _refresh(self, *args: object) -> None:
        rounds = self.view.rounds()
        shown = [self.rounds.itemData(i) for i in range(1, self.rounds.count())]
        if shown != rounds or self.rounds.count() == 0:
            self.rounds.blockSignals(True)
            self.rounds.clear()
            self.rounds.addItem(tr(ALL_ROUNDS), None)
            for number in rounds:
                self.rounds.addItem(tr("Round {round}").format(round=number), number)
            self.rounds.blockSignals(False)
        self.rounds.setEnabled(bool(rounds))
        self.fold_button.setEnabled(len(rounds) > 1 and not set(rounds[:-1]) <= self.view.folded)
        self.unfold_button.setEnabled(bool(self.view.folded))
        self.coverage_button.setEnabled(bool(self.controller.trial_id))

    def _on_round_chosen(self, index: int) -> None:
        number = self.rounds.itemData(index)
        if number is not None:
            self.jump_to(int(number))
        self.rounds.setCurrentIndex(0)

    def jump_to(self, number: int) -> None:
        self.view.scroll_to_round(number)

    def fold_earlier(self) -> None:
        self.view.set_folded(self.view.rounds()[:-1], True)

    def unfold_all(self) -> None:
        self.view.set_folded(list(self.view.folded), False)

    # ---------------------------------------------------------------- the record's dialogs
    def show_calls(self, step: str, number: int, calls: list[ModelCall]) -> None:
        if self.prompt_viewer is not None:
            self.prompt_viewer.close()
        self.prompt_viewer = PromptViewer(title_of(step, number, self.transcript), calls, self.window())
        self.prompt_viewer.show()

    def show_coverage(self, coverage: TrialCoverage) -> None:
        if self.coverage_panel is not None:
            self.coverage_panel.close()
        self.coverage_panel = CoveragePanel(coverage, self.transcript.claim, self.window())
        self.coverage_panel.show()
