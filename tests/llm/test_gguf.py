"""Any GGUF file the user has, run by the embedded provider: a copy of the bundled GGUF chosen from disk loads, the
doctor passes and reports the file's own name, size and context; threads and GPU layers reach llama.cpp; a file that
is missing, not a GGUF, or a GGUF that cannot be loaded fails with its name."""

from __future__ import annotations

import shutil

import pytest

from courtroom_desktop.core.config import ModelSettings, ModelSpec
from courtroom_desktop.core.errors import ModelUnavailable
from courtroom_desktop.core.llm import embedded
from courtroom_desktop.core.llm.doctor import PROBES, RATINGS, failed, run_doctor
from courtroom_desktop.core.llm.embedded import bundled_gguf_path, resolve_gguf, shared_llama


def by_check(rows):
    return {r.check: r for r in rows}


@pytest.fixture
def my_gguf(tmp_path):
    path = tmp_path / "models" / "my-model.gguf"
    path.parent.mkdir()
    shutil.copyfile(bundled_gguf_path(), path)
    yield path
    embedded._loaded.pop(path.resolve(), None)
    embedded._vocabs.pop(path.resolve(), None)


@pytest.mark.asyncio
async def test_a_gguf_chosen_from_disk_loads_and_the_doctor_passes(my_gguf):
    spec = ModelSpec(provider="embedded", model=str(my_gguf), threads=1, max_tokens=48)
    rows = await run_doctor(ModelSettings(judge=spec), roles=["judge"])
    checks = by_check(rows)
    assert not failed(rows), [(r.check, r.detail) for r in rows if r.ok is False]
    assert all(checks[name].ok for name in ("settings", "context", "server", "model", "one-token call",
                                            "structured call"))
    model = checks["model"].detail
    assert model.startswith("loaded my-model.gguf: Smollm2 135M"), model           # the file's own general.name
    assert "135M parameters" in model and "MB file" in model and "trained for 8192 tokens" in model
    assert "n_ctx 4096, 1 thread" in model                                           # the spec's threads were used
    assert embedded._loaded[my_gguf.resolve()].threads == 1
    # a model from disk is not the bundled demo model: the probes run and rate it
    assert [r.check for r in rows if r.kind == "probe"] == list(PROBES)
    assert all(r.result in ("pass", "miss") for r in rows if r.kind == "probe")
    assert checks["rating"].result in RATINGS and "probes passed" in checks["rating"].detail


def test_threads_and_gpu_layers_reach_llama_cpp(tmp_path, monkeypatch):
    calls = []

    class FakeLlama:
        metadata = {"general.name": "Fake", "general.architecture": "llama", "llama.context_length": "2048"}

        def n_ctx(self):
            return 2048

    def construct(path, **kwargs):
        calls.append(kwargs)
        return FakeLlama()

    monkeypatch.setattr(embedded, "_construct_llama", construct)
    monkeypatch.setattr(embedded, "_make_formatter", lambda llama: None)
    monkeypatch.setenv("COURTROOM_LLAMA_THREADS", "5")
    first, second = tmp_path / "a.gguf", tmp_path / "b.gguf"
    for path in (first, second):
        path.write_bytes(b"GGUF" + b"\0" * 16)
    try:
        shared = shared_llama(first, 2048, threads=3, gpu_layers=7)
        assert calls[-1] == {"n_ctx": 2048, "n_threads": 3, "n_gpu_layers": 7}
        assert "3 threads" in shared.describe() and "7 layers on the GPU" in shared.describe()
        shared_llama(second, 1024)  # 0 threads: automatic (COURTROOM_LLAMA_THREADS here), no GPU layers
        assert calls[-1] == {"n_ctx": 1024, "n_threads": 5, "n_gpu_layers": 0}
    finally:
        embedded._loaded.pop(first.resolve(), None)
        embedded._loaded.pop(second.resolve(), None)


def test_spec_fields_have_dialog_labels_and_bounds():
    fields = ModelSpec.model_fields
    assert fields["threads"].json_schema_extra["label"] == "CPU threads" and "0: automatic" in fields["threads"].description
    assert fields["gpu_layers"].json_schema_extra["label"] == "GPU layers" and "-1: all" in fields["gpu_layers"].description
    assert ModelSpec().threads == 0 and ModelSpec().gpu_layers == 0
    with pytest.raises(ValueError):
        ModelSpec(threads=-1)


def test_a_missing_file_and_a_file_that_is_not_a_gguf_fail_with_their_name(tmp_path):
    with pytest.raises(ModelUnavailable, match="GGUF file not found: .*absent.gguf"):
        resolve_gguf(str(tmp_path / "absent.gguf"))
    notes = tmp_path / "notes.gguf"
    notes.write_text("these are my notes, not a model", encoding="utf-8")
    with pytest.raises(ModelUnavailable) as info:
        resolve_gguf(str(notes))
    assert f"{notes} is not a GGUF file" in str(info.value) and ".gguf" in info.value.fix


@pytest.mark.asyncio
async def test_the_doctor_names_a_bad_file(tmp_path):
    notes = tmp_path / "notes.gguf"
    notes.write_text("these are my notes, not a model", encoding="utf-8")
    rows = by_check(await run_doctor(ModelSettings(judge=ModelSpec(model=str(notes))), roles=["judge"]))
    assert rows["server"].ok is False and f"{notes} is not a GGUF file" in rows["server"].detail
    assert rows["model"].ok is None and rows["rating"].result == "not rated"

    broken = tmp_path / "broken.gguf"  # the magic bytes, then nothing llama.cpp can read
    broken.write_bytes(b"GGUF" + b"\x03\x00\x00\x00" + b"\xff" * 64)
    rows = by_check(await run_doctor(ModelSettings(judge=ModelSpec(model=str(broken))), roles=["judge"]))
    assert rows["server"].ok is True
    assert rows["model"].ok is False and f"could not load {broken}" in rows["model"].detail, rows["model"].detail
    assert rows["one-token call"].ok is None
