"""The report of a whole check: every format written and readable, the court's verdict and the sign-off side by side,
draft and document text escaped, highlighted copies of the cited pages, Chinese wording for a Chinese draft."""

from __future__ import annotations

import csv
import hashlib
import json

import pymupdf
import pytest

from courtroom_desktop.core.check.drafts import Location
from courtroom_desktop.core.check.export import FORMATS, JSON_SCHEMA, export_check
from courtroom_desktop.core.check.records import (
    CheckClaim,
    CheckRecord,
    CheckSpec,
    CheckStatus,
    ClaimRow,
    ClaimStatus,
    QuickResult,
    SignOff,
    TrialOutcome,
)
from courtroom_desktop.core.court.records import VerdictLabel
from courtroom_desktop.core.errors import ReportError
from courtroom_desktop.core.records import Chunk, Evidence, Highlight

SCRIPT = "<script>alert('x')</script>"
ZH_CLAIM = "销售额增长了12%。"


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_pdf(path):
    """A two-page source; its passage is on page 2."""
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "Front matter of the annual report.", fontsize=11)
    page = doc.new_page()
    page.insert_text((72, 200), "Sales rose by 12% in 2020 according to the audited accounts.", fontsize=11)
    doc.save(str(path))
    doc.close()
    return path


def pdf_evidence(path, text="Sales rose by 12% in 2020 according to the audited accounts.") -> Evidence:
    with pymupdf.open(str(path)) as doc:
        page = doc[1]
        rect = page.search_for("Sales rose")[0] | page.search_for("accounts.")[0]
        w, h = page.rect.width, page.rect.height
    chunk = Chunk(id="c1", doc_id=_sha(path)[:12], ordinal=0, section_path="Results", page_start=1, page_end=1,
                  char_start=0, char_end=len(text), text=text,
                  highlights=(Highlight(page=1, rects=((rect.x0 / w, rect.y0 / h, rect.x1 / w, rect.y1 / h),)),))
    return Evidence(chunk=chunk, doc_title="Annual report 2020", doc_path=str(path))


def text_evidence(path) -> Evidence:
    text = path.read_text(encoding="utf-8")
    passage = "2020年销售额增长了12%。"
    at = text.index(passage)
    chunk = Chunk(id="c2", doc_id=_sha(path)[:12], ordinal=0, section_path="", page_start=-1, page_end=-1,
                  char_start=at, char_end=at + len(passage), text=passage)
    return Evidence(chunk=chunk, doc_title="年报笔记", doc_path=str(path))


def make_record(tmp_path, language="en") -> CheckRecord:
    pdf = source_pdf(tmp_path / "annual.pdf")
    notes = tmp_path / "notes.md"
    notes.write_text("# 笔记\n\n2020年销售额增长了12%。其他内容。\n", encoding="utf-8")
    hostile = pdf_evidence(pdf).model_copy(update={"doc_title": f"Report {SCRIPT}"})
    at = Location(kind="paragraph", paragraph=1, start=0, end=10)
    rows = (
        ClaimRow(index=0, claim=CheckClaim(text="Sales rose by 12% in 2020.", locations=(at,)), status=ClaimStatus.done,
                 quick=QuickResult(label=VerdictLabel.supported, confidence=0.81, reason="E1 says so.",
                                   passages=(pdf_evidence(pdf),), citations=("E1",)),
                 signoff=SignOff(reviewer="Ann", decision="accepted", at=1_700_000_000)),
        ClaimRow(index=1, claim=CheckClaim(text=f"Costs fell {SCRIPT} by half.", locations=(at,)),
                 status=ClaimStatus.done,
                 quick=QuickResult(label=VerdictLabel.mixed, confidence=0.4, passages=(hostile, pdf_evidence(pdf)),
                                   citations=("E2", "E1"), warnings=("E3 was cited but does not exist",)),
                 trial=TrialOutcome(trial_id="t-42", status="finished", label=VerdictLabel.refuted, confidence=0.77),
                 signoff=SignOff(reviewer="Bob", decision="overridden", label=VerdictLabel.supported,
                                 note="The 2021 accounts settle it.", at=1_700_000_500)),
        ClaimRow(index=2, claim=CheckClaim(text=ZH_CLAIM, locations=(at,)), status=ClaimStatus.done,
                 quick=QuickResult(label=VerdictLabel.supported, confidence=0.9, passages=(text_evidence(notes),),
                                   citations=("E1",))),
        ClaimRow(index=3, claim=CheckClaim(text="=1+2 is not a formula here.", locations=(at,)),
                 status=ClaimStatus.failed, problem="the model server went away"),
    )
    spec = CheckSpec(draft=str(tmp_path / "draft.docx"), kind="docx", language=language, title="draft.docx",
                     draft_sha256="0" * 64)
    return CheckRecord(id="chk-1", spec=spec, status=CheckStatus.finished, rows=rows, created_at=1_700_000_000,
                       updated_at=1_700_000_600)


@pytest.fixture
def exported(tmp_path):
    record = make_record(tmp_path)
    out = tmp_path / "report"
    (out / "sources").mkdir(parents=True)
    (out / "sources" / "C9-E1-p1.pdf").write_bytes(b"stale")  # an earlier export's copy
    notes: list[str] = []
    written = export_check(record, FORMATS, out, notes=notes)
    return record, out, written, notes


def test_every_format_is_written_with_the_highlighted_sources(exported):
    _, out, written, notes = exported
    for fmt in FORMATS:
        assert out / f"check.{fmt}" in written and (out / f"check.{fmt}").stat().st_size > 0
    for name in ("C1-E1-p2.pdf", "C2-E1-p2.pdf", "C2-E2-p2.pdf", "C3-E1.html"):
        assert out / "sources" / name in written and (out / "sources" / name).is_file()
    assert not (out / "sources" / "C9-E1-p1.pdf").exists(), "a re-export replaces the earlier copies"
    assert notes == []
    with pymupdf.open(str(out / "sources" / "C1-E1-p2.pdf")) as doc:
        page = doc[0]
        annots = [a for a in page.annots() if a.type[0] == pymupdf.PDF_ANNOT_HIGHLIGHT]
        assert len(annots) == 1 and "Sales rose" in page.get_textbox(annots[0].rect)
    excerpt = (out / "sources" / "C3-E1.html").read_text(encoding="utf-8")
    assert '<mark id="passage">2020年销售额增长了12%。</mark>' in excerpt


def test_csv_reads_back_in_a_spreadsheet_encoding_with_the_chinese_claim(exported):
    _, out, _, _ = exported
    data = (out / "check.csv").read_bytes()
    assert data.startswith(b"\xef\xbb\xbf"), "UTF-8 with a BOM, so that Excel reads Chinese"
    with open(out / "check.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["index"] for r in rows] == ["1", "2", "3", "4"]
    assert rows[2]["claim"] == ZH_CLAIM and rows[2]["citations"] == "年报笔记"
    assert rows[0]["citations"] == "Annual report 2020 p.2" and rows[0]["verdict_by"] == "quick check"
    overridden = rows[1]
    assert (overridden["court_label"], overridden["court_confidence"], overridden["verdict_by"],
            overridden["trial_id"]) == ("refuted", "0.77", "trial", "t-42")
    assert (overridden["signoff_decision"], overridden["reviewer_label"], overridden["reviewer"],
            overridden["note"], overridden["final_label"]) == ("overridden", "supported", "Bob",
                                                               "The 2021 accounts settle it.", "supported")
    assert overridden["signed_at"].endswith("UTC")
    assert rows[3]["claim"] == "'=1+2 is not a formula here.", "a cell that would be a formula is quoted"
    assert rows[3]["status"] == "failed" and rows[3]["problem"] == "the model server went away"


def test_json_is_schema_versioned_and_complete(exported):
    record, out, _, _ = exported
    data = json.loads((out / "check.json").read_text(encoding="utf-8"))
    assert data["schema"] == JSON_SCHEMA == "courtroom-check/1"
    assert CheckRecord.model_validate(data["check"]) == record
    claim = data["claims"][1]
    assert claim["court"] == {"label": "refuted", "confidence": 0.77, "by": "trial", "trial_id": "t-42"}
    assert claim["signoff"]["label"] == "supported" and claim["final_label"] == "supported"
    assert [c["source"] for c in claim["citations"]] == ["sources/C2-E2-p2.pdf#page=1", "sources/C2-E1-p2.pdf#page=1"]
    assert data["claims"][2]["claim"] == ZH_CLAIM and data["counts"] == {"supported": 2, "refuted": 1, "unchecked": 1}


def test_html_escapes_draft_and_document_text_and_shows_signoff_beside_the_verdict(exported):
    _, out, _, _ = exported
    page = (out / "check.html").read_text(encoding="utf-8")
    assert "<script" not in page and "&lt;script&gt;" in page
    row = page[page.index('id="claim-2"'):page.index('id="claim-3"')]
    assert "refuted, confidence 0.77 (trial t-42)" in row, "the court's verdict stays"
    assert "overridden by Bob: supported" in row and "The 2021 accounts settle it." in row
    assert 'href="sources/C2-E2-p2.pdf#page=1"' in row and "Annual report 2020, p. 2" in row
    assert 'href="sources/C3-E1.html#passage"' in page
    md = (out / "check.md").read_text(encoding="utf-8")
    assert "<script" not in md and "refuted, confidence 0.77 (trial t-42)" in md
    assert "overridden by Bob: supported" in md and "(sources/C1-E1-p2.pdf#page=1)" in md


def test_pdf_shows_the_table_and_links_to_the_highlighted_pages(exported):
    _, out, _, _ = exported
    with pymupdf.open(str(out / "check.pdf")) as doc:
        text = " ".join(page.get_text(flags=pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES) for page in doc)
        links = [link for page in doc for link in page.get_links()]
    flat = " ".join(text.split())
    assert "Check of a draft" in flat and "overridden by Bob" in flat and "refuted, confidence 0.77" in flat
    assert ZH_CLAIM in flat.replace(" ", "")
    remote = {link["file"] for link in links if link["kind"] == pymupdf.LINK_GOTOR}
    assert {"sources/C1-E1-p2.pdf", "sources/C2-E1-p2.pdf", "sources/C2-E2-p2.pdf"} <= remote
    assert any(link["file"] == "sources/C3-E1.html" for link in links if "file" in link)
    assert len([link for link in links if link.get("file") == "sources/C1-E1-p2.pdf"]) == 1, "one link per line"


def test_chinese_draft_gets_chinese_wording(tmp_path):
    record = make_record(tmp_path, language="zh")
    out = tmp_path / "zh"
    export_check(record, ["html", "md", "pdf"], out)
    page = (out / "check.html").read_text(encoding="utf-8")
    assert '<html lang="zh">' in page and "文稿核查报告" in page and "法庭裁决" in page
    assert "反驳 (refuted)" in page and "Bob 已推翻，改为：支持 (supported)" in page
    assert "文稿核查报告" in (out / "check.md").read_text(encoding="utf-8")
    with pymupdf.open(str(out / "check.pdf")) as doc:
        assert "文稿核查报告" in doc[0].get_text().replace(" ", "")


def test_a_missing_source_is_noted_and_does_not_stop_the_export(tmp_path):
    record = make_record(tmp_path)
    (tmp_path / "annual.pdf").unlink()
    notes: list[str] = []
    out = tmp_path / "report"
    written = export_check(record, ["md", "csv"], out, notes=notes)
    assert written[:2] == [out / "check.md", out / "check.csv"]
    assert any(n.startswith("C1-E1: the source PDF is no longer at") for n in notes)
    assert "no longer at" in (out / "check.md").read_text(encoding="utf-8")


def test_unknown_format_is_refused(tmp_path):
    with pytest.raises(ReportError):
        export_check(make_record(tmp_path), ["docx"], tmp_path / "out")
