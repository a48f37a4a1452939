"""Each format rendered from the stored trial, for both audiences."""

from __future__ import annotations

import markdown
import pymupdf
import pytest

from courtroom_desktop.core.court.records import VerdictReached
from courtroom_desktop.core.errors import ReportError
from courtroom_desktop.core.reports import TrialRecord, export, render_html, render_markdown

from .helpers import Tags


def pdf_text(path) -> str:
    """The text of a PDF with ligatures spelled out (the layout sets "fi" as one glyph)."""
    flags = pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES
    with pymupdf.open(str(path)) as doc:
        return "\n".join(page.get_text(flags=flags) for page in doc)


def test_every_format_is_written(report_dir):
    for name in ("report.md", "report.html", "report.pdf", "report.json", "report-chart.svg"):
        assert (report_dir / name).stat().st_size > 500, name


def test_pdf_report_has_the_verdict_and_every_citation(report_dir, record):
    text = pdf_text(report_dir / "report.pdf")
    flat = " ".join(text.split())
    assert "SUPPORTED" in flat and "confidence 0.85" in flat
    assert "Blood pressure fell in the <b>treated</b> adults over twelve weeks." in flat
    for entry in record.pool:
        assert f"[{entry.id}]" in flat, entry.id
    for evidence_id in record.cited_ids():
        entry = record.entry(evidence_id)
        assert f"sources/{evidence_id}-p{entry.evidence.chunk.page_start + 1}.pdf" in flat
    for finding in record.verdict.findings:
        assert " ".join(finding.text.split()[:5]) in flat
    for name in ("Findings", "Open questions", "Quality flags", "Cited passages", "Evidence", "Models and settings",
                 "Appendix: transcript", "Sides switched after round 1"):
        assert name in flat, name
    with pymupdf.open(str(report_dir / "report.pdf")) as doc:
        assert doc.metadata["title"].startswith("Verdict report") and doc.page_count > 2
        toc = [title for _, title, _ in doc.get_toc()]
        assert "Findings" in toc and "Appendix: transcript" in toc
        assert doc[0].get_images(), "the confidence chart is embedded"
        drawn = [info["bbox"] for page in doc for info in page.get_image_info()]
    # the chart and every highlighted page image, none squeezed to fit the end of a page
    assert len(drawn) == 1 + sum(len(s.images) for s in read_sources(report_dir))
    assert all(y1 - y0 > 40 and x1 - x0 > 400 for x0, y0, x1, y1 in drawn), drawn
    with pymupdf.open(str(report_dir / "report.pdf")) as doc:
        top_margin = [d["rect"] for page in doc for d in page.get_drawings() if d["rect"].y1 < 48]
    assert not top_margin, f"layout artefacts above the text area: {top_margin}"


def test_markdown_report(report_dir, record):
    text = (report_dir / "report.md").read_text()
    assert "**Verdict: SUPPORTED**" in text and "![The Judge's confidence" in text
    assert "(report-chart.svg)" in text
    for entry in record.pool:
        assert entry.id in text
    page = markdown.markdown(text, extensions=["tables"])
    tags = Tags(page)
    assert sum(1 for tag, _ in tags.tags if tag == "table") >= 3
    assert "Does the fall last beyond twelve weeks?" in page


def test_html_report_is_self_contained(report_dir, record):
    page = (report_dir / "report.html").read_text()
    tags = Tags(page)
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page and "<svg" in page
    sources = tags.attr("src")
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    assert len(sources) == sum(len(s.images) for s in read_sources(report_dir))
    assert not [t for t, _ in tags.tags if t in ("link", "script", "iframe", "object", "embed")]
    assert "Content-Security-Policy" in page
    for evidence_id in record.cited_ids():
        assert evidence_id in tags.ids


def read_sources(report_dir):
    from courtroom_desktop.core.reports import read_json

    return read_json(report_dir / "report.json").sources


def test_chart_marks_tendency_and_switch(report_dir, record):
    svg = (report_dir / "report-chart.svg").read_text()
    assert svg.count("<polygon") >= 2 and "<circle" in svg  # support triangles and the unclear round
    assert "sides switched" in svg and "threshold 0.80" in svg
    pymupdf.open(stream=svg.encode(), filetype="svg").close()  # well-formed enough to render


def test_audiences(report_dir, expert_dir):
    general = (report_dir / "report.md").read_text()
    expert = (expert_dir / "report.md").read_text()
    assert "Rounds in detail" not in general and "Rounds in detail" in expert
    assert "Evidence assessment" in expert and "Key controversy" in expert and "| Weight |" in expert
    assert "The court's confidence is high" in general and "The court's confidence is high" in expert
    html = (expert_dir / "report.html").read_text()
    assert "How the evidence was found" in html and "whether the annex matters" in html
    pdf = " ".join(pdf_text(expert_dir / "report.pdf").split())
    assert "Rounds in detail" in pdf and "Evidence assessment" in pdf


def test_renderers_refuse_unknown_choices(record, tmp_path):
    with pytest.raises(ReportError):
        export(record, ["docx"], tmp_path)
    with pytest.raises(ReportError):
        export(record, ["md"], tmp_path, audience="child")
    with pytest.raises(ValueError):
        render_markdown(record, "child")
    with pytest.raises(ValueError):
        render_html(record, "child")


def test_a_trial_without_verdict_still_exports(trial, tmp_path):
    events = [e for e in trial.store.events(trial.trial_id) if not isinstance(e, VerdictReached)]
    events = events[: len(events) // 2]
    record = TrialRecord.from_events(trial.trial_id, trial.store.spec(trial.trial_id), events, status="paused")
    assert record.verdict is None
    paths = export(record, ["md", "html", "pdf", "json"], tmp_path)
    assert all(p.is_file() for p in paths)
    assert "NO VERDICT" in (tmp_path / "report.md").read_text()
    assert "NO VERDICT" in pdf_text(tmp_path / "report.pdf")


def test_an_empty_trial_exports(trial, tmp_path):
    record = TrialRecord.from_events("t0", trial.store.spec(trial.trial_id), [])
    paths = export(record, ["md", "html", "pdf", "json"], tmp_path)
    assert [p.name for p in paths] == ["report.md", "report.html", "report.pdf", "report.json"]
    assert "no rulings yet" in (tmp_path / "report-chart.svg").read_text()

