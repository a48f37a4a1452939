"""The label rule (core.court.scored): a label only from passages the verifier scored for it, the numbers rule after
it, confidence from the calibrated scores, and a reason held to its label."""

from __future__ import annotations

import math

import pytest

from courtroom_desktop.core.court.records import VerdictLabel
from courtroom_desktop.core.court.scored import (
    CLAIM_CALIBRATION,
    MIXED_MARGIN,
    RULE_PASSAGES,
    Scored,
    claim_confidence,
    contradicts,
    decide,
    numbered,
)
from courtroom_desktop.core.records import VERIFIER_BACKS, VerifierReading

SUP, REF, MIX, NEI = (VerdictLabel.supported, VerdictLabel.refuted, VerdictLabel.mixed, VerdictLabel.insufficient)


def read(s: float, r: float) -> VerifierReading:
    return VerifierReading(supports=s, refutes=r, neither=round(1 - s - r, 6))


def passages(*readings: VerifierReading, text: str = "Supplements changed the outcome.") -> list[Scored]:
    return [Scored(f"E{i}", text, r) for i, r in enumerate(readings, 1)]


@pytest.mark.parametrize(("readings", "label", "p", "backing"), [
    pytest.param([read(0.9, 0.05), read(0.1, 0.1)], SUP, 0.9, ("E1",), id="one-passage-supports"),
    pytest.param([read(0.1, 0.1), read(0.05, 0.8)], REF, 0.8, ("E2",), id="one-passage-refutes"),
    pytest.param([read(0.7, 0.2), read(0.2, 0.75)], MIX, 0.7, ("E2", "E1"), id="both-ways-close-is-mixed"),
    pytest.param([read(0.95, 0.02), read(0.3, 0.6)], SUP, 0.95, ("E1",), id="both-ways-far-apart-the-stronger"),
    pytest.param([read(0.4, 0.05), read(0.1, 0.1)], SUP, 0.4, ("E1",), id="backed-below-even-odds"),
    pytest.param([read(0.12, 0.1), read(0.1, 0.14)], NEI, 1 - 0.14, (), id="nothing-above-the-threshold"),
    pytest.param([read(0.3, 0.4)], REF, 0.4, ("E1",), id="refutes-above-supports"),
    pytest.param([read(0.6, 0.1), read(0.8, 0.1)], SUP, 0.8, ("E2", "E1"), id="backing-best-first"),
])
def test_the_label_rule(readings, label, p, backing):
    ruled = decide("Supplements changed the outcome.", passages(*readings))
    expected = claim_confidence(p) if label is not NEI else min(claim_confidence(p), 0.5)
    assert (ruled.label, ruled.confidence, ruled.backing) == (label, round(expected, 3), backing)


def test_confidence_is_the_calibrated_map_of_the_backing_probability():
    """Monotone in the backing probability, inside (0, 1), and the identity when the map is (1, 0)."""
    values = [claim_confidence(p / 10) for p in range(1, 10)]
    assert values == sorted(values) and 0 < values[0] < values[-1] < 1
    a, b = CLAIM_CALIBRATION
    assert claim_confidence(0.5) == pytest.approx(1 / (1 + math.exp(-b)))
    assert a > 0


def test_no_label_without_a_passage_scored_for_it():
    """Whatever the readings, a decided label rests on passages the verifier reads its way at more than even odds."""
    grid = [i / 10 for i in range(11)]
    for s in grid:
        for r in grid:
            if s + r > 1:
                continue
            for other in ([], [read(0.2, 0.2)], [read(0.55, 0.0)], [read(0.1, 0.12)]):
                ruled = decide("The drug works.", passages(read(s, r), *other))
                needs = {SUP: {"supports"}, REF: {"refutes"}, MIX: {"supports", "refutes"}}.get(ruled.label, set())
                by_id = {p.id: p.reading for p in passages(read(s, r), *other)}
                backed = {by_id[i].backs for i in ruled.backing
                          if by_id[i].probability(by_id[i].backs) > VERIFIER_BACKS[by_id[i].backs == "refutes"]}
                assert needs <= backed, (s, r, other, ruled)
                assert ruled.label != NEI or ruled.backing == ()


def test_no_passage_no_label():
    ruled = decide("The drug works.", [])
    assert ruled.label is NEI and ruled.backing == () and ruled.confidence <= 0.5


def test_mixed_margin_is_the_boundary():
    close = decide("x", passages(read(0.6, 0.0), read(0.0, 0.6 + MIXED_MARGIN - 0.01)))
    apart = decide("x", passages(read(0.6, 0.0), read(0.0, 0.6 + MIXED_MARGIN + 0.01)))
    assert max(VERIFIER_BACKS) < 0.6
    assert close.label is MIX and apart.label is REF


def test_the_numbers_rule_sets_a_decided_label_aside_and_names_the_quantity():
    claim = ("Our review found that vitamin D supplementation in pregnancy reduced the risk of low birth weight by "
             "40 percent")
    text = ("Vitamin D supplementation during pregnancy reduced the risk of low birth weight (RR 0.55) in a "
            "meta-analysis of seven trials.")
    ruled = decide(claim, [Scored("E1", text, read(0.93, 0.02))])
    assert ruled.label is NEI and ruled.demoted is SUP and ruled.missing == ("40 percent",)
    assert ruled.backing == () and ruled.confidence <= 0.5
    assert "40 percent" in ruled.reason("en") and "40 percent" in ruled.reason("zh")
    stated = decide(claim, [Scored("E1", text.replace("(RR 0.55)", "by 40%"), read(0.93, 0.02))])
    assert stated.label is SUP and stated.missing == ()


def test_the_numbers_rule_in_chinese():
    claim = "补充维生素D使低出生体重风险降低了百分之四十。"
    ruled = decide(claim, [Scored("E1", "孕期补充维生素D降低了低出生体重的风险。", read(0.9, 0.05))])
    assert ruled.label is NEI and ruled.missing
    kept = decide(claim, [Scored("E1", "孕期补充维生素D使低出生体重的风险降低40%。", read(0.9, 0.05))])
    assert kept.label is SUP


@pytest.mark.parametrize(("label", "reason", "refused"), [
    (SUP, "No evidence is provided to support the claim.", True),
    (SUP, "The passages do not mention the 40 percent figure.", True),
    (SUP, "The evidence refutes the claim: E2 found no effect.", True),
    (SUP, "E1 reports the reduction in a meta-analysis of seven trials.", False),
    (REF, "The trial in E2 confirms the claim.", True),
    (REF, "E2 found no reduction, contrary to the claim.", False),
    (NEI, "E1 clearly supports the claim.", True),
    (NEI, "No passage states the 40 percent figure.", False),
    (SUP, "没有证据支持该主张。", True),
    (SUP, "E1 报告了风险的下降。", False),
    (SUP, "E1 reports the effect and no evidence contradicts it.", False),
    (REF, "E2 found no effect; no evidence supports the claim.", False),
    (REF, "No evidence is provided.", True),
    (MIX, "There is no evidence either way.", True),
    (MIX, "", False),
])
def test_a_reason_that_contradicts_its_label_is_refused(label, reason, refused):
    assert (contradicts(label, reason) is not None) is refused


# ------------------------------------------------------------------------------------------- in a trial
@pytest.fixture(scope="module")
def verifier():
    from courtroom_desktop.core.verifier.scorer import ClaimVerifier

    return ClaimVerifier()


def run_trial(tmp_path, verifier, judge_label: str, claim: str, settings=None):
    import asyncio

    from courtroom_desktop.core.config import DebateSettings
    from courtroom_desktop.core.court import Court, TrialStore
    from courtroom_desktop.core.court.records import TrialSpec
    from courtroom_desktop.core.court.state import TrialState

    from .fakes import FakeRetriever, counsel, models, ruling, scripted, verdict

    store = TrialStore(tmp_path / "t.sqlite")
    judge = scripted([ruling(0.5), verdict(judge_label), verdict(judge_label)], "judge")
    court = Court(models(scripted([counsel] * 20, "prosecution"), scripted([counsel] * 20, "defense"), judge),
                  FakeRetriever(), store, settings or DebateSettings(min_rounds=1, max_rounds=1), verifier=verifier)
    trial_id = court.start(TrialSpec(claim=claim))

    async def drive():
        async for _ in court.run(trial_id):
            pass

    asyncio.run(drive())
    state = TrialState.from_events(trial_id, store.spec(trial_id), store.events(trial_id))
    store.close()
    run_trial.judge = judge  # type: ignore[attr-defined]  # the last trial's judge, for its calls
    return state


def test_every_admitted_passage_is_scored_and_the_verdict_is_the_rules(tmp_path, verifier):
    """A judge that calls a claim the passages refute 'supported': every passage carries the verifier's reading, the
    label and confidence are the rule's over them, and the judge's own label is kept and the change flagged."""
    claim = "Vitamin D supplements in pregnancy have no effect on birth weight."
    state = run_trial(tmp_path, verifier, "supported", claim)
    assert state.pool and all(e.verifier is not None for e in state.pool)
    ruled = decide(claim, [Scored(e.id, e.evidence.chunk.text, e.verifier) for e in state.pool])
    v = state.verdict
    assert (v.label, v.confidence) == (ruled.label, ruled.confidence)
    assert (v.evidence_label, v.evidence_confidence) == (ruled.label, ruled.confidence)
    if ruled.label != SUP:
        assert v.draft_label is SUP
        assert any(str(f.code) == "rule_scored_set" for f in v.quality_flags)
    assert ruled.backing, "the fixture's passages should decide this claim one way"


def test_with_scores_a_draft_against_the_record_is_not_sent_back(tmp_path, verifier):
    """The judge's rulings and assessments lean to support, its draft says refuted: without a verifier the record rule
    sends the draft back once; with one, the label rule sets the label and the judge is asked once. Break: send the
    draft back on the record rule's contradiction with a verifier too (the second scripted verdict is asked for)."""
    claim = "Vitamin D supplements in pregnancy raise birth weight."
    state = run_trial(tmp_path, verifier, "refuted", claim)
    assert run_trial.judge._next == 2  # one ruling, one verdict
    ruled = decide(claim, [Scored(e.id, e.evidence.chunk.text, e.verifier) for e in state.pool])
    assert state.verdict.label == ruled.label


def test_a_judge_that_agrees_with_the_scores_keeps_its_summary(tmp_path, verifier):
    claim = "Vitamin D supplements in pregnancy raise birth weight."
    first = run_trial(tmp_path, verifier, "supported", claim)
    ruled = decide(claim, [Scored(e.id, e.evidence.chunk.text, e.verifier) for e in first.pool])
    state = run_trial(tmp_path / "again", verifier, ruled.label.value, claim) if ruled.label != SUP else first
    assert state.verdict.label == ruled.label and state.verdict.draft_label is None


def test_a_labels_strength_is_never_a_retracted_passages():
    """Beside a weaker passage that is not retracted, a retracted one may be cited, but the label's confidence is the
    other's (break: the strength taken from the best backing passage, retracted or not)."""
    strong = VerifierReading(supports=0.95, refutes=0.02, neither=0.03)
    weak = VerifierReading(supports=0.6, refutes=0.1, neither=0.3)
    claim = "Iron cut anaemia by a third."
    with_retracted = decide(claim, numbered([claim, claim], [strong, weak], [True, False]))
    weak_alone = decide(claim, numbered([claim], [weak]))
    assert with_retracted.label == weak_alone.label and with_retracted.confidence == weak_alone.confidence


def test_only_the_searchs_first_passages_decide():
    """The rule reads the first RULE_PASSAGES passages (the search's best); one further down, however strongly it reads
    one way, is scored and shown but moves no label. Break: ``decide`` reading every passage (its ``[:top]`` taken
    out): the fourth passage's supports 0.9 makes the claim supported."""
    neutral = [read(0.05, 0.02)] * RULE_PASSAGES
    ruled = decide("The drug works.", passages(*neutral, read(0.9, 0.0)))
    assert ruled.label is NEI and ruled.backing == ()
    ruled = decide("The drug works.", passages(read(0.9, 0.0), *neutral))
    assert ruled.label is SUP and ruled.backing == ("E1",)
    assert decide("The drug works.", passages(*neutral, read(0.9, 0.0)), top=RULE_PASSAGES + 1).label is SUP


def test_each_side_backs_a_label_at_its_own_threshold():
    """VERIFIER_BACKS holds one threshold per side; a reading between the two backs the label of the lower one only
    (since 2026-12-08 supported's 0.30 is the lower, refuted's 0.35 the higher). Break: ``backs_at`` using the
    supports threshold for both sides."""
    low, high = sorted(VERIFIER_BACKS)
    between = (low + high) / 2
    assert low < high
    supports_lower = VERIFIER_BACKS[0] == low
    for_lower, for_higher = (read(between, 0.0), read(0.0, between)) if supports_lower else \
        (read(0.0, between), read(between, 0.0))
    assert decide("The drug works.", passages(for_lower)).label is (SUP if supports_lower else REF)
    assert decide("The drug works.", passages(for_higher)).label is NEI
