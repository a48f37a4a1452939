"""The provider-independent half of every chat model: usage accounting, structured output with
repair and one retry, bounded retries on transient errors, and per-chunk timeouts on streams.

A provider subclasses :class:`ChatModel` and implements two coroutines:

    _stream_text(messages, max_tokens, stop, on_token)  -> (text, Usage)   free text, streaming
    _generate_json(messages, schema, max_tokens)         -> (text, Usage)   raw answer, schema enforced if it can

plus ``_classify(exc)``, which maps a provider exception into a :class:`ModelError` (or returns None to let it
through) and says whether it is transient. Everything else lives here.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import random
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from courtroom_desktop.core.errors import ModelError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.llm.repair import RepairError, parse_structured, strip_think
from courtroom_desktop.core.records import ModelCall, Usage, observe_model_call

log = logging.getLogger(__name__)

Messages = list[dict[str, str]]  # [{"role": "system" | "user" | "assistant", "content": text}, ...]
JsonSchema = dict[str, Any]  # a JSON schema, as pydantic's model_json_schema() writes it
TokenCallback = Callable[[str], None]
M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

#: How much of a failed answer is quoted back to the model in the retry prompt.
RETRY_QUOTE_CHARS = 1500


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate (about four characters a token for English; at least one per word)."""
    if not text:
        return 0
    return max(math.ceil(len(text) / 4), len(text.split()))


def estimate_messages_tokens(messages: Messages, count: Callable[[str], int] = estimate_tokens) -> int:
    """Prompt size of a chat: content plus a few tokens of template per message."""
    return sum(count(str(m.get("content", ""))) + 4 for m in messages) + 2


def check_messages(messages: Messages) -> Messages:
    """Validate the plain message format; return a shallow copy."""
    if not isinstance(messages, list) or not messages:
        raise ValueError(Message("messages must be a non-empty list of {{'role', 'content'}} dicts"))
    out = []
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or m.get("role") not in ("system", "user", "assistant"):
            raise ValueError(Message("message {i}: role must be 'system', 'user' or 'assistant'", i))
        if not isinstance(m.get("content"), str):
            raise ValueError(Message("message {i}: content must be a string", i))
        out.append({"role": m["role"], "content": m["content"]})
    return out


def inline_refs(schema: JsonSchema) -> JsonSchema:
    """The schema with every ``{"$ref": "#/$defs/X"}`` replaced by X itself: a small model shown ``$ref`` copies
    "#/$defs/..." into its answer instead of following it."""
    defs = schema.get("$defs", {})

    def walk(node: Any, depth: int) -> Any:
        if isinstance(node, list):
            return [walk(item, depth) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node and depth < 8:
            target = defs.get(node["$ref"].rsplit("/", 1)[-1], {})
            return walk({**target, **{k: v for k, v in node.items() if k != "$ref"}}, depth + 1)
        return {k: walk(v, depth) for k, v in node.items() if k != "$defs"}

    inlined: JsonSchema = walk(schema, 0)
    return inlined


def compact_schema(schema: type[BaseModel]) -> str:
    return json.dumps(inline_refs(schema.model_json_schema()), separators=(",", ":"), ensure_ascii=False)


def with_schema_instruction(messages: Messages, schema: type[BaseModel]) -> Messages:
    """Tell the model, in the system message, which JSON to answer with (backends that enforce a schema do not
    show it to the model, and small models need to see it)."""
    note = (
        "Answer with one JSON object and nothing else: no prose, no code fence. "
        f"It must match this JSON schema: {compact_schema(schema)}"
    )
    out = [dict(m) for m in messages]
    if out and out[0]["role"] == "system":
        out[0]["content"] = f"{out[0]['content']}\n\n{note}"
    else:
        out.insert(0, {"role": "system", "content": note})
    return out


def retry_messages(messages: Messages, bad_answer: str, reason: str) -> Messages:
    quoted = bad_answer if len(bad_answer) <= RETRY_QUOTE_CHARS else bad_answer[:RETRY_QUOTE_CHARS] + " ..."
    return [
        *messages,
        {"role": "assistant", "content": quoted},
        {
            "role": "user",
            "content": f"That answer was not valid: {reason}. Reply again with only the corrected JSON object.",
        },
    ]


class Classified:
    """A provider error mapped into the core's tree, and whether trying again may help."""

    __slots__ = ("error", "transient")

    def __init__(self, error: ModelError, transient: bool = False):
        self.error = error
        self.transient = transient


class ChatModel:
    """A chat model bound to one courtroom role. Subclasses implement the provider calls."""

    provider: str = "base"

    def __init__(self, *, role: str, model_name: str, context_window: int, max_tokens: int = 384,
                 retries: int = 0, read_timeout_s: float = 120.0, backoff_s: float = 0.5):
        self.role = role
        self.model_name = model_name
        self.context_window = int(context_window)
        self.default_max_tokens = int(max_tokens)
        self.retries = int(retries)
        self.read_timeout_s = float(read_timeout_s)
        self.backoff_s = float(backoff_s)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(role={self.role!r}, provider={self.provider!r}, model={self.model_name!r})"

    # ------------------------------------------------------------------ public API

    async def complete(self, messages: Messages, *, max_tokens: int | None = None, stop: list[str] | None = None,
                       on_token: TokenCallback | None = None) -> tuple[str, Usage]:
        """Free text. Tokens stream through ``on_token`` (called on the event loop's thread) as they arrive.
        Cancelling the awaiting task stops generation."""
        msgs = check_messages(messages)
        limit = max_tokens or self.default_max_tokens
        emitted = [False]

        def relay(token: str) -> None:
            emitted[0] = True
            if on_token is not None and token:
                on_token(token)

        text, usage = await self._with_retries(
            lambda: self._stream_text(msgs, limit, list(stop or []), relay),
            may_retry=lambda: not emitted[0],
        )
        self._observe(msgs, text, usage)
        if "think>" in text or "<think" in text:
            text = strip_think(text)  # reasoning models: tokens streamed as they came, the result without reasoning
        return text, usage

    async def structured(self, messages: Messages, schema: type[M], *,
                         max_tokens: int | None = None, retry: bool = True) -> tuple[M, Usage]:
        """A validated ``schema`` instance. The backend enforces the JSON schema where it can; a non-conforming
        answer is repaired, then retried once with the validation error named (unless ``retry`` is False: the
        doctor's probes judge the first answer), then a :class:`ModelError` is raised carrying role, provider,
        model and the raw answer. The usage covers every attempt."""
        msgs = with_schema_instruction(check_messages(messages), schema)
        limit = max_tokens or self.default_max_tokens
        first, usage = await self._with_retries(lambda: self._generate_json(msgs, schema, limit))
        self._observe(msgs, first, usage, schema.__name__)
        try:
            return parse_structured(first, schema), usage
        except RepairError as exc:
            reason = exc.reason
            if not retry:
                raise ModelError(Message("no valid {schema.__name__}: {reason}", schema.__name__, reason), role=self.role,
                                 provider=self.provider,
                                 model=self.model_name, raw=first, usage=usage,
                                 fix=Message("use a model that follows JSON instructions, or raise max_tokens")) from None
            log.info("%s: %s answer did not validate (%s); retrying once", self.role, schema.__name__, reason)
        again = retry_messages(msgs, first, reason)
        second, usage2 = await self._with_retries(lambda: self._generate_json(again, schema, limit))
        self._observe(again, second, usage2, schema.__name__)
        usage = usage + usage2
        try:
            return parse_structured(second, schema), usage
        except RepairError as exc:
            raise ModelError(
                Message("no valid {schema.__name__} after one retry: {exc.reason} (first attempt: {reason})",
                        schema.__name__, exc.reason, reason),
                role=self.role, provider=self.provider, model=self.model_name, raw=second,
                fix=Message("use a model that follows JSON instructions, or raise max_tokens"), first_raw=first, usage=usage,
            ) from None

    def count_tokens(self, text: str) -> int:
        return estimate_tokens(text)

    def _observe(self, messages: Messages, answer: str, usage: Usage, schema: str = "") -> None:
        """The call as it went (the exact messages, the raw answer) to whoever listens (core.records.MODEL_CALLS)."""
        observe_model_call(ModelCall(role=self.role, model=f"{self.provider}:{self.model_name}",
                                     kind="structured" if schema else "complete", schema_name=schema,
                                     messages=tuple(dict(m) for m in messages), answer=answer, usage=usage))

    async def aclose(self) -> None:
        """Release clients; the instance may not be used afterwards."""

    # ------------------------------------------------------------------ for subclasses

    async def _stream_text(self, messages: Messages, max_tokens: int, stop: list[str],
                           on_token: TokenCallback) -> tuple[str, Usage]:
        raise NotImplementedError

    async def _generate_json(self, messages: Messages, schema: type[BaseModel],
                             max_tokens: int) -> tuple[str, Usage]:
        raise NotImplementedError

    def _classify(self, exc: BaseException) -> Classified | None:
        """Map a provider exception; None means "not mine, let it propagate"."""
        return None

    def _error(self, message: str, *, raw: str = "", cls: type[ModelError] = ModelError, fix: str = "") -> ModelError:
        return cls(message, fix=fix, role=self.role, provider=self.provider, model=self.model_name,
                          raw=raw)

    async def _with_retries(self, call: Callable[[], Awaitable[T]], may_retry: Callable[[], bool] = lambda: True) -> T:
        """Run ``call`` with up to ``self.retries`` retries, with jittered exponential backoff, on transient
        errors only (and never once tokens have been streamed, which would repeat them)."""
        attempt = 0
        while True:
            try:
                return await call()
            except asyncio.CancelledError:
                raise
            except ModelError as exc:
                raise exc.for_role(self.role, self.provider, self.model_name) from exc.__cause__
            except Exception as exc:  # noqa: BLE001 - every provider error is mapped here
                classified = self._classify(exc)
                if classified is None:
                    raise
                if classified.transient and attempt < self.retries and may_retry():
                    delay = self.backoff_s * (2 ** attempt) * (0.75 + 0.5 * random.random())
                    attempt += 1
                    log.warning("%s/%s: transient error (%s); retry %d of %d in %.1fs", self.provider,
                                self.model_name, classified.error, attempt, self.retries, delay)
                    await asyncio.sleep(delay)
                    continue
                raise classified.error from exc


def chunk_timeout(read_timeout_s: float) -> float:
    """The per-chunk guard fires a little after the HTTP read timeout, so the transport's more specific error
    (no answer at all) wins when both would, and the guard only catches servers that trickle bytes but no content."""
    return read_timeout_s + max(1.0, 0.25 * read_timeout_s)


def stream_item_cap(max_tokens: int) -> int:
    """The most stream chunks read for an answer of ``max_tokens`` tokens (servers send about one token a chunk):
    a server that ignores the token limit, or never stops, is cut off here instead of being read forever."""
    return 2 * int(max_tokens) + 64


async def iter_with_timeout(stream: AsyncIterator[T], timeout_s: float, on_timeout: Callable[[], Exception],
                            max_items: int | None = None) -> AsyncGenerator[T, None]:
    """Yield from ``stream`` but raise ``on_timeout()`` when no item arrives within ``timeout_s``: a server that
    trickles keep-alive bytes but no content cannot hang a call. After ``max_items`` items the stream is closed
    (see ``stream_item_cap``)."""
    iterator = stream.__aiter__()
    count = 0
    try:
        while True:
            if max_items is not None and count >= max_items:
                log.warning("the server kept streaming past %d chunks (it ignores the token limit): answer cut off",
                            max_items)
                return
            count += 1
            try:
                item = await asyncio.wait_for(iterator.__anext__(), timeout_s)
            except StopAsyncIteration:
                return
            except TimeoutError:
                raise on_timeout() from None
            yield item
    finally:
        aclose = getattr(iterator, "aclose", None)
        if aclose is not None:
            try:
                await aclose()
            except Exception:  # noqa: BLE001 - closing a broken stream must not mask the real error
                pass


class Stopwatch:
    """Times a call: ``mark_token()`` on each streamed piece, ``usage(...)`` at the end."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.first: float | None = None

    def mark_token(self) -> None:
        if self.first is None:
            self.first = time.perf_counter() - self.start

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def usage(self, tokens_in: int, tokens_out: int) -> Usage:
        return Usage(tokens_in=int(tokens_in), tokens_out=int(tokens_out), seconds=self.elapsed(),
                     first_token_s=self.first)
