"""A small loopback server that speaks enough of Ollama's HTTP API for the provider tests (and, with faults, for
the stress harness's ``stress/faultserver.py``).

    GET  /api/tags      the models it has: ``tiny:latest`` alone, or ``catalog`` (a list of :class:`FakeModel`)
    GET  /api/version
    GET  /v1/models     the same models, as Ollama's OpenAI-compatible API lists them
    POST /api/show      model details: context length, parameter count, capabilities
    POST /api/chat      streaming NDJSON (default) or one JSON object; honours ``format`` (a JSON schema) by
                        answering with an object built from the schema unless a scripted reply is queued
    POST /api/pull      streaming progress lines ({"status", "digest", "total", "completed"}) for a name in
                        ``library`` (name -> layer sizes), then "success" and the model is listed; partial layers
                        are kept (``downloaded``), so pulling again resumes; an unknown name gets Ollama's error
                        line; ``pull_disconnect_after`` drops the connection once after that many bytes

Variants (``mode``):
    healthy        answers every chat
    hang           accepts the chat request and never answers (until the server stops)
    stall          sends the first streamed chunk, then nothing more
    broken_json    a structured chat first gets broken JSON (fenced, with prose), then a valid object
    flaky          the first chat gets 503, later ones are answered
    slow           streams one word every ``delay_s`` seconds (for cancellation)

Bounded: handlers never wait longer than ``max_wait_s``; only 127.0.0.1 is bound.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from testkit.loopback import LoopbackServer

MODEL = "tiny:latest"
CREATED = "2026-01-01T00:00:00Z"
UNKNOWN_MANIFEST = "pull model manifest: file does not exist"


@dataclass
class FakeModel:
    """One model on the fake server, as /api/tags and /api/show describe it."""

    name: str
    size: int = 1
    parameter_size: str = ""
    family: str = "fake"
    quantization: str = "Q4_K_M"
    context_length: int = 8192
    parameter_count: int = 0
    capabilities: tuple[str, ...] = ("completion",)

    def tag(self) -> dict:
        return {"name": self.name, "model": self.name, "size": self.size, "digest": f"sha256:{abs(hash(self.name)):x}",
                "modified_at": CREATED, "details": {"format": "gguf", "family": self.family, "families": [self.family],
                                                    "parameter_size": self.parameter_size,
                                                    "quantization_level": self.quantization}}

    def show(self) -> dict:
        info = {"general.architecture": self.family, f"{self.family}.context_length": self.context_length}
        if self.parameter_count:
            info["general.parameter_count"] = self.parameter_count
        return {"modelfile": "", "details": self.tag()["details"], "model_info": info,
                "capabilities": list(self.capabilities)}


def example_for(schema: dict, defs: dict | None = None) -> Any:
    """A value valid for simple pydantic JSON schemas (objects, enums, scalars, arrays, $ref)."""
    defs = defs if defs is not None else schema.get("$defs", {})
    if "$ref" in schema:
        return example_for(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    if "anyOf" in schema:
        return example_for(schema["anyOf"][0], defs)
    kind = schema.get("type")
    if kind == "object":
        return {name: example_for(sub, defs) for name, sub in schema.get("properties", {}).items()}
    if kind == "array":
        return [example_for(schema.get("items", {"type": "string"}), defs)] * max(1, schema.get("minItems", 1))
    if kind == "boolean":
        return True
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        low, high = schema.get("minimum", 0.0), schema.get("maximum", 1.0)
        return (low + high) / 2
    return "text"


class FakeOllama(LoopbackServer):
    def __init__(self, mode: str = "healthy", *, replies: list[str] | None = None, delay_s: float = 0.05,
                 max_wait_s: float = 20.0, context_length: int = 8192, catalog: list[FakeModel] | None = None,
                 library: dict[str, list[int]] | None = None, pull_chunk: int = 1_000_000,
                 pull_delay_s: float = 0.0, pull_disconnect_after: int | None = None):
        super().__init__()
        self.mode = mode
        self.replies = list(replies or [])
        self.delay_s = delay_s
        self.max_wait_s = max_wait_s
        self.context_length = context_length
        self.catalog: list[FakeModel] | None = list(catalog) if catalog is not None else None
        self.library = dict(library or {})      # what /api/pull can fetch: name -> layer sizes in bytes
        self.pull_chunk = pull_chunk            # bytes per progress line
        self.pull_delay_s = pull_delay_s        # pause between progress lines (to cancel or screenshot a pull)
        self.pull_disconnect_after = pull_disconnect_after
        self.downloaded: dict[str, int] = {}    # layer digest -> bytes Ollama kept (partial downloads resume)
        self.pulls_started = 0
        self.pull_disconnects = 0               # pull streams the client closed before the end
        self.disconnects = 0               # streams the client closed before the end
        self.words_sent = 0
        self._pull_lock = threading.Lock()
        # requests: every /api/chat body, in order; paths: every request path (LoopbackServer)

    # ------------------------------------------------------------------ handlers

    def _models(self) -> list[FakeModel]:
        if self.catalog is None:
            return [FakeModel(MODEL, context_length=self.context_length)]
        return list(self.catalog)

    def _find(self, name: str) -> FakeModel | None:
        wanted = name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"
        return next((m for m in self._models() if m.name in (name, wanted)), None)

    def _get(self, h: BaseHTTPRequestHandler) -> None:
        if h.path == "/api/tags":
            self._send_json(h, 200, {"models": [m.tag() for m in self._models()]})
        elif h.path == "/api/version":
            self._send_json(h, 200, {"version": "0.0.0-fake"})
        elif h.path == "/v1/models":  # Ollama's OpenAI-compatible API lists the same models
            self._send_json(h, 200, {"object": "list", "data": [{"id": m.name, "object": "model", "created": 0,
                                                                 "owned_by": "library"} for m in self._models()]})
        else:
            self._send_json(h, 404, {"error": "not found"})

    def _post(self, h: BaseHTTPRequestHandler) -> None:
        body = self._read_body(h)
        if h.path == "/api/show":
            model = self._find(str(body.get("model") or body.get("name") or ""))
            if model is None:
                self._send_json(h, 404, {"error": f"model '{body.get('model')}' not found"})
            else:
                self._send_json(h, 200, model.show())
        elif h.path == "/api/chat":
            self._chat(h, body)
        elif h.path == "/api/pull":
            self._pull(h, body)
        else:
            self._send_json(h, 404, {"error": "not found"})

    # ------------------------------------------------------------------ /api/pull

    @staticmethod
    def layer_digest(name: str, index: int) -> str:
        return f"sha256:{abs(hash((name, index))) % (1 << 60):015x}{index:02d}"

    def _pull(self, h: BaseHTTPRequestHandler, body: dict) -> None:
        name = str(body.get("model") or body.get("name") or "")
        full = name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"
        layers = self.library.get(name) or self.library.get(full)
        with self._pull_lock:
            self.pulls_started += 1
        self._begin_stream(h)
        try:
            self._chunk(h, {"status": "pulling manifest"})
            if layers is None:
                self._chunk(h, {"error": UNKNOWN_MANIFEST})
                h.wfile.write(b"0\r\n\r\n")
                h.wfile.flush()
                return
            sent = 0
            for index, size in enumerate(layers):
                digest = self.layer_digest(full, index)
                done = self.downloaded.get(digest, 0)
                status = f"pulling {digest.removeprefix('sha256:')[:12]}"
                self._chunk(h, {"status": status, "digest": digest, "total": size, "completed": done})
                while done < size:
                    if self._release.is_set():
                        return
                    if self.pull_delay_s:
                        time.sleep(self.pull_delay_s)
                    step = min(self.pull_chunk, size - done)
                    done += step
                    sent += step
                    with self._pull_lock:
                        self.downloaded[digest] = done
                    if self.pull_disconnect_after is not None and sent >= self.pull_disconnect_after:
                        self.pull_disconnect_after = None  # once
                        h.close_connection = True
                        h.wfile.flush()
                        h.connection.shutdown(2)  # the connection drops mid-stream
                        return
                    self._chunk(h, {"status": status, "digest": digest, "total": size, "completed": done})
            for status in ("verifying sha256 digest", "writing manifest"):
                self._chunk(h, {"status": status})
            with self._pull_lock:  # listed before "success", as Ollama writes the manifest first
                if self.catalog is None:
                    self.catalog = self._models()
                if self._find(full) is None:
                    self.catalog.append(FakeModel(full, size=sum(layers)))
            self._chunk(h, {"status": "success"})
            h.wfile.write(b"0\r\n\r\n")
            h.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            with self._lock:
                self.pull_disconnects += 1

    def _chat(self, h: BaseHTTPRequestHandler, body: dict) -> None:
        number = self._log(body)
        found = self._find(str(body.get("model") or ""))
        if found is None or "completion" not in found.capabilities:
            self._send_json(h, 404, {"error": f"model '{body.get('model')}' not found"})
            return
        if self.mode == "hang":
            self._release.wait(self.max_wait_s)  # accepted, never answered
            return
        if self.mode == "flaky" and number == 1:
            self._send_json(h, 503, {"error": "server busy"})
            return
        reply = self._reply(body, number)
        if body.get("stream", True):
            self._stream(h, body, reply)
        else:
            words = reply.split()
            self._send_json(h, 200, {"model": MODEL, "created_at": CREATED,
                                     "message": {"role": "assistant", "content": reply}, "done": True,
                                     "done_reason": "stop", "prompt_eval_count": prompt_tokens(body),
                                     "eval_count": len(words)})

    def _reply(self, body: dict, number: int) -> str:
        schema = body.get("format")
        if self.replies:
            with self._lock:
                return self.replies.pop(0)
        if self.mode == "broken_json" and isinstance(schema, dict):
            structured_calls = sum(1 for r in self.requests if isinstance(r.get("format"), dict))
            if structured_calls == 1:
                broken = {**example_for(schema), "confidence": "very high"}  # parses, but does not validate
                return f"Sure! Here it is:\n```json\n{json.dumps(broken)}\n```\nHope it helps."
        if isinstance(schema, dict):
            return json.dumps(example_for(schema))
        if schema == "json":
            return json.dumps({"answer": "text"})
        return "The fake court is in session and the evidence is weighed with care."

    def _stream(self, h: BaseHTTPRequestHandler, body: dict, reply: str) -> None:
        self._begin_stream(h)
        parts = pieces(reply)
        limit = (body.get("options") or {}).get("num_predict")
        if isinstance(limit, int) and limit > 0:
            parts = parts[:limit]
        try:
            for i, piece in enumerate(parts):
                self._piece(h, piece)
                self.words_sent += 1
                if self.mode == "stall" and i == 0:
                    self._release.wait(self.max_wait_s)
                    return
                if self.mode == "slow":
                    time.sleep(self.delay_s)
            self._end_stream(h, prompt_tokens(body), len(parts), total_duration=1_000_000, eval_duration=500_000)
        except (BrokenPipeError, ConnectionResetError):
            with self._lock:
                self.disconnects += 1

    # ------------------------------------------------------------------ NDJSON streaming (chunked)

    @staticmethod
    def _begin_stream(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "application/x-ndjson")
        h.send_header("Transfer-Encoding", "chunked")
        h.end_headers()

    @classmethod
    def _piece(cls, h: BaseHTTPRequestHandler, content: str) -> None:
        cls._chunk(h, {"model": MODEL, "created_at": CREATED, "message": {"role": "assistant", "content": content},
                       "done": False})

    @classmethod
    def _end_stream(cls, h: BaseHTTPRequestHandler, prompt_eval_count: int, eval_count: int, **timings: int) -> None:
        """The final ``done`` object, then the end of the chunked body."""
        cls._chunk(h, {"model": MODEL, "created_at": CREATED, "message": {"role": "assistant", "content": ""},
                       "done": True, "done_reason": "stop", "prompt_eval_count": prompt_eval_count,
                       "eval_count": eval_count, **timings})
        h.wfile.write(b"0\r\n\r\n")
        h.wfile.flush()

    @staticmethod
    def _chunk(h: BaseHTTPRequestHandler, obj: dict) -> None:
        data = json.dumps(obj).encode() + b"\n"
        h.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        h.wfile.flush()


def prompt_tokens(body: dict) -> int:
    """Words in the request's messages: the fake's prompt token count."""
    return sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))


def pieces(text: str) -> list[str]:
    """Split like a tokenizer would, roughly: words with their leading space."""
    out, current = [], ""
    for ch in text:
        if ch == " " and current:
            out.append(current)
            current = ch
        else:
            current += ch
    if current:
        out.append(current)
    return out
