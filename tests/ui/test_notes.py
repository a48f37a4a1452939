"""Notes in the window: the note editor saves a note into the library and edits it, the context menu marks documents
private, a watched folder is shown and followed, and the evidence inspector shows a passage of a text document in its
text, highlighted and scrolled into view (offscreen)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

from courtroom_desktop.core.library.chunking import chunk_document
from courtroom_desktop.core.library.read.text_files import read_text_file
from courtroom_desktop.core.records import Evidence
from courtroom_desktop.ui.qt_models.documents import DOCUMENT, PAGES
from tests.ui.conftest import opened, run, until


def _notes(model) -> list:
    return [r for r in model.rows() if r.doc is not None and r.doc.kind == "note"]


def test_note_editor_saves_edits_and_marks_a_note_private(make_window, qloop, qtbot, tmp_path):
    window = make_window()
    panel, model = window.library_panel, window.documents_model

    async def scenario():
        await opened(window)
        editor = panel.new_note()
        assert editor.isVisible() and not editor.save_button.isEnabled()  # a note needs a title and text
        editor.title_edit.setText("搬家：里斯本")
        editor.text_edit.setPlainText("## 一、房租\n\n每月约一千四百欧元。\n\n## Commute\n\nThe tram takes 25 minutes.")
        editor.private_box.setChecked(True)
        qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
        await until(lambda: _notes(model) and not window.library.busy, 30, "the note in the library")
        row = _notes(model)[0]
        assert row.doc.private and row.doc.chunks >= 1 and (tmp_path / "data" / "notes").is_dir()
        number = model.rows().index(row)
        assert model.data(model.index(number, DOCUMENT)) == "搬家：里斯本 (private)"
        assert model.data(model.index(number, PAGES)) == "note"  # no page count for a note

        editor = panel.edit_note(row)
        assert editor.title_edit.text() == "搬家：里斯本" and editor.private_box.isChecked()
        assert editor.text_edit.toPlainText().startswith("## 一、房租")
        editor.text_edit.setPlainText(editor.text_edit.toPlainText() + "\n\nSchools charge a fee.")
        editor.private_box.setChecked(False)
        qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
        await until(lambda: _notes(model) and _notes(model)[0].doc.id != row.doc.id and not window.library.busy, 30,
                    "the edited note")
        edited = _notes(model)
        assert len(edited) == 1 and not edited[0].doc.private and edited[0].path == row.path

        panel.table.selectRow(model.rows().index(edited[0]))
        point = panel.table.visualRect(model.index(model.rows().index(edited[0]), 0)).center()
        menu = panel._context_menu(point)
        labels = [a.text() for a in menu.actions()]
        menu.close()
        assert "Edit note\u2026" in labels and "Mark private" in labels and "Watch a folder\u2026" in labels
        panel.set_private(edited, True)
        await until(lambda: _notes(model)[0].doc.private, 10, "the note marked private")
        assert window.workspace.workspace.library.private_documents([edited[0].doc.id + "-0000"]) == {edited[0].doc.id}

    run(qloop, scenario(), 90)


def test_a_watched_folder_is_followed_and_shown(make_window, qloop, tmp_path):
    window = make_window()
    panel, model = window.library_panel, window.documents_model
    folder = tmp_path / "journal"
    folder.mkdir()
    (folder / "day-1.md").write_text("# Day 1\n\nWe visited two flats in Graça.\n", encoding="utf-8")

    async def scenario():
        await opened(window)
        window.library.watch_folder(str(folder), private=True)
        await until(lambda: "1 added" in panel.watch_status.text(), 30, "the catch-up pass")
        assert panel.watch_status.isVisible() and panel.watch_status.text().startswith("Watching 1 folder")
        await until(lambda: any(r.title == "Day 1" for r in model.rows()), 10, "the listed file")
        (folder / "day-2.txt").write_text("The second flat had no lift.\n", encoding="utf-8")
        await until(lambda: any(r.path.endswith("day-2.txt") for r in model.rows()), 30, "the added file")
        (folder / "day-1.md").unlink()
        await until(lambda: not any(r.title == "Day 1" for r in model.rows()), 30, "the removed file")
        assert all(r.doc.private for r in model.rows() if r.doc is not None)
        window.library.unwatch_folder(str(folder))
        await until(lambda: window.library.watcher is None and not panel.watch_status.isVisible(), 10,
                    "no folder watched")

    run(qloop, scenario(), 120)
    assert window.workspace.config.library.watched_folders == []


def test_the_inspector_highlights_a_text_passage_in_its_text(qloop, qtbot, tmp_path):
    from courtroom_desktop.core.court.records import PoolEntry
    from courtroom_desktop.ui.controllers.pages import PageRenderer
    from courtroom_desktop.ui.qt_models.evidence import EvidenceModel
    from courtroom_desktop.ui.widgets.inspector import EvidenceInspector

    path = tmp_path / "lisbon.md"
    paragraphs = [f"Paragraph {i} about flats, rents 😀 and trams in the city." for i in range(80)]
    path.write_text("# Lisbon\n\n" + "\n\n".join(paragraphs) + "\n\n## 结论\n\n我们明年春天搬家。房租可以接受！\n",
                    encoding="utf-8")
    chunks = chunk_document(read_text_file(path), "d1", 60, 0, 0)
    chunk = chunks[-1]
    assert chunk.section_path == "Lisbon > 结论"
    model, renderer = EvidenceModel(), PageRenderer()
    inspector = EvidenceInspector(model, renderer)
    qtbot.addWidget(inspector)
    inspector.resize(520, 640)
    inspector.show()
    entry = PoolEntry(id="E1", evidence=Evidence(chunk=chunk, doc_title="Lisbon", doc_path=str(path)), round=1,
                      found_by="judge", query="搬家")

    async def scenario():
        model.reset("decision", [entry])
        assert inspector.show_evidence("E1")
        await until(lambda: inspector.page_stack.currentWidget() is inspector.text_view, 10, "the text")

    run(qloop, scenario())
    view = inspector.text_view
    assert view.toPlainText().startswith("# Lisbon") and "p. " not in inspector.info.text()
    selection = view.extraSelections()[0]
    cursor = selection.cursor
    assert cursor.selectedText() == chunk.text == "我们明年春天搬家。房租可以接受！"  # after 80 emoji: UTF-16 positions
    # black on the highlighter's yellow in any palette (tests/ui/test_contrast.py measures why)
    from PySide6.QtGui import QTextFormat

    assert selection.format.hasProperty(QTextFormat.Property.ForegroundBrush)
    assert selection.format.foreground().color().name() == "#000000"
    assert selection.format.background().color().alpha() == 140
    rect = view.cursorRect(cursor)
    assert view.verticalScrollBar().value() > 0 and view.viewport().rect().contains(QPoint(rect.x(), rect.y()))
    assert not inspector.next_button.isEnabled() and not inspector.zoom_in_button.isEnabled()
    assert inspector.highlight_button.isEnabled() and inspector.page_label.text() == ""
    path.write_text("rewritten entirely", encoding="utf-8")  # the file changed: the kept passage, highlighted

    async def again():
        model.reset("decision", [entry])
        assert inspector.show_evidence("E1")
        await until(lambda: "has changed" in view.toPlainText(), 10, "the kept passage")

    run(qloop, again())
    selection = view.extraSelections()[0]
    assert selection.cursor.selectedText() == chunk.text
