"""The check-a-draft feature (issue #28): read a draft, find its claims, store the reviewed claims as a check, run its
queue of quick checks and full trials (pause, resume, cancel), sign claims off, send one to a full trial, export, and
list, reopen and delete stored checks.

Every core call goes through the workspace's use cases: blocking ones in worker threads (``asyncio.to_thread``), the
claim finder and the queue as awaited work on the qasync loop. The queue's events come back as signals."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from courtroom_desktop.ui.controllers import Controller
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr

if TYPE_CHECKING:
    from courtroom_desktop.core.services.check import (
        CheckClaim,
        CheckQueue,
        CheckRecord,
        ClaimRow,
        Draft,
    )
    from courtroom_desktop.core.services.trials import Workspace
    from courtroom_desktop.ui.controllers.workspace import WorkspaceController

IDLE, READING, RUNNING, PAUSED, CANCELLED, FINISHED = "idle", "reading", "running", "paused", "cancelled", "finished"


class CheckController(Controller):
    sig_draft = Signal(object, list, list)
    """(Draft, list[CheckClaim] found, warnings): a draft was read and its claims found, ready for review."""
    sig_opened = Signal(object)
    """A CheckRecord, whole: a new or stored check is shown."""
    sig_row = Signal(object)
    """A ClaimRow that changed (queue, sign-off, sent to trial)."""
    sig_progress = Signal(object)
    """The queue's Progress (done, total, running, trials_left, eta_s)."""
    sig_paused = Signal(object)  # why (a core message: an object, so that it is still one when said)
    """The queue paused: why (the user, or a model server that went down)."""
    sig_state = Signal(str)
    """idle, reading, running, paused, cancelled or finished."""
    sig_checks = Signal(list)
    """list[CheckSummary], newest first, after every change."""
    sig_exported = Signal(list, list)
    """(paths written, notes on what could not be done as asked)."""
    sig_busy = Signal(bool)
    sig_references = Signal(object)
    """What the open check's draft cites (a CitedReferences), for the References tab."""
    """True while a draft is read, a check created or an export runs."""

    def __init__(self, workspace: WorkspaceController, parent: QObject | None = None):
        super().__init__(parent)
        self.workspace = workspace  # the window's WorkspaceController
        self.check_id: str | None = None
        self.record: CheckRecord | None = None
        self.state = IDLE
        self.queue: CheckQueue | None = None
        self._run_task: asyncio.Task[None] | None = None
        self._reads = 0

    @property
    def ws(self) -> Workspace:
        return self.workspace.workspace

    @property
    def running(self) -> bool:
        return self._run_task is not None and not self._run_task.done()

    def _set_state(self, state: str) -> None:
        self.state = state
        self.sig_state.emit(state)

    # ---------------------------------------------------------------- the draft and its claims
    def read(self, path: str | None = None, text: str | None = None) -> asyncio.Task[None]:
        """Read a draft file (or pasted ``text``) in a thread, then find its claims."""
        return self.tasks.spawn(self._read(path, text), QT_TRANSLATE_NOOP("", "Reading the draft"))

    async def _read(self, path: str | None, text: str | None) -> None:
        self.sig_busy.emit(True)
        self._set_state(READING)
        try:
            draft = await asyncio.to_thread(self.ws.checks.read_draft, path, text)
            claims, warnings = await self.ws.checks.find_claims(draft)
        finally:
            self.sig_busy.emit(False)
            self._set_state(IDLE)
        self.sig_draft.emit(draft, list(claims), list(warnings))

    def create(self, draft: Draft, claims: list[CheckClaim], title: str = "") -> asyncio.Task[str | None]:
        """Store the reviewed claims as a new check, show it and run its queue."""
        return self.tasks.spawn(self._create(draft, list(claims), title), QT_TRANSLATE_NOOP("", "Creating the check"))

    async def _create(self, draft: Draft, claims: list[CheckClaim], title: str) -> str:
        self.sig_busy.emit(True)
        try:
            await self.workspace.library()
            ws = self.ws
            finder = ws.checks.claim_finder()
            check_id = await asyncio.to_thread(lambda: ws.checks.create(draft, claims, title=title, finder=finder))
            record = await asyncio.to_thread(ws.checks.record, check_id)
        finally:
            self.sig_busy.emit(False)
        self._show(record)
        self.refresh_list()
        self._start_queue()
        return check_id

    def _show(self, record: CheckRecord) -> None:
        self.check_id, self.record = record.id, record
        self.sig_opened.emit(record)
        self.tasks.spawn(self._references(record), QT_TRANSLATE_NOOP("", "Reading the draft's references"))

    async def _references(self, record: CheckRecord) -> None:
        """What the check's draft cites, matched to the library (the References tab); a draft file that is gone
        since is reported like any failure."""
        spec = record.spec
        path, text = (spec.draft, None) if spec.draft_sha256 else (None, spec.pasted_text or "")
        self.sig_references.emit(await asyncio.to_thread(self.ws.checks.references, path, text))

    # ---------------------------------------------------------------- stored checks
    def open(self, check_id: str, resume: bool = False) -> asyncio.Task[None] | None:
        """Show a stored check (and with ``resume`` go on with what is left of it)."""
        if self.running:
            self.sig_error.emit(tr("Opening a check"), tr("a check is running"), tr("pause it first (it can be resumed later)"))
            return None
        return self.tasks.spawn(self._open(check_id, resume), QT_TRANSLATE_NOOP("", "Opening the check"))

    async def _open(self, check_id: str, resume: bool) -> None:
        record = await asyncio.to_thread(self.ws.checks.record, check_id)
        self._show(record)
        self._set_state(_state_of(record))
        if resume:
            self._start_queue()

    def refresh_list(self) -> asyncio.Task[None]:
        return self.tasks.spawn(self._refresh_list(), QT_TRANSLATE_NOOP("", "Reading the stored checks"))

    async def _refresh_list(self) -> None:
        self._reads += 1
        read = self._reads
        checks = await asyncio.to_thread(self.ws.checks.list)
        if read == self._reads:  # a list read before a deletion must not arrive after the one read after it
            self.sig_checks.emit(checks)

    def delete(self, check_ids: list[str]) -> asyncio.Task[None]:
        return self.tasks.spawn(self._delete(list(check_ids)), QT_TRANSLATE_NOOP("", "Deleting checks"))

    async def _delete(self, check_ids: list[str]) -> None:
        if self.running and self.check_id in check_ids:
            check_ids = [c for c in check_ids if c != self.check_id]
            self.sig_error.emit(tr("Deleting checks"), tr("the check that is running was kept"), tr("pause or cancel it first"))
        await asyncio.to_thread(self.ws.checks.delete, check_ids)
        if self.check_id in check_ids:
            self.check_id, self.record = None, None
            self._set_state(IDLE)
        await self._refresh_list()

    # ---------------------------------------------------------------- the queue
    def resume(self) -> asyncio.Task[None] | None:
        """Run (or go on with) the shown check's queue: a new queue over what the store has left."""
        return self._start_queue()

    def _start_queue(self) -> asyncio.Task[None] | None:
        if self.running or self.check_id is None:
            return None
        self._set_state(RUNNING)
        self._run_task = self.tasks.spawn(self._drive(self.check_id), QT_TRANSLATE_NOOP("", "Checking the claims"))
        self._run_task.add_done_callback(self._after_run)
        return self._run_task

    def _after_run(self, task: asyncio.Task[None]) -> None:
        self.queue = None
        if self.state == RUNNING:  # failed or was cancelled before the queue said how it ended
            self._set_state(PAUSED)
        self.refresh_list()

    async def _drive(self, check_id: str) -> None:
        from courtroom_desktop.core.services.check import ClaimUpdated, Progress, QueueFinished, QueuePaused

        await self.workspace.library()
        queue = await asyncio.to_thread(self.ws.checks.queue, check_id)
        self.queue = queue
        async for event in queue.run():  # each kind of event is its own class ('claim_updated': ClaimUpdated, ...)
            if isinstance(event, ClaimUpdated):
                self._note_row(event.row)
            elif isinstance(event, Progress):
                self.sig_progress.emit(event)
            elif isinstance(event, QueuePaused):
                self.sig_paused.emit(event.reason)
            elif isinstance(event, QueueFinished):
                self._set_state(str(getattr(event.status, "value", event.status)))

    def pause(self) -> None:
        if self.queue is not None:
            self.queue.pause()

    def cancel(self) -> None:
        if self.queue is not None:
            self.queue.cancel()

    def _note_row(self, row: ClaimRow) -> None:
        if self.record is not None and 0 <= row.index < len(self.record.rows):
            rows = list(self.record.rows)
            rows[row.index] = row
            self.record = self.record.model_copy(update={"rows": tuple(rows)})
        self.sig_row.emit(row)

    # ---------------------------------------------------------------- the reviewer's word
    def sign_off(self, claim: int, decision: str, label: str | None = None, note: str = "",
                 reviewer: str = "") -> asyncio.Task[None] | None:
        """Sign claim ``claim`` (from 1) off: 'accepted', 'overridden' (with ``label``) or 'withdrawn'."""
        if self.check_id is None:
            return None
        return self.tasks.spawn(self._sign_off(self.check_id, claim, decision, label, note, reviewer), QT_TRANSLATE_NOOP("", "Signing off"))

    async def _sign_off(self, check_id: str, claim: int, decision: str, label: str | None, note: str,
                        reviewer: str) -> None:
        row = await asyncio.to_thread(self.ws.checks.sign_off, check_id, claim, decision, label, note, reviewer)
        if check_id == self.check_id:
            self._note_row(row)

    def send_to_trial(self, claim: int) -> asyncio.Task[None] | None:
        """Claim ``claim`` (from 1) to a full trial; the queue runs it (resumed here when it is not running)."""
        if self.check_id is None:
            return None
        return self.tasks.spawn(self._send_to_trial(self.check_id, claim), QT_TRANSLATE_NOOP("", "Sending the claim to a full trial"))

    async def _send_to_trial(self, check_id: str, claim: int) -> None:
        row = await asyncio.to_thread(self.ws.checks.send_to_trial, check_id, claim)
        if check_id == self.check_id:
            self._note_row(row)
            self._start_queue()

    def min_worth(self) -> float:
        """The check-worthiness below which the review page hides a claim at first (the setting check.min_worth)."""
        return float(self.workspace.config.check.min_worth)

    def default_reviewer(self) -> str:
        import getpass

        name = self.workspace.config.check.reviewer
        if name:
            return name
        try:
            return getpass.getuser()
        except Exception:  # noqa: BLE001 - no user name to be had: the person types one
            return ""

    # ---------------------------------------------------------------- export
    def export(self, formats: list[str], out_dir: Path,
               annotate: bool = True) -> asyncio.Task[list[Path] | None] | None:
        if self.check_id is None:
            return None
        return self.tasks.spawn(self._export(self.check_id, list(formats), Path(out_dir), annotate),
                                QT_TRANSLATE_NOOP("", "Exporting the check"))

    async def _export(self, check_id: str, formats: list[str], out_dir: Path, annotate: bool) -> list[Path]:
        self.sig_busy.emit(True)
        try:
            await self.workspace.library()
            result = await asyncio.to_thread(self.ws.checks.export, check_id, formats, out_dir, annotate)
        finally:
            self.sig_busy.emit(False)
        self.sig_exported.emit(list(result.paths), list(result.notes))
        return list(result.paths)

    # ---------------------------------------------------------------- life cycle
    async def shutdown(self) -> None:
        """The window closes: a running queue pauses (its claims in flight run again on resume)."""
        if self.queue is not None:
            self.queue.pause("the window was closed")
        if self._run_task is not None and not self._run_task.done():
            try:
                await asyncio.wait_for(asyncio.shield(self._run_task), 10)
            except (TimeoutError, asyncio.CancelledError, Exception):  # noqa: BLE001 - closing anyway
                pass
        await self.tasks.cancel_all()


def _state_of(record: CheckRecord) -> str:
    status = str(getattr(record.status, "value", record.status))
    return {"reviewing": PAUSED, "running": PAUSED}.get(status, status)
