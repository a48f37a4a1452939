"""The court's rules, as pure functions of a trial's state and its debate settings: when to stop, when the sides
switch, when a "ready for verdict" is overruled, how cited evidence is weighed, and which flags the verdict carries.
The engine applies them; tests call them directly."""

from __future__ import annotations

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.court.checks import cited_ids, content_words, overlap
from courtroom_desktop.core.court.records import JudgeRuling, WeighedEvidence
from courtroom_desktop.core.court.state import TrialState


def stop_reason(state: TrialState, settings: DebateSettings) -> str:
    """Why the trial stops after its last ruling ('' to go on): the round limit, the confidence threshold (after the
    minimum rounds), or the judge finding the case ready (and not overruled)."""
    if not state.rulings:
        return ""
    last = state.rulings[-1]
    ruled = last.round
    if ruled >= settings.max_rounds:
        return f"round limit ({settings.max_rounds})"
    if ruled >= settings.min_rounds and last.ruling.confidence >= settings.confidence_threshold:
        return f"confidence {last.ruling.confidence:.2f} reached the threshold {settings.confidence_threshold:.2f}"
    if ruled >= settings.min_rounds and last.ruling.ready_for_verdict and not last.overruled:
        return "the judge found the case ready"
    return ""


def controversies(state: TrialState) -> tuple[str, str] | None:
    """The last two rulings' key controversies, when both say something (the repeated-controversy rule compares them)."""
    if len(state.rulings) < 2:
        return None
    a, b = state.rulings[-1].ruling.key_controversy, state.rulings[-2].ruling.key_controversy
    return (a, b) if a.strip() and b.strip() else None


def switch_reasons(state: TrialState, settings: DebateSettings, controversy_similarity: float | None = None) -> list[str]:
    """Why counsel should swap sides now ([] if not): the judge asks, confidence is flat over ``stall_rounds``, the key
    controversy repeats (``controversy_similarity``: cosine of the two ``controversies``, or None to compare their
    words), or too little new evidence came in."""
    if len(state.switches) >= settings.max_switches or not state.rulings:
        return []
    reasons = []
    rulings = state.rulings
    if rulings[-1].ruling.switch_request:
        reasons.append("the judge asked for it")
    m = settings.stall_rounds
    if len(rulings) > m and abs(rulings[-1].ruling.confidence - rulings[-1 - m].ruling.confidence) < settings.stall_delta:
        reasons.append(f"confidence moved less than {settings.stall_delta} over {m} rounds")
    pair = controversies(state)
    if pair is not None:
        similarity = controversy_similarity if controversy_similarity is not None else overlap(*pair)
        if similarity >= settings.controversy_repeat_similarity:
            reasons.append("the key controversy repeats")
    if len(rulings) >= m:
        recent = [e for e in state.pool if e.round > rulings[-1].round - m]
        if len(recent) < settings.min_new_evidence:
            reasons.append(f"fewer than {settings.min_new_evidence} new passages over {m} rounds")
    return reasons


def overrule_reasons(ruling: JudgeRuling, state: TrialState, settings: DebateSettings) -> list[str]:
    """Why a "ready for verdict" is not accepted: too early, or a reason that names no argument or evidence."""
    if not ruling.ready_for_verdict:
        return []
    if state.round < settings.min_rounds:
        return [f"ready before the minimum of {settings.min_rounds} rounds"]
    if not names_argument(ruling.ready_reason, state):
        return ["the reason names no argument or evidence of the debate"]
    return []


def names_argument(reason: str, state: TrialState) -> bool:
    """Does ``reason`` name evidence of the pool, or share at least three content words with an argument?"""
    pool_ids = {e.id for e in state.pool}
    bare = [w for w in reason.replace(",", " ").split() if w.startswith("E") and w[1:].isdigit()]
    if any(c in pool_ids for c in cited_ids(reason) + bare):
        return True
    words = content_words(reason)
    return len(words) >= 3 and any(len(words & content_words(t.text)) >= 3 for t in state.turns)


def weigh(state: TrialState, settings: DebateSettings) -> list[WeighedEvidence]:
    """Every cited passage with its level's weight in the (editable) evidence hierarchy and who cited it."""
    hierarchy = [level.lower() for level in settings.evidence_hierarchy]
    weighed = []
    for entry in state.pool:
        citing = [t for t in state.turns if any(c.valid and c.evidence_id == entry.id for c in t.citations)]
        if not citing:
            continue
        level = entry.level.lower()
        rank = hierarchy.index(level) if level in hierarchy else len(hierarchy) - 1
        stances = {t.stance for t in citing}
        weighed.append(WeighedEvidence(
            id=entry.id, level=entry.level, weight=round((len(hierarchy) - rank) / len(hierarchy), 3),
            cited_by=tuple(dict.fromkeys(f"{t.role} (round {t.round})" for t in citing)),
            stance=stances.pop() if len(stances) == 1 else None,
        ))
    return sorted(weighed, key=lambda w: (-w.weight, int(w.id[1:])))


def trial_flags(state: TrialState) -> list[str]:
    """The quality guard's flags over the whole trial, counted by turn, and the passages that read like instructions."""
    counts: dict[str, int] = {}
    for turn in state.turns:
        for flag in turn.flags:
            key = flag.split(":")[0] if flag.startswith("rejected") else flag
            counts[key] = counts.get(key, 0) + 1
    flags = [f"{flag} ({n} turn{'s' if n > 1 else ''})" for flag, n in counts.items()]
    suspicious = [e.id for e in state.pool if e.injection]
    if suspicious:
        flags.append(f"passages that read like instructions: {', '.join(suspicious)}")
    return flags
