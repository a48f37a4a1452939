"""A shared library's local read replica (core.library.shared.replica), for real against the S3 server on loopback:
searches read this disk once it has caught up (the bucket's table is made to fail, and they still answer); it
survives a restart without copying again; a commit elsewhere is caught up in the background by version; a removal
elsewhere is honoured at the next search although the replica still holds the removed chunks; a table over the size
limit is not copied; clearing deletes it. And the shared catalog's rows are read once per version, not per refresh."""

from __future__ import annotations

import pytest

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.library import Library
from courtroom_desktop.core.retrieval import Retriever

from .test_shared_library import SETTINGS, pdfs  # noqa: F401 - the fixture


def open_at(s3, tmp_path, machine: str, embedder, prefix: str, **settings: object) -> Library:
    return Library(tmp_path / machine, SETTINGS.model_copy(update=settings), embedder,
                   location=s3.location(prefix))


def caught_up(library: Library) -> None:
    """Start the background check now and wait for it."""
    replica = library.replica
    assert replica is not None
    replica.status.checked_at = 0.0
    _ = library.search_vectors
    replica.wait(60)


def no_bucket_search(library: Library, monkeypatch) -> None:
    """The bucket's chunk table refuses every search read: what still answers came from the replica."""
    def refuse(*args, **kwargs):
        raise AssertionError("a search read the bucket")

    for name in ("vector_search", "fetch", "ids_where"):
        monkeypatch.setattr(library.vectors, name, refuse)


def vector_hits(library: Library, query: str) -> set[str]:
    """The documents of the vector list alone (no BM25 to hide what the vector list lets through)."""
    from courtroom_desktop.core.retrieval.fusion import VECTOR

    lists = Retriever(library).gather([query], 20, methods=(VECTOR,))
    return {hit.doc_id for ranked in lists for hit in ranked.hits}


def test_searches_read_the_replica_and_it_survives_a_restart(s3, tmp_path, embedder, pdfs, monkeypatch):  # noqa: F811
    writer = open_at(s3, tmp_path, "writer", embedder, "replica-a")
    assert writer.ingest(pdfs).added == 3
    reader = open_at(s3, tmp_path, "reader", embedder, "replica-a")
    assert reader.search_vectors is reader.vectors  # nothing copied yet: the bucket answers while it copies
    caught_up(reader)
    status = reader.replica.status
    assert status.current and status.bytes > 0 and not status.problem
    assert (tmp_path / "reader" / "replica" / "lancedb" / "chunks.lance" / "_versions").is_dir()
    local = reader.search_vectors
    assert local is not reader.vectors and str(local.folder).startswith(str(tmp_path / "reader"))
    assert local.count() == reader.vectors.count()
    with monkeypatch.context() as patch:
        no_bucket_search(reader, patch)
        hits = Retriever(reader).search("vitamin D birth weight", k=3)
    assert hits and "Vitamin D" in hits[0].doc_title
    reader.close()

    again = open_at(s3, tmp_path, "reader", embedder, "replica-a")  # a restart: the copy is still there
    assert again.replica.status.manifest == status.manifest
    before = {p: p.stat().st_mtime_ns for p in (tmp_path / "reader" / "replica").rglob("*.lance") if p.is_file()}
    with monkeypatch.context() as patch:
        no_bucket_search(again, patch)
        assert Retriever(again).search("statins muscle pain", k=3)[0].doc_title == "Statins in the elderly"
    caught_up(again)  # the bucket has nothing new: nothing is copied again
    assert {p: p.stat().st_mtime_ns for p in before} == before
    again.replica.clear()
    assert not (tmp_path / "reader" / "replica" / "lancedb").exists() and again.search_vectors is again.vectors
    again.close()
    writer.close()


def test_a_commit_elsewhere_is_caught_up_and_a_removal_is_honoured_at_the_next_search(s3, tmp_path, embedder, pdfs,  # noqa: F811
                                                                                      monkeypatch):
    """Break: the retriever's filter on the catalog's ready documents dropped from its vector list (``_vector``),
    and the removed document comes back from the replica."""
    writer = open_at(s3, tmp_path, "writer", embedder, "replica-b")
    assert writer.ingest(pdfs[:2]).added == 2
    reader = open_at(s3, tmp_path, "reader", embedder, "replica-b")
    reader.catalog.refresh_s = 0.0  # every search asks the catalog's version
    caught_up(reader)
    first = reader.replica.status.manifest

    assert writer.ingest(pdfs[2:]).added == 1  # another machine commits
    assert reader.replica.remote_manifest() != first
    caught_up(reader)
    assert reader.replica.status.manifest != first and reader.replica.status.current
    with monkeypatch.context() as patch:
        no_bucket_search(reader, patch)
        hits = Retriever(reader).search("睡眠 记忆", k=3)
        vector_docs = vector_hits(reader, "睡眠不足会损害记忆")
    assert hits and hits[0].doc_title == "睡眠与记忆" and hits[0].chunk.doc_id in vector_docs

    removed = writer.remove(hits[0].chunk.doc_id)  # elsewhere; this replica still holds its chunks
    assert removed.id in reader.search_vectors.doc_ids()
    reader.replica.status.checked_at = 1e18  # no catch-up before the search: the replica stays behind
    with monkeypatch.context() as patch:
        no_bucket_search(reader, patch)
        after = Retriever(reader).search("睡眠 记忆", k=5)
        vector_docs = vector_hits(reader, "睡眠不足会损害记忆")
    assert removed.id not in {h.chunk.doc_id for h in after} and removed.id not in vector_docs
    assert vector_docs  # the other documents still come from the replica
    reader.close()
    writer.close()


def test_a_table_over_the_size_limit_is_not_copied(s3, tmp_path, embedder, pdfs):  # noqa: F811
    writer = open_at(s3, tmp_path, "writer", embedder, "replica-c")
    assert writer.ingest(pdfs[:1]).added == 1
    reader = open_at(s3, tmp_path, "reader", embedder, "replica-c", replica_limit_gb=1e-6)  # 1,000 bytes
    caught_up(reader)
    assert "larger than library.replica_limit_gb" in reader.replica.status.problem
    assert "not used" in reader.replica.status.describe()
    assert reader.search_vectors is reader.vectors and not (tmp_path / "reader" / "replica" / "lancedb").exists()
    assert Retriever(reader).search("vitamin D", k=1)
    off = open_at(s3, tmp_path, "other", embedder, "replica-c", replica=False)
    assert off.replica is None and off.search_vectors is off.vectors
    for library in (reader, off, writer):
        library.close()


def test_the_catalog_rows_are_read_once_per_version(s3, tmp_path, embedder, pdfs):  # noqa: F811
    """Break: the version check in SharedCatalog.sync removed, and every refresh reads the rows again."""
    writer = open_at(s3, tmp_path, "writer", embedder, "replica-d")
    assert writer.ingest(pdfs[:1]).added == 1
    reader = open_at(s3, tmp_path, "reader", embedder, "replica-d")
    reader.catalog.refresh_s = 0.0
    reads = reader.catalog.reads
    for _ in range(5):
        assert len(reader.ready_ids()) == 1
    assert reader.catalog.reads == reads
    assert writer.ingest(pdfs[1:2]).added == 1
    assert len(reader.ready_ids()) == 2 and reader.catalog.reads == reads + 1
    assert len(reader.ready_ids()) == 2 and reader.catalog.reads == reads + 1
    reader.close()
    writer.close()


@pytest.mark.parametrize("names, newest", [
    (["_versions/18446744073709551613.manifest", "_versions/18446744073709551612.manifest"],
     "_versions/18446744073709551612.manifest"),  # Lance's V2 naming: u64::MAX - version
    (["_versions/2.manifest", "_versions/10.manifest", "_versions/9.manifest"], "_versions/10.manifest"),
    ([], ""),
])
def test_the_newest_manifest_is_found_in_either_naming(names, newest):
    from courtroom_desktop.core.library.shared.replica import newest as pick

    assert pick(names) == newest


def test_the_settings_default_to_a_replica_of_twenty_gigabytes():
    settings = LibrarySettings()
    assert settings.replica and settings.replica_limit_gb == 20.0


def test_the_command_line_shows_catches_up_and_clears_the_replica(s3, tmp_path, embedder, pdfs, monkeypatch,  # noqa: F811
                                                                   capsys):
    from courtroom_desktop.cli import main
    from testkit.s3 import ACCESS_KEY, SECRET_KEY

    writer = open_at(s3, tmp_path, "writer", embedder, "replica-e")
    assert writer.ingest(pdfs[:1]).added == 1
    writer.close()
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", ACCESS_KEY)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
    base = ["--config-dir", str(tmp_path / "config"), "--data-dir", str(tmp_path / "data")]
    assert main([*base, "config", "set", "library.uri", s3.uri("replica-e")]) == 0
    assert main([*base, "config", "set", "library.endpoint", s3.endpoint]) == 0
    capsys.readouterr()
    assert main([*base, "library", "replica", "--sync"]) == 0
    assert "local replica: " in (out := capsys.readouterr().out) and ", current (checked 0 s ago)" in out
    assert main([*base, "library", "where"]) == 0
    assert "local replica: " in capsys.readouterr().out
    assert main([*base, "library", "replica", "--clear"]) == 0
    assert "local replica: being copied" in capsys.readouterr().out
    assert not list((tmp_path / "data" / "shared").glob("*/replica/lancedb"))
    assert main([*base, "config", "set", "library.replica", "false"]) == 0
    capsys.readouterr()
    assert main([*base, "library", "replica"]) == 0
    assert "no replica" in capsys.readouterr().out
