"""What the LangChain-backed providers (Ollama, OpenAI-compatible) share: message conversion, the streaming loop with
its per-chunk timeout and item cap, usage accounting, and one client per event loop."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from courtroom_desktop.core.llm.base import (
    Messages,
    Stopwatch,
    TokenCallback,
    chunk_timeout,
    estimate_messages_tokens,
    estimate_tokens,
    iter_with_timeout,
    stream_item_cap,
)
from courtroom_desktop.core.records import Usage


def to_langchain(messages: Messages) -> list[Any]:
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

    kinds = {"system": SystemMessage, "user": HumanMessage, "assistant": AIMessage}
    return [kinds[m["role"]](content=m["content"]) for m in messages]


def chunk_text(chunk: Any) -> str:
    content = getattr(chunk, "content", "")
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content blocks
        return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    return str(content or "")


def usage_tokens(message: Any) -> tuple[int, int] | None:
    meta = getattr(message, "usage_metadata", None)
    if not meta:
        return None
    tokens_in = int(meta.get("input_tokens") or 0)
    tokens_out = int(meta.get("output_tokens") or 0)
    if tokens_in == 0 and tokens_out == 0:
        return None
    return tokens_in, tokens_out


def http_timeout(read_s: float, connect_s: float) -> tuple[float, float, float, float]:
    """A timeout for a client we hand to a provider's library (ChatOllama's client, ...): httpx's tuple form,
    (connect, read, write, pool), which httpx and httpx2 both take and which hashes (langchain-openai caches clients
    by their timeout). An ``httpx.Timeout`` breaks a library built on httpx2, as openai 3.x is."""
    return (float(connect_s), float(read_s), float(read_s), float(connect_s))


@functools.cache
def http_errors(*names: str) -> tuple[type[BaseException], ...]:
    """The exception classes of these names from httpx and from httpx2 where installed: a provider's library may be
    built on either (openai 2.x on httpx, openai 3.x on httpx2), and its errors wrap that library's. Looked up once
    per set of names."""
    import importlib

    found: list[type[BaseException]] = []
    for module_name in ("httpx", "httpx2"):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        found.extend(getattr(module, name) for name in names if isinstance(getattr(module, name, None), type))
    return tuple(found)


C = TypeVar("C")


class PerLoop(Generic[C]):
    """Builds a client once per event loop: httpx's async pools are bound to the loop that opened them."""

    def __init__(self, factory: Callable[[], C]):
        self._factory = factory
        self._loop: asyncio.AbstractEventLoop | None = None
        self._value: C | None = None

    def get(self) -> C:
        loop = asyncio.get_running_loop()
        if self._value is None or self._loop is not loop:
            self._value = self._factory()
            self._loop = loop
        return self._value

    def clear(self) -> C | None:
        value, self._value, self._loop = self._value, None, None
        return value


async def stream_chat(llm: Any, messages: Messages, kwargs: dict[str, Any], *, read_timeout_s: float,
                      stalled: Callable[[], Exception], max_tokens: int, on_token: TokenCallback | None,
                      drop_final_repeat: bool = False) -> tuple[str, Usage]:
    """Stream one answer of a LangChain chat model: ``llm.astream(messages, **kwargs)`` with a per-chunk timeout
    (``stalled()`` is raised) and a cap on the chunks read, relaying pieces to ``on_token``. Usage comes from the
    server's counts, else from estimates. ``drop_final_repeat``: the structured-output stream helper of some clients
    repeats the whole answer in its final chunk; keep the pieces only."""
    watch = Stopwatch()
    parts: list[str] = []
    tokens: tuple[int, int] | None = None
    stream = llm.astream(to_langchain(messages), **kwargs)
    async for chunk in iter_with_timeout(stream, chunk_timeout(read_timeout_s), stalled,
                                         max_items=stream_item_cap(max_tokens)):
        piece = chunk_text(chunk)
        if drop_final_repeat and parts and piece == "".join(parts) and \
                getattr(chunk, "response_metadata", {}).get("finish_reason"):
            piece = ""
        if piece:
            watch.mark_token()
            parts.append(piece)
            if on_token is not None:
                on_token(piece)
        tokens = usage_tokens(chunk) or tokens
    text = "".join(parts)
    if tokens is None:
        tokens = (estimate_messages_tokens(messages), estimate_tokens(text))
    return text, watch.usage(*tokens)
