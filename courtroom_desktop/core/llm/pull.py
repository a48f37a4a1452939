"""Pulling a model through Ollama (``POST /api/pull``, a stream of JSON lines), with progress, cancel, resume and a
disk-space check first.

    result = await pull_model("qwen2.5:7b", on_progress=show)     # PullProgress: bytes, MB/s, resuming

- Progress: Ollama streams ``{"status", "digest", "total", "completed"}`` per layer; :class:`PullProgress` adds the
  layers up and measures the speed over the last few seconds.
- Cancel: cancelling the awaiting task closes the HTTP stream (Ollama then stops downloading).
- Resume: Ollama keeps the part downloaded; pulling the same name again continues from there. When the first
  progress line already has ``completed > 0``, the progress says ``resuming`` (and from how many bytes).
- Disk space, when Ollama runs on this computer: below ``MIN_FREE_BYTES`` free in its models folder
  (``OLLAMA_MODELS`` or ``~/.ollama/models``) the pull does not start; once Ollama says how large a layer is, a layer
  that will not fit stops the pull with the sizes named.
- Errors a person can act on: Ollama not running ("start Ollama: `ollama serve`"), a name the library does not have
  ("no model NAME in the Ollama library; see https://ollama.com/library"), the connection lost mid-pull ("pull again
  to resume").
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections import deque
from collections.abc import Callable
from contextlib import aclosing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from courtroom_desktop.core.errors import ModelError, ModelUnavailable
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.llm.discover import DEFAULT_OLLAMA, human_bytes, ollama_root
from courtroom_desktop.core.privacy import is_this_computer

LIBRARY_URL = "https://ollama.com/library"
#: Below this, no pull starts (a chat model worth using is several GB).
MIN_FREE_BYTES = 1_000_000_000
#: Room left over after a layer: a disk filled to the last byte breaks more than the pull.
HEADROOM_BYTES = 200_000_000
SPEED_WINDOW_S = 3.0
START_FIX = Message("start Ollama: `ollama serve` (or install it from https://ollama.com)")


class PullError(ModelError):
    """A pull that failed; the message names the model and the reason, ``fix`` what to do."""


@dataclass
class PullProgress:
    name: str
    status: str                       # Ollama's words: "pulling manifest", "pulling 8eeb52dfb3bb", "success", ...
    digest: str = ""
    total: int = 0                    # the layer being pulled
    completed: int = 0
    overall_total: int = 0            # every layer seen so far
    overall_completed: int = 0
    bytes_per_s: float = 0.0
    resuming: bool = False            # the first layer already had bytes: Ollama continues a partial download
    resumed_from: int = 0

    @property
    def fraction(self) -> float | None:
        return self.overall_completed / self.overall_total if self.overall_total else None

    def line(self) -> str:
        """'pulling 8eeb52dfb3bb: 1.2 GB of 4.7 GB (25%), 11.3 MB/s' (resuming said first)."""
        head = f"resuming from {human_bytes(self.resumed_from)}; " if self.resuming else ""
        if not self.overall_total:
            return head + self.status
        percent = f" ({self.fraction:.0%})" if self.fraction is not None else ""
        speed = f", {self.bytes_per_s / 1e6:.1f} MB/s" if self.bytes_per_s else ""
        return (f"{head}{self.status}: {human_bytes(self.overall_completed) or '0 B'} of "
                f"{human_bytes(self.overall_total)}{percent}{speed}")


@dataclass
class PullResult:
    name: str
    total_bytes: int
    seconds: float
    resumed_from: int = 0
    statuses: list[str] = field(default_factory=list)


def ollama_models_dir() -> Path:
    """Where Ollama keeps its models: ``OLLAMA_MODELS``, else ``~/.ollama/models``."""
    value = os.environ.get("OLLAMA_MODELS", "").strip()
    return Path(value).expanduser() if value else Path.home() / ".ollama" / "models"


def free_bytes(path: Path) -> int:
    """Free space on the disk that holds ``path`` (its nearest existing parent)."""
    path = Path(path)
    while not path.exists() and path != path.parent:
        path = path.parent
    return shutil.disk_usage(path).free


def is_local(base_url: str) -> bool:
    """Whether the Ollama at ``base_url`` stores its models on this computer's disk (core.privacy's one rule)."""
    return is_this_computer(base_url)


def _unknown(name: str, detail: str) -> bool:
    text = detail.lower()
    return ("file does not exist" in text or "manifest unknown" in text or "not found" in text
            or "does not exist" in text) and "disk" not in text


class _Tracker:
    """Adds the layers up and measures the speed."""

    def __init__(self, name: str):
        self.name = name
        self.layers: dict[str, tuple[int, int]] = {}
        self.first_seen = False
        self.resuming = False
        self.resumed_from = 0
        self.samples: deque[tuple[float, int]] = deque()
        self.statuses: list[str] = []

    def update(self, line: dict[str, Any]) -> tuple[PullProgress, bool]:
        """The progress after ``line``, and whether it began a layer not seen before."""
        status = str(line.get("status") or "")
        if not self.statuses or self.statuses[-1] != status:
            self.statuses.append(status)
        digest = str(line.get("digest") or "")
        total = int(line.get("total") or 0)
        completed = int(line.get("completed") or 0)
        new_layer = False
        if digest and total > 0:
            new_layer = digest not in self.layers
            self.layers[digest] = (total, min(completed, total))
            if not self.first_seen:
                self.first_seen = True
                if completed > 0:
                    self.resuming, self.resumed_from = True, completed
        overall_total = sum(t for t, _ in self.layers.values())
        overall_done = sum(c for _, c in self.layers.values())
        now = time.monotonic()
        self.samples.append((now, overall_done))
        while len(self.samples) > 2 and now - self.samples[0][0] > SPEED_WINDOW_S:
            self.samples.popleft()
        first_t, first_done = self.samples[0]
        speed = (overall_done - first_done) / (now - first_t) if now - first_t > 0.05 else 0.0
        return PullProgress(self.name, status, digest, total, min(completed, total) if total else completed,
                            overall_total, overall_done, max(0.0, speed), self.resuming,
                            self.resumed_from), new_layer


async def pull_model(name: str, base_url: str = "", *, on_progress: Callable[[PullProgress], None] | None = None,
                     connect_timeout_s: float = 3.0, read_timeout_s: float = 600.0,
                     min_free_bytes: int = MIN_FREE_BYTES, check_disk: bool | None = None) -> PullResult:
    """Pull ``name`` into the Ollama at ``base_url`` (default: ``OLLAMA_HOST`` or http://localhost:11434).
    Raises :class:`PullError` (or ``ModelUnavailable`` when Ollama is not running) with the fix; cancelling the
    awaiting task closes the stream."""
    import httpx

    name = name.strip()
    if not name or any(c.isspace() for c in name):
        raise PullError(Message("{name} is not an Ollama model name", f'{name!r}'), fix=Message("names look like qwen2.5:7b; see "
                                                                             "{LIBRARY_URL}",
                                                                             LIBRARY_URL))
    base = (base_url or ollama_root(os.environ.get("OLLAMA_HOST", "") or DEFAULT_OLLAMA)).rstrip("/")
    local = is_local(base) if check_disk is None else check_disk
    folder = ollama_models_dir()
    if local:
        free = free_bytes(folder)
        if free < min_free_bytes:
            raise PullError(Message("only {human_bytes(free) or '0 B'} free in {folder}: not enough to pull {name}",
                                    human_bytes(free) or '0 B', folder, name),
                            fix=Message("free at least {human_bytes(min_free_bytes)} there (or set OLLAMA_MODELS to "
                                        "a folder on a larger disk and restart Ollama)",
                                        human_bytes(min_free_bytes)))

    tracker = _Tracker(name)
    start = time.monotonic()
    timeout = httpx.Timeout(read_timeout_s, connect=connect_timeout_s)
    try:
        async with httpx.AsyncClient(timeout=timeout, trust_env=False) as client:
            async with client.stream("POST", f"{base}/api/pull", json={"model": name, "stream": True}) as response:
                if response.status_code >= 400:
                    body = (await response.aread()).decode("utf-8", "replace")
                    _raise_for(name, _error_of(body) or f"status {response.status_code}")
                # closed here, not by the garbage collector (httpx declares an AsyncIterator; it is an async generator)
                async with aclosing(response.aiter_lines()) as lines:  # type: ignore[type-var]
                    async for raw in lines:
                        if not raw.strip():
                            continue
                        try:
                            line = json.loads(raw)
                        except json.JSONDecodeError:
                            continue
                        if not isinstance(line, dict):
                            continue
                        if line.get("error"):
                            _raise_for(name, str(line["error"]))
                        progress, new_layer = tracker.update(line)
                        if new_layer and local:
                            remaining = progress.total - progress.completed
                            free = free_bytes(folder)
                            if remaining + HEADROOM_BYTES > free:
                                raise PullError(
                                    Message("not enough disk space for {name}: it needs {human_bytes(remaining)} "
                                            "more, {human_bytes(free) or '0 B'} is free in {folder}",
                                            name, human_bytes(remaining), human_bytes(free) or '0 B', folder),
                                    fix=Message("free some space there (`ollama rm` a model you no longer use), or "
                                                "set OLLAMA_MODELS to a folder on a larger disk and restart Ollama"))
                        if on_progress is not None:
                            on_progress(progress)
                        if line.get("status") == "success":
                            return PullResult(name, progress.overall_total, time.monotonic() - start,
                                              tracker.resumed_from, tracker.statuses)
    except httpx.ConnectError:
        raise ModelUnavailable(Message("cannot reach Ollama at {base}", base), fix=START_FIX) from None
    except httpx.ConnectTimeout:
        raise ModelUnavailable(Message("Ollama at {base} did not accept the connection within {connect_timeout_s}s",
                                       base, f'{connect_timeout_s:g}'),
                               fix=START_FIX) from None
    except httpx.TimeoutException:
        raise PullError(Message("Ollama at {base} sent nothing for {read_timeout_s}s while pulling {name}",
                                base, f'{read_timeout_s:g}', name),
                        fix=Message("check Ollama's log, then pull again: it resumes (`courtroom models pull "
                                    "{name}`)",
                                    name),
                        ) from None
    except httpx.HTTPError as exc:
        raise PullError(Message("the connection to Ollama at {base} broke while pulling {name} "
                                "({type(exc).__name__})",
                                base, name, type(exc).__name__),
                        fix=Message("pull again: Ollama resumes where it stopped (`courtroom models pull {name}`)",
                                    name),
                        ) from None
    raise PullError(Message("Ollama at {base} ended the pull of {name} before it finished", base, name),
                    fix=Message("pull again: Ollama resumes where it stopped (`courtroom models pull {name}`)", name))


def _error_of(body: str) -> str:
    try:
        value = json.loads(body)
    except json.JSONDecodeError:
        return body.strip()[:200]
    return str(value.get("error") or "") if isinstance(value, dict) else ""


def _raise_for(name: str, detail: str) -> None:
    if _unknown(name, detail):
        raise PullError(Message("no model {name} in the Ollama library; see {LIBRARY_URL} ({detail})",
                                name, LIBRARY_URL, detail),
                        fix=Message("check the name and its tag on {LIBRARY_URL}, e.g. qwen2.5:7b", LIBRARY_URL))
    if "space" in detail.lower() or "disk" in detail.lower():
        raise PullError(Message("Ollama could not store {name}: {detail}", name, detail), fix=Message("free some disk space, then pull "
                                                                                "again"))
    raise PullError(Message("Ollama refused to pull {name}: {detail}", name, detail), fix=Message("check Ollama's log"))
