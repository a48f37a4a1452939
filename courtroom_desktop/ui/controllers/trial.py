"""The courtroom feature: start a trial, stream its events to the window, stop it, resume it, open a past one.

The engine's event stream is consumed by one asyncio task; cancelling that task stops the trial (the store marks it
"stopped") and ``court.run`` on a stopped or paused trial resumes it from its last persisted turn."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from courtroom_desktop.ui.controllers import Controller
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr

if TYPE_CHECKING:
    from courtroom_desktop.core.config import DebateSettings
    from courtroom_desktop.core.court.records import TrialSpec
    from courtroom_desktop.core.services.trials import DecisionSpec, TrialRun
    from courtroom_desktop.ui.controllers.workspace import WorkspaceController

IDLE, STARTING, RUNNING, STOPPED, PAUSED, FINISHED = "idle", "starting", "running", "stopped", "paused", "finished"


class TrialController(Controller):
    sig_opened = Signal(str, object, list)
    """(trial_id, TrialSpec, stored events): a trial is shown; the events rebuild what happened so far."""
    sig_event = Signal(object)
    """One live event of the trial being run (token deltas included)."""
    sig_state = Signal(str)
    """idle, starting, running, stopped, paused (an error the trial can resume from) or finished."""
    sig_calls = Signal(str, int, list)
    """(step, number, model calls): the exact prompts and raw answers of a turn ('turn', index), a ruling
    ('ruling', round) or the verdict ('verdict', 0), read from the trial store for the prompt viewer."""
    sig_coverage = Signal(object)
    """The shown trial's coverage (core.court.coverage.TrialCoverage), for the coverage panel."""

    def __init__(self, workspace: WorkspaceController, parent: QObject | None = None):
        super().__init__(parent)
        self.workspace = workspace
        self.trial_id: str | None = None
        self.spec: TrialSpec | None = None
        self.state = IDLE
        self._prior_state = IDLE
        self._run_task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self.state in (STARTING, RUNNING)

    def _set_state(self, state: str) -> None:
        self.state = state
        self.sig_state.emit(state)

    # ---------------------------------------------------------------- actions
    def start(self, claim: str, case: str = "claim", documents: list[str] | None = None,
              sections: list[str] | None = None, settings: DebateSettings | None = None, *, background: str = "",
              decision: DecisionSpec | None = None) -> asyncio.Task[None] | None:
        """Start a trial; ``background`` (text every role reads, as data) and ``decision`` (a DecisionSpec: options,
        criteria, constraints) as ``Workspace.start_trial`` takes them."""
        if self.running:
            return None
        self._prior_state = self.state
        self._set_state(STARTING)
        self._run_task = self.tasks.spawn(self._start(claim, case, documents or [], sections or [], settings,
                                                      background, decision), QT_TRANSLATE_NOOP("", "Starting the trial"))
        self._run_task.add_done_callback(self._after_start_failure)
        return self._run_task

    def _after_start_failure(self, task: asyncio.Task[None]) -> None:
        if self.state == STARTING:  # failed (or was stopped) before the engine ran: back to where it was
            self._set_state(self._prior_state)

    async def _start(self, claim: str, case: str, documents: list[str], sections: list[str],
                     settings: DebateSettings | None, background: str = "",
                     decision: DecisionSpec | None = None) -> None:
        await self.workspace.library()  # opened by the controller, which tells the panels
        run = await asyncio.to_thread(lambda: self.workspace.workspace.trials.start(
            claim, case, documents, sections, settings, background=background, decision=decision))
        self.trial_id, self.spec = run.trial_id, run.spec
        self.sig_opened.emit(run.trial_id, run.spec, [])
        await self._drive(run)

    def stop(self) -> None:
        if self._run_task is not None and not self._run_task.done():
            self._run_task.cancel()

    def resume(self, trial_id: str | None = None) -> asyncio.Task[None] | None:
        trial_id = trial_id or self.trial_id
        if self.running or not trial_id:
            return None
        self._prior_state = self.state
        self._set_state(STARTING)
        self._run_task = self.tasks.spawn(self._resume(trial_id), QT_TRANSLATE_NOOP("", "Resuming the trial"))
        self._run_task.add_done_callback(self._after_start_failure)
        return self._run_task

    async def _resume(self, trial_id: str) -> None:
        await self.workspace.library()
        run = await asyncio.to_thread(self.workspace.workspace.trials.resume, trial_id)
        if trial_id != self.trial_id:
            events = await asyncio.to_thread(self.workspace.workspace.trials.events, trial_id)
            self.trial_id, self.spec = trial_id, run.spec
            self.sig_opened.emit(trial_id, run.spec, events)
        await self._drive(run)

    async def _drive(self, run: TrialRun) -> None:
        self._set_state(RUNNING)
        outcome = STOPPED
        try:
            async for event in run.events():
                self.sig_event.emit(event)
                if event.kind == "verdict":
                    outcome = FINISHED
                elif event.kind == "error":
                    outcome = PAUSED
        except asyncio.CancelledError:
            outcome = STOPPED
            raise
        except Exception:
            outcome = PAUSED
            raise
        finally:
            self._set_state(outcome)

    def open(self, trial_id: str) -> asyncio.Task[None] | None:
        """Show a stored trial (no model runs)."""
        if self.running:
            self.sig_error.emit(tr("Opening a trial"), tr("a trial is running"), tr("stop it first (it can be resumed later)"))
            return None
        return self.tasks.spawn(self._open(trial_id), QT_TRANSLATE_NOOP("", "Opening the trial"))

    async def _open(self, trial_id: str) -> None:
        await self.workspace.trials()
        spec, events, status = await asyncio.to_thread(self.workspace.workspace.trials.opened, trial_id)
        self.trial_id, self.spec = trial_id, spec
        self.sig_opened.emit(trial_id, spec, events)
        has_verdict = any(e.kind == "verdict" for e in events)
        self._set_state(FINISHED if has_verdict else (PAUSED if status == "paused" else STOPPED))

    # ---------------------------------------------------------------- the record (read in a thread)
    def show_calls(self, step: str, number: int) -> asyncio.Task[None] | None:
        """Read the model calls of a turn, a ruling or the verdict of the shown trial; ``sig_calls`` brings them."""
        if not self.trial_id:
            return None
        return self.tasks.spawn(self._calls(self.trial_id, step, number), QT_TRANSLATE_NOOP("", "Reading the prompts"))

    async def _calls(self, trial_id: str, step: str, number: int) -> None:
        await self.workspace.trials()
        asked = {"turn": {"turn": number}, "ruling": {"round_number": number}}.get(step, {})
        calls = await asyncio.to_thread(lambda: self.workspace.workspace.trials.calls(trial_id, step, **asked))
        self.sig_calls.emit(step, number, calls)

    def show_coverage(self) -> asyncio.Task[None] | None:
        """Compute the shown trial's coverage; ``sig_coverage`` brings it."""
        if not self.trial_id:
            return None
        return self.tasks.spawn(self._coverage(self.trial_id), QT_TRANSLATE_NOOP("", "Reading the trial's coverage"))

    async def _coverage(self, trial_id: str) -> None:
        await self.workspace.library()  # the documents in scope, to find those never retrieved
        self.sig_coverage.emit(await asyncio.to_thread(self.workspace.workspace.trials.coverage, trial_id))

    def clear(self) -> None:
        """A new, empty courtroom."""
        if self.running:
            return
        self.trial_id, self.spec = None, None
        self._set_state(IDLE)

    async def shutdown(self) -> None:
        self.stop()
        await self.tasks.cancel_all()
