"""The core's messages for a person (errors, their fixes, the doctor's details, skip reasons) are codes with
parameters (core/lexicon/message.py): said in the reader's language from the lexicon's table, stored with their code,
never matched back from English."""

from __future__ import annotations

import pickle
import re

import pymupdf
import pytest

from courtroom_desktop.core import lexicon
from courtroom_desktop.core.errors import IngestError, ModelUnavailable
from courtroom_desktop.core.lexicon.message import Message, dump, load, slots
from courtroom_desktop.core.text import has_cjk
from testkit.core_messages import message_calls, plain_messages
from testkit.untranslated import english_words

SLOT = re.compile(r"\{\{|\}\}|\{[^{}]*\}")


def test_the_core_writes_every_message_for_a_person_as_a_message():
    """No error, fix, doctor detail or skip reason is a plain string or f-string, which no reader could say in
    another language (break: write an error as f"{path}: gone", and it is named here)."""
    assert [str(found) for found in plain_messages()] == []


def test_every_message_is_given_one_value_per_slot():
    problems = [(str(found), given) for found, given in message_calls()
                if found.text == "?" or len(dict.fromkeys(slots(found.text))) != given]
    assert problems == []
    assert len(message_calls()) > 300


def test_every_message_has_chinese_that_keeps_its_slots():
    """Each template the core writes has a translation in zh.py's MESSAGES holding exactly its {...} (break: a
    slot renamed in a translation, or a new message without one, and it fails)."""
    table = lexicon.messages("zh")
    problems = []
    for found, _ in message_calls():
        translation = table.get(found.text)
        if not translation:
            problems.append(("untranslated", str(found)))
        elif sorted(SLOT.findall(found.text)) != sorted(SLOT.findall(translation)):
            problems.append(("slots differ", str(found), translation))
    assert problems == []


def _encrypted_pdf(path):
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), "A secret report.")
    document.save(str(path), encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="pw")
    document.close()
    return path


def test_a_core_error_is_said_in_chinese_with_its_file_kept(tmp_path):
    """Real errors from the core's PDF checks: the message, its nested reason and the fix in Chinese, the file's
    name as it is; in English the same text as ever."""
    from courtroom_desktop.core.library.read.extract import check_file, open_pdf

    empty = tmp_path / "empty report.pdf"
    empty.write_bytes(b"")
    encrypted = _encrypted_pdf(tmp_path / "secret.pdf")
    for path, step in ((empty, check_file), (encrypted, open_pdf)):
        with pytest.raises(IngestError) as caught:
            step(path)
        exc = caught.value
        said = lexicon.say("zh", str(exc))
        assert has_cjk(said) and english_words(said, {"empty", "report", "secret"}) == [], said
        assert exc.path in said
        assert not exc.fix or has_cjk(lexicon.say("zh", exc.fix)), exc.fix
        assert lexicon.say("en", str(exc)) == str(exc) and not has_cjk(str(exc))


def test_a_message_inside_a_message_is_said_too():
    down = ModelUnavailable(Message("cannot reach Ollama at {url}", "http://127.0.0.1:9"), role="judge",
                            provider="ollama", model="llama3.2:3b",
                            fix=Message("start Ollama (`ollama serve`), or correct base_url"))
    said, fix = lexicon.say("zh", str(down)), lexicon.say("zh", down.fix)
    assert "[judge/ollama/llama3.2:3b]" in said and "http://127.0.0.1:9" in said and has_cjk(said), said
    assert has_cjk(fix) and "`ollama serve`" in fix and "base_url" in fix, fix


def test_text_the_core_did_not_write_stays_as_it_came():
    assert lexicon.say("zh", "the PDF has no pages") == "the PDF has no pages"  # plain text: never matched back
    assert lexicon.say("zh", "") == ""
    assert has_cjk(lexicon.say("zh", Message("the PDF has no pages")))


def test_a_message_with_literal_braces_is_said_with_single_braces():
    text = Message("messages must be a non-empty list of {{'role', 'content'}} dicts")
    assert str(text) == "messages must be a non-empty list of {'role', 'content'} dicts"
    said = lexicon.say("zh", text)
    assert has_cjk(said) and "{'role', 'content'}" in said and "{{" not in said, said


def test_a_message_needs_one_value_per_slot():
    with pytest.raises(ValueError, match="2 slot"):
        Message("{path}: {reason}", "a.pdf")
    assert Message("{n} of {n} done", 3) == "3 of 3 done"


def test_a_message_keeps_its_code_through_pickling_and_storage():
    """Across a process (pickle) and into a stored record (dump/load), a message is still a message, its nested
    messages too; plain text and text stored before messages were kept read back as they were."""
    inner = Message("no answer within {budget}s", "5")
    outer = Message("[{where}] {message}", "judge", inner)
    for copy in (pickle.loads(pickle.dumps(outer)), load(dump(outer))):
        assert isinstance(copy, Message) and copy == outer and copy.key == outer.key
        assert isinstance(copy.values[1], Message) and copy.values[1].key == inner.key
        assert lexicon.say("zh", copy) == lexicon.say("zh", outer) != str(outer)
    assert load(dump("plain words")) == "plain words" and not isinstance(load("plain words"), Message)


def test_a_settings_error_is_said_in_chinese(tmp_path):
    """A validator's message survives pydantic (of_validation), so a bad setting is said in Chinese."""
    from courtroom_desktop.core.config import load_config
    from courtroom_desktop.core.errors import ConfigError

    (tmp_path / "config.toml").write_text("[debate]\nmin_rounds = 5\nmax_rounds = 2\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path)
    said = lexicon.say("zh", str(caught.value))
    assert "debate.min_rounds" in said and has_cjk(said), said
    assert "exceeds" in str(caught.value)


def test_a_pseudo_language_renders_messages_from_its_own_table():
    """A third language is one table: its MESSAGES render the core's messages, nested ones included; a message it
    lacks reads in English."""
    lexicon.register("xx", {}, {"[{where}] {message}": "<<{where}>> {message}",
                                "no answer within {budget}s": "nix in {budget}s"})
    try:
        text = Message("[{where}] {message}", "judge", Message("no answer within {budget}s", "5"))
        assert lexicon.say("xx", text) == "<<judge>> nix in 5s"
        assert lexicon.say("xx", Message("file not found")) == "file not found"
    finally:
        lexicon.unregister("xx")


def test_a_reason_keeps_its_numbers_and_its_messages_through_storage():
    """A court's reason stored as JSON reads back with its numbers as numbers and a core message in it still a
    message (break: the message field's serializer applied to numbers too, and they come back as text)."""
    from courtroom_desktop.core.court.reasons import Code, Reason

    reason = Reason.of(Code.warning_assess_failed, problem=Message("no answer within {budget}s", "5"))
    numbers = Reason.of(Code.stop_confidence, confidence=0.91, threshold=0.9)
    again = Reason.model_validate_json(reason.model_dump_json())
    assert isinstance(again.params["problem"], Message) and again == reason
    assert Reason.model_validate_json(numbers.model_dump_json()).params == {"confidence": 0.91, "threshold": 0.9}
