"""Building chat models from settings, one per role, and listing the models a server offers."""

from __future__ import annotations

import sys
import threading
from typing import Any, TypedDict

from courtroom_desktop.core.config import ROLES, AppConfig, ModelSettings, ModelSpec
from courtroom_desktop.core.errors import ConfigError, ModelError, ModelUnavailable
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.llm.base import ChatModel

#: Listing models is quick on any healthy server: never wait long for it.
LIST_READ_TIMEOUT_S = 15.0


def build_chat_model(spec: ModelSpec, role: str, **kwargs: Any) -> ChatModel:
    """A chat model for ``role`` as ``spec`` describes. Nothing is loaded or contacted yet.
    ``kwargs`` reach the provider (``api_key=`` / ``data_dir=`` for openai)."""
    if role not in ROLES:
        raise ConfigError(Message("unknown role {role}: use one of {', '.join(ROLES)}", f'{role!r}', ', '.join(ROLES)))
    if spec.provider == "embedded":
        from courtroom_desktop.core.llm.embedded import EmbeddedChatModel

        return EmbeddedChatModel(spec, role)
    if spec.provider == "ollama":
        from courtroom_desktop.core.llm.ollama import OllamaChatModel

        return OllamaChatModel(spec, role)
    if spec.provider == "openai":
        from courtroom_desktop.core.llm.openai_compat import OpenAIChatModel

        return OpenAIChatModel(spec, role, **kwargs)
    raise ConfigError(Message("models.{role}.provider: unknown provider {spec.provider}", role, f'{spec.provider!r}'))


def release_loaded_models() -> None:
    """Free every embedded llama.cpp model this process loaded (at the window's close, not during interpreter
    shutdown); nothing when none was loaded (the embedded wrapper is not imported for it)."""
    embedded = sys.modules.get("courtroom_desktop.core.llm.embedded")
    if embedded is not None:
        embedded.unload_all()


class ModelRouter:
    """The chat model for each role, built on first use and cached. Roles whose specs name the same embedded GGUF
    share one loaded model (see ``embedded.shared_llama``).

    ``overrides`` replaces roles with ready-made models (a ScriptedChatModel in engine tests)."""

    def __init__(self, models: ModelSettings | AppConfig | None = None, *,
                 overrides: dict[str, ChatModel] | None = None, data_dir: Any = None):
        if isinstance(models, AppConfig):
            models = models.models
        self.settings: ModelSettings = models or ModelSettings()
        self._data_dir = data_dir
        self._models: dict[str, ChatModel] = {}
        self._lock = threading.Lock()
        for role, model in (overrides or {}).items():
            if role not in ROLES:
                raise ConfigError(Message("unknown role {role}: use one of {', '.join(ROLES)}",
                                          f'{role!r}', ', '.join(ROLES)))
            self._models[role] = model

    def spec_for(self, role: str) -> ModelSpec:
        return self.settings.for_role(role)

    def for_role(self, role: str) -> ChatModel:
        with self._lock:
            model = self._models.get(role)
            if model is None:
                spec = self.spec_for(role)
                kwargs = {"data_dir": self._data_dir} if spec.provider == "openai" else {}
                model = build_chat_model(spec, role, **kwargs)
                self._models[role] = model
            return model

    def all(self) -> dict[str, ChatModel]:
        return {role: self.for_role(role) for role in ROLES}

    async def aclose(self) -> None:
        with self._lock:
            models, self._models = list(self._models.values()), {}
        for model in models:
            await model.aclose()


class _Where(TypedDict):
    """Where a listing failed: the keyword arguments every error of ``list_models`` carries."""

    provider: str
    model: str


async def list_models(spec: ModelSpec, *, api_key: str | None = None, data_dir: Any = None) -> list[str]:
    """What the server offers: Ollama's /api/tags, an OpenAI-style /models, or for embedded the bundled GGUF (and
    spec.model when it names another file). Raises ModelUnavailable with the fix when the server cannot answer."""
    if spec.provider == "embedded":
        from courtroom_desktop.core.llm.embedded import bundled_gguf_path, resolve_gguf

        out: list[str] = []
        try:
            out.append(str(bundled_gguf_path()))
        except ModelUnavailable:
            if not spec.model:
                raise
        if spec.model:
            chosen = str(resolve_gguf(spec.model))
            if chosen not in out:
                out.append(chosen)
        return out

    import httpx

    if spec.provider == "ollama":
        from courtroom_desktop.core.llm.ollama import ollama_base_url

        base = ollama_base_url(spec)
        url, headers, name = f"{base}/api/tags", {}, "Ollama"
        start_fix = Message("start Ollama (`ollama serve`), or correct base_url")
    elif spec.provider == "openai":
        if not spec.base_url:
            raise ConfigError(Message("an OpenAI-compatible provider needs base_url, e.g. http://127.0.0.1:8000/v1"))
        base = spec.base_url.rstrip("/")
        url, name = f"{base}/models", "the server"
        if api_key is None:
            from courtroom_desktop.core.secrets import get_api_key

            api_key = get_api_key(base, data_dir=data_dir)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        start_fix = Message("start the server, or correct base_url")
    else:
        raise ConfigError(Message("unknown provider {spec.provider}", f'{spec.provider!r}'))

    timeout = httpx.Timeout(min(spec.read_timeout_s, LIST_READ_TIMEOUT_S), connect=spec.connect_timeout_s)
    where: _Where = {"provider": spec.provider, "model": spec.model}
    try:
        async with httpx.AsyncClient(timeout=timeout) as client:
            response = await client.get(url, headers=headers)
    except httpx.ConnectTimeout:
        raise ModelUnavailable(Message("{name} at {base} did not accept the connection within "
                                       "{spec.connect_timeout_s}s",
                                       name, base, f'{spec.connect_timeout_s:g}'), fix=start_fix, **where) from None
    except httpx.ConnectError:
        raise ModelUnavailable(Message("cannot reach {name} at {base}", name, base), fix=start_fix, **where) from None
    except httpx.TimeoutException:
        raise ModelUnavailable(Message("{name} at {base} did not answer {url} in time", name, base, url),
                         fix=Message("check that the server is not stuck"), **where) from None
    except httpx.HTTPError as exc:
        raise ModelUnavailable(Message("talking to {name} at {base} failed: {type(exc).__name__}: {exc}",
                                       name, base, type(exc).__name__, exc),
                         fix=Message("check the server and base_url"), **where) from None
    if response.status_code in (401, 403):
        raise ModelUnavailable(Message("{base} refused the API key (status {response.status_code})",
                                       base, response.status_code),
                         fix=Message("wrong API key: store the right one with `keyring set courtroom-desktop "
                                     "{base}`",
                                     base),
                         **where)
    if response.status_code == 404:
        fix = Message("base_url should be the API root, usually ending in /v1") if spec.provider == "openai" else (
            Message("base_url should point at Ollama, e.g. http://localhost:11434"))
        raise ModelUnavailable(Message("{url} does not exist (404)", url), fix=fix, **where)
    if response.status_code >= 400:
        from courtroom_desktop.core.secrets import redact

        detail = redact(response.text[:200], api_key) if spec.provider == "openai" else response.text[:200]
        raise ModelUnavailable(Message("{url} answered status {response.status_code}: {detail}",
                                       url, response.status_code, detail),
                         fix=Message("check the server's log"), **where)
    try:
        body = response.json()
        if spec.provider == "ollama":
            return [str(m.get("name") or m.get("model")) for m in body.get("models", [])]
        return [str(m["id"]) for m in body.get("data", [])]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ModelError(Message("{url} did not answer like {name} ({type(exc).__name__})",
                                 url, name, type(exc).__name__),
                         fix=Message("check that base_url points at the right kind of server"), **where) from None
