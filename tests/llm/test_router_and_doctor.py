"""Building models from settings, the router's cache and overrides, the grammar schema rewrite, and
`courtroom doctor` (logic and command) against the fake Ollama server and the embedded model."""

from __future__ import annotations

import json

import pytest

from courtroom_desktop.cli import main as cli_main
from courtroom_desktop.core.config import AppConfig, ModelSettings, ModelSpec, save_config
from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.llm import ModelRouter, ScriptedChatModel, build_chat_model
from courtroom_desktop.core.llm.doctor import DoctorRow, failed, run_doctor
from courtroom_desktop.core.llm.embedded import EmbeddedChatModel
from courtroom_desktop.core.llm.grammar import grammar_schema
from courtroom_desktop.core.llm.ollama import OllamaChatModel
from courtroom_desktop.core.llm.openai_compat import OpenAIChatModel
from testkit.fake_ollama import MODEL, FakeOllama
from testkit.loopback import free_port

# ---------------------------------------------------------------- building and routing


def test_build_chat_model_picks_the_provider():
    assert isinstance(build_chat_model(ModelSpec(), "judge"), EmbeddedChatModel)
    ollama = build_chat_model(ModelSpec(provider="ollama", model="qwen3:4b", num_ctx=8192), "judge")
    assert isinstance(ollama, OllamaChatModel)
    assert (ollama.provider, ollama.model_name, ollama.context_window) == ("ollama", "qwen3:4b", 8192)
    assert ollama.base_url == "http://localhost:11434"
    openai = build_chat_model(ModelSpec(provider="openai", model="m", base_url="http://h:1/v1/"), "defense")
    assert isinstance(openai, OpenAIChatModel) and openai.base_url == "http://h:1/v1"


def test_build_chat_model_rejects_bad_settings():
    with pytest.raises(ConfigError, match="base_url"):
        build_chat_model(ModelSpec(provider="openai", model="m"), "judge")
    with pytest.raises(ConfigError, match="unknown role"):
        build_chat_model(ModelSpec(), "jury")


def test_the_router_gives_each_role_its_spec_and_caches():
    settings = ModelSettings(judge=ModelSpec(provider="ollama", model="big:70b"))
    router = ModelRouter(AppConfig(models=settings))
    judge = router.for_role("judge")
    assert isinstance(judge, OllamaChatModel) and judge.model_name == "big:70b" and judge.role == "judge"
    assert isinstance(router.for_role("prosecution"), EmbeddedChatModel)
    assert router.for_role("judge") is judge
    assert set(router.all()) == {"prosecution", "defense", "judge"}
    with pytest.raises(ConfigError):
        router.for_role("clerk")


@pytest.mark.asyncio
async def test_router_overrides_inject_scripted_models():
    scripted = ScriptedChatModel(["Objection."], role="defense")
    router = ModelRouter(ModelSettings(), overrides={"defense": scripted})
    assert router.for_role("defense") is scripted
    assert (await router.for_role("defense").complete([{"role": "user", "content": "?"}]))[0] == "Objection."
    await router.aclose()


def test_grammar_schema_turns_bounded_numbers_into_enums():
    schema = {
        "type": "object",
        "properties": {
            "confidence": {"type": "number", "minimum": 0, "maximum": 1, "title": "C"},
            "round": {"type": "integer", "minimum": 1, "maximum": 4},
            "score": {"type": "number", "exclusiveMinimum": 0, "maximum": 10},
            "free": {"type": "number"},
            "name": {"type": "string", "maxLength": 5},
        },
        "$defs": {"Inner": {"type": "number", "minimum": 0, "maximum": 1}},
    }
    out = grammar_schema(schema)
    conf = out["properties"]["confidence"]
    assert conf["title"] == "C" and "type" not in conf
    assert conf["enum"][:3] == [0, 0.01, 0.02] and conf["enum"][-1] == 1 and len(conf["enum"]) == 101
    assert out["properties"]["round"] == {"enum": [1, 2, 3, 4]}
    assert out["properties"]["score"]["enum"][0] == 0.1 and out["properties"]["score"]["enum"][-1] == 10
    assert out["properties"]["free"] == {"type": "number"}
    assert out["properties"]["name"] == {"type": "string", "maxLength": 5}
    assert len(out["$defs"]["Inner"]["enum"]) == 101
    assert schema["properties"]["confidence"]["maximum"] == 1  # the input is not modified


# ---------------------------------------------------------------- doctor


def ollama_spec(url: str, **overrides) -> ModelSpec:
    values = dict(provider="ollama", model=MODEL, base_url=url, num_ctx=8192, connect_timeout_s=1.0,
                  read_timeout_s=5.0)
    values.update(overrides)
    return ModelSpec(**values)


def by_check(rows: list[DoctorRow]) -> dict[str, DoctorRow]:
    return {r.check: r for r in rows}


@pytest.mark.asyncio
async def test_doctor_all_green_against_a_healthy_ollama():
    with FakeOllama("healthy") as server:
        rows = await run_doctor(ModelSettings(default=ollama_spec(server.url)), roles=["judge", "defense"],
                                probes=False)
    assert [r.role for r in rows] == ["judge"] * 6 + ["defense"] * 6
    assert all(r.ok for r in rows) and not failed(rows)
    assert len(server.requests) == 2  # identical specs are checked once: one-token call + structured call
    assert server.requests[0]["options"]["num_predict"] == 1
    assert isinstance(server.requests[1]["format"], dict)


@pytest.mark.asyncio
async def test_doctor_says_start_ollama_when_nothing_listens():
    url = f"http://127.0.0.1:{free_port()}"
    rows = by_check(await run_doctor(ModelSettings(judge=ollama_spec(url)), roles=["judge"]))
    assert rows["server"].ok is False and "start Ollama" in rows["server"].fix
    assert rows["model"].ok is None and rows["structured call"].ok is None


@pytest.mark.asyncio
async def test_doctor_says_ollama_pull_for_a_missing_model():
    with FakeOllama("healthy") as server:
        rows = by_check(await run_doctor(ModelSettings(judge=ollama_spec(server.url, model="llama3.2:3b")),
                                         roles=["judge"]))
    assert rows["server"].ok is True
    assert rows["model"].ok is False and rows["model"].fix == "ollama pull llama3.2:3b"
    assert MODEL in rows["model"].detail
    assert rows["one-token call"].ok is None


@pytest.mark.asyncio
async def test_doctor_says_raise_num_ctx():
    with FakeOllama("healthy") as server:
        rows = by_check(await run_doctor(ModelSettings(judge=ollama_spec(server.url, num_ctx=2048)),
                                         roles=["judge"]))
    assert rows["context"].ok is False and "raise num_ctx" in rows["context"].fix
    assert rows["server"].ok is True and rows["model"].ok is True  # the other checks still ran
    assert rows["one-token call"].ok is None


@pytest.mark.asyncio
async def test_doctor_reports_a_server_that_never_answers():
    with FakeOllama("hang") as server:
        rows = by_check(await run_doctor(ModelSettings(judge=ollama_spec(server.url, read_timeout_s=1.0)),
                                         roles=["judge"]))
    assert rows["model"].ok is True  # /api/tags answers, the chat does not
    assert rows["one-token call"].ok is False and "read_timeout_s" in rows["one-token call"].fix
    assert rows["structured call"].ok is None


@pytest.mark.asyncio
async def test_doctor_reports_a_model_that_cannot_produce_the_schema():
    scripted = ScriptedChatModel(["OK", "not json", "still not json"], role="judge")
    with FakeOllama("healthy") as server:
        rows = by_check(await run_doctor(ModelSettings(judge=ollama_spec(server.url)), roles=["judge"],
                                         overrides={"judge": scripted}))
    assert rows["one-token call"].ok is True
    assert rows["structured call"].ok is False and "JSON" in rows["structured call"].fix


@pytest.mark.asyncio
async def test_doctor_checks_the_embedded_model_for_real():
    rows = by_check(await run_doctor(ModelSettings(), roles=["prosecution"]))
    assert all(r.ok for r in rows.values() if r.kind == "check"), {k: r.detail for k, r in rows.items() if not r.ok}
    assert "loaded SmolLM2-135M-Instruct" in rows["model"].detail
    # the GGUF's own metadata: its name, size and context
    assert "Smollm2 135M" in rows["model"].detail and "135M parameters" in rows["model"].detail
    assert "trained for 8192 tokens" in rows["model"].detail and "n_ctx 4096" in rows["model"].detail
    # the bundled model is the demo model: rated so without a probe
    assert rows["rating"].result == "demo only" and "not probed" in rows["rating"].detail
    assert not any(r.kind == "probe" for r in rows.values()) and not failed(list(rows.values()))


def test_the_doctor_command_prints_a_table_and_exits_1_on_failure(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # no wrapping inside the fix text
    config = AppConfig(models=ModelSettings(default=ollama_spec(f"http://127.0.0.1:{free_port()}", num_ctx=1024)))
    save_config(config, tmp_path / "config")
    status = cli_main(["--config-dir", str(tmp_path / "config"), "--data-dir", str(tmp_path / "data"), "doctor",
                       "--role", "judge", "--no-calls"])
    out = capsys.readouterr().out
    assert status == 1
    assert "start Ollama" in out and "raise num_ctx" in out and "[models.judge]" in out
    assert "FAIL" in out


def test_the_doctor_command_json_output(tmp_path, capsys):
    with FakeOllama("healthy") as server:
        save_config(AppConfig(models=ModelSettings(default=ollama_spec(server.url))), tmp_path / "config")
        status = cli_main(["--config-dir", str(tmp_path / "config"), "doctor", "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert status == 0
    assert {r["role"] for r in rows} == {"prosecution", "defense", "judge"}
    checks = [r for r in rows if r["kind"] == "check"]
    assert all(r["ok"] for r in checks) and len(checks) == 18
    # three probes and a rating per role: the fake's filler answers miss them (reported, not a failure)
    assert [r["result"] for r in rows if r["kind"] == "rating"] == ["demo only"] * 3 and len(rows) == 30
