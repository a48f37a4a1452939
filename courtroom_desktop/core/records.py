"""Typed records passed between layers: the base of every frozen record, what a model call cost, and the library's
records (documents, chunks, evidence, ingestion events). The court's records are in ``core.court.records``, the
report's in ``core.reports.record``; all of them build on ``Frozen``."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, PlainValidator, WithJsonSchema

from courtroom_desktop.core.lexicon import message


class Frozen(BaseModel):
    """Immutable, and strict about its fields: a typo in a stored record is an error, not a silent extra."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def _said(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(message.Message("text expected"))
    return message.load(value)


#: A field that holds a message the core wrote for a person (a skip reason, an error and its fix): a core message
#: (lexicon.message.Message) stays one in the record and is stored with its code and values, so that it is said in
#: the language of whoever reads it later; any other text is kept as it is.
def _stored(value: Any) -> Any:
    return message.dump(value) if isinstance(value, str) else value  # in a union, a number is not this field's


Said = Annotated[str, PlainValidator(_said), PlainSerializer(_stored, when_used="json"),
                 WithJsonSchema({"type": "string"})]


class Usage(Frozen):
    """What model calls cost: tokens and wall time from request to last token. ``first_token_s`` is the time to the
    first streamed token of one call (None when nothing was streamed, or for a sum of calls that had none). Usages
    add up: ``a + b``; ``sum(usages, Usage())``."""

    tokens_in: int = 0
    tokens_out: int = 0
    seconds: float = 0.0
    first_token_s: float | None = None

    @property
    def tokens_per_s(self) -> float:
        """Output tokens per second of wall time (prompt processing included); 0 when nothing was timed."""
        return self.tokens_out / self.seconds if self.seconds > 0 else 0.0

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        return Usage(
            tokens_in=self.tokens_in + other.tokens_in,
            tokens_out=self.tokens_out + other.tokens_out,
            seconds=self.seconds + other.seconds,
            first_token_s=self.first_token_s if self.first_token_s is not None else other.first_token_s,
        )

    def __radd__(self, other: object) -> Usage:  # sum() starts from 0
        return self if other == 0 else NotImplemented


class Highlight(Frozen):
    """Where a passage sits on one page: rectangles (x0, y0, x1, y1) as fractions (0..1) of the unrotated page,
    in PyMuPDF's text space. To draw on a rendered page that is rotated, map points through its rotation_matrix."""

    page: int = Field(description="0-based page number.")
    rects: tuple[tuple[float, float, float, float], ...] = Field(description="Page-relative rectangles, one per line.")


class Chunk(Frozen):
    id: str = Field(description="Stable id: document id + ordinal, e.g. 'a1b2c3d4e5f6-0007'.")
    doc_id: str
    ordinal: int = Field(description="Position of the chunk in its document.")
    section_path: str = Field(description="e.g. '3 Results > 3.2 Adverse events'; empty when the document has no headings.")
    page_start: int = Field(description="0-based first page; -1 for a passage of a text document, which has no pages.")
    page_end: int = Field(description="0-based last page (inclusive).")
    char_start: int = Field(description="Offset of the chunk in the document's extracted text.")
    char_end: int
    text: str
    highlights: tuple[Highlight, ...] = ()
    ocr_confidence: float | None = Field(None, description="Set when the text was read by OCR from a scanned page: "
                                         "the recogniser's mean confidence (0..1) over the chunk's characters.")

    @property
    def section_title(self) -> str:
        return self.section_path.rsplit(" > ", 1)[-1] if self.section_path else ""

    @property
    def on_pages(self) -> bool:
        """False for a passage of a text document (Markdown, plain text, Word, a note, a benchmark corpus): such a
        document has no pages, so its chunks have page_start = page_end = -1 and no highlight rectangles, and the
        character span (char_start, char_end) locates the passage in the document's text."""
        return self.page_start >= 0

    @property
    def pages(self) -> str:
        """The 1-based page, or page range, the chunk spans: '3' or '3\u20134'; '' for a passage of a text document."""
        if not self.on_pages:
            return ""
        first, last = self.page_start + 1, max(self.page_end, self.page_start) + 1
        return str(first) if first == last else f"{first}\u2013{last}"


class DocStatus(StrEnum):
    pending = "pending"    # being written: not yet in every store
    ready = "ready"        # present in all three stores
    failed = "failed"      # could not be ingested; ``error`` says why
    removing = "removing"  # being removed from the stores


class Document(Frozen):
    id: str = Field(description="sha256 prefix of the file's content.")
    path: str = Field(description="Absolute path at the time of ingestion.")
    sha256: str
    title: str = ""
    authors: str = ""
    year: int | None = None
    pages: int = 0
    chunks: int = 0
    sections: int = 0
    status: DocStatus = DocStatus.pending
    error: Said = ""
    added_at: float = 0.0
    added_by: str = Field("", description="Who added it: the user name and the machine ('ada@lab-laptop'); a "
                          "shared library shows every machine who added what.")
    pages_without_text: tuple[int, ...] = Field((), description="0-based pages that show an image (a scan) but have "
                                                "no text layer, and no text OCR could read: not searchable.")
    pages_ocr: tuple[int, ...] = Field((), description="0-based pages OCR was run on (their text, if it found any, "
                                       "comes from OCR).")
    kind: str = Field("pdf", description="What the file is: 'pdf', 'markdown', 'text', 'docx', or 'note' (a note "
                      "written in the app). Anything but a PDF has no pages (pages = 0): its passages are located "
                      "by their character spans in its text.")
    private: bool = Field(False, description="Marked private by the user: its text must not be sent to a model "
                          "server on another machine.")

    @property
    def on_pages(self) -> bool:
        """True for a PDF; False for a text document (no pages, no page numbers to show)."""
        return self.kind == "pdf"

    @property
    def added_when(self) -> str:
        """When it was added, in local time to the minute ('2026-12-07 15:40'; '' when not known)."""
        import time

        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.added_at)) if self.added_at else ""

    def no_text_note(self) -> str:
        """'2 of 12 pages have no text layer (pages 3, 7): scanned? ...' ('' when every page has text)."""
        return no_text_note(self.pages_without_text, self.pages, self.pages_ocr)


def no_text_note(pages_without_text: Sequence[int], pages: int, pages_ocr: Iterable[int] = ()) -> str:
    """What to say about pages that hold no searchable text: scans OCR could not read, or scans not read by OCR."""
    if not pages_without_text:
        return ""
    numbers = ", ".join(str(p + 1) for p in pages_without_text[:12]) + (", ..." if len(pages_without_text) > 12 else "")
    count = len(pages_without_text)
    head = (f"{count} of {pages} page{'s' if pages != 1 else ''} {'have' if count > 1 else 'has'} no text layer "
            f"(page{'s' if count > 1 else ''} {numbers}): scanned?")
    if set(pages_without_text) <= set(pages_ocr):
        return f"{head} OCR read no text on {'them' if count > 1 else 'it'}: not searchable"
    return f"{head} They are not searchable until they are read by OCR (library.ocr)"


class Notice(Frozen):
    """A notice on a published work: retracted, corrected, or under an expression of concern (from Zotero's
    Retraction Watch flags, or a Retraction Watch CSV: core.library.retractions)."""

    kind: Literal["retraction", "correction", "expression of concern"]
    date: str = ""
    reason: str = ""
    source: str = Field("", description="Where the notice was read: 'zotero' or 'retraction watch'.")

    @property
    def retracted(self) -> bool:
        return self.kind == "retraction"


class Evidence(Frozen):
    """A retrieved passage and how it was found."""

    chunk: Chunk
    doc_title: str = ""
    doc_path: str = ""
    doc_cite: str = Field("", description="Author and year ('Smith et al. 2020') when the document's metadata has them "
                          "(a Zotero item's, or the PDF's own authors and year); '' otherwise.")
    doc_link: str = Field("", description="Where the document's reference lives (zotero://select/... for a Zotero "
                          "item); '' otherwise.")
    query: str = Field("", description="The query that found it (the one that contributed most when several did).")
    score: float = Field(0.0, description="Fused score (convex fusion of normalised scores, or weighted reciprocal "
                         "rank fusion); a reranker's own score is rerank_score.")
    bm25_rank: int | None = None
    bm25_score: float | None = None
    vector_rank: int | None = None
    vector_score: float | None = Field(None, description="Cosine similarity.")
    rerank_score: float | None = None
    queries: tuple[str, ...] = Field((), description="Every query that found it, the most contributing first.")
    duplicates: tuple[str, ...] = Field((), description="Ids of near-duplicate chunks collapsed into this one.")
    doc_notice: Notice | None = Field(None, description="A retraction, correction or expression of concern on the "
                                      "passage's document; None when the library knows of none.")

    @property
    def retracted(self) -> bool:
        return self.doc_notice is not None and self.doc_notice.retracted


VERIFIER_STANCES = ("supports", "refutes", "neither")
VERIFIER_BACKS = (0.30, 0.35)
"""(supports, refutes): a passage backs supported when the verifier reads it as supporting the claim with more than
the first probability and no less than it reads it as refuting; refuted, with more than the second and more than it
reads it as supporting. Chosen for the shipped verifier on 729 SciFact train claims read by cross-fitted models that
never trained on them (training/crossfit.py; docs/verifier.md): the claim-level decision needs far less than the
pair-level even odds, because a passage that bears on a claim is often read as partly neither. (The model before the
one trained with negated claims needed only 0.15 to back refuted; the shipped one reads refuting more readily, and
an off-topic passage could then back refuted at 0.19.)"""


class VerifierReading(Frozen):
    """The claim verifier's calibrated probabilities that a passage supports the claim, refutes it, or neither
    (``core.verifier``); they sum to 1. ``stance`` is the most probable."""

    supports: float = Field(ge=0, le=1)
    refutes: float = Field(ge=0, le=1)
    neither: float = Field(ge=0, le=1)

    @property
    def stance(self) -> str:
        values = (self.supports, self.refutes, self.neither)
        return VERIFIER_STANCES[values.index(max(values))]

    @property
    def relevance(self) -> float:
        """How much the passage bears on the claim either way (supports or refutes, against neither)."""
        return self.supports + self.refutes

    @property
    def backs(self) -> str | None:
        """The reading the label rule counts at ``VERIFIER_BACKS`` (``backs_at``)."""
        return self.backs_at(VERIFIER_BACKS)

    def backs_at(self, threshold: float | tuple[float, float]) -> str | None:
        """'supports' or 'refutes' when that probability is above its ``threshold`` (one for both, or (supports,
        refutes)) and above the opposite one; None when the passage counts for neither."""
        for_s, for_r = threshold if isinstance(threshold, tuple) else (threshold, threshold)
        if self.supports > for_s and self.supports >= self.refutes:
            return "supports"
        if self.refutes > for_r and self.refutes > self.supports:
            return "refutes"
        return None

    @property
    def shown(self) -> tuple[str, float]:
        """What a table shows: the reading the rule counts and its probability, else neither's."""
        backs = self.backs
        return (backs, self.probability(backs)) if backs else ("neither", self.neither)

    def probability(self, stance: str) -> float:
        return float(getattr(self, stance))

    def agrees_with(self, assessed: str) -> bool | None:
        """Does a chat model's assessment of the passage ('supports', 'refutes', 'irrelevant'; 'mixed') say what the
        verifier reads? None for 'mixed', which neither agrees nor disagrees with one reading."""
        same = {"supports": "supports", "refutes": "refutes", "irrelevant": "neither"}.get(str(assessed))
        return None if same is None else same == self.shown[0]


# ---------------------------------------------------------------- ingestion events

class IngestStage(StrEnum):
    extract = "extract"
    ocr = "ocr"  # pages with no text layer read by OCR (pages_done of pages to read)
    chunk = "chunk"
    embed = "embed"
    index = "index"  # type: ignore[assignment]  # the member's name hides str.index, on purpose


class FileOutcome(StrEnum):
    added = "added"
    updated = "updated"
    skipped = "skipped"  # same sha256 already ready
    failed = "failed"
    cancelled = "cancelled"


class IngestStarted(Frozen):
    files: int
    kind: str = "started"


class FileStarted(Frozen):
    path: str
    index: int
    files: int
    kind: str = "file_started"


class FileProgress(Frozen):
    path: str
    stage: IngestStage
    pages_done: int = 0
    pages: int = 0
    chunks_done: int = 0
    chunks: int = 0
    kind: str = "file_progress"


class FileFinished(Frozen):
    path: str
    outcome: FileOutcome
    doc_id: str = ""
    pages: int = 0
    chunks: int = 0
    reason: Said = ""
    note: Said = Field("", description="What the user should know about a document that went in, e.g. pages that have "
                                      "no text layer.")
    seconds: float = 0.0
    kind: str = "file_finished"


class IngestFinished(Frozen):
    added: int = 0
    updated: int = 0
    skipped: int = 0
    failed: int = 0
    cancelled: bool = False
    pages: int = 0
    chunks: int = 0
    seconds: float = 0.0
    stage_seconds: dict[str, float] = Field(default_factory=dict)
    kind: str = "finished"


IngestEvent = IngestStarted | FileStarted | FileProgress | FileFinished | IngestFinished


class ModelCall(Frozen):
    """One call to a chat model as it went: the messages the model saw (a schema's instruction and a retry's
    correction included) and its raw answer, before any parsing or check. A trial keeps its calls beside its events
    (core.court.store), on this computer only, and never in a report unless asked (they hold the documents' text)."""

    role: str = Field("", description="The courtroom role whose model answered: prosecution, defense, judge.")
    model: str = ""
    kind: str = Field("complete", description="complete (free text) or structured (JSON of a schema).")
    schema_name: str = Field("", description="The schema a structured call asked for, e.g. SearchPlan.")
    messages: tuple[dict[str, str], ...] = ()
    answer: str = Field("", description="The raw answer, as the model wrote it.")
    usage: Usage = Usage()
    at: float = Field(default_factory=time.time)
    # where in a trial (set by the court when it records the call)
    trial_id: str = ""
    step: str = Field("", description="turn, assessment, ruling or verdict.")
    round: int = 0
    index: int = Field(-1, description="The counsel turn (0-based) a counsel's call belongs to; -1 for the judge's.")
    after_seq: int = Field(0, description="The sequence number of the trial's last event when the call was made.")


#: Who hears of every model call in this context (core.llm's ChatModel reports each one): the court sets it around
#: the calls of a trial to keep them with the trial. None: nobody.
MODEL_CALLS: ContextVar[Callable[[ModelCall], None] | None] = ContextVar("courtroom_model_calls", default=None)


def observe_model_call(call: ModelCall) -> None:
    """Hand ``call`` to whoever listens in this context (MODEL_CALLS), if anyone; a listener's failure is its own."""
    listener = MODEL_CALLS.get()
    if listener is not None:
        listener(call)
