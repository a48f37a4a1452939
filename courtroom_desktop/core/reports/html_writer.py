"""Any report as HTML, written from its ``Document`` (``to_html``): a self-contained web page (styles, chart and
highlighted page images embedded; links to the annotated source files beside it), and the same content in the subset
of HTML that the PDF layout understands (``mode`` 'pdf', for ``pdf_writer``).

All text from documents and models goes through ``html.escape``; the only markup is ours, and the only links are
the document's: to files the export wrote (``sources/E3-p4.pdf#page=1``), to anchors in the report, to Zotero items.
"""

from __future__ import annotations

import base64
from html import escape
from pathlib import Path
from typing import Literal

from courtroom_desktop.core.reports import view
from courtroom_desktop.core.reports.document import (
    Block,
    Break,
    Chart,
    Document,
    Heading,
    Image,
    Items,
    Link,
    Para,
    Quote,
    Spans,
    Table,
    Text,
)
from courtroom_desktop.core.reports.record import Audience, TrialRecord

Mode = Literal["web", "pdf"]

WEB_CSS = """
:root { color-scheme: light; }
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; font-size: 15px; line-height: 1.5;
       color: #212121; max-width: 60rem; margin: 2rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.7rem; margin-bottom: .2rem; }
h2 { font-size: 1.25rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin-bottom: .3rem; }
.claim { font-size: 1.1rem; }
.meta, .small { color: #616161; font-size: .85rem; }
.verdict { border-radius: 6px; padding: .7rem 1rem; margin: 1rem 0; border: 1px solid #ccc; background: #fafafa; }
.verdict .label { font-weight: 700; font-size: 1.2rem; letter-spacing: .03em; }
.v-supported { border-color: #2e7d32; background: #e8f5e9; } .v-refuted { border-color: #c62828; background: #ffebee; }
.v-mixed { border-color: #ef6c00; background: #fff3e0; } .v-insufficient { border-color: #757575; background: #f5f5f5; }
table { border-collapse: collapse; width: 100%; font-size: .85rem; margin: .5rem 0; }
th, td { border: 1px solid #ddd; padding: .3rem .45rem; text-align: left; vertical-align: top; }
th { background: #f5f5f5; }
a.cite { text-decoration: none; font-weight: 600; }
.passage { border: 1px solid #e0e0e0; border-radius: 6px; padding: .6rem .9rem; margin: 1rem 0; }
.passage blockquote { margin: .4rem 0; padding: .2rem .8rem; border-left: 3px solid #fbc02d; background: #fffde7; }
.passage img { max-width: 100%; border: 1px solid #ccc; margin-top: .4rem; }
.note { color: #b71c1c; }
.turn { margin: .8rem 0; padding-left: .8rem; border-left: 3px solid #90caf9; }
.turn.against { border-left-color: #ef9a9a; }
.ruling { margin: .8rem 0; padding: .5rem .8rem; background: #f3e5f5; border-radius: 4px; }
.switch { margin: 1rem 0; padding: .4rem .8rem; background: #fff3e0; border: 1px dashed #ef6c00; font-weight: 600; }
.warning { color: #e65100; }
td .label { font-weight: 700; } td.v-supported, td.v-refuted, td.v-mixed, td.v-insufficient { border-color: #ddd; }
table.meta th { width: 12rem; }
figure { margin: .5rem 0; }
@media print { body { margin: 0; max-width: none; } .passage, .turn, .ruling { break-inside: avoid; } }
"""

# MuPDF's layout repeats a box's background at the top of every later page when the box also has padding, so in
# the PDF no element has both: boxes are drawn with borders, and colour goes into text and rules.
PDF_CSS = """
body { font-family: sans-serif; font-size: 9.5pt; line-height: 1.3; color: #212121; }
h1 { font-size: 18pt; margin-bottom: 2pt; }
h2 { font-size: 13pt; margin-top: 14pt; margin-bottom: 4pt; color: #0d47a1; }
h3 { font-size: 10.5pt; margin-top: 8pt; margin-bottom: 2pt; }
p { margin-top: 2pt; margin-bottom: 3pt; }
.claim { font-size: 11.5pt; }
.meta, .small { font-size: 8pt; color: #616161; }
.verdict { border: 1pt solid #9e9e9e; padding: 5pt; margin-top: 6pt; margin-bottom: 6pt; }
.verdict .label { font-weight: bold; font-size: 13pt; }
.v-supported { border-color: #2e7d32; } .v-supported .label { color: #2e7d32; }
.v-refuted { border-color: #c62828; } .v-refuted .label { color: #c62828; }
.v-mixed { border-color: #ef6c00; } .v-mixed .label { color: #ef6c00; }
.v-insufficient { border-color: #757575; } .v-insufficient .label { color: #616161; }
table { border-collapse: collapse; width: 100%; font-size: 7.5pt; margin-top: 3pt; }
th, td { border: 0.5pt solid #bdbdbd; padding: 2pt; text-align: left; vertical-align: top; }
th { font-weight: bold; border-bottom: 1pt solid #616161; }
a { color: #0d47a1; text-decoration: underline; }
.passage { margin-top: 6pt; margin-bottom: 6pt; }
blockquote { margin-left: 4pt; margin-right: 0; padding-left: 6pt; font-size: 9pt; border-left: 3pt solid #fbc02d; }
.note { color: #b71c1c; }
.turn { margin-top: 5pt; margin-bottom: 5pt; padding-left: 5pt; border-left: 2pt solid #90caf9; }
.turn.against { border-left: 2pt solid #ef9a9a; }
.ruling { margin-top: 5pt; margin-bottom: 5pt; padding-left: 5pt; border-left: 2pt solid #8e24aa; }
.switch { margin-top: 6pt; margin-bottom: 6pt; padding: 3pt; border: 1pt dashed #ef6c00; color: #e65100; font-weight: bold; }
td.v-supported, td.v-refuted, td.v-mixed, td.v-insufficient { border: 0.5pt solid #bdbdbd; }
.warning { color: #e65100; }
img { display: block; }
.page-image { margin-top: 4pt; }
"""
# the web page's fonts for a claim in Chinese, Japanese or Korean: the system's CJK fonts after the Latin ones (a
# browser takes each character from the first font in the list that has it)
_LATIN = '-apple-system, "Segoe UI", Helvetica, Arial'
CJK_FONTS = {
    "zh": f'{_LATIN}, "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", sans-serif',
    "ja": f'{_LATIN}, "Noto Sans CJK JP", "Source Han Sans JP", "Hiragino Sans", "Yu Gothic", Meiryo, sans-serif',
    "ko": f'{_LATIN}, "Noto Sans CJK KR", "Source Han Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", sans-serif',
}
CHART_NAME = "chart.png"  # the chart's name in the PDF layout's archive


def esc(text: object) -> str:
    """Any value as HTML text (attribute-safe), without the control characters no format can carry."""
    return escape(view.clean(str(text)), quote=True)


def _class(css: str) -> str:
    return f' class="{esc(css)}"' if css else ""


def _id(ident: str) -> str:
    return f' id="{esc(ident)}"' if ident else ""


def spans_html(spans: Spans) -> str:
    out = []
    for span in spans:
        if isinstance(span, Text):
            html = esc(span.text)
            if span.italic:
                html = f"<i>{html}</i>"
            if span.bold:
                html = f"<b>{html}</b>"
            out.append(f"<span{_class(span.css)}>{html}</span>" if span.css else html)
        elif isinstance(span, Link):
            title = f' title="{esc(span.title)}"' if span.title else ""
            out.append(f'<a{_class(span.css)} href="{esc(span.href)}"{title}>{esc(span.text)}</a>')
        elif isinstance(span, Break):
            out.append("<br/>")
    return "".join(out)


class _Writer:
    def __init__(self, mode: Mode, base: Path | None):
        self.mode = mode
        self.base = base
        self.images: dict[str, bytes] = {}  # pdf mode: archive name -> PNG bytes

    def image(self, block: Image) -> str:
        if self.base is None:
            return ""
        path = self.base / block.path
        if not path.is_file():
            return ""
        data = path.read_bytes()
        if self.mode == "web":
            tag = f'<img src="data:image/png;base64,{base64.b64encode(data).decode()}" alt="{esc(block.alt)}"/>'
        else:
            import pymupdf

            name = f"img{len(self.images)}.png"
            self.images[name] = data
            pix = pymupdf.Pixmap(data)
            width = 470.0
            height = width * pix.height / max(pix.width, 1)
            tag = f'<img src="{name}" width="{width:.0f}" height="{height:.0f}"/>'
        caption = f'<p class="small">{esc(block.caption)}</p>' if block.caption else ""
        return f'<div class="page-image">{tag}{caption}</div>'

    def chart(self, block: Chart) -> str:
        if self.mode == "web":
            return f"<figure>{block.svg}</figure>"
        from courtroom_desktop.core.reports.chart import svg_to_png

        self.images[CHART_NAME] = svg_to_png(block.svg)
        return f'<div><img src="{CHART_NAME}" width="420" height="172"/></div>'

    def block(self, block: Block) -> str:
        if isinstance(block, Heading):
            return f"<h{block.level}{_id(block.id)}>{spans_html(block.spans)}</h{block.level}>"
        if isinstance(block, Para):
            return f"<p{_class(block.css)}>{spans_html(block.spans)}</p>"
        if isinstance(block, Items):
            if not block.items:
                return f"<p>{esc(block.empty)}</p>" if block.empty else ""
            tag = "ol" if block.ordered else "ul"
            return f"<{tag}>" + "".join(f"<li>{spans_html(item)}</li>" for item in block.items) + f"</{tag}>"
        if isinstance(block, Table):
            out = [f"<table{_class(block.css)}><tr>" + "".join(f"<th>{esc(h)}</th>" for h in block.head) + "</tr>"]
            for row in block.rows:
                css = row.css or ("",) * len(row.cells)
                out.append(f"<tr{_id(row.id)}>" + "".join(f"<td{_class(c)}>{spans_html(cell)}</td>"
                                                         for cell, c in zip(row.cells, css, strict=False)) + "</tr>")
            return "".join(out) + "</table>"
        if isinstance(block, Quote):
            return "<blockquote>" + "".join(f"<p>{esc(p)}</p>" for p in block.paragraphs) + "</blockquote>"
        if isinstance(block, Image):
            return self.image(block)
        if isinstance(block, Chart):
            return self.chart(block)
        return f"<div{_class(block.css)}{_id(block.id)}>" + "\n".join(self.block(b) for b in block.blocks) + "</div>"


def to_html(document: Document, mode: Mode = "web", base: Path | None = None) -> tuple[str, dict[str, bytes]]:
    """``document``'s HTML and, in pdf mode, the images it refers to by name. ``base``: the report's folder (where
    ``sources/`` lies); without it, highlighted page images are left out."""
    writer = _Writer(mode, base)
    body = "\n".join(part for part in (writer.block(b) for b in document.blocks) if part)
    if mode == "pdf":
        return body, writer.images
    lang = document.lang
    css = WEB_CSS + (f"body {{ font-family: {CJK_FONTS[lang]}; }}\n" if lang in CJK_FONTS else "")
    page = (f"<!DOCTYPE html>\n<html lang=\"{esc(lang)}\"><head><meta charset=\"utf-8\"/>"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
            "style-src 'unsafe-inline'\"/>"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
            f"<meta name=\"generator\" content=\"{esc(document.pdf_meta.get('creator', 'Courtroom Desktop'))}\"/>"
            f"<title>{esc(document.title)}</title><style>{css}</style></head>\n<body>\n{body}\n</body></html>\n")
    return page, {}


def write_document(document: Document, path: Path) -> Path:
    """A self-contained HTML page at ``path``; its links point into ``path.parent / 'sources'``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    page, _ = to_html(document, "web", path.parent)
    path.write_text(page, encoding="utf-8")
    return path


def render_html(record: TrialRecord, audience: Audience = "general", mode: Mode = "web",
                base: Path | None = None) -> tuple[str, dict[str, bytes]]:
    """A trial's report (``trial_document``) as HTML, and in pdf mode the images it names."""
    from courtroom_desktop.core.reports.trial_document import trial_document

    return to_html(trial_document(record, audience), mode, base)


def write_html(record: TrialRecord, path: Path, audience: Audience = "general") -> Path:
    """A self-contained HTML report at ``path``; its links point into ``path.parent / 'sources'``."""
    from courtroom_desktop.core.reports.trial_document import trial_document

    return write_document(trial_document(record, audience), path)
