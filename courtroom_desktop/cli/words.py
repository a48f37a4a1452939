"""The command line's language: ``--language``, else ``COURTROOM_LANGUAGE``, else the system's locale (``LC_ALL``,
``LC_MESSAGES``, ``LANG``), where the lexicon has a table for it; English otherwise. The core's messages (errors,
their fixes, the doctor's details, skip reasons), the court's reasons and the command line's own labels ("error:",
"fix:") are said in it, from the same tables as the window and the reports (core.lexicon). Help texts and table
headings stay English.

    courtroom --language zh ingest broken.pdf   ->  错误：broken.pdf：……
"""

from __future__ import annotations

import os

from courtroom_desktop.core.services.export import lexicon

_language: str | None = None


def choose(code: str | None = None) -> str:
    """Set the language from ``code`` or the environment (see the module's docstring); return it."""
    global _language
    wanted = code or os.environ.get("COURTROOM_LANGUAGE") or next(
        (os.environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if os.environ.get(name)), "en")
    primary = wanted.split(".")[0].split("_")[0].split("-")[0].lower()
    _language = primary if primary and lexicon.has(primary) else "en"
    return _language


def language() -> str:
    return _language if _language is not None else choose()


def say(text: str) -> str:
    """A message the core wrote, in the command line's language (any other text as it is)."""
    return lexicon.say(language(), text) if text else text


def word(key: str, **fields: object) -> str:
    """The command line's own wording ``cli.<key>`` in its language."""
    return lexicon.word(language(), f"cli.{key}", **fields)


def label(key: str) -> str:
    """``word(key)`` followed by the language's colon ('error: ', '错误：')."""
    return word(key) + lexicon.word(language(), "report.colon")
