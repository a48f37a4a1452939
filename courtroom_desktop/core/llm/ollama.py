"""The Ollama provider, through langchain-ollama's ChatOllama.

- Every request carries ``num_ctx`` (Ollama's own default, 2048, silently truncates longer prompts), ``num_predict``,
  ``temperature`` and ``keep_alive``; the HTTP client has connect and read timeouts (the Ollama client's default is
  none at all, so a server that accepts and never answers would hang forever), and the stream has a per-chunk
  timeout too.
- Structured output sends the JSON schema in Ollama's ``format`` field.
- Errors map into ModelUnavailable / ModelError with the action to take: "start Ollama", "ollama pull MODEL", ...
  Only transient errors (connection reset mid-answer, 5xx, 429) are retried.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from courtroom_desktop.core.config import ModelSpec
from courtroom_desktop.core.errors import ConfigError, ModelError, ModelUnavailable
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.llm._lc import PerLoop, http_errors, http_timeout, stream_chat
from courtroom_desktop.core.llm.base import (
    ChatModel,
    Classified,
    Messages,
    TokenCallback,
    chunk_timeout,
    estimate_messages_tokens,
)
from courtroom_desktop.core.records import Usage

if TYPE_CHECKING:
    from langchain_ollama import ChatOllama

log = logging.getLogger(__name__)

DEFAULT_OLLAMA_URL = "http://localhost:11434"
TRANSIENT_STATUS = {408, 429, 500, 502, 503, 504}


def ollama_base_url(spec: ModelSpec) -> str:
    return (spec.base_url or DEFAULT_OLLAMA_URL).rstrip("/")


def same_model(a: str, b: str) -> bool:
    """Ollama names ``llama3.2`` and ``llama3.2:latest`` the same model."""
    def norm(name: str) -> str:
        name = name.strip()
        return name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"

    return norm(a) == norm(b)


class OllamaChatModel(ChatModel):
    provider = "ollama"

    def __init__(self, spec: ModelSpec, role: str):
        if not spec.model.strip():
            raise ConfigError(Message("models.{role}.model: name the Ollama model to use, e.g. 'llama3.2:3b'", role))
        super().__init__(role=role, model_name=spec.model.strip(), context_window=spec.num_ctx,
                         max_tokens=spec.max_tokens, retries=spec.retries, read_timeout_s=spec.read_timeout_s)
        self.spec = spec
        self.base_url = ollama_base_url(spec)
        self._clients = PerLoop(self._build)

    def _build(self) -> ChatOllama:
        from langchain_ollama import ChatOllama

        return ChatOllama(
            base_url=self.base_url,
            model=self.model_name,
            num_ctx=self.spec.num_ctx,
            num_predict=self.spec.max_tokens,
            temperature=self.spec.temperature,
            keep_alive=self.spec.keep_alive,
            client_kwargs={"timeout": http_timeout(self.spec.read_timeout_s, self.spec.connect_timeout_s)},
        )

    def _options(self, max_tokens: int, stop: list[str]) -> dict[str, Any]:
        options: dict[str, Any] = {
            "num_ctx": self.spec.num_ctx,
            "num_predict": int(max_tokens),
            "temperature": self.spec.temperature,
        }
        if stop:
            options["stop"] = list(stop)
        return options

    def _warn_if_too_long(self, messages: Messages, max_tokens: int) -> None:
        prompt = estimate_messages_tokens(messages)
        if prompt + max_tokens > self.spec.num_ctx:
            log.warning("%s/%s: prompt (~%d tokens) + answer (%d) may exceed num_ctx=%d; Ollama would truncate it",
                        self.role, self.model_name, prompt, max_tokens, self.spec.num_ctx)

    async def _stream(self, messages: Messages, max_tokens: int, stop: list[str], on_token: TokenCallback | None,
                      format: Any = None) -> tuple[str, Usage]:
        self._warn_if_too_long(messages, max_tokens)
        kwargs: dict[str, Any] = {"options": self._options(max_tokens, stop)}
        if format is not None:
            kwargs["format"] = format
        return await stream_chat(self._clients.get(), messages, kwargs, read_timeout_s=self.spec.read_timeout_s,
                                 stalled=self._stalled, max_tokens=max_tokens, on_token=on_token)

    def _stalled(self) -> ModelError:
        return self._error(
            Message("Ollama at {self.base_url} sent nothing for {chunk_timeout(self.spec.read_timeout_s)}s",
                    self.base_url, f'{chunk_timeout(self.spec.read_timeout_s):g}'),
            cls=ModelUnavailable,
            fix=Message("check that Ollama is not stuck (restart it), or raise read_timeout_s for a slow model"),
        )

    async def _stream_text(self, messages: Messages, max_tokens: int, stop: list[str],
                           on_token: TokenCallback) -> tuple[str, Usage]:
        return await self._stream(messages, max_tokens, stop, on_token)

    async def _generate_json(self, messages: Messages, schema: type[BaseModel],
                             max_tokens: int) -> tuple[str, Usage]:
        return await self._stream(messages, max_tokens, [], None, format=schema.model_json_schema())

    async def aclose(self) -> None:
        llm = self._clients.clear()
        client = getattr(llm, "_async_client", None) if llm is not None else None
        inner = getattr(client, "_client", None)
        if inner is not None:
            await inner.aclose()

    def _classify(self, exc: BaseException) -> Classified | None:
        return classify_ollama_error(exc, self)


def classify_ollama_error(exc: BaseException, model: OllamaChatModel) -> Classified | None:
    response_errors: tuple[type[Exception], ...]
    try:
        from ollama import ResponseError

        response_errors = (ResponseError,)
    except ImportError:  # pragma: no cover - langchain-ollama depends on it
        response_errors = ()

    url, name, timeout = model.base_url, model.model_name, model.spec.read_timeout_s
    if isinstance(exc, http_errors("ConnectTimeout")):
        return Classified(model._error(
            Message("Ollama at {url} did not accept the connection within {model.spec.connect_timeout_s}s",
                    url, f'{model.spec.connect_timeout_s:g}'),
            cls=ModelUnavailable, fix=Message("start Ollama (`ollama serve`) and check base_url and the network")))
    if isinstance(exc, (*http_errors("ConnectError"), ConnectionRefusedError)) or type(exc) is ConnectionError:
        return Classified(model._error(Message("cannot reach Ollama at {url}", url), cls=ModelUnavailable,
                                       fix=Message("start Ollama (`ollama serve`), or correct base_url")))
    if isinstance(exc, (*http_errors("ReadTimeout", "WriteTimeout", "PoolTimeout"), TimeoutError)):
        return Classified(model._error(
            Message("Ollama at {url} accepted the request but sent nothing for {timeout}s", url, f'{timeout:g}'),
            cls=ModelUnavailable,
            fix=Message("check that Ollama is not stuck (restart it), or raise read_timeout_s for a slow model")))
    if isinstance(exc, (*http_errors("RemoteProtocolError", "ReadError", "WriteError"), ConnectionResetError)):
        return Classified(model._error(Message("Ollama at {url} dropped the connection ({type(exc).__name__})",
                                               url, type(exc).__name__),
                                       cls=ModelUnavailable, fix=Message("check the Ollama server's log")), transient=True)
    if response_errors and isinstance(exc, response_errors):
        status = getattr(exc, "status_code", -1)
        detail = str(getattr(exc, "error", exc))
        if status == 404 or "not found" in detail.lower():
            return Classified(model._error(Message("model {name} is not on the Ollama server at {url} ({detail})",
                                                   f'{name!r}', url, detail),
                                           cls=ModelUnavailable, fix=Message("ollama pull {name}", name)))
        if "context" in detail.lower() and ("length" in detail.lower() or "exceed" in detail.lower()):
            return Classified(model._error(Message("Ollama rejected the prompt: {detail}", detail), fix=Message("raise num_ctx")))
        transient = status in TRANSIENT_STATUS
        return Classified(model._error(Message("Ollama answered with an error (status {status}): {detail}",
                                               status, detail),
                                       cls=ModelUnavailable if transient else ModelError,
                                       fix=Message("check the Ollama server's log")), transient=transient)
    if isinstance(exc, (json.JSONDecodeError, ValidationError)):
        return Classified(model._error(Message("Ollama at {url} sent a malformed answer ({type(exc).__name__}: "
                                               "{exc})",
                                               url, type(exc).__name__, exc),
                                       fix=Message("check that base_url points at an Ollama server")))
    if isinstance(exc, http_errors("HTTPError")):
        return Classified(model._error(Message("HTTP error talking to Ollama at {url}: {type(exc).__name__}: {exc}",
                                               url, type(exc).__name__, exc),
                                       cls=ModelUnavailable), transient=False)
    return None
