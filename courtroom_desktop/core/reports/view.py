"""What the reports say, independent of the format: wording for the two audiences, citation splitting, labels,
and the escaping rules for text that came from documents or models (never trusted). The fixed wording is in the
claim's language: every phrase comes from the one table in ``words`` through ``say(record, key, **fields)``."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from courtroom_desktop.core.court.records import (
    Finding,
    PoolEntry,
    Reason,
    RolesSwitched,
    Ruling,
    Stance,
    Turn,
    Verdict,
    role_name,
)
from courtroom_desktop.core.reports import wording as wording_of_reasons
from courtroom_desktop.core.reports.record import Audience, TrialRecord
from courtroom_desktop.core.reports.words import WORDS as WORDS  # the table of wordings, per language
from courtroom_desktop.core.reports.words import language as language
from courtroom_desktop.core.reports.words import say as say  # the writers word through view
from courtroom_desktop.core.reports.words import term as term
from courtroom_desktop.core.reports.words import wording
from courtroom_desktop.core.text import CITATION, has_cjk

CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")
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
    head, _, tail = flat[:chars].rpartition(" ")
    # cut at a space between words; Chinese and Japanese run without spaces, so a CJK tail is cut where it stands
    cut = head if head and not has_cjk(tail) else flat[:chars]
    return cut + " \u2026"


def paragraphs(text: str) -> list[str]:
    return [one_line(p) for p in re.split(r"\n\s*\n", clean(text)) if p.strip()]


def confidence_words(record: TrialRecord, confidence: float) -> str:
    if confidence >= 0.8:
        return say(record, "conf.high")
    if confidence >= 0.6:
        return say(record, "conf.moderate")
    if confidence >= 0.4:
        return say(record, "conf.low")
    return say(record, "conf.very low")


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
    return say(record, f"case.{record.spec.case.value}")


def status_text(record: TrialRecord) -> str:
    return term(record, record.status) if record.status else say(record, "unfinished")


def verdict_name(record: TrialRecord) -> str:
    """The verdict's label as the verdict box shows it: 'SUPPORTED', in Chinese '支持 (SUPPORTED)'; for a decision
    with options, the table's outcome: 'RECOMMENDED: Move to Lisbon' (core.reports.memo)."""
    from courtroom_desktop.core.reports import memo

    result = memo.outcome(record)
    if result is not None:
        return memo.verdict_name(record, result)
    return term(record, record.verdict.label.value, upper=True) if record.verdict else say(record, "no_verdict")


def report_title(record: TrialRecord) -> str:
    """'Verdict report'; 'Decision memo' for a decision with options."""
    from courtroom_desktop.core.reports import memo

    return memo.memo_say(record, "title") if memo.outcome(record) is not None else say(record, "title")


def conditions_title(record: TrialRecord) -> str:
    """'Conditions'; for a decision with options, 'What would change the recommendation' (what its conditions are)."""
    from courtroom_desktop.core.reports import memo

    return memo.memo_say(record, "changes") if memo.outcome(record) is not None else say(record, "conditions")


def demo_note(record: TrialRecord) -> str:
    """Next to the verdict when a role ran the bundled demo model (core.llm.demo; the trial records its models per
    role): 'demo model: try the app, do not rely on this verdict (...)'; "" otherwise."""
    from courtroom_desktop.core.llm.demo import demo_roles

    roles = demo_roles(record.spec.models)
    if not roles:
        return ""
    return say(record, "demo_note", roles=say(record, "list").join(term(record, r) for r in roles))


def verdict_sentence(record: TrialRecord) -> str:
    verdict = record.verdict
    if verdict is None:
        return say(record, "no_verdict_yet", status=status_text(record))
    from courtroom_desktop.core.reports import memo

    result = memo.outcome(record)
    if result is not None:
        return memo.verdict_sentence(record, result)
    sentence = say(record, f"{record.spec.case.value}/{verdict.label.value}")
    return say(record, "verdict_sentence", sentence=sentence, words=confidence_words(record, verdict.confidence),
               value=f"{verdict.confidence:.2f}")


def reason_text(record: TrialRecord, reason: Reason | None) -> str:
    """A reason the court stored, in the report's language (core.reports.wording); '' for none."""
    return "" if reason is None else wording_of_reasons.say_reason(reason, wording(record))


def rests_on(record: TrialRecord, verdict: Verdict) -> str:
    """What the confidence rests on, in the report's language (core.reports.wording)."""
    return wording_of_reasons.rests_on(verdict, wording(record))


def evidence_confidence(record: TrialRecord, verdict: Verdict) -> str:
    """The weighed evidence's own label and confidence beside the judge's ('' when the verdict has none)."""
    return wording_of_reasons.evidence_confidence(verdict, wording(record))


def instructions(record: TrialRecord, ruling: Ruling) -> list[tuple[str, str]]:
    """The judge's instruction to each side for the next round: ('The judge to the Prosecution: ', its text), the
    Prosecution's first; none for a side it wrote nothing to."""
    return [(say(record, "instruction_to", role=role_text(record, stance)), ruling.ruling.instruction_to(stance))
            for stance in (Stance.against, Stance.for_) if ruling.ruling.instruction_to(stance)]


def correction(record: TrialRecord, verdict: Verdict) -> str:
    """What the verdict rule changed of the judge's draft ('' when the draft stood)."""
    return wording_of_reasons.correction(verdict, wording(record))


def summary_paragraphs(record: TrialRecord, audience: Audience) -> list[str]:
    """General reader: the verdict in a sentence, what it rests on, and the Judge's plain-language summary as written.
    Expert: also how the trial ran and the last ruling's assessment of the evidence."""
    out = [verdict_sentence(record)]
    verdict = record.verdict
    if verdict is not None:
        out.extend(text for text in (rests_on(record, verdict), evidence_confidence(record, verdict),
                                     correction(record, verdict)) if text)
    if verdict and verdict.summary.strip():
        out.extend(paragraphs(verdict.summary))
    if audience == "expert":
        if verdict:
            out.append(say(record, "expert_verdict", label=term(record, verdict.label.value),
                           value=f"{verdict.confidence:.2f}", rounds=verdict.rounds, switches=verdict.switches,
                           why=one_line(reason_text(record, verdict.stopped_because)) or say(record, "n/a")))
        if record.rulings:
            last = record.rulings[-1].ruling
            if last.evidence_assessment.strip():
                out.append(say(record, "assessment_round", round=record.rulings[-1].round)
                           + one_line(last.evidence_assessment))
            if last.key_controversy.strip():
                out.append(say(record, "controversy:") + one_line(last.key_controversy))
    return out


def pages_label(entry: PoolEntry) -> str:
    return entry.evidence.chunk.pages


def doc_label(entry: PoolEntry) -> str:
    """The document's title (else its file name), with its author and year when known: 'Title (Smith et al. 2020)'."""
    evidence = entry.evidence
    name = one_line(evidence.doc_title) if evidence.doc_title.strip() else (
        evidence.doc_path.rsplit("/", 1)[-1] or evidence.chunk.doc_id)
    return f"{name} ({one_line(evidence.doc_cite)})" if evidence.doc_cite.strip() else name


def reference_link(entry: PoolEntry) -> str:
    """The link to the document's reference (a Zotero item: zotero://select/...), '' when it has none; only that
    scheme is let through, so a document cannot put a script link in a report."""
    link = entry.evidence.doc_link.strip()
    return link if link.startswith("zotero://select/") else ""


def role_text(record: TrialRecord, stance: Stance) -> str:
    return term(record, role_name(record.spec.case, stance))


def found_by_text(record: TrialRecord, entry: PoolEntry) -> str:
    who = say(record, "the_judge") if entry.found_by == "judge" else say(record, "counsel", seat=entry.found_by.value)
    if entry.stance is not None:
        who += say(record, "paren", text=role_text(record, entry.stance))
    return say(record, "found_round", who=who, round=entry.round)


def passage_label(record: TrialRecord, entry: PoolEntry, escape: Callable[[str], str] = str) -> str:
    """'Document, page 4, Section': where a passage sits. ``escape`` is the format's escaping of untrusted text,
    applied to each piece (the document title and section come from the documents)."""
    section = one_line(entry.evidence.chunk.section_path)
    return doc_where(record, entry, escape) + (say(record, "comma") + escape(section) if section else "")


def noticed_label(record: TrialRecord, entry: PoolEntry) -> str:
    """``doc_label`` with the notice on the document, when it has one: 'Title (Smith 2020) [retracted]'."""
    notice = entry.evidence.doc_notice
    return doc_label(entry) + (f" [{term(record, notice.kind)}]" if notice is not None else "")


def doc_where(record: TrialRecord, entry: PoolEntry, escape: Callable[[str], str] = str) -> str:
    """'Document, page 4'; the document alone for a text document, which has no pages. A retracted, corrected or
    concerned work says so."""
    if not pages_label(entry):
        return escape(noticed_label(record, entry))
    return say(record, "doc_page", doc=escape(noticed_label(record, entry)), pages=escape(pages_label(entry)))


def finding_sources(record: TrialRecord, finding: Finding, escape: Callable[[str], str] = str) -> list[str]:
    """'E3: Document, page 4, Section' for each passage a finding cites that is in the evidence pool."""
    sources = []
    for evidence_id in finding.citations:
        entry = record.entry(evidence_id)
        if entry:
            sources.append(evidence_id + say(record, "colon") + passage_label(record, entry, escape))
    return sources


def assessed_text(record: TrialRecord, entry: PoolEntry) -> str:
    """What a passage says about the claim: the verifier's reading ('verifier: supports 0.91'), with the judge's
    model's beside it when the two disagree; the judge's alone ('supports (relevance 0.80)') for a passage admitted
    before the court had a verifier; 'not assessed' when neither read it."""
    assessment = record.assessment(entry.id)
    judged = say(record, "relevance", stance=term(record, assessment.stance.value),
                 value=f"{assessment.relevance:.2f}") if assessment is not None else ""
    reading = entry.verifier
    if reading is None:
        return judged or say(record, "not_assessed")
    stance, probability = reading.shown
    verifier = say(record, "verifier_reading", stance=term(record, stance), value=f"{probability:.2f}")
    if assessment is not None and reading.agrees_with(assessment.stance.value) is False:
        return say(record, "readings_disagree", verifier=verifier, judge=say(record, "judge_reading", reading=judged))
    return verifier


def cited_by_text(record: TrialRecord, entry: PoolEntry) -> str:
    """Who cited a passage: 'Prosecution (rounds 1, 2), verdict'; 'both sides: ...' when the Prosecution and the
    Defense both did; '' when nobody did."""
    who = [say(record, "role_round" if len(numbers) == 1 else "role_rounds", role=term(record, role),
               rounds=say(record, "list").join(map(str, numbers)))
           for role, numbers in record.citing_rounds(entry.id).items()]
    if record.cited_in_verdict(entry.id):
        who.append(say(record, "verdict"))
    text = say(record, "comma").join(who)
    return say(record, "both_sides", who=text) if record.citing_stance(entry.id) == "both" else text


def evidence_head(record: TrialRecord, audience: Audience) -> list[str]:
    keys = ["id", "document", "page", "section", "excerpt", "stance", "found_by", "cited_by", "level"]
    return [say(record, f"col.{key}") for key in keys + (["weight"] if audience == "expert" else [])]


def evidence_cells(record: TrialRecord, entry: PoolEntry) -> list[str]:
    """The text cells of a row of the evidence table, 'Document' to 'Evidence level' (the format escapes them)."""
    chunk = entry.evidence.chunk
    return [noticed_label(record, entry), pages_label(entry), one_line(chunk.section_path), excerpt(chunk.text, 160),
            assessed_text(record, entry), found_by_text(record, entry),
            cited_by_text(record, entry) or say(record, "not_cited"), entry.level]


def challenge_lines(record: TrialRecord, open_only: bool = True) -> list[str]:
    """'Q2 (raised by the Judge in round 1, to both sides; unanswered): text', per challenge (only those never
    answered, by default)."""
    tracked = record.verdict.open_challenges if open_only and record.verdict else [
        t for t in record.challenges if not open_only or t.status.value != "answered"]
    return [say(record, "challenge", id=t.challenge.id, round=t.challenge.round, text=one_line(t.challenge.text),
                by=(say(record, "the ") if t.challenge.raised_by == "Judge" else "") + term(record, t.challenge.raised_by),
                to=term(record, t.challenge.addressed_to), status=term(record, t.status.value)) for t in tracked]


def weight_text(record: TrialRecord, entry: PoolEntry) -> str:
    """The expert's 'Weight' cell: the verdict's weight of the passage, '' without one."""
    weight = record.weight(entry.id)
    return "" if weight is None else f"{weight:.2f}"


def coverage_intro(record: TrialRecord) -> str:
    """One sentence: searches, passages found, documents, admitted, turned away."""
    cov = record.coverage
    assert cov is not None
    admitted = sum(1 for p in cov.passages if p.admitted)
    searches = sum(1 for t in record.turns if t.queries)
    return say(record, "coverage_intro", searches=searches, found=len(cov.passages),
               documents=sum(1 for d in cov.documents if d.found), admitted=admitted, away=len(cov.passages) - admitted)


def coverage_head(record: TrialRecord) -> list[str]:
    return [say(record, f"col.{key}") for key in ("document", "found", "admitted", "turned_away", "cited", "why")]


def coverage_rows(record: TrialRecord) -> list[tuple[str, list[str], str]]:
    """Per document a search reached: (title, its figures: found, admitted, turned away, cited; why its passages were
    turned away, each reason once with its count). The format escapes the title and the reasons."""
    cov = record.coverage
    assert cov is not None
    rows = []
    for doc in cov.documents:
        if not doc.found:
            continue
        why: dict[str, int] = {}
        for passage in cov.passages:
            if passage.doc_id == doc.doc_id and not passage.admitted and passage.reason is not None:
                text = reasons(record, (passage.reason,))
                why[text] = why.get(text, 0) + 1
        rows.append((one_line(doc.title) or doc.doc_id,
                     [str(doc.found), str(doc.admitted), str(doc.turned_away), str(doc.cited)],
                     say(record, "semi").join(f"{text} (×{n})" if n > 1 else text for text, n in why.items())))
    return rows


def never_retrieved(record: TrialRecord) -> list[str]:
    """Titles of the documents in scope no search reached."""
    return [one_line(d.title) or d.doc_id for d in (record.coverage.never_retrieved if record.coverage else ())]


def discovery_head(record: TrialRecord) -> list[str]:
    """The head of the expert's 'How the evidence was found' table."""
    return [say(record, f"col.{key}") for key in ("id", "found_by", "query", "score", "bm25", "vector", "novelty")]


def discovery_text(record: TrialRecord, entry: PoolEntry) -> list[str]:
    """The expert's 'How the evidence was found' row, its text cells (the format escapes them): found by, query."""
    return [found_by_text(record, entry), one_line(entry.query)]


def discovery_figures(entry: PoolEntry) -> list[str]:
    """The same row's figures: fused score, BM25 rank, vector rank ('' where a retriever missed it), novelty."""
    ev = entry.evidence
    return [f"{ev.score:.4f}", "" if ev.bm25_rank is None else str(ev.bm25_rank),
            "" if ev.vector_rank is None else str(ev.vector_rank), f"{entry.novelty:.2f}"]


def turn_seat(record: TrialRecord, turn: Turn) -> str:
    return say(record, "seat", seat=turn.seat.value, stance=term(record, turn.stance.value))


def turn_notes(record: TrialRecord, turn: Turn) -> list[str]:
    """What a counsel turn did besides arguing, one line each: its searches, the evidence they added, a
    regeneration, the court's flags and the citations it rejected."""
    notes = []
    if turn.queries:
        notes.append(say(record, "searched", queries=say(record, "semi").join(one_line(q) for q in turn.queries)))
    if turn.evidence_added:
        notes.append(say(record, "new_evidence", ids=say(record, "list").join(turn.evidence_added)))
    if turn.regenerated:
        notes.append(say(record, "regenerated"))
    notes.extend(say(record, "challenged", to=term(record, c.addressed_to), id=c.id, text=one_line(c.text))
                 for c in turn.challenges)
    if turn.answers:
        notes.append(say(record, "answers", ids=say(record, "list").join(turn.answers)))
    notes.extend(say(record, "flag", flag=one_line(reason_text(record, f))) for f in turn.flags)
    notes.extend(say(record, "invalid_citation", id=c.evidence_id, problem=one_line(reason_text(record, c.problem)))
                 for c in turn.citations if not c.valid)
    return notes


def reasons(record: TrialRecord, items: Iterable[Reason]) -> str:
    """Stored reasons (a switch's, an overruled 'ready'), in the report's language, on one line."""
    return wording_of_reasons.say_reasons(items, wording(record))


def ruling_notes(record: TrialRecord, ruling: Ruling) -> list[tuple[str, str, bool]]:
    """The confidence table's note on a round, as (label, detail, stands out): a 'ready for verdict' or a confidence
    stop that was overruled, and a switch of sides after the round (the one that stands out)."""
    notes = []
    semi = say(record, "semi")
    if ruling.marks:
        notes.append((say(record, "note.challenges"),
                      semi.join(f"{m.id} {term(record, m.status.value)}" for m in ruling.marks), False))
    if ruling.overruled:
        notes.append((say(record, "note.overruled"), reasons(record, ruling.overruled), False))
    switch = record.switched_after(ruling.round)
    if switch:
        notes.append((say(record, "note.switched"), reasons(record, switch.reasons), True))
    return notes


def switch_roles(record: TrialRecord, switch: RolesSwitched) -> str:
    """'counsel A is now Defense, counsel B is now Prosecution': who argues what after a switch."""
    return say(record, "comma").join(say(record, "now_role", seat=seat, role=role_text(record, stance))
                                     for seat, stance in sorted(switch.assignments.items()))


def cited_anchor(record: TrialRecord, evidence_id: str) -> str:
    """The in-report anchor of a passage: its card in 'Cited passages' if cited, else its evidence-table row."""
    return evidence_id if evidence_id in set(record.cited_ids()) else f"row-{evidence_id}"


def citation_target(record: TrialRecord, evidence_id: str) -> str:
    """Where a citation points: the highlighted page of the source when it was written (for a text document, its
    excerpt with the passage marked), else the passage in the report."""
    source = record.source(evidence_id)
    if source is not None and source.href:
        return source.href
    return f"#{cited_anchor(record, evidence_id)}" if record.entry(evidence_id) else ""


def quality_scores(record: TrialRecord) -> list[str]:
    """The quality guard's scores, per side and for the trial, in the record's language."""
    scores = getattr(record.verdict, "quality", ()) if record.verdict else ()
    return [wording_of_reasons.quality_score(q, wording(record)) for q in scores]


def quality_flags(record: TrialRecord) -> list[str]:
    flags = [reason_text(record, f) for f in record.verdict.quality_flags] if record.verdict else []
    if not record.verdict:
        seen: dict[str, int] = {}
        for turn in record.turns:
            for flag in (reason_text(record, f) for f in turn.flags):
                seen[flag] = seen.get(flag, 0) + 1
        flags.extend(say(record, "flag_turns" if n > 1 else "flag_turn", flag=flag, n=n) for flag, n in seen.items())
    regenerated = sum(1 for t in record.turns if t.regenerated)
    if regenerated:
        flags.append(say(record, "flag_regenerated", n=regenerated))
    overruled = [r for r in record.rulings if r.overruled]
    for ruling in overruled:
        flags.append(say(record, "flag_overruled", round=ruling.round, why=reasons(record, ruling.overruled)))
    for source in record.sources:
        if source.note:
            flags.append(source.evidence_id + say(record, "colon") + source.note)
    return [one_line(f) for f in flags]


def trial_notes(record: TrialRecord) -> list[str]:
    notes = [say(record, "note_round", round=w.round, text=one_line(reason_text(record, w.reason))) if w.round
             else one_line(reason_text(record, w.reason)) for w in record.warnings]
    notes.extend(say(record, "note_error", text=one_line(e.message)) + (say(record, "note_fix", fix=one_line(e.fix))
                                                                       if e.fix else "") for e in record.errors)
    notes.extend(say(record, "note_resumed", round=r.from_round)
                 + (say(record, "note_redoing", what=one_line(r.discarded)) if r.discarded else "")
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
    parts.append(say(record, "scope_documents", n=len(record.spec.documents)) if record.spec.documents
                 else say(record, "scope_library"))
    if record.spec.sections:
        parts.append(say(record, "scope_sections", sections=say(record, "list").join(one_line(s) for s in record.spec.sections)))
    return say(record, "semi").join(parts)


def usage_text(record: TrialRecord) -> str:
    u = record.usage
    return say(record, "usage", tokens_in=u.tokens_in, tokens_out=u.tokens_out, seconds=f"{u.seconds:.1f}")


def rounds(record: TrialRecord) -> list[int]:
    numbers = {t.round for t in record.turns} | {r.round for r in record.rulings}
    return sorted(numbers)
