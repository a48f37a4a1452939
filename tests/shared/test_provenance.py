"""What a shared library says of each document: a file another writer stored first counts as skipped (with that
reason), not as added; who added each document, and when, is stored with it and seen from every machine (and a
shared catalog written before that column gets it, its rows kept)."""

from __future__ import annotations

from courtroom_desktop.core.library import Library
from courtroom_desktop.core.records import DocStatus, FileFinished, FileOutcome

from .test_shared_library import SETTINGS, pdfs  # noqa: F401 - the fixture


def open_at(s3, tmp_path, machine: str, embedder, prefix: str) -> Library:
    return Library(tmp_path / machine, SETTINGS, embedder, location=s3.location(prefix))


def test_a_file_another_writer_stored_first_is_skipped_not_added(s3, tmp_path, embedder, pdfs):  # noqa: F811
    """Break: storing.py counting every written entry as added (the writer's answer ignored), and the second
    writer's report says 1 added."""
    late = open_at(s3, tmp_path, "late", embedder, "counts")  # opened before the other machine stores the file
    late.catalog.refresh_s = 1e9  # its view stays as it was until the commit lock makes it read the catalog again
    first = open_at(s3, tmp_path, "first", embedder, "counts")
    assert first.ingest(pdfs[:1]).added == 1
    events: list[object] = []
    finished = late.ingest(pdfs[:2], on_event=events.append)
    assert (finished.added, finished.skipped) == (1, 1)
    done = {e.path: e for e in events if isinstance(e, FileFinished)}
    skipped = done[str(pdfs[0])]
    assert skipped.outcome == FileOutcome.skipped and "another writer stored it first" in skipped.reason
    assert done[str(pdfs[1])].outcome == FileOutcome.added
    assert len(late.documents(DocStatus.ready)) == 2 and late.vectors.count(skipped.doc_id) == first.documents(
        DocStatus.ready)[0].chunks  # stored once
    for library in (late, first):
        library.close()


def test_who_added_a_document_and_when_is_seen_from_another_machine(s3, tmp_path, embedder, pdfs, monkeypatch,  # noqa: F811
                                                                    capsys):
    """Break: the storer not filling added_by, and the other machine sees ''."""
    import time

    from courtroom_desktop.core.library.store import storing
    from courtroom_desktop.ui.qt_models.documents import added_words

    monkeypatch.setattr(storing, "who", lambda: "ada@lab-laptop")
    began = time.time()
    first = open_at(s3, tmp_path, "first", embedder, "who")
    assert first.ingest(pdfs[:1]).added == 1
    monkeypatch.setattr(storing, "who", lambda: "ben@desk-2")
    other = open_at(s3, tmp_path, "other", embedder, "who")
    assert other.ingest(pdfs[1:2]).added == 1
    seen = {d.path: d for d in open_at(s3, tmp_path, "third", embedder, "who").documents(DocStatus.ready)}
    assert seen[str(pdfs[0])].added_by == "ada@lab-laptop" and seen[str(pdfs[1])].added_by == "ben@desk-2"
    assert began <= seen[str(pdfs[0])].added_at <= time.time()
    assert added_words(seen[str(pdfs[1])]).endswith(" by ben@desk-2") and added_words(seen[str(pdfs[1])]).startswith(
        "Added 20")
    for library in (first, other):
        library.close()


def test_a_shared_catalog_from_before_added_by_gets_the_column_and_keeps_its_rows(s3, tmp_path, embedder):
    import lancedb
    import pyarrow as pa

    from courtroom_desktop.core.library.shared.catalog import DOCUMENT_SCHEMA

    location = s3.location("old-catalog")
    old_schema = pa.schema([f for f in DOCUMENT_SCHEMA if f.name != "added_by"])
    db = lancedb.connect(location.child("catalog"), storage_options=location.options)
    row = {f.name: None for f in old_schema} | {"id": "0123456789abcdef", "path": "/old/paper.pdf", "sha256": "0" * 64,
                                               "title": "An old paper", "status": "ready", "added_at": 1.0e9,
                                               "kind": "pdf", "private": 0, "chunks": 0, "pages": 1, "sections": 1}
    db.create_table("documents", pa.Table.from_pylist([row], schema=old_schema))
    library = open_at(s3, tmp_path, "newer", embedder, "old-catalog")
    (doc,) = library.documents()
    assert doc.title == "An old paper" and doc.added_by == ""
    assert "added_by" in db.open_table("documents").schema.names
    library.close()
