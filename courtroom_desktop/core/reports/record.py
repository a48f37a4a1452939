"""The complete record of one trial, as the reports show it and as ``report.json`` stores it.

``TrialRecord.from_store`` rebuilds it from the trial store's events (through ``TrialState.from_events``); export
adds ``sources``: where the highlighted copy of each cited passage's page was written.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Literal, Protocol

from pydantic import Field

from courtroom_desktop import __version__
from courtroom_desktop.core.court.coverage import TrialCoverage
from courtroom_desktop.core.court.records import (
    Assessment,
    ErrorEvent,
    PoolEntry,
    RolesSwitched,
    Ruling,
    TrackedChallenge,
    TrialEvent,
    TrialResumed,
    TrialSpec,
    TrialStarted,
    TrialWarning,
    Turn,
    Verdict,
    VerdictReached,
)
from courtroom_desktop.core.records import Frozen, Usage

REPORT_SCHEMA_VERSION = 2  # 2: the court's reasons are {code, params} objects (were English sentences)
Audience = Literal["general", "expert"]


class _TrialListing(Protocol):
    """What ``TrialRecord.from_store`` reads of a trial in the store's list (a ``core.court.store.TrialSummary``)."""

    @property
    def id(self) -> str: ...
    @property
    def status(self) -> str: ...


class TrialSource(Protocol):
    """What ``TrialRecord.from_store`` reads of a trial store (a ``core.court.store.TrialStore``)."""

    def spec(self, trial_id: str) -> TrialSpec: ...
    def events(self, trial_id: str) -> Sequence[TrialEvent]: ...
    def list(self) -> Iterable[_TrialListing]: ...


class SourceCopy(Frozen):
    """The highlighted copy of the page(s) a cited passage sits on, written beside the report."""

    evidence_id: str
    pdf: str = Field("", description="Path of the annotated PDF relative to the report folder, e.g. 'sources/E3-p4.pdf'; "
                                     "empty when no copy could be made (see note).")
    page: int = Field(1, description="1-based page of the annotated PDF where the passage starts.")
    pages: int = Field(0, description="Pages in the annotated PDF.")
    original_page: int = Field(description="1-based page of the source document where the passage starts.")
    images: tuple[str, ...] = Field((), description="PNG renders of the highlighted region, one per page, relative paths.")
    highlights: int = Field(0, description="Highlight annotations placed on the passage's stored rectangles.")
    quotes: tuple[str, ...] = Field((), description="Quotations of the passage that were found and highlighted too.")
    note: str = Field("", description="Why there is no copy, or what could not be highlighted.")
    excerpt: str = Field("", description="For a passage of a text document (no pages): its excerpt, an HTML file with "
                         "the passage marked, relative to the report folder, e.g. 'sources/E3.html'.")

    @property
    def href(self) -> str:
        if self.excerpt:
            return f"{self.excerpt}#passage"
        return f"{self.pdf}#page={self.page}" if self.pdf else ""


class TrialRecord(Frozen):
    """Everything about one trial that a report shows: what was tried, how, by whom, and what came of it."""

    report_schema_version: int = REPORT_SCHEMA_VERSION
    app_version: str = __version__
    trial_id: str
    generated_at: str = Field(description="When the report was made (ISO 8601, local time with offset).")
    started_at: str = Field("", description="When the trial started (ISO 8601); empty if unknown.")
    finished_at: str = Field("", description="When the verdict was reached (ISO 8601); empty without a verdict.")
    status: str = Field("", description="running, paused, stopped, finished or cancelled, as the trial store has it.")
    spec: TrialSpec = Field(description="The claim or decision, case type, scope, debate settings and models used.")
    pool: tuple[PoolEntry, ...] = Field((), description="The evidence pool, E1, E2, ... in order of entry; each a "
                                                        "snapshot of the passage that survives the document's removal.")
    turns: tuple[Turn, ...] = Field((), description="The transcript: every counsel turn in order.")
    rulings: tuple[Ruling, ...] = Field((), description="The judge's ruling after each round.")
    switches: tuple[RolesSwitched, ...] = Field((), description="Role switches; `round` is the round after which counsel swapped.")
    resumptions: tuple[TrialResumed, ...] = ()
    verdict: Verdict | None = None
    warnings: tuple[TrialWarning, ...] = ()
    errors: tuple[ErrorEvent, ...] = ()
    usage: Usage = Field(Usage(), description="Tokens and model seconds over the whole trial.")
    assessments: tuple[Assessment, ...] = Field((), description="What each passage says about the claim (supports, "
                                                "refutes, mixed, irrelevant) and its relevance, as the judge's model "
                                                "assessed it after the round it entered; not who found it.")
    challenges: tuple[TrackedChallenge, ...] = Field((), description="Every challenge (Q1, Q2, ...: the judge's open "
                                                     "questions, counsel's direct questions) with its last mark.")
    sources: tuple[SourceCopy, ...] = Field((), description="Highlighted copies of the cited pages (filled in by export).")
    coverage: TrialCoverage | None = Field(None, description="What the trial's searches covered (added within version "
                                           "2): every passage found, admitted or turned away and why, per document, "
                                           "and the documents in scope no search reached (core.court.coverage).")

    # ---------------------------------------------------------------- assembly
    @classmethod
    def from_events(cls, trial_id: str, spec: TrialSpec, events: Sequence[TrialEvent], status: str = "",
                    now: dt.datetime | None = None, scope: Sequence[tuple[str, str]] = ()) -> TrialRecord:
        """``scope``: (doc id, title) of every document the trial could search, for its coverage."""
        from courtroom_desktop.core.court.coverage import trial_coverage
        from courtroom_desktop.core.court.rules import tracked_challenges
        from courtroom_desktop.core.court.state import TrialState

        state = TrialState.from_events(trial_id, spec, events)
        started = next((e.at for e in events if isinstance(e, TrialStarted)), None)
        finished = next((e.at for e in events if isinstance(e, VerdictReached)), None)
        return cls(
            trial_id=trial_id,
            generated_at=_iso((now or dt.datetime.now().astimezone()).timestamp()),
            started_at=_iso(started) if started else "",
            finished_at=_iso(finished) if finished else "",
            status=status or ("finished" if state.verdict else ""),
            spec=spec,
            pool=tuple(state.pool),
            turns=tuple(state.turns),
            rulings=tuple(state.rulings),
            switches=tuple(state.switches),
            resumptions=tuple(e for e in events if isinstance(e, TrialResumed)),
            verdict=state.verdict,
            warnings=tuple(e for e in events if isinstance(e, TrialWarning)),
            errors=tuple(e for e in events if isinstance(e, ErrorEvent)),
            usage=state.usage(),
            assessments=tuple(state.assessments[e.id] for e in state.pool if e.id in state.assessments),
            challenges=tuple(tracked_challenges(state)),
            coverage=trial_coverage(events, scope),
        )

    @classmethod
    def from_store(cls, store: TrialSource, trial_id: str, now: dt.datetime | None = None,
                   scope: Sequence[tuple[str, str]] = ()) -> TrialRecord:
        """``store``: a TrialStore; ``trial_id``: a full id (``store.find`` resolves prefixes); ``scope``: (doc id,
        title) of the documents it could search."""
        spec = store.spec(trial_id)
        status = next((t.status for t in store.list() if t.id == trial_id), "")
        return cls.from_events(trial_id, spec, store.events(trial_id), status=status, now=now, scope=scope)

    # ---------------------------------------------------------------- lookups
    def entry(self, evidence_id: str) -> PoolEntry | None:
        return next((e for e in self.pool if e.id == evidence_id), None)

    def source(self, evidence_id: str) -> SourceCopy | None:
        return next((s for s in self.sources if s.evidence_id == evidence_id), None)

    def cited_by(self, evidence_id: str) -> list[str]:
        """Who cited a passage: 'Prosecution (rounds 1, 2)' per role with a valid citation of it, then 'verdict'
        (in English; the reports say it in the claim's language through ``view.cited_by_text``)."""
        who = [f"{role} (round{'s' if len(n) > 1 else ''} {', '.join(map(str, n))})"
               for role, n in self.citing_rounds(evidence_id).items()]
        if self.cited_in_verdict(evidence_id):
            who.append("verdict")
        return who

    def citing_rounds(self, evidence_id: str) -> dict[str, list[int]]:
        """role -> the rounds in which that role made a valid citation of the passage, in order."""
        rounds: dict[str, list[int]] = {}
        for turn in self.turns:
            if any(c.valid and c.evidence_id == evidence_id for c in turn.citations):
                numbers = rounds.setdefault(turn.role, [])
                if turn.round not in numbers:
                    numbers.append(turn.round)
        return rounds

    def cited_in_verdict(self, evidence_id: str) -> bool:
        return bool(self.verdict and any(evidence_id in f.citations for f in self.verdict.findings))

    def cited_ids(self) -> list[str]:
        """Pool ids cited by a valid turn citation or a verdict finding, in pool order."""
        cited = {c.evidence_id for t in self.turns for c in t.citations if c.valid}
        if self.verdict:
            cited.update(i for f in self.verdict.findings for i in f.citations)
        return [e.id for e in self.pool if e.id in cited]

    def quotes(self, evidence_id: str) -> list[str]:
        """Quotations of a passage that counsel made (and the court accepted)."""
        return list(dict.fromkeys(c.quote for t in self.turns for c in t.citations
                                  if c.valid and c.evidence_id == evidence_id and c.quote.strip()))

    def citing_stance(self, evidence_id: str) -> str:
        """'for', 'against', 'both' (cited by both sides) or '' (not cited by counsel)."""
        stances = {t.stance.value for t in self.turns if any(c.valid and c.evidence_id == evidence_id for c in t.citations)}
        if not stances:
            return ""
        return stances.pop() if len(stances) == 1 else "both"

    def weight(self, evidence_id: str) -> float | None:
        if not self.verdict:
            return None
        return next((w.weight for w in self.verdict.evidence if w.id == evidence_id), None)

    def assessment(self, evidence_id: str) -> Assessment | None:
        return next((a for a in self.assessments if a.evidence_id == evidence_id), None)

    def switched_after(self, round_number: int) -> RolesSwitched | None:
        return next((s for s in self.switches if s.round == round_number), None)


def _iso(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp).astimezone().isoformat(timespec="seconds")
