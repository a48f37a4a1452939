"""A check of a draft as it is stored: what was checked (``CheckSpec``), each claim as the reviewer left it
(``CheckClaim``), the court's quick verdict on it (``QuickResult``), the full trial it was sent to (``TrialOutcome``),
the reviewer's sign-off (``SignOff``), and one row per claim bringing them together (``ClaimRow``).

The court's verdict is never replaced by a sign-off: an override is kept beside it, with the reviewer's name, note and
time, and every export shows both.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Literal

from pydantic import Field, model_validator

from courtroom_desktop.core.check.drafts import Location
from courtroom_desktop.core.court.records import VerdictLabel
from courtroom_desktop.core.court.scored import contradicts
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.records import Evidence, Frozen, Said, VerifierReading

TrialsWhen = Literal["auto", "never", "all"]


class ClaimStatus(StrEnum):
    pending = "pending"  # not checked yet (or its check was interrupted: it runs again on resume)
    done = "done"  # the quick check (and the full trial, where one was asked for) finished
    trial = "trial"  # the quick check finished and a full trial is to run or running
    failed = "failed"  # the check failed for this claim alone (``problem`` says why); a resume tries it again


class CheckStatus(StrEnum):
    reviewing = "reviewing"  # created, its claims not yet sent to the queue
    running = "running"  # the queue runs (or ran until the process was killed: a resume goes on)
    paused = "paused"  # paused by the user or by a model server that went down (``problem`` says which)
    cancelled = "cancelled"  # stopped by the user; finished claims are kept and a resume goes on
    finished = "finished"  # every claim done or failed


class CheckSpec(Frozen):
    """What a check is of, and how it runs."""

    draft: str = Field(description="The draft's path, or 'pasted text'.")
    kind: str = Field(description="pdf, docx, markdown or text.")
    language: str = Field("en", description="The draft's language (core.text.language_of).")
    sentences: int = Field(0, description="Sentences read from the draft.")
    draft_sha256: str = Field("", description="The draft file's content hash when the check was made ('' for pasted "
                              "text): an annotated copy is only made of the same file.")
    pasted_text: str = Field("", description="The draft itself, when it was pasted (there is no file to go back to).")
    title: str = Field("", description="A short name for the list of checks (the file's name by default).")
    trials: TrialsWhen = Field("auto", description="Which claims also get a full trial: auto (a quick verdict that is "
                               "mixed or below trial_below), never, all.")
    trial_below: float = Field(0.6, ge=0, le=1, description="A quick verdict below this confidence goes to a full trial "
                               "(trials = auto).")
    k: int = Field(6, ge=1, le=30, description="Passages the quick check retrieves per claim.")
    documents: tuple[str, ...] = Field((), description="Document ids the check searches; empty: the whole library.")
    models: dict[str, str] = Field(default_factory=dict, description="role -> provider:model, when the check was made.")
    finder: str = Field("rules", description="How the claims were found: rules, model, or both.")


class CitedSource(Frozen):
    """A reference the claim's sentence cites (core.check.references) and the library document it is."""

    reference: str = Field(description="The entry as the draft's reference list gives it.")
    doc_id: str = Field("", description="The library document it was matched to; '' when the library lacks it.")
    how: str = Field("", description="How it was matched: zotero key, doi, title, or author and year.")
    notice: str = Field("", description="A notice on the cited work the library knows of: retraction, correction or "
                        "expression of concern; '' when none.")


class CheckClaim(Frozen):
    """A claim as the reviewer left it: found by the rules or the model, edited, merged, split or added by hand. A
    merged claim stands at the locations of all its sentences."""

    text: str
    sentences: tuple[int, ...] = Field((), description="Indexes of the draft sentences it comes from (from 0).")
    locations: tuple[Location, ...] = ()
    why: tuple[str, ...] = ()
    origin: Literal["rules", "model", "edited", "merged", "split", "added"] = "rules"
    cites: tuple[CitedSource, ...] = Field((), description="The references its sentences cite; their documents are "
                                           "searched first.")


class QuickResult(Frozen):
    """One retrieval pass, every passage scored by the claim verifier, the label decided by the label rule
    (``core.court.scored``) and a sentence of reason. ``passages`` are the retrieved passages in the order shown
    (``E1`` is the first); ``readings`` the verifier's reading of each, in the same order; ``citations`` the ids the
    label rests on (the passages scored for it); ``missing`` the claim's quantities no passage states.

    A result with readings is held to them when it is made, so it cannot be stored otherwise: a label other than
    insufficient evidence needs a cited passage the verifier reads its way, and a reason that contradicts the label
    is refused. (Checks stored before the verifier have no readings and load as they were.)"""

    label: VerdictLabel
    confidence: float = Field(ge=0, le=1)
    reason: str = ""
    reason_by: Literal["rule", "model", ""] = Field("", description="Who wrote the reason: the label rule, or the "
                                                    "chat model (whose reason must agree with the label).")
    passages: tuple[Evidence, ...] = ()
    readings: tuple[VerifierReading, ...] = ()
    citations: tuple[str, ...] = ()
    missing: tuple[str, ...] = Field((), description="The claim's numbers or quantities that no passage states.")
    cited_says: Literal["supports", "refutes", "does not address", ""] = Field(
        "", description="What the cited sources' own passages say of the claim, by the label rule over them alone: "
        "'' when the claim cites nothing the library has.")
    warnings: tuple[str, ...] = ()
    tokens: int = 0
    seconds: float = 0.0

    @model_validator(mode="after")
    def _held_to_scores(self) -> QuickResult:
        if not self.readings:
            return self
        if len(self.readings) != len(self.passages):
            raise ValueError(Message("{len(self.readings)} verifier readings for {len(self.passages)} passages",
                                     len(self.readings), len(self.passages)))
        if any(not (cid[:1] == "E" and cid[1:].isdigit() and 1 <= int(cid[1:]) <= len(self.passages))
               for cid in self.citations):
            raise ValueError(Message("citations {list(self.citations)} name passages that were not shown",
                                     list(self.citations)))
        read = {self.readings[int(cid[1:]) - 1].backs for cid in self.citations}
        needs = {VerdictLabel.supported: {"supports"}, VerdictLabel.refuted: {"refutes"},
                 VerdictLabel.mixed: {"supports", "refutes"}}.get(self.label, set())
        if not needs <= read:
            raise ValueError(Message("'{self.label.value}' with no cited passage the verifier scored for it",
                                     self.label.value))
        problem = contradicts(self.label, self.reason)
        if problem:
            raise ValueError(Message("the reason contradicts the label: {problem}", problem))
        return self

    def cited(self) -> list[tuple[str, Evidence]]:
        """(id, passage) of each citation, in the order cited."""
        return [(cid, self.passages[int(cid[1:]) - 1]) for cid in self.citations]

    def reading(self, evidence_id: str) -> VerifierReading | None:
        """The verifier's reading of passage ``evidence_id`` (E1, ...), None when it was not scored."""
        number = int(evidence_id[1:]) if evidence_id[1:].isdigit() else 0
        return self.readings[number - 1] if 1 <= number <= len(self.readings) else None


class TrialOutcome(Frozen):
    """The full trial a claim was sent to: its id, and once it has one, its verdict."""

    trial_id: str
    status: str = "running"  # running, paused, finished, cancelled (the trial store's)
    label: VerdictLabel | None = None
    confidence: float | None = None
    summary: str = ""


class SignOff(Frozen):
    """A reviewer's word on a claim: accepted (the court's verdict stands) or overridden (with the reviewer's own
    label); kept beside the court's verdict, never in its place."""

    reviewer: str = Field(min_length=1)
    decision: Literal["accepted", "overridden"]
    label: VerdictLabel | None = Field(None, description="The reviewer's verdict, when overridden.")
    note: str = ""
    at: float = Field(description="When (seconds since the epoch).")

    def when(self) -> str:
        return dt.datetime.fromtimestamp(self.at, tz=dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


class ClaimRow(Frozen):
    """One claim of a check and everything known of it."""

    index: int = Field(description="Position in the check, from 0.")
    claim: CheckClaim
    status: ClaimStatus = ClaimStatus.pending
    quick: QuickResult | None = None
    trial: TrialOutcome | None = None
    problem: Said = ""
    signoff: SignOff | None = None
    sent_to_trial: bool = Field(False, description="The user asked for a full trial of this claim.")

    @property
    def label(self) -> VerdictLabel | None:
        """The court's verdict: the full trial's once it has one, else the quick check's."""
        if self.trial is not None and self.trial.label is not None:
            return self.trial.label
        return self.quick.label if self.quick is not None else None

    @property
    def confidence(self) -> float | None:
        if self.trial is not None and self.trial.confidence is not None:
            return self.trial.confidence
        return self.quick.confidence if self.quick is not None else None

    @property
    def by(self) -> str:
        """Which step the verdict comes from: 'trial', 'quick check', or '' (none yet)."""
        if self.trial is not None and self.trial.label is not None:
            return "trial"
        return "quick check" if self.quick is not None else ""

    @property
    def cited_in_library(self) -> bool:
        return any(c.doc_id for c in self.claim.cites)

    @property
    def cited_source_fails(self) -> bool:
        """The finding a reviewer most needs: the claim cites a source the library has, and that source does not
        support it (it refutes it, or does not address it)."""
        return self.quick is not None and self.quick.cited_says in ("refutes", "does not address")

    @property
    def final_label(self) -> VerdictLabel | None:
        """The label that goes out: the reviewer's where overridden, else the court's."""
        if self.signoff is not None and self.signoff.decision == "overridden" and self.signoff.label is not None:
            return self.signoff.label
        return self.label


class CheckSummary(Frozen):
    id: str
    title: str
    draft: str
    status: CheckStatus
    claims: int
    done: int
    failed: int
    signed: int
    problem: Said
    created_at: float
    updated_at: float


class CheckRecord(Frozen):
    """A stored check, whole: what the exports and the window read."""

    id: str
    spec: CheckSpec
    status: CheckStatus
    problem: Said = ""
    rows: tuple[ClaimRow, ...] = ()
    created_at: float = 0.0
    updated_at: float = 0.0

    def counts(self) -> dict[str, int]:
        """Claims per court verdict label (and 'unchecked')."""
        out: dict[str, int] = {}
        for row in self.rows:
            key = row.label.value if row.label is not None else "unchecked"
            out[key] = out.get(key, 0) + 1
        return out
