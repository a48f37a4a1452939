"""Export a trial record: highlighted source pages first, then each requested format, all into one folder.

    out_dir/report.md (+ report-chart.svg)   out_dir/report.html   out_dir/report.pdf   out_dir/report.json
    out_dir/sources/E3-p4.pdf, E3-p4.png, ...       (E5.html: the excerpt of a passage of a text document)

One folder holds one trial's report (an export into the same folder replaces the earlier one).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from courtroom_desktop.core.errors import ReportError
from courtroom_desktop.core.reports.record import Audience, TrialRecord
from courtroom_desktop.core.reports.sources import Locate, highlight_sources

FORMATS = ("md", "html", "pdf", "json")
REPORT_STEM = "report"


def export(record: TrialRecord, formats: Iterable[str], out_dir: Path, audience: Audience = "general",
           locate: Locate | None = None, notes: list[str] | None = None) -> list[Path]:
    """Write the report in each of ``formats`` (md, html, pdf, json) into ``out_dir``; returns the written paths:
    the reports in the order asked, then the highlighted source files. ``notes``, if given, receives what could not
    be highlighted (e.g. 'E3: the source PDF is no longer at ...'); the reports say it too."""
    from courtroom_desktop.core.reports.html_writer import write_html
    from courtroom_desktop.core.reports.json_writer import write_json
    from courtroom_desktop.core.reports.md_writer import write_markdown
    from courtroom_desktop.core.reports.pdf_writer import write_pdf

    wanted = list(dict.fromkeys(formats))
    unknown = [f for f in wanted if f not in FORMATS]
    if unknown or not wanted:
        raise ReportError(f"unknown report format(s) {', '.join(unknown) or '(none)'}: choose from {', '.join(FORMATS)}")
    if audience not in ("general", "expert"):
        raise ReportError(f"unknown audience {audience!r}: choose general or expert")
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(f"cannot create the report folder {out_dir} ({exc.strerror})") from exc
    record = highlight_sources(record, out_dir, locate)
    if notes is not None:
        notes.extend(f"{s.evidence_id}: {s.note}" for s in record.sources if s.note)
    written: list[Path] = []
    try:
        for fmt in wanted:
            path = out_dir / f"{REPORT_STEM}.{fmt}"
            if fmt == "md":
                written.append(write_markdown(record, path, audience))
            elif fmt == "html":
                written.append(write_html(record, path, audience))
            elif fmt == "pdf":
                written.append(write_pdf(record, path, audience))
            else:
                written.append(write_json(record, path))
    except OSError as exc:
        raise ReportError(f"cannot write the report into {out_dir} ({exc.strerror or exc})") from exc
    for source in record.sources:
        if source.pdf:
            written.append(out_dir / source.pdf)
        if source.excerpt:
            written.append(out_dir / source.excerpt)
    return written
