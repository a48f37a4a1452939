"""A cited passage of a text document (a note) links to an excerpt, the passage marked in its text, instead of a PDF
page; PDF passages keep their highlighted pages; a note that changed since gives the passage the trial kept."""

from __future__ import annotations

import html

import pymupdf

from courtroom_desktop.core.reports import export, read_json
from stress.common import open_library

from .helpers import Tags

NOTE = ("# Ward notes\n\n" + "The morning round began at seven. " * 12 + "\n\n## Readings\n\n"
        "The nurse wrote <script>alert(1)</script> & the reading 140/90 mmHg after twelve weeks of treatment.\n\n"
        + "The evening round was quiet. " * 12 + "\n")


def _with_note(record, tmp_path):
    """The record with its first cited passage replaced by a passage of a note ingested into a real library."""
    note = tmp_path / "ward.md"
    note.write_text(NOTE, encoding="utf-8")
    library = open_library(tmp_path / "lib", min_section_tokens=0)
    try:
        library.ingest([note])
        doc = library.documents()[0]
        chunk = next(c for c in library.doc_chunks(doc.id) if "<script>" in c.text)
    finally:
        library.close()
    cited = record.cited_ids()
    pool = []
    for entry in record.pool:
        if entry.id == cited[0]:
            evidence = entry.evidence.model_copy(update={"chunk": chunk, "doc_path": str(note), "doc_title": doc.title})
            entry = entry.model_copy(update={"evidence": evidence})
        pool.append(entry)
    return record.model_copy(update={"pool": tuple(pool)}), cited[0], cited[1], chunk, note


def test_a_note_citation_links_to_its_excerpt_and_pdf_citations_to_pages(record, tmp_path):
    noted, note_id, pdf_id, chunk, note = _with_note(record, tmp_path)
    out = tmp_path / "out"
    paths = export(noted, ["md", "html", "pdf", "json"], out)
    excerpt = out / "sources" / f"{note_id}.html"
    assert excerpt in paths
    page = excerpt.read_text(encoding="utf-8")
    assert f'<mark id="passage">{html.escape(chunk.text)}</mark>' in page  # the passage marked, its text escaped
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "The morning round began" in page and "The evening round was quiet" in page  # with its context
    saved = read_json(out / "report.json")
    source = saved.source(note_id)
    assert source.excerpt == f"sources/{note_id}.html" and source.pdf == "" and not source.note
    assert source.href == f"sources/{note_id}.html#passage"
    assert saved.source(pdf_id).pdf.endswith(".pdf")  # the PDF passages are as before
    report = (out / "report.html").read_text(encoding="utf-8")
    hrefs = Tags(report).attr("href")
    assert f"sources/{note_id}.html#passage" in hrefs and any(h.startswith(f"sources/{pdf_id}-p") for h in hrefs)
    assert "Open the passage in its text" in report and "Ward notes, page" not in report
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert f"(sources/{note_id}.html#passage)" in markdown and "Ward notes, page" not in markdown
    with pymupdf.open(str(out / "report.pdf")) as doc:
        files = [link.get("file", "") for p in doc for link in p.get_links()]
    assert f"sources/{note_id}.html" in files and any(f.startswith(f"sources/{pdf_id}-p") for f in files)


def test_a_note_changed_since_gives_the_kept_passage(record, tmp_path):
    noted, note_id, _, chunk, note = _with_note(record, tmp_path)
    note.write_text("# Ward notes\n\nRewritten since the trial.\n", encoding="utf-8")
    notes: list[str] = []
    export(noted, ["json"], tmp_path / "out", notes=notes)
    source = read_json(tmp_path / "out" / "report.json").source(note_id)
    assert source.excerpt and "has changed since" in source.note and any(n.startswith(note_id) for n in notes)
    page = (tmp_path / "out" / source.excerpt).read_text(encoding="utf-8")
    assert f'<mark id="passage">{html.escape(chunk.text)}</mark>' in page and "Rewritten" not in page
