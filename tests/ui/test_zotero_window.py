"""The window's Zotero import (issue #32): From Zotero… asks for a collection, the import runs with the library
panel's progress, the documents arrive under their Zotero titles, and a line says what it did; a Zotero that is not
running is a message with what to do, and nothing is lost. A fake local API over real HTTP (testkit.zotero)."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtWidgets import QDialogButtonBox

from testkit.loopback import free_port
from testkit.zotero import FakeZotero, ZCollection, ZItem, write_data_folder

from .conftest import ROOT, opened, run, until

SAMPLES = ROOT / "resources" / "samples"


def _items(tmp_path: Path) -> list[ZItem]:
    store = tmp_path / "zotero-files"
    store.mkdir()
    return [ZItem("VITDAAAA", "Vitamin D in pregnancy: a cohort", [("Okafor", "Ada")], "2019",
                  collections=["COLLVITD"], pdf=Path(shutil.copy(SAMPLES / "vitamin-d-a.pdf", store))),
            ZItem("OBESAAAA", "Obesity drugs", [("Moreau", "Claire")], "2022",
                  pdf=Path(shutil.copy(SAMPLES / "obesity-a.pdf", store)))]


def test_import_a_collection_from_the_window(make_window, qloop, tmp_path, monkeypatch):
    window = make_window()
    run(qloop, opened(window, 120), 150)
    panel = window.library_panel
    with FakeZotero(_items(tmp_path), [ZCollection("COLLVITD", "Vitamin D")]) as zotero:
        monkeypatch.setattr("courtroom_desktop.core.library.zotero.DEFAULT_URL", zotero.url)
        dialog = panel.import_zotero()
        dialog.collection.setText("vitamin d")
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()

        async def imported():
            await until(lambda: "Zotero" in panel.last_run.text() and not window.library.busy, 120, "the import")

        run(qloop, imported(), 150)
    assert "1 items, 1 documents with their metadata, 1 added" in panel.last_run.text()
    assert [d.title for d in window.library.documents] == ["Vitamin D in pregnancy: a cohort"]


def test_zotero_not_running_is_a_message_and_nothing_is_lost(make_window, qloop, tmp_path, monkeypatch):
    window = make_window()
    run(qloop, opened(window, 120), 150)
    monkeypatch.setattr("courtroom_desktop.core.library.zotero.DEFAULT_URL", f"http://127.0.0.1:{free_port()}/api")
    monkeypatch.setenv("ZOTERO_DATA_DIR", str(tmp_path / "no-zotero-here"))
    window.library.import_zotero()

    async def told():
        await until(lambda: window.notice.isVisible() and window.notice.messages, 60, "the message")
        await until(lambda: not window.library.busy, 60, "the library to be free again")

    run(qloop, told(), 150)
    title, message, fix = window.notice.messages[-1]
    assert "Zotero" in message and "cannot be reached" in message, (title, message)
    assert "Allow other applications" in fix
    assert window.library.documents == []


def test_the_window_keeps_zotero_in_step_when_its_version_changes(make_window, qloop, tmp_path, monkeypatch):
    """The window asks Zotero's version (once the library opens, then every few minutes): unchanged, nothing is
    read again; an item trashed in Zotero changes it, and the next check brings the library in step."""
    window = make_window()
    run(qloop, opened(window, 120), 150)
    items = _items(tmp_path)
    with FakeZotero(items, [ZCollection("COLLVITD", "Vitamin D")]) as zotero:
        monkeypatch.setattr("courtroom_desktop.core.library.zotero.DEFAULT_URL", zotero.url)
        window.library.zotero_url = zotero.url
        window.library.import_zotero()  # the whole library: both items
        run(qloop, until(lambda: len(window.library.documents) == 2 and not window.library.busy, 120, "the import"),
            150)
        run(qloop, window.library.keep_zotero_in_step(), 120)  # first check: brings it in step, notes the version
        seen = window.library.zotero_version
        assert seen == zotero.version()
        ingests = []
        window.library.sig_busy.connect(lambda busy: busy and ingests.append(busy))
        run(qloop, window.library.keep_zotero_in_step(), 60)
        assert ingests == []  # unchanged: nothing read again

        items[1].trashed = True  # in Zotero: the obesity paper goes to the trash
        run(qloop, window.library.keep_zotero_in_step(), 120)
        run(qloop, until(lambda: not window.library.busy, 60, "the library to be free"), 70)
    assert ingests and window.library.zotero_version == zotero.version() != seen
    assert [d.title for d in window.library.documents] == ["Vitamin D in pregnancy: a cohort"]
    assert "1 removed" in window.library_panel.last_run.text(), window.library_panel.last_run.text()


def test_the_window_keeps_a_closed_zotero_in_step_from_its_data_folder(make_window, qloop, tmp_path, monkeypatch):
    """Zotero's local API silent (Zotero closed, or the API not allowed, as it is out of the box): the window tells
    a change by the data folder's database instead, and the next check reads the folder again (break: the check
    asking the local API alone, and the trashed paper stays)."""
    window = make_window()
    run(qloop, opened(window, 120), 150)
    monkeypatch.setattr("courtroom_desktop.core.library.zotero.DEFAULT_URL", f"http://127.0.0.1:{free_port()}/api")
    items = _items(tmp_path)
    data = write_data_folder(tmp_path / "Zotero", items, [ZCollection("COLLVITD", "Vitamin D")])
    monkeypatch.setenv("ZOTERO_DATA_DIR", str(data))
    window.library.import_zotero()  # the API does not answer: read from (a copy of) the data folder
    run(qloop, until(lambda: len(window.library.documents) == 2 and not window.library.busy, 120, "the import"), 150)
    run(qloop, window.library.keep_zotero_in_step(), 120)  # first check: notes the folder's state
    seen = window.library.zotero_version
    assert seen is not None and "zotero.sqlite" in str(seen)
    ingests = []
    window.library.sig_busy.connect(lambda busy: busy and ingests.append(busy))
    run(qloop, window.library.keep_zotero_in_step(), 60)
    assert ingests == []  # unchanged: nothing read again

    items[1].trashed = True  # Zotero, run meanwhile, trashed the obesity paper and wrote its database
    write_data_folder(data, items, [ZCollection("COLLVITD", "Vitamin D")])
    run(qloop, window.library.keep_zotero_in_step(), 120)
    run(qloop, until(lambda: not window.library.busy, 60, "the library to be free"), 70)
    assert ingests and window.library.zotero_version != seen
    assert [d.title for d in window.library.documents] == ["Vitamin D in pregnancy: a cohort"]
