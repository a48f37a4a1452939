"""Write a report into one folder, in the formats asked: the one driver behind a trial's report (``export``) and a
draft check's (``core.check.export.export_check``).

    out_dir/report.md (+ report-chart.svg)   out_dir/report.html   out_dir/report.pdf   out_dir/report.json
    out_dir/sources/E3-p4.pdf, E3-p4.png, ...       (E5.html: the excerpt of a passage of a text document)

The formats of a document (md, html, pdf) are written once, for every kind of report, by ``DOCUMENT_WRITERS`` from the
report's ``Document``; a new format is one more writer there. The data formats (json, csv) are each kind's own. One
folder holds one report (an export into the same folder replaces the earlier one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from courtroom_desktop.core.errors import ReportError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.reports.document import Document
from courtroom_desktop.core.reports.record import Audience, TrialRecord
from courtroom_desktop.core.reports.sources import Locate, highlight_sources

DOCUMENT_FORMATS = ("md", "html", "pdf")  # the keys of _document_writers(): every kind of report is written in these
FORMATS = (*DOCUMENT_FORMATS, "json")  # a trial's report
REPORT_STEM = "report"


def _document_writers() -> dict[str, Callable[[Document, Path], Path]]:
    from courtroom_desktop.core.reports import html_writer, md_writer, pdf_writer

    return {"md": md_writer.write_document, "html": html_writer.write_document, "pdf": pdf_writer.write_document}


def wanted_formats(formats: Iterable[str], offered: Iterable[str]) -> list[str]:
    """The formats asked, each once, in order; a ReportError naming the offered ones when one is unknown or none is
    asked."""
    offered = tuple(offered)
    wanted = list(dict.fromkeys(formats))
    unknown = [f for f in wanted if f not in offered]
    if unknown or not wanted:
        raise ReportError(Message("unknown report format(s) {', '.join(unknown) or '(none)'}: choose from {', "
                                  "'.join(offered)}",
                                  ', '.join(unknown) or '(none)', ', '.join(offered)))
    return wanted


def report_folder(out_dir: Path) -> Path:
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(Message("cannot create the report folder {out_dir} ({exc.strerror})", out_dir, exc.strerror)) from exc
    return out_dir


def write_report(out_dir: Path, stem: str, wanted: list[str], document: Callable[[], Document],
                 data: Mapping[str, Callable[[Path], object]]) -> list[Path]:
    """Write ``out_dir/<stem>.<format>`` for each wanted format: a document format from ``document()`` (built once),
    a data format by its writer in ``data``. Returns the paths in the order asked; an OSError becomes a ReportError
    naming the folder."""
    writers = _document_writers()
    built: Document | None = None
    written: list[Path] = []
    try:
        for fmt in wanted:
            path = out_dir / f"{stem}.{fmt}"
            if fmt in data:
                data[fmt](path)
            else:
                built = built or document()
                writers[fmt](built, path)
            written.append(path)
    except OSError as exc:
        raise ReportError(Message("cannot write the report into {out_dir} ({exc.strerror or exc})",
                                  out_dir, exc.strerror or exc)) from exc
    return written


def export(record: TrialRecord, formats: Iterable[str], out_dir: Path, audience: Audience = "general",
           locate: Locate | None = None, notes: list[str] | None = None) -> list[Path]:
    """Write the report in each of ``formats`` (md, html, pdf, json) into ``out_dir``; returns the written paths:
    the reports in the order asked, then the highlighted source files. ``notes``, if given, receives what could not
    be highlighted (e.g. 'E3: the source PDF is no longer at ...'); the reports say it too."""
    from courtroom_desktop.core.reports.json_writer import write_json
    from courtroom_desktop.core.reports.trial_document import trial_document

    wanted = wanted_formats(formats, FORMATS)
    if audience not in ("general", "expert"):
        raise ReportError(Message("unknown audience {audience}: choose general or expert", f'{audience!r}'))
    out_dir = report_folder(out_dir)
    record = highlight_sources(record, out_dir, locate)
    if notes is not None:
        notes.extend(f"{s.evidence_id}: {s.note}" for s in record.sources if s.note)
    written = write_report(out_dir, REPORT_STEM, wanted, lambda: trial_document(record, audience),
                           {"json": lambda path: write_json(record, path)})
    for source in record.sources:
        if source.pdf:
            written.append(out_dir / source.pdf)
        if source.excerpt:
            written.append(out_dir / source.excerpt)
    return written
