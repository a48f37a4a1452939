"""A record you can navigate (issue #29): every model call of a trial (the exact prompt, the raw answer) kept with the
trial, placed at its turn, ruling or verdict; the passages a search found that did not enter the pool, with the
reason; the trial's coverage; and exports that leave the prompts out unless asked."""

from __future__ import annotations

import json

import pytest

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.court import Court, TrialSpec, TrialStore
from courtroom_desktop.core.court.coverage import library_use, trial_coverage
from courtroom_desktop.core.reports.wording import say_reason as said
from courtroom_desktop.core.workspace import Workspace

from .fakes import FakeRetriever, counsel, models, ruling, scripted, verdict

CLAIM = "Vitamin D supplements in pregnancy raise birth weight."


@pytest.fixture
def store(tmp_path):
    s = TrialStore(tmp_path / "trials.sqlite")
    yield s
    s.close()


class OneForTheClaim(FakeRetriever):
    """The search for the claim alone (the trial's opening search, admitted whatever its novelty) finds only the best
    passage, so that counsel's searches still meet passages the novelty filter turns away."""

    async def asearch(self, queries, k=None, scope=None):
        found = await super().asearch(queries, k, scope)
        return found[:1] if list(queries) == [CLAIM] else found


def make_court(store, judge_replies, settings=None, retriever=None):
    settings = settings or DebateSettings(min_rounds=2, max_rounds=2, confidence_threshold=0.8, max_switches=0)
    p, d = scripted([counsel] * 40, "prosecution"), scripted([counsel] * 40, "defense")
    j = scripted(judge_replies, "judge")
    c = Court(models(p, d, j), retriever or FakeRetriever(), store, settings)
    c.test_models = (p, d, j)
    return c


async def run_trial(c: Court) -> tuple[str, list]:
    trial_id = c.start(TrialSpec(claim=CLAIM))
    return trial_id, [e async for e in c.run(trial_id)]


@pytest.mark.asyncio
async def test_every_model_call_is_kept_with_its_exact_prompt_and_raw_answer(store):
    c = make_court(store, [ruling(0.5), ruling(0.85, ready=True, reason="the trial [E1] decides it"), verdict()])
    trial_id, events = await run_trial(c)
    p, d, j = c.test_models
    calls = store.calls(trial_id)
    # every call each model answered is there, with the very messages it saw (the schema's instruction included)
    for model, roles in ((p, {"prosecution"}), (d, {"defense"}), (j, {"judge"})):
        kept = [call for call in calls if call.role in roles]
        assert [list(call.messages) for call in kept] == model.calls
    assert all(call.answer for call in calls)
    # placed: each counsel turn has its search plan and its argument, each round its ruling, and the verdict
    turns = [e.turn for e in events if e.kind == "turn_finished"]
    for turn in turns:
        mine = store.calls(trial_id, step="turn", turn=turn.index)
        # the search plan, the argument, and the argument again when the first was rejected
        assert [call.schema_name for call in mine] == ["SearchPlan", ""] + [""] * turn.regenerated, turn.index
        assert {call.round for call in mine} == {turn.round}
        assert turn.text.split()[:4] == mine[-1].answer.split()[:4]  # the raw answer the argument came from
        assert "Answer with one JSON object" in mine[0].messages[0]["content"]  # what the model saw, not our draft
    for round_number in (1, 2):
        ruled = store.calls(trial_id, step="ruling", round_number=round_number)
        assert [call.schema_name for call in ruled] == ["JudgeRuling"]
        assert json.loads(ruled[0].answer)["confidence"] == [0.5, 0.85][round_number - 1]
    assert [call.schema_name for call in store.calls(trial_id, step="verdict")] == ["VerdictDraft"]
    assert store.calls(trial_id, step="assessment")
    # the calls are beside the events, never among them
    assert "model_call" not in {e.kind for e in store.events(trial_id)}


@pytest.mark.asyncio
async def test_an_answer_that_did_not_parse_is_kept_with_the_retry_that_named_its_problem(store):
    c = make_court(store, ["the ruling, in prose", ruling(0.5), ruling(0.85, ready=True, reason="[E1] decides it"),
                           verdict()])
    trial_id, _ = await run_trial(c)
    first = store.calls(trial_id, step="ruling", round_number=1)
    assert [call.answer for call in first][0] == "the ruling, in prose"
    assert len(first) == 2 and "was not valid" in first[1].messages[-1]["content"]


@pytest.mark.asyncio
async def test_passages_turned_away_are_recorded_with_the_reason_and_show_in_the_coverage(store):
    c = make_court(store, [ruling(0.5), ruling(0.85, ready=True, reason="[E1] decides it"), verdict()],
                   DebateSettings(min_rounds=2, max_rounds=2, confidence_threshold=0.8, max_switches=0,
                                  novelty_min=0.85), retriever=OneForTheClaim())
    trial_id, events = await run_trial(c)
    away = [p for e in events if e.kind == "evidence_turned_away" for p in e.passages]
    codes = {p.reason.code for p in away}
    assert codes == {"turned_away_in_pool", "turned_away_not_novel"}
    pool = {e.entry.id: e.entry for e in events if e.kind == "evidence_added"}
    pooled_chunks = {entry.evidence.chunk.id for entry in pool.values()}
    for passage in away:  # never in the pool, and the passage it duplicates or resembles is
        if passage.reason.code == "turned_away_not_novel":
            assert passage.evidence.chunk.id not in pooled_chunks
            assert passage.reason.params["like"] in pool and passage.reason.params["novelty"] < 0.85
        else:
            assert pool[passage.reason.params["id"]].evidence.chunk.id == passage.evidence.chunk.id
    assert "too close to E" in said(next(p.reason for p in away if p.reason.code == "turned_away_not_novel"))
    assert "证据池" in said(next(p.reason for p in away if p.reason.code == "turned_away_in_pool"), "zh")
    # the coverage: admitted and turned away per document; the scope's unsearched document never retrieved
    scope = [(f"doc{i}", f"Doc {i}") for i in range(5)] + [("doc9", "Never found")]
    coverage = trial_coverage(store.events(trial_id), scope)
    assert sum(not p.admitted for p in coverage.passages) == len(away)
    assert {p.evidence_id for p in coverage.passages if p.admitted} == set(pool)
    assert [d.doc_id for d in coverage.never_retrieved] == ["doc9"]
    assert all(p.judged for p in coverage.passages if p.admitted)  # the judge's reading of each admitted one
    e1 = next(p for p in coverage.passages if p.evidence_id == "E1")
    assert e1.cited >= 1 and coverage.documents[0].cited >= 1
    use = library_use([((), store.events(trial_id))], [d for d, _ in scope])
    assert use["doc9"].never_retrieved and use[e1.doc_id].citations == coverage.documents[0].cited
    # the reports carry the same coverage, in every format (break: leave _coverage out of render_markdown's sections)
    from courtroom_desktop.core.reports import TrialRecord, render_html, render_markdown

    record = TrialRecord.from_events(trial_id, store.spec(trial_id), store.events(trial_id), scope=scope)
    for text in (render_markdown(record), render_html(record)[0], render_markdown(record, "expert")):
        assert "What the searches covered" in text and "In scope, never retrieved: Never found" in text
        assert "too close to E" in text and "already in the pool" in text.replace("\n", " ")
    stored = record.model_dump(mode="json")["coverage"]
    assert [d["doc_id"] for d in stored["documents"] if not d["found"]] == ["doc9"]


@pytest.mark.asyncio
async def test_an_export_leaves_the_prompts_out_unless_asked(tmp_path):
    workspace = Workspace(tmp_path / "config", tmp_path / "data")
    try:
        c = make_court(workspace.parts.trials, [ruling(0.5), ruling(0.85, ready=True, reason="[E1] decides it"),
                                          verdict()])
        trial_id, _ = await run_trial(c)
        system = workspace.trials.calls(trial_id, step="turn", turn=0)[-1].messages[0]["content"]
        marker = system.split("\n")[0][:60]
        plain = workspace.trials.export(trial_id, ["md", "json"], tmp_path / "plain")
        assert {p.name for p in plain.paths} >= {"report.md", "report.json"}
        assert not any(p.name.startswith("prompts") for p in (tmp_path / "plain").rglob("*"))
        assert all(marker not in p.read_text(encoding="utf-8") for p in plain.paths if p.suffix in (".md", ".json"))
        asked = workspace.trials.export(trial_id, ["md"], tmp_path / "asked", with_prompts=True)
        kept = json.loads((tmp_path / "asked" / "prompts.json").read_text(encoding="utf-8"))
        assert len(kept["calls"]) == len(workspace.trials.calls(trial_id))
        assert marker in (tmp_path / "asked" / "prompts.md").read_text(encoding="utf-8")
        assert tmp_path / "asked" / "prompts.md" in asked.paths
        workspace.trials.delete([trial_id])
        assert workspace.parts.trials.calls(trial_id) == []
    finally:
        workspace.close()
