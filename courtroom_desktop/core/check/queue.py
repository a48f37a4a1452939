"""The queue of a check: every pending claim gets its quick check, then the claims that call for one get a full
trial; as one async stream of events (a row changed, progress, paused, finished).

    queue = CheckQueue(store, check_id, quick=..., trial=..., workers=2)
    async for event in queue.run(): ...     # queue.pause() / queue.cancel() from elsewhere on the loop

- Order: quick checks first, in the draft's order, then the trials, so the table fills fast.
- State is the store's: each finished step is committed before the next starts, so a killed process loses no
  finished claim, and ``run`` on a stopped check goes on with what is left (a claim in flight runs again; a trial in
  flight resumes from its last complete turn, with the id it was given).
- A model server that goes down (``ModelUnavailable``), or a privacy refusal, pauses the whole queue with the reason
  rather than failing every claim after it; any other error fails that claim alone, with the reason, and the next
  run (a resume) tries it once more.
- ``workers``: claims in flight at once. Calls to one model server are held to that server's own limit by the models
  the workspace hands in (core.llm.limits), so several workers never overload a server.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from courtroom_desktop.core.check.records import (
    CheckClaim,
    CheckStatus,
    ClaimRow,
    ClaimStatus,
    QuickResult,
    TrialOutcome,
)
from courtroom_desktop.core.check.store import CheckStore
from courtroom_desktop.core.court.records import VerdictLabel
from courtroom_desktop.core.errors import CourtroomError, ModelUnavailable, TrialError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.records import Frozen

log = logging.getLogger(__name__)

Quick = Callable[[CheckClaim], Awaitable[QuickResult]]
# (claim text, the trial id it already has or None, a callback taking the new trial's id) -> the trial's outcome
Trial = Callable[[str, "str | None", Callable[[str], None]], Awaitable[TrialOutcome]]


class ClaimUpdated(Frozen):
    row: ClaimRow
    kind: str = "claim_updated"


class Progress(Frozen):
    done: int  # claims finished (done or failed)
    total: int
    running: tuple[int, ...] = ()  # claims in flight
    trials_left: int = 0  # claims waiting for, or in, a full trial
    eta_s: float | None = None  # time left, from this run's pace (None until a claim finished)
    kind: str = "progress"


class QueuePaused(Frozen):
    reason: str
    kind: str = "paused"


class QueueFinished(Frozen):
    status: CheckStatus
    kind: str = "finished"


QueueEvent = ClaimUpdated | Progress | QueuePaused | QueueFinished


def wants_trial(row: ClaimRow, result: QuickResult, trials: str, below: float) -> bool:
    """Whether a claim goes on to a full trial after its quick check: always (``all``), when the user sent it, or
    (``auto``) when the quick verdict is contested (mixed) or less sure than ``below``."""
    if trials == "all" or row.sent_to_trial:
        return True
    if trials == "never":
        return False
    return result.label is VerdictLabel.mixed or result.confidence < below


class CheckQueue:
    def __init__(self, store: CheckStore, check_id: str, *, quick: Quick, trial: Trial | None, workers: int = 1,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.check_id = check_id
        self.quick = quick
        self.trial = trial
        self.workers = max(1, workers)
        self.clock = clock
        self._stop: CheckStatus | None = None  # paused or cancelled, once asked
        self._stop_reason = ""
        self._wake = asyncio.Event()

    def pause(self, reason: str = "paused") -> None:
        """Stop taking claims; claims in flight stop too and run again on resume."""
        self._halt(CheckStatus.paused, reason)

    def cancel(self) -> None:
        """Stop the check; its finished claims are kept (a later resume goes on)."""
        self._halt(CheckStatus.cancelled, "cancelled")

    def _halt(self, status: CheckStatus, reason: str) -> None:
        if self._stop is None:
            self._stop, self._stop_reason = status, reason
        self._wake.set()

    async def run(self) -> AsyncIterator[QueueEvent]:
        spec = await asyncio.to_thread(self.store.spec, self.check_id)
        await asyncio.to_thread(self.store.retry_failed, self.check_id)  # each run tries a failed claim once more
        await asyncio.to_thread(self.store.set_status, self.check_id, CheckStatus.running)
        events: asyncio.Queue[QueueEvent] = asyncio.Queue()
        taken: set[int] = set()
        pace: list[float] = []  # seconds of each claim finished in this run

        async def rows() -> list[ClaimRow]:
            return await asyncio.to_thread(self.store.rows, self.check_id)

        async def progress() -> None:
            current = await rows()
            done = sum(r.status in (ClaimStatus.done, ClaimStatus.failed) for r in current)
            left = len(current) - done
            eta = sum(pace) / len(pace) * left / self.workers if pace and left else (0.0 if not left else None)
            events.put_nowait(Progress(done=done, total=len(current), running=tuple(sorted(taken)),
                                       trials_left=sum(r.status is ClaimStatus.trial for r in current), eta_s=eta))

        async def changed(index: int) -> None:
            events.put_nowait(ClaimUpdated(row=await asyncio.to_thread(self.store.row, self.check_id, index)))
            await progress()

        def next_job(current: list[ClaimRow]) -> ClaimRow | None:
            free = [r for r in current if r.index not in taken]
            return next((r for r in free if r.status is ClaimStatus.pending), None) or \
                next((r for r in free if r.status is ClaimStatus.trial and self.trial is not None), None)

        async def step(row: ClaimRow) -> None:
            started = self.clock()
            try:
                if row.status is ClaimStatus.pending:
                    result = await self.quick(row.claim)
                    goes_on = self.trial is not None and wants_trial(row, result, spec.trials, spec.trial_below)
                    await asyncio.to_thread(self.store.record_quick, self.check_id, row.index, result,
                                            ClaimStatus.trial if goes_on else ClaimStatus.done)
                else:
                    assert self.trial is not None

                    def started_trial(trial_id: str) -> None:
                        self.store.record_trial(self.check_id, row.index, TrialOutcome(trial_id=trial_id),
                                                ClaimStatus.trial)

                    outcome = await self.trial(row.claim.text, row.trial.trial_id if row.trial else None, started_trial)
                    finished = outcome.label is not None
                    await asyncio.to_thread(self.store.record_trial, self.check_id, row.index, outcome,
                                            ClaimStatus.done if finished else ClaimStatus.trial)
                    if not finished:  # the trial stopped without a verdict (paused by a server, or cancelled)
                        self._halt(CheckStatus.paused, f"the trial of claim {row.index + 1} stopped without a "
                                   f"verdict ({outcome.status}): resume the check to go on")
                pace.append(self.clock() - started)
            except ModelUnavailable as exc:
                self._halt(CheckStatus.paused, f"the model server is not answering ({exc}): check it "
                           "(`courtroom doctor`), then resume the check")
            except TrialError as exc:
                if "private" in str(exc):  # the privacy rule refuses every claim alike: pause with it
                    self._halt(CheckStatus.paused, str(exc))
                else:
                    await asyncio.to_thread(self.store.record_failure, self.check_id, row.index, str(exc))
            except CourtroomError as exc:
                await asyncio.to_thread(self.store.record_failure, self.check_id, row.index, str(exc))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a bug or a library's error: this claim fails, the others go on
                log.exception("checking claim %d of %s failed", row.index + 1, self.check_id)
                await asyncio.to_thread(self.store.record_failure, self.check_id, row.index,
                                        f"{type(exc).__name__}: {exc}")
            finally:
                taken.discard(row.index)
            await changed(row.index)

        async def drive() -> None:
            running: set[asyncio.Task[None]] = set()
            try:
                while True:
                    while self._stop is None and len(running) < self.workers:
                        job = next_job(await rows())
                        if job is None:
                            break
                        taken.add(job.index)
                        task = asyncio.create_task(step(job))
                        running.add(task)
                        await progress()
                    if not running:
                        break
                    if self._stop is None:  # a stop asked meanwhile (while a step was being handed out) acts now
                        self._wake.clear()
                        waiter = asyncio.create_task(self._wake.wait())
                        done, _ = await asyncio.wait({*running, waiter}, return_when=asyncio.FIRST_COMPLETED)
                        waiter.cancel()
                        running -= done
                    if self._stop is not None and running:
                        for task in running:
                            task.cancel()
                        await asyncio.gather(*running, return_exceptions=True)
                        running.clear()
                        taken.clear()
                        break
                if self._stop is not None:
                    status, reason = self._stop, self._stop_reason
                else:
                    current = await rows()
                    status = CheckStatus.finished if all(
                        r.status in (ClaimStatus.done, ClaimStatus.failed) for r in current) else CheckStatus.paused
                    reason = "" if status is CheckStatus.finished else Message("claims are waiting for a full trial")
                await asyncio.to_thread(self.store.set_status, self.check_id, status,
                                        "" if status in (CheckStatus.finished, CheckStatus.cancelled) else reason)
                if status is CheckStatus.paused:
                    events.put_nowait(QueuePaused(reason=reason))
                await progress()
                events.put_nowait(QueueFinished(status=status))
            except BaseException:
                for task in running:
                    task.cancel()
                raise

        driver = asyncio.create_task(drive())
        try:
            while True:
                getter = asyncio.create_task(events.get())
                done, _ = await asyncio.wait({getter, driver}, return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    event = getter.result()
                    yield event
                    if isinstance(event, QueueFinished):
                        break
                    continue
                getter.cancel()
                driver.result()  # raises what ended the driver
                while not events.empty():
                    event = events.get_nowait()
                    yield event
                    if isinstance(event, QueueFinished):
                        return
                return
        finally:
            if not driver.done():
                driver.cancel()
                await asyncio.gather(driver, return_exceptions=True)
