"""The model setup on the settings dialog's Models tab: "Find models on this computer" (Ollama, LM Studio, llama.cpp's
server, vLLM), a table of what was found, the model proposed for each role with the reason, "Use this assignment"
(which fills the role editors; nothing is saved before OK or Apply), and pulling a model through Ollama with a
progress bar (bytes and MB/s) and Cancel. The work runs in the settings controller's tasks, never in the window's
thread."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.controls import push_button, record_table
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr
from courtroom_desktop.ui.qt_models.found import FoundModelsModel

if TYPE_CHECKING:
    import asyncio

    from courtroom_desktop.core.config import ModelSettings
    from courtroom_desktop.core.services.models import Detection, Proposal, PullProgress, PullResult
    from courtroom_desktop.ui.controllers.settings import SettingsController

PULL_HINT = QT_TRANSLATE_NOOP("", "e.g. qwen2.5:7b (see ollama.com/library)")
PULL_NAME = QT_TRANSLATE_NOOP("", "e.g. qwen2.5:7b")


class ModelSetupPanel(QGroupBox):
    sig_use = Signal(object)
    """A core.llm.discover.Proposal the person accepted: fill the role editors with it."""

    def __init__(self, controller: SettingsController, settings_now: Callable[[], ModelSettings], embedding_model: str,
                 ollama_url: Callable[[], str] = lambda: "", parent: QWidget | None = None) -> None:
        super().__init__(tr("Model setup"), parent)
        self.setObjectName("modelSetup")
        self.controller = controller
        self.settings_now = settings_now          # -> ModelSettings the proposal keeps the other fields of
        self.embedding_model = embedding_model
        self.ollama_url = ollama_url
        self.proposal: Proposal | None = None  # the last one found (see _on_detected)

        self.find_button = push_button(tr("Find models on this computer"), tr("Look for Ollama, LM Studio, llama.cpp's "
                                       "server and vLLM on their usual ports (well under 2 s)"), self.find_models,
                                       name="findModels")
        self.find_status = QLabel(tr("Find the models your computer already serves, or pull one through Ollama below."))
        self.find_status.setObjectName("findStatus")
        self.find_status.setWordWrap(True)
        self.found_model = FoundModelsModel(self)
        self.found_table = record_table(self.found_model, "foundModels", (110, 180, 70, 80, 70, 90, 60), single=True)
        self.found_table.setMinimumHeight(90)
        self.proposal_text = QLabel("")
        self.proposal_text.setObjectName("proposal")
        self.proposal_text.setWordWrap(True)
        self.use_button = push_button(tr("Use this assignment"), tr("Fill the role editors with the proposed models (saved "
                                      "with OK or Apply)"), self.use, name="useAssignment")
        self.use_button.setEnabled(False)

        self.pull_name = QLineEdit()
        self.pull_name.setObjectName("pullName")
        self.pull_name.setPlaceholderText(tr(PULL_NAME))  # short: whole at twice the font size
        self.pull_name.setToolTip(tr(PULL_HINT))
        self.pull_name.returnPressed.connect(self.pull)
        self.pull_button = push_button(tr("Pull"), tr("Download this model through Ollama (it resumes where an earlier pull "
                                       "stopped)"), self.pull, name="pullButton")
        self.cancel_button = push_button(tr("Cancel"), tr("Stop the download (Ollama keeps what it has: pull again to "
                                         "resume)"), controller.cancel_pull, name="cancelPull")
        self.cancel_button.setEnabled(False)
        self.pull_bar = QProgressBar()
        self.pull_bar.setObjectName("pullBar")
        self.pull_bar.setRange(0, 1000)
        self.pull_bar.setValue(0)
        self.pull_bar.setTextVisible(True)
        self.pull_bar.setVisible(False)
        self.pull_status = QLabel("")
        self.pull_status.setObjectName("pullStatus")
        self.pull_status.setWordWrap(True)

        top = QHBoxLayout()
        top.addWidget(self.find_button)
        top.addWidget(self.find_status, 1)
        use_row = QHBoxLayout()
        use_row.addWidget(self.proposal_text, 1)
        use_row.addWidget(self.use_button)
        pull_row = QHBoxLayout()
        pull_row.addWidget(QLabel(tr("Pull through Ollama:")))
        pull_row.addWidget(self.pull_name, 1)
        pull_row.addWidget(self.pull_button)
        pull_row.addWidget(self.cancel_button)
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.pull_bar, 1)
        progress_row.addWidget(self.pull_status, 2)
        column = QVBoxLayout(self)
        column.addLayout(top)
        column.addWidget(self.found_table, 1)
        column.addLayout(use_row)
        column.addLayout(pull_row)
        column.addLayout(progress_row)

        controller.sig_detect_started.connect(self._on_detect_started)
        controller.sig_detected.connect(self._on_detected)
        controller.sig_pull_progress.connect(self._on_pull_progress)
        controller.sig_pull_finished.connect(self._on_pull_finished)
        controller.sig_error.connect(self._on_error)
        if controller.pulling:  # a pull that outlived an earlier dialog
            self._pulling(True)
        detection = getattr(controller, "detection", None)
        if detection is not None and detection.servers:
            self._on_detected(detection, controller.proposal)  # what the last search found (first run)

    # ---------------------------------------------------------------- finding
    # "Find models on this computer" (not named find: that would hide QWidget.find)
    def find_models(self) -> asyncio.Task[tuple[Detection, Proposal | None] | None]:
        self.find_button.setEnabled(False)
        self.find_status.setText(tr("Looking for model servers on this computer\u2026"))
        task = self.controller.find_models(self.settings_now(), self.embedding_model)
        task.add_done_callback(lambda _t: _enable(self.find_button))
        return task

    def _on_detect_started(self) -> None:
        self.find_status.setText(tr("Looking for model servers on this computer\u2026"))

    def _on_detected(self, detection: Detection, proposal: Proposal | None) -> None:
        from courtroom_desktop.core.services.models import nothing_found_lines

        self.proposal = proposal
        models = detection.models()
        self.found_model.set_found(models, proposal)
        if detection.servers:
            servers = ", ".join(tr("{server} ({count} models)").format(server=s.name, count=len(s.models))
                                for s in detection.servers)
            self.find_status.setText(tr("Found {servers} in {seconds} s.").format(servers=servers,
                                                                                   seconds=f"{detection.seconds:.2f}"))
        else:
            self.find_status.setText(" ".join(nothing_found_lines(detection)))
        if proposal is not None:
            self.proposal_text.setText("<b>Proposed:</b><br>" + "<br>".join(_html(line) for line in proposal.lines))
        elif detection.servers:
            self.proposal_text.setText(tr("No chat model found (only embedding models): pull one below."))
        else:
            self.proposal_text.setText("")
        self.use_button.setEnabled(proposal is not None)

    def use(self) -> None:
        if self.proposal is not None:
            self.sig_use.emit(self.proposal)

    # ---------------------------------------------------------------- pulling
    def pull(self) -> asyncio.Task[PullResult | None] | None:
        name = self.pull_name.text().strip()
        if not name:
            self.pull_status.setText(tr("Name the model to pull, {hint}.").format(hint=tr(PULL_HINT)))
            return None
        task = self.controller.pull_model(name, self.ollama_url())
        if task is None:
            self.pull_status.setText(tr("A pull is already running: wait for it, or cancel it."))
            return None
        self._pulling(True)
        self.pull_bar.setValue(0)
        self.pull_bar.setFormat(tr("starting\u2026"))
        self.pull_status.setText(tr("Asking Ollama for {name}\u2026").format(name=name))
        return task

    def _pulling(self, on: bool) -> None:
        self.pull_button.setEnabled(not on)
        self.pull_name.setEnabled(not on)
        self.cancel_button.setEnabled(on)
        if on:
            self.pull_bar.setVisible(True)

    def _on_pull_progress(self, p: PullProgress) -> None:
        from courtroom_desktop.core.services.models import human_bytes

        self._pulling(True)
        if p.fraction is not None:
            self.pull_bar.setValue(int(p.fraction * 1000))
            self.pull_bar.setFormat(f"{p.fraction:.0%}")
        else:
            self.pull_bar.setFormat(p.status)
        text = p.status
        if p.overall_total:
            text = (tr("{done} of {total}").format(done=human_bytes(p.overall_completed) or "0 B",
                                                   total=human_bytes(p.overall_total))
                    + f" \u00b7 {p.bytes_per_s / 1e6:.1f} MB/s \u00b7 {p.status}")
        if p.resuming:
            text = tr("resuming from {size}").format(size=human_bytes(p.resumed_from)) + " \u00b7 " + text
        self.pull_status.setText(text)

    def _on_pull_finished(self, name: str, ok: bool, message: str) -> None:
        self._pulling(False)
        self.pull_status.setText(message)
        if ok:
            self.pull_bar.setValue(1000)
            self.pull_bar.setFormat(tr("done"))
            self.find_models()  # list it, and propose again
        else:
            self.pull_bar.setFormat(tr("stopped"))

    def _on_error(self, title: str, message: str, fix: str) -> None:
        if title == tr("Finding models on this computer"):
            self.find_status.setText(f"{message}" + (f" ({fix})" if fix else ""))


def _enable(widget: QWidget) -> None:
    try:
        widget.setEnabled(True)
    except RuntimeError:  # the dialog was closed meanwhile
        pass


def _html(text: str) -> str:
    import html

    return html.escape(text)
