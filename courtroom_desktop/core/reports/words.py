"""Every fixed wording of the reports, per language, read from the core's one table per language (``core.lexicon``,
its ``report.`` keys) by the documents, the writers and the chart through ``say``, so that no format can drift from
another or from a language.

A report speaks the language of its claim (``courtroom_desktop.core.text.language_of``) where the lexicon has a
table for it; today English and Simplified Chinese: Japanese and Korean claims fall back to English wording until
someone who reads them writes and checks a table (the claim, passages and model text in those reports stay in their
own language, and the HTML still declares it). Model-written text and text stored in the record (ids, role names, labels in the JSON) are
never translated; the Chinese wording may show a Chinese name beside a stored value (``term``: 支持 (supported)). The
court's own reasons (why it stopped, switch and overrule reasons, flags, warnings) are stored as codes and worded per
language by ``core.reports.wording``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING

from courtroom_desktop.core import lexicon
from courtroom_desktop.core.text import language_of

if TYPE_CHECKING:
    from courtroom_desktop.core.reports.record import TrialRecord


WORDS: Mapping[str, Mapping[str, str]] = lexicon.Sections("report.")
"""The reports' wording per language (WORDS[lang][key]): the lexicon's report. keys."""


def terms(lang: str) -> Mapping[str, str]:
    """The names of values stored in the record (labels, tendencies, stances, statuses, roles) in ``lang``."""
    return lexicon.section(lang, "term.")


@lru_cache(maxsize=64)
def _language(claim: str) -> str:
    return language_of(claim)


def language(record: TrialRecord) -> str:
    """The claim's language: 'zh', 'ja', 'ko' or 'en' (what the HTML declares)."""
    return _language(record.spec.claim)


def wording(record: TrialRecord) -> str:
    """The language of the report's fixed wording: the claim's where there is a table for it, else English."""
    lang = language(record)
    return lang if lang in WORDS else "en"


def say(record: TrialRecord, key: str, **fields: object) -> str:
    """The fixed wording ``key`` in the report's language, its {fields} filled in (the values are not escaped here)."""
    return WORDS[wording(record)][key].format(**fields)


def term(record: TrialRecord, value: str, upper: bool = False) -> str:
    """A value stored in the record as the report shows it: as stored in English ('supported', or 'SUPPORTED' with
    ``upper``); in another language with its name there first: '支持 (supported)'."""
    value = str(value)
    shown = value.upper() if upper else value
    lang = wording(record)
    name = terms(lang).get(value) if lang != "en" else None
    return f"{name} ({shown})" if name and name != value else shown
