"""A check of a draft through the workspace's use cases, over a real library (LanceDB + tantivy on disk, the sample
PDFs) with scripted models and a scripted verifier: the quick check searches the library and cites the passages
scored for its label, an unsure claim goes on to
a real full trial of the court, the per-server limit holds, a sign-off is stored beside the verdict."""

from __future__ import annotations

import asyncio
import json
import shutil

import pytest

from courtroom_desktop.core.check.queue import QueueFinished
from courtroom_desktop.core.check.records import CheckStatus, ClaimStatus
from courtroom_desktop.core.config import AppConfig, CheckSettings, ModelSettings, ModelSpec
from courtroom_desktop.core.court.records import VerdictLabel
from courtroom_desktop.core.court.scored import claim_confidence
from courtroom_desktop.core.errors import CheckError, TrialError
from testkit.verifier import NEITHER, ScriptedVerifier, reading
from tests.court.fakes import assess_all, counsel, ruling, verdict
from tests.ui.conftest import FAST_DEBATE, SAMPLES, open_library

DRAFT = """# Memo

Vitamin D supplements in pregnancy increased birth weight in a randomised trial.

This memo was written on a Tuesday.

Obesity was linked to a higher risk of diabetes in the cohort.

Tuberculosis is the most common cause of death among people with HIV.
"""


@pytest.fixture(scope="module")
def library_template(tmp_path_factory):
    data = tmp_path_factory.mktemp("check-data")
    library = open_library(data)
    library.ingest(sorted(SAMPLES.glob("*.pdf")))
    library.close()
    return data


def workspace(tmp_path, template, quick_answer, config=None, judge_script=None):
    from courtroom_desktop.core.llm import ModelRouter, ScriptedChatModel
    from courtroom_desktop.core.workspace import Workspace

    data = tmp_path / "data"
    shutil.copytree(template, data)
    config = config or AppConfig(debate=FAST_DEBATE, check=CheckSettings(trials="auto", trial_below=0.6))
    ws = Workspace(tmp_path / "config", data, config)
    ws.parts._library = open_library(data, config.library)
    judge = ScriptedChatModel(judge_script or [ruling(0.85, ready=True, reason="[E1] decides it"), ruling(0.9, ready=True),
                                               verdict()] * 3, role="judge",
                              standing={"EvidenceAssessment": assess_all(), "Explanation": quick_answer})
    ws.parts._router = ModelRouter(config.models, overrides={
        "prosecution": ScriptedChatModel([counsel] * 40, role="prosecution"),
        "defense": ScriptedChatModel([counsel] * 40, role="defense"), "judge": judge})
    ws.parts._verifier = ScriptedVerifier(read_by_claim)
    return ws, judge


def read_by_claim(claim: str, passage: str, position: int):
    """Vitamin D: the first two passages support it; obesity: the first supports it, weakly (unsure: it goes on to a
    full trial); anything else: the first supports it."""
    if "Vitamin D" in claim:
        return reading(0.9 - 0.1 * position) if position < 2 else NEITHER
    if "Obesity" in claim:
        return reading(0.32) if position == 0 else NEITHER  # just above VERIFIER_BACKS' 0.30
    return reading(0.9) if position == 0 else NEITHER


def answer_by_claim(messages):
    claim = messages[-1]["content"].split("<claim>")[1].split("</claim>")[0]
    return json.dumps({"reason": f"E1 reports it ({claim[:20]})."})


async def run_queue(ws, check_id):
    events = []
    async for event in ws.checks.queue(check_id).run():
        events.append(event)
    return events


def test_a_draft_is_checked_claim_by_claim_against_the_library(tmp_path, library_template):
    ws, judge = workspace(tmp_path, library_template, answer_by_claim)
    try:
        draft = ws.checks.read_draft(text=DRAFT)
        claims, warnings = asyncio.run(ws.checks.find_claims(draft))
        assert warnings == [] and len(claims) == 3  # the Tuesday sentence is no claim
        check_id = ws.checks.create(draft, claims, title="memo")
        events = asyncio.run(run_queue(ws, check_id))
        assert isinstance(events[-1], QueueFinished) and events[-1].status is CheckStatus.finished
        record = ws.checks.record(check_id[:12])
        assert [r.status for r in record.rows] == [ClaimStatus.done] * 3
        first = record.rows[0]
        assert first.by == "quick check" and first.quick.citations == ("E1", "E2")
        assert first.quick.label is VerdictLabel.supported and first.quick.confidence == round(claim_confidence(0.9), 3)
        assert first.quick.reason_by == "model" and [r.stance for r in first.quick.readings[:2]] == ["supports"] * 2
        cited = first.quick.cited()
        assert {e.doc_path for _, e in cited} <= {str(p.resolve()) for p in SAMPLES.glob("*.pdf")} | {
            str(p) for p in SAMPLES.glob("*.pdf")}
        assert any("vitamin" in e.chunk.text.lower() for _, e in cited)  # the real search found the right papers
        unsure = record.rows[1]
        assert unsure.quick.confidence == round(claim_confidence(0.32), 3) < 0.6
        assert unsure.by == "trial" and unsure.trial.label is VerdictLabel.supported
        trial_events = ws.trials.events(unsure.trial.trial_id)
        assert trial_events[0].kind == "trial_started" and trial_events[-1].kind == "verdict"
        assert "Vitamin D supplements" in record.spec.pasted_text and record.spec.title == "memo"
        quick_prompts = [c for c in judge.calls if "In one sentence, why?" in c[-1]["content"]]
        assert len(quick_prompts) == 3  # one quick check per claim, none repeated

        row = ws.checks.sign_off(check_id, 1, "overridden", "refuted", "the trial was in mice", reviewer="Ana")
        assert (row.label, row.final_label, row.signoff.reviewer) == (VerdictLabel.supported, VerdictLabel.refuted,
                                                                      "Ana")
        with pytest.raises(CheckError, match="needs the reviewer's verdict"):
            ws.checks.sign_off(check_id, 2, "overridden")
        assert ws.checks.list()[0].signed == 1
        assert ws.checks.delete([check_id]) == [check_id] and ws.checks.list() == []
        assert ws.trials.list()  # the trial it started stays a trial like any other
    finally:
        ws.close()


def test_a_check_needs_a_library_and_a_private_library_stays_home(tmp_path, library_template):
    from courtroom_desktop.core.workspace import Workspace

    empty = Workspace(tmp_path / "c", tmp_path / "d", AppConfig())
    try:
        draft = empty.checks.read_draft(text=DRAFT)
        with pytest.raises(TrialError, match="library is empty"):
            empty.checks.create(draft, [])
    finally:
        empty.close()
    remote = AppConfig(models=ModelSettings(default=ModelSpec(provider="openai", base_url="http://10.1.2.3:8000/v1",
                                                              model="m")))
    ws, _ = workspace(tmp_path / "r", library_template, answer_by_claim, config=remote)
    try:
        doc = ws.library.documents()[0]
        ws.library.set_private(doc.id, True)
        draft = ws.checks.read_draft(text=DRAFT)
        claims, _ = asyncio.run(ws.checks.find_claims(draft, "rules"))
        with pytest.raises(TrialError, match="private"):
            ws.checks.create(draft, claims)
    finally:
        ws.close()


def test_the_finder_setting(tmp_path):
    from courtroom_desktop.core.workspace import Workspace

    ws = Workspace(tmp_path / "c", tmp_path / "d", AppConfig())
    assert ws.checks.claim_finder() == "rules"  # the bundled model is too small to find claims
    ws.reconfigure(AppConfig(models=ModelSettings(default=ModelSpec(provider="ollama", model="llama3.1"))))
    assert ws.checks.claim_finder() == "both" and ws.checks.claim_finder("model") == "model"
    ws.close()


def test_with_a_model_other_than_the_bundled_one_the_judges_model_finds_claims_too(tmp_path, library_template):
    def draft_claims(messages):  # the model finds the Tuesday sentence (which the rules leave) and a made-up one
        prompt = messages[-1]["content"]
        number = next(n for n in range(1, 9) if f'<sentence n="{n}">This memo' in prompt)
        return json.dumps({"claims": [{"sentence": str(number), "claim": "written on a Tuesday", "why": "a date"},
                                      {"sentence": str(number), "claim": "written on a Monday", "why": "invented"}]})

    config = AppConfig(debate=FAST_DEBATE, models=ModelSettings(default=ModelSpec(provider="ollama", model="m")))
    ws, judge = workspace(tmp_path, library_template, answer_by_claim, config=config)
    judge.standing["DraftClaims"] = draft_claims
    try:
        claims, warnings = asyncio.run(ws.checks.find_claims(ws.checks.read_draft(text=DRAFT)))
        texts = [c.text for c in claims]
        assert "written on a Tuesday" in texts and len(texts) == 4  # the rules' three and the model's one
        assert [c.origin for c in claims].count("model") == 1
        assert any("written on a Monday" in w for w in warnings)
    finally:
        ws.close()
