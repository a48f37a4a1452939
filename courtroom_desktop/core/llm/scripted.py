"""A chat model that plays back a script: deterministic engine tests with no model at all.

    model = ScriptedChatModel([
        '{"queries": ["vitamin D"]}',                # structured(): parsed and validated like a real answer
        "The defense cites [E1] ...",                # complete(): streamed word by word through on_token
        lambda messages: "echo " + messages[-1]["content"],
        ModelUnavailable("server down"),             # raised when its turn comes
    ], role="judge")

Structured calls go through the same repair and retry path as real providers, so a broken JSON reply followed by
a good one exercises the retry, and two broken replies raise the same :class:`ModelError` a real model would.
Every call's messages are recorded in ``calls`` (and what kind of call it was in ``kinds``).

``standing`` answers the structured calls of some schemas, by the schema's class name, outside the script and every
time: ``standing={"EvidenceAssessment": lambda messages: ...}`` lets a script list only the calls a test is about.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterable

from pydantic import BaseModel

from courtroom_desktop.core.errors import ModelError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.llm.base import (
    ChatModel,
    Messages,
    Stopwatch,
    TokenCallback,
    estimate_messages_tokens,
    estimate_tokens,
)
from courtroom_desktop.core.records import Usage

Reply = str | Callable[[Messages], str] | BaseException


class ScriptedChatModel(ChatModel):
    provider = "scripted"

    def __init__(self, replies: Iterable[Reply], *, role: str = "judge", model_name: str = "script",
                 context_window: int = 8192, token_delay_s: float = 0.0, max_tokens: int = 100_000,
                 standing: dict[str, Reply] | None = None):
        super().__init__(role=role, model_name=model_name, context_window=context_window, max_tokens=max_tokens)
        self.replies: list[Reply] = list(replies)
        self.standing: dict[str, Reply] = dict(standing or {})
        self.token_delay_s = token_delay_s
        self.calls: list[Messages] = []
        self.kinds: list[str] = []
        self.usages: list[Usage] = []
        self._next = 0

    def add(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    def _take(self, messages: Messages, kind: str, schema: str = "") -> str:
        self.calls.append([dict(m) for m in messages])
        self.kinds.append(kind)
        if schema in self.standing:
            reply = self.standing[schema]
        elif self._next >= len(self.replies):
            raise self._error(Message("the script has no reply left for call {len(self.calls)} ({kind})",
                                      len(self.calls), kind))
        else:
            reply = self.replies[self._next]
            self._next += 1
        if isinstance(reply, BaseException):
            raise reply
        if callable(reply):
            reply = reply(messages)
        if not isinstance(reply, str):
            raise ModelError(Message("scripted reply {self._next} is {type(reply).__name__}, not str",
                                     self._next, type(reply).__name__), role=self.role,
                             provider=self.provider, model=self.model_name)
        return reply

    async def _stream_text(self, messages: Messages, max_tokens: int, stop: list[str],
                           on_token: TokenCallback) -> tuple[str, Usage]:
        watch = Stopwatch()
        text = self._take(messages, "complete")
        for s in stop:
            if s and s in text:
                text = text[: text.index(s)]
        pieces = re.findall(r"\s*\S+", text) or ([text] if text else [])
        pieces = pieces[:max_tokens]
        out = []
        for piece in pieces:
            await asyncio.sleep(self.token_delay_s)  # a checkpoint even at 0: cancellation lands here
            watch.mark_token()
            on_token(piece)
            out.append(piece)
        result = "".join(out)
        usage = watch.usage(estimate_messages_tokens(messages), len(out))
        self.usages.append(usage)
        return result, usage

    async def _generate_json(self, messages: Messages, schema: type[BaseModel],
                             max_tokens: int) -> tuple[str, Usage]:
        watch = Stopwatch()
        await asyncio.sleep(self.token_delay_s)
        text = self._take(messages, "structured", schema.__name__)
        watch.mark_token()
        usage = watch.usage(estimate_messages_tokens(messages), estimate_tokens(text))
        self.usages.append(usage)
        return text, usage
