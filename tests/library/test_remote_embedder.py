"""Endpoint embedders (Ollama /api/embed, OpenAI-compatible /v1/embeddings) over real HTTP on loopback, their errors,
switching a library's embedder with the old vectors usable until the new ones are complete, and private documents
kept from embedding servers on another machine."""

from __future__ import annotations

import json

import numpy as np
import pytest

from courtroom_desktop.core.config import AppConfig, LibrarySettings
from courtroom_desktop.core.errors import LibraryError, TrialError
from courtroom_desktop.core.library import Library
from courtroom_desktop.core.library.embed.embedder import Embedder, make_embedder
from courtroom_desktop.core.library.embed.remote import RemoteEmbedder
from courtroom_desktop.core.library.files import CancelToken
from courtroom_desktop.core.privacy import embedder_server, remote_roles
from courtroom_desktop.core.retrieval import Retriever
from courtroom_desktop.core.secrets import set_api_key
from testkit.fake_embed import FakeEmbedServer, hashed_bag
from testkit.loopback import free_port

ELSEWHERE = "http://10.255.255.1:11434"  # never contacted: the refusal comes first


def _unit(rows):
    rows = np.asarray(rows, dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _settings(server: FakeEmbedServer, provider: str = "ollama", **more) -> LibrarySettings:
    url = server.ollama_url if provider == "ollama" else server.openai_url
    return LibrarySettings(embedder=provider, embedding_model=server.model, embedding_url=url,
                           isolate_extraction=False, **more)


def _notes(folder, docs: dict[str, str]):
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in docs.items():
        (folder / f"{name}.md").write_text(text, encoding="utf-8")
    return folder


DOCS = {
    "water": "# Drinking water\n\nLong-term drinking of purified water does not deplete the body's minerals; food "
             "supplies calcium and magnesium.\n",
    "sleep": "# Sleep\n\nAdults who sleep fewer than six hours a night show slower reaction times in driving tests.\n",
    "coffee": "# Coffee\n\nModerate coffee intake of three cups a day was not linked to heart rhythm problems.\n",
}


# ---------------------------------------------------------------------------- the two APIs

def test_ollama_api_embed_over_http():
    with FakeEmbedServer() as server, make_embedder(_settings(server, "ollama")) as embedder:
        assert isinstance(embedder, RemoteEmbedder)
        assert embedder.identity == f"ollama:fake-embed@{server.url}"
        texts = ["purified water and minerals", "minerals in purified water", "sleep and reaction times"]
        vectors = embedder.encode(texts)
        assert vectors.dtype == np.float32 and vectors.shape == (3, 64) and embedder.dim == 64
        assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)  # the server's rows are not unit length
        assert np.allclose(vectors, _unit(hashed_bag(texts)), atol=1e-6)
        assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
        assert server.paths == ["/api/embed"]
        assert server.requests[0] == {"model": "fake-embed", "input": texts, "truncate": True}


def test_openai_embeddings_over_http_with_the_key_from_the_keyring(memory_keyring):
    key = "sk-test-0123456789abcdef"
    with FakeEmbedServer(key=key) as server:
        settings = _settings(server, "openai")
        with make_embedder(settings) as refused, pytest.raises(LibraryError, match=r"HTTP 401.*API key") as caught:
            refused.encode(["a text"])
        assert server.refused == 1 and key not in str(caught.value)
        set_api_key(server.openai_url, key)  # as the settings dialog stores it
        with make_embedder(settings) as embedder:
            texts = [f"passage number {i} about coffee" for i in range(5)]
            vectors = embedder.encode(texts)
        assert embedder.identity == f"openai:fake-embed@{server.openai_url}"
        # the server answers its data in reverse order: the client puts each vector back by index
        assert np.allclose(vectors, _unit(hashed_bag(texts)), atol=1e-6)
        assert server.paths[-1] == "/v1/embeddings" and server.requests[-1]["encoding_format"] == "float"


def test_the_factory_names_each_embedder():
    bundled = make_embedder(LibrarySettings())
    assert isinstance(bundled, Embedder) and bundled.identity == "all-MiniLM-L6-v2"
    assert not bundled.covers("长期饮用纯净水") and bundled.covers("purified water")
    local = make_embedder(LibrarySettings(embedding_model="/models/my-st", embedding_backend="onnx"))
    assert isinstance(local, Embedder) and local.identity == "/models/my-st" and local.covers("纯净水")
    ollama = make_embedder(LibrarySettings(embedder="ollama", embedding_model="bge-m3"))
    assert ollama.identity == "ollama:bge-m3@http://localhost:11434" and ollama.covers("纯净水")
    english = make_embedder(LibrarySettings(embedder="ollama", embedding_model="all-minilm", embedding_languages="en"))
    assert english.covers("water") and not english.covers("长期饮用纯净水会导致人体矿物质流失")
    with pytest.raises(ValueError, match=r"library.embedding_url is empty.*http://127.0.0.1:8000/v1"):
        LibrarySettings(embedder="openai", embedding_model="text-embedding-3-small")
    with pytest.raises(ValueError, match=r"library.embedding_model: name the embedding model on the ollama server"):
        LibrarySettings(embedder="ollama")
    with pytest.raises(ValueError, match=r"library.embedding_languages = 'en, fr'"):
        LibrarySettings(embedder="ollama", embedding_model="bge-m3", embedding_languages="en, fr")
    assert LibrarySettings.model_validate({"embedding_model": "/models/my-st"}).embedder == "local"  # older files


# ---------------------------------------------------------------------------- errors

def test_a_server_that_is_down_is_named_with_the_setting():
    url = f"http://127.0.0.1:{free_port()}"
    with RemoteEmbedder("ollama", "bge-m3", url, retry_pause_s=0.01) as embedder, \
            pytest.raises(LibraryError, match=r"Ollama embedding server at http://127.0.0.1:\d+ .*cannot be reached") as e:
        embedder.encode(["text"])
    assert "library.embedding_url" in e.value.fix


def test_a_hanging_server_times_out_after_one_retry():
    with FakeEmbedServer("hang") as server:
        with RemoteEmbedder("ollama", server.model, server.url, timeout_s=0.3, retry_pause_s=0.01) as embedder, \
                pytest.raises(LibraryError, match=r"gave no answer within 0.3 s") as caught:
            embedder.encode(["text"])
        assert len(server.requests) == 2 and embedder.requests == 2
        assert "library.embedding_timeout_s" in caught.value.fix


def test_a_busy_server_is_retried_once():
    with FakeEmbedServer("flaky") as server:
        with RemoteEmbedder("openai", server.model, server.openai_url, retry_pause_s=0.01) as embedder:
            assert embedder.encode(["one", "two"]).shape == (2, 64)
        assert len(server.requests) == 2


@pytest.mark.parametrize("mode, message", [
    ("broken_json", r"answered something that is not JSON \('<html>502 Bad Gateway</html>'\)"),
    ("wrong_count", r"answered 1 vectors for 2 texts"),
])
def test_bad_answers_are_named(mode, message):
    with FakeEmbedServer(mode) as server:
        for provider, url in (("ollama", server.ollama_url), ("openai", server.openai_url)):
            with RemoteEmbedder(provider, server.model, url) as embedder, \
                    pytest.raises(LibraryError, match=message) as caught:
                embedder.encode(["one", "two"])
            assert url in str(caught.value) and f"library.embedder = {provider!r}" in str(caught.value)


def test_a_changed_dimension_and_an_unknown_model_are_named():
    with FakeEmbedServer("wrong_dim") as server:
        with RemoteEmbedder("ollama", server.model, server.url) as embedder:
            assert embedder.dim == 64
            with pytest.raises(LibraryError, match=r"answered 65-dimensional vectors where its first answer had 64"):
                embedder.encode(["one"])
        with RemoteEmbedder("ollama", "bge-m3", server.url) as missing, \
                pytest.raises(LibraryError, match=r"HTTP 404.*not found") as caught:
            missing.encode(["one"])
        assert "`ollama pull` it" in caught.value.fix


# ---------------------------------------------------------------------------- Chinese through the endpoint

def test_chinese_text_is_embedded_through_the_endpoint(tmp_path):
    docs = {"water-zh": "# 饮水\n\n长期饮用纯净水不会导致人体矿物质流失，食物提供钙和镁。\n",
            "sleep-zh": "# 睡眠\n\n每晚睡眠少于六小时的成年人在驾驶测试中反应更慢。\n"}
    with FakeEmbedServer() as server:
        library = Library.open(tmp_path / "lib", _settings(server))
        try:
            assert library.ingest([_notes(tmp_path / "docs", docs)]).added == 2
            sent = [t for body in server.requests for t in body["input"]]
            assert any("矿物质" in t for t in sent)
            query = "纯净水 矿物质 流失"
            assert library.embedder.covers(query)
            hits = library.vectors.vector_search(library.embedder.encode([query])[0], 2)
            assert library.catalog.get(hits[0][1]).title == "饮水"
            found = Retriever(library, reranker=None).search(query, k=1)
            assert "纯净水" in found[0].chunk.text
        finally:
            library.close()


# ---------------------------------------------------------------------------- switching embedders

def _search(library, query: str) -> str:
    return Retriever(library, reranker=None).search(query, k=1)[0].chunk.text


def test_switching_keeps_the_old_vectors_until_the_new_ones_are_complete(tmp_path):
    folder = _notes(tmp_path / "docs", DOCS)
    small = lambda texts: hashed_bag(texts, dim=32)  # noqa: E731 - the new model: another dimension
    with FakeEmbedServer() as old_server, FakeEmbedServer(encoder=small, model="new-embed") as new_server:
        old, new = _settings(old_server), _settings(new_server, "openai")
        library = Library.open(tmp_path / "lib", old)
        library.ingest([folder])
        before = library.catalog.get_meta("embedding_model")
        assert before == f"ollama:fake-embed@{old_server.url}" and library.vectors.dim == 64
        old_folder = library.vectors.folder

        # cancelled after the first document: searches ran during the switch and after it on the old vectors
        cancel, during = CancelToken(), []

        def on_event(event):
            if event.kind == "file_finished":
                during.append(_search(library, "purified water minerals"))
                cancel.cancel()

        finished = library.reindex(settings=new, on_event=on_event, cancel=cancel)
        assert finished.cancelled and new_server.texts > 0
        assert "purified water" in during[0]
        assert library.catalog.get_meta("embedding_model") == before and library.vectors.folder == old_folder
        assert library.embedder.identity == before and "purified water" in _search(library, "purified water minerals")
        assert sorted(p.name for p in (tmp_path / "lib").glob("lancedb*")) == ["lancedb"]  # the half-built one went

        # the new server fails half-way: an error, and still the old vectors
        with FakeEmbedServer("wrong_dim", encoder=small, model="new-embed") as failing:
            with pytest.raises(LibraryError, match="dimensional"):
                library.reindex(settings=_settings(failing, "openai"))
        assert library.catalog.get_meta("embedding_model") == before
        assert "sleep" in _search(library, "sleep hours reaction times").lower()

        # the whole run: the swap
        events = []
        finished = library.reindex(settings=new, on_event=events.append)
        assert not finished.cancelled and finished.updated == 3
        assert [e.kind for e in events].count("file_finished") == 3 and events[-1].kind == "finished"
        # what the cancelled run embedded came from the cache: each passage reached the server once (+ two probes)
        assert new_server.texts == sum(d.chunks for d in library.documents()) + 2
        assert library.catalog.get_meta("embedding_model") == f"openai:new-embed@{new_server.openai_url}"
        assert library.catalog.get_meta("embedding_dim") == "32" and library.vectors.dim == 32
        assert library.vectors.folder != old_folder and library.settings is new
        assert library.check_consistency()["consistent"]
        assert "coffee" in _search(library, "coffee cups heart rhythm").lower()
        assert json.loads(library.catalog.get_meta("embedder_settings"))["embedder"] == "openai"
        library.close()

        library = Library.open(tmp_path / "lib", new)  # reopened: the replaced folder is swept
        try:
            assert [p.name for p in (tmp_path / "lib").glob("lancedb*")] == [library.vectors.folder.name]
            assert not library.embedder_pending and "sleep" in _search(library, "sleep reaction times").lower()
        finally:
            library.close()


def test_a_library_opened_with_new_settings_searches_with_its_old_embedder_until_switched(tmp_path):
    with FakeEmbedServer() as old_server, FakeEmbedServer(model="new-embed") as new_server:
        library = Library.open(tmp_path / "lib", _settings(old_server))
        library.ingest([_notes(tmp_path / "docs", DOCS)])
        library.close()
        (tmp_path / "lib" / "lancedb-crashed").mkdir()  # a switch that died before its swap

        library = Library.open(tmp_path / "lib", _settings(new_server))
        try:
            assert not (tmp_path / "lib" / "lancedb-crashed").exists()
            assert library.embedder_pending and library.embedder.identity.startswith("ollama:fake-embed@")
            assert "coffee" in _search(library, "coffee heart rhythm").lower()
            assert new_server.texts == 0  # nothing went to the new server yet
            library.reindex()
            assert not library.embedder_pending and library.embedder.identity.startswith("ollama:new-embed@")
        finally:
            library.close()


# ---------------------------------------------------------------------------- private documents

def test_a_private_document_is_never_sent_to_an_embedder_on_another_machine(tmp_path):
    settings = LibrarySettings(embedder="ollama", embedding_model="bge-m3", embedding_url=ELSEWHERE,
                               isolate_extraction=False)
    assert not embedder_server(settings).local and "10.255.255.1:11434" in embedder_server(settings).label
    assert embedder_server(LibrarySettings()).local
    library = Library.open(tmp_path / "lib", settings)
    try:
        note = _notes(tmp_path / "docs", {"rent": "# 搬家预算\n\n每月房租约一千四百欧元。\n"}) / "rent.md"
        finished = library.ingest([note], private=True)
        assert finished.failed == 1 and not library.documents()
        reason = library.catalog.failures()[0][1]
        assert "private document '搬家预算'" in reason and ELSEWHERE in reason and "another machine" in reason
    finally:
        library.close()

    with FakeEmbedServer() as server:  # a server on this computer may read private documents
        library = Library.open(tmp_path / "lib2", _settings(server))
        try:
            assert library.ingest([note], private=True).added == 1
            with pytest.raises(LibraryError, match=r"cannot switch the embedder: private document '搬家预算'"):
                library.reindex(settings=settings)
            assert library.catalog.get_meta("embedding_model").startswith("ollama:fake-embed@")
        finally:
            library.close()


def test_a_trial_over_private_notes_is_refused_while_the_embedder_is_remote(tmp_path):
    from courtroom_desktop.core.workspace import Workspace

    with FakeEmbedServer() as server:
        config = AppConfig(library=_settings(server))
        workspace = Workspace(tmp_path / "config", tmp_path / "data", config)
        try:
            workspace.library.ingest([_notes(tmp_path / "docs", {"rent": "# 搬家预算\n\n每月房租约一千四百欧元。\n"})],
                                     private=True)
            assert "embedder" not in remote_roles(config.models, config.library)
            workspace.parts.privacy(None).check()  # loopback: allowed
            workspace.reconfigure(config.model_copy(update={"library": config.library.model_copy(
                update={"embedding_url": ELSEWHERE})}))
            assert "embedder" in remote_roles(workspace.config.models, workspace.config.library)
            with pytest.raises(TrialError, match=r"private notes \('搬家预算'\).*the embedder would send it to the "
                                                 r"Ollama embedding server at 10.255.255.1:11434") as caught:
                workspace.trials.start("Rent is affordable")
            assert "an embedder on this computer" in caught.value.fix
        finally:
            workspace.close()


def test_reindex_switches_to_the_embedder_the_settings_name_now(tmp_path):
    """Workspace.reconfigure hands the open library new settings (here: the same model on another server); a plain
    reindex() (the library panel's Re-index, `courtroom library reindex`) then switches to it."""
    with FakeEmbedServer() as first, FakeEmbedServer() as second:
        library = Library.open(tmp_path / "lib", _settings(first))
        try:
            library.ingest([_notes(tmp_path / "docs", DOCS)])
            library.settings = _settings(second)
            assert library.reindex().updated == 3
            assert library.catalog.get_meta("embedding_model") == f"ollama:fake-embed@{second.url}"
            assert second.texts == sum(d.chunks for d in library.documents()) + 1  # + the dimension probe
        finally:
            library.close()


def test_a_changed_embedding_model_reaches_the_open_library_through_reconfigure(tmp_path):
    """The window applies new settings with Workspace.reconfigure; another embedding model (not only another server)
    must reach the open library, so that the next Re-index switches to it without a restart."""
    from courtroom_desktop.core.workspace import Workspace

    with FakeEmbedServer() as first, FakeEmbedServer(model="other-embed") as second:
        workspace = Workspace(tmp_path / "config", tmp_path / "data", AppConfig(library=_settings(first)))
        try:
            workspace.library.ingest([_notes(tmp_path / "docs", DOCS)])
            workspace.reconfigure(workspace.config.model_copy(update={"library": _settings(second)}))
            assert workspace.library.reindex().updated == 3
            assert workspace.parts.library.catalog.get_meta("embedding_model") == f"ollama:other-embed@{second.url}"
        finally:
            workspace.close()


def test_search_falls_back_to_bm25_with_a_warning_when_the_embedding_server_is_down(tmp_path, capsys):
    """The library was built through an endpoint that is now down: `courtroom search` still answers, from BM25,
    and says on stderr (JSON stays clean) why and what to do; a vector-only search raises the endpoint's error."""
    from courtroom_desktop.cli import main
    from courtroom_desktop.core.retrieval.fusion import VECTOR

    config_dir, data_dir = tmp_path / "config", tmp_path / "data"
    config_dir.mkdir()
    with FakeEmbedServer() as server:
        (config_dir / "config.toml").write_text(
            f'[library]\nembedder = "ollama"\nembedding_model = "{server.model}"\nembedding_url = "{server.ollama_url}"\n'
            'isolate_extraction = false\n', encoding="utf-8")
        base = ["--config-dir", str(config_dir), "--data-dir", str(data_dir)]
        assert main([*base, "ingest", "--quiet", str(_notes(tmp_path / "docs", DOCS))]) == 0
        capsys.readouterr()
        assert main([*base, "search", "purified water minerals", "--json"]) == 0
        assert capsys.readouterr().err == ""  # up: no warning
    # the server is gone now
    assert main([*base, "search", "purified water minerals", "--k", "2", "--json"]) == 0
    captured = capsys.readouterr()
    hits = json.loads(captured.out)
    assert hits and "purified water" in hits[0]["text"] and hits[0]["vector_rank"] is None
    assert "vector search was skipped" in captured.err and "cannot be reached" in captured.err
    assert "library.embedding_url" in captured.err  # what to do
    library = Library.open(data_dir / "library", LibrarySettings(embedder="ollama", embedding_model=server.model,
                                                                 embedding_url=server.ollama_url))
    try:
        with pytest.raises(LibraryError, match="cannot be reached"):
            Retriever(library, reranker=None).gather(["purified water"], 5, methods=(VECTOR,))
    finally:
        library.close()


def test_switching_away_from_the_bundled_model_stops_its_child_process(tmp_path):
    """In the window the bundled MiniLM runs in a child process (embed/child.py); once a switch has swapped the
    library to another embedder, that child stops instead of idling until the app quits (break: _switched without
    closing the replaced embedder, and it fails)."""
    import os
    import time

    from courtroom_desktop.core.library.embed import child

    pytest.importorskip("onnxruntime")
    folder = _notes(tmp_path / "docs", DOCS)
    child.use(True)
    try:
        library = Library.open(tmp_path / "lib", LibrarySettings(isolate_extraction=False))
        try:
            library.ingest([folder])
            bundled = library.embedder
            assert isinstance(bundled, Embedder)
            pid = bundled._load().pid  # the child that embedded the notes
            assert pid is not None
            with FakeEmbedServer() as server:
                finished = library.reindex(settings=_settings(server))
                assert not finished.cancelled and library.embedder is not bundled
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline:
                    try:
                        os.kill(pid, 0)
                    except ProcessLookupError:
                        break
                    time.sleep(0.05)
                else:
                    raise AssertionError(f"the bundled model's child {pid} still runs after the switch")
                assert "purified water" in _search(library, "purified water minerals")
        finally:
            library.close()
    finally:
        child.use(False)
