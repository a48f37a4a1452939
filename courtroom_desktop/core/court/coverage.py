"""What a trial's searches covered, from its events: every passage a search found (admitted to the pool, or turned
away and why), what the judge made of those admitted, which the sides or the verdict cited, and which documents in
scope no search ever reached. Across trials, the same per document: how often cited, how often never retrieved.

Pure functions of stored events and the documents in scope: the window computes them in a thread (Workspace)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import Field

from courtroom_desktop.core.court.records import (
    EvidenceAdded,
    EvidenceAssessed,
    EvidenceTurnedAway,
    Reason,
    TrialEvent,
    TurnFinished,
    VerdictReached,
)
from courtroom_desktop.core.records import Evidence, Frozen

EXCERPT = 240


class PassageCoverage(Frozen):
    """One passage a search found: ``admitted`` (with its pool id) or turned away (with the reason)."""

    doc_id: str
    doc_title: str
    chunk_id: str
    page: int = Field(-1, description="1-based page; -1 for a text document.")
    excerpt: str
    query: str
    round: int
    found_by: str
    admitted: bool
    evidence_id: str = ""
    reason: Reason | None = Field(None, description="Why it was turned away.")
    judged: str = Field("", description="The judge's model's reading of an admitted passage: supports, refutes, "
                        "mixed, irrelevant ('' not assessed).")
    relevance: float | None = None
    injection: bool = Field(False, description="Admitted, flagged: it reads like instructions to a model.")
    cited: int = Field(0, description="How many times the sides and the verdict cited it.")


class DocumentCoverage(Frozen):
    doc_id: str
    title: str
    in_scope: bool = True
    found: int = Field(0, description="Passages of it the searches found (admitted or not).")
    admitted: int = 0
    turned_away: int = 0
    cited: int = 0

    @property
    def retrieved(self) -> bool:
        return self.found > 0


class TrialCoverage(Frozen):
    queries: tuple[str, ...] = ()
    passages: tuple[PassageCoverage, ...] = ()
    documents: tuple[DocumentCoverage, ...] = Field((), description="Retrieved documents first (most found), then "
                                                    "the documents in scope never retrieved.")

    @property
    def never_retrieved(self) -> list[DocumentCoverage]:
        return [d for d in self.documents if not d.retrieved]


def citation_counts(events: Iterable[TrialEvent]) -> dict[str, int]:
    """Evidence id -> times cited by counsel (valid citations) and by the verdict's findings."""
    counts: dict[str, int] = {}
    for event in events:
        ids: list[str] = []
        if isinstance(event, TurnFinished):
            ids = [c.evidence_id for c in event.turn.citations if c.valid]
        elif isinstance(event, VerdictReached):
            ids = [c for f in event.verdict.findings for c in f.citations]
        for evidence_id in ids:
            counts[evidence_id] = counts.get(evidence_id, 0) + 1
    return counts


def _passage(evidence: Evidence, round_number: int, found_by: str, **fields: Any) -> PassageCoverage:
    chunk = evidence.chunk
    return PassageCoverage(doc_id=chunk.doc_id, doc_title=evidence.doc_title, chunk_id=chunk.id,
                           page=chunk.page_start + 1 if chunk.page_start >= 0 else -1,
                           excerpt=" ".join(chunk.text.split())[:EXCERPT], query=evidence.query, round=round_number,
                           found_by=found_by, **fields)


def trial_coverage(events: Sequence[TrialEvent], scope: Sequence[tuple[str, str]] = ()) -> TrialCoverage:
    """A trial's coverage from its events; ``scope``: (doc id, title) of every document the trial could search."""
    cited = citation_counts(events)
    assessed = {a.evidence_id: a for e in events if isinstance(e, EvidenceAssessed) for a in e.assessments}
    passages: list[PassageCoverage] = []
    queries: dict[str, None] = {}
    for event in events:
        if isinstance(event, EvidenceAdded):
            entry = event.entry
            judged = assessed.get(entry.id)
            passages.append(_passage(entry.evidence, entry.round, str(entry.found_by), admitted=True,
                                     evidence_id=entry.id, judged=judged.stance.value if judged else "",
                                     relevance=judged.relevance if judged else None, injection=entry.injection,
                                     cited=cited.get(entry.id, 0)))
        elif isinstance(event, EvidenceTurnedAway):
            passages += [_passage(p.evidence, event.round, event.found_by.value, admitted=False, reason=p.reason)
                         for p in event.passages]
        elif isinstance(event, TurnFinished):
            queries.update(dict.fromkeys(event.turn.queries))
    titles = dict(scope)
    counts: dict[str, Counter[str]] = {}
    names: dict[str, str] = {}
    for passage in passages:
        names.setdefault(passage.doc_id, passage.doc_title or titles.get(passage.doc_id, ""))
        row = counts.setdefault(passage.doc_id, Counter())
        row.update(found=1, admitted=int(passage.admitted), turned_away=int(not passage.admitted), cited=passage.cited)
    found = sorted((DocumentCoverage(doc_id=doc_id, title=names[doc_id], in_scope=doc_id in titles or not titles,
                                     found=row["found"], admitted=row["admitted"], turned_away=row["turned_away"],
                                     cited=row["cited"])
                    for doc_id, row in counts.items()), key=lambda d: (-d.cited, -d.found, d.title))
    never = sorted((DocumentCoverage(doc_id=doc_id, title=title) for doc_id, title in scope if doc_id not in counts),
                   key=lambda d: d.title.casefold())
    return TrialCoverage(queries=tuple(queries), passages=tuple(passages), documents=tuple(found + never))


class LibraryUse(Frozen):
    """One document across the stored trials: how many trials could search it, retrieved it, cited it, and the
    citations of it in all."""

    doc_id: str
    trials_in_scope: int = 0
    trials_retrieved: int = 0
    trials_cited: int = 0
    citations: int = 0

    @property
    def never_retrieved(self) -> bool:
        return self.trials_in_scope > 0 and self.trials_retrieved == 0


def library_use(trials: Iterable[tuple[Sequence[str], Sequence[TrialEvent]]],
                library: Sequence[str]) -> dict[str, LibraryUse]:
    """Per document of ``library`` (ids), across ``trials`` ((documents in scope, empty: all; events) each)."""
    rows = {doc_id: {"trials_in_scope": 0, "trials_retrieved": 0, "trials_cited": 0, "citations": 0}
            for doc_id in library}
    for documents, events in trials:
        for doc_id in (documents or library):
            if doc_id in rows:
                rows[doc_id]["trials_in_scope"] += 1
        coverage = trial_coverage(events)
        for doc in coverage.documents:
            if doc.doc_id in rows:
                rows[doc.doc_id]["trials_retrieved"] += 1
                rows[doc.doc_id]["trials_cited"] += 1 if doc.cited else 0
                rows[doc.doc_id]["citations"] += doc.cited
    return {doc_id: LibraryUse(doc_id=doc_id, **row) for doc_id, row in rows.items()}
