"""The report as Markdown, written from its ``Document`` (``to_markdown``), with a chart beside it as an SVG file.

Text from documents and models is escaped (``md_escape``): Markdown punctuation gets a backslash, ``<``, ``>`` and
``&`` become entities, so no passage can open a tag, a link, an image or a block of its own in any renderer.
The only links are the document's: ``sources/E3-p4.pdf#page=1``, the page images, and anchors.
"""

from __future__ import annotations

import re
from pathlib import Path

from courtroom_desktop.core.reports import view
from courtroom_desktop.core.reports.document import (
    Block,
    Box,
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

INLINE = re.compile(r"([\\`*_\[\]|~$])")
ORDERED = re.compile(r"^(\d+)([.)])")


def md_escape(text: str) -> str:
    """One line of untrusted text, inert in Markdown (CommonMark, GFM and Python-Markdown alike)."""
    flat = view.one_line(text)
    flat = flat.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    flat = INLINE.sub(r"\\\1", flat)
    if flat[:1] in ("#", "-", "+", "="):  # would open a heading, list or rule at the start of a line
        flat = "\\" + flat
    return ORDERED.sub(r"\1\\\2", flat)


def _part(text: str) -> str:
    """A stretch of text, escaped, keeping one space at either end where it had some."""
    core = md_escape(text)
    if not core:
        return " " if text else ""
    return (" " if text[:1].isspace() else "") + core + (" " if text[-1:].isspace() else "")


def _styled(core: str, bold: bool, italic: bool) -> str:
    """``core`` in bold and/or italic, its outer spaces kept outside the markers (Markdown needs them there)."""
    stripped = core.strip()
    if not stripped or not (bold or italic):
        return core
    mark = ("**" if bold else "") + ("*" if italic else "")
    lead = core[: len(core) - len(core.lstrip())]
    trail = core[len(core.rstrip()):]
    return f"{lead}{mark}{stripped}{mark[::-1]}{trail}"


def spans_md(spans: Spans, in_table: bool = False) -> str:
    out = []
    for span in spans:
        if isinstance(span, Text):
            out.append(_styled(_part(span.text), span.bold, span.italic or span.css in ("small", "note")
                                                                        and not in_table))
        elif isinstance(span, Link):
            out.append(f"[{md_escape(span.text)}]({span.href})")
        elif isinstance(span, Break):
            out.append("<br>" if in_table else "  \n")
    return "".join(out).strip()


def _cell(spans: Spans) -> str:
    return spans_md(spans, in_table=True) or " "


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _block(block: Block, chart_file: str) -> list[str]:
    """One block as Markdown lines, a blank line after it."""
    if isinstance(block, Heading):
        anchor = f'<a id="{block.id}"></a>' if block.id else ""
        return ["#" * block.level + " " + anchor + spans_md(block.spans), ""]
    if isinstance(block, Para):
        line = spans_md(block.spans)
        if not line:
            return []
        if block.css == "small" or block.css == "note":
            line = _styled(line, False, True) if "*" not in line else line
        return [f"> {line}" if block.css == "warning" else line, ""]
    if isinstance(block, Items):
        if not block.items:
            return [md_escape(block.empty), ""] if block.empty else []
        return [(f"{n}. " if block.ordered else "- ") + spans_md(item).replace("  \n", "  \n   ")
                for n, item in enumerate(block.items, 1)] + [""]
    if isinstance(block, Table):
        lines = [_row([md_escape(h) or " " for h in block.head]), "|" + "---|" * len(block.head)]
        for row in block.rows:
            cells = [_cell(c) for c in row.cells]
            if row.id and cells:
                cells[0] = f'<a id="{row.id}"></a>' + cells[0].strip()
            lines.append(_row(cells))
        return [*lines, ""]
    if isinstance(block, Quote):
        return ["\n>\n".join(f"> {md_escape(p)}" for p in block.paragraphs), ""]
    if isinstance(block, Image):
        lines = [f"![{md_escape(block.alt)}]({block.path})", ""]
        return lines + ([f"*{md_escape(block.caption)}*", ""] if block.caption else [])
    if isinstance(block, Chart):
        return [f"![{md_escape(block.alt)}]({chart_file})", ""] if chart_file else []
    lines = [line for child in block.blocks for line in _block(child, chart_file)]
    if block.id and lines:  # the anchor the report's links go to, on the box's first line (a heading's text)
        hashes, _, rest = lines[0].partition(" ") if lines[0].startswith("#") else ("", "", lines[0])
        lines[0] = (hashes + " " if hashes else "") + f'<a id="{block.id}"></a>' + rest
    if "switch" in block.css.split():
        return ["---", "", *lines, "---", ""]
    return lines


def to_markdown(document: Document, chart_file: str = "") -> str:
    """``document`` as Markdown; ``chart_file``: the file a chart was written to beside it ('' leaves charts out)."""
    lines = [line for block in document.blocks for line in _block(block, chart_file)]
    return "\n".join(lines).rstrip() + "\n"


def write_document(document: Document, path: Path) -> Path:
    """``path`` and, beside it, the document's chart as ``<stem>-chart.svg``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    chart = next((b for b in _all_blocks(document.blocks) if isinstance(b, Chart)), None)
    chart_file = ""
    if chart is not None:
        chart_path = path.with_name(f"{path.stem}-chart.svg")
        chart_path.write_text(chart.svg, encoding="utf-8")
        chart_file = chart_path.name
    path.write_text(to_markdown(document, chart_file), encoding="utf-8")
    return path


def _all_blocks(blocks: list[Block] | tuple[Block, ...]) -> list[Block]:
    out: list[Block] = []
    for block in blocks:
        out.append(block)
        if isinstance(block, Box):
            out.extend(_all_blocks(block.blocks))
    return out


def render_markdown(record: TrialRecord, audience: Audience = "general", chart_file: str = "") -> str:
    """A trial's report (``trial_document``) as Markdown."""
    from courtroom_desktop.core.reports.trial_document import trial_document

    return to_markdown(trial_document(record, audience), chart_file)


def write_markdown(record: TrialRecord, path: Path, audience: Audience = "general") -> Path:
    """``path`` and, beside it, the chart as ``<stem>-chart.svg``; links point into ``path.parent / 'sources'``."""
    from courtroom_desktop.core.reports.trial_document import trial_document

    return write_document(trial_document(record, audience), path)
