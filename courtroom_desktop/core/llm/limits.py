"""How many calls each model server takes at once: one asyncio semaphore per server, shared by every role's model on
it, sized by the smallest ``max_parallel`` of the roles there (the embedded model: always 1, one loaded model).

    limits = ServerLimits(settings)
    model = limits.wrap(router.for_role("judge"), settings.for_role("judge"))   # calls now wait their turn

A check of a draft runs several claims side by side (``workers``: the most any server takes); each call then waits
for its own server's turn, so a server set to 1 is never asked twice at once.
"""

from __future__ import annotations

import asyncio
from typing import Any

from courtroom_desktop.core.config import ROLES, ModelSettings, ModelSpec

DEFAULT_OLLAMA = "http://localhost:11434"


def server_key(spec: ModelSpec) -> str:
    """The server a spec's calls go to: 'embedded:<gguf or bundled>', or '<provider> <base url>'."""
    if spec.provider == "embedded":
        return f"embedded:{spec.model or 'bundled'}"
    url = (spec.base_url or (DEFAULT_OLLAMA if spec.provider == "ollama" else "")).rstrip("/").lower()
    return f"{spec.provider} {url}"


class ServerLimits:
    def __init__(self, settings: ModelSettings) -> None:
        self.sizes: dict[str, int] = {}
        for role in ROLES:
            spec = settings.for_role(role)
            size = 1 if spec.provider == "embedded" else spec.max_parallel
            key = server_key(spec)
            self.sizes[key] = min(self.sizes.get(key, size), size)
        self._semaphores: dict[str, asyncio.Semaphore] = {}

    def size(self, spec: ModelSpec) -> int:
        return self.sizes.get(server_key(spec), 1)

    @property
    def workers(self) -> int:
        """Claims worth running side by side: the most calls any server takes at once."""
        return max(self.sizes.values(), default=1)

    def semaphore(self, spec: ModelSpec) -> asyncio.Semaphore:
        key = server_key(spec)
        if key not in self._semaphores:
            self._semaphores[key] = asyncio.Semaphore(self.sizes.get(key, 1))
        return self._semaphores[key]

    def wrap(self, model: Any, spec: ModelSpec) -> Limited:
        return Limited(model, self.semaphore(spec))


class Limited:
    """A chat model whose calls wait for a turn at its server's semaphore; the rest is the model's."""

    def __init__(self, model: Any, semaphore: asyncio.Semaphore) -> None:
        self._model = model
        self._semaphore = semaphore

    def __getattr__(self, name: str) -> Any:
        return getattr(self._model, name)

    async def structured(self, *args: Any, **kwargs: Any) -> Any:
        async with self._semaphore:
            return await self._model.structured(*args, **kwargs)

    async def complete(self, *args: Any, **kwargs: Any) -> Any:
        async with self._semaphore:
            return await self._model.complete(*args, **kwargs)
