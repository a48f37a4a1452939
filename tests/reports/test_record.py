"""The trial record assembled from the store, and report.json with its documented schema."""

from __future__ import annotations

import json
from pathlib import Path

from courtroom_desktop.core.reports import TrialRecord, read_json
from courtroom_desktop.core.reports.json_writer import schema_markdown

ROOT = Path(__file__).resolve().parents[2]


def test_record_holds_the_whole_trial(record, trial):
    assert record.trial_id == trial.trial_id and record.status == "finished"
    assert record.verdict is not None and record.verdict.label.value == "supported"
    assert len(record.rulings) == 3 and len(record.switches) == 1 and record.switches[0].round == 1
    assert len(record.turns) == 6 and [e.id for e in record.pool] == [f"E{i}" for i in range(1, len(record.pool) + 1)]
    assert record.spec.models["judge"] == "scripted:judge-script" and record.spec.settings["max_rounds"] == 4
    assert record.started_at and record.finished_at and record.generated_at
    assert record.usage.tokens_out > 0
    cited = record.cited_ids()
    assert {"E1", "E2", "E3"} <= set(cited)
    # every cited passage points at a real chunk of a real PDF
    for evidence_id in cited:
        chunk = record.entry(evidence_id).evidence.chunk
        assert trial.chunks[chunk.id] == chunk and chunk.highlights
    assert any(record.quotes(i) for i in cited)


def test_json_is_the_complete_record(report_dir, record):
    data = json.loads((report_dir / "report.json").read_text())
    assert data["report_schema_version"] == 2 and data["trial_id"] == record.trial_id
    again = read_json(report_dir / "report.json")
    assert again.model_dump(exclude={"sources"}) == record.model_dump(exclude={"sources"})
    assert [s.evidence_id for s in again.sources] == record.cited_ids()
    assert all(s.pdf and (report_dir / s.pdf).is_file() for s in again.sources)
    assert again.turns[0].citations and again.verdict.findings[0].citations


def test_schema_document_is_current():
    doc = ROOT / "docs" / "report-schema.md"
    assert doc.read_text(encoding="utf-8") == schema_markdown(), (
        "docs/report-schema.md is stale: python scripts/report_schema.py > docs/report-schema.md")
    schema = TrialRecord.model_json_schema(mode="serialization")
    for field in ("spec", "pool", "turns", "rulings", "switches", "verdict", "sources", "generated_at"):
        assert field in schema["properties"] and f"`{field}`" in doc.read_text(encoding="utf-8")
