"""The core's words live in one table per language (core.lexicon): every language has English's keys and no field
English lacks, and a new language is one table. A pseudo-language proves it: registered as one table, it is what a trial's
report, a decision's memo, the court's reasons and a draft check's report speak, with no English fixed wording left
in their headings (the window's side: tests/ui/test_pseudo_language.py)."""

from __future__ import annotations

import re
import string

import pytest

from courtroom_desktop.core import lexicon
from courtroom_desktop.core.court.reasons import Code, Reason
from courtroom_desktop.core.lexicon import en
from courtroom_desktop.core.reports import words as report_words
from courtroom_desktop.core.reports.md_writer import to_markdown
from courtroom_desktop.core.reports.trial_document import trial_document
from courtroom_desktop.core.reports.wording import say_reason

FIELD = re.compile(r"\{[^{}]*\}")


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def pseudo(text: str) -> str:
    """English turned into the pseudo-language: every stretch between fields bracketed, the fields kept."""
    parts = FIELD.split(text)
    slots = FIELD.findall(text)
    out = "".join(f"\u27e6{p}\u27e7" if p.strip() else p for p in parts[:1])
    for slot, part in zip(slots, parts[1:], strict=True):
        out += slot + (f"\u27e6{part}\u27e7" if part.strip() else part)
    return out


@pytest.fixture
def xx():
    lexicon.register("xx", {key: pseudo(value) for key, value in en.WORDS.items()})
    yield "xx"
    lexicon.unregister("xx")


def test_every_language_has_the_english_keys_and_fields():
    for lang in lexicon.languages():
        table = lexicon.table(lang)
        assert set(table) == set(en.WORDS), lang
        for key, english in en.WORDS.items():
            assert fields(table[key]) <= fields(english), (lang, key)  # a field may go unused, never be new


def test_a_pseudo_language_is_one_table(xx, record, tmp_path, monkeypatch):
    assert xx in lexicon.languages() and lexicon.word(xx, "report.summary") == "\u27e6Summary\u27e7"
    monkeypatch.setattr(report_words, "language", lambda record: xx)  # the claim's language, as detected
    text = to_markdown(trial_document(record, "expert"))
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert headings and all("\u27e6" in line for line in headings), [h for h in headings if "\u27e6" not in h]
    assert "\u27e6Verdict: \u27e7" in text and "Verdict: SUPPORTED" not in text
    reason = Reason(code=Code.stop_round_limit.value, params={"rounds": 3})
    assert say_reason(reason, xx) == pseudo(en.WORDS["reason.stop_round_limit"]).format(rounds=3)


def test_a_draft_checks_report_speaks_the_pseudo_language(xx, tmp_path):
    from courtroom_desktop.core.check.export import export_check

    from ..check.test_export import make_record

    record = make_record(tmp_path)
    record = record.model_copy(update={"spec": record.spec.model_copy(update={"language": xx})})
    export_check(record, ["md"], tmp_path / "out")
    text = (tmp_path / "out" / "check.md").read_text(encoding="utf-8")
    assert text.startswith("# \u27e6Check of a draft\u27e7: ")
    assert "\u27e6Claims and verdicts\u27e7" in text and "\u27e6not signed off\u27e7" in text
    assert "| not signed off |" not in text and "**Draft:**" not in text
