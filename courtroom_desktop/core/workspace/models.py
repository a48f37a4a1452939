"""The roles' models as a workspace uses them: how a trial records them, loading the embedded ones ahead of a first
trial, closing their connections."""

from __future__ import annotations

import logging

from courtroom_desktop.core.config import ROLES
from courtroom_desktop.core.workspace.parts import Parts

log = logging.getLogger(__name__)


class ModelService:
    def __init__(self, parts: Parts):
        self._parts = parts

    def labels(self) -> dict[str, str]:
        """Each role's model as a trial records it ('ollama:qwen2.5:7b', 'embedded:bundled SmolLM2-135M')."""
        return self._parts.model_labels()

    async def preload(self) -> None:
        """The embedded chat models the roles use, loaded now (the model and its tokenizer, in a thread), so that a
        first trial does not wait for them; a model that fails to load is left to the trial, which reports it with
        its fix."""
        for role in ROLES:
            model = self._parts.router.for_role(role)
            load = getattr(model, "load", None)
            if getattr(model, "provider", "") == "embedded" and load is not None:
                try:
                    await load()
                except Exception as exc:  # noqa: BLE001 - the trial will report it with its fix
                    log.warning("preloading the %s model failed: %s", role, exc)
                    return

    async def aclose(self) -> None:
        """Close the chat models' connections (models never built cost nothing)."""
        await self._parts.router.aclose()
