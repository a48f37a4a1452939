"""The judge's calls: assessing new evidence, ruling on a round (and marking the open challenges), and the verdict,
whose text is checked and whose label the verdict rule holds to the record. Functions of the court they serve, which
they see as a ``bench.Bench``."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from courtroom_desktop.core.court import decisions, hearing, prompts, rules, scored
from courtroom_desktop.core.court.bench import Bench, Emit
from courtroom_desktop.core.court.checks import (
    cut_generated,
    generated_problems,
    is_question,
    normalise,
    quality_scores,
)
from courtroom_desktop.core.court.counsel import BOTH_SIDES
from courtroom_desktop.core.court.records import (
    Assessed,
    Assessment,
    CaseType,
    Challenge,
    ChallengeMark,
    ChallengeStatus,
    Code,
    DecisionDraft,
    EvidenceAssessed,
    Finding,
    JudgeRuling,
    Reason,
    Ruling,
    RulingIssued,
    TrialWarning,
    Verdict,
    VerdictDraft,
    VerdictLabel,
    VerdictReached,
)
from courtroom_desktop.core.court.retry import regenerate_once
from courtroom_desktop.core.court.scored import Ruled, Scored, contradicts
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.errors import ModelError, ModelUnavailable, TrialError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.records import Usage
from courtroom_desktop.core.text import language_of

RULING_TOKENS, VERDICT_TOKENS = 560, 640  # a ruling ends with an instruction to each side
ASSESS_TOKENS_EACH = 40  # one passage's assessment: its id, a stance and a relevance
JUDGE = "Judge"


async def assess(court: Bench, state: TrialState, emit: Emit) -> None:
    """The judge's model reads the passages not yet assessed (one short structured call): what each says about the
    claim and how relevant it is. A model that cannot answer leaves them unassessed, with a warning."""
    entries = state.unassessed()
    if not court.settings.assess_evidence or not entries:
        return
    judge = court.model("judge")
    tokens = ASSESS_TOKENS_EACH * len(entries) + 32
    messages = await asyncio.to_thread(prompts.assessment_messages, state.spec.case,
                                       hearing.subject(state.spec, state.round), entries,
                                       judge.count_tokens, judge.context_window - tokens - 64)
    try:
        draft, usage = await judge.structured(messages, prompts.assessment_schema([e.id for e in entries]),
                                              max_tokens=tokens)
    except ModelUnavailable:
        raise
    except ModelError as exc:
        emit(TrialWarning(round=state.round, reason=Reason.of(Code.warning_assess_failed, problem=str(exc))))
        return
    found = {item.id: item for item in draft.assessments}
    assessments = tuple(Assessment(evidence_id=e.id, stance=Assessed(found[e.id].stance),
                                   relevance=round(found[e.id].relevance, 3), round=state.round)
                        for e in entries if e.id in found)
    if assessments:
        event = emit(EvidenceAssessed(round=state.round, assessments=assessments, usage=usage))
        state.assessments.update((a.evidence_id, a) for a in event.assessments)
        state.assessing.append(event.usage)


async def rule(court: Bench, state: TrialState, emit: Emit) -> Ruling:
    judge = court.model("judge")
    spec, pool_ids = state.spec, [e.id for e in state.pool]
    decision = spec.decision if spec.option_of(state.round) is not None else None  # a round that scores an option
    scoring = decision is not None
    tokens = RULING_TOKENS + (hearing.SCORE_TOKENS_EACH * (len(decision.criteria) + len(decision.constraints))
                              if decision is not None else 0)
    budget = judge.context_window - tokens - 64
    open_before = state.open_challenges()
    also = hearing.scoring_instruction(spec, hearing.own_evidence(spec, state.round, state.pool)) if scoring else ""
    messages = await asyncio.to_thread(prompts.ruling_messages, spec.case, hearing.subject(spec, state.round),
                                       state.pool, state.turns, state.rulings, state.round, judge.count_tokens, budget,
                                       assessed=dict(state.assessments), challenges=open_before, also=also)
    extra = hearing.scoring_fields(decision, pool_ids) if decision is not None else None
    draft, usage = await judge.structured(messages, prompts.ruling_schema([c.id for c in open_before], extra),
                                          max_tokens=tokens)
    ruling = JudgeRuling.model_validate({name: getattr(draft, name) for name in JudgeRuling.model_fields})
    marks = tuple(ChallengeMark(id=m.id, status=ChallengeStatus(m.status))
                  for m in dict((m.id, m) for m in getattr(draft, "challenges", [])).values())
    known = {normalise(c.text) for c in state.challenges()}
    questions: list[Challenge] = []
    first = len(state.challenges())
    for text in ruling.open_questions:
        if is_question(text) and normalise(text) not in known:
            known.add(normalise(text))
            questions.append(Challenge(id=f"Q{first + len(questions) + 1}", text=text.strip(), round=state.round,
                                       raised_by=JUDGE, addressed_to=BOTH_SIDES))
    record = Ruling(round=state.round, ruling=ruling, overruled=tuple(rules.overrule_reasons(ruling, state,
                                                                                             court.settings)),
                    usage=usage, questions=tuple(questions), marks=marks,
                    hearing=hearing.hearing_of(spec, state.round, draft, state.pool) if scoring else None)
    if record.hearing is not None and record.hearing.flags:  # one warning: the option, then what was set aside
        emit(TrialWarning(round=state.round, reason=Reason.of(Code.flag_option, option=record.hearing.option,
                                                              flag=record.hearing.flags)))
    emit(RulingIssued(ruling=record))
    return record

# ---------------------------------------------------------------- verdict
DraftT = TypeVar("DraftT", VerdictDraft, DecisionDraft)


@dataclass
class _VerdictAttempt(Generic[DraftT]):
    """One verdict draft as checked: the draft, its findings of the pool, every id cited, the instructions its text
    must not echo, and (a claim's verdict) the rule's check of its label."""

    draft: DraftT
    findings: list[Finding]
    cited: list[str]
    instructions: list[str]
    check: rules.VerdictCheck | None


def _sent_back(problems: tuple[Reason, ...]) -> Reason:
    return Reason.of(Code.warning_verdict_sent_back, problems=problems)


def _text_problems(summary: str, findings: Sequence[Finding], instructions: Sequence[str],
                   need_citation: bool) -> list[Reason]:
    """What is wrong with a verdict draft's text ('the summary cites no evidence', 'the finding 2 ...'), as one list
    for the judge to be told and the flags to carry."""
    found = [Reason.of(Code.problem_summary, problem=p)
             for p in generated_problems(summary, instructions, need_citation=need_citation)]
    found += [Reason.of(Code.problem_finding, n=n, problem=p)
              for n, f in enumerate(findings, 1) for p in generated_problems(f.text, instructions)]
    return found


def _clean(items: Iterable[str], instructions: Sequence[str]) -> list[str]:
    """A verdict's listed items (open questions, conditions, risks) without what is not text of the case: an item
    with stray template characters ('The answer to the question is [].') or that echoes the instructions is left out."""
    return [item for item in items if item.strip() and not generated_problems(item, instructions)]


async def verdict(court: Bench, state: TrialState, stop: Reason, emit: Emit) -> Verdict:
    """The judge drafts the verdict; its text is checked and the rule holds its label to the record. A draft with
    problems goes back once with them named; what is still wrong then is cut or set by the rule, and flagged."""
    if state.spec.decision is not None:
        return await decision_verdict(court, state, stop, emit)
    judge = court.model("judge")
    budget = judge.context_window - VERDICT_TOKENS - 64
    open_lines = rules.open_challenges(state)
    usages: list[Usage] = []
    ruled = await _scored(court, state)

    async def attempt(number: int, problems: str) -> tuple[_VerdictAttempt[VerdictDraft], list[Reason]]:
        messages = await asyncio.to_thread(
            prompts.verdict_messages, state.spec.case, hearing.subject(state.spec, 0), state.pool, state.turns, state.rulings,
            judge.count_tokens, budget, assessed=dict(state.assessments),
            challenges=[o.challenge for o in open_lines], problems=problems)
        draft, usage = await judge.structured(messages, VerdictDraft, max_tokens=VERDICT_TOKENS)
        usages.append(usage)
        findings = _findings(state, draft, emit if number == 0 else None)
        cited = rules.counsel_cited(state) + [c for f in findings for c in f.citations]
        check = rules.check_verdict(draft.label, draft.confidence, state, court.settings, cited)
        instructions = [messages[0]["content"], *prompts.verdict_instructions(state.spec.case)]
        found = _text_problems(draft.summary, findings, instructions, bool(cited))
        if check.contradiction is not None and ruled is None:  # with scores, the label rule sets it: no resend
            found.insert(0, check.contradiction)
        return _VerdictAttempt(draft, findings, cited, instructions, check), found

    checked = await regenerate_once(attempt, _sent_back, emit, state.round)
    draft, findings, cited = checked.draft.draft, checked.draft.findings, checked.draft.cited
    instructions, check, found = checked.draft.instructions, checked.draft.check, checked.problems
    assert check is not None  # a claim's verdict is always checked by the rule
    flags: list[Reason] = []
    summary = draft.summary
    if found:  # the second draft is still wrong: cut what cannot stand, flag the rest
        summary = cut_generated(draft.summary, instructions) or plain_summary(state, check.label, cited)
        findings = [Finding(text=cut_generated(f.text, instructions), citations=f.citations) for f in findings]
        findings = [f for f in findings if f.text]
        flags += [Reason.of(Code.flag_verdict_text, problem=p) for p in found if p != check.contradiction]
        if check.contradiction is not None and check.record_label is not None:
            flags.append(Reason.of(Code.rule_label_set, **check.contradiction.params,
                                   record_label=check.record_label.value))
            check.label = check.record_label
            check.confidence = min(check.confidence, state.rulings[-1].ruling.confidence)
    flags += check.notes
    weighed: tuple[VerdictLabel, float] | None
    if ruled is not None:  # the label and confidence are the label rule's over the scores: set, not argued (no resend)
        weighed = (ruled.label, ruled.confidence)
        if check.label != ruled.label:
            flags.append(Reason.of(Code.rule_scored_set, label=VerdictLabel(check.label).value,
                                   record_label=ruled.label.value, why=ruled.reason(language_of(state.spec.claim))))
        check.label, check.confidence = ruled.label, ruled.confidence
        if contradicts(check.label, summary):
            summary = plain_summary(state, check.label, ruled.backing or cited)
    else:  # no verifier: the weighed evidence's own figure, flagged when far from the judge's
        weighed = rules.evidence_confidence(state, court.settings, cited)
        if weighed is not None:
            disagreement = rules.confidence_disagreement(check.label, check.confidence, *weighed, court.settings)
            flags += [disagreement] if disagreement is not None else []
    verdict = Verdict(
        label=check.label, confidence=check.confidence, findings=tuple(findings),
        open_questions=tuple(dict.fromkeys(_clean(draft.open_questions, instructions)
                                           + (_clean(state.rulings[-1].ruling.open_questions, instructions)
                                              if state.rulings else []))),
        summary=summary, conditions=tuple(_clean(draft.conditions, instructions)),
        risks=tuple(_clean(draft.risks, instructions)),
        evidence=tuple(rules.weigh(state, court.settings)),
        quality_flags=tuple(rules.trial_flags(state) + flags), stopped_because=stop, rounds=len(state.rulings),
        switches=len(state.switches), usage=sum(usages, Usage()), basis=tuple(rules.basis(state, cited)),
        open_challenges=tuple(open_lines), quality=tuple(quality_scores(state.turns)),
        draft_label=draft.label if check.label != draft.label else None,
        draft_confidence=draft.confidence if check.confidence != draft.confidence else None,
        evidence_label=weighed[0] if weighed else None, evidence_confidence=weighed[1] if weighed else None,
    )
    emit(VerdictReached(verdict=verdict))
    return verdict


async def _scored(court: Bench, state: TrialState) -> Ruled | None:
    """The label the verifier's readings of the whole pool give the claim (``scored.decide``); None when the court
    has no verifier."""
    readings = await court.readings(state)
    if not readings:
        return None
    passages = [Scored(e.id, e.evidence.chunk.text, readings[e.id], e.evidence.retracted)
                for e in state.pool if e.id in readings]
    return scored.decide(state.spec.claim, passages, court.settings.verdict_rule.insufficient_max_confidence)


def _findings(state: TrialState, draft: VerdictDraft | DecisionDraft, emit: Emit | None) -> list[Finding]:
    """The draft's findings with citations of the pool only (unknown ones removed, with a warning)."""
    pool = {e.id for e in state.pool}
    findings: list[Finding] = []
    for finding in draft.findings:
        named = [c.strip("[] ") for c in finding.citations]
        dropped = [c for c, n in zip(finding.citations, named) if n not in pool]
        if dropped and emit is not None:
            emit(TrialWarning(round=state.round, reason=Reason.of(Code.warning_unknown_citations,
                                                                  ids=", ".join(dropped))))
        if finding.text.strip():
            findings.append(Finding(text=finding.text.strip(),
                                    citations=tuple(dict.fromkeys(n for n in named if n in pool))))
    return findings


def plain_summary(state: TrialState, label: VerdictLabel, cited: Iterable[str]) -> str:
    """A summary the court can stand behind when the judge's own had to be cut away entirely."""
    subject = "the decision" if state.spec.case == CaseType.decision else "the claim"
    finding = {"supported": f"supports {subject}", "refuted": f"goes against {subject}",
               "mixed": f"points both ways on {subject}", "insufficient evidence": f"does not decide {subject}"}
    ids = list(dict.fromkeys(cited))[:4]
    rests = f" ({', '.join(f'[{i}]' for i in ids)})" if ids else ""
    return f"The evidence the court weighed{rests} {finding[str(label)]}."


OUTCOME_LABEL = {"recommended": VerdictLabel.supported, "too close to call": VerdictLabel.mixed,
                 "not enough evidence": VerdictLabel.insufficient, "no option passes": VerdictLabel.refuted}


async def decision_verdict(court: Bench, state: TrialState, stop: Reason, emit: Emit) -> Verdict:
    """A decision with options: the table computed from the hearings sets the recommendation, its label and
    confidence; the judge explains it (a summary that must name the recommended option and cite evidence, findings,
    risks), checked like any verdict text and replaced by the table's own sentence when it cannot stand."""
    spec, judge = state.spec, court.model("judge")
    if spec.decision is None:
        raise TrialError(Message("a decision's verdict needs the decision's options"))  # never: verdict() checks
    result = decisions.outcome(spec.claim, spec.decision, [r.hearing for r in state.rulings if r.hearing])
    budget = judge.context_window - VERDICT_TOKENS - 64
    open_lines = rules.open_challenges(state)
    table = decisions.plain_summary(spec.claim, result)
    usages: list[Usage] = []

    async def attempt(number: int, problems: str) -> tuple[_VerdictAttempt[DecisionDraft], list[Reason]]:
        messages = await asyncio.to_thread(
            prompts.verdict_messages, spec.case, hearing.subject(spec, 0), state.pool, state.turns, state.rulings,
            judge.count_tokens, budget, assessed=dict(state.assessments),
            challenges=[o.challenge for o in open_lines], problems=problems, table=table)
        draft, usage = await judge.structured(messages, DecisionDraft, max_tokens=VERDICT_TOKENS)
        usages.append(usage)
        findings = _findings(state, draft, emit if number == 0 else None)
        cited = rules.counsel_cited(state) + [c for f in findings for c in f.citations]
        instructions = [messages[0]["content"], *prompts.verdict_instructions(spec.case, "(the table)")]
        found = _text_problems(draft.summary, findings, instructions, bool(cited))
        if result.recommended and result.recommended.casefold() not in draft.summary.casefold():
            found.insert(0, Reason.of(Code.problem_option_unnamed, option=result.recommended))
        return _VerdictAttempt(draft, findings, cited, instructions, None), found

    checked = await regenerate_once(attempt, _sent_back, emit, state.round)
    draft, findings, cited = checked.draft.draft, checked.draft.findings, checked.draft.cited
    instructions, found = checked.draft.instructions, checked.problems
    flags: list[Reason] = []
    summary = draft.summary
    if found:
        summary = table
        findings = [f for f in (Finding(text=cut_generated(f.text, instructions), citations=f.citations)
                                for f in findings) if f.text]
        flags += [Reason.of(Code.flag_verdict_text_table, problem=p) for p in found]
    flags += [Reason.of(Code.flag_option, option=r.hearing.option, flag=flag)
              for r in state.rulings if r.hearing for flag in r.hearing.flags]
    verdict = Verdict(
        label=OUTCOME_LABEL[result.label], confidence=result.confidence, findings=tuple(findings),
        open_questions=tuple(dict.fromkeys([q for q in [result.next_question, *_clean(draft.open_questions,
                                                                                         instructions)] if q.strip()])),
        summary=summary, conditions=result.conditions,  # the table's own sentences: no model text
        risks=tuple(dict.fromkeys([*result.risks, *_clean(draft.risks, instructions)]))[:6],
        evidence=tuple(rules.weigh(state, court.settings)),
        quality_flags=tuple(rules.trial_flags(state) + flags), stopped_because=stop, rounds=len(state.rulings),
        switches=len(state.switches), usage=sum(usages, Usage()), basis=tuple(rules.basis(state, cited)),
        open_challenges=tuple(open_lines), decision=result, quality=tuple(quality_scores(state.turns)))
    emit(VerdictReached(verdict=verdict))
    return verdict
