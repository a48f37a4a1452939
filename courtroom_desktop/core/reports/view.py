"""What the reports say, independent of the format: wording for the two audiences, citation splitting, labels,
and the escaping rules for text that came from documents or models (never trusted)."""

from __future__ import annotations

import re
from collections.abc import Callable

from courtroom_desktop.core.court.checks import CITATION
from courtroom_desktop.core.court.records import (
    CaseType,
    Finding,
    PoolEntry,
    RolesSwitched,
    Ruling,
    Stance,
    Turn,
    role_name,
)
from courtroom_desktop.core.reports.record import Audience, TrialRecord

CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")
LABEL_TEXT = {
    CaseType.claim: {
        "supported": "The evidence in the library supports the claim.",
        "refuted": "The evidence in the library contradicts the claim.",
        "mixed": "The evidence in the library points both ways: parts of the claim hold, parts do not.",
        "insufficient evidence": "The library does not hold enough evidence to decide the claim.",
    },
    CaseType.decision: {
        "supported": "On the evidence in the library, the decision looks right.",
        "refuted": "On the evidence in the library, the decision looks wrong.",
        "mixed": "The evidence in the library points both ways on this decision.",
        "insufficient evidence": "The library does not hold enough evidence to weigh this decision.",
    },
}
AUDIENCES = ("general", "expert")


def clean(text: str) -> str:
    """Drop control characters that no format can carry (and that XML-based layout rejects)."""
    return CONTROL.sub("", text or "")


def one_line(text: str) -> str:
    return " ".join(clean(text).split())


def excerpt(text: str, chars: int = 220) -> str:
    flat = one_line(text)
    if len(flat) <= chars:
        return flat
    cut = flat[:chars].rsplit(" ", 1)[0]
    return cut + " \u2026"


def paragraphs(text: str) -> list[str]:
    return [one_line(p) for p in re.split(r"\n\s*\n", clean(text)) if p.strip()]


def confidence_words(confidence: float) -> str:
    if confidence >= 0.8:
        return "high"
    if confidence >= 0.6:
        return "moderate"
    if confidence >= 0.4:
        return "low"
    return "very low"


def split_citations(text: str) -> list[str | list[str]]:
    """'A [E1] and [E2, E3].' -> ['A ', ['E1'], ' and ', ['E2', 'E3'], '.']"""
    parts: list[str | list[str]] = []
    position = 0
    for match in CITATION.finditer(text):
        if match.start() > position:
            parts.append(text[position:match.start()])
        parts.append(re.findall(r"E\d+", match.group(1)))
        position = match.end()
    if position < len(text):
        parts.append(text[position:])
    return parts


def case_word(record: TrialRecord) -> str:
    return "Decision" if record.spec.case == CaseType.decision else "Claim"


def verdict_sentence(record: TrialRecord) -> str:
    verdict = record.verdict
    if verdict is None:
        return f"No verdict yet: the trial is {record.status or 'unfinished'}."
    sentence = LABEL_TEXT[record.spec.case][verdict.label.value]
    return (f"{sentence} The court's confidence is {confidence_words(verdict.confidence)} "
            f"({verdict.confidence:.2f} on a scale from 0 to 1).")


def summary_paragraphs(record: TrialRecord, audience: Audience) -> list[str]:
    """General reader: the verdict in a sentence, what it rests on, and the Judge's plain-language summary as written.
    Expert: also how the trial ran and the last ruling's assessment of the evidence."""
    out = [verdict_sentence(record)]
    verdict = record.verdict
    if verdict is not None:
        out.extend(text for text in (verdict.rests_on(), verdict.correction()) if text)
    if verdict and verdict.summary.strip():
        out.extend(paragraphs(verdict.summary))
    if audience == "expert":
        if verdict:
            out.append(f"Verdict label '{verdict.label.value}' at confidence {verdict.confidence:.2f} after "
                       f"{verdict.rounds} round(s) and {verdict.switches} role switch(es); stopped because "
                       f"{one_line(verdict.stopped_because) or 'n/a'}.")
        if record.rulings:
            last = record.rulings[-1].ruling
            if last.evidence_assessment.strip():
                out.append(f"Evidence assessment (round {record.rulings[-1].round}): {one_line(last.evidence_assessment)}")
            if last.key_controversy.strip():
                out.append(f"Key controversy: {one_line(last.key_controversy)}")
    return out


def stance_text(record: TrialRecord, stance: Stance | str | None) -> str:
    if not stance:
        return ""
    if stance == "both":
        return "both sides"
    value = Stance(stance)
    return f"{value.value} ({role_name(record.spec.case, value)})"


def pages_label(entry: PoolEntry) -> str:
    return entry.evidence.chunk.pages


def doc_label(entry: PoolEntry) -> str:
    evidence = entry.evidence
    if evidence.doc_title.strip():
        return one_line(evidence.doc_title)
    return evidence.doc_path.rsplit("/", 1)[-1] or evidence.chunk.doc_id


def found_by_text(record: TrialRecord, entry: PoolEntry) -> str:
    who = "the judge" if entry.found_by == "judge" else f"counsel {entry.found_by.value}"
    if entry.stance is not None:
        who += f" ({role_name(record.spec.case, entry.stance)})"
    return f"{who}, round {entry.round}"


def passage_label(entry: PoolEntry, escape: Callable[[str], str] = str) -> str:
    """'Document, page 4, Section': where a passage sits. ``escape`` is the format's escaping of untrusted text,
    applied to each piece (the document title and section come from the documents)."""
    section = one_line(entry.evidence.chunk.section_path)
    return (f"{escape(doc_label(entry))}, page {escape(pages_label(entry))}"
            + (f", {escape(section)}" if section else ""))


def finding_sources(record: TrialRecord, finding: Finding, escape: Callable[[str], str] = str) -> list[str]:
    """'E3: Document, page 4, Section' for each passage a finding cites that is in the evidence pool."""
    sources = []
    for evidence_id in finding.citations:
        entry = record.entry(evidence_id)
        if entry:
            sources.append(f"{evidence_id}: {passage_label(entry, escape)}")
    return sources


def assessed_text(record: TrialRecord, entry: PoolEntry) -> str:
    """What a passage says about the claim, as assessed: 'supports (relevance 0.80)', or 'not assessed'."""
    assessment = record.assessment(entry.id)
    if assessment is None:
        return "not assessed"
    return f"{assessment.stance.value} (relevance {assessment.relevance:.2f})"


def cited_by_text(record: TrialRecord, entry: PoolEntry) -> str:
    """Who cited a passage; 'both sides: ...' when the Prosecution and the Defense both did."""
    who = ", ".join(record.cited_by(entry.id))
    return f"both sides: {who}" if record.citing_stance(entry.id) == "both" else who


def evidence_head(audience: Audience) -> list[str]:
    head = ["ID", "Document", "Page", "Section", "Excerpt", "Stance (assessed)", "Found by", "Cited by", "Evidence level"]
    return [*head, "Weight"] if audience == "expert" else head


def evidence_cells(record: TrialRecord, entry: PoolEntry) -> list[str]:
    """The text cells of a row of the evidence table, 'Document' to 'Evidence level' (the format escapes them)."""
    chunk = entry.evidence.chunk
    return [doc_label(entry), pages_label(entry), one_line(chunk.section_path), excerpt(chunk.text, 160),
            assessed_text(record, entry), found_by_text(record, entry), cited_by_text(record, entry) or "not cited",
            entry.level]


def challenge_lines(record: TrialRecord, open_only: bool = True) -> list[str]:
    """'Q2 (raised by the Judge in round 1, to both sides; unanswered): text', per challenge (only those never
    answered, by default)."""
    tracked = record.verdict.open_challenges if open_only and record.verdict else [
        t for t in record.challenges if not open_only or t.status.value != "answered"]
    return [f"{t.challenge.id} (raised by {'the ' if t.challenge.raised_by == 'Judge' else ''}{t.challenge.raised_by} "
            f"in round {t.challenge.round}, to {t.challenge.addressed_to}; {t.status.value}): "
            f"{one_line(t.challenge.text)}" for t in tracked]


def weight_text(record: TrialRecord, entry: PoolEntry) -> str:
    """The expert's 'Weight' cell: the verdict's weight of the passage, '' without one."""
    weight = record.weight(entry.id)
    return "" if weight is None else f"{weight:.2f}"


DISCOVERY_HEAD = ("ID", "Found by", "Query", "Fused score", "BM25 rank", "Vector rank", "Novelty")


def discovery_text(record: TrialRecord, entry: PoolEntry) -> list[str]:
    """The expert's 'How the evidence was found' row, its text cells (the format escapes them): found by, query."""
    return [found_by_text(record, entry), one_line(entry.query)]


def discovery_figures(entry: PoolEntry) -> list[str]:
    """The same row's figures: fused score, BM25 rank, vector rank ('' where a retriever missed it), novelty."""
    ev = entry.evidence
    return [f"{ev.score:.4f}", "" if ev.bm25_rank is None else str(ev.bm25_rank),
            "" if ev.vector_rank is None else str(ev.vector_rank), f"{entry.novelty:.2f}"]


def turn_seat(turn: Turn) -> str:
    return f"counsel {turn.seat.value}, {turn.stance.value}"


def turn_notes(turn: Turn) -> list[str]:
    """What a counsel turn did besides arguing, one line each: its searches, the evidence they added, a
    regeneration, the court's flags and the citations it rejected."""
    notes = []
    if turn.queries:
        notes.append("searched: " + "; ".join(one_line(q) for q in turn.queries))
    if turn.evidence_added:
        notes.append("new evidence: " + ", ".join(turn.evidence_added))
    if turn.regenerated:
        notes.append("regenerated once after a rejected answer")
    notes.extend(f"challenged {c.addressed_to} ({c.id}): {one_line(c.text)}" for c in turn.challenges)
    if turn.answers:
        notes.append("answers " + ", ".join(turn.answers))
    notes.extend(f"flag: {one_line(f)}" for f in turn.flags)
    notes.extend(f"invalid citation {c.evidence_id}: {one_line(c.problem)}" for c in turn.citations if not c.valid)
    return notes


def ruling_notes(record: TrialRecord, ruling: Ruling) -> list[tuple[str, str, bool]]:
    """The confidence table's note on a round, as (label, detail, stands out): a 'ready for verdict' that was
    overruled, and a switch of sides after the round (the one that stands out)."""
    notes = []
    if ruling.marks:
        notes.append(("challenges", "; ".join(f"{m.id} {m.status.value}" for m in ruling.marks), False))
    if ruling.overruled:
        notes.append(("'ready' overruled", "; ".join(ruling.overruled), False))
    switch = record.switched_after(ruling.round)
    if switch:
        notes.append(("sides switched after this round", "; ".join(switch.reasons), True))
    return notes


def switch_roles(record: TrialRecord, switch: RolesSwitched) -> str:
    """'counsel A is now Defense, counsel B is now Prosecution': who argues what after a switch."""
    return ", ".join(f"counsel {seat} is now {role_name(record.spec.case, stance)}"
                     for seat, stance in sorted(switch.assignments.items()))


def cited_anchor(record: TrialRecord, evidence_id: str) -> str:
    """The in-report anchor of a passage: its card in 'Cited passages' if cited, else its evidence-table row."""
    return evidence_id if evidence_id in set(record.cited_ids()) else f"row-{evidence_id}"


def citation_target(record: TrialRecord, evidence_id: str) -> str:
    """Where a citation points: the highlighted page of the source when it was written, else the passage in the report."""
    source = record.source(evidence_id)
    if source is not None and source.pdf:
        return source.href
    return f"#{cited_anchor(record, evidence_id)}" if record.entry(evidence_id) else ""


def quality_flags(record: TrialRecord) -> list[str]:
    flags = list(record.verdict.quality_flags) if record.verdict else []
    if not record.verdict:
        seen: dict[str, int] = {}
        for turn in record.turns:
            for flag in turn.flags:
                seen[flag] = seen.get(flag, 0) + 1
        flags.extend(f"{flag} ({n} turn{'s' if n > 1 else ''})" for flag, n in seen.items())
    regenerated = sum(1 for t in record.turns if t.regenerated)
    if regenerated:
        flags.append(f"{regenerated} argument(s) were rejected once and regenerated")
    overruled = [r for r in record.rulings if r.overruled]
    for ruling in overruled:
        flags.append(f"round {ruling.round}: the Judge's 'ready for verdict' was overruled ({'; '.join(ruling.overruled)})")
    for source in record.sources:
        if source.note:
            flags.append(f"{source.evidence_id}: {source.note}")
    return [one_line(f) for f in flags]


def trial_notes(record: TrialRecord) -> list[str]:
    notes = [f"round {w.round}: {one_line(w.message)}" if w.round else one_line(w.message) for w in record.warnings]
    notes.extend(f"error: {one_line(e.message)}" + (f" (fix: {one_line(e.fix)})" if e.fix else "") for e in record.errors)
    notes.extend(f"resumed at round {r.from_round}" + (f", redoing {one_line(r.discarded)}" if r.discarded else "")
                 for r in record.resumptions)
    return notes


def settings_rows(record: TrialRecord) -> list[tuple[str, str]]:
    rows = []
    for key, value in record.spec.settings.items():
        text = ", ".join(str(v) for v in value) if isinstance(value, list | tuple) else str(value)
        rows.append((str(key), one_line(text)))
    return rows


def scope_text(record: TrialRecord) -> str:
    parts = []
    parts.append(f"{len(record.spec.documents)} chosen document(s)" if record.spec.documents else "the whole library")
    if record.spec.sections:
        parts.append("sections starting with " + ", ".join(one_line(s) for s in record.spec.sections))
    return "; ".join(parts)


def usage_text(record: TrialRecord) -> str:
    u = record.usage
    return f"{u.tokens_in} tokens in, {u.tokens_out} tokens out, {u.seconds:.1f} s of model time"


def rounds(record: TrialRecord) -> list[int]:
    numbers = {t.round for t in record.turns} | {r.round for r in record.rulings}
    return sorted(numbers)
