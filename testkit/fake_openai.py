"""A loopback OpenAI-compatible server that checks the API key and answers with what ``answer(messages)`` says
(the stress harness passes its court actor, ``stress.common.actor``).

    GET  /v1/models             one model, or ``models`` (entries as servers write them: ``{"id": ...}`` plus what
                                llama.cpp's server (``meta``), vLLM (``max_model_len``) or LM Studio add)
    POST /v1/chat/completions   streamed (SSE) or whole; 401 unless ``Authorization: Bearer <key>`` (``key=None``:
                                any key or none, as local servers do)

``echo_key``: a 401 answer quotes the key it was sent in full (some servers do), to prove that the client keeps it
out of error messages. Bound to 127.0.0.1 only; handlers never block.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler

from testkit.loopback import LoopbackServer

MODEL = "stress-model"


def plain_answer(messages: list[dict]) -> str:
    return "The fake court is in session and the evidence is weighed with care."


class FakeOpenAI(LoopbackServer):
    url_path = "/v1"

    def __init__(self, key: str | None, echo_key: bool = False, answer: Callable[[list[dict]], str] = plain_answer,
                 models: list[dict] | None = None):
        super().__init__()
        self.key = key
        self.models = list(models) if models is not None else [{"id": MODEL, "object": "model", "owned_by": "stress"}]
        self.echo_key = echo_key
        self.answer = answer
        self.authorized = 0                # requests that sent the key
        self.refused = 0                   # requests answered 401
        # requests: every POST body, in order; paths: every request path (LoopbackServer)

    def _get(self, h: BaseHTTPRequestHandler) -> None:
        self._handle(h, None)

    def _post(self, h: BaseHTTPRequestHandler) -> None:
        body = self._read_body(h)
        self._log(body)
        self._handle(h, body)

    def _handle(self, h: BaseHTTPRequestHandler, body: dict | None) -> None:
        sent = h.headers.get("Authorization", "")
        with self._lock:
            ok = self.key is None or sent == f"Bearer {self.key}"
            self.authorized += ok
            self.refused += not ok
        if not ok:
            shown = sent.removeprefix("Bearer ") if self.echo_key else "***"
            self._send_json(h, 401, {"error": {"message": f"Incorrect API key provided: {shown}",
                                               "type": "invalid_request_error", "code": "invalid_api_key"}})
            return
        if h.path.rstrip("/").endswith("/models"):
            self._send_json(h, 200, {"object": "list", "data": self.models})
            return
        if not h.path.rstrip("/").endswith("/chat/completions") or body is None:
            self._send_json(h, 404, {"error": {"message": "not found"}})
            return
        text = self.answer(body.get("messages", []))
        limit = body.get("max_completion_tokens") or body.get("max_tokens")
        words = text.split(" ")
        if isinstance(limit, int) and limit > 0 and not body.get("response_format"):
            words = words[:limit]
        text = " ".join(words)
        usage = {"prompt_tokens": 10, "completion_tokens": len(words), "total_tokens": 10 + len(words)}
        base = {"id": "chatcmpl-stress", "created": int(time.time()), "model": MODEL}
        if not body.get("stream"):
            self._send_json(h, 200, {**base, "object": "chat.completion", "usage": usage, "choices": [
                {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]})
            return
        self._stream(h, body, base, words, usage)

    @staticmethod
    def _stream(h: BaseHTTPRequestHandler, body: dict, base: dict, words: list[str], usage: dict) -> None:
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
