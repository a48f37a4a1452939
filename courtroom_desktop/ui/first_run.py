"""What the window does on first run, as a part of MainWindow: the offer of the models found on this computer, the
demo label, the sample library with a suggested claim, and the sample decision (options, criteria, a background and
notes) started as a decision trial once its notes are in the library."""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtroom_desktop.core.services.models import where_text_goes
from courtroom_desktop.ui.i18n import tr
from courtroom_desktop.ui.samples import sample_decision, sample_files, suggested_claims

if TYPE_CHECKING:
    import asyncio

    from PySide6.QtCore import QSettings

    from courtroom_desktop.core.config import AppConfig
    from courtroom_desktop.core.services.models import Detection, Proposal
    from courtroom_desktop.ui.controllers.library import LibraryController
    from courtroom_desktop.ui.controllers.settings import SettingsController
    from courtroom_desktop.ui.controllers.trial import TrialController
    from courtroom_desktop.ui.controllers.workspace import WorkspaceController
    from courtroom_desktop.ui.widgets.courtroom_panel import CourtroomPanel
    from courtroom_desktop.ui.widgets.model_offer import ModelOfferBar
    from courtroom_desktop.ui.widgets.notice_bar import NoticeBar


class FirstRun:
    """Mixed into MainWindow (which has the controllers and panels these methods use)."""

    # what MainWindow has and these methods use (declared for the type checker; MainWindow sets them)
    workspace: WorkspaceController
    settings: QSettings
    trial: TrialController
    library: LibraryController
    settings_controller: SettingsController
    courtroom: CourtroomPanel
    notice: NoticeBar
    model_offer: ModelOfferBar
    _offering: bool
    _start_after_ingest: bool

    if TYPE_CHECKING:
        def show_library(self) -> None: ...
        def apply_settings(self, config: AppConfig, data_dir: str, api_keys: dict[str, str]) -> None: ...

    def _update_demo(self, *args: object) -> None:
        """The courtroom's demo banner: the trial shown ran on the bundled demo model, or (none shown) the next
        one will."""
        from courtroom_desktop.ui.text import demo_words

        spec = self.trial.spec
        source = spec.models if spec is not None and getattr(spec, "models", None) else self.workspace.config.models
        self.courtroom.set_demo(demo_words(source))
        config = self.workspace.config
        self.courtroom.set_servers(where_text_goes(config.models, config.library))

    def offer_models(self) -> asyncio.Task[tuple[Detection, Proposal | None] | None] | None:
        """First run only (no settings file, the offer never dismissed): find the models on this computer in the
        background; a proposal shows in the offer bar."""
        from courtroom_desktop.core.config import CONFIG_FILE

        if (self.workspace.config_dir / CONFIG_FILE).exists() or \
                self.settings.value("models/offer_dismissed", False, type=bool):
            return None
        self._offering = True
        config = self.workspace.config
        return self.settings_controller.find_models(config.models, config.library.embedding_model)

    def _on_models_detected(self, detection: Detection, proposal: Proposal | None) -> None:
        if getattr(self, "_offering", False):
            self._offering = False
            self.model_offer.offer(detection, proposal)

    def use_proposed_models(self, proposal: Proposal) -> None:
        """The offer accepted: the proposed model per role, saved and in use from the next trial."""
        config = self.workspace.config
        self.apply_settings(config.model_copy(update={"models": proposal.settings(config.models)}), "", {})

    def add_samples(self) -> asyncio.Task[None] | None:
        files = sample_files()
        if not files:
            self.notice.show_error(tr("Sample library"), tr("the sample PDFs are missing from resources/samples"),
                                   tr("reinstall the app, or run scripts/make_samples.py"))
            return None
        return self.library.ingest(files)

    def try_samples(self) -> asyncio.Task[None] | None:
        """First run: the sample library, a suggested claim, and the trial starts once the samples are in."""
        claims = suggested_claims()
        if claims:
            self.courtroom.set_claim(claims[0].claim)
        self.show_library()
        self._start_after_ingest = True
        task = self.add_samples()
        if task is None:
            self._start_after_ingest = False
        return task

    def try_decision(self) -> asyncio.Task[None] | None:
        """First run: the sample decision: its notes are added, the question, options, criteria, constraint and
        background are set in the courtroom, and the decision trial starts once the notes are in."""
        sample = sample_decision()
        if sample is None:
            self.notice.show_error(tr("Sample decision"), tr("the sample decision is missing from resources/samples-decision"),
                                   tr("reinstall the app"))
            return None
        court = self.courtroom
        court.set_claim(sample.question)
        court.case.setCurrentIndex(court.case.findData("decision"))
        court.decision, court.background = sample.decision, sample.background
        court._show_details()
        self.show_library()
        self._start_after_ingest = True
        return self.library.ingest([str(p) for p in sample.files])
