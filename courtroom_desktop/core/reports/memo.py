"""The decision memo: what a report of a decision with options adds, independent of the format. The title, the
recommendation in the verdict box, the table of options by criteria (each score with its citations; the weighted
total and its range; which option is recommended, which is out and why), what would change the recommendation, and
the one thing worth finding out next. Wording in the question's language, like the rest of the report."""

from __future__ import annotations

from dataclasses import dataclass

from courtroom_desktop.core import lexicon
from courtroom_desktop.core.court.decisions import DecisionOutcome, OptionRow
from courtroom_desktop.core.reports.record import TrialRecord
from courtroom_desktop.core.reports.words import wording


def outcome(record: TrialRecord) -> DecisionOutcome | None:
    """The decision's outcome when the report is of a decision with options and has a verdict."""
    return record.verdict.decision if record.verdict is not None else None


def memo_say(record: TrialRecord, key: str, **fields: object) -> str:
    return lexicon.section(wording(record), "memo.")[key].format(**fields)


def standing(result: DecisionOutcome, row: OptionRow, language: str = "en") -> str:
    """``row``'s standing in the options table (``DecisionOutcome.standing``) in words: 'out: breaks ...', 'recommended',
    'leads', 'runner-up' or ''. The report, the window and the command line all word it here."""
    key = result.standing(row)
    return lexicon.section(language, "memo.")[key].format(what=row.excluded) if key else ""


def verdict_name(record: TrialRecord, result: DecisionOutcome) -> str:
    return memo_say(record, f"verdict/{result.label}", option=result.recommended or "")


def verdict_sentence(record: TrialRecord, result: DecisionOutcome) -> str:
    assert record.verdict is not None  # result is the verdict's outcome (``outcome``)
    return memo_say(record, f"sentence/{result.label}", option=result.recommended or "", runner=result.runner_up or "",
                    margin=result.margin, value=f"{record.verdict.confidence:.2f}")


@dataclass
class Cell:
    text: str                    # '8' or '?'
    citations: tuple[str, ...]
    reason: str


@dataclass
class Row:
    option: str
    cells: list[Cell]
    total: str                   # '7.2' or '7.2 (6.5-7.8)'
    status: str


def head(record: TrialRecord, result: DecisionOutcome) -> list[str]:
    return ([memo_say(record, "option")] + [f"{c.name} ({c.weight:g})" for c in result.criteria]
            + [memo_say(record, "total"), memo_say(record, "status")])


def rows(record: TrialRecord, result: DecisionOutcome) -> list[Row]:
    out = []
    for row in result.rows:
        cells = [Cell(f"{s.score:g}" if s.score is not None else memo_say(record, "unknown"), s.citations, s.reason)
                 for s in row.scores]
        total = f"{row.total:.1f}" + (f" ({row.low:.1f}-{row.high:.1f})" if row.low != row.high else "")
        out.append(Row(row.option, cells, total, standing(result, row, wording(record))))
    return out


def next_lines(record: TrialRecord, result: DecisionOutcome) -> list[str]:
    return [line for line in (result.next_question, result.next_reason) if line]
