"""An embedder behind an HTTP endpoint, with the interface of ``embedder.Embedder`` (name, batch, identity, dim,
encode, covers):

    ollama   POST {base}/api/embed      {"model", "input": [texts], "truncate": true} -> {"embeddings": [[...], ...]}
    openai   POST {base}/embeddings     {"model", "input": [texts], "encoding_format": "float"}
                                        -> {"data": [{"index", "embedding"}, ...]}   (base ends in /v1)

``identity`` is what the library records its vectors under: 'ollama:bge-m3@http://127.0.0.1:11434', so the vectors
of two servers (which may serve different weights under one name) never mix, nor do they share the embedding cache.
The dimension is learnt from the first answer (``dim`` asks with a short probe text when nothing was embedded yet);
every later answer must have it. Vectors come back normalised float32, in the order of the texts.

Each batch gets ``timeout_s`` to answer and is retried once (after a connection error, a timeout or a 5xx answer).
Errors are ``LibraryError``s that name the setting, the URL and what to do: the server is down, does not answer in
time, answers with an error, with something that is not JSON, with the wrong number of vectors or the wrong
dimension. The API key (``core.secrets``, per base URL, as the chat models keep theirs) is sent as a bearer token when
one is stored, and never logged; a server that quotes it in an error message has it masked.

Which languages it reads (``covers``): the ``library.embedding_languages`` setting; empty means every language (an
endpoint model such as bge-m3 is assumed multilingual; see ``core.embedder_settings``).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import TYPE_CHECKING, Any

import numpy as np

from courtroom_desktop.core.embedder_settings import LANGUAGES
from courtroom_desktop.core.errors import LibraryError
from courtroom_desktop.core.lexicon.message import Message

if TYPE_CHECKING:
    import httpx

log = logging.getLogger(__name__)

PROBE = "dimension probe"
KINDS = {"ollama": "Ollama", "openai": "OpenAI-compatible"}


class RemoteEmbedder:
    """Embeddings from an Ollama or OpenAI-compatible server. Thread-safe (one httpx client, shared)."""

    def __init__(self, provider: str, model: str, base_url: str, *, batch: int = 32, timeout_s: float = 60.0,
                 connect_timeout_s: float = 5.0, languages: frozenset[str] | None = None, api_key: str | None = None,
                 data_dir: str | os.PathLike[str] | None = None, retry_pause_s: float = 0.5):
        if provider not in KINDS:
            raise LibraryError(Message("library.embedder = {provider}: an endpoint embedder is 'ollama' or 'openai'",
                                       f'{provider!r}'))
        self.provider = provider
        self.name = model.strip()
        self.base_url = base_url.strip().rstrip("/")
        self.batch = max(int(batch), 1)
        self.timeout_s = float(timeout_s)
        self.connect_timeout_s = float(connect_timeout_s)
        self.languages = languages
        self.retry_pause_s = retry_pause_s
        self._api_key = api_key
        self._data_dir = data_dir
        self._dim: int | None = None
        self._client: httpx.Client | None = None
        self._lock = threading.Lock()
        self.requests = 0  # HTTP requests sent (retries included)

    # ---------------------------------------------------------------- what it is
    @property
    def identity(self) -> str:
        return f"{self.provider}:{self.name}@{self.base_url}"

    @property
    def endpoint(self) -> str:
        return f"{self.base_url}/api/embed" if self.provider == "ollama" else f"{self.base_url}/embeddings"

    @property
    def where(self) -> str:
        """'the Ollama embedding server at http://...' for messages."""
        return f"the {KINDS[self.provider]} embedding server at {self.base_url}"

    def covers(self, text: str) -> bool:
        if self.languages is None or set(self.languages) >= set(LANGUAGES):
            return True
        from courtroom_desktop.core.text import language_of

        return language_of(text) in self.languages

    @property
    def dim(self) -> int:
        if self._dim is None:
            self.encode([PROBE])
        assert self._dim is not None
        return self._dim

    # ---------------------------------------------------------------- embedding
    def encode(self, texts: list[str]) -> np.ndarray:
        texts = [str(t) for t in texts]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [self._encode_batch(texts[start:start + self.batch]) for start in range(0, len(texts), self.batch)]
        return np.concatenate(parts).astype(np.float32, copy=False)

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        if self.provider == "ollama":
            body = {"model": self.name, "input": texts, "truncate": True}
        else:
            body = {"model": self.name, "input": texts, "encoding_format": "float"}
        answer = self._post(body)
        vectors = self._vectors(answer, len(texts))
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        if not np.all(np.isfinite(vectors)) or np.any(norms == 0):
            raise self._error(Message("answered with a zero or non-finite vector"), Message("check the model on the server"))
        normalised: np.ndarray = (vectors / norms).astype(np.float32)
        return normalised

    def _vectors(self, answer: Any, count: int) -> np.ndarray:
        try:
            if self.provider == "ollama":
                rows = answer["embeddings"]
            else:
                rows = [item["embedding"] for item in sorted(answer["data"], key=lambda item: int(item["index"]))]
            if len(rows) != count:
                raise self._error(Message("answered {len(rows)} vectors for {count} texts", len(rows), count),
                                  Message("check that the URL and the model are those of an embedding server"))
            vectors = np.asarray(rows, dtype=np.float32)
        except LibraryError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            field = "embeddings" if self.provider == "ollama" else "data[].embedding"
            raise self._error(Message("answered without the expected {field} list ({type(exc).__name__}: {exc})",
                                      f'{field!r}', type(exc).__name__, exc),
                              Message("check that the URL and the model are those of an embedding server")) from None
        if vectors.ndim != 2 or vectors.shape[1] == 0:
            raise self._error(Message("answered vectors of uneven or zero length"), Message("check the model on the server"))
        with self._lock:
            if self._dim is None:
                self._dim = int(vectors.shape[1])
                log.info("embedding with %s (%s): %d dimensions", self.name, self.base_url, self._dim)
            elif vectors.shape[1] != self._dim:
                raise self._error(Message("answered {vectors.shape[1]}-dimensional vectors where its first answer "
                                          "had {self._dim}",
                                          vectors.shape[1], self._dim), Message("the model on the server changed: re-embed the library "
                                                          "(`courtroom library reindex`)"))
        return vectors

    # ---------------------------------------------------------------- HTTP
    def _key(self) -> str | None:
        if self._api_key:
            return self._api_key
        from courtroom_desktop.core.secrets import get_api_key

        try:
            return get_api_key(self.base_url, data_dir=self._data_dir)
        except Exception:  # noqa: BLE001 - no key store: send none (a local server needs none)
            return None

    def _http(self) -> httpx.Client:
        with self._lock:
            if self._client is None:
                import httpx

                headers: dict[str, str] = {}
                key = self._key()
                if key:
                    headers["Authorization"] = f"Bearer {key}"
                self._client = httpx.Client(timeout=httpx.Timeout(self.timeout_s, connect=self.connect_timeout_s),
                                            headers=headers)
            return self._client

    def _post(self, body: dict[str, Any]) -> Any:
        import httpx

        client = self._http()
        for attempt in (1, 2):
            self.requests += 1
            try:
                response = client.post(self.endpoint, json=body)
            except httpx.TimeoutException as exc:
                problem = self._error(Message("gave no answer within {self.timeout_s} s ({type(exc).__name__}), "
                                              "twice",
                                              f'{self.timeout_s:g}', type(exc).__name__),
                                      Message("check the server, or raise library.embedding_timeout_s"))
            except httpx.HTTPError as exc:
                problem = self._error(Message("cannot be reached ({type(exc).__name__}: {exc})",
                                              type(exc).__name__, exc),
                                      Message("start the server, or correct library.embedding_url (Settings → "
                                              "Library)"))
            else:
                if response.status_code >= 500:
                    problem = self._error(Message("answered HTTP {response.status_code}: {self._said(response)}",
                                                  response.status_code, self._said(response)),
                                          Message("check the server's log"))
                elif response.status_code >= 400:
                    raise self._error(Message("answered HTTP {response.status_code}: {self._said(response)}",
                                              response.status_code, self._said(response)),
                                      self._fix_for(response.status_code))
                else:
                    try:
                        return response.json()
                    except ValueError:
                        raise self._error(Message("answered something that is not JSON ({self._said(response)})",
                                                  f'{self._said(response)!r}'),
                                          Message("check that the URL is that of the embedding API")) from None
            if attempt == 1:
                log.info("embedding request to %s failed (%s): retrying once", self.endpoint, problem.reason)
                time.sleep(self.retry_pause_s)
        raise problem

    def _said(self, response: httpx.Response) -> str:
        from courtroom_desktop.core.secrets import redact

        text = " ".join(response.text.split())[:200]
        return redact(text, self._api_key or self._stored_key_quietly())

    def _stored_key_quietly(self) -> str | None:
        try:
            return self._key()
        except Exception:  # noqa: BLE001
            return None

    def _fix_for(self, status: int) -> str:
        if status in (401, 403):
            return "store the server's API key (Settings → Library → API key) or check it"
        if status == 404:
            return (f"check library.embedding_model ({self.name!r}: "
                    + ("`ollama pull` it" if self.provider == "ollama" else "a model the server serves")
                    + ") and library.embedding_url")
        return "check library.embedding_model and library.embedding_url"

    def _error(self, what: str, fix: str) -> LibraryError:
        reason = Message("{self.where} ({self.endpoint}, library.embedder = {self.provider}, model {self.name}) "
                         "{what}",
                         self.where, self.endpoint, f'{self.provider!r}', f'{self.name!r}', what)
        return LibraryError(Message("{reason}: {fix}", reason, fix), reason=reason, fix=fix)

    def __enter__(self) -> RemoteEmbedder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None
