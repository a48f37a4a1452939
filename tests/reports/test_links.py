"""Every link of every format points to a file that exists and a page within it, and every citation has one."""

from __future__ import annotations

import functools

import markdown
import pymupdf

from courtroom_desktop.core.reports import read_json

from .helpers import Tags, check_target


@functools.cache
def highlighted_pages(path) -> frozenset[int]:
    """0-based pages of a PDF that carry a highlight annotation."""
    with pymupdf.open(str(path)) as doc:
        return frozenset(page.number for page in doc
                         if any(a.type[0] == pymupdf.PDF_ANNOT_HIGHLIGHT for a in page.annots()))


def _check_href(base, href, ids) -> None:
    if href.startswith("#"):
        assert href[1:] in ids, f"anchor {href} missing"
        return
    path, page = check_target(base, href)
    if path.suffix == ".pdf":
        assert page - 1 in highlighted_pages(path), f"{href}: no highlight on that page"


def test_html_links(report_dir, record):
    tags = Tags((report_dir / "report.html").read_text())
    hrefs = tags.attr("href")
    assert hrefs
    for href in hrefs:
        _check_href(report_dir, href, tags.ids)
    saved = read_json(report_dir / "report.json")
    for evidence_id in record.cited_ids():
        assert saved.source(evidence_id).href in hrefs, evidence_id


def test_markdown_links(report_dir, record):
    text = (report_dir / "report.md").read_text()
    tags = Tags(markdown.markdown(text, extensions=["tables"]))
    hrefs = tags.attr("href")
    for href in hrefs:
        _check_href(report_dir, href, tags.ids)
    for src in tags.attr("src"):
        check_target(report_dir, src)
    sources = read_json(report_dir / "report.json").sources
    assert {s.href for s in sources} <= set(hrefs)
    assert {image for s in sources for image in s.images} <= set(tags.attr("src"))


def test_pdf_links(report_dir, record):
    remote: dict[str, int] = {}
    with pymupdf.open(str(report_dir / "report.pdf")) as doc:
        for page in doc:
            for link in page.get_links():
                if link["kind"] == pymupdf.LINK_GOTOR:
                    path, number = check_target(report_dir, f"{link['file']}#page={link['page'] + 1}")
                    assert number - 1 in highlighted_pages(path)
                    remote[link["file"]] = remote.get(link["file"], 0) + 1
                else:
                    assert link["kind"] == pymupdf.LINK_GOTO and 0 <= link["page"] < doc.page_count
    sources = read_json(report_dir / "report.json").sources
    assert set(remote) == {s.pdf for s in sources}
    # every citation of a passage in findings and transcript is a link: far more links than passages
    assert sum(remote.values()) > 2 * len(sources)
