"""llama.cpp's setup for this machine, apart from the models themselves: how many threads, whether its extra buffer
types (AMX, weight repacking) are safe on this CPU, OpenMP's wait policy, and a GGUF's account of itself. Used by
core.llm.embedded and by processes that construct ``llama_cpp.Llama`` themselves (scripts/llama_server.py, bench/)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llama_cpp.llama_cpp import llama_model_params


def default_threads() -> int:
    env = os.environ.get("COURTROOM_LLAMA_THREADS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    return max(1, min(os.cpu_count() or 2, 8))


def threads_for(spec_threads: int) -> int:
    """A spec's ``threads`` (0: automatic, :func:`default_threads`)."""
    return int(spec_threads) if spec_threads and spec_threads > 0 else default_threads()


def _cpu_reports_amx() -> bool:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            return any(line.startswith("flags") and " amx_tile" in line for line in fh)
    except OSError:
        return False


def use_extra_buffer_types() -> bool:
    env = os.environ.get("COURTROOM_LLAMA_EXTRA_BUFTS", "").strip()
    if env in ("0", "1"):
        return env == "1"
    return not _cpu_reports_amx()


def prepare_environment() -> None:
    """Before llama.cpp is first imported: idle OpenMP workers sleep instead of spinning. On small machines (2 cores)
    spinning workers starve every other thread (the event loop, an HTTP server, the window) and were measured to
    slow llama.cpp itself by 20x under contention. ``OMP_WAIT_POLICY`` set by the user wins."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


class _WithoutExtraBufts:
    """llama.cpp's ``llama_model_default_params`` with the extra buffer types turned off; ``courtroom_patched`` marks
    it, so it is never wrapped twice."""

    courtroom_patched = True

    def __init__(self, original: Callable[[], llama_model_params]):
        self.original = original

    def __call__(self) -> llama_model_params:
        params = self.original()
        if hasattr(params, "use_extra_bufts"):
            params.use_extra_bufts = False
        return params


def _defaults_without_extra_bufts(original: Callable[[], llama_model_params]) -> Callable[[], llama_model_params]:
    return _WithoutExtraBufts(original)


def apply_llama_workarounds() -> bool:
    """Process-wide: make every later ``llama_cpp.Llama`` load without extra buffer types when
    :func:`use_extra_buffer_types` says so (for processes that construct Llama themselves, such as
    ``llama_cpp.server`` started through ``python scripts/llama_server.py``). True if applied."""
    prepare_environment()
    import llama_cpp.llama_cpp as low

    if use_extra_buffer_types() or getattr(low.llama_model_default_params, "courtroom_patched", False):
        return False
    low.llama_model_default_params = _defaults_without_extra_bufts(low.llama_model_default_params)
    return True


def describe_gguf(path: Path, metadata: Mapping[str, object], n_ctx: int = 0, threads: int = 0, gpu_layers: int = 0) -> str:
    """A GGUF's own account of itself (``general.name``, ``general.size_label``, ``<arch>.context_length``) and the
    file's size, for the doctor and the settings dialog."""
    name = metadata.get("general.name") or Path(path).stem
    arch = metadata.get("general.architecture", "")
    parts = []
    if metadata.get("general.size_label"):
        parts.append(f"{metadata['general.size_label']} parameters")
    try:
        parts.append(f"{Path(path).stat().st_size / 1e6:,.0f} MB file")
    except OSError:
        pass
    trained = metadata.get(f"{arch}.context_length") if arch else None
    if trained:
        parts.append(f"trained for {trained} tokens")
    use = [f"n_ctx {n_ctx}"] if n_ctx else []
    if threads:
        use.append(f"{threads} thread{'s' if threads != 1 else ''}")
    if gpu_layers:
        use.append("all layers on the GPU" if gpu_layers < 0 else f"{gpu_layers} layers on the GPU")
    detail = ", ".join(parts) + ("; " + ", ".join(use) if use else "")
    return f"{name} ({detail})" if detail else str(name)
