"""End to end with the real stack: the sample library in LanceDB and tantivy, the bundled embedding model, hybrid
retrieval and the bundled SmolLM2 model through llama.cpp. A short trial must reach a verdict with valid citations,
whose findings cite assessed passages of the pool and whose label is the one the verdict rule computes from the
record."""

from __future__ import annotations

import pytest

from courtroom_desktop.core.config import AppConfig
from courtroom_desktop.core.court import TrialSpec, rules, scored
from courtroom_desktop.core.court.records import VerdictLabel
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.reports.wording import say_reason as said
from courtroom_desktop.core.workspace import Workspace


@pytest.mark.asyncio
async def test_trial_on_the_sample_library_with_the_embedded_model(tmp_path, sample_pdfs):
    workspace = Workspace(tmp_path / "config", tmp_path / "data", AppConfig())
    try:
        finished = workspace.library.ingest(sample_pdfs)
        assert finished.added == len(sample_pdfs)
        # one round: two turns, a ruling and the verdict (up to two rounds run in tests/ui/test_real_model.py and
        # tests/test_decision_e2e.py; round after round is the scripted tests' job); a second round here cost 3 min
        settings = workspace.config.debate.model_copy(update={"max_rounds": 1, "min_rounds": 1})
        court = workspace.parts.court(None, settings)
        trial_id = court.start(TrialSpec(claim="Vitamin D deficiency is unrelated to birth weight.",
                                         models=workspace.models.labels()))
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
        # the judge assessed the evidence
        assert state.assessments and set(state.assessments) <= set(pool)
        assert_verdict_holds_to_the_record(state, settings)
        # a verdict text flagged for echoing the instructions was cut: the echo is not in the summary kept
        if any(said(flag).startswith("verdict text") and "echoes" in said(flag) for flag in state.verdict.quality_flags):
            assert "You are" not in state.verdict.summary
        # the stored trial is listed as finished with the verdict's label
        listed = next(t for t in workspace.trials.list() if t.id == trial_id)
        assert (listed.status, listed.label) == ("finished", state.verdict.label.value)
    finally:
        workspace.close()


def assert_verdict_holds_to_the_record(state: TrialState, settings) -> None:
    """Every citation in the verdict's findings names a passage of the pool whose stance the judge assessed, and the
    verdict's label is the one the label rule (core.court.scored) gives the pool's verifier readings."""
    verdict, pool = state.verdict, {e.id for e in state.pool}
    # every citation in the verdict's findings names a passage in the pool whose stance the judge assessed
    finding_cites = [c for f in verdict.findings for c in f.citations]
    for cite in finding_cites:
        assert cite in pool, (cite, sorted(pool))
        assert cite in state.assessments and state.assessments[cite].stance, (cite, sorted(state.assessments))
    # every passage of the pool carries the verifier's reading, and the verdict's label and confidence are the label
    # rule's over them (core.court.scored): the judge's own label, when it differed, is kept beside it and flagged
    assert all(e.verifier is not None for e in state.pool)
    ruled = scored.decide(state.spec.claim, [scored.Scored(e.id, e.evidence.chunk.text, e.verifier) for e in state.pool],
                          settings.verdict_rule.insufficient_max_confidence)
    assert (verdict.label, verdict.confidence) == (ruled.label, ruled.confidence), (verdict.label, ruled)
    assert (verdict.evidence_label, verdict.evidence_confidence) == (ruled.label, ruled.confidence)
    if verdict.draft_label is not None and verdict.draft_label != verdict.label:
        assert any(str(f.code) == "rule_scored_set" for f in verdict.quality_flags)
    if not pool:
        assert verdict.label == VerdictLabel.insufficient
    # the evidence the verdict lists as weighed is the record's: each cited passage with its level and its stance
    # as the judge assessed it
    assert tuple(verdict.evidence) == tuple(rules.weigh(state, settings)), verdict.evidence
