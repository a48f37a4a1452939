"""The provider-independent behaviour, through ScriptedChatModel and a small failing provider:
streaming, structured output with repair and one retry, typed errors, retries on transient errors only,
cancellation, usage accounting."""

from __future__ import annotations

import asyncio
import json
from typing import Literal

import pytest
from pydantic import BaseModel, Field

from courtroom_desktop.core.errors import ModelError, ModelUnavailable
from courtroom_desktop.core.llm import ScriptedChatModel, Usage
from courtroom_desktop.core.llm.base import ChatModel, Classified, Stopwatch, with_schema_instruction


class Ruling(BaseModel):
    summary: str
    tendency: Literal["support", "refute", "unclear"]
    confidence: float = Field(ge=0, le=1)


GOOD = {"summary": "thin evidence", "tendency": "refute", "confidence": 0.7}
MSGS = [{"role": "system", "content": "You are the judge."}, {"role": "user", "content": "Rule on round 1."}]


# ---------------------------------------------------------------- Usage

def test_usage_tokens_per_second_and_sum():
    a = Usage(tokens_in=10, tokens_out=20, seconds=2.0, first_token_s=0.5)
    b = Usage(tokens_in=5, tokens_out=10, seconds=1.0, first_token_s=0.2)
    assert a.tokens_per_s == 10.0
    total = a + b
    assert (total.tokens_in, total.tokens_out, total.seconds) == (15, 30, 3.0)
    assert total.first_token_s == 0.5  # the first attempt's latency
    assert Usage().tokens_per_s == 0.0
    with pytest.raises(ValueError, match="frozen"):
        a.tokens_in = 3


# ---------------------------------------------------------------- complete()

@pytest.mark.asyncio
async def test_complete_streams_word_by_word_and_returns_the_text():
    model = ScriptedChatModel(["The defense cites [E1] and [E2]."], role="defense")
    tokens: list[str] = []
    text, usage = await model.complete(MSGS, on_token=tokens.append)
    assert text == "The defense cites [E1] and [E2]."
    assert tokens == ["The", " defense", " cites", " [E1]", " and", " [E2]."]
    assert usage.tokens_out == 6 and usage.tokens_in > 0
    assert usage.first_token_s is not None and usage.seconds >= usage.first_token_s
    assert model.calls == [MSGS] and model.kinds == ["complete"]


@pytest.mark.asyncio
async def test_complete_honours_max_tokens_and_stop():
    model = ScriptedChatModel(["one two three four five", "alpha beta STOP gamma"])
    text, usage = await model.complete(MSGS, max_tokens=3)
    assert text == "one two three" and usage.tokens_out == 3
    text, _ = await model.complete(MSGS, stop=["STOP"])
    assert text.strip() == "alpha beta"


@pytest.mark.asyncio
async def test_complete_strips_reasoning_from_the_result():
    model = ScriptedChatModel(["<think>what do they want?</think>Guilty."])
    streamed: list[str] = []
    text, _ = await model.complete(MSGS, on_token=streamed.append)
    assert text == "Guilty."
    assert "<think>what" in "".join(streamed)  # the stream shows what came


@pytest.mark.asyncio
async def test_callable_replies_see_the_messages():
    model = ScriptedChatModel([lambda messages: "echo: " + messages[-1]["content"]])
    text, _ = await model.complete(MSGS)
    assert text == "echo: Rule on round 1."


@pytest.mark.asyncio
async def test_exception_replies_are_raised_in_turn():
    model = ScriptedChatModel([ModelUnavailable("server down", role="judge"), "recovered"])
    with pytest.raises(ModelUnavailable, match="server down"):
        await model.complete(MSGS)
    assert (await model.complete(MSGS))[0] == "recovered"


@pytest.mark.asyncio
async def test_an_exhausted_script_raises_model_error_naming_the_call():
    model = ScriptedChatModel(["only one"], role="prosecution")
    await model.complete(MSGS)
    with pytest.raises(ModelError, match="no reply left for call 2") as info:
        await model.complete(MSGS)
    assert info.value.role == "prosecution"


@pytest.mark.asyncio
async def test_messages_are_validated():
    model = ScriptedChatModel(["x"])
    with pytest.raises(ValueError, match="role"):
        await model.complete([{"role": "robot", "content": "hi"}])
    with pytest.raises(ValueError):
        await model.complete([])
    assert model.calls == []


@pytest.mark.asyncio
async def test_cancelling_a_stream_stops_it():
    words = " ".join(f"w{i}" for i in range(200))
    model = ScriptedChatModel([words], token_delay_s=0.01)
    seen: list[str] = []
    task = asyncio.create_task(model.complete(MSGS, on_token=seen.append))
    while len(seen) < 3:
        await asyncio.sleep(0.005)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    count = len(seen)
    await asyncio.sleep(0.05)
    assert len(seen) == count < 200


# ---------------------------------------------------------------- structured()

@pytest.mark.asyncio
async def test_structured_validates_and_puts_the_schema_in_the_prompt():
    model = ScriptedChatModel([json.dumps(GOOD)])
    ruling, usage = await model.structured(MSGS, Ruling)
    assert ruling == Ruling(**GOOD)
    assert usage.tokens_out > 0
    system = model.calls[0][0]
    assert system["role"] == "system" and system["content"].startswith("You are the judge.")
    assert '"tendency"' in system["content"] and "JSON" in system["content"]
    assert MSGS[0]["content"] == "You are the judge."  # the caller's list is not modified


@pytest.mark.asyncio
async def test_structured_repairs_without_a_retry():
    model = ScriptedChatModel([f"<think>hmm</think>Sure:\n```json\n{json.dumps(GOOD)}\n```\nAnything else?"])
    ruling, _ = await model.structured(MSGS, Ruling)
    assert ruling.tendency == "refute"
    assert len(model.calls) == 1


@pytest.mark.asyncio
async def test_structured_retries_once_naming_the_validation_error():
    bad = json.dumps({**GOOD, "confidence": 7})
    model = ScriptedChatModel([bad, json.dumps(GOOD)])
    ruling, usage = await model.structured(MSGS, Ruling)
    assert ruling.confidence == 0.7
    assert len(model.calls) == 2
    retry = model.calls[1]
    assert retry[-2] == {"role": "assistant", "content": bad}
    assert retry[-1]["role"] == "user" and "confidence" in retry[-1]["content"]
    assert "less than or equal to 1" in retry[-1]["content"]
    first, second = model.usages
    assert usage.tokens_in == first.tokens_in + second.tokens_in  # both attempts counted
    assert usage.tokens_out == first.tokens_out + second.tokens_out


@pytest.mark.asyncio
async def test_structured_raises_a_typed_error_after_the_retry():
    model = ScriptedChatModel(["no json here", '{"summary": "x", "tendency": "maybe", "confidence": 0.5}'],
                              role="judge", model_name="tiny")
    with pytest.raises(ModelError) as info:
        await model.structured(MSGS, Ruling)
    err = info.value
    assert not isinstance(err, ModelUnavailable)
    assert (err.role, err.provider, err.model) == ("judge", "scripted", "tiny")
    assert err.raw == '{"summary": "x", "tendency": "maybe", "confidence": 0.5}'
    assert err.first_raw == "no json here"
    assert "tendency" in str(err) and "no JSON object" in str(err)
    assert err.usage.tokens_out > 0 and err.fix
    assert len(model.calls) == 2  # exactly one retry


def test_schema_instruction_is_added_as_a_system_message_when_there_is_none():
    out = with_schema_instruction([{"role": "user", "content": "hi"}], Ruling)
    assert [m["role"] for m in out] == ["system", "user"]
    assert "confidence" in out[0]["content"]


# ---------------------------------------------------------------- retries (transient errors only)

class Transient(Exception):
    pass


class Fatal(Exception):
    pass


class FlakyModel(ChatModel):
    """Fails with the given exceptions, then answers."""

    provider = "flaky"

    def __init__(self, failures, *, retries=2, stream_first=False):
        super().__init__(role="defense", model_name="flaky-1", context_window=2048, retries=retries, backoff_s=0.01)
        self.failures = list(failures)
        self.attempts = 0
        self.stream_first = stream_first

    async def _stream_text(self, messages, max_tokens, stop, on_token):
        self.attempts += 1
        if self.stream_first:
            on_token("partial")
        if self.failures:
            raise self.failures.pop(0)
        watch = Stopwatch()
        on_token("fine")
        return "fine", watch.usage(1, 1)

    async def _generate_json(self, messages, schema, max_tokens):
        self.attempts += 1
        if self.failures:
            raise self.failures.pop(0)
        return json.dumps(GOOD), Usage(1, 1, 0.1)

    def _classify(self, exc):
        if isinstance(exc, Transient):
            return Classified(self._error("blip", cls=ModelUnavailable), transient=True)
        if isinstance(exc, Fatal):
            return Classified(self._error("bad request", fix="fix it"), transient=False)
        return None


@pytest.mark.asyncio
async def test_transient_errors_are_retried_with_backoff():
    model = FlakyModel([Transient(), Transient()], retries=2)
    text, _ = await model.complete(MSGS)
    assert text == "fine" and model.attempts == 3


@pytest.mark.asyncio
async def test_retries_are_bounded():
    model = FlakyModel([Transient()] * 5, retries=2)
    with pytest.raises(ModelUnavailable, match="blip") as info:
        await model.complete(MSGS)
    assert model.attempts == 3
    assert info.value.role == "defense" and isinstance(info.value.__cause__, Transient)


@pytest.mark.asyncio
async def test_non_transient_errors_are_not_retried():
    model = FlakyModel([Fatal(), Fatal()], retries=3)
    with pytest.raises(ModelError, match="bad request") as info:
        await model.structured(MSGS, Ruling)
    assert model.attempts == 1 and info.value.fix == "fix it"


@pytest.mark.asyncio
async def test_no_retry_once_tokens_were_streamed():
    model = FlakyModel([Transient()], retries=3, stream_first=True)
    with pytest.raises(ModelUnavailable):
        await model.complete(MSGS)
    assert model.attempts == 1  # a retry would repeat the streamed tokens


@pytest.mark.asyncio
async def test_unknown_exceptions_propagate_unchanged():
    model = FlakyModel([KeyError("bug")], retries=3)
    with pytest.raises(KeyError):
        await model.complete(MSGS)
    assert model.attempts == 1
