"""Finding model servers on this computer over real HTTP (the fake Ollama and OpenAI-compatible servers on
loopback): what they list (size, family, quantisation, context), that nothing running is found quickly, that a
server that never answers cannot hold detection up, and the model proposed for each role."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from courtroom_desktop.core.config import ModelSettings, ModelSpec
from courtroom_desktop.core.llm.discover import (
    FoundModel,
    Probe,
    chat_from_name,
    default_probes,
    detect,
    ollama_root,
    parameters_from_label,
    propose,
    quantization_from_name,
)
from testkit.fake_ollama import FakeModel, FakeOllama
from testkit.fake_openai import FakeOpenAI
from testkit.loopback import LoopbackServer, free_port

CATALOG = [
    FakeModel("llama3.2:3b", size=2_019_393_189, parameter_size="3.2B", family="llama", context_length=131072,
              parameter_count=3_212_749_888),
    FakeModel("qwen2.5:14b", size=8_988_124_069, parameter_size="14.8B", family="qwen2", context_length=32768,
              parameter_count=14_770_033_664),
    FakeModel("nomic-embed-text:latest", size=274_302_450, parameter_size="137M", family="nomic-bert",
              quantization="F16", context_length=2048, capabilities=("embedding",)),
]
LLAMA_SERVER_MODELS = [{"id": "Qwen2.5-7B-Instruct-Q4_K_M.gguf", "object": "model", "owned_by": "llamacpp",
                        "meta": {"n_ctx_train": 32768, "n_params": 7_615_616_512, "size": 4_677_120_000}}]
VLLM_MODELS = [{"id": "meta-llama/Llama-3.1-8B-Instruct", "object": "model", "owned_by": "vllm",
                "max_model_len": 16384}]


def probes_for(ollama: str, *openai: tuple[str, str]) -> list[Probe]:
    return [Probe("ollama", ollama, "Ollama"), Probe("openai", f"{ollama}/v1", "Ollama (OpenAI API)"),
            *(Probe("openai", url, name) for name, url in openai)]


@pytest.mark.asyncio
async def test_ollama_and_openai_servers_are_found_with_their_models():
    with FakeOllama(catalog=CATALOG) as ollama, FakeOpenAI(None, models=LLAMA_SERVER_MODELS) as llama, \
            FakeOpenAI(None, models=VLLM_MODELS) as vllm:
        detection = await detect(probes_for(ollama.url, ("llama.cpp server", llama.url), ("vLLM", vllm.url),
                                            ("LM Studio", f"http://127.0.0.1:{free_port()}/v1")))
        shows = [p for p in ollama.paths if p == "/api/show"]
    assert [s.name for s in detection.servers] == ["Ollama", "llama.cpp server", "vLLM"], \
        "Ollama's own /v1 lists the same models: dropped; nothing on the LM Studio port"
    assert len(shows) == 3, "every Ollama model's details asked"
    found = {m.name: m for m in detection.models()}
    qwen = found["qwen2.5:14b"]
    assert (qwen.size_bytes, qwen.family, qwen.quantization, qwen.context_length) == (8_988_124_069, "qwen2",
                                                                                      "Q4_K_M", 32768)
    assert qwen.parameter_label == "14.8B" and round(qwen.parameters_b, 2) == 14.77
    assert qwen.facts() == "14.8B, Q4_K_M, 32k context" and qwen.provider == "ollama"
    assert found["nomic-embed-text:latest"].embedding and not qwen.embedding
    gguf = found["Qwen2.5-7B-Instruct-Q4_K_M.gguf"]
    assert (gguf.provider, gguf.base_url, gguf.context_length) == ("openai", llama.url, 32768)
    assert round(gguf.parameters_b, 1) == 7.6 and gguf.quantization == "Q4_K_M" and gguf.chat is True
    assert gguf.size_bytes == 4_677_120_000
    served = found["meta-llama/Llama-3.1-8B-Instruct"]
    assert served.context_length == 16384 and served.parameters_b == 8.0


@pytest.mark.asyncio
async def test_nothing_running_is_found_quickly():
    probes = probes_for(f"http://127.0.0.1:{free_port()}", *(("x", f"http://127.0.0.1:{free_port()}/v1"),) * 3)
    start = time.monotonic()
    detection = await detect(probes)
    assert detection.servers == [] and detection.probed == probes
    assert time.monotonic() - start < 1.0


@pytest.mark.asyncio
async def test_a_port_that_accepts_and_never_answers_cannot_hold_detection():
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)  # the kernel completes the handshake; nobody ever reads or answers
    port = silent.getsockname()[1]
    try:
        with FakeOllama(catalog=CATALOG[:1]) as ollama:
            start = time.monotonic()
            detection = await detect(probes_for(ollama.url, ("stuck", f"http://127.0.0.1:{port}/v1")),
                                     read_timeout_s=0.5)
            took = time.monotonic() - start
    finally:
        silent.close()
    assert [s.name for s in detection.servers] == ["Ollama"]
    assert took < 2.0


class NotAModelServer(LoopbackServer):
    def _get(self, h):
        body = b"<html>a web app</html>"
        h.send_response(200)
        h.send_header("Content-Type", "text/html")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)


@pytest.mark.asyncio
async def test_a_server_that_is_not_a_model_server_is_left_out():
    with NotAModelServer() as web:
        detection = await detect([Probe("openai", f"{web.url}/v1", "llama.cpp server"),
                                  Probe("ollama", web.url, "Ollama")])
    assert detection.servers == [] and sorted(web.paths) == ["/api/tags", "/v1/models"]


def test_the_usual_places_and_the_overrides(monkeypatch):
    monkeypatch.delenv("COURTROOM_MODEL_SERVERS", raising=False)
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    places = {(p.kind, p.base_url) for p in default_probes()}
    assert places == {("ollama", "http://127.0.0.1:11434"), ("openai", "http://127.0.0.1:11434/v1"),
                      ("openai", "http://127.0.0.1:1234/v1"), ("openai", "http://127.0.0.1:8080/v1"),
                      ("openai", "http://127.0.0.1:8000/v1")}
    monkeypatch.setenv("OLLAMA_HOST", "0.0.0.0:11500")
    assert default_probes()[0].base_url == "http://127.0.0.1:11500"
    monkeypatch.setenv("COURTROOM_MODEL_SERVERS", "ollama=http://127.0.0.1:9/,openai=http://127.0.0.1:7/v1")
    assert [(p.kind, p.base_url) for p in default_probes()] == [("ollama", "http://127.0.0.1:9"),
                                                                ("openai", "http://127.0.0.1:7/v1")]
    monkeypatch.setenv("COURTROOM_MODEL_SERVERS", "none")
    assert default_probes() == []
    assert ollama_root("example.org") == "http://example.org:11434"


def test_names_say_size_quantisation_and_kind():
    assert parameters_from_label("14.8B") == 14.8 and parameters_from_label("135M") == 0.135
    assert parameters_from_label("mixtral:8x7b") == 56 and parameters_from_label("llama3") is None
    assert quantization_from_name("Qwen2.5-7B-Instruct-Q4_K_M.gguf") == "Q4_K_M"
    assert quantization_from_name("model-f16") == "F16" and quantization_from_name("qwen2.5:7b") == ""
    assert chat_from_name("gemma2:9b-it") is True and chat_from_name("Llama-3.1-8B-Instruct") is True
    assert chat_from_name("llama3:8b-text") is False and chat_from_name("qwen2.5:14b") is None


# ---------------------------------------------------------------- the proposal


def found(name: str, params: float | None, server: str = "Ollama", **kw) -> FoundModel:
    return FoundModel(server=server, provider="ollama", base_url="", name=name, parameters_b=params,
                      parameter_label=f"{params}B" if params else "", **kw)


@pytest.mark.asyncio
async def test_the_judge_gets_the_strongest_chat_model_and_counsel_the_next():
    with FakeOllama(catalog=CATALOG) as ollama:
        detection = await detect([Probe("ollama", ollama.url, "Ollama")])
    current = ModelSettings(default=ModelSpec(read_timeout_s=300.0, temperature=0.4))
    proposal = propose(detection.models(), current, "all-MiniLM-L6-v2")
    assert proposal.lines == [
        "judge: qwen2.5:14b, the largest chat model on Ollama (14.8B, Q4_K_M, 32k context)",
        "prosecution: llama3.2:3b, the second largest chat model on Ollama (3.2B, Q4_K_M, 128k context)",
        "defense: llama3.2:3b, as the prosecution: both sides argue with the same model",
        "embedder: all-MiniLM-L6-v2, as configured (another embedding model means re-indexing the library)",
    ]
    settings = proposal.settings(current)
    assert settings.default.model == "llama3.2:3b" and settings.judge.model == "qwen2.5:14b"
    assert settings.prosecution is None and settings.defense is None, "both sides use the default: the same model"
    assert settings.for_role("judge").provider == "ollama" and settings.judge.base_url == ollama.url
    assert settings.judge.num_ctx == 8192 and settings.default.num_ctx == 8192
    assert settings.judge.read_timeout_s == 300.0 and settings.default.temperature == 0.4, "the rest is kept"
    assert proposal.overrides() == ["prosecution=ollama:llama3.2:3b", "defense=ollama:llama3.2:3b",
                                    "judge=ollama:qwen2.5:14b"]


def test_never_an_embedding_model_and_chat_models_before_base_models():
    models = [found("nomic-embed-text:latest", 70.0, embedding=True), found("llama3:70b-text", 70.0, chat=False),
              found("qwen2.5:7b", 7.6), found("phi3:mini", 3.8)]
    proposal = propose(models)
    assert (proposal.judge.name, proposal.counsel.name) == ("qwen2.5:7b", "phi3:mini")
    assert propose([found("nomic-embed-text:latest", 0.1, embedding=True)]) is None
    assert propose([]) is None


def test_counsel_shares_the_judges_model_when_the_next_is_too_small_or_there_is_none():
    proposal = propose([found("qwen2.5:14b", 14.8), found("qwen2.5:0.5b", 0.5)])
    assert proposal.counsel is proposal.judge
    assert "the same model as the judge (the next one, qwen2.5:0.5b, 0.5B, is too small" in proposal.lines[1]
    alone = propose([found("mistral:7b", 7.2)])
    assert alone.counsel is alone.judge and "only chat model found" in alone.lines[1]
    assert alone.settings(ModelSettings()).judge is None, "one model: every role uses the default"


def test_size_stands_in_for_an_unknown_parameter_count_across_servers():
    big = FoundModel(server="LM Studio", provider="openai", base_url="http://127.0.0.1:1234/v1",
                     name="some-model", size_bytes=40_000_000_000, quantization="Q4_K_M")
    small = found("llama3.2:3b", 3.2)
    proposal = propose([small, big])
    assert proposal.judge is big and "found, on LM Studio" in proposal.lines[0]
    spec = proposal.settings(ModelSettings()).judge
    assert (spec.provider, spec.base_url, spec.model) == ("openai", "http://127.0.0.1:1234/v1", "some-model")


def test_detection_from_a_worker_thread(monkeypatch):
    from courtroom_desktop.core.llm.discover import detect_blocking

    with FakeOllama(catalog=CATALOG) as ollama:
        monkeypatch.setenv("COURTROOM_MODEL_SERVERS", f"ollama={ollama.url}")
        detection = asyncio.run(asyncio.to_thread(detect_blocking))
    assert [m.name for m in detection.models()] == [m.name for m in CATALOG]
