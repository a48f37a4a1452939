"""The record holds up whatever the model: assessed evidence stance, the verdict rule, generated-text checks, tracked
challenges and structured quotations, each with scripted models (docs/court.md)."""

from __future__ import annotations

import json

import pytest

from courtroom_desktop.core.config import DebateSettings, VerdictRule
from courtroom_desktop.core.court import Court, TrialSpec, TrialStore
from courtroom_desktop.core.court.checks import cut_generated, generated_problems, quote_in
from courtroom_desktop.core.court.records import Assessed, ChallengeStatus, VerdictLabel
from courtroom_desktop.core.reports.wording import say_reason as said

from .fakes import FakeRetriever, assess_all, counsel, models, pool_ids, ruling, scripted, verdict

CLAIM = "Vitamin D supplements in pregnancy raise birth weight."
SETTINGS = DebateSettings(min_rounds=2, max_rounds=2, confidence_threshold=0.8, max_switches=0)
LEAK = "} You are an AI assistant designed to support strategic planning and to answer with one JSON object."


@pytest.fixture
def store(tmp_path):
    s = TrialStore(tmp_path / "trials.sqlite")
    yield s
    s.close()


def court(store, judge, prosecution=None, defense=None, settings=SETTINGS, retriever=None, assessments=None):
    p = prosecution or scripted([counsel] * 40, "prosecution")
    d = defense or scripted([counsel] * 40, "defense")
    j = scripted(judge, "judge", assessments=assessments)
    c = Court(models(p, d, j), retriever or FakeRetriever(), store, settings)
    c.test_models = (p, d, j)
    return c


async def run(c: Court) -> list:
    return [e async for e in c.run(c.start(TrialSpec(claim=CLAIM)))]


def verdict_of(events):
    assert events[-1].kind == "verdict", [e for e in events if e.kind in ("error", "warning")]
    return events[-1].verdict


# ---------------------------------------------------------------- assessed stance

@pytest.mark.asyncio
async def test_a_passage_found_by_one_side_is_assessed_for_what_it_says(store):
    """The prosecution's first search finds the trial that supports the claim: it is assessed 'supports', and that,
    not the finder's side, is what the weighing, the basis and counsel's next prompt see."""
    c = court(store, [ruling(0.5), ruling(0.9), verdict(cite=("E1",))],
              assessments=assess_all("refutes", by_id={"E1": "supports"}))
    events = await run(c)
    pool = {e.entry.id: e.entry for e in events if e.kind == "evidence_added"}
    assessed = {a.evidence_id: a for e in events if e.kind == "evidence_assessed" for a in e.assessments}
    assert pool["E1"].found_by.value == "A" and pool["E1"].stance.value == "against"  # provenance kept
    assert assessed["E1"].stance == Assessed.supports and set(assessed) == set(pool)
    v = verdict_of(events)
    weighed = {w.id: w for w in v.evidence}
    assert weighed["E1"].assessed == Assessed.supports and weighed["E1"].relevance == 0.8
    assert any(row.supports for row in v.basis)
    # one short call for the round's new passages, before the ruling; counsel of round 2 see the stance
    kinds = [e.kind for e in events if e.kind in ("evidence_assessed", "ruling")]
    assert kinds[:2] == ["evidence_assessed", "ruling"] and kinds.count("ruling") == 2
    assert all(kinds[i + 1] == "ruling" for i, k in enumerate(kinds) if k == "evidence_assessed")
    round_two = c.test_models[0].calls[-1][-1]["content"]
    assert '<evidence id="E1"' in round_two and 'stance="supports"' in round_two.split('<evidence id="E1"')[1][:200]


@pytest.mark.asyncio
async def test_a_judge_that_cannot_assess_leaves_stances_unknown_with_a_warning(store):
    c = court(store, [ruling(0.5), ruling(0.9), verdict()], assessments="not json at all")
    events = await run(c)
    assert not [e for e in events if e.kind == "evidence_assessed"]
    assert any("could not be assessed" in said(e.reason) for e in events if e.kind == "warning")
    assert all(w.assessed is None for w in verdict_of(events).evidence)


# ---------------------------------------------------------------- the verdict rule

@pytest.mark.asyncio
async def test_a_verdict_that_contradicts_the_record_is_sent_back_then_set_by_the_rule(store):
    """The judge leans towards support at 0.9 and every cited passage supports the claim, yet it drafts
    'insufficient evidence' at confidence 1.0, twice."""
    draft = verdict(label="insufficient evidence", confidence=1.0)
    c = court(store, [ruling(0.6), ruling(0.9), draft, draft])
    v = verdict_of(await run(c))
    judge = c.test_models[2]
    second = judge.calls[-1][-1]["content"]
    assert "sent back" in second and "contradicts the record" in second  # the contradiction was named
    assert v.label == VerdictLabel.supported and v.confidence <= 0.9
    assert v.draft_label == VerdictLabel.insufficient and v.draft_confidence == 1.0 and v.corrected
    assert any(said(f).startswith("verdict rule:") and "set to 'supported'" in said(f) for f in v.quality_flags)


@pytest.mark.asyncio
async def test_a_redrafted_verdict_that_agrees_with_the_record_stands(store):
    c = court(store, [ruling(0.6), ruling(0.9), verdict(label="refuted"), verdict(label="supported", confidence=0.85)])
    v = verdict_of(await run(c))
    assert v.label == VerdictLabel.supported and v.confidence == 0.85 and not v.corrected
    assert not any(said(f).startswith("verdict rule:") for f in v.quality_flags)


@pytest.mark.asyncio
async def test_insufficient_evidence_cannot_carry_high_confidence(store):
    """Nothing in the record leans one way (the passages are assessed mixed), so 'insufficient evidence' is no
    contradiction; its confidence is capped."""
    c = court(store, [ruling(0.6, tendency="unclear"), ruling(0.7, tendency="unclear"),
                      verdict(label="insufficient evidence", confidence=0.95)], assessments=assess_all("mixed"))
    v = verdict_of(await run(c))
    assert v.label == VerdictLabel.insufficient and v.confidence == SETTINGS.verdict_rule.insufficient_max_confidence
    assert v.draft_confidence == 0.95 and any("capped at 0.50" in said(f) for f in v.quality_flags)


@pytest.mark.asyncio
async def test_the_rule_can_be_turned_off(store):
    settings = SETTINGS.model_copy(update={"verdict_rule": VerdictRule(enabled=False)})
    draft = verdict(label="insufficient evidence", confidence=1.0)
    v = verdict_of(await run(court(store, [ruling(0.6), ruling(0.9), draft], settings=settings)))
    assert v.label == VerdictLabel.insufficient and v.confidence == 1.0 and not v.corrected


# ---------------------------------------------------------------- generated text

@pytest.mark.asyncio
async def test_a_verdict_that_leaks_instruction_text_is_regenerated_then_cut_and_flagged(store):
    leaky = verdict(summary=f"The randomised trial supports the claim [E1]. {LEAK}")
    c = court(store, [ruling(0.6), ruling(0.9), leaky, leaky])
    v = verdict_of(await run(c))
    assert "echoes its instructions" in c.test_models[2].calls[-1][-1]["content"]  # named when sent back
    assert v.summary == "The randomised trial supports the claim [E1]."
    assert "You are an AI" not in v.summary and "}" not in v.summary
    assert any(said(f).startswith("verdict text: the summary") for f in v.quality_flags)


@pytest.mark.asyncio
async def test_listed_items_that_are_not_text_of_the_case_are_left_out(store):
    draft = json.loads(verdict())
    draft["open_questions"] = ["The open questions are [].", "Was the trial blinded?", "You are an AI assistant "
                               "designed to support strategic planning and give the verdict."]
    draft["conditions"] = ["{condition}", "Only if the dose was adequate [E1]."]
    draft["risks"] = ["The answer to the question is [ ]."]
    v = verdict_of(await run(court(store, [ruling(0.6), ruling(0.9), json.dumps(draft)])))
    assert "Was the trial blinded?" in v.open_questions
    assert not any("[]" in q or "You are an AI" in q for q in v.open_questions)
    assert v.conditions == ("Only if the dose was adequate [E1].",) and v.risks == ()


@pytest.mark.asyncio
async def test_an_argument_that_echoes_its_role_prompt_is_regenerated_then_cut(store):
    def echo(messages):
        if "JSON" in messages[0]["content"]:
            return json.dumps({"queries": ["vitamin D birth weight"]})
        ids = pool_ids(messages)
        return f"You are the Prosecution. Argue that the claim is false. The null trial [{ids[-1]}] found no effect."

    c = court(store, [ruling(0.5), ruling(0.9), verdict()], prosecution=scripted([echo] * 40, "prosecution"))
    events = await run(c)
    first = next(e.turn for e in events if e.kind == "turn_finished")
    assert first.regenerated and first.text.startswith("The null trial [E") and "You are" not in first.text
    assert any("echoes its instructions" in said(f) for f in first.flags)


def test_generated_text_checks_in_english_and_chinese():
    system = "You are a neutral judge in a court that tests a claim against documents. You do not argue."
    assert generated_problems("The trial [E1] shows it.", [system]) == []
    def codes(*args, **kwargs) -> list[str]:
        return [p.code for p in generated_problems(*args, **kwargs)]

    assert "problem_echo" in codes("a neutral judge in a court that tests a claim against documents", [system])
    assert "problem_template" in codes("Fine. <|im_end|>")
    assert "problem_repeats" in codes("The trial was large. The trial was large.")
    assert codes("No citation here.", need_citation=True) == ["problem_no_citation"]
    assert [said(p) for p in generated_problems("No citation here.", need_citation=True)] == ["cites no evidence"]
    assert "problem_echo" in codes("你是一个乐于助人的助手。试验[E1]有效。")
    assert cut_generated("试验[E1]表明有效。你是一个乐于助人的助手。试验[E1]表明有效。") == "试验[E1]表明有效。"


# ---------------------------------------------------------------- challenges

@pytest.mark.asyncio
async def test_challenges_get_ids_are_answered_or_left_open(store):
    """The prosecution challenges the defense in round 1 (Q1); the judge asks Q2 after round 1; the defense names Q1
    and the judge marks it answered, Q2 unanswered: the verdict lists Q2 as an open line of argument."""
    def prosecution(messages):
        if "JSON" in messages[0]["content"]:
            return json.dumps({"queries": ["vitamin D birth weight"]})
        ids = pool_ids(messages)
        return (f"The null trial [{ids[-1]}] found no effect on birth weight. Where is the evidence that the effect "
                "lasts beyond delivery?")

    def defense(messages):
        if "JSON" in messages[0]["content"]:
            return json.dumps({"queries": ["vitamin D birth weight"]})
        ids = pool_ids(messages)
        answer = " On Q1: the cohort followed the infants for a year." if "Q1 (" in messages[-1]["content"] else ""
        return f"The randomised trial [{ids[0]}] raised birth weight by 60 g.{answer}"

    def second_ruling(messages):
        reply = json.loads(ruling(0.9)(messages))
        reply["challenges"] = [{"id": "Q1", "status": "answered"}, {"id": "Q2", "status": "unanswered"}]
        return json.dumps(reply)

    c = court(store, [ruling(0.5, questions=["Was the trial randomised and blinded?"]), second_ruling, verdict()],
              prosecution=scripted([prosecution] * 40, "prosecution"), defense=scripted([defense] * 40, "defense"))
    events = await run(c)
    turns = [e.turn for e in events if e.kind == "turn_finished"]
    rulings = [e.ruling for e in events if e.kind == "ruling"]
    raised = {ch.id: ch for t in turns for ch in t.challenges} | {q.id: q for r in rulings for q in r.questions}
    assert raised["Q1"].raised_by == "Prosecution" and raised["Q1"].addressed_to == "Defense"
    assert raised["Q2"].raised_by == "Judge" and raised["Q2"].round == 1 and raised["Q2"].addressed_to == "both sides"
    assert "Q1" in turns[1].answers  # the defense named it
    assert "Q2 (Judge, round 1" in c.test_models[2].calls[-2][-1]["content"]  # the judge was asked to mark them
    assert {m.id: m.status for m in rulings[1].marks} == {"Q1": ChallengeStatus.answered,
                                                          "Q2": ChallengeStatus.unanswered}
    v = verdict_of(events)
    open_lines = {o.challenge.id: o.status for o in v.open_challenges}
    assert open_lines.get("Q2") == ChallengeStatus.unanswered and "Q1" not in open_lines
    assert any(said(f).startswith("unanswered challenges:") and "Q2" in said(f) for f in v.quality_flags)


# ---------------------------------------------------------------- structured quotations

def quoting(first_quote, second_quote):
    """A structured argument (small-model path) with an exact quotation of the first passage."""
    answers = iter([first_quote, second_quote] + [second_quote] * 20)

    def reply(messages):
        if '"title":"SearchPlan"' in messages[0]["content"]:
            return json.dumps({"queries": ["vitamin D birth weight"]})
        ids = pool_ids(messages)
        return json.dumps({"citations": [ids[0]], "argument": f"The trial [{ids[0]}] decides it.",
                           "quotes": [{"id": ids[0], "text": next(answers)}]})
    return reply


@pytest.mark.asyncio
async def test_a_wrong_quotation_in_structured_mode_is_sent_back_then_dropped_and_flagged(store):
    settings = SETTINGS.model_copy(update={"argument_format": "json"})
    wrong = "vitamin D cured every patient"
    c = court(store, [ruling(0.5), ruling(0.9), verdict()], settings=settings,
              prosecution=scripted([quoting(wrong, wrong)] * 40, "prosecution"))
    events = await run(c)
    first = next(e.turn for e in events if e.kind == "turn_finished")
    assert first.regenerated and all(c.valid for c in first.citations) and not any(c.quote for c in first.citations)
    assert any("is not in E" in said(f) and "quotation was dropped" in said(f) for f in first.flags)


@pytest.mark.asyncio
async def test_a_right_quotation_survives_ligatures_and_hyphenation(store):
    settings = SETTINGS.model_copy(update={"argument_format": "json"})
    right = "vitamin D supple- ments raised birth weight"  # the passage has "supplements", hyphenated in the quote
    c = court(store, [ruling(0.5), ruling(0.9), verdict()], settings=settings,
              prosecution=scripted([quoting(right, right)] * 40, "prosecution"))
    events = await run(c)
    first = next(e.turn for e in events if e.kind == "turn_finished")
    assert not first.regenerated and [c.quote for c in first.citations] == [right]
    assert quote_in("the eﬃcacy of treat- ment", "The efficacy of treatment was high.")
    assert quote_in("补充维生素 D 提高了出生体重", "随机试验中，补充维生素D提高了出生体重60克。")
    assert not quote_in("lowered birth weight", "vitamin D supplements raised birth weight by 60 g")


# ---------------------------------------------------------------- persistence off the event loop

@pytest.mark.asyncio
async def test_events_are_written_by_a_thread_of_their_own_in_order(store):
    import threading

    writers, original = [], store.insert

    def insert(event):
        writers.append(threading.current_thread().name)
        original(event)

    store.insert = insert
    c = court(store, [ruling(0.5), ruling(0.9), verdict()])
    events = await run(c)
    loop_thread = threading.current_thread().name
    assert writers and loop_thread not in writers and set(writers) == {"courtroom-trial-store"}
    stored = store.events(events[0].trial_id)
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
    assert [e.kind for e in stored] == [e.kind for e in events if e.kind != "token"]
    assert store.list()[0].status == "finished"  # the status, queued after the verdict, is written too


@pytest.mark.asyncio
async def test_a_store_that_fails_mid_trial_pauses_it_with_an_error_that_says_what_to_do(store):
    original, count = store.insert, [0]

    def insert(event):
        count[0] += 1
        if count[0] > 5:
            raise OSError(28, "No space left on device")
        original(event)

    store.insert = insert
    events = await run(court(store, [ruling(0.5), ruling(0.9), verdict()]))
    error = events[-1]
    assert error.kind == "error" and "could not be saved" in error.message and "No space left" in error.message
    assert "writable" in error.fix and error.resumable
    assert len(store.events(error.trial_id)) == 5  # what was written before the failure stays


@pytest.mark.asyncio
async def test_a_verdict_that_could_not_be_saved_is_an_error_not_a_finished_trial(store, tmp_path):
    """The store fails on the trial's very last write, the verdict's: no later event would find it, so the trial
    waits for its writes before it says it finished."""
    probe = TrialStore(tmp_path / "probe.sqlite")
    try:
        written = len([e for e in await run(court(probe, [ruling(0.5), ruling(0.9), verdict()])) if e.kind != "token"])
    finally:
        probe.close()
    original, count = store.insert, [0]

    def insert(event):
        count[0] += 1
        if count[0] >= written:  # the verdict
            raise OSError(28, "No space left on device")
        original(event)

    store.insert = insert
    events = await run(court(store, [ruling(0.5), ruling(0.9), verdict()]))
    assert [e.kind for e in events[-2:]] == ["verdict", "error"]
    assert "could not be saved" in events[-1].message and events[-1].resumable
    assert len(store.events(events[0].trial_id)) == written - 1
    assert store.list()[0].status != "finished"  # after a failed write nothing more is written
