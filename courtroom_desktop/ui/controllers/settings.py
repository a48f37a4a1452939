"""The settings feature: list a server's models, run the doctor's checks on settings that are not saved yet, and store
the API keys typed for servers in the OS keyring."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QObject, Signal

from courtroom_desktop.ui.controllers import Controller


class SettingsController(Controller):
    sig_models_listed = Signal(str, list)
    """(role, model names the server offers)."""
    sig_doctor_started = Signal()
    """The checks began."""
    sig_doctor_rows = Signal(list)
    """list[DoctorRow]: one row per role and check, with the fix for a failure."""
    sig_key_storage = Signal(str)
    """Where API keys are stored on this machine (the OS keyring, or the owner-only file when there is none)."""

    def __init__(self, data_dir, parent: QObject | None = None):
        super().__init__(parent)
        self.data_dir = data_dir

    def list_models(self, role: str, spec, api_key: str | None = None) -> asyncio.Task:
        return self.tasks.spawn(self._list(role, spec, api_key), "Listing the server's models")

    async def _list(self, role: str, spec, api_key: str | None) -> list[str]:
        from courtroom_desktop.core.llm import list_models

        names = await list_models(spec, api_key=api_key or None, data_dir=self.data_dir)
        self.sig_models_listed.emit(role, list(names))
        return list(names)

    def test(self, models, api_keys: dict[str, str] | None = None) -> asyncio.Task:
        """Run the doctor on ``models`` (ModelSettings). Keys typed for a server are stored first, so the checks
        see exactly what the saved settings will."""
        return self.tasks.spawn(self._test(models, dict(api_keys or {})), "Testing the models")

    async def _test(self, models, api_keys: dict[str, str]) -> list:
        from courtroom_desktop.core.llm.doctor import run_doctor

        await self._store_keys(api_keys)
        self.sig_doctor_started.emit()
        rows = await run_doctor(models, data_dir=self.data_dir)
        self.sig_doctor_rows.emit(list(rows))
        return list(rows)

    def store_keys(self, api_keys: dict[str, str]) -> asyncio.Task:
        """Store the API keys typed for servers ({base_url: key}) in the OS keyring."""
        return self.tasks.spawn(self._store_keys(dict(api_keys)), "Storing the API key")

    async def _store_keys(self, api_keys: dict[str, str]) -> None:
        from courtroom_desktop.core.secrets import set_api_key

        for base_url, key in api_keys.items():
            await asyncio.to_thread(set_api_key, base_url, key, data_dir=self.data_dir)

    def find_key_storage(self) -> asyncio.Task:
        """Ask (in a worker: probing keyring backends can take a moment) where API keys go; answers on sig_key_storage."""
        return self.tasks.spawn(self._key_storage(), "Finding the keyring")

    async def _key_storage(self) -> str:
        from courtroom_desktop.core.secrets import key_storage

        where = await asyncio.to_thread(key_storage, data_dir=self.data_dir)
        self.sig_key_storage.emit(where)
        return where
