"""The trial store: one SQLite file, one append-only row per event.

A trial's state is rebuilt from its events, so a trial killed at any point resumes from its last complete turn,
and nothing the user saw is lost. Token deltas are not stored: their text is in the turn_finished event.
"""

from __future__ import annotations

import queue
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from courtroom_desktop.core.court.records import EVENT_ADAPTER, TokenDelta, TrialEvent, TrialSpec, _Event
from courtroom_desktop.core.errors import TrialError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.records import ModelCall
from courtroom_desktop.core.sqlite import SqliteFile

E = TypeVar("E", bound=_Event)

SCHEMA = """
CREATE TABLE IF NOT EXISTS trials (
    id TEXT PRIMARY KEY, claim TEXT NOT NULL, case_type TEXT NOT NULL, spec TEXT NOT NULL,
    status TEXT NOT NULL, label TEXT, confidence REAL, created_at REAL NOT NULL, updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    trial_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (trial_id, seq)
);
CREATE TABLE IF NOT EXISTS model_calls (
    trial_id TEXT NOT NULL, n INTEGER NOT NULL, step TEXT NOT NULL, round INTEGER NOT NULL, turn INTEGER NOT NULL,
    payload TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (trial_id, n)
);
"""


@dataclass(frozen=True)
class TrialSummary:
    id: str
    claim: str
    case_type: str
    status: str  # running, paused, finished, cancelled
    label: str | None
    confidence: float | None
    created_at: float
    updated_at: float
    events: int


class TrialStore(SqliteFile):
    SCHEMA = SCHEMA

    def create(self, spec: TrialSpec) -> str:
        trial_id = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT INTO trials (id, claim, case_type, spec, status, created_at, updated_at) VALUES (?,?,?,?,?,?,?)",
                (trial_id, spec.claim, spec.case.value, spec.model_dump_json(), "running", now, now),
            )
        return trial_id

    def append(self, event: TrialEvent) -> TrialEvent:
        """Give the event the next sequence number and store it (in one transaction); returns the numbered event."""
        if isinstance(event, TokenDelta):
            return event
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE trial_id = ?",
                                       (event.trial_id,)).fetchone()
                numbered = event.model_copy(update={"seq": row[0] + 1})
                self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                                 (event.trial_id, numbered.seq, numbered.kind, numbered.model_dump_json(), numbered.at))
                self._db.execute("UPDATE trials SET updated_at = ? WHERE id = ?", (numbered.at, event.trial_id))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return numbered

    def insert(self, event: TrialEvent) -> None:
        """Store an event that already has its sequence number (see ``Recorder``)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                                 (event.trial_id, event.seq, event.kind, event.model_dump_json(), event.at))
                self._db.execute("UPDATE trials SET updated_at = ? WHERE id = ?", (event.at, event.trial_id))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def set_status(self, trial_id: str, status: str, label: str | None = None, confidence: float | None = None) -> None:
        with self._lock:
            self._db.execute("UPDATE trials SET status = ?, label = COALESCE(?, label), "
                             "confidence = COALESCE(?, confidence), updated_at = ? WHERE id = ?",
                             (status, label, confidence, time.time(), trial_id))

    def spec(self, trial_id: str) -> TrialSpec:
        with self._lock:
            row = self._db.execute("SELECT spec FROM trials WHERE id = ?", (trial_id,)).fetchone()
        if row is None:
            raise TrialError(Message("no trial {trial_id}: see `courtroom trials list`", f'{trial_id!r}'))
        return TrialSpec.model_validate_json(row[0])

    def add_call(self, call: ModelCall) -> None:
        """Keep one model call of a trial (the exact prompt and the raw answer): beside its events, not one of them,
        so nothing that reads the events (a report, an export) sees it unless it asks (``calls``)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                row = self._db.execute("SELECT COALESCE(MAX(n), 0) FROM model_calls WHERE trial_id = ?",
                                       (call.trial_id,)).fetchone()
                self._db.execute("INSERT INTO model_calls VALUES (?, ?, ?, ?, ?, ?, ?)",
                                 (call.trial_id, row[0] + 1, call.step, call.round, call.index,
                                  call.model_dump_json(), call.at))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def calls(self, trial_id: str, step: str | None = None, round_number: int | None = None,
              turn: int | None = None) -> list[ModelCall]:
        """A trial's model calls in the order they were made; only those of a step (turn, assessment, ruling,
        verdict), a round or a counsel turn (0-based) when asked."""
        asked = [(column, value) for column, value in (("step", step), ("round", round_number), ("turn", turn))
                 if value is not None]
        where = ["trial_id = ?"] + [f"{column} = ?" for column, _ in asked]
        args = (trial_id, *(value for _, value in asked))
        with self._lock:
            rows = self._db.execute(f"SELECT payload FROM model_calls WHERE {' AND '.join(where)} ORDER BY n",
                                    args).fetchall()
        return [ModelCall.model_validate_json(payload) for (payload,) in rows]

    def events(self, trial_id: str) -> list[TrialEvent]:
        with self._lock:
            rows = self._db.execute("SELECT payload FROM events WHERE trial_id = ? ORDER BY seq",
                                    (trial_id,)).fetchall()
        return [EVENT_ADAPTER.validate_json(payload) for (payload,) in rows]

    def find(self, ref: str) -> str:
        with self._lock:
            rows = self._db.execute("SELECT id FROM trials WHERE id = ? OR id LIKE ? ORDER BY created_at",
                                    (ref, f"{ref}%")).fetchall()
        exact = [r[0] for r in rows if r[0] == ref]
        if exact:
            return str(exact[0])
        if len(rows) != 1:
            raise TrialError(Message("{ref}: no trial matches; use an id from `courtroom trials list`", f'{ref!r}') if not rows else
                             Message("{ref}: several trials match; use an id from `courtroom trials list`",
                                     f'{ref!r}'))
        return str(rows[0][0])

    def list(self) -> list[TrialSummary]:
        with self._lock:
            rows = self._db.execute(
                "SELECT t.id, t.claim, t.case_type, t.status, t.label, t.confidence, t.created_at, t.updated_at, "
                "(SELECT COUNT(*) FROM events e WHERE e.trial_id = t.id) FROM trials t ORDER BY t.created_at"
            ).fetchall()
        return [TrialSummary(*row) for row in rows]

    def delete(self, trial_id: str) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM model_calls WHERE trial_id = ?", (trial_id,))
            self._db.execute("DELETE FROM events WHERE trial_id = ?", (trial_id,))
            self._db.execute("DELETE FROM trials WHERE id = ?", (trial_id,))
            self._db.execute("COMMIT")



def _FLUSHED(done: threading.Event) -> None:
    """The queue's marker for ``Recorder.flush``: never called as a write."""


class Recorder:
    """Writes one running trial's events (and status changes) to the store, in order, in a thread of its own: the
    event loop numbers an event and goes on, and never waits for SQLite. ``close()`` waits until everything queued is
    written. A write that fails is kept and raised (as a TrialError with its fix) at the next ``record``."""

    def __init__(self, store: TrialStore, trial_id: str, last_seq: int) -> None:
        self.store, self.trial_id, self.seq = store, trial_id, last_seq
        self.error: BaseException | None = None
        self._queue: queue.SimpleQueue[tuple[Callable[..., None], tuple[Any, ...]] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._write, name="courtroom-trial-store", daemon=True)
        self._thread.start()

    def record(self, event: E) -> E:
        """The event numbered (the next sequence number) and queued for the store; token deltas are not stored."""
        self.check()
        if isinstance(event, TokenDelta):
            return event
        self.seq += 1
        numbered = event.model_copy(update={"trial_id": self.trial_id, "seq": self.seq})
        self._queue.put((self.store.insert, (numbered,)))
        return numbered

    def call(self, call: ModelCall) -> None:
        """A model call of the trial queued for the store (its prompt and raw answer; see ``TrialStore.add_call``)."""
        self._queue.put((self.store.add_call, (call.model_copy(update={"trial_id": self.trial_id,
                                                                       "after_seq": self.seq}),)))

    def status(self, status: str, label: str | None = None, confidence: float | None = None) -> None:
        self._queue.put((self.store.set_status, (self.trial_id, status, label, confidence)))

    def check(self) -> None:
        if self.error is not None:
            raise TrialError(Message("the trial could not be saved ({self.error})", self.error),
                             fix=Message("check that the data folder is writable and has room, then resume the trial"))

    async def flush(self) -> None:
        """Wait until everything queued so far is written (or has failed), then raise a failed write as ``record``
        does: a trial's last events, its verdict among them, are known to be saved before the trial says so."""
        import asyncio

        done = threading.Event()
        self._queue.put((_FLUSHED, (done,)))
        await asyncio.to_thread(done.wait)
        self.check()

    async def close(self) -> None:
        import asyncio

        self._queue.put(None)
        await asyncio.to_thread(self._thread.join)

    def _write(self) -> None:
        while (item := self._queue.get()) is not None:
            write, args = item
            if write is _FLUSHED:
                args[0].set()
            elif self.error is None:
                try:
                    write(*args)
                except Exception as exc:  # noqa: BLE001 - kept, raised on the loop by the next record()
                    self.error = exc
