"""Any OpenAI-compatible server (OpenAI, vLLM, LM Studio, llama.cpp's server, ...) through langchain-openai.

- ``base_url`` is the API root including ``/v1`` (e.g. ``http://127.0.0.1:8000/v1``); the API key comes from the OS
  keyring (``core.secrets``), or ``"not-needed"`` when none is stored (local servers ignore it).
- Connect and read timeouts on the HTTP client, a per-chunk timeout on streams, ``max_retries=0`` in the OpenAI
  client: this layer retries transient errors itself, with backoff.
- Structured output tries, in order, until the server accepts one (the accepted mode is remembered per instance):
  ``json_schema`` response format, ``json_object`` with a ``schema`` (llama-cpp-python's server), plain JSON mode,
  and finally no response format at all (the schema is still in the prompt, and the answer is repaired).
- Per-call ``max_tokens`` goes out as ``max_completion_tokens`` (OpenAI's name) and, for servers other than
  api.openai.com, also as the older ``max_tokens`` that many compatible servers still read.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pydantic import BaseModel

from courtroom_desktop.core.config import ModelSpec
from courtroom_desktop.core.errors import ConfigError, ModelError, ModelUnavailable
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.llm._lc import PerLoop, http_errors, stream_chat
from courtroom_desktop.core.llm.base import (
    ChatModel,
    Classified,
    Messages,
    TokenCallback,
    chunk_timeout,
)
from courtroom_desktop.core.llm.grammar import grammar_schema
from courtroom_desktop.core.records import Usage

if TYPE_CHECKING:
    from langchain_openai import ChatOpenAI

log = logging.getLogger(__name__)

NO_KEY = "not-needed"
STRUCTURED_MODES = ("json_schema", "json_object_schema", "json_object", "prompt_only")


def response_format_for(mode: str, schema: type[BaseModel]) -> dict[str, Any] | None:
    json_schema = schema.model_json_schema()
    if mode == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": schema.__name__, "schema": json_schema,
                                                       "strict": False}}
    if mode == "json_object_schema":  # llama-cpp-python's server: the same grammar compiler as embedded
        return {"type": "json_object", "schema": grammar_schema(json_schema)}
    if mode == "json_object":
        return {"type": "json_object"}
    return None


def is_official_openai(base_url: str) -> bool:
    return urlsplit(base_url).hostname in ("api.openai.com",)


class OpenAIChatModel(ChatModel):
    provider = "openai"

    def __init__(self, spec: ModelSpec, role: str, *, api_key: str | None = None, data_dir: Any = None):
        if not spec.base_url.strip():
            raise ConfigError(Message("models.{role}.base_url: an OpenAI-compatible server needs its URL, e.g. "
                                      "http://127.0.0.1:8000/v1",
                                      role))
        if not spec.model.strip():
            raise ConfigError(Message("models.{role}.model: name the model to use on {spec.base_url}",
                                      role, spec.base_url))
        super().__init__(role=role, model_name=spec.model.strip(), context_window=spec.num_ctx,
                         max_tokens=spec.max_tokens, retries=spec.retries, read_timeout_s=spec.read_timeout_s)
        self.spec = spec
        self.base_url = spec.base_url.strip().rstrip("/")
        self._api_key = api_key
        self._data_dir = data_dir
        self._clients = PerLoop(self._build)
        self.structured_mode: str | None = None  # the first mode this server accepted

    def _key(self) -> str:
        if self._api_key:
            return self._api_key
        from courtroom_desktop.core.secrets import get_api_key

        return get_api_key(self.base_url, data_dir=self._data_dir) or NO_KEY

    def _build(self) -> ChatOpenAI:
        import openai
        from langchain_openai import ChatOpenAI

        return ChatOpenAI(
            base_url=self.base_url,
            model=self.model_name,
            api_key=self._key(),
            temperature=self.spec.temperature,
            max_tokens=self.spec.max_tokens,
            # the client's own type: httpx.Timeout under openai 2.x, httpx2.Timeout under 3.x
            timeout=openai.Timeout(self.spec.read_timeout_s, connect=self.spec.connect_timeout_s),
            max_retries=0,
            stream_usage=True,
            stream_chunk_timeout=chunk_timeout(self.spec.read_timeout_s),
        )

    def _call_kwargs(self, max_tokens: int) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"max_tokens": int(max_tokens)}
        if not is_official_openai(self.base_url):
            kwargs["extra_body"] = {"max_tokens": int(max_tokens)}
        return kwargs

    async def _stream(self, messages: Messages, max_tokens: int, stop: list[str], on_token: TokenCallback | None,
                      response_format: dict[str, Any] | None = None) -> tuple[str, Usage]:
        kwargs = self._call_kwargs(max_tokens)
        if stop:
            kwargs["stop"] = list(stop)
        if response_format is not None:
            kwargs["response_format"] = response_format
        return await stream_chat(self._clients.get(), messages, kwargs, read_timeout_s=self.spec.read_timeout_s,
                                 stalled=self._stalled, max_tokens=max_tokens, on_token=on_token,
                                 drop_final_repeat=response_format is not None)

    def _stalled(self) -> ModelError:
        return self._error(Message("{self.base_url} sent nothing for {chunk_timeout(self.spec.read_timeout_s)}s",
                                   self.base_url, f'{chunk_timeout(self.spec.read_timeout_s):g}'),
                           cls=ModelUnavailable,
                           fix=Message("check the server (restart it), or raise read_timeout_s for a slow model"))

    async def _stream_text(self, messages: Messages, max_tokens: int, stop: list[str],
                           on_token: TokenCallback) -> tuple[str, Usage]:
        return await self._stream(messages, max_tokens, stop, on_token)

    async def _generate_json(self, messages: Messages, schema: type[BaseModel],
                             max_tokens: int) -> tuple[str, Usage]:
        import openai

        modes = STRUCTURED_MODES if self.structured_mode is None else (self.structured_mode,)
        last: Exception | None = None
        for mode in modes:
            try:
                result = await self._stream(messages, max_tokens, [], None,
                                            response_format=response_format_for(mode, schema))
            except openai.APIStatusError as exc:
                if not _rejects_response_format(exc) or mode == STRUCTURED_MODES[-1]:
                    raise
                log.info("%s rejected response format %s (%s); trying the next", self.base_url, mode,
                         _status_detail(exc))
                last = exc
                continue
            if self.structured_mode is None:
                self.structured_mode = mode
                log.info("%s/%s: structured output via %s", self.role, self.model_name, mode)
            return result
        assert last is not None  # pragma: no cover - the loop either returns or raises
        raise last

    async def aclose(self) -> None:
        llm = self._clients.clear()
        client = getattr(llm, "root_async_client", None) if llm is not None else None
        if client is not None:
            await client.close()

    def _classify(self, exc: BaseException) -> Classified | None:
        classified = classify_openai_error(exc, self)
        if classified is not None:
            _redact_key(classified.error, self._key())
        return classified


def _redact_key(error: ModelError, key: str) -> None:
    """Keep the API key out of an error (a server may quote the key it refused; the message reaches the window,
    the log and the trial's record)."""
    from courtroom_desktop.core.secrets import redact

    if not key or key == NO_KEY:
        return
    error.args = tuple(redact(a, key) if isinstance(a, str) else a for a in error.args)
    for name in ("message", "reason", "raw", "fix"):
        value = getattr(error, name, None)
        if isinstance(value, str):
            setattr(error, name, redact(value, key))


def _causes(exc: BaseException, limit: int = 8) -> list[BaseException]:
    """The chain of causes below ``exc`` (langchain wraps openai's error, which wraps httpx's)."""
    out: list[BaseException] = []
    current = exc.__cause__ or exc.__context__
    while current is not None and len(out) < limit:
        out.append(current)
        current = current.__cause__ or current.__context__
    return out


def _status_detail(exc: Exception) -> str:
    status = getattr(exc, "status_code", "")
    message = getattr(exc, "message", "") or str(exc)
    return f"{status} {message}".strip()[:300]


def _rejects_response_format(exc: Exception) -> bool:
    """The server refused the request because of its response_format: 400/422 (OpenAI, vLLM, ...), or a 500
    that names it (llama-cpp-python's server reports validation errors that way)."""
    import openai

    if _is_context_overflow(exc):
        return False
    if isinstance(exc, (openai.BadRequestError, openai.UnprocessableEntityError)):
        return True
    return isinstance(exc, openai.APIStatusError) and "response_format" in str(exc)


def _is_context_overflow(exc: Exception) -> bool:
    text = str(exc).lower()
    return any(s in text for s in ("context_length", "context length", "context window", "too long",
                                   "exceed context", "maximum context"))


def classify_openai_error(exc: BaseException, model: OpenAIChatModel) -> Classified | None:
    import openai

    url, name = model.base_url, model.model_name
    detail = _status_detail(exc) if isinstance(exc, Exception) else str(exc)
    if isinstance(exc, openai.APITimeoutError):
        return Classified(model._error(
            Message("{url} did not answer within {model.spec.read_timeout_s}s", url, f'{model.spec.read_timeout_s:g}'),
            cls=ModelUnavailable,
            fix=Message("check that the server is not stuck, or raise read_timeout_s for a slow model")))
    if isinstance(exc, openai.APIConnectionError):
        causes = _causes(exc)
        cause = causes[-1] if causes else None
        refused = (*http_errors("ConnectError", "ConnectTimeout"), ConnectionRefusedError)
        if any(isinstance(c, refused) for c in causes):
            return Classified(model._error(Message("cannot reach {url}", url), cls=ModelUnavailable,
                                           fix=Message("start the server, or correct base_url")))
        return Classified(model._error(Message("connection to {url} failed ({type(cause).__name__ if cause else "
                                               "exc})",
                                               url, type(cause).__name__ if cause else exc),
                                       cls=ModelUnavailable, fix=Message("check the server and the network")),
                          transient=True)
    if isinstance(exc, (openai.AuthenticationError, openai.PermissionDeniedError)):
        return Classified(model._error(
            Message("{url} refused the API key ({detail})", url, detail), cls=ModelUnavailable,
            fix=Message("wrong API key: store the right one with `keyring set courtroom-desktop {url}`", url)))
    if isinstance(exc, openai.NotFoundError):
        if "model" in detail.lower():
            return Classified(model._error(Message("model {name} not found on {url} ({detail})",
                                                   f'{name!r}', url, detail), cls=ModelUnavailable,
                                           fix=Message("pick a model the server lists (`courtroom doctor` shows "
                                                       "them)")))
        return Classified(model._error(Message("{url} has no such endpoint ({detail})", url, detail), cls=ModelUnavailable,
                                       fix=Message("base_url should be the API root, usually ending in /v1")))
    if isinstance(exc, openai.RateLimitError):
        return Classified(model._error(Message("{url} is rate limiting ({detail})", url, detail), cls=ModelUnavailable,
                                       fix=Message("wait, or lower the request rate")), transient=True)
    if isinstance(exc, openai.InternalServerError):
        return Classified(model._error(Message("{url} had a server error ({detail})", url, detail), cls=ModelUnavailable,
                                       fix=Message("check the server's log")), transient=True)
    if isinstance(exc, openai.APIStatusError):
        if _is_context_overflow(exc):
            return Classified(model._error(Message("the prompt does not fit the model's context ({detail})", detail),
                                           fix=Message("raise num_ctx on the server, or shorten the prompt")))
        transient = getattr(exc, "status_code", 0) in (408, 409)
        return Classified(model._error(Message("{url} rejected the request ({detail})", url, detail)), transient=transient)
    if isinstance(exc, TimeoutError):
        return Classified(model._error(Message("{url} stopped sending for {model.spec.read_timeout_s}s",
                                               url, f'{model.spec.read_timeout_s:g}'),
                                       cls=ModelUnavailable,
                                       fix=Message("check the server, or raise read_timeout_s for a slow model")))
    if isinstance(exc, openai.OpenAIError):
        return Classified(model._error(Message("OpenAI client error: {type(exc).__name__}: {exc}",
                                               type(exc).__name__, exc)))
    return None
