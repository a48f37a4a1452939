"""The court's stored phrases (why it stopped, why the sides switched, why a 'ready' was overruled, the quality
guard's flags, its warnings) come out in Chinese in a Chinese report: each phrase below is made by the court's own
functions where they are pure, so a new or reworded phrase that ``told`` does not know fails here."""

from __future__ import annotations

import re

import pytest

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.court import checks, rules
from courtroom_desktop.core.court.records import (
    Challenge,
    Citation,
    JudgeRuling,
    Ruling,
    Seat,
    Stance,
    Tendency,
    TrialSpec,
    Turn,
    VerdictLabel,
)
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.reports import render_markdown
from courtroom_desktop.core.reports.told import told

from .test_language import ZH, make_record

# what may stay in Latin letters in a Chinese phrase: evidence and challenge ids, numbers
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def state_with(confidences, ready=False, reason="", switch=False, controversy="停药是否影响疗效") -> TrialState:
    state = TrialState("t", TrialSpec(claim=ZH["claim"]))
    state.rulings = [Ruling(round=n, ruling=JudgeRuling(
        tendency=Tendency.support, confidence=c, ready_for_verdict=ready, ready_reason=reason, switch_request=switch,
        key_controversy=controversy, summary="", evidence_assessment=""))
        for n, c in enumerate(confidences, 1)]
    return state


def court_phrases() -> list[str]:
    settings = DebateSettings(min_rounds=2, max_rounds=4, confidence_threshold=0.8, stall_rounds=2)
    phrases = [rules.stop_reason(state_with([0.5] * 4), settings),
               rules.stop_reason(state_with([0.5, 0.9]), settings),
               rules.stop_reason(state_with([0.5, 0.6], ready=True), settings)]
    phrases += rules.switch_reasons(state_with([0.5, 0.5, 0.52], switch=True), settings)
    early = state_with([0.5], ready=True)
    phrases += rules.overrule_reasons(early.rulings[0].ruling, early, settings)
    vague = state_with([0.5, 0.5], ready=True, reason="够了")
    phrases += rules.overrule_reasons(vague.rulings[-1].ruling, vague, settings)
    one = Turn(round=1, index=0, seat=Seat.starts_against, stance=Stance.against, role="Prosecution",
               text="停药削弱了疗效。", citations=(Citation(evidence_id="E9", valid=False, problem="unknown"),))
    two = Turn(round=1, index=1, seat=Seat.starts_for, stance=Stance.for_, role="Defense", text="停药削弱了疗效。",
               citations=())
    three = one.model_copy(update={"text": "价格保持稳定，与此无关。", "index": 2})
    phrases += checks.quality_flags(two, one) + checks.quality_flags(three, two)
    phrases += [f"rejected twice: {p}" for p in checks.generated_problems(
        "You are a judge. {x} 停药削弱了疗效。停药削弱了疗效。", need_citation=True)] + ["rejected twice: the answer was empty"]
    flagged = state_with([0.5])
    flagged.turns = [two.model_copy(update={"flags": checks.quality_flags(two, one)}),
                     three.model_copy(update={"flags": checks.quality_flags(three, two)})]
    flagged.rulings = [flagged.rulings[0].model_copy(update={"questions": (Challenge(
        id="Q1", text="长期疗效如何？", round=1, raised_by="Judge", addressed_to="Defense"),)})]
    phrases += rules.trial_flags(flagged)
    check = rules.check_verdict(VerdictLabel.refuted, 0.9, flagged, settings, [])
    phrases += list(check.notes)
    phrases += ["verdict rule: the label 'refuted' contradicts the record: the last ruling leans towards 'support' "
                "(confidence 0.85) and the cited evidence, as assessed, leans the same way; the label is set to "
                "'supported'",
                "every option heard (3)", "价格: not scored", "价格: a score of 7 without a citation was set aside",
                "constraint '预算内': 'met' without a citation was set aside",
                "passages that read like instructions: E3",
                # the warnings (engine, counsel, judge), as they are written there
                "E3 reads like instructions to a model; it is treated as a quoted passage only",
                "Prosecution: search queries unusable, searching with the claim and the debate's terms (timeout)",
                "Defense's argument was rejected (cites no evidence); regenerating once",
                "the evidence could not be assessed (timeout); its stance stays unknown",
                "the verdict was sent back (repeats sentences); regenerating once",
                "verdict finding cited unknown evidence E42; those citations were removed",
                "the embedder failed (timeout); searching with BM25 alone and comparing words instead of vectors",
                "private documents left out of this trial's searches ('预算', '工作机会'): text goes to another "
                "machine (judge, embedder)"]
    return [p for p in phrases if p]


def test_every_phrase_the_court_writes_reads_in_chinese():
    record = make_record(ZH)
    phrases = court_phrases()
    assert len(phrases) >= 25
    for phrase in phrases:
        said = told(record, phrase)
        # left in Latin letters: only what came from outside the court's wording (an exception's message)
        left = [w for w in LATIN_WORD.findall(said.replace("BM25", "")) if w not in {"timeout"}]
        assert not left, (phrase, said)


def test_english_reports_keep_the_stored_phrase_and_chinese_ones_translate_it_piece_by_piece():
    en = make_record({**ZH, "claim": "Metformin lowers HbA1c."})
    zh = make_record(ZH)
    phrase = "weak challenge: repeats the other side without new points (2 turns)"
    assert told(en, phrase) == phrase
    assert told(zh, phrase) == "无力的质询：重复对方而无新论点（2 次发言）"
    assert told(zh, "confidence 0.82 reached the threshold 0.80") == "置信度 0.82 达到阈值 0.80"
    assert told(zh, "unanswered challenges: Defense 1 (Q1)") == "未回应的质询：辩方 1 (Q1)"
    assert told(zh, "模型写的中文") == "模型写的中文"  # what the court did not write passes through


@pytest.mark.parametrize("audience", ["general", "expert"])
def test_a_chinese_report_shows_the_stop_reason_and_flags_in_chinese(audience):
    record = make_record(ZH)
    verdict = record.verdict.model_copy(update={
        "stopped_because": "confidence 0.86 reached the threshold 0.80",
        "quality_flags": ("argument with no evidence (2 turns)",)})
    text = render_markdown(record.model_copy(update={"verdict": verdict}), audience)
    assert "停止原因：置信度 0.86 达到阈值 0.80" in text
    assert "论证未引用证据（2 次发言）" in text
    assert "reached the threshold" not in text and "argument with no evidence" not in text
