"""Pulling a model through Ollama (``core.llm.pull``) against the fake Ollama's streaming /api/pull over real HTTP:
progress with bytes and speed, cancel (the stream is closed), resume after a cancel or a dropped connection, the disk
checked before and at the first progress, an unknown name, and Ollama not running."""

from __future__ import annotations

import asyncio

import pytest

from courtroom_desktop.core.errors import ModelUnavailable
from courtroom_desktop.core.llm import pull
from courtroom_desktop.core.llm.pull import PullError, pull_model
from testkit.fake_ollama import FakeOllama
from testkit.loopback import free_port

GB = 1_000_000_000
LIBRARY = {"phi3:mini": [6_000_000, 4000]}  # two layers: the weights and a small one


@pytest.fixture(autouse=True)
def roomy_disk(monkeypatch):
    """The fake is on this computer, so its free space is checked: plenty, unless a test says otherwise."""
    monkeypatch.setattr(pull, "free_bytes", lambda path: 500 * GB)


async def until(predicate, timeout: float = 10.0):
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


@pytest.mark.asyncio
async def test_a_pull_reports_bytes_and_speed_and_the_model_is_then_listed():
    seen = []
    with FakeOllama(library=LIBRARY, pull_chunk=500_000, pull_delay_s=0.01) as server:
        result = await pull_model("phi3:mini", server.url, on_progress=seen.append)
        tags = [m.name for m in server._models()]
    assert seen[0].status == "pulling manifest" and seen[-1].status == "success"
    assert result.total_bytes == 6_004_000 and result.resumed_from == 0 and result.seconds > 0
    layers = [p for p in seen if p.total]
    assert layers[0].total == 6_000_000 and layers[0].completed == 0 and not layers[0].resuming
    assert seen[-1].overall_completed == seen[-1].overall_total == 6_004_000 and seen[-1].fraction == 1.0
    assert max(p.bytes_per_s for p in seen) > 1_000_000, "speed measured from the bytes over time"
    assert "MB/s" in layers[5].line() and " of 6.0 MB" in layers[5].line()
    assert result.statuses[-3:] == ["verifying sha256 digest", "writing manifest", "success"]
    assert "phi3:mini" in tags


@pytest.mark.asyncio
async def test_cancel_closes_the_stream_and_a_second_pull_resumes():
    seen = []
    with FakeOllama(library=LIBRARY, pull_chunk=200_000, pull_delay_s=0.02) as server:
        task = asyncio.ensure_future(pull_model("phi3:mini", server.url, on_progress=seen.append))
        await until(lambda: any(p.completed >= 1_000_000 for p in seen))
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await until(lambda: server.pull_disconnects == 1)  # the server's next write found the stream closed
        kept = max(server.downloaded.values())
        assert 1_000_000 <= kept < 6_000_000
        again = []
        result = await pull_model("phi3:mini", server.url, on_progress=again.append)
    first = next(p for p in again if p.total)
    assert first.resuming and first.resumed_from == first.completed == kept
    assert "resuming from" in first.line()
    assert all(p.resuming for p in again if p.total) and again[-1].status == "success"
    assert result.resumed_from == kept and result.total_bytes == 6_004_000
    assert server.pulls_started == 2


@pytest.mark.asyncio
async def test_a_connection_dropped_mid_pull_says_pull_again_and_that_resumes():
    with FakeOllama(library=LIBRARY, pull_chunk=1_000_000, pull_disconnect_after=3_000_000) as server:
        with pytest.raises(PullError) as info:
            await pull_model("phi3:mini", server.url)
        assert "broke while pulling phi3:mini" in str(info.value)
        assert "resumes" in info.value.fix and "courtroom models pull phi3:mini" in info.value.fix
        result = await pull_model("phi3:mini", server.url)
    assert result.resumed_from == 3_000_000


@pytest.mark.asyncio
async def test_too_little_disk_space_refuses_to_start(monkeypatch):
    monkeypatch.setattr(pull, "free_bytes", lambda path: 300_000_000)
    monkeypatch.setenv("OLLAMA_MODELS", "/somewhere/models")
    with FakeOllama(library=LIBRARY) as server:
        with pytest.raises(PullError) as info:
            await pull_model("phi3:mini", server.url)
    assert "only 300.0 MB free in /somewhere/models: not enough to pull phi3:mini" in str(info.value)
    assert "OLLAMA_MODELS" in info.value.fix
    assert server.pulls_started == 0, "refused before asking Ollama"


@pytest.mark.asyncio
async def test_a_model_larger_than_the_free_space_stops_at_its_first_progress(monkeypatch, tmp_path):
    monkeypatch.setattr(pull, "free_bytes", lambda path: int(1.5 * GB))
    monkeypatch.setenv("OLLAMA_MODELS", str(tmp_path / "models"))
    seen = []
    with FakeOllama(library={"qwen2.5:7b": [4_700_000_000, 500]}, pull_chunk=10_000_000,
                    pull_delay_s=0.01) as server:
        with pytest.raises(PullError) as info:
            await pull_model("qwen2.5:7b", server.url, on_progress=seen.append)
        await until(lambda: server.pull_disconnects == 1)
        downloaded = max(server.downloaded.values(), default=0)
    assert f"not enough disk space for qwen2.5:7b: it needs 4.7 GB more, 1.5 GB is free in {tmp_path / 'models'}" \
        in str(info.value)
    assert [p.status for p in seen] == ["pulling manifest"], "stopped at the first progress with a size"
    assert downloaded < 100_000_000, "the stream was closed, the download did not go on"


@pytest.mark.asyncio
async def test_resuming_counts_only_what_is_left_against_the_disk(monkeypatch):
    monkeypatch.setattr(pull, "free_bytes", lambda path: int(1.5 * GB))
    with FakeOllama(library={"qwen2.5:7b": [4_700_000_000]}, pull_chunk=100_000_000) as server:
        server.downloaded[server.layer_digest("qwen2.5:7b", 0)] = 4_000_000_000  # a pull stopped at 4 GB
        result = await pull_model("qwen2.5:7b", server.url)
    assert result.resumed_from == 4_000_000_000


@pytest.mark.asyncio
async def test_an_unknown_name_points_at_the_library():
    with FakeOllama(library=LIBRARY) as server:
        with pytest.raises(PullError) as info:
            await pull_model("nosuchmodel:1b", server.url)
    assert str(info.value).startswith("no model nosuchmodel:1b in the Ollama library; see https://ollama.com/library")
    with pytest.raises(PullError, match="not an Ollama model name"):
        await pull_model("two words", "http://127.0.0.1:9")


@pytest.mark.asyncio
async def test_ollama_not_running_says_how_to_start_it():
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(ModelUnavailable) as info:
        await pull_model("phi3:mini", url)
    assert f"cannot reach Ollama at {url}" in str(info.value)
    assert info.value.fix.startswith("start Ollama: `ollama serve`")


@pytest.mark.asyncio
async def test_no_disk_check_for_a_remote_ollama(monkeypatch):
    monkeypatch.setattr(pull, "free_bytes", lambda path: 0)
    assert not pull.is_local("http://gpu-box.lan:11434") and pull.is_local("http://localhost:11434")
    with FakeOllama(library=LIBRARY) as server:
        result = await pull_model("phi3:mini", server.url, check_disk=False)
    assert result.total_bytes == 6_004_000
