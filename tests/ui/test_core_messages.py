"""The core's messages (errors, their fixes, the doctor's checks, skip reasons) in the window's language: lupdate sees
them through the generated ui/core_words.py, and ui/core_messages.say shows a message by the template it was made
from, the values the core formatted into it kept (and said in turn)."""

from __future__ import annotations

import asyncio
import re
import socket
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pymupdf
import pytest

from courtroom_desktop.core.errors import IngestError, ModelUnavailable
from courtroom_desktop.core.text import has_cjk
from testkit.scripts import load_script
from testkit.untranslated import english_words

ROOT = Path(__file__).resolve().parents[2]
TS = ROOT / "courtroom_desktop" / "ui" / "translations" / "courtroom_zh_CN.ts"
SLOT = re.compile(r"\{\{|\}\}|\{[^{}]*\}")


def _generator():
    return load_script("core_words")


@pytest.fixture
def chinese(qapp, monkeypatch):
    """The window's language set to Chinese the way the app sets it (i18n.install), English again after."""
    from courtroom_desktop.ui import i18n

    monkeypatch.setenv("COURTROOM_LANGUAGE", "zh_CN")
    i18n.install(qapp)
    yield
    monkeypatch.setenv("COURTROOM_LANGUAGE", "en")
    i18n.install(qapp)


def test_the_message_table_follows_the_core():
    generator = _generator()
    assert generator.TARGET.read_text(encoding="utf-8") == generator.render(), \
        "the core changed a message: run scripts/translations.sh"
    messages = generator.messages()
    assert len(messages) > 250
    # the kinds the rules promise: an error's argument, a fix= keyword, a doctor row, a probe's (ok, text)
    for expected in ("encrypted: the PDF needs a password; save an unprotected copy and ingest that",
                     "start Ollama (`ollama serve`) and check base_url and the network",
                     "skipped: an earlier check failed", "cited only given passages: {', '.join(sorted(set(cited)))}"):
        assert expected in messages


def test_every_core_message_has_chinese_that_keeps_its_slots():
    """Each message in courtroom_zh_CN.ts is translated (not 'unfinished'), and the translation holds exactly the
    source's {...} (break: a slot renamed in a translation, and it fails)."""
    translations = {m.findtext("source"): m.find("translation") for m in ElementTree.parse(TS).iter("message")}
    problems = []
    for source in _generator().messages():
        element = translations.get(source)
        if element is None or element.get("type") in ("unfinished", "vanished", "obsolete") or not element.text:
            problems.append(("untranslated", source))
        elif sorted(SLOT.findall(source)) != sorted(SLOT.findall(element.text)):
            problems.append(("slots differ", source, element.text))
    assert problems == []


def _encrypted_pdf(path: Path) -> Path:
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), "A secret report.")
    document.save(str(path), encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="pw")
    document.close()
    return path


def test_a_core_error_is_said_in_chinese_with_its_file_kept(chinese, tmp_path):
    """Real errors from the core's PDF checks: the message, its nested reason and the fix come out in Chinese, and
    the file's name stays as it is."""
    from courtroom_desktop.core.library.read.extract import check_file, open_pdf
    from courtroom_desktop.ui.core_messages import say

    empty = tmp_path / "empty report.pdf"
    empty.write_bytes(b"")
    encrypted = _encrypted_pdf(tmp_path / "secret.pdf")
    errors = []
    for path, step in ((empty, check_file), (encrypted, open_pdf)):
        with pytest.raises(IngestError) as caught:
            step(path)
        errors.append(caught.value)
    for exc in errors:
        said = say(str(exc))
        assert has_cjk(said) and english_words(said, {"empty", "report", "secret"}) == [], said
        assert exc.path in said
    timeout = ModelUnavailable("cannot reach Ollama at http://127.0.0.1:9", role="judge", provider="ollama",
                               model="llama3.2:3b", fix="start Ollama (`ollama serve`), or correct base_url")
    said, fix = say(str(timeout)), say(timeout.fix)
    assert "[judge/ollama/llama3.2:3b]" in said and "http://127.0.0.1:9" in said and has_cjk(said), said
    assert has_cjk(fix) and "`ollama serve`" in fix and "base_url" in fix, fix


def test_what_no_template_makes_stays_as_it_came(chinese):
    from courtroom_desktop.ui.core_messages import say

    assert say("a message no template makes") == "a message no template makes"
    assert say("") == ""
    # a message is said only whole: the words of one with more after them stay English
    assert say("the PDF has no pages at all") == "the PDF has no pages at all"
    assert has_cjk(say("the PDF has no pages"))


def test_a_message_with_literal_braces_is_said_with_single_braces(chinese):
    from courtroom_desktop.ui.core_messages import say

    said = say("messages must be a non-empty list of {'role', 'content'} dicts")
    assert has_cjk(said) and "{'role', 'content'}" in said and "{{" not in said, said


def test_the_english_window_shows_core_messages_as_they_came(qapp):
    from courtroom_desktop.ui.core_messages import say

    english = "encrypted: the PDF needs a password; save an unprotected copy and ingest that"
    assert say(english) == english


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
