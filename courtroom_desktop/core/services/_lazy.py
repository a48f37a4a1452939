"""The services' names, each looked up in the core module that implements it when it is used, so that importing a
service costs nothing until one of its names is used (the window imports them on its own thread). Names are not
cached in the service: each use reads the implementing module's attribute, so the service and that module never
disagree (a test that patches the module patches the service too)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def exports(table: dict[str, str], service: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``table`` (name -> 'package.module' or 'package.module:attribute' under
    ``courtroom_desktop.core``); ``service``, the service module's name, is named in errors."""

    def __getattr__(name: str) -> Any:
        target = table.get(name)
        if target is None:
            raise AttributeError(f"module {service!r} has no attribute {name!r}")
        module_name, _, attribute = target.partition(":")
        module = importlib.import_module(f"courtroom_desktop.core.{module_name}")
        return getattr(module, attribute) if attribute else module

    return __getattr__
