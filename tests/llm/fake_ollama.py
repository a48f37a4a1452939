"""A small loopback server that speaks enough of Ollama's HTTP API for the provider tests.

    GET  /api/tags      the one model it has
    GET  /api/version
    POST /api/show      model details (context length)
    POST /api/chat      streaming NDJSON (default) or one JSON object; honours ``format`` (a JSON schema) by
                        answering with an object built from the schema unless a scripted reply is queued

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
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODEL = "tiny:latest"


def free_port() -> int:
    """A loopback port with nothing listening on it (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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


class FakeOllama:
    def __init__(self, mode: str = "healthy", *, replies: list[str] | None = None, delay_s: float = 0.05,
                 max_wait_s: float = 20.0, context_length: int = 8192):
        self.mode = mode
        self.replies = list(replies or [])
        self.delay_s = delay_s
        self.max_wait_s = max_wait_s
        self.context_length = context_length
        self.requests: list[dict] = []     # every /api/chat body, in order
        self.paths: list[str] = []         # every request path
        self.disconnects = 0               # streams the client closed before the end
        self.words_sent = 0
        self._release = threading.Event()
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeOllama:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                fake._get(self)

            def do_POST(self):
                fake._post(self)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._release.set()
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    # ------------------------------------------------------------------ handlers

    @staticmethod
    def _send_json(handler: BaseHTTPRequestHandler, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    def _get(self, h: BaseHTTPRequestHandler) -> None:
        self.paths.append(h.path)
        if h.path == "/api/tags":
            self._send_json(h, 200, {"models": [{"name": MODEL, "model": MODEL, "size": 1, "digest": "x",
                                                 "details": {"family": "fake"}}]})
        elif h.path == "/api/version":
            self._send_json(h, 200, {"version": "0.0.0-fake"})
        else:
            self._send_json(h, 404, {"error": "not found"})

    def _read_body(self, h: BaseHTTPRequestHandler) -> dict:
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b"{}"
        return json.loads(raw or b"{}")

    def _post(self, h: BaseHTTPRequestHandler) -> None:
        self.paths.append(h.path)
        body = self._read_body(h)
        if h.path == "/api/show":
            self._send_json(h, 200, {"model_info": {"general.context_length": self.context_length}})
            return
        if h.path != "/api/chat":
            self._send_json(h, 404, {"error": "not found"})
            return
        with self._lock:
            self.requests.append(body)
            number = len(self.requests)
        if body.get("model") not in (MODEL, MODEL.split(":")[0]):
            self._send_json(h, 404, {"error": f"model '{body.get('model')}' not found"})
            return
        if self.mode == "hang":
            self._release.wait(self.max_wait_s)  # accepted, never answered
            return
        if self.mode == "flaky" and number == 1:
            self._send_json(h, 503, {"error": "server busy"})
            return
        reply = self._reply(body, number)
        prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))
        if body.get("stream", True):
            self._stream(h, body, reply, prompt_tokens)
        else:
            words = reply.split()
            self._send_json(h, 200, {"model": MODEL, "created_at": "2026-01-01T00:00:00Z",
                                     "message": {"role": "assistant", "content": reply}, "done": True,
                                     "done_reason": "stop", "prompt_eval_count": prompt_tokens,
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

    def _stream(self, h: BaseHTTPRequestHandler, body: dict, reply: str, prompt_tokens: int) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "application/x-ndjson")
        h.send_header("Transfer-Encoding", "chunked")
        h.end_headers()
        pieces = [p for p in _pieces(reply)]
        limit = (body.get("options") or {}).get("num_predict")
        if isinstance(limit, int) and limit > 0:
            pieces = pieces[:limit]
        try:
            for i, piece in enumerate(pieces):
                self._chunk(h, {"model": MODEL, "created_at": "2026-01-01T00:00:00Z",
                                "message": {"role": "assistant", "content": piece}, "done": False})
                self.words_sent += 1
                if self.mode == "stall" and i == 0:
                    self._release.wait(self.max_wait_s)
                    return
                if self.mode == "slow":
                    time.sleep(self.delay_s)
            self._chunk(h, {"model": MODEL, "created_at": "2026-01-01T00:00:00Z",
                            "message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop",
                            "prompt_eval_count": prompt_tokens, "eval_count": len(pieces),
                            "total_duration": 1_000_000, "eval_duration": 500_000})
            h.wfile.write(b"0\r\n\r\n")
            h.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            with self._lock:
                self.disconnects += 1

    @staticmethod
    def _chunk(h: BaseHTTPRequestHandler, obj: dict) -> None:
        data = json.dumps(obj).encode() + b"\n"
        h.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        h.wfile.flush()


def _pieces(text: str) -> list[str]:
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
