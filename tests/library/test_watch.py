"""Watched folders on a real folder with real stores: a file added, changed, renamed or removed is ingested or
removed (all three stores), a missing folder removes nothing, and a kill -9 in the middle of a re-ingest leaves the
catalog, LanceDB and tantivy in agreement, the next pass finishing the job."""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from courtroom_desktop.core.library.watch import Folder, FolderWatcher, reconcile
from stress.common import open_library

ROOT = Path(__file__).resolve().parents[2]


def _paths(library) -> dict[str, object]:
    return {Path(d.path).name: d for d in library.documents()}


def _wait(reports: list, count: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while len(reports) < count:
        assert time.monotonic() < deadline, f"no report after {timeout} s ({len(reports)} of {count})"
        time.sleep(0.05)


def _agree(library) -> None:
    report = library.check_consistency()
    assert report["consistent"], report


def test_added_changed_renamed_and_removed_files_follow_the_folder(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "rent.md").write_text("# Rent\n\nTwo rooms cost 1,400 euros a month.\n", encoding="utf-8")
    library = open_library(tmp_path / "lib")
    reports, errors = [], []
    watcher = FolderWatcher(library, [Folder(folder.resolve(), private=True)], on_report=reports.append,
                            on_error=errors.append, debounce_ms=200).start()
    try:
        assert watcher.ready.wait(30)
        _wait(reports, 1)
        assert reports[0].added == 1 and set(_paths(library)) == {"rent.md"}  # the catch-up pass
        assert _paths(library)["rent.md"].private  # a private folder's documents are private

        (folder / "commute.txt").write_text("The tram takes 25 minutes.\n", encoding="utf-8")
        _wait(reports, 2)
        assert reports[1].added == 1 and set(_paths(library)) == {"rent.md", "commute.txt"}

        old = _paths(library)["rent.md"].id
        (folder / "rent.md").write_text("# Rent\n\nTwo rooms now cost 1,500 euros a month.\n", encoding="utf-8")
        _wait(reports, 3)
        assert reports[2].updated == 1
        new = _paths(library)["rent.md"]
        assert new.id != old and "1,500" in library.doc_chunks(new.id)[0].text and library.catalog.get(old) is None

        (folder / "commute.txt").rename(folder / "tram.txt")
        _wait(reports, 4)
        assert set(_paths(library)) == {"rent.md", "tram.txt"}

        (folder / "tram.txt").unlink()
        _wait(reports, 5)
        assert reports[-1].removed == 1 and set(_paths(library)) == {"rent.md"}
        _agree(library)
        assert not errors
    finally:
        watcher.stop()
        library.close()


def test_a_missing_folder_removes_nothing(tmp_path):
    folder = tmp_path / "usb"
    folder.mkdir()
    (folder / "a.md").write_text("Notes on a drive that will be unplugged.\n", encoding="utf-8")
    library = open_library(tmp_path / "lib")
    try:
        assert reconcile(library, Folder(folder.resolve())).added == 1
        folder.rename(tmp_path / "unplugged")
        report = reconcile(library, Folder(folder.resolve()))
        assert report.missing and report.removed == 0 and len(library.documents()) == 1
        assert "missing" in report.summary()
    finally:
        library.close()


def test_kill_9_during_a_re_ingest_leaves_the_stores_in_agreement(tmp_path):
    """A child watches a folder with a slow embedder; each round a file is rewritten, and the child is killed while
    it embeds the new version. Reopened, the stores agree and hold one version of the file (the old one, or the new
    one if the kill came after it was stored); the next pass brings in the new one."""
    folder = (tmp_path / "notes").resolve()
    folder.mkdir()
    rng = random.Random(7)
    sentence = "Rent in district {n} is {v} euros a month, and the tram to the office takes {t} minutes."
    landed = 0
    for round_ in range(3):
        body = "\n\n".join(sentence.format(n=i, v=1000 + round_ * 10 + i, t=20 + i) for i in range(24))
        (folder / "rent.md").write_text(f"# Rent, version {round_}\n\n{body}\n", encoding="utf-8")
        (folder / "stable.md").write_text("# Stable\n\nThis note never changes.\n", encoding="utf-8")
        if round_ == 0:  # the first version goes in before any child runs
            library = open_library(tmp_path / "lib", embed_batch=2)
            reconcile(library, Folder(folder))
            library.close()
            continue
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        child = subprocess.Popen([sys.executable, "-m", "tests.library.watch_child", str(tmp_path / "lib"),
                                  str(folder)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                 cwd=str(ROOT), env=env)
        try:
            # the catch-up pass re-ingests the version written above: kill while it is being embedded
            line = ""
            deadline = time.monotonic() + 120
            while not line.startswith("embedding") and time.monotonic() < deadline:
                ready, _, _ = select.select([child.stdout], [], [], 5)
                if ready:
                    line = child.stdout.readline().strip()
                    assert line or child.poll() is None, "the child ended by itself"
            assert line.endswith("rent.md"), line
            time.sleep(rng.uniform(0.0, 0.6))
            assert child.poll() is None, "the child ended before the kill"
            os.kill(child.pid, signal.SIGKILL)
            landed += child.wait(30) == -signal.SIGKILL
        finally:
            if child.poll() is None:
                child.kill()
            child.stdout.close()
        library = open_library(tmp_path / "lib", embed_batch=2)  # recover() purges what the kill left half-written
        try:
            _agree(library)
            versions = library.catalog.by_path(str(folder / "rent.md"))
            assert len(versions) == 1 and versions[0].status.value == "ready", versions
            reconcile(library, Folder(folder))
            rent = library.catalog.by_path(str(folder / "rent.md"))
            assert len(rent) == 1 and f"version {round_}" in library.doc_chunks(rent[0].id)[0].section_path
            assert set(_paths(library)) == {"rent.md", "stable.md"}
            _agree(library)
        finally:
            library.close()
    assert landed == 2
