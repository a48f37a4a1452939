"""The court's reasons read in English and Chinese through one table (``core.reports.wording``): every code the court
can emit has a template in each language, the court's modules use no code the table lacks, each code reads with its
parameters filled in English and with no English left in Chinese, and a trial stored by an earlier version (plain
English strings where reasons now are) still reads."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.court import checks, rules
from courtroom_desktop.core.court.records import (
    EVENT_ADAPTER,
    Challenge,
    Citation,
    Code,
    JudgeRuling,
    Reason,
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
from courtroom_desktop.core.reports.wording import LANGUAGES, TEMPLATES, TERM_KEYS, say_reason, say_reasons

from .test_language import ZH, make_record

COURT = Path(__file__).resolve().parents[2] / "courtroom_desktop" / "core" / "court"
# what may stay in Latin letters in a Chinese reason: evidence and challenge ids, numbers, BM25
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")

# a value for each parameter the templates name: numbers, ids, Chinese text where the text is not the court's (a
# model's, an exception's, an option's), English terms where the Chinese wording must name them in Chinese
NUMBERS = {"rounds": 4, "options": 3, "passages": 2, "turns": 2, "count": 2, "n": 2, "more": 2, "score": 7,
           "confidence": 0.85, "threshold": 0.8, "delta": 0.05, "cap": 0.5, "evidence_confidence": 0.3, "limit": 0.3,
           "moved": 0.03, "similarity": 0.93}
TEXTS = {"text": "模型写的中文", "quote": "糖化血红蛋白下降", "criterion": "价格", "constraint": "预算内", "option": "搬到里斯本",
         "documents": "'预算', '工作机会'", "ids": "E3, E5", "id": "E3", "roles": "judge, embedder",
         "values": "0.50, 0.52, 0.53", "controversy": "停药是否影响疗效"}
TERMS = {"label": "refuted", "proposed": "supported", "leans": "support", "record_label": "supported",
         "status": "met", "role": "Prosecution", "side": "Defense", "evidence_label": "supported"}
NUMBERS.update(novelty=0.12, minimum=0.2)  # a passage turned away (turned_away_not_novel)
NUMBERS.update(round=1)  # an argument copied (problem_copies)
TERMS["claim_is"] = "false"  # a turn on the wrong side (problem_wrong_side)
TEXTS["like"] = "E4"
TEXTS["why"] = "核验模型认为 E2 反驳该主张（概率 0.81）"  # the label rule's reason, in the claim's language
NESTED = Reason.of(Code.problem_no_citation)
PROBLEMS = (Reason.of(Code.cite_not_in_pool, id="E9"), Reason.of(Code.problem_argument, problem=NESTED))


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def sample(code: str) -> Reason:
    """A reason of ``code`` with every parameter its English template names."""
    params: dict = {}
    for name in fields(TEMPLATES["en"][code]) - {"more_text"}:
        if name.endswith("_s"):
            continue
        if name == "problem":  # a warning's problem is an exception's message; a flag's is a reason
            params[name] = "连接超时" if code.startswith("warning_") else NESTED
        elif name == "flag":
            params[name] = Reason.of(Code.flag_weak_challenge)
        elif name == "problems":
            params[name] = PROBLEMS
        elif name in NUMBERS:
            params[name] = NUMBERS[name]
        elif name in TERMS:
            params[name] = TERMS[name]
        else:
            params[name] = TEXTS[name]
    if code == Code.warning_private_left_out:
        params["more"] = 2
    return Reason(code=code, params=params)


def test_the_table_words_every_code_and_only_those_in_every_language():
    codes = {code.value for code in Code}
    for language in LANGUAGES:
        assert set(TEMPLATES[language]) == codes, language


def test_the_court_uses_no_code_the_table_lacks_and_writes_no_sentence_where_a_reason_goes():
    used: set[str] = set()
    for path in COURT.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        used.update(re.findall(r"\bCode\.(\w+)", source))
        if path.name != "reasons.py":  # a reason is made from a Code, never from a string of its own
            assert not re.search(r"Reason\(\s*code\s*=\s*[\"']", source), path.name
            assert not re.search(r"TrialWarning\([^)]*\bmessage\s*=", source), path.name
    assert len(used) > 40
    members = set(Code.__members__)
    assert used <= members, used - members
    for language in LANGUAGES:
        assert {Code[name].value for name in used} <= set(TEMPLATES[language]), language


@pytest.mark.parametrize("code", [code.value for code in Code])
def test_every_code_reads_with_its_parameters_in_english_and_without_english_in_chinese(code):
    reason = sample(code)
    english = say_reason(reason, "en")
    assert english and "{" not in english, english
    for name, value in reason.params.items():
        if isinstance(value, Reason):
            shown = [say_reason(value, "en")]
        elif isinstance(value, tuple):
            shown = [say_reason(v, "en") for v in value]
        elif isinstance(value, float):
            shown = [f"{value:.2f}"] if f"{value:.2f}" in english else [str(value)]
        else:
            shown = [str(value)]
        assert all(s in english for s in shown), (name, shown, english)
    chinese = say_reason(reason, "zh")
    assert chinese and "{" not in chinese, chinese
    left = LATIN_WORD.findall(chinese.replace("BM25", ""))
    assert not left, (code, chinese)
    for name, value in reason.params.items():
        if name in TERM_KEYS or name in ("roles", "more") or not isinstance(value, str | int | float):
            continue
        assert (f"{value:.2f}" if isinstance(value, float) else str(value)) in chinese, (name, chinese)


def state_with(confidences, ready=False, reason="", switch=False, controversy="停药是否影响疗效") -> TrialState:
    state = TrialState("t", TrialSpec(claim=ZH["claim"]))
    state.rulings = [Ruling(round=n, ruling=JudgeRuling(
        tendency=Tendency.support, confidence=c, ready_for_verdict=ready, ready_reason=reason, switch_request=switch,
        key_controversy=controversy, summary="", evidence_assessment=""))
        for n, c in enumerate(confidences, 1)]
    return state


def court_reasons() -> list[Reason]:
    """Reasons made by the court's own pure functions (rules, checks), as a trial would store them."""
    settings = DebateSettings(min_rounds=2, max_rounds=4, confidence_threshold=0.8, stall_rounds=2)
    made = [rules.stop_reason(state_with([0.5] * 4), settings), rules.stop_reason(state_with([0.5, 0.9]), settings),
            rules.stop_reason(state_with([0.5, 0.6], ready=True), settings)]
    made += rules.switch_reasons(state_with([0.5, 0.5, 0.52], switch=True), settings)
    early = state_with([0.5], ready=True)
    made += rules.overrule_reasons(early.rulings[0].ruling, early, settings)
    vague = state_with([0.5, 0.5], ready=True, reason="够了")
    made += rules.overrule_reasons(vague.rulings[-1].ruling, vague, settings)
    sure = state_with([0.5, 0.95]).rulings[-1].ruling  # round 2's ruling at the threshold, naming nothing
    made += rules.overrule_reasons(sure, state_with([0.5]), settings)
    one = Turn(round=1, index=0, seat=Seat.starts_against, stance=Stance.against, role="Prosecution",
               text="停药削弱了疗效。", citations=(Citation(evidence_id="E9", valid=False,
                                                          problem=Reason.of(Code.cite_not_in_pool, id="E9")),))
    two = Turn(round=1, index=1, seat=Seat.starts_for, stance=Stance.for_, role="Defense", text="停药削弱了疗效。")
    three = one.model_copy(update={"text": "价格保持稳定，与此无关。", "index": 2})
    made += checks.quality_flags(two, one) + checks.quality_flags(three, two)
    made += [Reason.of(Code.flag_rejected_twice, problem=p) for p in checks.generated_problems(
        "You are a judge. {x} 停药削弱了疗效。停药削弱了疗效。", need_citation=True)]
    made.append(checks.check_quotes([("E1", "一段并不存在的引文内容")], {"E1": "原文"})[0].problem)
    flagged = state_with([0.5])
    flagged.turns = [two.model_copy(update={"flags": (*checks.quality_flags(two, one),
                                                      Reason.of(Code.flag_rejected_twice, problem=made[-1]))}),
                     three.model_copy(update={"flags": tuple(checks.quality_flags(three, two))})]
    flagged.rulings = [flagged.rulings[0].model_copy(update={"questions": (Challenge(
        id="Q1", text="长期疗效如何？", round=1, raised_by="Judge", addressed_to="Defense"),)})]
    made += rules.trial_flags(flagged)
    made += rules.check_verdict(VerdictLabel.refuted, 0.9, flagged, settings, []).notes
    return [r for r in made if r is not None]


def test_the_reasons_the_court_makes_read_in_chinese():
    made = court_reasons()
    assert len(made) >= 15 and len({r.code for r in made}) >= 15
    for reason in made:
        said = say_reason(reason, "zh")
        assert not LATIN_WORD.findall(said), (reason, said)
    assert say_reason(rules.trial_flags(TrialState("t", TrialSpec(claim="x"), turns=[
        Turn(round=1, index=n, seat=Seat.starts_for, stance=Stance.for_, role="Defense", text="x",
             flags=(Reason.of(Code.flag_weak_challenge),)) for n in range(2)]))[0], "zh") == "无力的质询：重复对方而无新论点（2 次发言）"


def test_english_reads_as_the_court_wrote_it_before_and_chinese_in_chinese():
    turns = Reason.of(Code.flag_turns, flag=Reason.of(Code.flag_weak_challenge), turns=2)
    assert say_reason(turns, "en") == "weak challenge: repeats the other side without new points (2 turns)"
    assert say_reason(Reason.of(Code.flag_turns, flag=Reason.of(Code.flag_no_evidence), turns=1), "en") == \
        "argument with no evidence (1 turn)"
    stop = Reason.of(Code.stop_confidence, confidence=0.82, threshold=0.8)
    assert say_reason(stop, "en") == "confidence 0.82 reached the threshold 0.80"
    assert say_reason(stop, "zh") == "置信度 0.82 达到阈值 0.80"
    unanswered = Reason.of(Code.flag_unanswered, side="Defense", count=1, ids="Q1")
    assert say_reason(unanswered, "en") == "unanswered challenges: Defense 1 (Q1)"
    assert say_reason(unanswered, "zh") == "未回应的质询：辩方 1 (Q1)"
    assert say_reason(Reason.text("模型写的中文"), "zh") == "模型写的中文"  # what the court did not write stays
    assert say_reason(stop, "ja") == say_reason(stop, "en")  # a language without a table reads in English
    assert say_reasons([Reason.of(Code.switch_judge_asked), Reason.of(Code.switch_controversy_repeats)], "zh") == \
        "法官要求换边；核心争议重复出现"
    # a code from a newer version reads as its code and parameters, never as an error
    assert say_reason(Reason(code="from_the_future", params={"n": 3}), "en") == "from_the_future (n: 3)"


@pytest.mark.parametrize("audience", ["general", "expert"])
def test_a_chinese_report_shows_the_stop_reason_and_flags_in_chinese(audience):
    record = make_record(ZH)
    verdict = record.verdict.model_copy(update={
        "stopped_because": Reason.of(Code.stop_confidence, confidence=0.86, threshold=0.8),
        "quality_flags": (Reason.of(Code.flag_turns, flag=Reason.of(Code.flag_no_evidence), turns=2),)})
    text = render_markdown(record.model_copy(update={"verdict": verdict}), audience)
    assert "停止原因：置信度 0.86 达到阈值 0.80" in text
    assert "论证未引用证据（2 次发言）" in text
    assert "reached the threshold" not in text and "argument with no evidence" not in text


# events as version 0.1 wrote them: English sentences where reasons now are
OLD_EVENTS = [
    {"kind": "warning", "trial_id": "t", "seq": 5, "at": 1.0, "round": 1,
     "message": "Defense's argument was rejected (cites no evidence); regenerating once"},
    {"kind": "switch", "trial_id": "t", "seq": 9, "at": 2.0, "round": 2,
     "reasons": ["the judge asked for it", "the key controversy repeats"], "assignments": {"A": "for", "B": "against"}},
    {"kind": "turn_finished", "trial_id": "t", "seq": 6, "at": 1.5, "turn": {
        "round": 1, "index": 1, "seat": "B", "stance": "for", "role": "Defense", "text": "It works [E9].",
        "citations": [{"evidence_id": "E9", "quote": "", "valid": False, "problem": "E9 is not in the evidence pool"},
                      {"evidence_id": "E1", "quote": "", "valid": True, "problem": ""}],
        "flags": ["rejected twice: E9 is not in the evidence pool", "argument with no evidence"]}},
    {"kind": "ruling", "trial_id": "t", "seq": 7, "at": 1.6, "ruling": {
        "round": 1, "overruled": ["ready before the minimum of 2 rounds"], "ruling": {
            "tendency": "support", "confidence": 0.6, "key_controversy": "dose", "summary": "so far"}}},
    {"kind": "verdict", "trial_id": "t", "seq": 12, "at": 3.0, "verdict": {
        "label": "supported", "confidence": 0.8, "stopped_because": "round limit (2)",
        "quality_flags": ["argument with no evidence (2 turns)", "rejected twice (1 turn)"]}},
    {"kind": "verdict", "trial_id": "t", "seq": 13, "at": 3.0, "verdict": {
        "label": "mixed", "confidence": 0.5, "stopped_because": ""}},
]


def test_a_trial_stored_by_an_earlier_version_reads_with_its_phrases_as_stored():
    warning, switch, turn, ruling, verdict, unstopped = (EVENT_ADAPTER.validate_json(json.dumps(e)) for e in OLD_EVENTS)
    assert warning.reason == Reason.text(OLD_EVENTS[0]["message"])
    assert say_reason(warning.reason, "en") == say_reason(warning.reason, "zh") == OLD_EVENTS[0]["message"]
    assert say_reasons(switch.reasons, "en") == "the judge asked for it; the key controversy repeats"
    assert [say_reason(f, "en") for f in turn.turn.flags] == OLD_EVENTS[2]["turn"]["flags"]
    assert say_reason(turn.turn.citations[0].problem, "en") == "E9 is not in the evidence pool"
    assert turn.turn.citations[1].problem is None
    assert say_reason(ruling.ruling.overruled[0], "en") == "ready before the minimum of 2 rounds"
    assert say_reason(verdict.verdict.stopped_because, "en") == "round limit (2)"
    assert [say_reason(f, "en") for f in verdict.verdict.quality_flags] == OLD_EVENTS[4]["verdict"]["quality_flags"]
    assert unstopped.verdict.stopped_because is None
    # written back, they are reasons of code 'text' and read the same again
    again = EVENT_ADAPTER.validate_json(EVENT_ADAPTER.dump_json(warning))
    assert again == warning and json.loads(EVENT_ADAPTER.dump_json(warning))["reason"]["code"] == "text"
    # an old turn's 'rejected twice' flags still count as one in the trial's flags
    state = TrialState("t", TrialSpec(claim="x"), turns=[turn.turn])
    assert [say_reason(f, "en") for f in rules.trial_flags(state)] == ["rejected twice (1 turn)",
                                                                       "argument with no evidence (1 turn)"]
