"""Shared fixtures: temporary config and data folders, one embedding model per session, generated PDFs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "resources" / "samples"


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path, monkeypatch):
    """No test ever touches the user's real settings or library."""
    monkeypatch.setenv("COURTROOM_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("COURTROOM_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def memory_keyring():
    """A working in-memory keyring in place of the OS one for the test (``.store`` holds what was saved)."""
    from testkit.keyrings import MemoryKeyring, installed

    with installed(MemoryKeyring()) as backend:
        yield backend


@pytest.fixture(scope="session")
def embedder():
    from courtroom_desktop.core.library import Embedder

    return Embedder("all-MiniLM-L6-v2", batch=32)


@pytest.fixture(scope="session")
def sample_pdfs() -> list[Path]:
    pdfs = sorted(SAMPLES.glob("*.pdf"))
    assert pdfs, "resources/samples has no PDFs: run scripts/make_samples.py"
    return pdfs
