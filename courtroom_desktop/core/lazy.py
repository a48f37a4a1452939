"""Models built on first use, once, from any thread. Importing sentence-transformers (and torch) costs seconds, so
it happens in whichever worker first needs a model, never at start-up; nothing is ever downloaded."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


def hub_offline() -> None:
    """Models come from local folders only: no hub lookups, no progress bars, no chatter."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


class LazyModel(Generic[T]):
    """``get()`` builds the model with ``build()`` the first time (with the hub offline) and returns the same one after;
    concurrent first calls build it once."""

    def __init__(self, build: Callable[[], T]):
        self._build = build
        self._model: T | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def get(self) -> T:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    hub_offline()
                    self._model = self._build()
        return self._model
