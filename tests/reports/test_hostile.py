"""Text from documents and from models is shown, never obeyed: hostile passages stay inert in every format."""

from __future__ import annotations

import re

import markdown
import pymupdf

from courtroom_desktop.core.reports import md_escape

from .helpers import Tags, pdf_text_of
from .trialdata import HOSTILE, MODEL_HOSTILE

OUR_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "b", "br", "span", "div", "a",
            "img", "ul", "ol", "li", "table", "tr", "th", "td", "blockquote", "figure", "svg", "rect", "line", "text",
            "polyline", "polygon", "circle", "thead", "tbody", "em", "strong", "hr", "code"}


def assert_inert(page: str) -> None:
    tags = Tags(page)
    names = {t for t, _ in tags.tags}
    assert names <= OUR_TAGS, names - OUR_TAGS
    assert "script" not in names and "iframe" not in names
    for _, attributes in tags.tags:
        assert not [a for a in attributes if a.lower().startswith("on")], attributes
        for key in ("href", "src"):
            value = attributes.get(key, "").strip().lower()
            assert not value.startswith(("javascript:", "vbscript:", "data:text")), value
    for tag, attributes in tags.tags:
        if tag == "img":
            assert attributes["src"] not in ("x", "q")
    assert not re.search(r"<\s*script", page, re.I)


def test_hostile_text_is_inert_in_html(report_dir, expert_dir):
    for folder in (report_dir, expert_dir):
        page = (folder / "report.html").read_text()
        assert_inert(page)
        # and it is shown, escaped: the reader sees what the document says
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert "&lt;img src=x onerror=y&gt;" in page and "(javascript:x)" in page
        assert "&lt;script&gt;alert(&#x27;model&#x27;)&lt;/script&gt;" in page
        assert "&lt;b&gt;treated&lt;/b&gt;" in page


def test_hostile_text_is_inert_in_markdown(report_dir, expert_dir):
    for folder in (report_dir, expert_dir):
        text = (folder / "report.md").read_text()
        assert "<script" not in text.lower() and "<img" not in text
        assert not re.search(r"(?<!\\)\]\s*\(javascript:", text)
        page = markdown.markdown(text, extensions=["tables"])
        assert_inert(page)
        assert "**bold**" not in text and "\\*\\*bold\\*\\*" in text
        assert "<strong>bold</strong>" not in page and "<strong>loud</strong>" not in page
        # rendered, the reader sees the original characters
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "[link]" in page and "(javascript:x)" in page


def test_markdown_escaping_neutralises_block_and_inline_syntax():
    for hostile in ("# heading", "- item", "1. item", "> quote", "`code`", "| a | b |", "![img](x.png)",
                    "<a href='javascript:x'>y</a>", "&lt;script&gt;", "___", "~~gone~~", "[x]: http://evil"):
        page = markdown.markdown("Before\n\n" + md_escape(hostile), extensions=["tables"])
        tags = {t for t, _ in Tags(page).tags}
        assert tags == {"p"}, (hostile, page)


def test_hostile_text_is_inert_in_pdf(report_dir, record):
    with pymupdf.open(str(report_dir / "report.pdf")) as doc:
        text = " ".join(" ".join(pdf_text_of(page) for page in doc).split())
        kinds = {link["kind"] for page in doc for link in page.get_links()}
        objects = " ".join(doc.xref_object(x, compressed=True) for x in range(1, doc.xref_length()) if doc.xref_object(x))
    # shown literally, as text
    assert "<script>alert(1)</script>" in text and "<img src=x onerror=y>" in text
    assert " ".join(MODEL_HOSTILE.split()) in text
    assert kinds <= {pymupdf.LINK_GOTOR, pymupdf.LINK_GOTO}
    assert "/JavaScript" not in objects and "/JS" not in objects and "/Launch" not in objects and "/URI" not in objects
    for source in read_sources(report_dir):
        with pymupdf.open(str(report_dir / source.pdf)) as doc:
            objects = " ".join(doc.xref_object(x) for x in range(1, doc.xref_length()))
            assert "/JavaScript" not in objects and "/JS " not in objects
    assert any("<script>" in record.entry(i).evidence.chunk.text for i in record.cited_ids())
    assert "<script>alert(1)</script>" in HOSTILE


def read_sources(report_dir):
    from courtroom_desktop.core.reports import read_json

    return read_json(report_dir / "report.json").sources
