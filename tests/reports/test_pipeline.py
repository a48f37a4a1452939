"""One report pipeline: a trial's report and a draft check's are each built as a Document, and every document format
is written by the same writers, so a new format is written once (docs/architecture.md, core/reports/)."""

from __future__ import annotations

import importlib
from pathlib import Path

from courtroom_desktop.core.check import export as check_export
from courtroom_desktop.core.reports.document import Box, Document, Heading, Items, Para, Table, plain
from courtroom_desktop.core.reports.md_writer import to_markdown

from ..check.test_export import make_record

report_export = importlib.import_module("courtroom_desktop.core.reports.export")  # the package's `export` is a function


def test_trials_and_checks_go_through_the_same_writers(record, tmp_path, monkeypatch):
    """Break: let the check write its own Markdown again (or a trial its own HTML): its calls go missing here."""
    real = report_export._document_writers()
    seen: list[tuple[str, str]] = []

    def spying() -> dict:
        return {fmt: (lambda document, path, fmt=fmt, write=write: (seen.append((fmt, path.stem)), write(document, path))[1])
                for fmt, write in real.items()}

    monkeypatch.setattr(report_export, "_document_writers", spying)
    report_export.export(record, ["md", "html", "pdf"], tmp_path / "trial")
    check_export.export_check(make_record(tmp_path), ["md", "html", "pdf"], tmp_path / "check")
    assert sorted(seen) == sorted((fmt, stem) for fmt in ("md", "html", "pdf") for stem in ("report", "check"))


def test_a_new_format_is_one_writer_and_every_kind_of_report_gets_it(record, tmp_path, monkeypatch):
    real = report_export._document_writers()

    def write_text(document: Document, path: Path) -> Path:  # a plain-text format, written once
        lines = []
        for block in document.blocks:
            if isinstance(block, Heading | Para):
                lines.append(plain(block.spans))
            elif isinstance(block, Table):
                lines.append("\t".join(block.head))
                lines += ["\t".join(plain(cell) for cell in row.cells) for row in block.rows]
            elif isinstance(block, Items):
                lines += [plain(item) for item in block.items]
            elif isinstance(block, Box):
                lines += [plain(b.spans) for b in block.blocks if isinstance(b, Heading | Para)]
        path.write_text("\n".join(lines), encoding="utf-8")
        return path

    monkeypatch.setattr(report_export, "_document_writers", lambda: {**real, "txt": write_text})
    monkeypatch.setattr(report_export, "FORMATS", (*report_export.FORMATS, "txt"))
    monkeypatch.setattr(check_export, "FORMATS", (*check_export.FORMATS, "txt"))
    trial = report_export.export(record, ["txt"], tmp_path / "trial")[0].read_text(encoding="utf-8")
    check = check_export.export_check(make_record(tmp_path), ["txt"], tmp_path / "check")[0].read_text(encoding="utf-8")
    assert trial.startswith("Verdict report\n") and "Verdict: SUPPORTED" in trial and record.spec.claim in trial
    assert check.startswith("Check of a draft: ") and "overridden by Bob: supported" in check


def test_document_text_is_never_markup(record):
    """Every span is text: a hostile claim or passage comes out escaped in Markdown (HTML: tests/reports/test_hostile)."""
    from courtroom_desktop.core.reports.trial_document import trial_document

    text = to_markdown(trial_document(record))
    assert "<b>treated</b>" not in text and "&lt;b&gt;treated&lt;/b&gt;" in text
