"""The highlighted copies of the cited pages: the right pages, highlights exactly on the cited text, and a report
that stands when a source is gone."""

from __future__ import annotations

import shutil

import pymupdf

from courtroom_desktop.core.court.records import Citation, PoolEntry, Seat, Stance, TrialSpec, Turn
from courtroom_desktop.core.library.chunking import chunk_document
from courtroom_desktop.core.library.read.extract import extract
from courtroom_desktop.core.records import Evidence
from courtroom_desktop.core.reports import TrialRecord, export, read_json
from testkit.pdfgen import DocSpec, SectionSpec, render_pdf

from ..library.docs import make_structured
from .helpers import Tags, highlights, norm, pdf_text_of


def test_text_under_every_highlight_is_the_cited_text(report_dir, record):
    sources = read_json(report_dir / "report.json").sources
    assert [s.evidence_id for s in sources] == record.cited_ids()
    quoted = 0
    for source in sources:
        entry = record.entry(source.evidence_id)
        chunk = entry.evidence.chunk
        assert source.pdf == f"sources/{entry.id}-p{chunk.page_start + 1}.pdf" and not source.note
        marks = highlights(report_dir / source.pdf)
        passage = [text for _, subject, text in marks if subject == "cited passage"]
        assert len(passage) == source.highlights == len(chunk.highlights)
        assert norm(" ".join(passage)) == norm(chunk.text), entry.id
        quotes = [text for _, subject, text in marks if subject == "quotation"]
        assert [norm(q) for q in source.quotes] == [norm(q) for q in record.quotes(entry.id)]
        assert len(quotes) == len(source.quotes)
        for under, quote in zip(quotes, source.quotes):
            # every place the passage has the quoted words is marked: the quotation, once or more
            times = norm(under).count(norm(quote))
            assert times >= 1 and norm(under) == norm(quote) * times, (under, quote)
        quoted += len(quotes)
        with pymupdf.open(str(report_dir / source.pdf)) as doc:
            assert doc.page_count == chunk.page_end - chunk.page_start + 1 == source.pages
            assert doc[0].get_label() == str(chunk.page_start + 1)  # the copy keeps the source's page numbers
            with pymupdf.open(entry.evidence.doc_path) as original:
                assert norm(doc[0].get_text()) == norm(original[chunk.page_start].get_text())
        assert source.images and all((report_dir / image).is_file() for image in source.images)
    assert quoted >= 2


def test_a_passage_over_two_pages_is_highlighted_on_both(report_dir, record):
    spanning = [e for e in record.pool if e.id in record.cited_ids() and e.evidence.chunk.page_end > e.evidence.chunk.page_start]
    assert spanning, "the fixture should cite a passage that crosses a page break"
    source = read_json(report_dir / "report.json").sources
    copy = next(s for s in source if s.evidence_id == spanning[0].id)
    pages = {page for page, subject, _ in highlights(report_dir / copy.pdf) if subject == "cited passage"}
    assert pages == {0, 1} and len(copy.images) == 2


def _moved(record, evidence_id, new_path):
    pool = []
    for entry in record.pool:
        if entry.id == evidence_id:
            evidence = entry.evidence.model_copy(update={"doc_path": str(new_path)})
            entry = entry.model_copy(update={"evidence": evidence})
        pool.append(entry)
    return record.model_copy(update={"pool": tuple(pool)})


def test_a_missing_source_gives_a_note_not_a_crash(record, tmp_path):
    gone = _moved(record, "E1", tmp_path / "nowhere" / "trial.pdf")
    notes: list[str] = []
    paths = export(gone, ["md", "html", "pdf", "json"], tmp_path / "out", notes=notes)
    assert all(p.is_file() for p in paths)
    assert notes and notes[0].startswith("E1: the source PDF is no longer at")
    assert not list((tmp_path / "out" / "sources").glob("E1-*"))
    saved = read_json(tmp_path / "out" / "report.json")
    e1 = saved.source("E1")
    assert e1.pdf == "" and "no longer at" in e1.note
    html = (tmp_path / "out" / "report.html").read_text()
    tags = Tags(html)
    assert "no longer at" in html and "The passage above is the text the trial kept" in html
    assert "#E1" in tags.attr("href") and "E1" in tags.ids  # the citation falls back to the passage in the report
    snapshot = record.entry("E1").evidence.chunk.text.split()[:6]
    assert " ".join(snapshot) in " ".join(html.split())
    with pymupdf.open(str(tmp_path / "out" / "report.pdf")) as doc:
        text = " ".join(" ".join(pdf_text_of(page) for page in doc).split())
        targets = [link.get("file", "") for page in doc for link in page.get_links()]
    assert "no longer at" in text and " ".join(snapshot) in text
    assert not any("E1-" in t for t in targets)


def test_a_moved_source_is_found_through_the_library(record, trial, tmp_path):
    entry = record.entry("E1")
    moved = tmp_path / "elsewhere.pdf"
    shutil.copy(entry.evidence.doc_path, moved)
    gone = _moved(record, "E1", tmp_path / "old-place.pdf")
    asked = []

    def locate(doc_id):
        asked.append(doc_id)
        return str(moved)

    export(gone, ["json"], tmp_path / "out", locate=locate)
    saved = read_json(tmp_path / "out" / "report.json").source("E1")
    assert asked and asked[0] == entry.evidence.chunk.doc_id
    assert saved.pdf and not saved.note and (tmp_path / "out" / saved.pdf).is_file()


def test_a_changed_source_is_not_highlighted(record, trial, tmp_path):
    other = next(p for doc_id, p in trial.paths.items() if doc_id != record.entry("E1").evidence.chunk.doc_id)
    changed = _moved(record, "E1", other)  # another PDF at the recorded path: its content hash differs
    export(changed, ["json"], tmp_path / "out")
    saved = read_json(tmp_path / "out" / "report.json").source("E1")
    assert saved.pdf == "" and "has changed since it was added" in saved.note


def test_a_broken_source_gives_a_note(record, tmp_path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 100)
    notes: list[str] = []
    export(_moved(record, "E1", broken), ["md"], tmp_path / "out", notes=notes)
    assert notes and notes[0].startswith("E1: ")
    assert (tmp_path / "out" / "report.md").is_file()


def test_a_second_export_replaces_stale_copies(record, tmp_path):
    out = tmp_path / "out"
    (out / "sources").mkdir(parents=True)
    (out / "sources" / "E99-p3.pdf").write_bytes(b"stale")
    (out / "sources" / "notes.txt").write_text("the user's own file")
    export(record, ["json"], out)
    assert not (out / "sources" / "E99-p3.pdf").exists() and (out / "sources" / "notes.txt").exists()


def _one_passage(chunk, path, quotes) -> TrialRecord:
    entry = PoolEntry(id="E1", evidence=Evidence(chunk=chunk, doc_title="T", doc_path=str(path)), round=1,
                      found_by=Seat.starts_against, query="q")
    turn = Turn(round=1, index=0, seat=Seat.starts_against, stance=Stance.against, role="Prosecution", text="see [E1]",
                citations=tuple(Citation(evidence_id="E1", quote=q) for q in quotes))
    return TrialRecord(trial_id="t", generated_at="now", spec=TrialSpec(claim="c"), pool=(entry,), turns=(turn,))


def test_quotations_match_whatever_the_punctuation_ligatures_and_line_breaks(tmp_path):
    text = ("In the review 3357 studies were identified and reviewed for eligibility. 31 eligible studies were included "
            "in the final analysis, with sufficient office-based follow-up of the fifty affiliated clinics.")
    path = tmp_path / "review.pdf"
    render_pdf(DocSpec(title="Review", sections=[SectionSpec(1, "1 Results", [text])]), path)
    [chunk] = [c for c in chunk_document(extract(path), "doc", 200, 0, 10) if "eligibility" in c.text]
    quotes = ["identified and reviewed for eligibility",   # the PDF sets "fi" as one glyph
              "reviewed for eligibility 31 eligible studies",  # the court accepts a quote without its full stop
              "sufficient office based follow up"]  # nor its hyphens
    export(_one_passage(chunk, path, quotes), ["json"], tmp_path / "out")
    source = read_json(tmp_path / "out" / "report.json").source("E1")
    assert list(source.quotes) == quotes and not source.note
    marks = [text for _, subject, text in highlights(tmp_path / "out" / source.pdf) if subject == "quotation"]
    assert [norm(m) for m in marks] == [norm(q) for q in quotes]


def test_highlights_land_on_a_rotated_page(tmp_path):
    path = tmp_path / "rotated.pdf"
    make_structured(tmp_path / "plain.pdf", outline=True)
    with pymupdf.open(str(tmp_path / "plain.pdf")) as doc:
        for page in doc:
            page.set_rotation(90)
        doc.save(str(path))
    chunks = chunk_document(extract(path), "doc", 120, 20, 10)
    chunk = next(c for c in chunks[1:] if c.page_end == c.page_start == 0)
    quote = " ".join(chunk.text.split()[3:9])
    export(_one_passage(chunk, path, [quote]), ["json"], tmp_path / "out")
    source = read_json(tmp_path / "out" / "report.json").source("E1")
    marks = highlights(tmp_path / "out" / source.pdf)
    assert norm(" ".join(t for _, s, t in marks if s == "cited passage")) == norm(chunk.text)
    assert norm(quote) in norm(" ".join(t for _, s, t in marks if s == "quotation"))
