"""What Windows and macOS do differently, checked here by forcing it (#49): the child processes start without
fork (as under the 'spawn' start method, the default there); the worker threads' lower priority takes the Windows
branch (a thread priority through kernel32) and the macOS one (nothing: no per-thread nice) without failing."""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import types

import pytest

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.library import Library
from courtroom_desktop.core.records import DocStatus
from courtroom_desktop.ui.tasks import lower_thread_priority


def test_an_ingest_with_its_children_needs_no_fork(tmp_path, sample_pdfs, embedder, monkeypatch):
    """The PDF extraction child is started with subprocess (a new interpreter), never by forking this process: with
    the start method 'spawn' and os.fork refusing, an ingest through it still stores every file. (The embedding
    child starts the same way, core.library.embed.child; Ray starts its own workers.) Break: os.fork called where
    the extraction child starts, and the ingest fails its files."""
    def no_fork() -> int:
        raise AssertionError("os.fork called: Windows has no fork, and macOS's is unsafe with threads")

    monkeypatch.setattr(os, "fork", no_fork)
    if hasattr(os, "forkpty"):
        monkeypatch.setattr(os, "forkpty", no_fork)
    method = multiprocessing.get_start_method(allow_none=True)
    multiprocessing.set_start_method("spawn", force=True)
    try:
        library = Library(tmp_path / "lib", LibrarySettings(isolate_extraction=True, chunk_tokens=120,
                                                             overlap_tokens=20), embedder)
        finished = library.ingest(sample_pdfs[:2])
        assert finished.added == 2 and finished.failed == 0
        assert library._extractor is not None and library._extractor.started == 1  # through the child
        assert len(library.documents(DocStatus.ready)) == 2
        library.close()
    finally:
        multiprocessing.set_start_method(method, force=True)


def _in_thread(call):
    out: dict[str, object] = {}
    thread = threading.Thread(target=lambda: out.update(value=call()))
    thread.start()
    thread.join()
    return out["value"]


def test_the_windows_branch_lowers_the_thread_priority_through_kernel32(monkeypatch):
    calls: list[tuple[str, object]] = []
    kernel32 = types.SimpleNamespace(GetCurrentThread=lambda: calls.append(("current", None)) or 1234,
                                     SetThreadPriority=lambda handle, level: calls.append(("set", (handle, level))) or 1)
    import ctypes

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(ctypes, "windll", types.SimpleNamespace(kernel32=kernel32), raising=False)
    assert _in_thread(lambda: lower_thread_priority(10)) is True
    assert calls == [("current", None), ("set", (1234, -1))]  # THREAD_PRIORITY_BELOW_NORMAL for that thread


@pytest.mark.parametrize("platform", ["darwin", "freebsd13"])
def test_elsewhere_the_priority_is_left_alone_without_failing(monkeypatch, platform):
    monkeypatch.setattr(sys, "platform", platform)
    assert _in_thread(lambda: lower_thread_priority(10)) is False


LOCK = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lock")


def _locked(name: str) -> set[str]:
    with open(os.path.join(LOCK, name), encoding="utf-8") as handle:
        return {line.split("==")[0].strip().lower() for line in handle if "==" in line and not line.startswith(" ")}


@pytest.mark.parametrize(("lock", "backend", "needs"), [
    ("dev-windows-x86_64.txt", "keyring.backends.Windows", {"keyring", "pywin32-ctypes"}),  # Credential Locker
    ("bundle-windows-x86_64.txt", "keyring.backends.Windows", {"keyring", "pywin32-ctypes"}),
    ("dev-macos-arm64.txt", "keyring.backends.macOS", {"keyring"}),  # the Keychain, through the Security framework
    ("bundle-macos-arm64.txt", "keyring.backends.macOS", {"keyring"}),
    ("dev-linux-x86_64.txt", "keyring.backends.SecretService", {"keyring", "secretstorage", "jeepney"}),
    ("bundle-linux-x86_64.txt", "keyring.backends.SecretService", {"keyring", "secretstorage", "jeepney"}),
])
def test_each_systems_lock_installs_the_keyring_backend_it_uses(lock, backend, needs):
    """API keys and bucket credentials go to the OS keyring (core.secrets): each system's lock carries what its
    backend needs, and the backend's module is part of the keyring package installed."""
    import importlib

    assert needs <= _locked(lock), needs - _locked(lock)
    assert importlib.import_module(backend)


def test_the_reports_name_a_cjk_font_each_system_ships():
    """The web report's font lists (the PDF embeds MuPDF's own CJK font, whatever the system): for each script, one
    font Windows installs, one macOS installs, and the Noto CJK font Linux desktops install."""
    from courtroom_desktop.core.reports.html_writer import CJK_FONTS

    shipped = {"zh": ("Microsoft YaHei", "PingFang SC", "Noto Sans CJK SC"),
               "ja": ("Yu Gothic", "Hiragino Sans", "Noto Sans CJK JP"),
               "ko": ("Malgun Gothic", "Apple SD Gothic Neo", "Noto Sans CJK KR")}
    for script, fonts in shipped.items():
        for font in fonts:
            assert f'"{font}"' in CJK_FONTS[script] or font in CJK_FONTS[script].split(", "), (script, font)
