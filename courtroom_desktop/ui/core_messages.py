"""The core's messages in the window's language. The core writes its errors, their fixes, the doctor's details and a
document's skip reason in English, with the file, model or number they are about formatted in
(``f"{path}: not valid TOML ({exc})"``); it knows nothing of the window's language.

``scripts/core_words.py`` reads those messages from the core's source into ``ui/core_words.py`` as templates
(``{path}: not valid TOML ({exc})``), lupdate gathers them with the window's own strings, and their translations keep
each ``{...}``. :func:`say` finds the template a message was made from (its fixed words in order, each ``{...}`` any
text between them), puts what filled each ``{...}`` into the translation, and says that text the same way in turn,
since it is often a message of its own (a reason inside "{path}: {reason}"). A message no template makes, or one
whose template has no translation, is shown as it came.

    say("report.pdf: encrypted: the PDF needs a password; save an unprotected copy and ingest that")
    -> "report.pdf：已加密：该 PDF 需要密码；请保存一份未加密的副本再导入"   (in the Chinese window)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from courtroom_desktop.ui import i18n

#: A template's parts: ``{{`` and ``}}`` are literal braces, ``{...}`` a slot filled by the core.
_PART = re.compile(r"\{\{|\}\}|\{[^{}]*\}")
#: How deep a filled-in value is said in turn (a reason inside a message inside a message).
DEPTH = 3


@dataclass(frozen=True)
class Template:
    words: tuple[str, ...]      # the fixed words: one more than there are slots (the first and last may be "")
    slots: tuple[str, ...]      # each ``{...}`` as written in the source, in order
    translation: str            # the translated template, with the same slots

    @property
    def fixed(self) -> int:
        return sum(len(w) for w in self.words)

    def match(self, text: str) -> list[str] | None:
        """What filled each slot, when ``text`` was made from this template; None otherwise. The first fitting
        split wins: each slot takes the shortest text after which the rest still fits."""
        if not text.startswith(self.words[0]) or not text.endswith(self.words[-1]):
            return None
        return _fill(text, len(self.words[0]), len(text) - len(self.words[-1]), self.words[1:-1], [])

    def filled(self, values: list[str]) -> str:
        """The translation with each slot's value in place."""
        by_slot = dict(zip(self.slots, values, strict=True))
        return _PART.sub(lambda m: {"{{": "{", "}}": "}"}.get(m.group(0)) or by_slot.get(m.group(0), m.group(0)),
                         self.translation)


def _fill(text: str, start: int, end: int, middles: tuple[str, ...], values: list[str]) -> list[str] | None:
    if not middles:
        return [*values, text[start:end]] if start <= end else None
    word, rest = middles[0], middles[1:]
    at = text.find(word, start, end)
    while at != -1:
        found = _fill(text, at + len(word), end, rest, [*values, text[start:at]])
        if found is not None:
            return found
        at = text.find(word, at + 1, end)
    return None


def parse(source: str, translation: str) -> Template | None:
    """The template of ``source`` (a message with no slot is a template of one fixed word); None when its slots
    cannot be matched apart (two slots with nothing between, or nothing but a slot)."""
    words: list[str] = []
    slots: list[str] = []
    current: list[str] = []
    position = 0
    for match in _PART.finditer(source):
        current.append(source[position:match.start()])
        token = match.group(0)
        if token in ("{{", "}}"):
            current.append(token[0])
        else:
            words.append("".join(current))
            current = []
            slots.append(token)
        position = match.end()
    current.append(source[position:])
    words.append("".join(current))
    if any(not w for w in words[1:-1]) or (slots and not any(words)):
        return None
    return Template(tuple(words), tuple(slots), translation)


@lru_cache(maxsize=4)
def _catalog(language: str) -> tuple[dict[str, str], tuple[Template, ...]]:
    """The messages of ``language``: whole messages (no slot) with a translation, by their text, and the templates,
    the most fixed words first (the most particular template wins)."""
    from courtroom_desktop.ui.core_words import TEMPLATES

    whole: dict[str, str] = {}
    templates: list[Template] = []
    for source in TEMPLATES:
        translation = i18n.tr(source)
        template = parse(source, translation)
        if template is None:
            continue
        if template.slots:
            templates.append(template)  # kept untranslated too: what fills it may be said
        elif translation != source:
            whole[template.words[0]] = template.filled([])
    templates.sort(key=lambda t: (-t.fixed, -len(t.slots)))
    return whole, tuple(templates)


def say(text: str, depth: int = DEPTH) -> str:
    """``text`` (a message the core wrote) in the window's language; itself in English, or when no template with a
    translation makes it."""
    language = i18n.wording_language()
    if not text or language == "en":
        return text
    return _say(text, language, depth)


@lru_cache(maxsize=512)
def _say(text: str, language: str, depth: int) -> str:
    whole, templates = _catalog(language)
    if text in whole:
        return whole[text]
    for template in templates:
        values = template.match(text)
        if values is not None:
            return template.filled([_say(v, language, depth - 1) if depth > 1 else v for v in values])
    return text
