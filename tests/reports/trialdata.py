"""A real stored trial for the report tests: generated PDFs ingested into a real library, a retriever that hands out
those chunks (so every citation resolves to a real page with real rectangles), scripted counsel and judge."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from courtroom_desktop.core.config import DebateSettings, LibrarySettings
from courtroom_desktop.core.court import Court, TrialSpec, TrialStore
from courtroom_desktop.core.library import Library
from courtroom_desktop.core.llm import ScriptedChatModel
from courtroom_desktop.core.records import Chunk, Evidence
from testkit.pdfgen import DocSpec, SectionSpec, render_pdf
from tests.court.fakes import assess_all

from ..library.docs import make_structured, paragraph

CLAIM = "Blood pressure fell in the <b>treated</b> adults over twelve weeks."
HOSTILE = ("Nurses recorded the readings. <script>alert(1)</script> The **bold** result and [link](javascript:x) "
           "were noted beside <img src=x onerror=y> in the ward log of the hostile annex.")
MODEL_HOSTILE = "<script>alert('model')</script> [click](javascript:alert(2)) <img src=q onerror=z> **loud**"
SETTINGS = LibrarySettings(chunk_tokens=120, overlap_tokens=20, min_section_tokens=10, embed_batch=8)


@dataclass
class Trial:
    data_dir: Path
    docs: Path
    store: TrialStore
    trial_id: str
    chunks: dict[str, Chunk]          # chunk id -> chunk
    paths: dict[str, Path]            # doc id -> file


def make_hostile(path: Path) -> None:
    spec = DocSpec(title="Hostile <i>Annex</i> **x**", sections=[
        SectionSpec(1, "1 Ward notes", [paragraph(60), HOSTILE, paragraph(61)]),
    ], authors="Mallory")
    render_pdf(spec, path, outline=True)


class ChunkRetriever:
    """Hands out the given passages two at a time, the hostile one in the first batch (the trial's opening search,
    for the claim alone, finds nothing more)."""

    def __init__(self, evidence: list[Evidence]):
        self.evidence = evidence
        self.calls = 0

    async def asearch(self, queries, k=None, scope=None):
        if len(queries) == 1:
            return []
        start = 2 * self.calls
        self.calls += 1
        batch = self.evidence[start:start + 2]
        return [e.model_copy(update={"query": queries[0], "score": 1.0 / (i + 1)}) for i, e in enumerate(batch)]


PASSAGE = re.compile(r'<evidence id="(E\d+)"[^>]*>(.*?)</evidence>', re.S)


def counsel(messages) -> str:
    if "JSON" in messages[0]["content"]:
        return json.dumps({"queries": ["blood pressure adults", "placebo tablets"]})
    passages = PASSAGE.findall(messages[-1]["content"])
    clean = [(i, t) for i, t in passages if "‹" not in t and "…" not in " ".join(t.split()[:12])]
    ids = [i for i, _ in passages]
    parts = []
    if clean:
        quote_id, text = clean[-1]
        quote = " ".join(text.split()[2:9])
        parts.append(f'The record says "{quote}" [{quote_id}].')
    if ids:
        parts.append(f"Both [{ids[0]}] and [{', '.join(ids[:2])}] bear on it; note {MODEL_HOSTILE}.")
    return " ".join(parts) or "Nothing to cite."


def ruling(confidence, tendency, switch=False, ready=False, reason="", controversy="whether the fall was real"):
    return json.dumps({
        "summary": f"The sides disagree about the readings. {MODEL_HOSTILE}",
        "evidence_assessment": "The trial passage [E1] carries most weight; [E3] is an annex.",
        "key_controversy": controversy, "open_questions": ["Were the nurses blinded <script>x</script>?"],
        "tendency": tendency, "confidence": confidence, "switch_request": switch,
        "ready_for_verdict": ready, "ready_reason": reason,
    })


def verdict(cite: list[str]) -> str:
    return json.dumps({
        "label": "supported", "confidence": 0.85,
        "findings": [
            {"text": "Blood pressure readings fell in the treated group [E1].", "citations": cite[:2]},
            {"text": f"The annex adds nothing reliable {MODEL_HOSTILE}", "citations": cite[2:3]},
        ],
        "open_questions": ["Does the fall last beyond twelve weeks?"],
        "summary": f"The documents mostly support the claim [E1]. {MODEL_HOSTILE}",
    })


def build_trial(root: Path, embedder) -> Trial:
    docs = root / "docs"
    docs.mkdir(parents=True)
    make_structured(docs / "bp-trial.pdf", outline=True, title="Blood Pressure Trial", paragraphs_per_section=4)
    make_hostile(docs / "hostile.pdf")
    data_dir = root / "data"
    library = Library.open(data_dir / "library", SETTINGS, embedder)
    try:
        finished = library.ingest([docs])
        assert finished.added == 2 and finished.failed == 0
        documents = library.documents()
        chunks_by_doc = {d.id: library.doc_chunks(d.id) for d in documents}
        titles = {d.id: d.title for d in documents}
        paths = {d.id: Path(d.path) for d in documents}
    finally:
        library.close()
    hostile_id = next(i for i, t in titles.items() if "Hostile" in t)
    bp_id = next(i for i in titles if i != hostile_id)
    bp_chunks = chunks_by_doc[bp_id]
    hostile_chunk = next(c for c in chunks_by_doc[hostile_id] if "<script>" in c.text)
    spanning = [c for c in bp_chunks if c.page_end > c.page_start]
    ordered = [bp_chunks[1], bp_chunks[len(bp_chunks) // 2], hostile_chunk]
    ordered += spanning[:1] + [c for c in bp_chunks[2:] if c not in ordered and c not in spanning][:4]

    def evidence(chunk: Chunk) -> Evidence:
        return Evidence(chunk=chunk, doc_title=titles[chunk.doc_id], doc_path=str(paths[chunk.doc_id]))

    # the first search hands out E1 and the hostile passage (E2); a passage over a page break comes later
    pool_order = [ordered[0], ordered[2], ordered[1], *ordered[3:]]
    retriever = ChunkRetriever([evidence(c) for c in pool_order])
    store = TrialStore(data_dir / "trials.sqlite")
    judge = ScriptedChatModel([
        ruling(0.45, "unclear", switch=True),
        ruling(0.62, "support", controversy="whether the annex matters"),
        ruling(0.85, "support", ready=True, reason="the trial passage [E1] decides it", controversy="none left"),
        verdict(["E1", "E2", "E3"]),
    ], role="judge", model_name="judge-script", standing={"EvidenceAssessment": assess_all()})
    prosecution = ScriptedChatModel([counsel] * 40, role="prosecution", model_name="prosecution-script")
    defense = ScriptedChatModel([counsel] * 40, role="defense", model_name="defense-script")
    table = {"prosecution": prosecution, "defense": defense, "judge": judge}
    settings = DebateSettings(min_rounds=2, max_rounds=4, confidence_threshold=0.8, max_switches=1, novelty_min=0.0)
    court = Court(lambda role: table[role], retriever, store, settings)
    trial_id = court.start(TrialSpec(claim=CLAIM, models={r: f"scripted:{m.model_name}" for r, m in table.items()}))

    async def drive():
        return [e async for e in court.run(trial_id)]

    events = asyncio.run(drive())
    assert events[-1].kind == "verdict", [e.kind for e in events if e.kind != "token"]
    chunks = {c.id: c for cs in chunks_by_doc.values() for c in cs}
    return Trial(data_dir, docs, store, trial_id, chunks, paths)


def copy_without(trial: Trial, root: Path, missing: str) -> Path:
    """A copy of the source folder without one file, to play a moved or deleted PDF."""
    target = root / "moved"
    shutil.copytree(trial.docs, target)
    (target / missing).unlink()
    return target
