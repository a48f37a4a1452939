"""The annotated copy of a checked draft: a PDF highlighted per claim in its verdict's colour with a note, a Word copy
with a comment on each claim's own text (the issue's acceptance test), a Markdown copy with footnotes; never of a
draft that changed since it was checked, nor of pasted text."""

from __future__ import annotations

import hashlib
import zipfile

import docx
import pymupdf
import pytest
from lxml import etree

from courtroom_desktop.core.check.annotate import AUTHOR, COLOURS, annotate_draft
from courtroom_desktop.core.check.drafts import read_draft
from courtroom_desktop.core.check.records import (
    CheckClaim,
    CheckRecord,
    CheckSpec,
    CheckStatus,
    ClaimRow,
    ClaimStatus,
    QuickResult,
    SignOff,
)
from courtroom_desktop.core.court.records import VerdictLabel
from courtroom_desktop.core.records import Chunk, Evidence

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
EVIDENCE = Evidence(chunk=Chunk(id="c1", doc_id="doc-a", ordinal=0, section_path="", page_start=3, page_end=3,
                                char_start=0, char_end=5, text="Sales"),
                    doc_title="Annual report", doc_path="/nowhere/annual.pdf")


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def quick(label: VerdictLabel, confidence: float = 0.8) -> QuickResult:
    return QuickResult(label=label, confidence=confidence, passages=(EVIDENCE,), citations=("E1",))


def record_of(path, kind: str, claims: list[tuple[list, QuickResult | None, SignOff | None]],
              language: str = "en") -> CheckRecord:
    """A check of ``path`` whose claims stand at the given draft sentences (several: a merged claim)."""
    rows = []
    for index, (sentences, result, signoff) in enumerate(claims):
        claim = CheckClaim(text="".join(s.text for s in sentences), sentences=tuple(s.index for s in sentences),
                           locations=tuple(s.location for s in sentences))
        rows.append(ClaimRow(index=index, claim=claim, quick=result, signoff=signoff,
                             status=ClaimStatus.done if result else ClaimStatus.pending))
    spec = CheckSpec(draft=str(path), kind=kind, language=language, draft_sha256=_sha(path))
    return CheckRecord(id="chk", spec=spec, status=CheckStatus.finished, rows=tuple(rows))


def by_text(draft, text):
    return next(s for s in draft.sentences if s.text == text)


# ------------------------------------------------------------------------------------------------ PDF
def test_pdf_copy_highlights_each_claim_location_in_its_verdicts_colour(tmp_path):
    path = tmp_path / "memo.pdf"
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Sales rose by 12% in 2020. The team met on Monday.", fontsize=11)
    page.insert_text((72, 300), "Costs fell by a third.", fontsize=11)
    doc.new_page().insert_text((72, 100), "销售额增长了12%。团队周一开会。", fontsize=11, fontname="china-s")
    doc.save(str(path))
    doc.close()
    draft = read_draft(path)
    overridden = SignOff(reviewer="Ann", decision="overridden", label=VerdictLabel.supported, note="see 2021", at=1e9)
    record = record_of(path, "pdf", [
        ([by_text(draft, "Sales rose by 12% in 2020.")], quick(VerdictLabel.refuted), overridden),
        ([by_text(draft, "Costs fell by a third."), by_text(draft, "销售额增长了12%。")], quick(VerdictLabel.mixed), None),
        ([by_text(draft, "The team met on Monday.")], None, None),
    ])
    written, why = annotate_draft(record, path, tmp_path / "out")
    assert written == tmp_path / "out" / "memo-checked.pdf" and why == ""
    expected = {0: [(record.rows[0], 0), (record.rows[1], 0), (record.rows[2], 0)], 1: [(record.rows[1], 1)]}
    with pymupdf.open(str(written)) as out:
        for number, wanted in expected.items():
            page = out[number]
            annots = [a for a in page.annots() if a.type[0] == pymupdf.PDF_ANNOT_HIGHLIGHT]
            assert len(annots) == len(wanted)
            for row, which in wanted:
                rects = [pymupdf.Rect(r) for r in row.claim.locations[which].rects]
                annot = next(a for a in annots if a.info["subject"].startswith(f"claim {row.index + 1}:"))
                assert any(annot.rect.intersects(r) for r in rects)
                label = row.final_label.value if row.final_label else "unchecked"
                assert annot.colors["stroke"] == pytest.approx(COLOURS[label], abs=0.01)
                assert annot.info["title"] == AUTHOR
        notes = {a.info["subject"]: a.info["content"] for page in out for a in page.annots()}
    first = notes["claim 1: supported"]
    assert "refuted, confidence 0.80 (quick check)" in first, "the court's verdict, beside the override"
    assert "overridden by Ann: supported" in first and "see 2021" in first and "E1: Annual report, p. 4" in first
    assert "not checked" in notes["claim 3: unchecked"]
    assert _sha(path) == record.spec.draft_sha256, "the draft itself is untouched"


# ------------------------------------------------------------------------------------------------ Word
def word_draft(path):
    """Claims that start and end inside runs of different formatting, a tab, and a Chinese paragraph."""
    document = docx.Document()
    document.add_heading("Quarterly note", level=1)
    paragraph = document.add_paragraph("Intro words here. Sales ")
    paragraph.add_run("rose by 12%").bold = True
    paragraph.add_run(" in 2020. Costs").italic = True
    paragraph.add_run(" fell by a third.\tThe end is near, said Bob.")
    document.add_paragraph("Nothing to check.")
    zh = document.add_paragraph("据统计，")
    zh.add_run("产量增长了一倍。").bold = True
    zh.add_run("价格稳定。")
    document.save(str(path))
    return path


def commented_text(path) -> dict[int, str]:
    """comment id -> the document text between its w:commentRangeStart and w:commentRangeEnd."""
    with zipfile.ZipFile(path) as archive:
        root = etree.fromstring(archive.read("word/document.xml"))
    active: set[str] = set()
    texts: dict[int, str] = {}
    for element in root.iter():
        if element.tag == f"{W}commentRangeStart":
            active.add(element.get(f"{W}id"))
            texts[int(element.get(f"{W}id"))] = ""
        elif element.tag == f"{W}commentRangeEnd":
            active.discard(element.get(f"{W}id"))
        elif element.tag in (f"{W}t", f"{W}tab"):
            piece = element.text or "" if element.tag == f"{W}t" else "\t"
            for comment_id in active:
                texts[int(comment_id)] += piece
    return texts


def test_word_copy_has_a_comment_on_each_claims_own_text(tmp_path):
    path = word_draft(tmp_path / "note.docx")
    draft = read_draft(path)
    accepted = SignOff(reviewer="Ann", decision="accepted", at=1e9)
    record = record_of(path, "docx", [
        ([by_text(draft, "Sales rose by 12% in 2020.")], quick(VerdictLabel.supported), accepted),
        ([by_text(draft, "Costs fell by a third.")], quick(VerdictLabel.refuted), None),
        ([by_text(draft, "据统计，产量增长了一倍。"), by_text(draft, "价格稳定。")], quick(VerdictLabel.mixed), None),
        ([by_text(draft, "Intro words here.")], None, None),
    ])
    original = [p.text for p in docx.Document(str(path)).paragraphs]
    written, why = annotate_draft(record, path, tmp_path / "out")
    assert written == tmp_path / "out" / "note-checked.docx"

    # the acceptance test: the text each comment's range covers is exactly its claim's text
    wanted = [sentence_text for row in record.rows for sentence_text in
              (original[loc.paragraph - 1][loc.start:loc.end] for loc in row.claim.locations)]
    assert wanted == ["Sales rose by 12% in 2020.", "Costs fell by a third.", "据统计，产量增长了一倍。", "价格稳定。",
                      "Intro words here."]
    covered = commented_text(written)
    assert [covered[i] for i in sorted(covered)] == wanted
    assert why == ""

    annotated = docx.Document(str(written))
    assert [p.text for p in annotated.paragraphs] == original, "the draft's text is unchanged"
    comments = sorted(annotated.comments, key=lambda c: c.comment_id)
    assert len(comments) == 5 and {c.author for c in comments} == {AUTHOR}
    assert "supported, confidence 0.80 (quick check)" in comments[0].text and "accepted by Ann" in comments[0].text
    assert "E1: Annual report, p. 4" in comments[1].text and "refuted" in comments[1].text
    assert "mixed" in comments[2].text and "mixed" in comments[3].text and "not checked" in comments[4].text
    runs = annotated.paragraphs[1].runs
    assert [r.text for r in runs if r.bold] == ["rose by 12%"], "the formatting of split runs is kept"
    assert "".join(r.text for r in runs if r.italic) == " in 2020. Costs"


def test_a_chinese_draft_gets_chinese_notes(tmp_path):
    path = word_draft(tmp_path / "note.docx")
    draft = read_draft(path)
    record = record_of(path, "docx", [([by_text(draft, "价格稳定。")], quick(VerdictLabel.supported), None)],
                       language="zh")
    written, _ = annotate_draft(record, path, tmp_path / "out")
    comment = next(iter(docx.Document(str(written)).comments))
    assert "法庭：支持 (supported)" in comment.text and "未审核" in comment.text
    assert commented_text(written) == {0: "价格稳定。"}


# ------------------------------------------------------------------------------------------------ Markdown, refusals
def test_markdown_copy_marks_each_claim_and_lists_the_verdicts(tmp_path):
    path = tmp_path / "post.md"
    path.write_text("# Title\n\nSales rose by 12% in 2020. Costs fell.\n\n- A listed point here.\n", encoding="utf-8")
    draft = read_draft(path)
    record = record_of(path, "markdown", [([by_text(draft, "Sales rose by 12% in 2020.")], quick(VerdictLabel.refuted), None),
                                          ([by_text(draft, "A listed point here.")], None, None)])
    written, why = annotate_draft(record, path, tmp_path / "out")
    assert written == tmp_path / "out" / "post-checked.md" and why == ""
    text = written.read_text(encoding="utf-8")
    assert "Sales rose by 12% in 2020.[^c1] Costs fell." in text and "- A listed point here.[^c2]" in text
    assert "\n[^c1]: Court: refuted, confidence 0.80 (quick check)" in text and "\n[^c2]: Court: not checked" in text


def test_a_changed_draft_or_pasted_text_is_not_annotated(tmp_path):
    path = word_draft(tmp_path / "note.docx")
    draft = read_draft(path)
    record = record_of(path, "docx", [([by_text(draft, "价格稳定。")], quick(VerdictLabel.supported), None)])
    document = docx.Document(str(path))
    document.add_paragraph("A sentence added after the check.")
    document.save(str(path))
    written, why = annotate_draft(record, path, tmp_path / "out")
    assert written is None and "changed since it was checked" in why
    assert not (tmp_path / "out" / "note-checked.docx").exists()
    pasted = record.model_copy(update={"spec": CheckSpec(draft="pasted text", kind="text", pasted_text="Sales rose.")})
    written, why = annotate_draft(pasted, path, tmp_path / "out")
    assert written is None and "pasted text" in why
