"""Notes written in the app, and private documents: the note's file, its kind, editing it, the private flag through
ingests, changes, the catalog and the lookups a trial makes; an old catalog gains the new columns in place."""

from __future__ import annotations

import sqlite3

from courtroom_desktop.cli import main
from courtroom_desktop.core.config import AppConfig, LibrarySettings, WatchedFolder
from courtroom_desktop.core.library.notes import list_notes, read_note, slug
from courtroom_desktop.core.library.store.catalog import Catalog
from courtroom_desktop.core.workspace import Workspace
from stress.common import HashEmbedder, library_settings, open_library


def _workspace(tmp_path) -> Workspace:
    ws = Workspace(tmp_path / "config", tmp_path / "data", AppConfig(library=library_settings()))
    ws.parts._library = open_library(tmp_path / "data" / "library")
    return ws


def test_a_note_is_saved_as_markdown_ingested_and_edited(tmp_path):
    ws = _workspace(tmp_path)
    try:
        path, finished = ws.library.save_note("Lisbon: rents?", "## Rent\n\nTwo rooms cost 1,400 euros a month.\n")
        assert finished.added == 1 and path == tmp_path / "data" / "notes" / "lisbon-rents.md"
        assert path.read_text(encoding="utf-8").startswith("# Lisbon: rents?\n\n## Rent")
        doc = ws.parts.library.catalog.by_path(str(path))[0]
        assert doc.kind == "note" and doc.title == "Lisbon: rents?" and not doc.private and doc.pages == 0
        assert [c.section_path for c in ws.parts.library.doc_chunks(doc.id)] == ["Lisbon: rents? > Rent"]
        again, _ = ws.library.save_note("Lisbon: rents?", "Another note with the same title.")
        assert again.name == "lisbon-rents-2.md"  # a new note never overwrites another
        note = read_note(path)
        edited, finished = ws.library.save_note(note.title, note.text + "\nSchools charge a fee.\n", path=path, private=True)
        assert edited == path and finished.updated == 1
        now = ws.parts.library.catalog.by_path(str(path))
        assert len(now) == 1 and now[0].id != doc.id and now[0].private  # the old version left every store
        assert ws.library.check_consistency()["consistent"]
        assert [n.title for n in list_notes(ws.library.notes_dir)] == ["Lisbon: rents?", "Lisbon: rents?"]
    finally:
        ws.close()
    assert slug("搬到里斯本？ Yes!") == "搬到里斯本-yes" and slug("???") == "note"


def test_the_private_flag_survives_changes_reopening_and_is_asked_by_chunk_or_document(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    secret, public = folder / "diary.md", folder / "plan.txt"
    secret.write_text("# Diary\n\nI am worried about the move.\n", encoding="utf-8")
    public.write_text("The plan is to move in spring.\n", encoding="utf-8")
    library = open_library(tmp_path / "lib")
    try:
        library.ingest([secret], private=True)
        library.ingest([public])
        diary = library.catalog.by_path(str(secret))[0]
        plan = library.catalog.by_path(str(public))[0]
        assert diary.private and not plan.private
        secret.write_text("# Diary\n\nI am less worried now.\n", encoding="utf-8")
        assert library.ingest([folder]).updated == 1  # changed: re-ingested, and it stays private
        diary = library.catalog.by_path(str(secret))[0]
        assert diary.private
        chunk_ids = [c.id for c in library.doc_chunks(diary.id)] + [c.id for c in library.doc_chunks(plan.id)]
        assert library.catalog.private_ids(chunk_ids) == {diary.id}
        assert library.catalog.private_ids([diary.id, plan.id, "unknown"]) == {diary.id}
        library.catalog.set_private(plan.id, True)
        assert library.ingest([public], private=False).skipped == 1  # asked: unchanged content, flag changed
        assert not library.catalog.get(plan.id).private
    finally:
        library.close()
    catalog = Catalog(tmp_path / "lib" / "catalog.sqlite")
    assert catalog.get(diary.id).private and not catalog.get(plan.id).private
    catalog.close()


def test_files_in_a_private_watched_folder_are_private(tmp_path):
    folder = tmp_path / "journal"
    folder.mkdir()
    (folder / "day.md").write_text("Today we visited two flats.\n", encoding="utf-8")
    settings = library_settings(watched_folders=[WatchedFolder(path=str(folder), private=True)])
    library = open_library(tmp_path / "lib", watched_folders=settings.watched_folders)
    try:
        library.ingest([folder])
        assert all(d.private for d in library.documents())
    finally:
        library.close()


def test_an_old_catalog_gains_the_kind_and_private_columns_in_place(tmp_path):
    path = tmp_path / "catalog.sqlite"
    db = sqlite3.connect(path)
    db.executescript("""CREATE TABLE documents (id TEXT PRIMARY KEY, path TEXT NOT NULL, sha256 TEXT NOT NULL,
        title TEXT DEFAULT '', authors TEXT DEFAULT '', year INTEGER, pages INTEGER DEFAULT 0, chunks INTEGER DEFAULT 0,
        sections INTEGER DEFAULT 0, status TEXT NOT NULL, error TEXT DEFAULT '', added_at REAL NOT NULL,
        pages_without_text TEXT DEFAULT '');
        INSERT INTO documents VALUES ('d1', '/x.pdf', 'abc', 'Old', '', NULL, 3, 4, 1, 'ready', '', 1.0, '');""")
    db.commit()
    db.close()
    catalog = Catalog(path)
    old = catalog.get("d1")
    assert old.title == "Old" and old.kind == "pdf" and not old.private and old.on_pages
    catalog.set_private("d1", True)
    assert catalog.get("d1").private and catalog.private_ids(["d1-0003"]) == {"d1"}
    catalog.close()


def test_notes_and_private_from_the_command_line(tmp_path, monkeypatch, capsys):
    import courtroom_desktop.core.library.library as library_module

    monkeypatch.setattr(library_module, "Embedder", lambda *args, **kwargs: HashEmbedder())  # no model to load
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text('[library]\nembedding_model = "stress-hash-384"\n', encoding="utf-8")
    base = ["--config-dir", str(config), "--data-dir", str(tmp_path / "data")]
    text = tmp_path / "text.md"
    text.write_text("## 一、房租\n\n每月约一千四百欧元。\n", encoding="utf-8")
    assert main([*base, "notes", "add", "--title", "搬家", "--file", str(text), "--private"]) == 0
    doc_id = capsys.readouterr().out.split()[0]
    assert main([*base, "notes", "list"]) == 0
    listed = capsys.readouterr().out
    assert doc_id in listed and "搬家" in listed and "private" in listed
    assert main([*base, "library", "private", doc_id, "off"]) == 0
    assert main([*base, "library", "list"]) == 0
    out = capsys.readouterr().out
    assert "note" in out and "(private)" not in out and " 0 " not in out.split(doc_id, 1)[1].split("\n")[0]
    assert main([*base, "library", "show", doc_id]) == 0
    assert "characters" in capsys.readouterr().out
    assert LibrarySettings().watched_folders == []
