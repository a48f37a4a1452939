"""The Ollama provider against a loopback server that speaks Ollama's chat API (testkit/fake_ollama.py):
healthy, accepts-and-never-answers, broken JSON, not listening, and a few more failure shapes."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Literal

import pytest
from pydantic import BaseModel, Field

from courtroom_desktop.core.config import ModelSpec
from courtroom_desktop.core.errors import ConfigError, ModelError, ModelUnavailable
from courtroom_desktop.core.llm import build_chat_model, list_models
from courtroom_desktop.core.llm.ollama import OllamaChatModel, same_model
from testkit.fake_ollama import MODEL, FakeOllama
from testkit.loopback import free_port


class Ruling(BaseModel):
    summary: str
    tendency: Literal["support", "refute", "unclear"]
    confidence: float = Field(ge=0, le=1)
    switch_request: bool
    ready_for_verdict: bool
    reason: str


MSGS = [{"role": "system", "content": "You are the judge."}, {"role": "user", "content": "Rule now."}]


def spec_for(url: str, **overrides) -> ModelSpec:
    values = dict(provider="ollama", model=MODEL, base_url=url, num_ctx=8192, max_tokens=64, keep_alive="3m",
                  temperature=0.1, connect_timeout_s=1.0, read_timeout_s=5.0, retries=2)
    values.update(overrides)
    return ModelSpec(**values)


def ollama(url: str, role: str = "judge", **overrides) -> OllamaChatModel:
    model = build_chat_model(spec_for(url, **overrides), role)
    assert isinstance(model, OllamaChatModel)
    model.backoff_s = 0.05
    return model


# ---------------------------------------------------------------- healthy

@pytest.mark.asyncio
async def test_healthy_streams_tokens_and_sends_the_settings():
    with FakeOllama("healthy") as server:
        model = ollama(server.url)
        tokens: list[str] = []
        text, usage = await model.complete(MSGS, max_tokens=5, stop=["\n\n"], on_token=tokens.append)
        await model.aclose()
    assert text == "The fake court is in"  # num_predict=5 reached the server
    assert tokens == ["The", " fake", " court", " is", " in"]
    body = server.requests[0]
    assert body["model"] == MODEL and body["stream"] is True
    assert body["options"]["num_ctx"] == 8192  # never Ollama's silent 2048
    assert body["options"]["num_predict"] == 5
    assert body["options"]["temperature"] == 0.1
    assert body["options"]["stop"] == ["\n\n"]
    assert body["keep_alive"] == "3m"
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert usage.tokens_out == 5 and usage.tokens_in == 6  # from eval_count / prompt_eval_count
    assert usage.first_token_s is not None and usage.seconds > 0


@pytest.mark.asyncio
async def test_healthy_structured_sends_the_schema_as_format():
    with FakeOllama("healthy") as server:
        model = ollama(server.url)
        ruling, usage = await model.structured(MSGS, Ruling)
        await model.aclose()
    assert isinstance(ruling, Ruling) and ruling.tendency == "support"
    assert len(server.requests) == 1
    sent = server.requests[0]["format"]
    assert sent["properties"]["tendency"]["enum"] == ["support", "refute", "unclear"]
    assert set(sent["required"]) >= {"summary", "confidence"}
    assert usage.tokens_out > 0


@pytest.mark.asyncio
async def test_healthy_list_models_reads_api_tags():
    with FakeOllama("healthy") as server:
        assert await list_models(spec_for(server.url)) == [MODEL]
        assert "/api/tags" in server.paths


@pytest.mark.asyncio
async def test_a_fenced_answer_is_repaired_without_a_retry():
    good = {"summary": "s", "tendency": "refute", "confidence": 0.4, "switch_request": False,
            "ready_for_verdict": False, "reason": "r"}
    with FakeOllama("healthy", replies=[f"Here you go:\n```json\n{json.dumps(good)}\n```\nBye."]) as server:
        model = ollama(server.url)
        ruling, _ = await model.structured(MSGS, Ruling)
        await model.aclose()
    assert ruling.tendency == "refute" and len(server.requests) == 1


# ---------------------------------------------------------------- accepts and never answers

@pytest.mark.asyncio
async def test_a_server_that_never_answers_times_out_with_a_clear_error():
    with FakeOllama("hang") as server:
        model = ollama(server.url, read_timeout_s=1.0, retries=2)
        start = time.monotonic()
        with pytest.raises(ModelUnavailable) as info:
            await model.complete(MSGS)
        elapsed = time.monotonic() - start
        await model.aclose()
    assert elapsed < 4.0  # one read timeout, not one per retry
    assert len(server.requests) == 1
    err = info.value
    assert "accepted the request but sent nothing for 1s" in str(err)
    assert server.url in str(err) and err.role == "judge" and err.model == MODEL
    assert "read_timeout_s" in err.fix


@pytest.mark.asyncio
async def test_a_stream_that_stalls_midway_times_out():
    with FakeOllama("stall") as server:
        model = ollama(server.url, read_timeout_s=1.0)
        tokens: list[str] = []
        start = time.monotonic()
        with pytest.raises(ModelUnavailable):
            await model.complete(MSGS, on_token=tokens.append)
        await model.aclose()
    assert time.monotonic() - start < 4.0
    assert tokens == ["The"]


# ---------------------------------------------------------------- broken JSON

@pytest.mark.asyncio
async def test_broken_json_is_repaired_then_retried_once_naming_the_error():
    with FakeOllama("broken_json") as server:
        model = ollama(server.url)
        ruling, usage = await model.structured(MSGS, Ruling)
        await model.aclose()
    assert isinstance(ruling, Ruling)
    assert len(server.requests) == 2
    retry = server.requests[1]["messages"]
    assert retry[-2]["role"] == "assistant" and "```json" in retry[-2]["content"]
    assert retry[-1]["role"] == "user" and "confidence" in retry[-1]["content"]
    assert isinstance(server.requests[1]["format"], dict)  # the retry still enforces the schema
    prompt_words = [sum(len(m["content"].split()) for m in r["messages"]) for r in server.requests]
    assert usage.tokens_in == sum(prompt_words)  # both attempts are counted


@pytest.mark.asyncio
async def test_broken_json_twice_raises_model_error_with_what_came_back():
    with FakeOllama("healthy", replies=["I think it is refuted.", "{'tendency': refute}"]) as server:
        model = ollama(server.url, role="prosecution")
        with pytest.raises(ModelError) as info:
            await model.structured(MSGS, Ruling)
        await model.aclose()
    err = info.value
    assert (err.role, err.provider, err.model) == ("prosecution", "ollama", MODEL)
    assert err.raw == "{'tendency': refute}"
    assert "Ruling" in str(err) and len(server.requests) == 2


# ---------------------------------------------------------------- not listening

@pytest.mark.asyncio
async def test_not_listening_fails_fast_with_a_clear_error():
    url = f"http://127.0.0.1:{free_port()}"
    model = ollama(url, retries=3)
    start = time.monotonic()
    with pytest.raises(ModelUnavailable) as info:
        await model.complete(MSGS)
    assert time.monotonic() - start < 1.0
    assert f"cannot reach Ollama at {url}" in str(info.value)
    assert "start Ollama" in info.value.fix
    with pytest.raises(ModelUnavailable) as listing:
        await list_models(spec_for(url))
    assert "start Ollama" in listing.value.fix
    await model.aclose()


# ---------------------------------------------------------------- more failure shapes

@pytest.mark.asyncio
async def test_a_missing_model_says_ollama_pull():
    with FakeOllama("healthy") as server:
        model = ollama(server.url, model="llama3.2:3b")
        with pytest.raises(ModelUnavailable) as info:
            await model.complete(MSGS)
        await model.aclose()
    assert info.value.fix == "ollama pull llama3.2:3b"
    assert len(server.requests) == 1  # not retried


@pytest.mark.asyncio
async def test_a_busy_server_is_retried_with_backoff():
    with FakeOllama("flaky") as server:
        model = ollama(server.url, retries=2)
        text, _ = await model.complete(MSGS)
        await model.aclose()
    assert text.startswith("The fake court")
    assert len(server.requests) == 2


@pytest.mark.asyncio
async def test_a_busy_server_without_retries_fails():
    with FakeOllama("flaky") as server:
        model = ollama(server.url, retries=0)
        with pytest.raises(ModelUnavailable, match="503"):
            await model.complete(MSGS)
        await model.aclose()
    assert len(server.requests) == 1


@pytest.mark.asyncio
async def test_cancelling_stops_the_stream_and_closes_the_connection():
    with FakeOllama("slow", replies=[" ".join(f"w{i}" for i in range(100))], delay_s=0.05) as server:
        model = ollama(server.url)
        tokens: list[str] = []
        task = asyncio.create_task(model.complete(MSGS, on_token=tokens.append))
        for _ in range(200):
            if len(tokens) >= 2:
                break
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await model.aclose()
        for _ in range(100):  # the server notices the closed connection on its next write
            if server.disconnects:
                break
            await asyncio.sleep(0.02)
        assert server.disconnects == 1
    assert server.words_sent < 100


def test_the_model_name_is_required():
    with pytest.raises(ConfigError, match="models.defense.model"):
        build_chat_model(ModelSpec(provider="ollama", model=""), "defense")


def test_same_model_treats_latest_as_the_default_tag():
    assert same_model("llama3.2", "llama3.2:latest")
    assert same_model("library/qwen3:4b", "library/qwen3:4b")
    assert not same_model("llama3.2:1b", "llama3.2:latest")
