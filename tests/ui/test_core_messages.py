"""The core's messages (errors, their fixes, the doctor's checks, skip reasons) in the window's language: the core
writes them as codes with parameters (core/lexicon/message.py), and ui.i18n.say renders them from the lexicon's
table; the window never matches English back (tests/test_messages.py covers the messages themselves)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pymupdf
import pytest

from courtroom_desktop.core.errors import IngestError
from courtroom_desktop.core.text import has_cjk
from testkit.untranslated import english_words


@pytest.fixture
def chinese(qapp, monkeypatch):
    """The window's language set to Chinese the way the app sets it (i18n.install), English again after."""
    from courtroom_desktop.ui import i18n

    monkeypatch.setenv("COURTROOM_LANGUAGE", "zh_CN")
    i18n.install(qapp)
    yield
    monkeypatch.setenv("COURTROOM_LANGUAGE", "en")
    i18n.install(qapp)


def _encrypted_pdf(path: Path) -> Path:
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), "A secret report.")
    document.save(str(path), encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="pw")
    document.close()
    return path


def test_the_window_says_a_core_error_in_its_language(chinese, tmp_path):
    from courtroom_desktop.core.library.read.extract import open_pdf
    from courtroom_desktop.ui.i18n import say

    with pytest.raises(IngestError) as caught:
        open_pdf(_encrypted_pdf(tmp_path / "secret.pdf"))
    said = say(str(caught.value))
    assert has_cjk(said) and english_words(said, {"secret"}) == [] and "secret.pdf" in said, said


def test_the_english_window_shows_core_messages_as_they_came(qapp, tmp_path):
    from courtroom_desktop.core.library.read.extract import open_pdf
    from courtroom_desktop.ui.i18n import say

    with pytest.raises(IngestError) as caught:
        open_pdf(_encrypted_pdf(tmp_path / "secret.pdf"))
    assert say(str(caught.value)) == str(caught.value)


def test_a_failed_file_is_said_in_chinese_after_the_library_is_opened_again(chinese, tmp_path):
    """A file that could not be ingested keeps its reason's code in the library's catalog: opened again later, in a
    Chinese window, the documents table says why in Chinese (break: the catalog storing the reason as plain text,
    and it fails)."""
    from courtroom_desktop.core.library.store.catalog import Catalog
    from courtroom_desktop.core.records import DocStatus, Document
    from courtroom_desktop.ui.i18n import say

    pdf = _encrypted_pdf(tmp_path / "secret.pdf")
    from courtroom_desktop.core.library.read.extract import open_pdf

    with pytest.raises(IngestError) as caught:
        open_pdf(pdf)
    catalog = Catalog(tmp_path / "catalog.sqlite")
    catalog.put(Document(id="d1", path=str(pdf), sha256="0" * 64, status=DocStatus.failed, error=caught.value.reason))
    catalog.record_failure(str(pdf), "0" * 64, str(caught.value))
    catalog.close()
    again = Catalog(tmp_path / "catalog.sqlite")
    try:
        stored = again.get("d1")
        assert stored is not None and stored.error == caught.value.reason
        for text in (stored.error, dict(again.failures())[str(pdf)]):
            said = say(text)
            assert has_cjk(said) and english_words(said, {"secret"}) == [], said
    finally:
        again.close()


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_doctor_table_speaks_chinese_for_a_server_that_is_down(chinese, qapp):
    """The settings dialog's Test table (check names, results, details, fixes) over the real doctor's rows for an
    Ollama that is not running: no English left but the model's name and the address (break: the table showing
    row.detail as it came, and it fails)."""
    from PySide6.QtCore import Qt

    from courtroom_desktop.core.config import ModelSettings, ModelSpec
    from courtroom_desktop.core.llm.doctor import run_doctor
    from courtroom_desktop.ui.qt_models.doctor import DoctorModel

    spec = ModelSpec(provider="ollama", model="qwen2.5:7b", base_url=f"http://127.0.0.1:{_closed_port()}",
                     connect_timeout_s=2.0, read_timeout_s=2.0)
    rows = asyncio.run(run_doctor(ModelSettings(default=spec), roles=["judge"], calls=False))
    assert any(r.ok is False for r in rows)
    model = DoctorModel()
    model.set_rows(rows)
    left = []
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            text = str(model.data(model.index(row, column), Qt.ItemDataRole.DisplayRole) or "")
            words = english_words(text, {"qwen2.5:7b", "7b", "ollama", "serve"})
            if words:
                left.append((text, words))
    assert left == [], '\n'.join(map(str, left))


def test_the_error_notice_shows_a_core_error_in_chinese(chinese, tmp_path):
    """The window's error notice (every task's failure lands there) says the core's message and fix in Chinese
    (break: the notice showing the message as it came, and it fails)."""
    from courtroom_desktop.core.library.read.extract import open_pdf
    from courtroom_desktop.ui.i18n import tr
    from courtroom_desktop.ui.widgets.notice_bar import NoticeBar
    from testkit.untranslated import english

    with pytest.raises(IngestError) as caught:
        open_pdf(_encrypted_pdf(tmp_path / "secret.pdf"))
    notice = NoticeBar()
    notice.show_error(tr("Adding documents"), str(caught.value), caught.value.fix)
    assert english(notice, {"secret"}) == []
    assert "secret.pdf" in notice.text.text()


def test_a_decision_the_court_cannot_weigh_is_explained_in_chinese(chinese, qtbot):
    """The decision dialog's problem line: the records' own validation messages, in Chinese (break: the dialog
    showing problem_of(exc) as it came, and it fails)."""
    from courtroom_desktop.ui.dialogs.decision import DecisionDialog

    dialog = DecisionDialog()
    qtbot.addWidget(dialog)
    dialog.option_edits[0].setText("Move to Lisbon")
    problem = dialog.problem.text()
    assert not dialog.ok_button.isEnabled() and has_cjk(problem) and english_words(problem) == [], problem


def test_a_core_error_reaches_the_notice_bar_through_the_controllers_signal_still_a_message(chinese, tmp_path):
    """Every task's failure travels on a controller's ``sig_error`` to the notice bar: the message and its fix must
    arrive as messages to be said in Chinese (break: ``sig_error = Signal(str, str, str)``, which hands over the
    English text only, and it fails)."""
    from courtroom_desktop.core.library.read.extract import open_pdf
    from courtroom_desktop.ui.controllers import Controller
    from courtroom_desktop.ui.widgets.notice_bar import NoticeBar
    from testkit.untranslated import english

    with pytest.raises(IngestError) as caught:
        open_pdf(_encrypted_pdf(tmp_path / "secret.pdf"))
    controller, notice = Controller(), NoticeBar()
    controller.sig_error.connect(notice.show_error)
    controller.sig_error.emit("Adding documents", str(caught.value), caught.value.fix)
    assert notice.messages and english(notice, {"secret", "Adding", "documents"}) == []


def test_where_text_goes_is_said_in_chinese(chinese, qapp):
    """Where each role's text goes (core.privacy's servers, as the courtroom panel shows them) and where the library
    lives: Chinese but for the addresses; the window no longer swaps known English phrases inside them."""
    from courtroom_desktop.core.config import LibrarySettings, ModelSettings, ModelSpec
    from courtroom_desktop.core.services.models import where_text_goes
    from courtroom_desktop.ui.i18n import say

    models = ModelSettings(default=ModelSpec(), judge=ModelSpec(provider="openai", model="gpt",
                                                               base_url="https://api.example.com/v1"))
    labels = [say(server.label) for server in where_text_goes(models, LibrarySettings()).values()]
    for label in labels:
        assert has_cjk(label), label
        assert english_words(label, {"api.example.com", "llama.cpp", "MiniLM", "all-MiniLM-L6-v2", "OpenAI",
                                     "GGUF"}) == [], label
    assert any("api.example.com" in label for label in labels)
