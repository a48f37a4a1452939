"""A loopback OpenAI-compatible server that plays the court (``stress.common.actor``) and checks the API key.

    GET  /v1/models             one model
    POST /v1/chat/completions   streamed (SSE) or whole; 401 unless ``Authorization: Bearer <key>``

``echo_key``: a 401 answer quotes the key it was sent in full (some servers do), to prove that the client keeps it
out of error messages. Bound to 127.0.0.1 only; handlers never block.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from stress.common import actor

MODEL = "stress-model"


class FakeOpenAI:
    def __init__(self, key: str, echo_key: bool = False):
        self.key = key
        self.echo_key = echo_key
        self.requests = 0
        self.authorized = 0
        self.refused = 0
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> FakeOpenAI:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                fake._handle(self, None)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                fake._handle(self, json.loads(self.rfile.read(length) or b"{}"))

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    @staticmethod
    def _json(h: BaseHTTPRequestHandler, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    def _handle(self, h: BaseHTTPRequestHandler, body: dict | None) -> None:
        sent = h.headers.get("Authorization", "")
        with self._lock:
            self.requests += 1
            ok = sent == f"Bearer {self.key}"
            self.authorized += ok
            self.refused += not ok
        if not ok:
            shown = sent.removeprefix("Bearer ") if self.echo_key else "***"
            self._json(h, 401, {"error": {"message": f"Incorrect API key provided: {shown}", "type": "invalid_request_error",
                                          "code": "invalid_api_key"}})
            return
        if h.path.rstrip("/").endswith("/models"):
            self._json(h, 200, {"object": "list", "data": [{"id": MODEL, "object": "model", "owned_by": "stress"}]})
            return
        if not h.path.rstrip("/").endswith("/chat/completions") or body is None:
            self._json(h, 404, {"error": {"message": "not found"}})
            return
        text = actor(body.get("messages", []))
        limit = body.get("max_completion_tokens") or body.get("max_tokens")
        words = text.split(" ")
        if isinstance(limit, int) and limit > 0 and not body.get("response_format"):
            words = words[:limit]
        text = " ".join(words)
        usage = {"prompt_tokens": 10, "completion_tokens": len(words), "total_tokens": 10 + len(words)}
        base = {"id": "chatcmpl-stress", "created": int(time.time()), "model": MODEL}
        if not body.get("stream"):
            self._json(h, 200, {**base, "object": "chat.completion", "usage": usage, "choices": [
                {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]})
            return
        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream")
        h.send_header("Cache-Control", "no-cache")
        h.send_header("Connection", "close")
        h.end_headers()
        h.close_connection = True

        def event(payload: dict | str) -> None:
            data = payload if isinstance(payload, str) else json.dumps(payload)
            h.wfile.write(f"data: {data}\n\n".encode())
            h.wfile.flush()

        chunk = {**base, "object": "chat.completion.chunk"}
        event({**chunk, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]})
        for index, word in enumerate(words):
            piece = word if index == 0 else " " + word
            event({**chunk, "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]})
        event({**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
        if (body.get("stream_options") or {}).get("include_usage"):
            event({**chunk, "choices": [], "usage": usage})
        event("[DONE]")
