"""`courtroom models list | pull | use` against the fake Ollama (and a fake OpenAI-compatible server) over HTTP:
what is found and proposed, what each role uses now, a pull with its progress, resume, Ctrl+C, errors, and the
settings file written by `use` (validated first)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from courtroom_desktop.cli import main
from courtroom_desktop.core.config import AppConfig, ModelSettings, ModelSpec, load_config, save_config
from courtroom_desktop.core.llm import pull
from testkit.fake_ollama import FakeModel, FakeOllama
from testkit.fake_openai import FakeOpenAI
from testkit.loopback import free_port

from .test_discover import CATALOG, LLAMA_SERVER_MODELS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(autouse=True)
def wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "240")  # rich wraps at the terminal width: one line per line here
    monkeypatch.setattr(pull, "free_bytes", lambda path: 10**12)


def courtroom(tmp_path, *args: str) -> int:
    return main(["--config-dir", str(tmp_path / "config"), "--data-dir", str(tmp_path / "data"), *args])


def test_models_list_shows_what_is_found_the_proposal_and_the_roles_now(tmp_path, capsys, monkeypatch):
    with FakeOllama(catalog=CATALOG) as ollama, FakeOpenAI(None, models=LLAMA_SERVER_MODELS) as llama:
        monkeypatch.setenv("COURTROOM_MODEL_SERVERS", f"ollama={ollama.url},openai={llama.url}")
        assert courtroom(tmp_path, "models", "list") == 0
    out = capsys.readouterr().out
    assert f"Ollama at {ollama.url}" in out and f"server at {llama.url}" in out
    row = next(line for line in out.splitlines() if "qwen2.5:14b" in line and "9.0 GB" in line)
    assert all(word in row for word in ("14.8B", "qwen2", "Q4_K_M", "32k", "chat"))
    assert "embedding" in next(line for line in out.splitlines() if "nomic-embed-text" in line)
    assert "judge: qwen2.5:14b, the largest chat model found, on Ollama (14.8B, Q4_K_M, 32k context)" in out
    assert "prosecution: Qwen2.5-7B-Instruct-Q4_K_M.gguf, the second largest chat model found" in out
    assert "courtroom models use auto" in out
    assert "judge: embedded: the bundled SmolLM2-135M (demo model)" in out
    assert "demo model: try the app, do not rely on this verdict" in out


def test_models_list_with_nothing_running(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COURTROOM_MODEL_SERVERS", f"ollama=http://127.0.0.1:{free_port()}")
    assert courtroom(tmp_path, "models", "list") == 0
    out = capsys.readouterr().out
    assert "No model server answered" in out and "courtroom models pull qwen2.5:7b" in out
    assert courtroom(tmp_path, "models", "list", "--json") == 0
    found = json.loads(capsys.readouterr().out)
    assert found["servers"] == [] and found["proposal"] == [] and len(found["now"]) == 3


def test_models_list_json(tmp_path, capsys, monkeypatch):
    with FakeOllama(catalog=CATALOG) as ollama:
        monkeypatch.setenv("COURTROOM_MODEL_SERVERS", f"ollama={ollama.url}")
        assert courtroom(tmp_path, "models", "list", "--json") == 0
    found = json.loads(capsys.readouterr().out)
    models = {m["name"]: m for m in found["servers"][0]["models"]}
    assert models["llama3.2:3b"]["context_length"] == 131072 and models["llama3.2:3b"]["size_bytes"] == 2_019_393_189
    assert found["proposal"][0].startswith("judge: qwen2.5:14b")


def test_models_use_writes_validated_settings(tmp_path, capsys, monkeypatch):
    save_config(AppConfig(models=ModelSettings(default=ModelSpec(read_timeout_s=240.0))), tmp_path / "config")
    with FakeOllama(catalog=CATALOG) as ollama:
        monkeypatch.setenv("OLLAMA_HOST", ollama.url)
        assert courtroom(tmp_path, "models", "use", "judge=ollama:qwen2.5:14b", "--base-url", ollama.url) == 0
        out = capsys.readouterr().out
        models = load_config(tmp_path / "config").models
        assert (models.judge.provider, models.judge.model, models.judge.base_url) == ("ollama", "qwen2.5:14b",
                                                                                    ollama.url)
        assert models.judge.read_timeout_s == 240.0, "the role keeps its other settings"
        assert models.prosecution is None and "judge: ollama: qwen2.5:14b" in out
        assert "not on Ollama" not in out

        assert courtroom(tmp_path, "models", "use", "all=ollama:phi4:mini", "--base-url", ollama.url) == 0
        assert "note: phi4:mini is not on Ollama yet: `courtroom models pull phi4:mini`" in capsys.readouterr().out
        models = load_config(tmp_path / "config").models
        assert {models.for_role(r).model for r in ("prosecution", "defense", "judge")} == {"phi4:mini"}

        monkeypatch.setenv("COURTROOM_MODEL_SERVERS", f"ollama={ollama.url}")
        assert courtroom(tmp_path, "models", "use", "auto") == 0
        assert capsys.readouterr().out.startswith("judge: qwen2.5:14b, the largest chat model on Ollama")
        models = load_config(tmp_path / "config").models
        assert models.judge.model == "qwen2.5:14b" and models.for_role("defense").model == "llama3.2:3b"

    assert courtroom(tmp_path, "models", "use", "all=embedded:") == 0
    assert "judge: embedded: the bundled SmolLM2-135M (demo model)" in capsys.readouterr().out


def test_models_use_refuses_what_would_not_work(tmp_path, capsys):
    before = "nothing saved"
    assert courtroom(tmp_path, "models", "use", "defense=openai:my-model") == 2
    assert "base_url" in capsys.readouterr().err and not (tmp_path / "config" / "config.toml").exists(), before
    notes = tmp_path / "notes.gguf"
    notes.write_text("not a model", encoding="utf-8")
    assert courtroom(tmp_path, "models", "use", f"defense=embedded:{notes}") == 2
    assert f"{notes} is not a GGUF file" in capsys.readouterr().err
    assert courtroom(tmp_path, "models", "use", "jury=ollama:x") == 2
    assert "unknown role 'jury'" in capsys.readouterr().err
    assert courtroom(tmp_path, "models", "use", "judge=ollama:") == 2
    assert "name the Ollama model" in capsys.readouterr().err
    assert not (tmp_path / "config" / "config.toml").exists()
    with FakeOpenAI(None) as server:
        assert courtroom(tmp_path, "models", "use", "defense=openai:stress-model", "--base-url", server.url) == 0
    assert load_config(tmp_path / "config").models.defense.base_url == server.url


def test_models_pull_shows_progress_and_resumes(tmp_path, capsys):
    library = {"phi3:mini": [4_000_000, 1000]}
    with FakeOllama(library=library, pull_chunk=500_000) as ollama:
        assert courtroom(tmp_path, "models", "pull", "phi3:mini", "--url", ollama.url) == 0
        out = capsys.readouterr().out
        assert "pulled phi3:mini (4.0 MB in" in out and "resuming" not in out
        assert "courtroom models use all=ollama:phi3:mini" in out
        ollama.library["qwen2.5:7b"] = [8_000_000]
        ollama.downloaded[ollama.layer_digest("qwen2.5:7b", 0)] = 3_000_000  # an earlier pull stopped there
        assert courtroom(tmp_path, "models", "pull", "qwen2.5:7b", "--url", ollama.url) == 0
        out = capsys.readouterr().out
    assert "resuming: 3.0 MB of qwen2.5:7b already downloaded" in out and "pulled qwen2.5:7b" in out


def test_models_pull_errors(tmp_path, capsys, monkeypatch):
    with FakeOllama(library={}) as ollama:
        assert courtroom(tmp_path, "models", "pull", "nosuch:1b", "--url", ollama.url) == 2
    err = capsys.readouterr().err
    assert "no model nosuch:1b in the Ollama library; see https://ollama.com/library" in err
    url = f"http://127.0.0.1:{free_port()}"
    assert courtroom(tmp_path, "models", "pull", "phi3:mini", "--url", url) == 2
    err = capsys.readouterr().err
    assert f"cannot reach Ollama at {url}" in err and "fix: start Ollama: `ollama serve`" in err
    monkeypatch.setattr(pull, "free_bytes", lambda path: 10_000_000)
    with FakeOllama(library={"phi3:mini": [1000]}) as ollama:
        assert courtroom(tmp_path, "models", "pull", "phi3:mini", "--url", ollama.url) == 2
    assert "only 10.0 MB free" in capsys.readouterr().err


def test_models_pull_uses_the_ollama_in_the_settings(tmp_path, capsys):
    with FakeOllama(library={"phi3:mini": [1000]}) as ollama:
        save_config(AppConfig(models=ModelSettings(judge=ModelSpec(provider="ollama", model="x",
                                                                   base_url=ollama.url))), tmp_path / "config")
        assert courtroom(tmp_path, "models", "pull", "phi3:mini") == 0
    assert ollama.pulls_started == 1


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_ctrl_c_cancels_a_pull_and_closes_the_stream(tmp_path):
    # 400 chunks at 0.05 s: a pull of about 20 s, so that the interrupt lands mid-pull even on a loaded machine (with
    # 5 s the whole pull once finished before a starved test process sent it)
    with FakeOllama(library={"qwen2.5:7b": [200_000_000]}, pull_chunk=500_000, pull_delay_s=0.05) as ollama:
        env = dict(os.environ, COURTROOM_CONFIG_DIR=str(tmp_path / "config"), COURTROOM_DATA_DIR=str(tmp_path),
                   OLLAMA_MODELS=str(tmp_path), PYTHONPATH=ROOT)
        proc = subprocess.Popen([sys.executable, "-m", "courtroom_desktop", "models", "pull", "qwen2.5:7b", "--url",
                                 ollama.url], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True,
                                # as a terminal runs it: a test run started in the background (nohup, `&`) has
                                # SIGINT ignored, which the child would inherit and Python then leaves ignored
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        try:
            deadline = time.monotonic() + 60
            while max(ollama.downloaded.values(), default=0) < 2_000_000 and time.monotonic() < deadline:
                time.sleep(0.05)
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
        deadline = time.monotonic() + 5
        while ollama.pull_disconnects < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        kept = max(ollama.downloaded.values())
    assert proc.returncode == 130, (out, err)
    assert "cancelled: Ollama keeps what was downloaded; `courtroom models pull qwen2.5:7b` resumes" in out
    assert ollama.pull_disconnects == 1, "the HTTP stream was closed"
    assert 2_000_000 <= kept < 200_000_000


def test_a_fake_model_is_listed_once_pulled(tmp_path, capsys, monkeypatch):
    with FakeOllama(catalog=[FakeModel("llama3.2:3b", parameter_size="3.2B")],
                    library={"qwen2.5:7b": [2000]}) as ollama:
        monkeypatch.setenv("COURTROOM_MODEL_SERVERS", f"ollama={ollama.url}")
        assert courtroom(tmp_path, "models", "pull", "qwen2.5:7b", "--url", ollama.url) == 0
        capsys.readouterr()
        assert courtroom(tmp_path, "models", "list", "--json") == 0
    names = [m["name"] for m in json.loads(capsys.readouterr().out)["servers"][0]["models"]]
    assert names == ["llama3.2:3b", "qwen2.5:7b"]
