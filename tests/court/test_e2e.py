"""End to end with the real stack: the sample library in LanceDB and tantivy, the bundled embedding model, hybrid
retrieval and the bundled SmolLM2 model through llama.cpp. A short trial must reach a verdict with valid citations."""

from __future__ import annotations

import pytest

from courtroom_desktop.core.config import AppConfig
from courtroom_desktop.core.court import TrialSpec, rules
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.workspace import Workspace


@pytest.mark.asyncio
async def test_trial_on_the_sample_library_with_the_embedded_model(tmp_path, sample_pdfs):
    workspace = Workspace(tmp_path / "config", tmp_path / "data", AppConfig())
    try:
        finished = workspace.library.ingest(sample_pdfs)
        assert finished.added == len(sample_pdfs)
        settings = workspace.config.debate.model_copy(update={"max_rounds": 2, "min_rounds": 1})
        court = workspace.court(None, settings)
        trial_id = court.start(TrialSpec(claim="Vitamin D deficiency is unrelated to birth weight.",
                                         models=workspace.model_labels()))
        events = [event async for event in court.run(trial_id)]
        assert events[-1].kind == "verdict", [e for e in events if e.kind in ("error", "warning")]
        stored = workspace.trials.events(trial_id)
        assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
        state = TrialState.from_events(trial_id, workspace.trials.spec(trial_id), stored)
        assert len(state.turns) >= 2 and state.rulings and state.pool
        pool = {e.id: e for e in state.pool}
        # every citation names a passage in the pool, and that passage is a real chunk of a sample PDF
        cited = [c for t in state.turns for c in t.citations]
        assert cited and all(c.valid and c.evidence_id in pool for c in cited)
        for entry in pool.values():
            assert entry.evidence.doc_path.endswith(".pdf") and entry.evidence.chunk.highlights
        assert all(set(f.citations) <= set(pool) for f in state.verdict.findings)
        # the retrieval was about the claim: the first passages come from the vitamin D dossiers
        assert "Vitamin D" in state.pool[0].evidence.doc_title
        assert state.usage().tokens_out > 0
        # the judge assessed the evidence, and the verdict agrees with the record (the rule holds it there)
        assert state.assessments and set(state.assessments) <= set(pool)
        cited = rules.counsel_cited(state) + [c for f in state.verdict.findings for c in f.citations]
        check = rules.check_verdict(state.verdict.label, state.verdict.confidence, state, settings, cited)
        assert not check.contradiction and check.confidence == state.verdict.confidence
        assert not any(flag.startswith("verdict text") and "echoes" in flag for flag in state.verdict.quality_flags) \
            or "You are" not in state.verdict.summary
    finally:
        workspace.close()
