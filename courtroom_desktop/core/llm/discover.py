"""Finding the model servers on this computer, what models they have, and which model each role should use.

    detection = await detect()            # every usual local server probed at once; well under 2 s with none running
    detection.servers                     # [Server(name="Ollama", models=[FoundModel(...), ...]), ...]
    proposal = propose(detection.models(), config.models, config.library.embedding_model)
    proposal.lines                        # one line per role saying why
    proposal.settings(config.models)      # the ModelSettings to save

Probed, all concurrently, each with a short connect timeout (``CONNECT_TIMEOUT_S``): Ollama (``OLLAMA_HOST`` or
http://127.0.0.1:11434: ``GET /api/tags``, then ``POST /api/show`` per model for its context length), and
OpenAI-compatible servers on their usual ports (``GET /v1/models``): LM Studio 1234, llama.cpp's server 8080,
vLLM 8000, and Ollama's own /v1 (dropped when Ollama's native API answered on the same port).
``COURTROOM_MODEL_SERVERS``, when set, replaces those places (``ollama=http://host:port,openai=http://host:port/v1``;
``none``: look nowhere, as the window's tests do).

The proposal: the judge gets the strongest model (parameter count, else file size; chat and instruct models before
base models; never an embedding model), counsel (prosecution and defense, always the same model, so neither side
argues with a stronger one) the second strongest, or the judge's when the next is too small; the embedder stays as
configured (another embedding model means re-indexing the library).
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from courtroom_desktop.core.config import ModelSettings, ModelSpec

if TYPE_CHECKING:
    import httpx

CONNECT_TIMEOUT_S = 0.5
READ_TIMEOUT_S = 1.5
#: At most this many models per server are asked for details (Ollama's /api/show), all at once.
MAX_DETAILS = 48
#: Counsel below this many parameters (billions) argue poorly: counsel then shares the judge's model.
MIN_COUNSEL_B = 1.0
#: The context the proposal asks for (Ollama's num_ctx); large enough for courtroom prompts, small enough to fit.
PROPOSED_NUM_CTX = 8192
MIN_NUM_CTX = 4096
DEFAULT_OLLAMA = "http://127.0.0.1:11434"


@dataclass(frozen=True)
class Probe:
    """Where to look: ``kind`` ollama (native API) or openai (``base_url`` ends in /v1), and what the server is."""

    kind: str
    base_url: str
    server: str


@dataclass
class FoundModel:
    server: str                     # "Ollama", "LM Studio", ...
    provider: str                   # the ModelSpec provider: "ollama" or "openai"
    base_url: str                   # the server's URL as a ModelSpec wants it ("" for Ollama's default)
    name: str
    size_bytes: int | None = None
    parameters_b: float | None = None   # billions of parameters, when the server or the name says
    parameter_label: str = ""           # as the server writes it: "14.8B", "135M"
    family: str = ""
    quantization: str = ""
    context_length: int | None = None
    embedding: bool = False
    chat: bool | None = None            # True: instruct/chat, False: a base model, None: not said

    @property
    def strength(self) -> float:
        """Billions of parameters, or an estimate from the file size (about 0.6 bytes a parameter at 4 bits)."""
        if self.parameters_b:
            return self.parameters_b
        if self.size_bytes:
            return self.size_bytes / (bytes_per_parameter(self.quantization) * 1e9)
        return 0.0

    def facts(self) -> str:
        """'14.8B, Q4_K_M, 32k context' (what is known)."""
        parts = []
        if self.parameter_label or self.parameters_b:
            parts.append(self.parameter_label or f"{self.parameters_b:.1f}B")
        elif self.size_bytes:
            parts.append(human_bytes(self.size_bytes))
        if self.quantization:
            parts.append(self.quantization)
        if self.context_length:
            parts.append(f"{context_words(self.context_length)} context")
        return ", ".join(parts)

    def spec(self, base: ModelSpec) -> ModelSpec:
        """``base`` (timeouts, temperature, ...) pointed at this model."""
        data = base.model_dump()
        data.update(provider=self.provider, model=self.name, base_url=self.base_url)
        if self.provider == "ollama":
            # Ollama sizes the context per request: ask for enough, never more than the model was trained for when
            # that is at least the courtroom's minimum
            wanted = PROPOSED_NUM_CTX if not self.context_length else min(self.context_length, PROPOSED_NUM_CTX)
            data["num_ctx"] = max(MIN_NUM_CTX, wanted)
        elif self.context_length:
            data["num_ctx"] = max(512, min(self.context_length, PROPOSED_NUM_CTX))
        return ModelSpec.model_validate(data)

    def override(self) -> str:
        """The ``--model`` / ``courtroom models use`` form: 'ollama:qwen2.5:14b'."""
        return f"{self.provider}:{self.name}"


@dataclass
class Server:
    name: str
    provider: str
    base_url: str        # where it was found (the URL probed)
    models: list[FoundModel] = field(default_factory=list)


@dataclass
class Detection:
    servers: list[Server]
    probed: list[Probe]
    seconds: float

    def models(self) -> list[FoundModel]:
        return [m for s in self.servers for m in s.models]


# ---------------------------------------------------------------------------- words and numbers

def human_bytes(n: int | float | None) -> str:
    if not n:
        return ""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{int(n)} B"


def context_words(tokens: int) -> str:
    """32768 -> '32k', 131072 -> '128k', 4000 -> '4000'."""
    return f"{tokens // 1024}k" if tokens >= 1024 and tokens % 1024 == 0 else str(tokens)


def bytes_per_parameter(quantization: str) -> float:
    q = quantization.upper()
    for marker, size in (("Q2", 0.35), ("Q3", 0.45), ("Q4", 0.58), ("IQ4", 0.55), ("Q5", 0.7), ("Q6", 0.82),
                         ("Q8", 1.07), ("F16", 2.0), ("BF16", 2.0), ("F32", 4.0), ("FP16", 2.0), ("AWQ", 0.6),
                         ("GPTQ", 0.6)):
        if marker in q:
            return size
    return 0.6


_PARAMS = re.compile(r"(?<![a-z0-9.])(?:(\d+)x)?(\d+(?:\.\d+)?)\s*([bm])(?![a-z])", re.IGNORECASE)
_QUANT = re.compile(r"(?<![a-z0-9])((?:i?q\d(?:_[a-z0-9]+)*)|f16|bf16|fp16|f32|fp8|int8|int4|awq|gptq)(?![a-z0-9])",
                    re.IGNORECASE)


def parameters_from_label(label: str) -> float | None:
    """'14.8B' -> 14.8, '135M' -> 0.135, '8x7b' -> 56 (billions); None when the text names no size."""
    match = _PARAMS.search(label or "")
    if not match:
        return None
    experts = int(match.group(1) or 1)
    value = float(match.group(2)) * experts
    return value if match.group(3).lower() == "b" else value / 1000


def quantization_from_name(name: str) -> str:
    match = _QUANT.search(name.replace("-", "_") if name else "")
    return match.group(1).upper() if match else ""


def chat_from_name(name: str) -> bool | None:
    """True for instruct and chat models, False for base and text-completion ones, None when the name says neither."""
    lowered = name.lower()
    if re.search(r"instruct|chat|(?<![a-z])it(?![a-z])|assistant|hermes|dolphin|-sft|-dpo", lowered):
        return True
    if re.search(r"(?<![a-z])(base|text|pretrain(ed)?)(?![a-z])", lowered):
        return False
    return None


def embedding_from(name: str, family: str = "", families: list[str] | None = None,
                   capabilities: list[str] | None = None) -> bool:
    if capabilities:
        caps = {c.lower() for c in capabilities}
        if "embedding" in caps and "completion" not in caps:
            return True
        if "completion" in caps:
            return False
    words = " ".join([name, family, *(families or [])]).lower()
    return any(w in words for w in ("embed", "bert", "minilm", "bge-", "gte-", "e5-", "rerank"))


# ---------------------------------------------------------------------------- where to look

def ollama_root(value: str) -> str:
    """OLLAMA_HOST as Ollama reads it: 'host', 'host:port' or a URL; 0.0.0.0 (listen everywhere) means here."""
    value = value.strip()
    if "://" not in value:
        value = f"http://{value}"
    parts = urlsplit(value)
    host = parts.hostname or "127.0.0.1"
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    port = parts.port or 11434
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme or 'http'}://{host}:{port}"


def default_probes() -> list[Probe]:
    """Ollama (native and /v1), LM Studio, llama.cpp's server and vLLM on this computer; or, when
    ``COURTROOM_MODEL_SERVERS`` is set, the servers it names instead (``none``: no probe at all)."""
    chosen = os.environ.get("COURTROOM_MODEL_SERVERS")
    if chosen is not None:
        probes = []
        for item in filter(None, (p.strip() for p in chosen.split(","))):
            kind, _, url = item.partition("=")
            if kind in ("ollama", "openai") and url:
                root = url.rstrip("/")
                probes.append(Probe(kind, ollama_root(root) if kind == "ollama" else root,
                                    "Ollama" if kind == "ollama" else f"server at {root}"))
        return probes
    ollama = ollama_root(os.environ.get("OLLAMA_HOST", "") or DEFAULT_OLLAMA)
    return [
        Probe("ollama", ollama, "Ollama"),
        Probe("openai", f"{ollama}/v1", "Ollama (OpenAI API)"),
        Probe("openai", "http://127.0.0.1:1234/v1", "LM Studio"),
        Probe("openai", "http://127.0.0.1:8080/v1", "llama.cpp server"),
        Probe("openai", "http://127.0.0.1:8000/v1", "vLLM"),
    ]


def _same_server(a: str, b: str) -> bool:
    pa, pb = urlsplit(a), urlsplit(b)
    local = {"localhost", "127.0.0.1", "::1"}
    host_a = "127.0.0.1" if pa.hostname in local else pa.hostname
    host_b = "127.0.0.1" if pb.hostname in local else pb.hostname
    return (host_a, pa.port) == (host_b, pb.port)


def _config_url(probe: Probe) -> str:
    """What a ModelSpec should say: nothing for Ollama at its default address, else the URL."""
    if probe.kind == "ollama" and _same_server(probe.base_url, DEFAULT_OLLAMA):
        return ""
    return probe.base_url


# ---------------------------------------------------------------------------- probing

async def detect(probes: list[Probe] | None = None, *, connect_timeout_s: float = CONNECT_TIMEOUT_S,
                 read_timeout_s: float = READ_TIMEOUT_S) -> Detection:
    """Every probe at once; servers that do not answer (or do not answer like a model server) are left out."""
    import httpx

    probes = default_probes() if probes is None else list(probes)
    start = time.perf_counter()
    timeout = httpx.Timeout(read_timeout_s, connect=connect_timeout_s)
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=16)
    # plain http on this computer needs no certificates (loading them costs a few hundred ms on a slow machine)
    tls = any(p.base_url.startswith("https:") for p in probes)
    async with httpx.AsyncClient(timeout=timeout, limits=limits, trust_env=False, verify=tls) as client:
        found = await asyncio.gather(*(_probe(client, p) for p in probes))
    servers = [s for s in found if s is not None]
    natives = [s for s in servers if s.provider == "ollama"]
    servers = [s for s in servers if s.provider == "ollama"
               or not any(_same_server(s.base_url, n.base_url) for n in natives)]
    return Detection(servers, probes, time.perf_counter() - start)


def detect_blocking(probes: list[Probe] | None = None, **kwargs: float) -> Detection:
    """:func:`detect` in a fresh event loop: for a worker thread (the window) or a plain script."""
    return asyncio.run(detect(probes, **kwargs))


async def _probe(client: httpx.AsyncClient, probe: Probe) -> Server | None:
    try:
        if probe.kind == "ollama":
            return await _probe_ollama(client, probe)
        return await _probe_openai(client, probe)
    except Exception:  # noqa: BLE001 - nothing there, or not a model server: not found
        return None


async def _probe_ollama(client: httpx.AsyncClient, probe: Probe) -> Server | None:
    response = await client.get(f"{probe.base_url}/api/tags")
    if response.status_code != 200:
        return None
    entries = response.json().get("models")
    if not isinstance(entries, list):
        return None
    server = Server(probe.server, "ollama", probe.base_url)
    url = _config_url(probe)
    for entry in entries[:500]:
        if not isinstance(entry, dict):
            continue
        name = str(entry.get("name") or entry.get("model") or "")
        if not name:
            continue
        details = entry.get("details") or {}
        label = str(details.get("parameter_size") or "")
        families = details.get("families") or []
        server.models.append(FoundModel(
            server=probe.server, provider="ollama", base_url=url, name=name,
            size_bytes=int(entry["size"]) if isinstance(entry.get("size"), int) and entry["size"] > 0 else None,
            parameters_b=parameters_from_label(label) or parameters_from_label(name),
            parameter_label=_tidy_label(label), family=str(details.get("family") or ""),
            quantization=str(details.get("quantization_level") or quantization_from_name(name)),
            embedding=embedding_from(name, str(details.get("family") or ""), list(families)),
            chat=chat_from_name(name),
        ))
    await asyncio.gather(*(_ollama_details(client, probe, m) for m in server.models[:MAX_DETAILS]))
    return server


async def _ollama_details(client: httpx.AsyncClient, probe: Probe, model: FoundModel) -> None:
    """/api/show: the context length (``<arch>.context_length``), the exact parameter count and the capabilities."""
    try:
        response = await client.post(f"{probe.base_url}/api/show", json={"model": model.name})
        if response.status_code != 200:
            return
        body = response.json()
    except Exception:  # noqa: BLE001 - details are optional
        return
    info = body.get("model_info") or {}
    if isinstance(info, dict):
        for key, value in info.items():
            if key.endswith(".context_length") and isinstance(value, int) and value > 0:
                model.context_length = value
        count = info.get("general.parameter_count")
        if isinstance(count, int) and count > 0:
            model.parameters_b = count / 1e9
    capabilities = body.get("capabilities")
    if isinstance(capabilities, list) and capabilities:
        model.embedding = embedding_from(model.name, model.family, None, [str(c) for c in capabilities])


def _tidy_label(label: str) -> str:
    """Ollama writes '135.00M' or '14.8B': drop zero decimals."""
    match = re.fullmatch(r"(\d+)(?:\.0+)?([A-Za-z]+)", label.strip())
    return f"{match.group(1)}{match.group(2)}" if match else label.strip()


async def _probe_openai(client: httpx.AsyncClient, probe: Probe) -> Server | None:
    response = await client.get(f"{probe.base_url}/models")
    if response.status_code != 200:
        return None
    data = response.json().get("data")
    if not isinstance(data, list):
        return None
    server = Server(probe.server, "openai", probe.base_url)
    for entry in data[:500]:
        if not isinstance(entry, dict) or not entry.get("id"):
            continue
        name = str(entry["id"])
        meta = entry.get("meta")  # llama.cpp's server
        if not isinstance(meta, dict):
            meta = {}
        params = meta.get("n_params")
        context = (entry.get("max_model_len") or entry.get("context_length") or entry.get("max_context_length")
                   or meta.get("n_ctx_train") or meta.get("n_ctx"))
        size = meta.get("size") or entry.get("size")
        kind = str(entry.get("type") or "")  # LM Studio: llm, vlm, embeddings
        server.models.append(FoundModel(
            server=probe.server, provider="openai", base_url=_config_url(probe), name=name,
            size_bytes=int(size) if isinstance(size, int | float) and size > 0 else None,
            parameters_b=(params / 1e9) if isinstance(params, int | float) and params > 0
            else parameters_from_label(name.rsplit("/", 1)[-1]),
            family=str(entry.get("arch") or entry.get("owned_by") or ""),
            quantization=str(entry.get("quantization") or quantization_from_name(name)),
            context_length=int(context) if isinstance(context, int | float) and context > 0 else None,
            embedding="embed" in kind.lower() or embedding_from(name),
            chat=chat_from_name(name),
        ))
    return server


# ---------------------------------------------------------------------------- the proposal

@dataclass
class Proposal:
    judge: FoundModel
    counsel: FoundModel
    lines: list[str]            # one per role (and the embedder): why

    def settings(self, current: ModelSettings) -> ModelSettings:
        """``current`` with counsel's model as the default (prosecution and defense use it) and the judge's own:
        each keeps its other settings (timeouts, temperature, ...)."""
        counsel = self.counsel.spec(current.default)
        judge = self.judge.spec(current.judge or current.default)
        return ModelSettings(default=counsel, prosecution=None, defense=None,
                             judge=None if judge == counsel else judge)

    def overrides(self) -> list[str]:
        """The same as ``--model`` flags."""
        return [f"prosecution={self.counsel.override()}", f"defense={self.counsel.override()}",
                f"judge={self.judge.override()}"]


def rank(models: list[FoundModel]) -> list[FoundModel]:
    """Chat models the court can use, strongest first: never an embedding model; chat, instruct and unlabelled models
    before base ones; then parameters (or size)."""
    usable = [m for m in models if not m.embedding]
    return sorted(usable, key=lambda m: (m.chat is not False, m.strength, m.size_bytes or 0), reverse=True)


def _where(model: FoundModel, servers: set[str]) -> str:
    return f"on {model.server}" if len(servers) == 1 else f"found, on {model.server}"


def propose(models: list[FoundModel], current: ModelSettings | None = None,
            embedding_model: str = "all-MiniLM-L6-v2") -> Proposal | None:
    """Which model each role should use, and why; None when no chat model was found."""
    ranked = rank(models)
    if not ranked:
        return None
    servers = {m.server for m in ranked}
    judge = ranked[0]
    kind = "chat model" if judge.chat is not False else "model (a base model: no chat model was found)"
    facts = f" ({judge.facts()})" if judge.facts() else ""
    lines = [f"judge: {judge.name}, the largest {kind} {_where(judge, servers)}{facts}"]
    others = [m for m in ranked[1:] if not (m.name == judge.name and m.server == judge.server)]
    second = others[0] if others else None
    if second is None:
        counsel = judge
        why = "the same model as the judge (the only chat model found)"
    elif second.chat is False and judge.chat is not False:
        counsel = judge
        why = f"the same model as the judge (the next one, {second.name}, is a base model, not a chat model)"
    elif second.strength and second.strength < MIN_COUNSEL_B:
        counsel = judge
        why = (f"the same model as the judge (the next one, {second.name}, "
               f"{second.facts() or 'small'}, is too small to argue well)")
    else:
        counsel = second
        facts = f" ({second.facts()})" if second.facts() else ""
        why = f"the second largest chat model {_where(second, servers)}{facts}"
    lines.append(f"prosecution: {counsel.name}, {why}")
    lines.append(f"defense: {counsel.name}, as the prosecution: both sides argue with the same model")
    lines.append(f"embedder: {embedding_model}, as configured (another embedding model means re-indexing the "
                 "library)")
    return Proposal(judge, counsel, lines)


def nothing_found_lines(detection: Detection) -> list[str]:
    looked = ", ".join(f"{p.server} ({p.base_url})" for p in detection.probed) or "nowhere (probing is off)"
    return [f"No model server answered on this computer (looked at {looked}).",
            "Install Ollama (https://ollama.com), start it (`ollama serve`), then pull a model: "
            "`courtroom models pull qwen2.5:7b` (or the Pull button in Settings \u2192 Models)."]
