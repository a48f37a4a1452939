"""Every panel and dialog clicked through: the library (drop, add, remove, re-index, cancel, failures), the first run
with the sample library, the trial history, the scope, settings, shortcuts and about dialogs, appearance, and the
remembered layout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, QSettings, Qt, QUrl
from PySide6.QtGui import QDropEvent, QPalette
from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from courtroom_desktop.ui.qt_models.transcript import VerdictItem
from testkit.pdfgen import DocSpec, SectionSpec, render_pdf

from .conftest import ROOT, opened, run, until


def small_pdf(path: Path, title: str, pages_of_text: int = 2) -> Path:
    words = "patients vitamin birth weight trial cohort supplement outcome placebo".split()
    paragraphs = [" ".join(words[(i + j) % len(words)] for j in range(80)) + "." for i in range(6 * pages_of_text)]
    render_pdf(DocSpec(title=title, sections=[SectionSpec(1, "1 Results", paragraphs)], authors="T. Tester", year=2024),
               path, outline=True)
    return path


def drop(widget, paths: list[Path]) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    widget.dropEvent(event)


def test_library_panel_drop_remove_reindex_and_failures(make_window, qloop, qtbot, tmp_path, monkeypatch):
    window = make_window()
    panel = window.library_panel
    docs = tmp_path / "docs"
    docs.mkdir()
    first = small_pdf(docs / "first.pdf", "First Study")
    small_pdf(docs / "second.pdf", "Second Study")
    bad = docs / "notes.pdf"
    bad.write_text("this is not a PDF at all", encoding="utf-8")
    events = []
    window.library.sig_ingest_event.connect(events.append)

    async def scenario():
        await opened(window)
        assert panel.empty.isVisible() and panel.samples_button.isVisible()
        drop(panel, [docs])
        await until(lambda: window.library.busy, 5, "the ingest to start")
        assert panel.progress_box.isVisible() and panel.cancel_button.isEnabled()
        await until(lambda: not window.library.busy and window.documents_model.rowCount() == 3, 30, "the ingest")

    run(qloop, scenario(), 60)
    model = window.documents_model
    rows = {r.title: r for r in model.rows()}
    assert rows["First Study"].status == "ready" and rows["First Study"].doc.pages >= 1
    assert rows["notes.pdf"].status == "failed" and rows["notes.pdf"].reason
    assert not panel.progress_box.isVisible() and "failed" in panel.summary.text()
    assert panel.last_run.text().startswith("Done: 2 added") and "1 failed" in panel.last_run.text()
    assert [e.kind for e in events][0] == "started" and events[-1].kind == "finished"
    assert any(e.kind == "file_progress" for e in events)
    assert not panel.empty.isVisible()

    # remove a document and the failure record
    row = next(i for i, r in enumerate(model.rows()) if r.title == "First Study")
    panel.table.selectRow(row)
    assert panel.remove_button.isEnabled()
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    run(qloop, until(lambda: model.rowCount() == 2 and not window.library.busy, 20, "the removal"))
    failed_row = next(i for i, r in enumerate(model.rows()) if r.status == "failed")
    panel.table.selectRow(failed_row)
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    run(qloop, until(lambda: model.rowCount() == 1 and not window.library.busy, 20, "the failure to go"))
    assert model.row(0).title == "Second Study"

    # re-index everything, add a file through the file dialog, and cancel an ingest
    qtbot.mouseClick(panel.reindex_button, Qt.MouseButton.LeftButton)
    run(qloop, until(lambda: not window.library.busy and window.library.last_result.updated == 1, 30, "the re-index"))
    monkeypatch.setattr("PySide6.QtWidgets.QFileDialog.getOpenFileNames", lambda *a, **k: ([str(first)], "PDF"))
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    run(qloop, until(lambda: model.rowCount() == 2 and not window.library.busy, 30, "the added file"))
    assert window.settings.value("paths/last_add") == str(docs)
    many = [small_pdf(docs / f"extra-{i}.pdf", f"Extra {i}") for i in range(4)]
    monkeypatch.setattr("PySide6.QtWidgets.QFileDialog.getExistingDirectory", lambda *a, **k: str(docs))
    window.act_add_folder.trigger()

    async def cancel():
        await until(lambda: window.library.busy, 5, "the ingest to start")
        qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
        await until(lambda: not window.library.busy, 30, "the cancel")

    run(qloop, cancel(), 60)
    assert window.library.last_result.cancelled or window.library.last_result.added <= len(many)
    assert panel.last_run.text().startswith(("Cancelled", "Done"))


def test_first_run_tries_the_sample_library_and_starts_a_trial(make_window, qloop, qtbot):
    window = make_window()
    court = window.courtroom

    async def scenario():
        await opened(window)
        assert court.welcome.isVisible()
        assert court.claim_text(), "a suggested claim is offered"
        assert court.claim.count() >= 3, "the sample claims are suggestions"
        qtbot.mouseClick(court.try_button, Qt.MouseButton.LeftButton)
        await until(lambda: window.library.busy, 5, "the samples to be added")
        await until(lambda: window.trial.state == "running", 60, "the trial to start by itself")
        assert not court.welcome.isVisible()
        await until(lambda: window.trial.state == "finished", 60, "the verdict")

    run(qloop, scenario(), 150)
    assert len(window.library.ready_documents()) == 6
    assert isinstance(window.transcript_model.items()[-1], VerdictItem)
    assert window.trial.spec.claim == court.claim_text()


def test_history_open_resume_export_and_delete(sample_window, qloop, qtbot):
    window = sample_window
    history = window.history_panel

    async def scenario():
        await opened(window)
        window.courtroom.set_claim("Having a main partner improves HIV outcomes.")
        window.courtroom.start()
        await until(lambda: window.trial.state == "finished", 60, "the verdict")
        await until(lambda: window.trials_model.rowCount() == 1 and window.trials_model.trial(0).status == "finished",
                    10, "the history")

    run(qloop, scenario(), 90)
    trial_id = window.trial.trial_id
    window.act_new.trigger()
    assert window.transcript_model.rowCount() == 0 and window.trial.trial_id is None
    window.act_history.trigger()
    assert window.left_tabs.currentWidget() is history
    history.table.selectRow(0)
    assert history.open_button.isEnabled() and not history.resume_button.isEnabled()
    qtbot.mouseClick(history.open_button, Qt.MouseButton.LeftButton)
    run(qloop, until(lambda: window.trial.trial_id == trial_id and window.transcript_model.rowCount() > 0, 10,
                     "the trial to open"))
    assert window.trial.state == "finished" and isinstance(window.transcript_model.items()[-1], VerdictItem)
    assert window.evidence_model.rowCount() > 0 and window.courtroom.claim_text().startswith("Having a main partner")
    qtbot.mouseClick(history.export_button, Qt.MouseButton.LeftButton)
    assert "export" in window.dialogs
    window.dialogs["export"].close_button.click()

    qtbot.mouseClick(history.delete_button, Qt.MouseButton.LeftButton)
    box = window.dialogs["confirm"]
    assert isinstance(box, QMessageBox)
    box.button(QMessageBox.StandardButton.No).click()
    assert window.trials_model.rowCount() == 1
    history.table.selectRow(0)
    qtbot.mouseClick(history.delete_button, Qt.MouseButton.LeftButton)
    window.dialogs["confirm"].button(QMessageBox.StandardButton.Yes).click()
    run(qloop, until(lambda: window.trials_model.rowCount() == 0, 10, "the deletion"))
    assert window.trial.trial_id is None and history.empty.isVisible()


def test_scope_dialog_limits_the_trial_to_chosen_documents(sample_window, qloop):
    window = sample_window
    run(qloop, opened(window))
    qtbot_dialog = window.choose_scope()
    vitamin = [d.id for d in window.library.ready_documents() if "Vitamin" in d.title]
    qtbot_dialog.set_checked(vitamin)
    qtbot_dialog.sections.setText("Results; Discussion")
    qtbot_dialog.accept()
    court = window.courtroom
    assert court.scope_documents == vitamin and court.scope_sections == ["Results", "Discussion"]
    assert court.scope_button.text().startswith("Scope: 2 documents")

    async def scenario():
        court.set_claim("Vitamin D deficiency is unrelated to birth weight.")
        court.start()
        await until(lambda: window.trial.spec is not None, 20, "the trial")

    run(qloop, scenario())
    assert sorted(window.trial.spec.documents) == sorted(vitamin)
    assert window.trial.spec.sections == ("Results", "Discussion")
    window.act_stop.trigger()
    run(qloop, until(lambda: not window.trial.running, 20, "the stop"))


def test_settings_dialog_lists_models_tests_and_applies(make_window, qloop, qtbot, tmp_path):
    from testkit.fake_ollama import MODEL, FakeOllama

    window = make_window()
    run(qloop, opened(window))
    dialog = window.open_settings()
    assert window.dialogs["settings"] is dialog
    judge = dialog.editors["judge"]
    assert judge.inherits() and not judge.provider.isEnabled()
    judge.inherit.setChecked(False)
    judge.provider.setCurrentIndex(judge.provider.findData("ollama"))
    assert judge.base_url.isEnabled() and not judge.api_key.isVisible()
    with FakeOllama("healthy") as server:
        judge.base_url.setText(server.url)
        dialog.role_tabs.setCurrentWidget(judge)
        qtbot.mouseClick(judge.list_button, Qt.MouseButton.LeftButton)
        run(qloop, until(lambda: judge.model.findText(MODEL) >= 0, 20, "the model list"))
        judge.model.setCurrentIndex(judge.model.findText(MODEL))
        judge.fields["num_ctx"].widget.setValue(8192)
        qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
        run(qloop, until(lambda: dialog.doctor_model.rowCount() > 0 and dialog.test_button.isEnabled(), 120,
                         "the doctor"), 130)
    judge_rows = [r for r in dialog.doctor_model._rows if r.role == "judge"]
    assert judge_rows and all(r.ok for r in judge_rows if r.kind == "check"), judge_rows
    assert "passed" in dialog.test_status.text() or "failed" in dialog.test_status.text()
    # the probes rate each role in the same table: the fake answers with schema-shaped filler, so the judge misses
    # them; the bundled model is rated without probes
    assert [r.check for r in judge_rows if r.kind == "probe"] == ["probe: JSON", "probe: citations",
                                                                   "probe: known answer"]
    assert dialog.doctor_model.ratings() == {"prosecution": "demo only", "defense": "demo only",
                                             "judge": "demo only"}
    assert "Rating for this job: prosecution demo only" in dialog.test_status.text()

    # an OpenAI-compatible role shows its API key field
    defense = dialog.editors["defense"]
    defense.inherit.setChecked(False)
    defense.provider.setCurrentIndex(defense.provider.findData("openai"))
    assert not defense.api_key.isHidden() and not defense.key_storage.isHidden()
    # where keys go on this machine: here there is no OS keyring, so the owner-only file, and the dialog says so
    run(qloop, until(lambda: "Keys are stored in" in defense.key_storage.text(), 20, "the key storage"))
    assert "secrets.json" in defense.key_storage.text() and "0600" in defense.key_storage.text()
    defense.inherit.setChecked(True)

    fields = {path: field.widget for path, field in dialog.fields.items()}
    fields["debate.min_rounds"].setValue(3)
    fields["debate.max_rounds"].setValue(2)
    # the config model's own check, in the dialog's words
    assert not dialog.apply() and "Minimum rounds (3) exceeds Round limit (2)" in dialog.error.text()
    fields["library.overlap_tokens"].setValue(100)
    fields["library.chunk_tokens"].setValue(100)
    fields["debate.max_rounds"].setValue(5)
    assert not dialog.apply() and "Overlap (100) must be smaller than Passage size (100)" in dialog.error.text()
    fields["library.overlap_tokens"].setValue(30)
    fields["retrieval.k"].setValue(5)
    fields["debate.passages_per_turn"].setValue(4)
    fields["library.chunk_tokens"].setValue(180)
    fields["library.ocr"].setCurrentIndex(fields["library.ocr"].findData("off"))  # OCR settings (docs/ocr.md)
    fields["library.ocr_dpi"].setValue(200)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    config = window.workspace.config
    assert config.debate.max_rounds == 5 and config.debate.min_rounds == 3 and config.retrieval.k == 5
    assert config.debate.passages_per_turn == 4
    assert config.library.ocr == "off" and config.library.ocr_dpi == 200
    assert config.models.judge.provider == "ollama" and config.models.judge.model == MODEL
    assert config.models.defense is None
    saved = (tmp_path / "config" / "config.toml").read_text(encoding="utf-8")
    assert "max_rounds = 5" in saved and 'model = "tiny:latest"' in saved
    assert window.workspace.workspace.library.settings.chunk_tokens == 180, "applied without a restart"
    assert "settings" not in window.dialogs

    # every tab and role shows its fields; restore defaults, then cancel: nothing changes
    dialog = window.open_settings()
    for tab in range(dialog.tabs.count()):
        dialog.tabs.setCurrentIndex(tab)
        page = dialog.tabs.currentWidget()
        assert page.isVisible()
        for role in range(dialog.role_tabs.count()) if page.isAncestorOf(dialog.role_tabs) else ():
            dialog.role_tabs.setCurrentIndex(role)
            assert all(field.widget.isVisible() for field in dialog.role_tabs.currentWidget().fields.values())
    assert all(dialog.tabs.indexOf(_tab_of(field.widget, dialog.tabs)) >= 0 for field in dialog.fields.values())
    assert dialog.fields["debate.max_rounds"].widget.value() == 5
    dialog.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).click()
    assert dialog.fields["debate.max_rounds"].widget.value() == 4 and dialog.editors["judge"].inherits()
    from courtroom_desktop.core.config import AppConfig

    defaults = AppConfig()
    shown = {path: field.value() for path, field in dialog.fields.items()}
    assert shown == {path: _setting(defaults, path) for path in dialog.fields}
    dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()
    assert window.workspace.config.debate.max_rounds == 5

    # restore defaults, then apply: every field the dialog shows is back to its default
    dialog = window.open_settings()
    dialog.buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).click()
    dialog.buttons.button(QDialogButtonBox.StandardButton.Apply).click()
    config = window.workspace.config
    assert {path: _setting(config, path) for path in dialog.fields} == shown
    assert config.models.judge is None and config.debate.max_rounds == 4
    dialog.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()


def _setting(config, path: str):
    section, name = path.split(".")
    return getattr(getattr(config, section), name)


def _tab_of(widget, tabs):
    while widget is not None and tabs.indexOf(widget) < 0:
        widget = widget.parentWidget()
    return widget


def test_settings_can_switch_the_data_folder(make_window, qloop, sample_library_template, tmp_path):
    window = make_window()
    run(qloop, opened(window))
    assert window.library.documents == []
    other = tmp_path / "other-data"
    import shutil

    shutil.copytree(sample_library_template, other)
    dialog = window.open_settings()
    dialog.data_dir.setText(str(other))
    # the embedding model of the copied library is the test's hashing one: open it the same way
    from courtroom_desktop.core.workspace import Workspace

    from .conftest import open_library

    original = Workspace.library

    def library(self):
        if self._library is None:
            self._library = open_library(self.data_dir, self.config.library)
        return self._library

    try:
        Workspace.library = property(library)
        dialog.apply()
        run(qloop, until(lambda: len(window.library.documents) == 6, 30, "the other library"))
    finally:
        Workspace.library = original
    assert window.workspace.data_dir == other and window.settings.value("paths/data_dir") == str(other)
    dialog.close()


def test_shortcuts_about_appearance_and_remembered_layout(make_window, qloop, qtbot, tmp_path, qapp):
    window = make_window()
    run(qloop, opened(window))
    dialog = window.show_shortcuts()
    names = {name for name, _ in dialog.rows}
    assert {"Start trial", "Stop trial", "Resume trial", "Export report", "Settings", "Add files"} <= names
    assert len({keys for _, keys in dialog.rows}) == len(dialog.rows), "no shortcut is bound twice"
    dialog.reject()
    about = window.show_about()
    assert "Courtroom Desktop" in about.text()
    about.button(QMessageBox.StandardButton.Ok).click()

    # appearance: dark (the notice bar, like the transcript's cards, takes the new colours), then the system's
    window.notice.show_error("Test", "a message")
    light_style = window.notice.styleSheet()
    window.findChild(type(window.act_start), "appearance_dark").trigger()
    assert qapp.palette().color(QPalette.ColorRole.Window).lightness() < 128
    assert window.settings.value("appearance") == "dark"
    run(qloop, until(lambda: window.notice.styleSheet() != light_style, 5, "the restyle"))
    window.findChild(type(window.act_start), "appearance_system").trigger()
    assert window.settings.value("appearance") == "system"

    # layout: the splitters come back as they were left
    window.courtroom.splitter.setSizes([300, 400])
    window.left_tabs.setCurrentIndex(1)
    before = window.courtroom.splitter.sizes()
    window.close()
    settings = QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat)
    again = make_window(settings=settings)
    after = again.courtroom.splitter.sizes()
    # the proportions come back (not the default 640 / 170); pixels follow the restored window's size
    assert abs(after[0] / after[1] - before[0] / before[1]) < 0.1, (before, after)
    assert again.left_tabs.currentIndex() == 1


def test_keyboard_shortcuts_drive_the_main_actions(make_window, sample_library_template, qloop, qtbot):
    window = make_window(template=sample_library_template, counsel_delay=0.05)
    run(qloop, opened(window))
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert window.courtroom.claim.lineEdit().hasFocus() or window.courtroom.claim.hasFocus()
    window.courtroom.set_claim("Medications to treat obesity do not have side effects.")
    qtbot.keyClick(window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    run(qloop, until(lambda: window.trial.state == "running", 10, "Ctrl+Return to start"))
    qtbot.keyClick(window, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)
    run(qloop, until(lambda: window.trial.state == "stopped", 20, "Ctrl+. to stop"))
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert window.left_tabs.currentIndex() == 1


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc for the process start time")
def test_window_appears_fast_without_heavy_imports(tmp_path):
    env = dict(os.environ, COURTROOM_UI_SMOKE="1", QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "xdg"), COURTROOM_CONFIG_DIR=str(tmp_path / "config"),
               COURTROOM_DATA_DIR=str(tmp_path / "data"))
    done = subprocess.run([sys.executable, "-m", "courtroom_desktop"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("{"))
    report = json.loads(line)
    assert report["heavy_modules"] == [], "the window must not wait for torch, lancedb or llama.cpp"
    assert report["shown_s"] < 10  # the 2 s target is measured by bench/ui.py on an idle machine
