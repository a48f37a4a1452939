"""The OpenAI-compatible provider against llama-cpp-python's server (``llama_cpp.server``) started on loopback by
the test, serving the bundled SmolLM2-135M and requiring an API key.

The server is started through ``scripts/llama_server.py``, a thin wrapper around
``python -m llama_cpp.server`` that first applies the llama.cpp AMX workaround (see core/llm/embedded.py); on
machines whose CPU reports AMX but faults on it, the bare server dies on its first batched decode."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path
from typing import Literal

import httpx
import pytest
from pydantic import BaseModel, Field

from courtroom_desktop.core.config import ModelSettings, ModelSpec
from courtroom_desktop.core.errors import ModelUnavailable
from courtroom_desktop.core.llm import build_chat_model, list_models
from courtroom_desktop.core.llm.doctor import run_doctor
from courtroom_desktop.core.llm.embedded import bundled_gguf_path
from courtroom_desktop.core.llm.openai_compat import OpenAIChatModel
from courtroom_desktop.core.secrets import set_api_key
from testkit.loopback import free_port

KEY = "sk-local-test-key-123456"
ALIAS = "tiny"


class Answer(BaseModel):
    answer: Literal["yes", "no"]
    colour: str = Field(max_length=30)
    sure: bool


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    log_path = tmp_path_factory.mktemp("llama-server") / "server.log"
    cmd = [sys.executable, str(Path(__file__).parents[2] / "scripts" / "llama_server.py"), "--model", str(bundled_gguf_path()),
           "--model_alias", ALIAS, "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096",
           # One thread each: on 2 cores, llama.cpp's spinning OpenMP workers can starve the server's own threads
           # (prompt evaluation measured at 0.7 s a token instead of 30 ms).
           "--n_threads", "1", "--n_threads_batch", "1", "--api_key", KEY]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {proc.returncode}:\n{log_path.read_text()[-3000:]}")
            try:
                r = httpx.get(f"{url}/models", headers={"Authorization": f"Bearer {KEY}"}, timeout=2)
                if r.status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not start in 120 s:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)


def spec_for(url: str, **overrides) -> ModelSpec:
    values = dict(provider="openai", base_url=url, model=ALIAS, max_tokens=32, connect_timeout_s=2.0,
                  read_timeout_s=60.0, retries=1)
    values.update(overrides)
    return ModelSpec(**values)


@pytest.fixture
def stored_key(server):
    """The key as a user would store it (no OS keyring here: the owner-only file in the test's data dir)."""
    set_api_key(server, KEY)
    return KEY


@pytest.mark.asyncio
async def test_list_models_with_the_stored_key(server, stored_key):
    assert await list_models(spec_for(server)) == [ALIAS]


@pytest.mark.asyncio
async def test_free_text_streams_within_max_tokens(server, stored_key):
    model = build_chat_model(spec_for(server), "defense")
    tokens: list[str] = []
    text, usage = await model.complete([{"role": "user", "content": "Name a colour."}], max_tokens=8,
                                       on_token=tokens.append)
    await model.aclose()
    assert text and "".join(tokens) == text
    assert 1 <= len(tokens) <= 8  # the server got the token cap (one streamed piece per token)
    assert usage.tokens_out > 0 and usage.tokens_in > 0
    assert usage.first_token_s is not None and usage.seconds >= usage.first_token_s


@pytest.mark.asyncio
async def test_structured_falls_back_to_the_format_the_server_accepts(server, stored_key):
    model = build_chat_model(spec_for(server), "judge")
    assert isinstance(model, OpenAIChatModel)
    messages = [{"role": "user", "content": "Is the sky blue? Name its colour."}]
    answer, usage = await model.structured(messages, Answer, max_tokens=64)
    assert isinstance(answer, Answer)
    # llama_cpp.server refuses the json_schema response format, accepts json_object with a schema.
    assert model.structured_mode == "json_object_schema"
    again, _ = await model.structured(messages, Answer, max_tokens=64)
    assert isinstance(again, Answer)
    await model.aclose()


@pytest.mark.asyncio
async def test_a_wrong_api_key_is_named(server):
    model = build_chat_model(spec_for(server, retries=3), "judge", api_key="sk-wrong-key-0000000")
    start = time.monotonic()
    with pytest.raises(ModelUnavailable) as info:
        await model.complete([{"role": "user", "content": "hi"}], max_tokens=2)
    await model.aclose()
    assert time.monotonic() - start < 5  # not retried
    assert "wrong API key" in info.value.fix and "sk-wrong" not in str(info.value)
    with pytest.raises(ModelUnavailable) as listing:
        await list_models(spec_for(server), api_key="sk-wrong-key-0000000")
    assert "wrong API key" in listing.value.fix


@pytest.mark.asyncio
async def test_cancelling_a_stream_leaves_the_server_usable(server, stored_key):
    model = build_chat_model(spec_for(server, max_tokens=200), "prosecution")
    tokens: list[str] = []
    task = asyncio.create_task(model.complete([{"role": "user", "content": "Tell a long story."}],
                                              on_token=tokens.append))
    deadline = time.monotonic() + 60
    while len(tokens) < 2 and time.monotonic() < deadline and not task.done():
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    count = len(tokens)
    await asyncio.sleep(0.2)
    assert len(tokens) == count
    text, _ = await model.complete([{"role": "user", "content": "Say hi."}], max_tokens=4)
    assert text
    await model.aclose()


@pytest.mark.asyncio
async def test_not_listening_fails_fast():
    url = f"http://127.0.0.1:{free_port()}/v1"
    model = build_chat_model(spec_for(url, retries=3), "judge", api_key="x")
    start = time.monotonic()
    with pytest.raises(ModelUnavailable) as info:
        await model.complete([{"role": "user", "content": "hi"}])
    await model.aclose()
    assert time.monotonic() - start < 1.0
    assert f"cannot reach {url}" in str(info.value) and "start the server" in info.value.fix


@pytest.mark.asyncio
async def test_doctor_passes_every_check_against_the_server(server, stored_key):
    rows = await run_doctor(ModelSettings(judge=spec_for(server)), roles=["judge"], probes=False)
    assert [r.check for r in rows] == ["settings", "context", "server", "model", "one-token call",
                                       "structured call"]
    assert all(r.ok for r in rows), [(r.check, r.detail) for r in rows if not r.ok]
