"""A sentence the core writes for a person (an error, its fix, the doctor's detail, a document's skip reason), as a
code with parameters: the English template is the code, and what fills its ``{...}`` travels with it.

A :class:`Message` is a ``str`` (its English text), so that logs, exceptions and every caller that only needs English
use it as one; :func:`say` renders it in another language from that language's ``MESSAGES`` table (``zh.py``),
saying each parameter that is itself a message in the same language. Nothing is ever matched back from English.

    reason = Message("{path}: not valid TOML ({exc})", path, exc)
    str(reason)         -> "settings.toml: not valid TOML (line 3)"
    say("zh", reason)   -> "settings.toml：不是有效的 TOML（line 3）"

A template's slots are named as the code that fills them (``{path}``, ``{type(exc).__name__}``): a translation keeps
every slot and may move them. ``{{`` and ``}}`` are literal braces. The values are given in the order of the slots,
already formatted (``f"{score:.2f}"``) or as messages.

A message that must outlive the process (a skip reason in the library, a notice in a stored transcript) is kept with
:func:`dump` and read back with :func:`load`, so that it can be said in the language of whoever reads it later.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

#: A template's parts: ``{{`` and ``}}`` are literal braces, ``{...}`` a slot.
_PART = re.compile(r"\{\{|\}\}|\{[^{}]*\}")
_DUMPED = "\x1emessage:"  # marks a stored message (a record separator: no text a person writes starts with it)


def slots(template: str) -> tuple[str, ...]:
    """The slots of ``template`` in order, as written (``{path}``); a slot may come twice."""
    return tuple(m.group(0) for m in _PART.finditer(template) if m.group(0) not in ("{{", "}}"))


def fill(template: str, values: Mapping[str, str]) -> str:
    """``template`` with each slot replaced by its value (a slot without one is left as written)."""
    return _PART.sub(lambda m: {"{{": "{", "}}": "}"}.get(m.group(0)) or values.get(m.group(0), m.group(0)), template)


class Message(str):
    """The English text of ``template`` filled with ``values`` (one per distinct slot, in order of first use)."""

    key: str
    values: tuple[str, ...]

    def __new__(cls, template: str, *values: object) -> Message:
        names = tuple(dict.fromkeys(slots(template)))
        if len(names) != len(values):
            raise ValueError(f"the message {template!r} has {len(names)} slot(s) but was given {len(values)} value(s)")
        kept = tuple(v if isinstance(v, Message) else str(v) for v in values)
        self = super().__new__(cls, fill(template, dict(zip(names, kept, strict=True))))
        self.key = template
        self.values = kept
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:  # pickled and copied as its code
        return (self.key, *self.values)

    def map(self, change: Callable[[str], str]) -> Message:
        """The same message with ``change`` applied to every value that is plain text, in nested messages too (a
        key masked wherever it was quoted)."""
        return Message(self.key, *(v.map(change) if isinstance(v, Message) else change(v) for v in self.values))

    def render(self, translate: Callable[[str], str]) -> str:
        """The message with its template looked up by ``translate`` (a language's table) and every value that is a
        message rendered the same way."""
        names = tuple(dict.fromkeys(slots(self.key)))
        values = {name: v.render(translate) if isinstance(v, Message) else v
                  for name, v in zip(names, self.values, strict=True)}
        return fill(translate(self.key), values)


def joined(parts: Iterable[str], separator: str = "; ") -> str:
    """``parts`` in one line, each still said in its own language: a message whose template is made of the parts
    (no table translates it, so it renders as itself with every part said)."""
    parts = list(parts)
    if not any(isinstance(p, Message) for p in parts):
        return separator.join(parts)
    template = separator.replace("{", "{{").replace("}", "}}").join(f"{{{i}}}" for i in range(len(parts)))
    return Message(template, *parts)


def of_validation(error: Mapping[str, Any]) -> str:
    """One error of a pydantic ``ValidationError.errors()``: the core message a validator raised (a ``ValueError``
    made of a Message), else pydantic's own words without its "Value error, " decoration."""
    raised = (error.get("ctx") or {}).get("error")
    if isinstance(raised, Exception) and raised.args and isinstance(raised.args[0], Message):
        return raised.args[0]
    return str(error.get("msg", "")).removeprefix("Value error, ")


def say(lang: str, text: str) -> str:
    """``text`` in ``lang``: a :class:`Message` rendered from ``lang``'s table (English where the table has no
    translation); any other text as it is."""
    if not isinstance(text, Message) or lang == "en":
        return str(text)
    from courtroom_desktop.core.lexicon import messages

    table = messages(lang)
    return text.render(lambda key: table.get(key, key))


def _plain(message: Message) -> dict[str, Any]:
    return {"key": message.key, "values": [_plain(v) if isinstance(v, Message) else v for v in message.values]}


def _built(data: Mapping[str, Any]) -> Message:
    return Message(data["key"], *(_built(v) if isinstance(v, Mapping) else v for v in data["values"]))


def dump(text: str) -> str:
    """``text`` as it is stored: a message keeps its code and values; any other text stays as it is."""
    if not isinstance(text, Message):
        return str(text)
    return _DUMPED + json.dumps(_plain(text), ensure_ascii=False)


def load(stored: str) -> str:
    """What :func:`dump` stored: the message again, or the text as it was (a record written before messages were
    kept, or any plain text)."""
    if not stored.startswith(_DUMPED):
        return stored
    try:
        return _built(json.loads(stored[len(_DUMPED):]))
    except (ValueError, KeyError, TypeError):
        return stored[len(_DUMPED):]
