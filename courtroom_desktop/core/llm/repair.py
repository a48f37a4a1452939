"""Turn a model's answer into a validated pydantic object, repairing what small models get wrong.

Pure functions, no model and no I/O. The steps, in order:

1. drop reasoning: ``<think>...</think>`` blocks (and an unclosed ``<think>`` to the end, or everything before a
   stray ``</think>``);
2. look inside code fences (```json ... ```) first, then at the whole text;
3. take the first balanced JSON object (strings and escapes respected), skipping prose before and after it;
   an object cut off by the token limit is closed after its last complete member (``close_truncated``);
   a candidate that does not parse is retried with trailing commas removed; raw control characters inside
   strings are accepted;
4. validate with pydantic; if that fails and the object merely wraps the answer (``{"Ruling": {...}}`` or a
   schema echo with the values under ``"properties"``), validate the wrapped object instead.

``parse_structured`` raises :class:`RepairError` whose ``reason`` is short enough to name in a retry prompt.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from courtroom_desktop.core.lexicon.message import Message

T = TypeVar("T", bound=BaseModel)

_THINK_BLOCK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.IGNORECASE | re.DOTALL)
_THINK_OPEN = re.compile(r"<(think|thinking|reasoning)>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</(think|thinking|reasoning)>", re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n?(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


class RepairError(ValueError):
    """The text holds no object that validates against the schema. ``reason`` says why, briefly."""

    def __init__(self, reason: str, *, text: str = ""):
        super().__init__(reason)
        self.reason = reason
        self.text = text


def strip_think(text: str) -> str:
    """Remove reasoning blocks. An unclosed opening tag hides the rest; a lone closing tag hides what precedes it."""
    text = _THINK_BLOCK.sub("", text)
    closes = list(_THINK_CLOSE.finditer(text))
    if closes:
        text = text[closes[-1].end():]
    opening = _THINK_OPEN.search(text)
    if opening is not None:
        text = text[: opening.start()]
    return text.strip()


def fenced_blocks(text: str) -> list[str]:
    """Contents of the code fences in ``text``, in order (an unterminated last fence counts to the end)."""
    blocks = [m.group(2) for m in _FENCE.finditer(text)]
    tail = text[_last_fence_end(text):]
    start = tail.find("```")
    if start != -1:
        rest = tail[start + 3:]
        rest = re.sub(r"^[ \t]*[A-Za-z0-9_+-]*[ \t]*\r?\n", "", rest, count=1)
        blocks.append(rest)
    return blocks


def _last_fence_end(text: str) -> int:
    end = 0
    for m in _FENCE.finditer(text):
        end = m.end()
    return end


def balanced_objects(text: str) -> list[str]:
    """Every top-level balanced ``{...}`` span in ``text``, left to right. Braces inside strings do not count."""
    spans: list[str] = []
    i, n = 0, len(text)
    while i < n:
        start = text.find("{", i)
        if start == -1:
            break
        end = _match_brace(text, start)
        if end == -1:
            # Unbalanced from here: try the next opening brace (the first may be prose like "{note").
            i = start + 1
            continue
        spans.append(text[start: end + 1])
        i = end + 1
    return spans


class _Strings:
    """Walks JSON text a character at a time and tells the structure (braces, commas, ...) from what is inside a
    string, the quotes and backslash escapes included."""

    def __init__(self) -> None:
        self.inside = False
        self._escaped = False

    def structural(self, ch: str) -> bool:
        if self.inside:
            if self._escaped:
                self._escaped = False
            elif ch == "\\":
                self._escaped = True
            elif ch == '"':
                self.inside = False
            return False
        if ch == '"':
            self.inside = True
            return False
        return True


def _match_brace(text: str, start: int) -> int:
    depth = 0
    strings = _Strings()
    for j in range(start, len(text)):
        ch = text[j]
        if not strings.structural(ch):
            continue
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return j if ch == "}" else -1
            if depth < 0:
                return -1
    return -1


def _remove_trailing_commas(candidate: str) -> str:
    out: list[str] = []
    strings = _Strings()
    for j, ch in enumerate(candidate):
        if strings.structural(ch) and ch == ",":
            k = j + 1
            while k < len(candidate) and candidate[k] in " \t\r\n":
                k += 1
            if k < len(candidate) and candidate[k] in "}]":
                continue
        out.append(ch)
    return "".join(out)


def _loads(candidate: str) -> dict[str, Any] | None:
    for attempt in (candidate, _remove_trailing_commas(candidate)):
        try:
            # strict=False: raw newlines and tabs inside strings (grammar-constrained models emit them) are accepted
            value = json.loads(attempt, strict=False)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def extract_json_object(text: str) -> dict[str, Any]:
    """The first JSON object found in a model's answer, after removing reasoning and fences.

    Raises :class:`RepairError` when there is none.
    """
    cleaned = strip_think(text)
    if not cleaned:
        raise RepairError(Message("the answer was empty (nothing outside reasoning tags)"), text=text)
    sources = [*fenced_blocks(cleaned), cleaned]
    for source in sources:
        objects = balanced_objects(source)
        if not objects or not source[source.find("{"):].startswith(objects[0]):
            # the outermost object never closes (cut off): complete it rather than take an inner object
            closed = close_truncated(source)
            if closed is not None:
                return closed
        for candidate in objects:
            value = _loads(candidate)
            if value is not None:
                return value
    if "{" not in cleaned:
        raise RepairError(Message("the answer contains no JSON object"), text=text)
    if not any(balanced_objects(s) for s in sources):
        raise RepairError(Message("the JSON object is incomplete (cut off before its closing brace)"), text=text)
    raise RepairError(Message("the JSON object is not valid JSON (check quotes, commas and escapes)"), text=text)


def close_truncated(text: str, tries: int = 40) -> dict[str, Any] | None:
    """An answer cut off by the token limit: keep what was complete and close it. A string cut mid-way is closed
    where it stops; otherwise the object is cut back to the last complete member. None when nothing usable."""
    start = text.find("{")
    if start == -1:
        return None
    body = text[start:]
    stack: list[str] = []
    strings = _Strings()
    commas: list[tuple[int, list[str]]] = []
    for i, ch in enumerate(body):
        if not strings.structural(ch):
            continue
        if ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]" and stack:
            stack.pop()
        elif ch == ",":
            commas.append((i, list(stack)))
    candidates = []
    if strings.inside:
        candidates.append(body.rstrip("\\") + '"' + "".join(reversed(stack)))
    candidates.append(body + "".join(reversed(stack)))
    candidates.extend(body[:i] + "".join(reversed(snapshot)) for i, snapshot in reversed(commas[-tries:]))
    for candidate in candidates:
        value = _loads(candidate)
        if value is not None:
            return value
    return None


def describe_validation_error(exc: ValidationError, limit: int = 5) -> str:
    """A one-line summary of pydantic errors, e.g. ``confidence: Input should be less than or equal to 1``."""
    parts = []
    for err in exc.errors()[:limit]:
        where = ".".join(str(p) for p in err.get("loc", ())) or "(object)"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    more = len(exc.errors()) - limit
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)


def _wrapped_candidates(value: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    if len(value) == 1:
        inner = next(iter(value.values()))
        if isinstance(inner, dict):
            out.append(inner)
    props = value.get("properties")
    if isinstance(props, dict):
        out.append(props)
    return out


def validate_object(value: dict[str, Any], schema: type[T]) -> T:
    """Validate ``value`` against ``schema``, unwrapping one level of wrapping if needed."""
    try:
        return schema.model_validate(value)
    except ValidationError as exc:
        first = exc
    for inner in _wrapped_candidates(value):
        try:
            return schema.model_validate(inner)
        except ValidationError:
            continue
    raise RepairError(Message("the JSON does not match the schema: {describe_validation_error(first)}",
                              describe_validation_error(first)))


def parse_structured(text: str, schema: type[T]) -> T:
    """Repair and validate a model's answer. Raises :class:`RepairError` with a short reason."""
    value = extract_json_object(text)
    try:
        return validate_object(value, schema)
    except RepairError as exc:
        exc.text = text
        raise
