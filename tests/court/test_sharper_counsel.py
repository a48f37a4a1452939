"""Sharper counsel (issue 29): a turn that copies an earlier argument or argues the other side's case is sent back
once with the reason named, then cut and flagged; no cut ends in mid-word; a side's own new passages come first in its
prompt; every argument ends with a question tracked as a challenge; the quality guard scores each side and the trial.

Each test names, in its docstring, the break of the rule that makes it fail (each was tried)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.court import Court, TrialSpec, TrialStore
from courtroom_desktop.core.court.checks import (
    copied,
    copy_share,
    cut_copies,
    cut_generated,
    end_cleanly,
    quality_scores,
    trim_repetition,
)
from courtroom_desktop.core.court.reasons import Code
from courtroom_desktop.core.court.records import Challenge, Citation, Reason, Seat, Stance, Turn
from courtroom_desktop.core.court.stance import stance_of, wrong_side
from courtroom_desktop.core.llm import ScriptedChatModel
from courtroom_desktop.core.reports.wording import quality_score
from courtroom_desktop.core.reports.wording import say_reason as said

from .fakes import FakeRetriever, counsel, models, passage_evidence, pool_ids, ruling, scripted, verdict

CLAIM = "Vitamin D supplements in pregnancy raise birth weight."
DATA = Path(__file__).parent / "data"
QUERIES = json.dumps({"queries": ["vitamin D birth weight", "randomised trial vitamin D"]})
PROSECUTION = ("The randomised trial [E1] enrolled 2,000 women in a single country, so its 60 g gain cannot speak for "
               "every pregnancy. Its dates and its dosing leave the size of any effect in doubt, and a second trial "
               "found nothing at all. Can the Defense name a second trial that found the same gain?")


@pytest.fixture
def store(tmp_path):
    s = TrialStore(tmp_path / "trials.sqlite")
    yield s
    s.close()


def court(store, prosecution, defense, judge_replies=None, settings=None, retriever=None):
    settings = settings or DebateSettings(min_rounds=1, max_rounds=1, confidence_threshold=0.8, max_switches=0)
    judge = scripted(judge_replies or [ruling(0.6), verdict()], "judge")
    return Court(models(prosecution, defense, judge), retriever or FakeRetriever(), store, settings)


async def run(c: Court) -> list:
    return [e async for e in c.run(c.start(TrialSpec(claim=CLAIM)))]


def turns_of(events) -> list[Turn]:
    return [e.turn for e in events if e.kind == "turn_finished"]


def argument_calls(model: ScriptedChatModel) -> list:
    return [m for m, kind in zip(model.calls, model.kinds, strict=True) if kind == "complete"]


# ---------------------------------------------------------------- copies
@pytest.mark.asyncio
async def test_a_copy_of_the_other_side_is_sent_back_with_the_reason_then_cut_and_flagged(store):
    """Break: drop the copy check from counsel._sides_problems (no warning, no retry, the copy stands); or drop
    cut_copies after the second draft (the copied sentences stay in the record)."""
    own = "Unlike that, the cohort [E2] followed 8,000 mothers and found the same link."
    prosecution = scripted([QUERIES, PROSECUTION, *[counsel] * 10], "prosecution")
    defense = scripted([QUERIES, PROSECUTION, PROSECUTION + " " + own, *[counsel] * 10], "defense")
    events = await run(court(store, prosecution, defense))
    first, second = turns_of(events)[:2]
    assert first.text == PROSECUTION and not first.regenerated
    warning = next(e for e in events if e.kind == "warning" and e.reason.code == Code.warning_argument_rejected)
    assert "copies the Prosecution's argument of round 1" in said(warning.reason)
    retry = argument_calls(defense)[1][-1]["content"]
    assert "rejected: the argument copies the Prosecution's argument of round 1 instead of answering it" in retry
    # the second draft copies again: what it copied is cut, its own sentence stays, and the turn is flagged
    assert second.regenerated and second.text == own
    assert any(f.code == Code.flag_rejected_twice and "copies the Prosecution's argument" in said(f)
               for f in second.flags)
    assert "copies the Prosecution" in said(next(f for f in second.flags if f.code == Code.flag_rejected_twice))
    assert [c.evidence_id for c in second.citations] == ["E2"]
    # the copied question is no challenge of the Defense's
    assert not second.challenges


@pytest.mark.asyncio
async def test_a_turn_that_copies_only_itself_is_withdrawn_and_its_own_earlier_argument_counts():
    """A side that repeats its own earlier argument copies too (counsel compares with every earlier turn), and the
    cut leaves nothing (the turn then stands as withdrawn). Break: COPY_SHARE above 1."""
    earlier = [PROSECUTION, "The cohort [E2] and the trial [E1] agree that supplements raise birth weight."]
    again = "The cohort [E2] and the trial [E1] agree that supplements raise birth weight!"
    assert copied(again, earlier) == 1
    assert cut_copies(again, earlier) == ""


def test_copies_are_found_word_for_word_or_near_in_english_and_chinese_and_answers_are_not():
    """Break: raise COPY_SHARE above 1 (nothing is a copy) or lower it to 0.1 (an answer that quotes a phrase of the
    other side is a copy)."""
    near = PROSECUTION.replace("single country", "single nation").replace("Can the Defense", "Could the Defense")
    answer = ("The Prosecution says the trial [E1] enrolled 2,000 women in a single country, but the cohort [E2] "
              "followed 8,000 mothers in four countries over ten years and found the same gain.")
    assert copy_share(PROSECUTION, PROSECUTION) == 1.0 and copy_share(near, PROSECUTION) > 0.5
    assert copy_share(answer, PROSECUTION) < 0.5 and copied(answer, [PROSECUTION]) is None
    zh = "随机试验[E1]只在一个国家招募了两千名孕妇，其六十克的增重不能代表所有妊娠。第二项试验什么也没有发现。"
    zh_near = "随机试验[E2]只在一个国家招募了两千名孕妇，其六十克的增重不能代表所有的妊娠。第二项试验什么都没有发现！"
    zh_answer = "控方说试验[E1]只在一个国家进行，但队列研究[E2]在四个国家随访了八千名母亲，发现了同样的增重。"
    assert copy_share(zh_near, zh) > 0.5 and copied(zh_near, [zh]) == 0
    assert copy_share(zh_answer, zh) < 0.5


# ---------------------------------------------------------------- the wrong side
def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines() if line]


def _score(name: str) -> tuple[float, float]:
    rows = _rows(name)
    detected = correct = stanced = 0
    for row in rows:
        found = stance_of(row["text"])
        want = None if row["stance"] == "none" else row["stance"]
        detected += found is not None
        stanced += want is not None
        correct += found is not None and found.value == want
    return correct / max(detected, 1), correct / max(stanced, 1)


@pytest.mark.parametrize(("name", "precision_floor", "recall_floor"), [("stance_tuning", 0.97, 0.97),
                                                                       ("stance_heldout", 0.9, 0.85)])
def test_stance_rule_on_examples_written_apart(name, precision_floor, recall_floor):
    """stance_tuning.jsonl tuned the rule; stance_heldout.jsonl was written (and committed) before it and scored
    once: precision 0.949, recall 0.902 (39 read, 41 with a stance). Break: drop the negation rule (NEGATION_EN/ZH:
    'does not support the claim' reads as support) or the reported-speech rule ('the Defense says the claim is
    true, but ...' reads as support)."""
    precision, recall = _score(name)
    assert precision >= precision_floor and recall >= recall_floor, (precision, recall)


@pytest.mark.parametrize(("text", "stance"), [
    ("The evidence is overwhelmingly in favor of antiretroviral therapy for tuberculosis [E1].", Stance.for_),
    ("The evidence does not support the claim [E3].", Stance.against),
    ("The Defense says the claim is true, but [E2] is a chart review of 140 patients.", Stance.against),
    ("证据有力地支持该主张[E1]。", Stance.for_),
    ("证据并不支持该主张[E3]。", Stance.against),
    ("辩方称证据支持该主张，但[E2]受季节混杂。", Stance.against),
    ("[E1] enrolled 2,000 women between 2004 and 2009.", None),
    ("Can the Defense show that the claim is true?", None),
])
def test_stance_of_arguments_in_english_and_chinese(text, stance):
    assert stance_of(text) == stance


@pytest.mark.asyncio
async def test_the_prosecution_arguing_for_the_claim_is_sent_back_then_cut_and_flagged(store):
    """The seen failure: the Prosecution, arguing the claim false, wrote 'the evidence is overwhelmingly in favor of
    ...'. Break: drop the wrong-side check from counsel._sides_problems (the turn stands unflagged), or drop
    cut_wrong_side (the sentence stays in the record)."""
    for_it = "The evidence is overwhelmingly in favor of vitamin D raising birth weight [E1]."
    own = "Yet the dosing in [E1] was never compared with sunlight exposure, a confounder."
    prosecution = scripted([QUERIES, for_it, f"{for_it} {own}", *[counsel] * 10], "prosecution")
    defense = scripted([QUERIES, *[counsel] * 10], "defense")
    events = await run(court(store, prosecution, defense))
    first = turns_of(events)[0]
    retry = argument_calls(prosecution)[1][-1]["content"]
    assert "argues the other side's case: the Prosecution argues that the claim is false" in retry
    assert first.regenerated and first.text == own
    flag = next(f for f in first.flags if f.code == Code.flag_rejected_twice)
    assert flag.params["problem"].params["problem"].code == Code.problem_wrong_side
    assert "为对方立场辩护：控方应论证主张不成立" in said(flag, "zh")
    # the Defense arguing for the claim is its own side
    assert not wrong_side(for_it, Stance.for_)


# ---------------------------------------------------------------- no cut in mid-word
@pytest.mark.parametrize(("text", "cut_off", "expected"), [
    ("The trial [E1] raised weight. In fact it is strong. The evidence is so st [E1] [E2]", True,
     "The trial [E1] raised weight. In fact it is strong. [E2]"),
    ("The trial [E1] raised weight. In fact it is strong. The evidence is so st", False,
     "The trial [E1] raised weight. In fact it is strong."),
    ("The evidence is so st [E1]", True, "The evidence is so… [E1]"),
    ("The trial shows it [E2]", False, "The trial shows it [E2]"),
    ("The claim is false", False, "The claim is false"),
    ("试验表明补充剂有效[E1]。证据非常充", True, "试验表明补充剂有效[E1]。"),
    ("证据非常充分地说明了这一", True, "证据非常充分地说明了这一…"),
])
def test_a_cut_ends_at_a_sentence_or_a_word_never_in_mid_word(text, cut_off, expected):
    """Break: return ``text`` unchanged from end_cleanly (the fragment 'so st' stays)."""
    assert end_cleanly(text, cut_off=cut_off) == expected


def test_trim_and_cut_never_leave_half_a_word():
    """Break: trim_repetition's cap cuts at max_chars (its old fallback): 'unconvi' is left."""
    long = "Unconvincing " * 300
    trimmed = trim_repetition(long.replace("Unconvincing Unconvincing", "Unconvincing evidence"), max_chars=101)
    assert trimmed.endswith("…") and all(w in {"Unconvincing", "evidence", "Unconvincing…", "evidence…"}
                                          for w in trimmed.split())
    zh = trim_repetition("证据不足以支持这一说法，因为样本量太小并且存在混杂因素" * 40, max_chars=50)
    assert zh.endswith("…") and len(zh) <= 51
    # cut_generated keeps whole sentences (the echoed one goes whole)
    assert cut_generated("You are an AI assistant. The trial [E1] was small.") == "The trial [E1] was small."


@pytest.mark.asyncio
async def test_an_argument_stopped_by_the_token_limit_ends_on_a_whole_sentence_in_free_text_and_json(store):
    """The seen fragment "The evidence is so st [E1]". Break: drop end_cleanly from counsel._argue."""
    cut = "The trial [E1] enrolled only 2,000 women in one country. The evidence is so st"
    prosecution = ScriptedChatModel([QUERIES, cut, *[counsel] * 10], role="prosecution",
                                    max_tokens=len(cut.split()))
    defense = scripted([QUERIES, *[counsel] * 10], "defense")
    first = turns_of(await run(court(store, prosecution, defense)))[0]
    assert first.text == "The trial [E1] enrolled only 2,000 women in one country."

    long = ("The cohort [E2] followed mothers for years and found lower weight with low vitamin D. " * 14
            + "The evidence is so strong that")[:1199] + " stro"

    def argue(messages):
        if "queries" in messages[0]["content"] and "JSON" in messages[0]["content"]:
            return QUERIES
        return json.dumps({"citations": ["E1"], "argument": long + " more words", "challenge": ""})

    settings = DebateSettings(min_rounds=1, max_rounds=1, argument_format="json", max_switches=0)
    events = await run(court(store, scripted([argue] * 10, "prosecution"), scripted([argue] * 10, "defense"),
                             settings=settings))
    text = turns_of(events)[0].text
    assert text.endswith("vitamin D. [E1]") and " stro" not in text


# ---------------------------------------------------------------- the prompt: own passages first, limits, a question
class TwoSearches:
    """The Prosecution's search finds passages 0 and 1; the Defense's, 2 and 3 (the trial's opening search, for the
    claim alone, finds nothing more)."""

    def __init__(self):
        self.calls = 0

    async def asearch(self, queries, k=None, scope=None):
        if len(queries) == 1:
            return []
        self.calls += 1
        indexes = (0, 1) if self.calls % 2 else (2, 3)
        return [passage_evidence(i, queries[0], score=10.0 - i) for i in indexes]


@pytest.mark.asyncio
async def test_a_sides_own_new_passages_come_first_in_its_prompt(store):
    """Break: leave ``own_new`` out of the preferred passages in prompts.argument_messages (the Prosecution's
    passages, or the higher retrieval scores, come first)."""
    prosecution = scripted([QUERIES, *[counsel] * 10], "prosecution")
    defense = scripted([QUERIES, *[counsel] * 10], "defense")
    defense.default_max_tokens = 400  # room in its 8,192 tokens for the whole pool
    events = await run(court(store, prosecution, defense, retriever=TwoSearches()))
    defense_turn = turns_of(events)[1]
    assert defense_turn.evidence_added == ("E3", "E4")
    shown = pool_ids(argument_calls(defense)[0])
    assert shown == ["E3", "E4", "E1", "E2"]  # its own, then those the other side's last turn brought


@pytest.mark.asyncio
async def test_every_argument_is_asked_for_a_question_and_its_question_is_tracked(store):
    """Break: drop the question from the prompt's last line or COUNSEL_CRAFT; or drop the fallback to the text's
    questions for a structured argument with an empty challenge; or _as_question (a challenge without '?')."""
    prosecution = scripted([QUERIES, PROSECUTION, *[counsel] * 10], "prosecution")
    defense = scripted([QUERIES, *[counsel] * 10], "defense")
    events = await run(court(store, prosecution, defense))
    messages = argument_calls(prosecution)[0]
    assert "end with one pointed question for the other side" in messages[-1]["content"]
    system = messages[0]["content"]
    assert "Attack the limits of the other side's evidence (design, sample size, confounders, dates)" in system
    assert "Ground each point in a cited passage" in system and "End with one pointed question" in system
    first = turns_of(events)[0]
    assert [(c.id, c.text, c.addressed_to) for c in first.challenges] == [
        ("Q1", "Can the Defense name a second trial that found the same gain?", "Defense")]

    def argue(challenge, argument):
        def reply(messages):
            if "queries" in messages[0]["content"] and "JSON" in messages[0]["content"]:
                return QUERIES
            assert "One pointed question" in messages[0]["content"]  # the schema asks for it too
            return json.dumps({"citations": ["E1"], "argument": argument, "challenge": challenge})
        return reply

    settings = DebateSettings(min_rounds=1, max_rounds=1, argument_format="json", max_switches=0)
    p = scripted([argue("Was the trial [E1] blinded to the dosing", "The trial [E1] was small.")] * 4, "prosecution")
    d = scripted([argue("", "The cohort [E2] is large. Why does the Prosecution ignore its 8,000 mothers in four countries?")] * 4,
                 "defense")
    events = await run(court(store, p, d, settings=settings))
    first, second = turns_of(events)
    assert [c.text for c in first.challenges] == ["Was the trial [E1] blinded to the dosing?"]
    assert [c.text for c in second.challenges] == ["Why does the Prosecution ignore its 8,000 mothers in four countries?"]


# ---------------------------------------------------------------- the quality guard's scores
def _turn(role, index, cited=True, flags=(), question=True):
    stance = Stance.against if role == "Prosecution" else Stance.for_
    return Turn(round=index // 2 + 1, index=index, seat=Seat.starts_against if role == "Prosecution" else
                Seat.starts_for, stance=stance, role=role, text="...",
                citations=(Citation(evidence_id="E1", valid=cited),),
                flags=tuple(Reason.of(f) for f in flags),
                challenges=(Challenge(id=f"Q{index}", text="Why?", round=1, raised_by=role, addressed_to="x"),)
                if question else ())


def test_quality_scores_per_side_and_per_trial_with_their_components():
    """Break: score every side from all the turns (not its own), or leave a component out of the score."""
    turns = [_turn("Prosecution", 0), _turn("Defense", 1, cited=False, flags=[Code.flag_no_evidence],
                                            question=False),
             _turn("Prosecution", 2, flags=[Code.flag_weak_challenge]),
             _turn("Defense", 3, flags=[Code.flag_parallel_monologue, Code.flag_rejected_twice])]
    prosecution, defense, trial = quality_scores(turns)
    assert (prosecution.side, prosecution.turns, prosecution.weak_challenge, prosecution.no_evidence) == \
        ("Prosecution", 2, 0.5, 0.0)
    assert prosecution.score == pytest.approx(1 - 0.2 * 0.5)
    assert (defense.no_evidence, defense.monologue, defense.rejected, defense.no_question) == (0.5, 0.5, 0.5, 0.5)
    assert defense.score == pytest.approx(1 - (0.3 + 0.2 + 0.2 + 0.1) * 0.5)
    assert trial.side == "trial" and trial.turns == 4
    assert trial.score == pytest.approx(1 - (0.3 * 0.25 + 0.2 * 0.25 + 0.2 * 0.25 + 0.2 * 0.25 + 0.1 * 0.25))
    assert quality_score(defense) == ("Defense 0.60 (2 turns; no evidence 50%, monologues 50%, rejected twice 50%, "
                                      "no question 50%)")
    assert quality_score(trial, "zh").startswith("全场 0.75 (4 次发言；")


@pytest.mark.asyncio
async def test_the_verdict_carries_the_scores(store):
    """Break: leave ``quality`` out of the Verdict in judge.verdict."""
    prosecution = scripted([QUERIES, PROSECUTION, *[counsel] * 10], "prosecution")
    defense = scripted([QUERIES, *[counsel] * 10], "defense")
    events = await run(court(store, prosecution, defense))
    quality = events[-1].verdict.quality
    assert [q.side for q in quality] == ["Prosecution", "Defense", "trial"]
    assert quality[0].no_evidence == 0.0 and quality[0].no_question == 0.0 and 0 < quality[-1].score <= 1


@pytest.mark.asyncio
async def test_the_scores_are_shown_in_the_window_and_the_reports(store):
    """Break: drop the 'Quality scores' list from ui.text.verdict_markdown or from html_writer's quality section."""
    from courtroom_desktop.core.reports import TrialRecord, render_html, render_markdown
    from courtroom_desktop.ui.text import verdict_markdown

    prosecution = scripted([QUERIES, PROSECUTION, *[counsel] * 10], "prosecution")
    defense = scripted([QUERIES, *[counsel] * 10], "defense")
    events = await run(court(store, prosecution, defense))
    verdict = events[-1].verdict
    lines = [quality_score(q) for q in verdict.quality]
    assert len(lines) == 3
    card = verdict_markdown(verdict, claim=CLAIM)
    assert "### Quality scores" in card and all(line in card.replace("\\", "") for line in lines)
    assert "### 质量评分" in verdict_markdown(verdict, claim=CLAIM, lang="zh")
    record = TrialRecord.from_store(store, events[0].trial_id)
    page, _ = render_html(record)
    assert "Quality scores</h3>" in page and all(line in page for line in lines)
    assert all(line in render_markdown(record) for line in lines)
