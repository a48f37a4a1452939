"""The settings feature: list a server's models, run the doctor's checks on settings that are not saved yet, store
the API keys typed for servers in the OS keyring, find the model servers on this computer (and propose a model per
role), and pull a model through Ollama with progress and cancel."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from courtroom_desktop.ui.controllers import Controller
from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, say, tr

if TYPE_CHECKING:
    from courtroom_desktop.core.config import ModelSettings, ModelSpec
    from courtroom_desktop.core.services.models import (
        Detection,
        DoctorRow,
        Probe,
        Proposal,
        PullProgress,
        PullResult,
    )

class SettingsController(Controller):
    sig_models_listed = Signal(str, list)
    """(role, model names the server offers)."""
    sig_doctor_started = Signal()
    """The checks began."""
    sig_doctor_rows = Signal(list)
    """list[DoctorRow]: one row per role and check, with the fix for a failure."""
    sig_key_storage = Signal(str)
    """Where API keys are stored on this machine (the OS keyring, or the owner-only file when there is none)."""
    sig_detect_started = Signal()
    """Looking for model servers on this computer."""
    sig_detected = Signal(object, object)
    """(core.llm.discover.Detection, Proposal or None): what was found and the model proposed for each role."""
    sig_pull_progress = Signal(object)
    """A core.llm.pull.PullProgress (at most every ``PULL_SIGNAL_S``, and the last one)."""
    sig_pull_finished = Signal(str, bool, str)
    """(model name, pulled, what happened: "pulled ...", "cancelled ...", or the error and its fix)."""

    #: Progress reaches the window at most this often (Ollama sends a line per chunk).
    PULL_SIGNAL_S = 0.1

    def __init__(self, data_dir: Path | None, parent: QObject | None = None):
        super().__init__(parent)
        self.data_dir = data_dir
        self.detection: Detection | None = None
        self.proposal: Proposal | None = None
        self._pull_task: asyncio.Task[PullResult | None] | None = None

    def list_models(self, role: str, spec: ModelSpec, api_key: str | None = None) -> asyncio.Task[list[str] | None]:
        return self.tasks.spawn(self._list(role, spec, api_key), QT_TRANSLATE_NOOP("", "Listing the server's models"))

    async def _list(self, role: str, spec: ModelSpec, api_key: str | None) -> list[str]:
        from courtroom_desktop.core.services.models import list_models

        names = await list_models(spec, api_key=api_key or None, data_dir=self.data_dir)
        self.sig_models_listed.emit(role, list(names))
        return list(names)

    def test(self, models: ModelSettings,
             api_keys: dict[str, str] | None = None) -> asyncio.Task[list[DoctorRow] | None]:
        """Run the doctor on ``models`` (ModelSettings). Keys typed for a server are stored first, so the checks
        see exactly what the saved settings will."""
        return self.tasks.spawn(self._test(models, dict(api_keys or {})), QT_TRANSLATE_NOOP("", "Testing the models"))

    async def _test(self, models: ModelSettings, api_keys: dict[str, str]) -> list[DoctorRow]:
        from courtroom_desktop.core.services.models import run_doctor

        await self._store_keys(api_keys)
        self.sig_doctor_started.emit()
        rows = await run_doctor(models, data_dir=self.data_dir)
        self.sig_doctor_rows.emit(list(rows))
        return list(rows)

    def store_keys(self, api_keys: dict[str, str]) -> asyncio.Task[None]:
        """Store the API keys typed for servers ({base_url: key}) in the OS keyring."""
        return self.tasks.spawn(self._store_keys(dict(api_keys)), QT_TRANSLATE_NOOP("", "Storing the API key"))

    async def _store_keys(self, api_keys: dict[str, str]) -> None:
        from courtroom_desktop.core.services.models import set_api_key

        for base_url, key in api_keys.items():
            await asyncio.to_thread(set_api_key, base_url, key, data_dir=self.data_dir)

    def find_key_storage(self) -> asyncio.Task[str | None]:
        """Ask (in a worker: probing keyring backends can take a moment) where API keys go; answers on sig_key_storage."""
        return self.tasks.spawn(self._key_storage(), QT_TRANSLATE_NOOP("", "Finding the keyring"))

    async def _key_storage(self) -> str:
        from courtroom_desktop.core.services.models import key_storage

        where = await asyncio.to_thread(key_storage, data_dir=self.data_dir)
        self.sig_key_storage.emit(where)
        return where

    # ---------------------------------------------------------------- finding models on this computer
    def find_models(self, models: ModelSettings, embedding_model: str = "all-MiniLM-L6-v2",
                    probes: list[Probe] | None = None) -> asyncio.Task[tuple[Detection, Proposal | None] | None]:
        """Probe the usual local model servers in a worker thread (well under 2 s with none running) and propose a
        model per role against ``models`` (ModelSettings); answers on sig_detected."""
        return self.tasks.spawn(self._find(models, embedding_model, probes), QT_TRANSLATE_NOOP("", "Finding models on this computer"))

    async def _find(self, models: ModelSettings, embedding_model: str,
                    probes: list[Probe] | None) -> tuple[Detection, Proposal | None]:
        # probes: where to look (tests pass their own)
        from courtroom_desktop.core.services.models import detect_blocking, propose

        self.sig_detect_started.emit()
        detection = await asyncio.to_thread(detect_blocking, probes)
        proposal = propose(detection.models(), models, embedding_model)
        self.detection, self.proposal = detection, proposal
        self.sig_detected.emit(detection, proposal)
        return detection, proposal

    # ---------------------------------------------------------------- pulling a model through Ollama
    @property
    def pulling(self) -> bool:
        return self._pull_task is not None and not self._pull_task.done()

    def pull_model(self, name: str, base_url: str = "") -> asyncio.Task[PullResult | None] | None:
        """Pull ``name`` through Ollama; progress on sig_pull_progress, the end on sig_pull_finished. One at a time."""
        if self.pulling:
            return None
        self._pull_task = self.tasks.spawn(self._pull(name.strip(), base_url), QT_TRANSLATE_NOOP("", "Pulling a model"))
        return self._pull_task

    def cancel_pull(self) -> None:
        """Close the pull's HTTP stream (Ollama keeps what it downloaded: pulling again resumes)."""
        if self.pulling:
            assert self._pull_task is not None
            self._pull_task.cancel()

    async def _pull(self, name: str, base_url: str) -> PullResult | None:
        """The pull runs in a worker thread on an event loop of its own (the HTTP stream never touches the window's
        loop); cancelling this task cancels the worker's, which closes the stream, and waits until it has."""
        from courtroom_desktop.core.errors import CourtroomError
        from courtroom_desktop.core.services.models import human_bytes, pull_model

        last_at = 0.0  # when progress was last signalled
        last: PullProgress | None = None
        worker: dict[str, Any] = {}  # the worker's loop and task, and whether it was cancelled before it began

        def progress(p: PullProgress) -> None:  # in the worker thread: the signal is queued to the window's thread
            nonlocal last_at, last
            last = p
            now = time.monotonic()
            if now - last_at >= self.PULL_SIGNAL_S or p.status == "success" or p.resuming and last_at == 0.0:
                last_at = now
                self.sig_pull_progress.emit(p)

        def work() -> PullResult:
            async def main() -> PullResult:
                worker["loop"], worker["task"] = asyncio.get_running_loop(), asyncio.current_task()
                if worker.get("cancelled"):
                    raise asyncio.CancelledError
                return await pull_model(name, base_url, on_progress=progress)

            return asyncio.run(main())

        done = asyncio.get_running_loop().run_in_executor(None, work)
        try:
            result = await asyncio.shield(done)
        except asyncio.CancelledError:
            worker["cancelled"] = True
            if "loop" in worker:
                worker["loop"].call_soon_threadsafe(worker["task"].cancel)
            try:
                await asyncio.wait_for(done, 10)  # the stream is closed once the worker is done
            except BaseException:  # noqa: BLE001 - it ends cancelled, which is the point
                pass
            self.sig_pull_finished.emit(name, False, tr("Cancelled: Ollama keeps what was downloaded of {name}; "
                                                        "pull it again to resume.").format(name=name))
            raise
        except CourtroomError as exc:
            self.sig_pull_finished.emit(name, False, say(str(exc)) + (f" ({say(exc.fix)})" if exc.fix else ""))
            return None
        if last is not None:
            self.sig_pull_progress.emit(last)
        self.sig_pull_finished.emit(name, True, tr("Pulled {name} ({size} in {seconds} s).").format(
            name=name, size=human_bytes(result.total_bytes) or tr("up to date"), seconds=f"{result.seconds:.1f}"))
        return result
