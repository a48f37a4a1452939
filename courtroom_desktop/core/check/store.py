"""The check store: one SQLite file (``checks.sqlite`` beside the trials), a row per check and a row per claim.

Every change to a claim (its quick verdict, its trial, a failure, a sign-off) is one committed UPDATE of its row, so
a process killed at any moment loses no finished claim: a claim whose check was in flight is still ``pending`` (or
``trial``) and runs again on resume.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence

from courtroom_desktop.core.check.records import (
    CheckClaim,
    CheckRecord,
    CheckSpec,
    CheckStatus,
    CheckSummary,
    ClaimRow,
    ClaimStatus,
    QuickResult,
    SignOff,
    TrialOutcome,
)
from courtroom_desktop.core.errors import CheckError
from courtroom_desktop.core.lexicon import message
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.sqlite import SqliteFile

SCHEMA = """
CREATE TABLE IF NOT EXISTS checks (
    id TEXT PRIMARY KEY, title TEXT NOT NULL, draft TEXT NOT NULL, spec TEXT NOT NULL, status TEXT NOT NULL,
    problem TEXT NOT NULL DEFAULT '', created_at REAL NOT NULL, updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS claims (
    check_id TEXT NOT NULL, idx INTEGER NOT NULL, claim TEXT NOT NULL, status TEXT NOT NULL,
    quick TEXT, trial TEXT, problem TEXT NOT NULL DEFAULT '', signoff TEXT, sent_to_trial INTEGER NOT NULL DEFAULT 0,
    updated_at REAL NOT NULL, PRIMARY KEY (check_id, idx)
);
"""


def _dump(model: object) -> str | None:
    return None if model is None else model.model_dump_json()  # type: ignore[attr-defined]


class CheckStore(SqliteFile):
    SCHEMA = SCHEMA

    # ---------------------------------------------------------------- writing
    def create(self, spec: CheckSpec, claims: Sequence[CheckClaim], status: CheckStatus = CheckStatus.running) -> str:
        """A new check with its claims, all pending; returns its id."""
        if not claims:
            raise CheckError(spec.draft, Message("no claims to check"), fix=Message("add a claim, or check a draft with "
                                                                           "claims in it"))
        check_id = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        now = time.time()
        title = spec.title or spec.draft
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("INSERT INTO checks VALUES (?,?,?,?,?,?,?,?)",
                                 (check_id, title, spec.draft, spec.model_dump_json(), status.value, "", now, now))
                self._db.executemany(
                    "INSERT INTO claims (check_id, idx, claim, status, updated_at) VALUES (?,?,?,?,?)",
                    [(check_id, i, c.model_dump_json(), ClaimStatus.pending.value, now) for i, c in enumerate(claims)])
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return check_id

    def set_status(self, check_id: str, status: CheckStatus, problem: str = "") -> None:
        with self._lock:
            self._db.execute("UPDATE checks SET status = ?, problem = ?, updated_at = ? WHERE id = ?",
                             (status.value, message.dump(problem), time.time(), check_id))

    def _update(self, check_id: str, index: int, **values: object) -> None:
        columns = ", ".join(f"{name} = ?" for name in values)
        now = time.time()
        with self._lock:
            cursor = self._db.execute(f"UPDATE claims SET {columns}, updated_at = ? WHERE check_id = ? AND idx = ?",
                                      (*values.values(), now, check_id, index))
            if cursor.rowcount != 1:
                raise CheckError(check_id, Message("the check has no claim {index + 1}", index + 1), fix=Message("list its claims"))
            self._db.execute("UPDATE checks SET updated_at = ? WHERE id = ?", (now, check_id))

    def record_quick(self, check_id: str, index: int, result: QuickResult, status: ClaimStatus) -> None:
        """A claim's quick verdict, and what comes next for it (done, or trial)."""
        self._update(check_id, index, quick=result.model_dump_json(), status=status.value, problem="")

    def record_trial(self, check_id: str, index: int, outcome: TrialOutcome, status: ClaimStatus) -> None:
        self._update(check_id, index, trial=outcome.model_dump_json(), status=status.value, problem="")

    def retry_failed(self, check_id: str) -> int:
        """The check's failed claims made pending again (a resume tries them once more, their problem kept until
        then); returns how many."""
        with self._lock:
            cursor = self._db.execute("UPDATE claims SET status = ?, updated_at = ? WHERE check_id = ? AND status = ?",
                                      (ClaimStatus.pending.value, time.time(), check_id, ClaimStatus.failed.value))
        return cursor.rowcount

    def record_failure(self, check_id: str, index: int, problem: str) -> None:
        self._update(check_id, index, status=ClaimStatus.failed.value, problem=message.dump(problem))

    def send_to_trial(self, check_id: str, index: int) -> None:
        """The user asks for a full trial of this claim: it runs at the queue's next pass (after its quick check)."""
        row = self.row(check_id, index)
        status = ClaimStatus.trial if row.quick is not None and row.trial is None else row.status
        self._update(check_id, index, sent_to_trial=1, status=status.value)

    def sign_off(self, check_id: str, index: int, signoff: SignOff | None) -> None:
        """A reviewer's sign-off of a claim (None: withdrawn)."""
        self._update(check_id, index, signoff=_dump(signoff))

    def delete(self, check_id: str) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("DELETE FROM claims WHERE check_id = ?", (check_id,))
                self._db.execute("DELETE FROM checks WHERE id = ?", (check_id,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    # ---------------------------------------------------------------- reading
    def find(self, ref: str) -> str:
        """A check's id from its id or a unique prefix."""
        ref = ref.strip()
        with self._lock:
            rows = self._db.execute("SELECT id FROM checks WHERE id = ? OR id LIKE ? ORDER BY id",
                                    (ref, ref.replace("%", "") + "%")).fetchall()
        ids = [r[0] for r in rows]
        if ref in ids:
            return ref
        if len(ids) == 1 and ref:
            return str(ids[0])
        if not ids or not ref:
            raise CheckError(ref or "(empty)", Message("no such check"), fix=Message("see `courtroom checks list`"))
        raise CheckError(ref, Message("{len(ids)} checks start with it", len(ids)), fix=Message("give more of the id"))

    def spec(self, check_id: str) -> CheckSpec:
        with self._lock:
            row = self._db.execute("SELECT spec FROM checks WHERE id = ?", (check_id,)).fetchone()
        if row is None:
            raise CheckError(check_id, Message("no such check"), fix=Message("see `courtroom checks list`"))
        return CheckSpec.model_validate_json(row[0])

    def rows(self, check_id: str) -> list[ClaimRow]:
        with self._lock:
            found = self._db.execute(
                "SELECT idx, claim, status, quick, trial, problem, signoff, sent_to_trial FROM claims "
                "WHERE check_id = ? ORDER BY idx", (check_id,)).fetchall()
        return [_row(*r) for r in found]

    def row(self, check_id: str, index: int) -> ClaimRow:
        with self._lock:
            found = self._db.execute(
                "SELECT idx, claim, status, quick, trial, problem, signoff, sent_to_trial FROM claims "
                "WHERE check_id = ? AND idx = ?", (check_id, index)).fetchone()
        if found is None:
            raise CheckError(check_id, Message("the check has no claim {index + 1}", index + 1), fix=Message("list its claims"))
        return _row(*found)

    def record(self, check_id: str) -> CheckRecord:
        with self._lock:
            head = self._db.execute("SELECT spec, status, problem, created_at, updated_at FROM checks WHERE id = ?",
                                    (check_id,)).fetchone()
        if head is None:
            raise CheckError(check_id, Message("no such check"), fix=Message("see `courtroom checks list`"))
        return CheckRecord(id=check_id, spec=CheckSpec.model_validate_json(head[0]), status=CheckStatus(head[1]),
                           problem=head[2], rows=tuple(self.rows(check_id)), created_at=head[3], updated_at=head[4])

    def list(self) -> list[CheckSummary]:
        """Every check, newest first."""
        with self._lock:
            found = self._db.execute(
                "SELECT c.id, c.title, c.draft, c.status, c.problem, c.created_at, c.updated_at, COUNT(l.idx), "
                "SUM(l.status = 'done'), SUM(l.status = 'failed'), SUM(l.signoff IS NOT NULL) "
                "FROM checks c LEFT JOIN claims l ON l.check_id = c.id GROUP BY c.id ORDER BY c.created_at DESC, c.id DESC"
            ).fetchall()
        return [CheckSummary(id=r[0], title=r[1], draft=r[2], status=CheckStatus(r[3]), problem=r[4], created_at=r[5],
                             updated_at=r[6], claims=r[7], done=r[8] or 0, failed=r[9] or 0, signed=r[10] or 0)
                for r in found]


def _row(index: int, claim: str, status: str, quick: str | None, trial: str | None, problem: str,
         signoff: str | None, sent: int) -> ClaimRow:
    return ClaimRow(index=index, claim=CheckClaim.model_validate_json(claim), status=ClaimStatus(status),
                    quick=QuickResult.model_validate_json(quick) if quick else None,
                    trial=TrialOutcome.model_validate_json(trial) if trial else None, problem=problem,
                    signoff=SignOff.model_validate_json(signoff) if signoff else None, sent_to_trial=bool(sent))

