"""What the stress runners share: a model-free embedder, a baseline library, court actors that answer like a
disciplined model whatever the transport, and the checks every runner makes (stores agree, events contiguous,
no turn lost)."""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings
from courtroom_desktop.core.library import Embedder, Library
from courtroom_desktop.core.records import DocStatus
from testkit.pdfgen import DocSpec, SectionSpec, render_pdf

QUERY = "blood pressure placebo adults"
CLAIM = "The tablets lowered blood pressure in adults over twelve weeks."
WORD = re.compile(r"\w+", re.UNICODE)


# ---------------------------------------------------------------------------- results

@dataclass
class Section:
    """One runner's outcome: named counts, and what went wrong (empty when it passed)."""

    name: str
    counts: dict[str, object] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failures

    def fail(self, message: str) -> None:
        self.failures.append(message)

    def add(self, key: str, amount: int = 1) -> None:
        self.counts[key] = int(self.counts.get(key, 0)) + amount


# ---------------------------------------------------------------------------- embeddings without a model

class HashEmbedder(Embedder):
    """Deterministic, normalised bag-of-words vectors (CRC32 of each lower-cased word into 384 buckets, signed).
    Same in every process, no model to load: the stress runners test the stores, not the semantics."""

    def __init__(self, dim: int = 384):
        super().__init__("stress-hash-384", batch=64)
        self._dim = dim

    @property
    def dim(self) -> int:
        return self._dim

    def _load(self):
        return None

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in WORD.findall(text.lower()):
                code = zlib.crc32(word.encode("utf-8"))
                out[row, code % self._dim] += 1.0 if code & 0x80000000 else -1.0
            norm = float(np.linalg.norm(out[row]))
            if norm:
                out[row] /= norm
            else:
                out[row, 0] = 1.0
        return out


# ---------------------------------------------------------------------------- the baseline library

TOPICS = [
    ("Blood Pressure Trial", ["Adults with raised blood pressure took the tablets or a placebo for twelve weeks.",
                              "Systolic blood pressure fell by nine points in the treated adults and by two with "
                              "placebo.", "Nurses measured blood pressure at every visit, blinded to the group."]),
    ("Kidney Outcomes Cohort", ["A prospective cohort followed kidney function in older adults for five years.",
                                "Kidney function declined faster in smokers than in people who never smoked.",
                                "Salt intake was estimated from urine samples at the start of follow-up."]),
    ("Sleep and Exercise Review", ["A systematic review pooled trials of exercise and sleep quality.",
                                   "Regular walking improved sleep quality in most of the pooled trials.",
                                   "Evening exercise did not harm sleep in the trials that measured it."]),
]


def baseline_spec(index: int) -> DocSpec:
    title, sentences = TOPICS[index % len(TOPICS)]
    sections = []
    for number, heading in enumerate(("Introduction", "Methods", "Results", "Discussion"), start=1):
        paragraphs = [" ".join(sentences[(number + k) % 3] for k in range(3)) + f" Section {number} note {k}."
                      for k in range(3)]
        sections.append(SectionSpec(1, f"{number} {heading}", paragraphs))
    return DocSpec(title=title, sections=sections, authors="Stress Baseline", year=2020 + index)


def write_baseline(folder: Path, count: int = 3) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        path = folder / f"baseline-{index}.pdf"
        if not path.exists():
            render_pdf(baseline_spec(index), path, outline=index % 2 == 0)
        paths.append(path)
    return paths


def library_settings(**updates) -> LibrarySettings:
    values = {"chunk_tokens": 120, "overlap_tokens": 20, "min_section_tokens": 10, "embed_batch": 32,
              "embedding_model": "stress-hash-384"}
    values.update(updates)
    return LibrarySettings(**values)


def open_library(root: Path, **updates) -> Library:
    return Library.open(root, library_settings(**updates), HashEmbedder())


def retrieval_settings() -> RetrievalSettings:
    return RetrievalSettings(reranker="none", ann_build="never", k=5)


@dataclass(frozen=True)
class Snapshot:
    docs: tuple[tuple[str, int], ...]          # (doc id, chunks) of every ready document
    lancedb: tuple[tuple[str, int], ...]       # rows per document in LanceDB
    tantivy: tuple[tuple[str, int], ...]       # rows per document in tantivy
    search: tuple[str, ...]                    # chunk ids of the fixed query's results, in order
    consistent: bool


def snapshot(library: Library, retriever, doc_ids: Sequence[str] | None = None) -> Snapshot:
    """The library as the checks compare it; ``doc_ids`` limits the per-document counts to those documents."""
    ready = sorted((d.id, d.chunks) for d in library.documents(DocStatus.ready)
                   if doc_ids is None or d.id in doc_ids)
    ids = [d for d, _ in ready]
    return Snapshot(
        docs=tuple(ready),
        lancedb=tuple((d, library.vectors.count(d)) for d in ids),
        tantivy=tuple((d, library.text_index.count(d)) for d in ids),
        search=tuple(e.chunk.id for e in retriever.search([QUERY], k=5)),
        consistent=bool(library.check_consistency()["consistent"]),
    )


# ---------------------------------------------------------------------------- court actors

def schema_title(messages: list[dict]) -> str:
    """Which structured answer the prompt asks for ('' for free text): the schema is named in the system message
    (``core.llm.base.with_schema_instruction``)."""
    match = re.search(r'"title":\s*"(SearchPlan|Argument|EvidenceAssessment|JudgeRuling|VerdictDraft)"', messages[0].get("content", ""))
    return match.group(1) if match else ""


def prompt_text(messages: list[dict]) -> str:
    """The user message that carries the case (a retry appends the rejected answer and a note after it)."""
    users = [m.get("content", "") for m in messages if m.get("role") == "user"]
    return next((u for u in users if "<evidence" in u or "Claim:" in u or "Decision:" in u), users[-1] if users else "")


def pool_ids(messages: list[dict]) -> list[str]:
    return re.findall(r'<evidence id="(E\d+)"', prompt_text(messages))


def current_round(messages: list[dict]) -> int:
    found = re.findall(r'<argument round="(\d+)"|Round (\d+) arguments', prompt_text(messages))
    numbers = [int(a or b) for a, b in found]
    return max(numbers, default=1)


def stage_of(messages: list[dict]) -> str:
    """plan, argument, assessment, ruling or verdict."""
    return {"SearchPlan": "plan", "Argument": "argument", "EvidenceAssessment": "assessment", "JudgeRuling": "ruling",
            "VerdictDraft": "verdict"}.get(schema_title(messages), "argument")


def actor(messages: list[dict]) -> str:
    """A disciplined model: queries, an argument citing the first passage it was shown, a ruling that grows
    confident by round 2 and is ready then, a verdict citing E1. Works for scripted and HTTP models alike."""
    kind = schema_title(messages)
    ids = pool_ids(messages)
    first = ids[0] if ids else ""
    if kind == "SearchPlan":
        return json.dumps({"queries": ["blood pressure tablets", "placebo adults twelve weeks"]})
    if kind == "Argument":
        return json.dumps({"argument": f"The record on blood pressure [{first}] answers the other side.",
                           "citations": [first] if first else []})
    if kind == "EvidenceAssessment":
        return json.dumps({"assessments": [{"id": i, "stance": "supports", "relevance": 0.8} for i in ids]})
    if kind == "JudgeRuling":
        late = current_round(messages) >= 2
        return json.dumps({
            "tendency": "support", "confidence": 0.9 if late else 0.5, "switch_request": False,
            "ready_for_verdict": late, "ready_reason": f"the passage [{first}] on blood pressure decides it" if late else "",
            "key_controversy": f"whether the fall in round {current_round(messages)} was real",
            "summary": "Both sides cite the blood pressure readings.",
            "evidence_assessment": f"{first} carries weight.", "open_questions": [],
        })
    if kind == "VerdictDraft":
        return json.dumps({
            "label": "supported", "confidence": 0.85, "summary": f"The readings support the claim [{first or 'E1'}].",
            "findings": [{"text": "Blood pressure fell in the treated adults.", "citations": [first or "E1"]}],
            "open_questions": [], "conditions": [], "risks": [],
        })
    other = prompt_text(messages).split("Latest arguments:")[-1][:300]
    words = " ".join(w for w in WORD.findall(other) if len(w) > 4)[:80]
    cite = f" [{first}]" if first else ""
    return f"The blood pressure readings{cite} answer the point about {words or 'the readings'} directly."


# ---------------------------------------------------------------------------- trial checks

def contiguous(events) -> bool:
    return [e.seq for e in events] == list(range(1, len(events) + 1))


def turns_of(events) -> list:
    return [e.turn for e in events if e.kind == "turn_finished"]


def lost_turns(before: Sequence, after: Sequence) -> int:
    """Turns persisted ``before`` that the final state no longer has (compared by index and text), plus gaps in
    the final turn indexes."""
    final = {(t.index, t.text) for t in after}
    lost = sum(1 for t in before if (t.index, t.text) not in final)
    indexes = sorted(t.index for t in after)
    gaps = len(set(range(len(indexes))) ^ set(indexes))
    return lost + gaps


def complete_rounds(events) -> bool:
    """Every ruled round has both counsel's turns; every opened turn was either finished or is the one a
    resume discarded (a TurnStarted followed by trial_resumed or error before its turn_finished)."""
    turns = turns_of(events)
    rulings = [e.ruling for e in events if e.kind == "ruling"]
    for ruling in rulings:
        if len([t for t in turns if t.round == ruling.round]) != 2:
            return False
    return True
