"""The core's words, one table per language: every fixed wording the reports (a trial's, a decision's memo, a draft
check's), the court's reasons and the court's decision sentences use, in ``en.py`` and ``zh.py`` (the same keys, by
section: ``report.``, ``memo.``, ``reason.``, ``decision.``, ``check.``, ``term.``, ``role.``). Qt-free: the window,
the command line and every report read the same tables (through ``core.reports.words``, ``core.reports.wording``,
``core.services.export``).

Adding a language: add its module here (a copy of ``en.py`` with every value translated; a key it lacks falls back
to English) and name it in ``_MODULES``; for the window's own strings, add its ``.ts`` file (docs/ui.md).
``register`` adds a table at run time (the tests' pseudo-language).

The core's messages (errors, their fixes, the doctor's details, skip reasons) are codes with parameters
(:class:`message.Message`, whose code is its English template); a language's module translates them in its
``MESSAGES`` table, and :func:`say` renders one in a language.

    word("zh", "report.summary")            -> "摘要"
    section("en", "check.")["title"]        -> "Check of a draft"
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from functools import lru_cache

from courtroom_desktop.core.lexicon.message import Message, joined, of_validation

__all__ = ["Message", "Sections", "has", "joined", "languages", "messages", "of_validation", "register", "say",
           "section", "table", "unregister", "word"]

_MODULES = {"en": "en", "zh": "zh"}  # language -> module of this package
_REGISTERED: dict[str, Mapping[str, str]] = {}
_REGISTERED_MESSAGES: dict[str, Mapping[str, str]] = {}


def languages() -> tuple[str, ...]:
    """The languages with a table, English first."""
    return tuple(dict.fromkeys([*_MODULES, *_REGISTERED]))


def has(lang: str) -> bool:
    return lang in _MODULES or lang in _REGISTERED


@lru_cache(maxsize=16)
def table(lang: str) -> Mapping[str, str]:
    """Every key in ``lang`` (English where its table lacks one; English for a language without a table)."""
    english: Mapping[str, str] = importlib.import_module(f"{__name__}.en").WORDS
    if lang in _REGISTERED:
        own = _REGISTERED[lang]
    elif lang in _MODULES and lang != "en":
        own = importlib.import_module(f"{__name__}.{_MODULES[lang]}").WORDS
    else:
        return english
    return {**english, **own}


@lru_cache(maxsize=64)
def section(lang: str, prefix: str) -> Mapping[str, str]:
    """The keys starting with ``prefix`` ('report.'), without it: {'summary': 'Summary', ...}."""
    return {key[len(prefix):]: value for key, value in table(lang).items() if key.startswith(prefix)}


class Sections(Mapping[str, Mapping[str, str]]):
    """One section per language, ``sections[lang][key]`` ('report.': ``sections["zh"]["summary"]``): a language
    without a table is not in it (KeyError), so that a caller can fall back to English."""

    def __init__(self, prefix: str):
        self.prefix = prefix

    def __getitem__(self, lang: str) -> Mapping[str, str]:
        if not has(lang):
            raise KeyError(lang)
        return section(lang, self.prefix)

    def __iter__(self) -> Iterator[str]:
        return iter(languages())

    def __len__(self) -> int:
        return len(languages())


@lru_cache(maxsize=16)
def messages(lang: str) -> Mapping[str, str]:
    """The core's messages translated into ``lang``, by their English template (empty for English, or a language
    that translates none)."""
    if lang in _REGISTERED_MESSAGES:
        return _REGISTERED_MESSAGES[lang]
    if lang in _MODULES and lang != "en":
        found: Mapping[str, str] = getattr(importlib.import_module(f"{__name__}.{_MODULES[lang]}"), "MESSAGES", {})
        return found
    return {}


def say(lang: str, text: str) -> str:
    """``text`` in ``lang``: a core message (:class:`message.Message`) rendered from the language's table, any other
    text as it is."""
    from courtroom_desktop.core.lexicon import message

    return message.say(lang, text)


def word(lang: str, key: str, **fields: object) -> str:
    """The wording ``key`` in ``lang``, its {fields} filled in."""
    text = table(lang)[key]
    return text.format(**fields) if fields else text


def register(lang: str, words: Mapping[str, str], said: Mapping[str, str] | None = None) -> None:
    """A table for ``lang`` added at run time (or replaced), with its messages (``said``); ``unregister`` takes it
    away."""
    _REGISTERED[lang] = dict(words)
    _REGISTERED_MESSAGES[lang] = dict(said or {})
    messages.cache_clear()
    table.cache_clear()
    section.cache_clear()


def unregister(lang: str) -> None:
    _REGISTERED.pop(lang, None)
    _REGISTERED_MESSAGES.pop(lang, None)
    messages.cache_clear()
    table.cache_clear()
    section.cache_clear()
