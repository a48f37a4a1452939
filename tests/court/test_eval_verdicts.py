"""Verdict evaluation: sampling, scoring arithmetic, and the three methods run with scripted models."""

from __future__ import annotations

import json

import pytest

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.court import Court, TrialStore
from courtroom_desktop.core.court.records import VerdictLabel
from courtroom_desktop.core.eval.verdicts import ClaimResult, LabelledClaim, evaluate_verdicts, load_claims, scores

from .fakes import FakeRetriever, counsel, models, ruling, scripted, verdict

SUP, REF, NEI = VerdictLabel.supported, VerdictLabel.refuted, VerdictLabel.insufficient


def claim(i, gold, docs=("doc0",)):
    return LabelledClaim(str(i), f"Vitamin D claim {i} about birth weight", gold, tuple(docs))


def test_scores_accuracy_macro_f1_and_confusion():
    results = []
    for i, (gold, predicted) in enumerate([(SUP, "supported"), (SUP, "refuted"), (REF, "refuted"), (NEI, "mixed")]):
        r = ClaimResult(claim(i, gold))
        r.predictions["court"] = predicted
        results.append(r)
    s = scores(results, "court")
    assert s["n"] == 4 and s["accuracy"] == pytest.approx(0.5)
    # supported: P=1, R=.5 -> F1 2/3; refuted: P=.5, R=1 -> 2/3; insufficient: 0
    assert s["macro_f1"] == pytest.approx((2 / 3 + 2 / 3 + 0) / 3)
    assert s["confusion"]["supported"]["refuted"] == 1 and s["confusion"]["insufficient evidence"]["mixed"] == 1


def test_load_claims_balanced_sample(tmp_path):
    path = tmp_path / "claims.jsonl"
    rows = [{"id": i, "claim": f"c{i}", "label": ["SUPPORT", "CONTRADICT", "NEI"][i % 3] if i < 30 else "SUPPORT",
             "cited_doc_ids": [i]} for i in range(60)]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    sample = load_claims(path, sample=9, seed=1)
    assert sorted(c.gold.value for c in sample) == sorted(["supported", "refuted", "insufficient evidence"] * 3)
    assert load_claims(path, sample=9, seed=1) == sample and len(load_claims(path)) == 60
    path.write_text(json.dumps({"id": 1, "claim": "x", "label": "MAYBE"}))
    with pytest.raises(Exception, match="MAYBE"):
        load_claims(path)


@pytest.mark.asyncio
async def test_three_methods_with_scripted_models(tmp_path):
    store = TrialStore(tmp_path / "t.sqlite")
    retriever = FakeRetriever()
    quick = json.dumps({"label": "refuted", "confidence": 0.6, "citations": ["E1"], "reason": "r"})
    judge = scripted([quick] * 60, "judge")

    def court_factory(changes):
        trial_judge = scripted([ruling(0.5), ruling(0.9), verdict("supported")], "judge")
        return Court(models(scripted([counsel] * 20, "prosecution"), scripted([counsel] * 20, "defense"), trial_judge),
                     retriever, store, DebateSettings(min_rounds=2, max_rounds=2))

    results = await evaluate_verdicts([claim(1, SUP, ("doc0", "doc9"))], court_factory=court_factory,
                                      retriever=retriever, judge_model=judge, store=store,
                                      methods=("court", "single", "majority"))
    [r] = results
    assert r.predictions == {"court": "supported", "single": "refuted", "majority": "refuted"}
    assert r.rounds == 2 and r.tokens["court"] > 0
    assert r.evidence_recall["court"] == 0.5  # doc0 entered the pool, doc9 does not exist
    # the majority vote spent about the trial's budget in single passes (several votes, not one)
    assert r.tokens["majority"] >= r.tokens["court"] or len(judge.calls) > 2
    store.close()


@pytest.mark.asyncio
async def test_the_report_counts_rule_corrections_and_stances_that_differ_from_the_finder(tmp_path):
    """One trial whose judge drafts 'insufficient evidence' twice against a record that leans towards support (the
    rule corrects it), one whose verdict stands; every passage is assessed 'supports', so those the Prosecution
    found differ from their finder's side."""
    from courtroom_desktop.core.eval.verdicts import format_report

    store = TrialStore(tmp_path / "t.sqlite")
    drafts = iter([[verdict("insufficient evidence", confidence=1.0)] * 2, [verdict("supported")]])

    def court_factory(changes):
        trial_judge = scripted([ruling(0.5), ruling(0.9), *next(drafts)], "judge")
        return Court(models(scripted([counsel] * 20, "prosecution"), scripted([counsel] * 20, "defense"), trial_judge),
                     FakeRetriever(), store, DebateSettings(min_rounds=2, max_rounds=2))

    results = await evaluate_verdicts([claim(1, SUP), claim(2, SUP)], court_factory=court_factory,
                                      retriever=FakeRetriever(), judge_model=None, store=store, methods=("court",))
    assert [r.corrected for r in results] == [True, False]
    assert all(r.assessed > 0 and 0 < r.stance_differs <= r.assessed for r in results)  # the Prosecution found some
    differs, assessed = sum(r.stance_differs for r in results), sum(r.assessed for r in results)
    report = format_report(results, ("court",))
    assert "corrected 1 of 2 court verdicts (50%)" in report
    assert f"Assessed passages: {assessed}, of which {differs} ({differs / assessed:.0%})" in report
    store.close()


@pytest.mark.asyncio
async def test_the_verifier_method_and_the_courts_ablations(tmp_path):
    """The verifier method decides from the real verifier's scores with no chat model; each ablation's court gets its
    settings change; the report carries intervals, ECE, evidence recall, claims per minute and the judge's own label."""
    from courtroom_desktop.core.eval.verdicts import format_report
    from courtroom_desktop.core.verifier.scorer import ClaimVerifier

    store = TrialStore(tmp_path / "t.sqlite")
    retriever = FakeRetriever()
    asked = []

    def court_factory(changes):
        asked.append(dict(changes))
        settings = DebateSettings(min_rounds=2, max_rounds=2).model_copy(update=dict(changes))
        trial_judge = scripted([ruling(0.5), ruling(0.9), verdict("supported"), verdict("supported")], "judge")
        return Court(models(scripted([counsel] * 20, "prosecution"), scripted([counsel] * 20, "defense"), trial_judge),
                     retriever, store, settings, verifier=ClaimVerifier())

    claims = [LabelledClaim("1", "Vitamin D supplements in pregnancy have no effect on birth weight.", REF, ("doc0",)),
              LabelledClaim("2", "Vitamin D supplements raise birth weight in pregnancy.", SUP, ("doc0",))]
    methods = ("verifier", "court", "court-fixed-sides", "court-one-search")
    results = await evaluate_verdicts(claims, court_factory=court_factory, retriever=retriever, judge_model=None,
                                      store=store, verifier=ClaimVerifier(), methods=methods)
    assert asked == [{}, {"max_switches": 0}, {"search_every_round": False}] * 2
    for r in results:
        assert r.tokens["verifier"] == 0 and 0 <= r.confidences["verifier"] <= 1
        assert r.judge_labels["court"] == "supported"  # the scripted judge's, kept beside the verdict
    report = format_report(results, methods)
    assert "| verifier | 2 |" in report and "court: the judge's own label" in report
    assert "[" in report.split("| verifier | 2 |")[1].split("\n")[0]  # the bootstrap interval
    with pytest.raises(Exception, match="unknown"):
        await evaluate_verdicts(claims, court_factory=court_factory, retriever=retriever, judge_model=None,
                                store=store, methods=("oracle",))
    store.close()


def test_one_search_court_does_not_search_after_round_one(tmp_path):
    import asyncio

    from courtroom_desktop.core.court.records import TrialSpec

    counts = {}
    for every in (True, False):
        store = TrialStore(tmp_path / f"{every}.sqlite")
        retriever = FakeRetriever()
        court = Court(models(scripted([counsel] * 20, "prosecution"), scripted([counsel] * 20, "defense"),
                             scripted([ruling(0.5), ruling(0.5), verdict("supported")], "judge")),
                      retriever, store, DebateSettings(min_rounds=2, max_rounds=2, search_every_round=every))
        trial_id = court.start(TrialSpec(claim="Vitamin D supplements raise birth weight."))

        async def drive(court=court, trial_id=trial_id):
            async for _ in court.run(trial_id):
                pass

        asyncio.run(drive())
        counts[every] = len(retriever.calls)
        store.close()
    # two turns a round, and the trial's opening search for the claim alone; searches in round 1 only
    assert counts[True] == 5 and counts[False] == 3


def test_labels_figures():
    from courtroom_desktop.core.eval.labels import bootstrap, expected_calibration_error, macro_f1

    gold = ["s", "s", "r", "n"]
    said = ["s", "r", "r", "mixed"]
    assert macro_f1(gold, said) == pytest.approx((2 / 3 + 2 / 3 + 0) / 3)
    acc, f1 = bootstrap(gold, said, resamples=200)
    assert acc.value == 0.5 and acc.low <= 0.5 <= acc.high and 0 <= f1.low <= f1.value <= f1.high <= 1
    # two predictions at 0.9, one right: |0.5 - 0.9| = 0.4; two at 0.3, both right: |1 - 0.3| = 0.7 -> 0.55
    assert expected_calibration_error([0.9, 0.9, 0.3, 0.3], [True, False, True, True]) == pytest.approx(0.55)
    assert expected_calibration_error([], []) == 0.0
