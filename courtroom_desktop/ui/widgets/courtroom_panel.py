"""The courtroom: the claim (or decision), its case type and document scope, Start / Stop / Resume, the live
transcript and the chart of the judge's confidence per round; a small banner while the bundled demo model is in use."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QLocale, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.announce import announce
from courtroom_desktop.ui.controllers.trial import FINISHED, IDLE, PAUSED, RUNNING, STARTING, STOPPED
from courtroom_desktop.ui.controls import named, push_button
from courtroom_desktop.ui.controls.flow import FlowLayout
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, say, tr
from courtroom_desktop.ui.qt_models.checks import verdict_words
from courtroom_desktop.ui.qt_models.transcript import TranscriptModel
from courtroom_desktop.ui.theme import accent, palette_watcher, tint
from courtroom_desktop.ui.widgets.chart import ConfidenceChart
from courtroom_desktop.ui.widgets.record_bar import RecordBar
from courtroom_desktop.ui.widgets.transcript import Lookup, TranscriptView

if TYPE_CHECKING:
    from courtroom_desktop.core.court.records import TrialEvent, TrialSpec
    from courtroom_desktop.core.services.models import TextServer
    from courtroom_desktop.core.services.trials import DecisionSpec
    from courtroom_desktop.ui.controllers.trial import TrialController
    from courtroom_desktop.ui.dialogs.decision import DecisionDialog

CASES = (("claim", QT_TRANSLATE_NOOP("", "Claim: is it true?")),
         ("decision", QT_TRANSLATE_NOOP("", "Decision: should I do it?")))
STATE_WORDS = {IDLE: "", STARTING: QT_TRANSLATE_NOOP("", "Preparing the court\u2026"),
               RUNNING: QT_TRANSLATE_NOOP("", "In session"),
               STOPPED: QT_TRANSLATE_NOOP("", "Stopped: Resume continues"),
               PAUSED: QT_TRANSLATE_NOOP("", "Paused by an error: fix it, then Resume"),
               FINISHED: QT_TRANSLATE_NOOP("", "Verdict reached")}
DEMO_NOTE_SOURCE = QT_TRANSLATE_NOOP("", "demo model: try the app, do not rely on this verdict")  # core.llm.demo
#: The sides' names as core.court.records.role_name gives them, for lupdate (shown through tr)
ROLE_NAMES = (QT_TRANSLATE_NOOP("", "Prosecution"), QT_TRANSLATE_NOOP("", "Defense"),
              QT_TRANSLATE_NOOP("", "Counsel for"), QT_TRANSLATE_NOOP("", "Counsel against"))


class CourtroomPanel(QWidget):
    sig_citation = Signal(str)
    """An evidence id whose citation was activated in the transcript."""
    sig_scope_requested = Signal()
    """The user wants to choose the documents in scope."""
    sig_try_samples = Signal()
    """The first-run button: add the sample library and start a trial on a suggested claim."""
    sig_try_decision = Signal()
    """The first-run button: add the sample decision's notes and start it as a decision trial."""
    sig_setup_models = Signal()
    """The demo banner's link: open the model setup (Settings, Models tab)."""

    def __init__(self, controller: TrialController, transcript: TranscriptModel, lookup: Lookup = lambda _id: None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.transcript = transcript
        self.scope_documents: list[str] = []     # doc ids; empty: the whole library
        self.decision: DecisionSpec | None = None  # options, criteria, constraints (a decision case)
        self.background = ""                     # what every role reads about the case, as data
        self.scope_titles: list[str] = []
        self.scope_sections: list[str] = []
        self.status_detail = ""
        self.title_of: Callable[[str], str] = lambda doc_id: f"document {doc_id[:8]}"

        self.claim = QComboBox()
        self.claim.setObjectName("claimInput")
        self.claim.setEditable(True)
        self.claim.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self._claim_edit().setPlaceholderText(tr("A claim to verify, or a decision to weigh\u2026"))
        self._claim_edit().setClearButtonEnabled(True)
        named(self.claim, tr("Claim or decision"))
        for clear in self._claim_edit().findChildren(QToolButton):  # the field's clear button: Qt leaves it unnamed
            named(clear, tr("Clear the claim"))
        self.claim.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.claim.setMinimumContentsLength(20)
        self.claim.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.claim.setToolTip(tr("Type a claim, or pick a suggested one"))
        self.claim.editTextChanged.connect(self._update_buttons)
        self._claim_edit().returnPressed.connect(self.start)
        self.case = QComboBox()
        self.case.setObjectName("caseInput")
        for value, label in CASES:
            self.case.addItem(tr(label), value)
        self.scope_button = push_button(tr("Scope: all documents"), tr("Choose the documents (and sections) the evidence may come "
                                        "from"), self.sig_scope_requested, name="scopeButton")
        self.details_button = push_button(tr("Background\u2026"), "", self.edit_details, name="detailsButton")
        self.case.currentIndexChanged.connect(self._show_details)
        self.start_button = push_button(tr("Start"), tr("Start the trial (Ctrl+Return)"), self.start, name="startButton")
        self.stop_button = push_button(tr("Stop"), tr("Stop the trial; it can be resumed later (Ctrl+.)"), controller.stop,
                                       name="stopButton")
        self.resume_button = push_button(tr("Resume"), tr("Continue a stopped or paused trial from its last complete turn "
                                         "(Ctrl+Shift+R)"), self.resume, name="resumeButton")
        self.new_button = push_button(tr("New"), tr("Clear the courtroom for a new trial (Ctrl+N)"), self.new_trial)

        self.welcome = QFrame()
        self.welcome.setObjectName("welcome")
        welcome = QVBoxLayout(self.welcome)  # the text over its buttons: short on a narrow window too
        welcome.setContentsMargins(10, 6, 10, 6)
        welcome.setSpacing(4)
        self.welcome_text = QLabel(tr("<b>New here?</b> Put a suggested claim on trial against six short medical "
                                   "articles, or weigh a sample decision from four notes. Both run on the bundled "
                                   "model, with no setup."))
        self.welcome_text.setWordWrap(True)
        self.try_button = push_button(tr("Try the sample library"), slot=self.sig_try_samples, name="tryButton")
        self.try_decision_button = push_button(
            tr("Try a sample decision"), tr("Where to live next year: three options weighed on four criteria from four notes "
            "(a decision trial)"), self.sig_try_decision, name="tryDecisionButton")
        welcome.addWidget(self.welcome_text)
        buttons = FlowLayout()
        buttons.addWidget(self.try_button)
        buttons.addWidget(self.try_decision_button)
        welcome.addLayout(buttons)
        self.welcome.setVisible(False)

        self.demo_note = ""
        self.demo_banner = QLabel("")
        self.demo_banner.setObjectName("demoBanner")
        self.demo_banner.setTextFormat(Qt.TextFormat.RichText)
        self.demo_banner.setWordWrap(True)
        self.demo_banner.linkActivated.connect(lambda _href: self.sig_setup_models.emit())
        self.demo_banner.setVisible(False)

        self.servers_line = QLabel("")  # which roles send text to which server (core.privacy)
        self.servers_line.setObjectName("serversLine")
        self.servers_line.setWordWrap(True)
        self.status = QLabel("")
        self.status.setObjectName("trialStatus")
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.status.setWordWrap(True)

        self.view = TranscriptView(transcript, lookup)
        named(self.view, tr("Transcript"), tr("One card a turn, ruling and verdict, read in order; a citation chip "
                                              "such as [E3] is a link: Tab moves to it, Enter opens its passage"))
        self.view.sig_citation.connect(self.sig_citation)
        self.chart = ConfidenceChart()
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("courtroomSplitter")
        self.splitter.addWidget(self.view)
        self.splitter.addWidget(self.chart)
        self.splitter.setStretchFactor(0, 4)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setCollapsible(0, False)

        claim_row = QHBoxLayout()
        claim_row.addWidget(QLabel(tr("On trial:")))
        claim_row.addWidget(self.claim, 1)
        action_row = FlowLayout()  # wraps on a narrow window rather than cutting the labels short
        for widget in (self.case, self.scope_button, self.details_button, self.start_button, self.stop_button,
                       self.resume_button, self.new_button):
            action_row.addWidget(widget)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(claim_row)
        layout.addLayout(action_row)
        layout.addWidget(self.welcome)
        layout.addWidget(self.demo_banner)
        layout.addWidget(self.servers_line)
        layout.addWidget(self.status)
        self.record_bar = RecordBar(controller, transcript, self.view)  # rounds, folding, coverage, prompts
        layout.addWidget(self.record_bar)
        layout.addWidget(self.splitter, 1)

        controller.sig_state.connect(self._on_state)
        controller.sig_opened.connect(self._on_opened)
        controller.sig_event.connect(self._on_event)
        transcript.sig_rulings_changed.connect(self._update_chart)
        transcript.modelReset.connect(self._update_chart)
        palette_watcher().sig_changed.connect(self._on_palette)
        self._restyle()
        self._update_buttons()
        self._show_details()
        self._update_chart()
    # ---------------------------------------------------------------- intake
    def _claim_edit(self) -> QLineEdit:
        edit = self.claim.lineEdit()
        assert edit is not None  # the claim's combo box is editable
        return edit

    def claim_text(self) -> str:
        return self.claim.currentText().strip()

    def set_claim(self, text: str) -> None:
        self.claim.setEditText(text)
        self._claim_edit().setCursorPosition(0)  # a long claim shows its start, not its end

    def set_suggestions(self, claims: list[str]) -> None:
        current = self.claim.currentText()
        self.claim.blockSignals(True)
        self.claim.clear()
        self.claim.addItems(claims)
        self.claim.blockSignals(False)
        self.claim.setEditText(current)
        self._claim_edit().setCursorPosition(0)

    def case_value(self) -> str:
        value: str = self.case.currentData()  # each item's data is its case type (CASES)
        return value

    def set_scope(self, documents: list[str], titles: list[str], sections: list[str]) -> None:
        self.scope_documents, self.scope_titles, self.scope_sections = list(documents), list(titles), list(sections)
        if not documents:
            text = tr("Scope: all documents")
        elif len(documents) == 1:
            text = tr("Scope: {title}").format(title=titles[0] if titles else tr("1 document"))
        else:
            text = tr("Scope: {count} documents").format(count=len(documents))
        if sections:
            text += tr(", {count} section filters").format(count=len(sections))
        self.scope_button.setText(text if len(text) < 48 else text[:46] + "\u2026")
        self.scope_button.setToolTip("\n".join(titles + sections) or tr("Evidence may come from every document"))

    def set_first_run(self, show: bool) -> None:
        self.welcome.setVisible(show)

    def set_demo(self, note: str) -> None:
        """The demo-model note (core.llm.demo.demo_line) for the trial shown, or for the next one; "" hides it."""
        from courtroom_desktop.core.services.models import DEMO_NOTE

        self.demo_note = note
        self.demo_banner.setText(f"\u26a0 <b>{html.escape(tr(DEMO_NOTE))}</b> \u00b7 " + tr(
            '<a href="setup:models">Set up a model</a> (Settings \u2192 Models: find the models on this computer, or '
            "pull one)") if note else "")
        self.demo_banner.setToolTip(note)
        self.demo_banner.setVisible(bool(note))

    def set_servers(self, where: Mapping[str, TextServer]) -> None:
        """``where``: role (and 'embedder') -> core.privacy.Server. Shown as one line, roles grouped by server;
        a server on another machine in bold, so it is clear which text leaves this computer."""
        groups: dict[TextServer, list[str]] = {}
        for role, server in where.items():
            groups.setdefault(server, []).append(role)
        parts = []
        for server, roles in groups.items():
            label = html.escape(say(server.label))
            names = tr(", ").join(tr(role) for role in roles)
            parts.append(f"{html.escape(names)} \u2192 " + (label if server.local else f"<b>{label}</b>"))
        self.servers_line.setText("<span>" + tr("Text goes to: {servers}").format(servers=tr("; ").join(parts))
                                  + "</span>" if parts else "")
        self.servers_line.setToolTip(tr("Private documents are never sent to a server on another machine: a trial that "
                                     "would send them there does not start, and one running stops before it would."))

    # ---------------------------------------------------------------- actions
    def start(self) -> None:
        if self.start_button.isEnabled():
            decision = self.decision if self.case_value() == "decision" else None
            self.controller.start(self.claim_text(), self.case_value(), self.scope_documents, self.scope_sections,
                                  background=self.background, decision=decision)

    def resume(self) -> None:
        if self.resume_button.isEnabled():
            self.controller.resume()

    def stop(self) -> None:
        self.controller.stop()

    def new_trial(self) -> None:
        if self.controller.running:
            return
        self.controller.clear()
        self.transcript.reset()
        self.decision, self.background = None, ""
        self._show_details()
        self.claim.setEditText("")
        self.claim.setFocus()

    # ---------------------------------------------------------------- the case's details
    def edit_details(self) -> DecisionDialog:
        """Options, criteria and constraints of a decision, and the background (ui.dialogs.decision); not modal."""
        from courtroom_desktop.ui.dialogs.decision import DecisionDialog

        with_options = self.case_value() == "decision"
        dialog = DecisionDialog(self.decision if with_options else None, self.background, with_options, parent=self)

        def accepted() -> None:
            self.background = dialog.background_text()
            if with_options:
                self.decision = dialog.decision_or_none()
            self._show_details()

        dialog.accepted.connect(accepted)
        dialog.open()
        return dialog

    def _show_details(self, *args: object) -> None:
        decision = self.decision if self.case_value() == "decision" else None
        if decision is not None:
            text = tr("{options} options, {criteria} criteria\u2026").format(options=len(decision.options),
                                                                            criteria=len(decision.criteria))
            tip = (tr("Options: ") + "; ".join(decision.options) + "\n" + tr("Criteria: ")
                   + "; ".join(f"{c.name} ({c.weight:g})" for c in decision.criteria))
        elif self.case_value() == "decision":
            text, tip = tr("Options and criteria\u2026"), tr("Options to weigh (2 to 5), criteria with weights, hard "
                                                             "constraints, and your background")
        else:
            text, tip = tr("Background\u2026"), tr("What every role should know about the case (read as data, never "
                                                   "cited)")
        if self.background:
            tip += "\n" + tr("Background: ") + self.background[:200]
        self.details_button.setText(text + (tr(" \u00b7 background") if self.background and decision is None
                                            and self.case_value() == "claim" else ""))
        self.details_button.setToolTip(tip)

    # ---------------------------------------------------------------- trial state
    def _on_opened(self, trial_id: str, spec: TrialSpec, events: list[TrialEvent]) -> None:
        self.set_claim(spec.claim)
        index = self.case.findData(spec.case.value)
        if index >= 0:
            self.case.setCurrentIndex(index)
        self.scope_documents = list(spec.documents)
        self.decision, self.background = spec.decision, spec.background
        self._show_details()
        self.set_scope(list(spec.documents), [self.title_of(d) for d in spec.documents], list(spec.sections))
        self.status_detail = tr("Trial {id}").format(id=trial_id)
        self._show_status()

    def _on_state(self, state: str) -> None:
        if state in (STOPPED, PAUSED, FINISHED, IDLE):
            self.status_detail = ""
        self._show_status()
        self._update_buttons()

    def _on_event(self, event: TrialEvent) -> None:
        if event.kind == "turn_started":
            limit = tr(" of up to {count}").format(count=self.transcript.max_rounds) if self.transcript.max_rounds else ""
            self.status_detail = tr("Round {round}{limit} \u00b7 {role} is searching and arguing").format(
                round=event.round, limit=limit, role=tr(event.role))
        elif event.kind == "ruling":
            self.status_detail = tr("Round {round} ruled \u00b7 confidence {confidence}").format(
                round=event.ruling.round, confidence=QLocale().toString(round(event.ruling.ruling.confidence * 100)) + "%")
        elif event.kind == "switch":
            self.status_detail = tr("The sides switched after round {round}").format(round=event.round)
        elif event.kind == "verdict":
            self.status_detail = ""
            verdict = event.verdict
            announce(self, tr("Verdict: {label}, confidence {confidence}").format(
                label=verdict_words(verdict.label),
                confidence=QLocale().toString(round(verdict.confidence * 100)) + "%"), assertive=True)
        else:
            return
        if self.status_detail:
            announce(self, self.status_detail)
        self._show_status()

    def _show_status(self) -> None:
        # lazily: core.court loads its engine (numpy)
        from courtroom_desktop.core.court.records import CaseType, Stance, role_name

        state = self.controller.state
        words = tr(STATE_WORDS.get(state, state))
        parts = [f"<b>{html.escape(words)}</b>"] if words else []
        if self.status_detail:
            parts.append(html.escape(self.status_detail))
        if self.controller.trial_id:
            sides = []
            for seat, stance in sorted(self.transcript.assignments.items()):
                color = accent(stance, QGuiApplication.palette()).name()
                sides.append(tr("Counsel {seat}: {role}").format(
                    seat=seat, role=f'<span style="color:{color}">'
                    f"{html.escape(tr(role_name(CaseType(self.transcript.case), Stance(stance))))}</span>"))
            parts.append(" \u00b7 ".join(sides))
        self.status.setText(" \u2014 ".join(parts))

    def _update_buttons(self, *args: object) -> None:
        state = self.controller.state
        running = state in (STARTING, RUNNING)
        self.start_button.setEnabled(not running and bool(self.claim_text()))
        self.stop_button.setEnabled(running)
        self.resume_button.setEnabled(not running and state in (STOPPED, PAUSED) and bool(self.controller.trial_id))
        self.new_button.setEnabled(not running)
        for widget in (self.claim, self.case, self.scope_button, self.details_button, self.try_button,
                       self.try_decision_button):
            widget.setEnabled(not running)

    def _update_chart(self) -> None:
        rulings = self.transcript.rulings()
        self.chart.set_data(rulings, self.transcript.switch_rounds(), self.transcript.threshold,
                            self.transcript.max_rounds)
        self.chart.setVisible(bool(rulings))  # an empty chart would only take the transcript's room

    def _restyle(self) -> None:
        palette = QGuiApplication.palette()
        self.welcome.setStyleSheet(f"QFrame#welcome {{ background: {tint('for', palette, 30).name()}; "
                                   f"border: 1px solid {accent('for', palette).name()}; border-radius: 6px; }}"
                                   " QFrame#welcome QLabel { background: transparent; }")
        self.demo_banner.setStyleSheet(f"QLabel#demoBanner {{ background: {tint('warning', palette, 34).name()}; "
                                       f"border: 1px solid {accent('warning', palette).name()}; border-radius: 4px; "
                                       "padding: 3px 8px; }")

    def _on_palette(self) -> None:
        self._restyle()
        self._show_status()
        self.chart.update()
