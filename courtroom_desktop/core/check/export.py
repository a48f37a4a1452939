"""Export a check of a draft: highlighted source pages first, then each requested format, all into one folder.

    out_dir/check.md   check.html   check.pdf   check.json   check.csv
    out_dir/sources/C3-E1-p4.pdf (+ .png)   C3-E2.html    (claim 3's passage E1 on page 4; E2: a text document's excerpt)

The same report pipeline as a trial's (``core.reports.export``): the check becomes a ``Document``
(``check_document``), written as Markdown, HTML and PDF by the writers every report shares; the JSON and the CSV
are the check's own data formats. One folder holds one check (an export into the same folder replaces the earlier
one). Every format shows, per claim, the court's verdict (label, confidence, and whether it comes from the quick check
or a full trial) and, beside it, never in its place, the reviewer's sign-off. The highlighted copies are made as a
trial's report makes them (``core.reports.sources``, ``core.reports.excerpts``).

Text from the draft and the library is data: every writer escapes it, and the CSV puts an apostrophe before a cell
that a spreadsheet would read as a formula (=, +, -, @). Fixed wording follows the draft's language (English, or
Chinese for a Chinese draft).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from courtroom_desktop import __version__
from courtroom_desktop.core import lexicon
from courtroom_desktop.core.check.records import CheckRecord, ClaimRow
from courtroom_desktop.core.check.worth import worth
from courtroom_desktop.core.court.records import PoolEntry
from courtroom_desktop.core.records import Evidence
from courtroom_desktop.core.reports.document import Break, Document, Heading, Items, Link, Para, Row, Span, Table, Text
from courtroom_desktop.core.reports.excerpts import write_excerpt
from courtroom_desktop.core.reports.export import DOCUMENT_FORMATS, report_folder, wanted_formats, write_report
from courtroom_desktop.core.reports.record import SourceCopy
from courtroom_desktop.core.reports.sources import SOURCES_DIR, Locate, _copy, find_source
from courtroom_desktop.core.reports.view import one_line

log = logging.getLogger(__name__)
FORMATS = (*DOCUMENT_FORMATS, "json", "csv")
CHECK_STEM = "check"
JSON_SCHEMA = "courtroom-check/1"
SOURCE_FILE = re.compile(r"^C\d+-E\d+(-p\d+\.(pdf|png)|\.html)$")
CSV_COLUMNS = ("index", "claim", "location", "court_label", "court_confidence", "verdict_by", "trial_id", "citations",
               "signoff_decision", "reviewer_label", "reviewer", "signed_at", "note", "final_label", "status",
               "problem", "warnings", "cited_reference", "cited_in_library", "cited_source_says", "library_says",
               "retracted", "worth")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

_CSS_LABEL = {"supported": "v-supported", "refuted": "v-refuted", "mixed": "v-mixed",
              "insufficient evidence": "v-insufficient"}


# ------------------------------------------------------------------------------------------------ what each row shows
@dataclass(frozen=True)
class Cited:
    """A passage a claim's verdict rests on, and its highlighted copy (None: none was made)."""

    id: str  # E1, as the quick check cited it
    evidence: Evidence
    copy: SourceCopy | None

    @property
    def title(self) -> str:
        evidence = self.evidence
        return evidence.doc_title or Path(evidence.doc_path).name or evidence.chunk.doc_id

    @property
    def href(self) -> str:
        return self.copy.href if self.copy is not None else ""


def lang_of(record: CheckRecord) -> str:
    """The language of the fixed wording: the draft's, where there is a table for it, else English."""
    return record.spec.language if lexicon.has(record.spec.language) else "en"


def _say(lang: str, key: str, **fields: object) -> str:
    return lexicon.section(lang, "check.")[key].format(**fields)


def _term(lang: str, value: str) -> str:
    """A stored value (label, status) as shown: in another language with its name there first, '反驳 (refuted)'."""
    name = lexicon.section(lang, "term.").get(value) if lang != "en" else None
    return f"{name} ({value})" if name and name != value else value


def cited(row: ClaimRow) -> list[tuple[str, Evidence]]:
    """(id, passage) of each citation of the quick check, in the order cited; an id that names no passage is left
    out (the records keep only valid ones)."""
    if row.quick is None:
        return []
    out: list[tuple[str, Evidence]] = []
    for cid in row.quick.citations:
        number = cid[1:]
        if cid[:1] == "E" and number.isdigit() and 1 <= int(number) <= len(row.quick.passages):
            out.append((cid, row.quick.passages[int(number) - 1]))
    return out


def source_id(row: ClaimRow, evidence_id: str) -> str:
    """'C3-E1': claim 3's passage E1, the stem of its highlighted copy."""
    return f"C{row.index + 1}-{evidence_id}"


def verdict_text(row: ClaimRow, lang: str) -> str:
    """'refuted, confidence 0.82 (quick check)'; 'not checked'."""
    if row.label is None:
        text = _say(lang, "unchecked")
    else:
        text = _term(lang, row.label.value)
        if row.confidence is not None:
            text += ", " + _say(lang, "confidence", value=f"{row.confidence:.2f}")
        text += f" ({_by(row, lang)})"
    if row.trial is not None and row.trial.label is None:
        text += "; " + _say(lang, "trial_pending", id=row.trial.trial_id, status=_term(lang, row.trial.status))
    return text


def _by(row: ClaimRow, lang: str) -> str:
    if row.by == "trial" and row.trial is not None:
        return _say(lang, "by.trial", id=row.trial.trial_id)
    return _say(lang, "by.quick")


def signoff_text(row: ClaimRow, lang: str) -> str:
    """'overridden by Ann: supported; at 2026-01-02 10:00 UTC; "note"'; 'not signed off'."""
    signoff = row.signoff
    if signoff is None:
        return _say(lang, "no_signoff")
    if signoff.decision == "overridden":
        label = _term(lang, signoff.label.value) if signoff.label is not None else "?"
        text = _say(lang, "overridden", reviewer=signoff.reviewer, label=label)
    else:
        text = _say(lang, "accepted", reviewer=signoff.reviewer)
    text += "; " + _say(lang, "at", at=signoff.when())
    if signoff.note.strip():
        text += f"; \u201c{one_line(signoff.note)}\u201d"
    return text


def passage_text(item: Cited, lang: str) -> str:
    """'E1: Annual report, p. 4' (a text document: 'E1: notes.md')."""
    chunk = item.evidence.chunk
    where = _say(lang, "page", doc=one_line(item.title), pages=chunk.pages) if chunk.on_pages else one_line(item.title)
    return f"{item.id}: {where}"


def location_text(row: ClaimRow) -> str:
    return "; ".join(loc.describe() for loc in row.claim.locations)


def _date(seconds: float) -> str:
    if not seconds:
        return ""
    return dt.datetime.fromtimestamp(seconds, tz=dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


# ------------------------------------------------------------------------------------------------ sources
def highlight_check_sources(record: CheckRecord, out_dir: Path, locate: Locate | None = None
                            ) -> dict[tuple[int, str], SourceCopy]:
    """Write the highlighted page (or the excerpt) of every cited passage of every claim under
    ``out_dir/sources``: (row index, 'E1') -> its copy. A source that is gone or changed never stops the export:
    the copy's ``note`` says why."""
    folder = Path(out_dir) / SOURCES_DIR
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.iterdir():  # an earlier export into the same folder
        if stale.is_file() and SOURCE_FILE.match(stale.name):
            stale.unlink()
    lang = lang_of(record)
    hashes: dict[Path, str] = {}
    copies: dict[tuple[int, str], SourceCopy] = {}
    for row in record.rows:
        for evidence_id, evidence in cited(row):
            entry = PoolEntry(id=source_id(row, evidence_id), evidence=evidence, round=0, found_by="judge",
                              query=evidence.query)
            chunk = evidence.chunk
            try:
                if chunk.on_pages:
                    copy = _copy(entry, [], folder, locate, hashes)
                else:
                    path, why = find_source(chunk.doc_id, evidence.doc_path, locate, hashes)
                    copy = write_excerpt(entry, folder, path, why and f"{why}; the excerpt shows the passage the "
                                         "check kept", lang)
            except Exception as exc:  # a broken source file must not stop the export
                log.warning("highlighting %s failed", entry.id, exc_info=True)
                copy = SourceCopy(evidence_id=entry.id, original_page=chunk.page_start + 1,
                                  note=f"the highlighted page could not be made ({type(exc).__name__}: {exc})")
            copies[(row.index, evidence_id)] = copy
    return copies


def _rows(record: CheckRecord, copies: dict[tuple[int, str], SourceCopy]) -> list[tuple[ClaimRow, list[Cited]]]:
    return [(row, [Cited(id=cid, evidence=ev, copy=copies.get((row.index, cid))) for cid, ev in cited(row)])
            for row in record.rows]


# ------------------------------------------------------------------------------------------------ export
def export_check(record: CheckRecord, formats: Iterable[str], out_dir: Path, locate: Locate | None = None,
                 notes: list[str] | None = None) -> list[Path]:
    """Write the check's report in each of ``formats`` (md, html, pdf, json, csv) into ``out_dir``; returns the
    written paths: the reports in the order asked, then the highlighted source files. ``notes``, if given, receives
    what could not be highlighted ('C3-E1: the source PDF is no longer at ...')."""
    wanted = wanted_formats(formats, FORMATS)
    out_dir = report_folder(out_dir)
    copies = highlight_check_sources(record, out_dir, locate)
    if notes is not None:
        notes.extend(f"{c.evidence_id}: {c.note}" for c in copies.values() if c.note)
    rows = _rows(record, copies)
    made = dt.datetime.now().astimezone().isoformat(timespec="seconds")
    written = write_report(out_dir, CHECK_STEM, wanted, lambda: check_document(record, rows, made), {
        "json": lambda path: path.write_text(json.dumps(check_json(record, rows, made), ensure_ascii=False, indent=2)
                                             + "\n", encoding="utf-8"),
        "csv": lambda path: path.write_text(render_csv(record, rows), encoding="utf-8-sig", newline="")})
    for copy in copies.values():
        for relative in (copy.pdf, copy.excerpt):
            if relative:
                written.append(out_dir / relative)
    return written


def _header(record: CheckRecord, made: str, lang: str) -> list[tuple[str, str]]:
    spec = record.spec
    counts = record.counts()
    count_text = ", ".join(f"{_term(lang, key)}: {n}" for key, n in sorted(counts.items())) or _say(lang, "none")
    return [(_say(lang, "draft"), spec.title or spec.draft), (_say(lang, "check_id"), record.id),
            (_say(lang, "checked"), _date(record.updated_at or record.created_at)), (_say(lang, "made"), made),
            (_say(lang, "status"), _term(lang, record.status.value)), (_say(lang, "claims"), str(len(record.rows))),
            (_say(lang, "counts"), count_text)] + ([(_say(lang, "problem"), record.problem)] if record.problem else [])


# ------------------------------------------------------------------------------------------------ the document
def check_document(record: CheckRecord, rows: list[tuple[ClaimRow, list[Cited]]], made: str) -> Document:
    """The check as a ``Document`` (written as Markdown, HTML and PDF by the writers every report shares): the
    header, then one row per claim with its verdict, the sign-off beside it, the passages it rests on (linked to
    their highlighted copies) and its warnings."""
    lang = lang_of(record)
    title = f"{_say(lang, 'title')}: {one_line(record.spec.title or Path(record.spec.draft).name)}"
    document = Document(title=title, lang=record.spec.language, landscape=True,
                        footer=f"Courtroom Desktop \u00b7 {_say(lang, 'title')} {record.id}",
                        pdf_meta={"creator": f"Courtroom Desktop {__version__}", "subject": f"check {record.id}"})
    colon, space = ("\uff1a", "") if lang == "zh" else (":", " ")
    header = tuple((Text(key + colon, bold=True), Text(space + value)) for key, value in _header(record, made, lang))
    heads = tuple(_say(lang, k) for k in ("col.n", "col.claim", "col.verdict", "col.signoff", "col.passages",
                                          "col.warnings"))
    table = [_claim_row(row, items, lang) for row, items in rows]
    document.add(Heading(1, (Text(title),)), Items(header), Heading(2, (Text(_say(lang, "table")),)),
                 Para((Text(_say(lang, "intro")),), "small"), Table(heads, tuple(table)))
    return document


def _claim_row(row: ClaimRow, items: list[Cited], lang: str) -> Row:
    passages: list[Span] = []
    for n, item in enumerate(items):
        passages += [Break()] if n else []
        label = passage_text(item, lang)
        passages.append(Link(label, item.href) if item.href else Text(label))
        if item.copy is not None and item.copy.note:
            passages.append(Text(f" ({item.copy.note})", css="note"))
    warnings: list[Span] = []
    for n, warning in enumerate([*(row.quick.warnings if row.quick else ()), *([row.problem] if row.problem else [])]):
        warnings += ([Break()] if n else []) + [Text(warning)]
    verdict: list[Span] = [Text(verdict_text(row, lang), bold=True, css="label")]
    if row.quick and row.quick.reason:
        verdict += [Break(), Text(one_line(row.quick.reason), css="small")]
    if row.claim.cites:
        verdict += [Break(), Text(cited_text(row, lang), bold=row.cited_source_fails, css="small")]
    signoff = row.signoff
    overridden = signoff is not None and signoff.decision == "overridden" and signoff.label is not None
    signoff_css = _CSS_LABEL.get(signoff.label.value, "") if overridden and signoff and signoff.label else ""
    label = row.label.value if row.label is not None else ""
    cells = ((Text(str(row.index + 1)),),
             (Text(row.claim.text), Break(), Text(location_text(row), css="small")),
             tuple(verdict),
             (Text(signoff_text(row, lang), bold=bool(signoff_css), css="label" if signoff_css else ""),),
             tuple(passages) or (Text(_say(lang, "none")),),
             tuple(warnings))
    return Row(cells, id=f"claim-{row.index + 1}", css=("", "", _CSS_LABEL.get(label, ""), signoff_css, "", ""))


def cited_text(row: ClaimRow, lang: str) -> str:
    """What the claim cites and what that source says of it: 'Cited: Lindqvist 2016 (in your library): does not
    support the claim'; a cited source the library lacks is named so."""
    names = "; ".join(one_line(c.reference)[:80] + (f" [{_term(lang, c.notice)}]" if c.notice else "")
                      for c in row.claim.cites)
    if not row.cited_in_library:
        return _say(lang, "cited_missing", names=names)
    says = row.quick.cited_says if row.quick else ""
    return _say(lang, f"cited_{says.replace(' ', '_')}" if says else "cited_unchecked", names=names)


def cited_columns(row: ClaimRow) -> dict[str, object]:
    """The CSV's and JSON's cited-source columns: the references, whether the library has them, what they say,
    what the library says, and whether a cited source is retracted."""
    return {"cited_reference": "; ".join(c.reference for c in row.claim.cites),
            "cited_in_library": row.cited_in_library if row.claim.cites else "",
            "cited_source_says": (row.quick.cited_says if row.quick else "") or "",
            "library_says": row.label.value if row.label else "",
            "retracted": any(c.notice == "retraction" for c in row.claim.cites)}


# ------------------------------------------------------------------------------------------------ JSON and CSV
def check_json(record: CheckRecord, rows: list[tuple[ClaimRow, list[Cited]]], made: str) -> dict[str, Any]:
    """The whole record (``check``) and, per claim, what the other formats show of it (``claims``)."""
    claims = []
    for row, items in rows:
        signoff = row.signoff
        claims.append({
            "index": row.index + 1, "claim": row.claim.text, "locations": [loc.model_dump(mode="json")
                                                                          for loc in row.claim.locations],
            "status": row.status.value, "problem": row.problem,
            "court": {"label": row.label.value if row.label else None, "confidence": row.confidence,
                      "by": row.by, "trial_id": row.trial.trial_id if row.trial else None},
            "signoff": signoff.model_dump(mode="json") if signoff else None,
            "final_label": row.final_label.value if row.final_label else None,
            "citations": [{"id": item.id, "doc_title": item.title, "doc_id": item.evidence.chunk.doc_id,
                           "pages": item.evidence.chunk.pages, "source": item.href,
                           "note": item.copy.note if item.copy else "",
                           "verifier": _reading(row, item.id)} for item in items],
            "missing_quantities": list(row.quick.missing) if row.quick else [], "worth": worth(row.claim.text),
            **cited_columns(row), "cited_source_does_not_support": row.cited_source_fails,
            "warnings": list(row.quick.warnings) if row.quick else [],
        })
    return {"schema": JSON_SCHEMA, "app_version": __version__, "generated_at": made, "counts": record.counts(),
            "claims": claims, "check": record.model_dump(mode="json")}


def _reading(row: ClaimRow, evidence_id: str) -> dict[str, float] | None:
    """The verifier's reading of a cited passage (None for a check made before the verifier)."""
    reading = row.quick.reading(evidence_id) if row.quick else None
    return reading.model_dump(mode="json") if reading is not None else None


def _cell(value: object) -> str:
    """A spreadsheet cell: text that would start a formula gets an apostrophe first."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def render_csv(record: CheckRecord, rows: list[tuple[ClaimRow, list[Cited]]]) -> str:
    """One row per claim (write it as UTF-8 with a BOM, so that spreadsheets read Chinese)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for row, items in rows:
        signoff = row.signoff
        citations = "; ".join(f"{item.title} p.{item.evidence.chunk.pages}" if item.evidence.chunk.on_pages
                              else item.title for item in items)
        values: list[object] = [
            row.index + 1, row.claim.text, location_text(row), row.label.value if row.label else "",
            f"{row.confidence:.2f}" if row.confidence is not None else "", row.by,
            row.trial.trial_id if row.trial else "", citations,
            signoff.decision if signoff else "", signoff.label.value if signoff and signoff.label else "",
            signoff.reviewer if signoff else "", signoff.when() if signoff else "", signoff.note if signoff else "",
            row.final_label.value if row.final_label else "", row.status.value, row.problem,
            "; ".join(row.quick.warnings) if row.quick else "", *cited_columns(row).values(),
            f"{worth(row.claim.text):.3f}",
        ]
        writer.writerow([_cell(v) for v in values])
    return buffer.getvalue()
