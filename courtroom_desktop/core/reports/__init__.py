"""Verdict reports: a trial record -> Markdown, self-contained HTML, PDF and JSON, with a highlighted copy of every
cited page beside the report and every citation linked to it. No Qt here.

    record = TrialRecord.from_store(store, trial_id)
    paths = export(record, ["md", "html", "pdf", "json"], out_dir, audience="general")
"""

from courtroom_desktop.core.reports.export import FORMATS, export
from courtroom_desktop.core.reports.html_writer import render_html, write_html
from courtroom_desktop.core.reports.json_writer import read_json, report_json_schema, write_json
from courtroom_desktop.core.reports.md_writer import md_escape, render_markdown, write_markdown
from courtroom_desktop.core.reports.pdf_writer import render_pdf, write_pdf
from courtroom_desktop.core.reports.record import Audience, SourceCopy, TrialRecord
from courtroom_desktop.core.reports.sources import highlight_sources

__all__ = [
    "FORMATS", "Audience", "SourceCopy", "TrialRecord", "export", "highlight_sources", "md_escape", "read_json",
    "render_html", "render_markdown", "render_pdf", "report_json_schema", "write_html", "write_json", "write_markdown",
    "write_pdf",
]
