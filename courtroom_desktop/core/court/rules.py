"""The court's rules, as pure functions of a trial's state and its debate settings: when to stop, when the sides
switch, when a "ready for verdict" is overruled, how cited evidence is weighed, and which flags the verdict carries.
The engine applies them; tests call them directly."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.court.checks import cited_ids, content_words, overlap
from courtroom_desktop.core.court.records import (
    Assessed,
    BasisRow,
    ChallengeStatus,
    Code,
    JudgeRuling,
    Reason,
    Tendency,
    TrackedChallenge,
    VerdictLabel,
    WeighedEvidence,
)
from courtroom_desktop.core.court.state import TrialState


def stop_reason(state: TrialState, settings: DebateSettings) -> Reason | None:
    """Why the trial stops after its last ruling (None to go on): the round limit, the confidence threshold (after the
    minimum rounds), or the judge finding the case ready (and not overruled). The engine asks only when no switch is
    due after that ruling (``switch_reasons``): a due switch comes first, as the design orders them."""
    if not state.rulings:
        return None
    last = state.rulings[-1]
    ruled = last.round
    if state.spec.decision is not None:  # a decision with options: one round per option, then the table decides
        heard = len(state.spec.decision.options)
        return Reason.of(Code.stop_every_option_heard, options=heard) if ruled >= heard else None
    if ruled >= settings.max_rounds:
        return Reason.of(Code.stop_round_limit, rounds=settings.max_rounds)
    if ruled >= settings.min_rounds and last.ruling.confidence >= settings.confidence_threshold and not last.overruled:
        return Reason.of(Code.stop_confidence, confidence=last.ruling.confidence,
                         threshold=settings.confidence_threshold)
    if ruled >= settings.min_rounds and last.ruling.ready_for_verdict and not last.overruled:
        return Reason.of(Code.stop_judge_ready)
    return None


def last_switch_round(state: TrialState) -> int:
    """The round after which counsel last swapped sides (0: never). Every stall window starts after it: a switch is
    given a whole window of debate before the same signs can call another."""
    return state.switches[-1].round if state.switches else 0


def controversies(state: TrialState, settings: DebateSettings) -> list[str] | None:
    """The key controversies of the last ``controversy_rounds`` rulings since the last switch, oldest first, when
    there are that many and each says something (the repeated-controversy rule compares each consecutive pair);
    None otherwise, or when the rule is off (0)."""
    n = settings.controversy_rounds
    since = [r for r in state.rulings if r.round > last_switch_round(state)]
    if n < 2 or len(since) < n:
        return None
    texts = [r.ruling.key_controversy for r in since[-n:]]
    return texts if all(t.strip() for t in texts) else None


def _fmt(value: float) -> str:
    return f"{value:.2f}"


def switch_reasons(state: TrialState, settings: DebateSettings,
                   controversy_similarity: Sequence[float] | float | None = None) -> list[Reason]:
    """Why counsel should swap sides after the last ruling ([] if not), each reason with the numbers behind it:

    - the judge asks (``switch_request``);
    - the judge's tendency stayed the same over the last ``tendency_rounds`` rulings;
    - confidence moved less than ``stall_delta`` over the last ``stall_rounds`` rounds (the range, max - min, of the
      last ``stall_rounds`` + 1 rulings: every step and the drift over the window, not only first against last);
    - the key controversy stayed the same over the last ``controversy_rounds`` rulings: every consecutive pair at
      least ``controversy_repeat_similarity`` alike (``controversy_similarity``: the cosine of each consecutive pair of
      ``controversies``, in order, from the engine's embedder; None to compare their words);
    - fewer than ``min_new_evidence`` passages were cited for the first time in the arguments of the last
      ``new_evidence_rounds`` rounds (passages that entered the pool uncited do not count).

    Windows count only rulings and rounds after the last switch (the ruling it followed is the confidence's baseline).
    None once ``max_switches`` are spent, after the round limit (no round is left to argue the other side) and for
    decisions with options."""
    if len(state.switches) >= settings.max_switches or not state.rulings or state.spec.decision is not None:
        return []  # a decision with options hears each option from both sides: there is nothing to swap
    rulings = state.rulings
    ruled = rulings[-1].round
    if ruled >= settings.max_rounds:
        return []
    after = last_switch_round(state)
    since = [r for r in rulings if r.round > after]
    reasons = []
    if rulings[-1].ruling.switch_request:
        reasons.append(Reason.of(Code.switch_judge_asked))
    n = settings.tendency_rounds
    if n and len(since) >= n and len({r.ruling.tendency for r in since[-n:]}) == 1:
        reasons.append(Reason.of(Code.switch_tendency_unchanged, leans=Tendency(since[-1].ruling.tendency).value,
                                 rounds=n))
    m = settings.stall_rounds
    baseline = [r for r in rulings if r.round >= after]  # the ruling the switch followed, then those after it
    if len(baseline) > m:
        values = [r.ruling.confidence for r in baseline[-1 - m:]]
        moved = max(values) - min(values)
        if moved < settings.stall_delta:
            reasons.append(Reason.of(Code.switch_confidence_stalled, moved=round(moved, 3), rounds=m,
                                     delta=settings.stall_delta, values=", ".join(map(_fmt, values))))
    texts = controversies(state, settings)
    if texts is not None:
        if isinstance(controversy_similarity, int | float):
            controversy_similarity = [float(controversy_similarity)]
        pairs = list(zip(texts, texts[1:]))
        similar = (list(controversy_similarity) if controversy_similarity is not None
                   and len(controversy_similarity) == len(pairs) else [overlap(a, b) for a, b in pairs])
        if min(similar) >= settings.controversy_repeat_similarity:
            reasons.append(Reason.of(Code.switch_controversy_same, rounds=len(texts), similarity=round(min(similar), 3),
                                     threshold=settings.controversy_repeat_similarity, controversy=texts[-1]))
    k = settings.new_evidence_rounds
    if ruled - after >= k:
        first_cited: dict[str, int] = {}
        for turn in sorted(state.turns, key=lambda t: t.index):
            for citation in turn.citations:
                if citation.valid:
                    first_cited.setdefault(citation.evidence_id, turn.round)
        new = [i for i, first in first_cited.items() if first > ruled - k]
        if len(new) < settings.min_new_evidence:
            reasons.append(Reason.of(Code.switch_few_new_citations, count=len(new), rounds=k,
                                     passages=settings.min_new_evidence, ids=", ".join(new)))
    return reasons


def overrule_reasons(ruling: JudgeRuling, state: TrialState, settings: DebateSettings) -> list[Reason]:
    """Why a ruling cannot end the trial (the premature-convergence guard): a "ready for verdict" too early, or whose
    reason names no argument or evidence; a confidence at the stopping threshold (after the minimum rounds) whose
    ruling names none, in its reason or its assessment of the evidence."""
    if ruling.ready_for_verdict:
        if state.round < settings.min_rounds:
            return [Reason.of(Code.overrule_too_early, rounds=settings.min_rounds)]
        if not names_argument(ruling.ready_reason, state):
            return [Reason.of(Code.overrule_no_grounds)]
        return []
    if (state.round >= settings.min_rounds and ruling.confidence >= settings.confidence_threshold
            and not any(names_argument(text, state) for text in (ruling.ready_reason, ruling.evidence_assessment))):
        return [Reason.of(Code.overrule_confidence_no_grounds, confidence=ruling.confidence,
                          threshold=settings.confidence_threshold)]
    return []


def names_argument(reason: str, state: TrialState) -> bool:
    """Does ``reason`` name evidence of the pool, or share at least three content words with an argument?"""
    pool_ids = {e.id for e in state.pool}
    bare = [w for w in reason.replace(",", " ").split() if w.startswith("E") and w[1:].isdigit()]
    if any(c in pool_ids for c in cited_ids(reason) + bare):
        return True
    words = content_words(reason)
    return len(words) >= 3 and any(len(words & content_words(t.text)) >= 3 for t in state.turns)


def level_weight(level: str, settings: DebateSettings) -> float:
    """A level's weight in the hierarchy: 1 for the strongest, down to 1/n for the last (unknown levels: the last)."""
    hierarchy = [name.lower() for name in settings.evidence_hierarchy]
    rank = hierarchy.index(level.lower()) if level.lower() in hierarchy else len(hierarchy) - 1
    return round((len(hierarchy) - rank) / len(hierarchy), 3)


def counsel_cited(state: TrialState) -> list[str]:
    """Pool ids a counsel turn cited validly, in pool order."""
    cited = {c.evidence_id for t in state.turns for c in t.citations if c.valid}
    return [e.id for e in state.pool if e.id in cited]


def weigh(state: TrialState, settings: DebateSettings) -> list[WeighedEvidence]:
    """Every passage counsel cited, with its level's weight, what it says (as assessed) and who cited it."""
    weighed = []
    for entry in state.pool:
        citing = [t for t in state.turns if any(c.valid and c.evidence_id == entry.id for c in t.citations)]
        if not citing:
            continue
        stances = {t.stance for t in citing}
        assessment = state.assessments.get(entry.id)
        weighed.append(WeighedEvidence(
            id=entry.id, level=entry.level, weight=level_weight(entry.level, settings),
            cited_by=tuple(dict.fromkeys(f"{t.role} (round {t.round})" for t in citing)),
            stance=next(iter(stances)) if len(stances) == 1 else None,
            assessed=assessment.stance if assessment else None,
            relevance=assessment.relevance if assessment else None, both_sides=len(stances) > 1,
        ))
    return sorted(weighed, key=lambda w: (-w.weight, int(w.id[1:])))


def balance(state: TrialState, settings: DebateSettings, ids: Iterable[str]) -> tuple[float, float]:
    """(supporting, refuting) weight of the passages ``ids``: level weight x assessed relevance, a mixed passage half
    to each side; irrelevant and unassessed passages weigh nothing."""
    supports = refutes = 0.0
    entries = {e.id: e for e in state.pool}
    for evidence_id in dict.fromkeys(ids):
        entry, assessment = entries.get(evidence_id), state.assessments.get(evidence_id)
        if entry is None or assessment is None:
            continue
        weight = level_weight(entry.level, settings) * assessment.relevance
        if assessment.stance in (Assessed.supports, Assessed.mixed):
            supports += weight if assessment.stance == Assessed.supports else weight / 2
        if assessment.stance in (Assessed.refutes, Assessed.mixed):
            refutes += weight if assessment.stance == Assessed.refutes else weight / 2
    return supports, refutes


def leaning(supports: float, refutes: float, margin: float) -> Tendency | None:
    """Which way weighed evidence leans: support, refute, unclear (within the margin), or None (nothing weighed)."""
    if supports + refutes <= 0:
        return None
    share = (supports - refutes) / (supports + refutes)
    if share >= margin:
        return Tendency.support
    if share <= -margin:
        return Tendency.refute
    return Tendency.unclear


def basis(state: TrialState, ids: Iterable[str]) -> list[BasisRow]:
    """What a confidence rests on: the passages ``ids`` counted by evidence level and assessed stance."""
    rows: dict[str, dict[str, int]] = {}
    entries = {e.id: e for e in state.pool}
    for evidence_id in dict.fromkeys(ids):
        entry, assessment = entries.get(evidence_id), state.assessments.get(evidence_id)
        if entry is None or assessment is None or assessment.stance == Assessed.irrelevant:
            continue
        counts = rows.setdefault(entry.level, {"supports": 0, "refutes": 0, "mixed": 0})
        counts[assessment.stance.value] += 1
    return [BasisRow(level=level, **counts) for level, counts in rows.items()]


LABEL_OF = {Tendency.support: VerdictLabel.supported, Tendency.refute: VerdictLabel.refuted}

EVIDENCE_MASS = 2.0
"""How fast the weighed evidence's strength saturates: 1 - exp(-EVIDENCE_MASS x weight). One fully relevant passage of
the strongest level gives 0.86, two give 0.98; one fully relevant passage of the weakest of six levels gives 0.28."""


def evidence_confidence(state: TrialState, settings: DebateSettings,
                        ids: Iterable[str]) -> tuple[VerdictLabel, float] | None:
    """The label the cited passages ``ids`` point to and the confidence they alone give it, from their assessed
    stances, evidence levels and relevance (``balance``): the share of the weight on the label's side (for 'mixed',
    1 - the imbalance) times the strength of the evidence, 1 - exp(-EVIDENCE_MASS x total weight). None when no
    assessed, relevant passage was cited."""
    supports, refutes = balance(state, settings, ids)
    total = supports + refutes
    if total <= 0:
        return None
    strength = 1 - math.exp(-EVIDENCE_MASS * total)
    leans = leaning(supports, refutes, settings.verdict_rule.balance_margin)
    if leans == Tendency.support:
        return VerdictLabel.supported, round(supports / total * strength, 3)
    if leans == Tendency.refute:
        return VerdictLabel.refuted, round(refutes / total * strength, 3)
    return VerdictLabel.mixed, round((1 - abs(supports - refutes) / total) * strength, 3)


def confidence_disagreement(label: VerdictLabel, confidence: float, evidence_label: VerdictLabel,
                            evidence: float, settings: DebateSettings) -> Reason | None:
    """A quality flag when the judge's confidence and the weighed evidence's disagree by more than
    ``settings.confidence_disagreement``: on the same label, their difference; on different labels, the larger of the
    two (a confident label the other does not share)."""
    gap = abs(confidence - evidence) if label == evidence_label else max(confidence, evidence)
    if round(gap, 6) <= settings.confidence_disagreement:  # 0.9 - 0.6 is 0.30000000000000004
        return None
    return Reason.of(Code.flag_confidence_disagreement, label=VerdictLabel(label).value, confidence=confidence,
                     evidence_label=VerdictLabel(evidence_label).value, evidence_confidence=evidence,
                     limit=settings.confidence_disagreement)


@dataclass
class VerdictCheck:
    """What the verdict rule makes of a draft: the label and confidence to keep, a contradiction of the record (to
    send the draft back once, then to correct), and notes on what it changed."""

    label: VerdictLabel
    confidence: float
    contradiction: Reason | None = None
    notes: list[Reason] = field(default_factory=list)
    record_label: VerdictLabel | None = None  # the label the record calls for when the draft contradicts it


def check_verdict(label: VerdictLabel, confidence: float, state: TrialState, settings: DebateSettings,
                  cited: Iterable[str]) -> VerdictCheck:
    """The verdict rule (docs/court.md). ``cited``: the passages the verdict rests on (counsel's valid citations and
    the draft's findings)."""
    rule = settings.verdict_rule
    check = VerdictCheck(label, confidence)
    if not rule.enabled:
        return check
    cited = list(dict.fromkeys(cited))
    if not state.pool or not cited:
        if label != VerdictLabel.insufficient:
            check.notes.append(Reason.of(Code.rule_no_evidence, label=VerdictLabel.insufficient.value,
                                         proposed=VerdictLabel(label).value))
        check.label = VerdictLabel.insufficient
    last = state.rulings[-1].ruling if state.rulings else None
    leans = leaning(*balance(state, settings, cited), rule.balance_margin)
    if last is not None and leans in LABEL_OF and check.label != VerdictLabel.mixed:
        side = LABEL_OF[leans]
        opposite = {Tendency.support: VerdictLabel.refuted, Tendency.refute: VerdictLabel.supported}[leans]
        if last.tendency == leans and (check.label == opposite or check.label == VerdictLabel.insufficient
                                       and last.confidence >= rule.decided_confidence):
            check.contradiction = Reason.of(Code.rule_contradiction, label=VerdictLabel(check.label).value,
                                            leans=Tendency(leans).value, confidence=last.confidence)
            check.record_label = side
    if check.label == VerdictLabel.insufficient and check.confidence > rule.insufficient_max_confidence:
        check.notes.append(Reason.of(Code.rule_confidence_capped, label=VerdictLabel.insufficient.value,
                                     confidence=check.confidence, cap=rule.insufficient_max_confidence))
        check.confidence = rule.insufficient_max_confidence
    return check


def tracked_challenges(state: TrialState) -> list[TrackedChallenge]:
    """Every challenge with its last mark (one the judge never marked counts as unanswered)."""
    status = state.challenge_status()
    return [TrackedChallenge(challenge=c, status=status[c.id] if status[c.id] != ChallengeStatus.open
                             else ChallengeStatus.unanswered) for c in state.challenges()]


def open_challenges(state: TrialState) -> list[TrackedChallenge]:
    """Challenges never marked answered: the open lines of argument a verdict lists."""
    return [t for t in tracked_challenges(state) if t.status != ChallengeStatus.answered]


REJECTED = (Code.flag_rejected_twice.value, Code.flag_quote_dropped.value)


def trial_flags(state: TrialState) -> list[Reason]:
    """The quality guard's flags over the whole trial, counted by turn (every 'rejected twice' as one), the passages
    that read like instructions, and the challenges left unanswered, per side."""
    counts: dict[Reason, int] = {}
    for turn in state.turns:
        for flag in turn.flags:
            legacy = flag.code == Code.text and str(flag.params.get("text", "")).startswith("rejected")
            key = Reason.of(Code.flag_rejected) if flag.code in REJECTED or legacy else flag
            counts[key] = counts.get(key, 0) + 1
    flags = [Reason.of(Code.flag_turns, flag=flag, turns=n) for flag, n in counts.items()]
    suspicious = [e.id for e in state.pool if e.injection]
    if suspicious:
        flags.append(Reason.of(Code.flag_injected_passages, ids=", ".join(suspicious)))
    unanswered: dict[str, list[str]] = {}
    for item in open_challenges(state):
        if item.status == ChallengeStatus.unanswered:
            unanswered.setdefault(item.challenge.addressed_to, []).append(item.challenge.id)
    flags.extend(Reason.of(Code.flag_unanswered, side=side, count=len(ids), ids=", ".join(ids))
                 for side, ids in unanswered.items())
    return flags
