"""The report as JSON: the complete ``TrialRecord`` (schema: docs/report-schema.md, from ``report_json_schema``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from courtroom_desktop.core.reports.record import TrialRecord


def write_json(record: TrialRecord, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return path


def read_json(path: Path) -> TrialRecord:
    return TrialRecord.model_validate_json(Path(path).read_text(encoding="utf-8"))


def report_json_schema() -> dict[str, Any]:
    return TrialRecord.model_json_schema(mode="serialization")


def schema_markdown() -> str:
    """docs/report-schema.md: the prose below plus the JSON Schema generated from the pydantic models."""
    schema = json.dumps(report_json_schema(), indent=2, sort_keys=True)
    return SCHEMA_DOC.format(schema=schema)


SCHEMA_DOC = """# `report.json`: the complete trial record

`courtroom export TRIAL_ID --format json` (and `courtroom trial ... --report DIR`) writes `report.json`: one
`TrialRecord` object holding everything the other formats show, so that a report can be checked, re-rendered or
processed without the app. It is generated from the trial store's events; nothing in it is computed by a model
after the trial.

This file is generated: `python scripts/report_schema.py > docs/report-schema.md`
(a test fails when it is out of date).

## Top level

- `report_schema_version`: version of this layout (now 2). Within a version, fields are only added. Version 2
  stores the court's reasons as objects (below) where version 1 had English sentences.
- `app_version`: the Courtroom Desktop version that wrote the report.
- `trial_id`: the trial's id in the trial store (`courtroom trials list`).
- `generated_at`, `started_at`, `finished_at`: ISO 8601 local times with offset: report made, trial started,
  verdict reached (empty without a verdict).
- `status`: the trial's status in the store: `finished`, `paused`, `running`, `stopped`.
- `spec`: what was tried: `claim`, `case` (`claim` or `decision`), the scope (`documents`, `sections`), the debate
  `settings` and the `models` per role.
- `pool`: the evidence pool in order of entry (`E1`, `E2`, ...). Each entry keeps a snapshot of the passage
  (`evidence.chunk.text`), its document (`evidence.doc_title`, `evidence.doc_path`), page span
  (`chunk.page_start`, `chunk.page_end`, 0-based), section path, stored highlight rectangles (`chunk.highlights`,
  page-relative 0..1), retrieval scores, who found it in which round with which query, its evidence-hierarchy
  `level`, `novelty`, `injection` (the passage reads like instructions to a model), and `verifier` (added within
  version 2: the claim verifier's calibrated `supports`, `refutes` and `neither` probabilities for the passage;
  `null` for a passage admitted before the court had a verifier).
- `turns`: the transcript: each counsel turn with `round`, `seat` (A or B), `stance` (`for` or `against`), `role`,
  `text`, `citations` (`evidence_id`, `quote`, `valid`, `problem`: a reason, `null` when valid), search `queries`,
  `evidence_added`, token `usage`, `regenerated`, `flags` (reasons).
- `rulings`: the Judge's ruling after each round: `summary`, `evidence_assessment`, `key_controversy`,
  `open_questions`, `tendency` (`support`, `refute`, `unclear`), `confidence` (0..1), `switch_request`,
  `ready_for_verdict`, `ready_reason`, `to_prosecution` and `to_defense` (the judge's instruction to each side for the
  next round, added within version 2; empty when it wrote none); `overruled` says why a "ready", or a confidence at the
  stopping threshold, could not end the trial (reasons); for a decision, `hearing.flags` says which scores were set aside (reasons).
- `switches`: role switches: `round` is the round after which counsel swapped sides; `reasons`
  (reasons); the new `assignments` (seat -> stance).
- `resumptions`: where a stopped trial was resumed.
- `verdict`: `label` (`supported`, `refuted`, `mixed`, `insufficient evidence`), `confidence`, `findings` (text and
  cited evidence ids), `open_questions`, the plain-language `summary`, `conditions` and `risks` (decision cases),
  the `evidence` weighed by the evidence hierarchy (`id`, `level`, `weight`, `cited_by`, `stance`),
  `quality_flags` (reasons), `stopped_because` (a reason), `rounds`, `switches`, and `quality` (added within
  version 2; empty in older reports): the quality guard's scores, one per side and one for the whole debate
  (`side` `trial`), each with `turns`, `score` (0..1) and the shares of turns at fault: `no_evidence`,
  `weak_challenge`, `monologue`, `rejected` (rejected twice, cut and flagged), `no_question`; beside the judge's
  `confidence`, `evidence_label` and `evidence_confidence` (added within version 2): the label the cited passages
  alone point to and the confidence they give it, from their assessed stances, evidence levels and relevance (`null`
  when no assessed passage was cited, and for decisions with options; a `flag_confidence_disagreement` quality flag
  when the two disagree by more than the `confidence_disagreement` setting). `null` while the trial has no verdict.
- `warnings`, `errors`: what the engine reported along the way: a warning's `reason` (rejected arguments, unusable
  queries), an error's `message` and `fix` (model failures, as text).
- `usage`: tokens in and out and model seconds over the whole trial.
- `sources`: one entry per cited passage: `pdf`, the annotated copy of its page(s) relative to the report folder
  (`sources/E3-p4.pdf`; empty if none could be made), `page` (1-based page in that copy; the link is
  `pdf#page=N`), `original_page` (1-based page in the source document), `images` (PNG renders of the highlighted
  region), `highlights` (highlight annotations on the passage), `quotes` (quotations also highlighted), `note` (why
  there is no copy, e.g. the source PDF was moved, or what could not be highlighted). A passage of a text document
  (Markdown, text, Word, a note: `chunk.highlights` empty, no pages) has `excerpt` instead (`sources/E3.html`, the
  passage in its text inside `<mark id="passage">`; the link is `excerpt#passage`) and `original_page` 0.

## Reasons

What the court says of a trial (why it stopped, why the sides switched, why a "ready" was overruled, the quality
flags, warnings, a citation's problem, a hearing's set-aside scores) is stored as a reason, never as a sentence:
`{{"code": "stop_round_limit", "params": {{"rounds": 4}}}}`. `code` is one of the court's reason codes
(`courtroom_desktop.core.court.reasons.Code`); `params` holds numbers as computed (unrounded), text the court did not
write (a model's, an exception's message, an option's name) as it came, and reasons inside reasons
(`{{"code": "flag_rejected_twice", "params": {{"problem": {{"code": "problem_no_citation", "params": {{}}}}}}}}`) or lists of
them. How each code reads in English and Chinese is one table, `courtroom_desktop.core.reports.wording`
(`say_reason(reason, lang)`), which the Markdown, HTML and PDF reports, the window and the command line all use. Code
`text` (`{{"text": ...}}`) is text shown as it is: reports of version 1 and trials stored by earlier versions hold plain
strings in these fields, which read as such a reason.

Ids: evidence ids (`E7`) are stable within a trial and are what every citation in `turns[].citations`,
`verdict.findings[].citations` and `verdict.evidence` refers to. Seats `A` and `B` keep their model for the whole
trial; their stance changes at a switch, and with it their role name.

## JSON Schema

```json
{schema}
```
"""
