"""The embedder in the settings dialog: choosing an Ollama server, where passages would go, and the re-embed it
offers after Apply, run by the window's library controller (progress events), searches on the old vectors until the
swap."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from testkit.fake_embed import FakeEmbedServer

from .conftest import opened, run, until


def test_choosing_an_endpoint_embedder_re_embeds_the_library(sample_window, qloop):
    window = sample_window
    run(qloop, opened(window))
    library = window.workspace.workspace.parts.library
    before = library.catalog.get_meta("embedding_model")
    events = []
    window.library.sig_ingest_event.connect(events.append)
    dialog = window.open_settings()
    editor = dialog.embedder
    assert editor.provider_value() == "bundled" and not editor.url.isEnabled() and editor.api_key.isHidden()
    assert "on this computer" in editor.where.text()

    editor.provider.setCurrentIndex(editor.provider.findData("ollama"))
    assert editor.model.currentText() == "bge-m3" and editor.url.isEnabled() and not editor.api_key.isHidden()
    editor.url.setText("http://10.255.255.1:11434")
    assert "another machine" in editor.where.text() and "private documents are refused" in editor.where.text()

    with FakeEmbedServer() as server:
        editor.url.setText(server.url)
        editor.model.setEditText(server.model)
        assert "on this computer" in editor.where.text()
        assert dialog.apply()
        assert window.workspace.config.library.embedder == "ollama"
        box = dialog.reembed_box
        assert box is not None and "6 documents" in box.text()
        assert library.catalog.get_meta("embedding_model") == before  # nothing switched before the answer
        box.button(QMessageBox.StandardButton.Yes).click()
        run(qloop, until(lambda: not window.library.busy and library.catalog.get_meta("embedding_model") != before,
                         60, "the re-embed"), 70)
        assert library.catalog.get_meta("embedding_model") == f"ollama:fake-embed@{server.url}"
        assert server.texts >= sum(d.chunks for d in library.documents())
        assert [e.kind for e in events].count("file_finished") == 6 and events[-1].kind == "finished"
        assert window.workspace.workspace.library.search("vitamin D", k=2)
    dialog.close()


def test_only_a_backend_with_other_vectors_counts_as_another_embedder():
    """Moving between the float backends asks for no re-embedding (their vectors are the same); int8 does."""
    from courtroom_desktop.core.config import LibrarySettings
    from courtroom_desktop.ui.dialogs.embedder_editor import changed

    torch, onnx, int8 = (LibrarySettings(embedding_backend=b) for b in ("torch", "onnx", "onnx-int8"))
    assert not changed(torch, onnx) and not changed(onnx, torch) and not changed(onnx, onnx)
    assert changed(onnx, int8) and changed(int8, torch)
    assert changed(onnx, LibrarySettings(embedding_model="/models/other"))
