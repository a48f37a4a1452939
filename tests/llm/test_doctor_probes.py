"""The doctor's probes (valid JSON with the given facts, citing only given passages, a known answer against a
two-passage pool) and the rating they earn (good, usable, demo only), against the fake Ollama over HTTP with
scripted answers: one short call per probe, judged on the first answer."""

from __future__ import annotations

import json

import pytest

from courtroom_desktop.cli import main as cli_main
from courtroom_desktop.core.config import AppConfig, ModelSettings, ModelSpec, save_config
from courtroom_desktop.core.errors import ModelError
from courtroom_desktop.core.llm import ScriptedChatModel
from courtroom_desktop.core.llm.doctor import CITATION_POOL, CLAIM_POOL, PROBES, ProbeFacts, failed, ratings, run_doctor
from testkit.fake_ollama import MODEL, FakeOllama
from testkit.loopback import free_port

SETUP = ["OK", '{"ok": true, "word": "yes"}']           # the one-token call, the structured call
FACTS = '{"city": "Paris", "country": "France", "year": 1889}'
CITES = "Daily walking lowers blood pressure [E1] and means fewer heart attacks [E3]."
CLAIM = '{"verdict": "supported", "evidence": ["E2"]}'


def spec_for(url: str) -> ModelSpec:
    return ModelSpec(provider="ollama", model=MODEL, base_url=url, num_ctx=8192, connect_timeout_s=1.0,
                     read_timeout_s=5.0)


async def doctor_with(replies: list[str]):
    with FakeOllama("healthy", replies=replies) as server:
        rows = await run_doctor(ModelSettings(judge=spec_for(server.url)), roles=["judge"])
    return {r.check: r for r in rows}, rows, server


@pytest.mark.asyncio
async def test_a_model_that_passes_every_probe_is_rated_good():
    by, rows, server = await doctor_with(SETUP + [FACTS, CITES, CLAIM])
    assert [r.check for r in rows if r.kind == "probe"] == list(PROBES)
    assert all(by[name].ok and by[name].result == "pass" for name in PROBES), [(r.check, r.detail) for r in rows]
    assert by["rating"].result == "good" and by["rating"].detail == "3 of 3 probes passed" and not by["rating"].fix
    assert ratings(rows) == {"judge": "good"}
    assert "cited only given passages: E1, E3" in by["probe: citations"].detail
    assert len(server.requests) == 5, "one call per probe"
    # what the probes sent: the facts, the pool E1..E3 and the claim with its two passages
    prompts = [r["messages"][-1]["content"] for r in server.requests[2:]]
    assert "Eiffel Tower" in prompts[0] and isinstance(server.requests[2]["format"], dict)
    assert all(f"[{k}] {v}" in prompts[1] for k, v in CITATION_POOL.items())
    assert all(f"[{k}] {v}" in prompts[2] for k, v in CLAIM_POOL.items())


@pytest.mark.asyncio
async def test_citing_a_passage_it_was_not_given_makes_it_usable():
    by, rows, _ = await doctor_with(SETUP + [FACTS, "Walking helps [E1], as [E7] shows.", CLAIM])
    assert by["probe: citations"].ok is False and by["probe: citations"].result == "miss"
    assert "cited E7, which it was not given" in by["probe: citations"].detail
    assert by["rating"].result == "usable" and "models list" in by["rating"].fix
    assert not failed(rows), "a missed probe is reported, not a failed check"


@pytest.mark.asyncio
async def test_the_known_answer_needs_the_supporting_passage_only():
    by, _, _ = await doctor_with(SETUP + [FACTS, "No citation at all.", '{"verdict": "supported", '
                                                                         '"evidence": ["E1", "E2"]}'])
    assert "cited no passage" in by["probe: citations"].detail
    assert by["probe: known answer"].ok is False and "E1 is irrelevant" in by["probe: known answer"].detail
    assert by["rating"].result == "demo only" and by["rating"].ok is False


@pytest.mark.asyncio
async def test_the_json_probe_judges_the_first_answer_without_a_retry():
    by, _, server = await doctor_with(SETUP + ["Paris, France, 1889 (no JSON here)", CITES,
                                               '{"verdict": "refuted", "evidence": ["E2"]}'])
    assert by["probe: JSON"].ok is False and "no valid ProbeFacts" in by["probe: JSON"].detail
    assert len(server.requests) == 5, "no second attempt"
    assert "said refuted" in by["probe: known answer"].detail
    assert by["rating"].result == "demo only"


@pytest.mark.asyncio
async def test_wrong_facts_in_valid_json_miss_the_json_probe():
    by, _, _ = await doctor_with(SETUP + ['{"city": "Lyon", "country": "France", "year": 1889}', CITES, CLAIM])
    assert by["probe: JSON"].ok is False and "wrong facts" in by["probe: JSON"].detail
    assert by["rating"].result == "usable"


@pytest.mark.asyncio
async def test_no_probe_runs_when_a_check_failed():
    url = f"http://127.0.0.1:{free_port()}"
    rows = await run_doctor(ModelSettings(judge=spec_for(url)), roles=["judge"])
    assert not any(r.kind == "probe" for r in rows)
    assert rows[-1].kind == "rating" and rows[-1].result == "not rated" and failed(rows)


@pytest.mark.asyncio
async def test_structured_without_retry_raises_on_the_first_bad_answer():
    model = ScriptedChatModel(["not json", FACTS], role="judge")
    with pytest.raises(ModelError, match="no valid ProbeFacts"):
        await model.structured([{"role": "user", "content": "?"}], ProbeFacts, retry=False)
    assert len(model.calls) == 1
    facts, _ = await model.structured([{"role": "user", "content": "?"}], ProbeFacts)
    assert facts.city == "Paris"


def test_the_doctor_command_shows_probes_and_ratings(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    with FakeOllama("healthy", replies=SETUP + [FACTS, CITES, CLAIM]) as server:
        save_config(AppConfig(models=ModelSettings(judge=spec_for(server.url))), tmp_path / "config")
        status = cli_main(["--config-dir", str(tmp_path / "config"), "doctor", "--role", "judge"])
    out = capsys.readouterr().out
    assert status == 0
    assert "probe: JSON" in out and "probe: citations" in out and "pass" in out
    assert "Ratings for this job: judge good" in out
    with FakeOllama("healthy") as server:
        save_config(AppConfig(models=ModelSettings(judge=spec_for(server.url))), tmp_path / "config")
        status = cli_main(["--config-dir", str(tmp_path / "config"), "doctor", "--role", "judge", "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert status == 0, "misses are not failures"
    assert {r["result"] for r in rows if r["kind"] == "probe"} == {"miss"}
    assert [r["result"] for r in rows if r["kind"] == "rating"] == ["demo only"]
    with FakeOllama("healthy") as server:
        save_config(AppConfig(models=ModelSettings(judge=spec_for(server.url))), tmp_path / "config")
        cli_main(["--config-dir", str(tmp_path / "config"), "doctor", "--role", "judge", "--no-probes", "--json"])
    assert all(r["kind"] == "check" for r in json.loads(capsys.readouterr().out))
