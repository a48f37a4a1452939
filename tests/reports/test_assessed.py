"""The reports show what each passage says (its assessed stance), who found and who cited it (both sides marked),
what the verdict's confidence rests on, and the challenges never answered with where they were raised."""

from __future__ import annotations

import json

from courtroom_desktop.core.reports.wording import rests_on


def test_record_keeps_assessments_and_challenges(record):
    assert {a.evidence_id for a in record.assessments} == {e.id for e in record.pool}
    assert all(a.stance.value == "supports" and a.relevance == 0.8 for a in record.assessments)
    judge_questions = [t for t in record.challenges if t.challenge.raised_by == "Judge"]
    assert judge_questions and judge_questions[0].challenge.id.startswith("Q")
    # every cited passage was assessed 'supports': the basis counts each once, by level
    assert sum(row.supports for row in record.verdict.basis) == len(record.cited_ids())


def test_markdown_shows_assessed_stance_both_sides_basis_and_open_lines(report_dir, record):
    text = (report_dir / "report.md").read_text(encoding="utf-8")
    assert "| Stance (assessed) | Found by | Cited by |" in text
    assert "supports (relevance 0.80)" in text and "says: supports (relevance 0.80)" in text
    both = [e.id for e in record.pool if record.citing_stance(e.id) == "both"]
    assert both and "both sides: " in text  # a passage the Prosecution and the Defense both cited is marked
    assert rests_on(record.verdict, "en") in text and "It rests on" in text
    assert "### Open lines of argument: challenges never answered" in text
    first = record.verdict.open_challenges[0].challenge
    assert f"{first.id} (raised by the Judge in round {first.round}, to both sides; unanswered)" in text


def test_html_and_json_carry_the_same(report_dir, record):
    page = (report_dir / "report.html").read_text(encoding="utf-8")
    assert "Stance (assessed)" in page and "says: supports (relevance 0.80)" in page
    assert "Open lines of argument" in page and record.verdict.open_challenges[0].challenge.id in page
    data = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    assert len(data["assessments"]) == len(record.pool) and data["challenges"]
    assert data["verdict"]["basis"] and "open_challenges" in data["verdict"]
