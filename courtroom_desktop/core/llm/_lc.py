"""Small helpers shared by the LangChain-backed providers (imported lazily by them)."""

from __future__ import annotations

import asyncio
from typing import Any

from courtroom_desktop.core.llm.base import Messages


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


class PerLoop:
    """Builds a client once per event loop: httpx's async pools are bound to the loop that opened them."""

    def __init__(self, factory):
        self._factory = factory
        self._loop: asyncio.AbstractEventLoop | None = None
        self._value: Any = None

    def get(self) -> Any:
        loop = asyncio.get_running_loop()
        if self._value is None or self._loop is not loop:
            self._value = self._factory()
            self._loop = loop
        return self._value

    def clear(self) -> Any:
        value, self._value, self._loop = self._value, None, None
        return value
