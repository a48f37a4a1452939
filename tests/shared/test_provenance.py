"""What a shared library's ingest says of each document: a file another writer stored first counts as skipped (with
that reason), not as added."""

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
