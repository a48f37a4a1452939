"""A loopback embedding server speaking both embedding APIs the app uses, for tests and for `courtroom eval` figures:

    POST /api/embed         Ollama: {"model", "input": str | [str]} -> {"model", "embeddings": [[...]]}
    POST /v1/embeddings     OpenAI-compatible: {"model", "input": str | [str]} -> {"data": [{"index", "embedding"}]}
                            (401 unless ``Authorization: Bearer <key>`` when ``key`` is set)
    GET  /api/tags, /v1/models   the one model

The vectors come from ``encoder`` (texts -> rows): by default :func:`hashed_bag`, a deterministic hashed bag of words
(Chinese segmented into words as the app's BM25 does), NOT normalised, so similar texts are near and the client's
normalisation is exercised; :func:`minilm_encoder` gives the real bundled all-MiniLM-L6-v2 vectors, so an endpoint
run can be compared with the bundled embedder number for number.

Variants (``mode``): healthy; hang (accepts, never answers, until the server stops); flaky (the first request gets
503); broken_json (the body is not JSON); wrong_count (one vector fewer than texts); wrong_dim (every answer after
the first has one more dimension). Only 127.0.0.1 is bound.

Run it standalone: ``python -m testkit.fake_embed --minilm`` prints its URLs as JSON (a port the OS picks) and serves
until interrupted.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler

import numpy as np

from testkit.loopback import LoopbackServer

MODEL = "fake-embed"
DIM = 64


def hashed_bag(texts: list[str], dim: int = DIM) -> np.ndarray:
    """Each word adds +-1 at a hashed position (and 0.5 at a second one), scaled by the text's length: near for texts
    that share words, deterministic across processes."""
    from courtroom_desktop.core.text import words

    out = np.zeros((len(texts), dim), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in words(text.lower(), search=True) or [text]:
            digest = hashlib.sha1(word.encode("utf-8")).digest()
            sign = 1.0 if digest[2] & 1 else -1.0
            out[row, int.from_bytes(digest[:2], "big") % dim] += sign
            out[row, int.from_bytes(digest[3:5], "big") % dim] += 0.5 * sign
        out[row] *= 1.0 + len(text) % 7  # not normalised: the client must normalise
        if not out[row].any():
            out[row, 0] = 1.0
    return out


def minilm_encoder(batch: int = 32) -> Callable[[list[str]], np.ndarray]:
    """The bundled all-MiniLM-L6-v2 (sentence-transformers on PyTorch), loaded on first use."""
    from courtroom_desktop.core.library.embed.embedder import Embedder

    embedder = Embedder("all-MiniLM-L6-v2", batch=batch)
    return embedder.encode


class FakeEmbedServer(LoopbackServer):
    def __init__(self, mode: str = "healthy", *, encoder: Callable[[list[str]], np.ndarray] = hashed_bag,
                 model: str = MODEL, key: str | None = None, max_wait_s: float = 20.0):
        super().__init__()
        self.mode = mode
        self.encoder = encoder
        self.model = model
        self.key = key
        self.max_wait_s = max_wait_s
        self.texts = 0        # texts embedded
        self.refused = 0      # requests answered 401
        self.answered = 0     # requests answered with vectors
        # requests: every POST body, in order; paths: every request path (LoopbackServer)

    @property
    def ollama_url(self) -> str:
        return self.url

    @property
    def openai_url(self) -> str:
        return self.url + "/v1"

    def _get(self, h: BaseHTTPRequestHandler) -> None:
        if h.path == "/api/tags":
            self._send_json(h, 200, {"models": [{"name": self.model, "model": self.model}]})
        elif h.path.rstrip("/") == "/v1/models":
            self._send_json(h, 200, {"object": "list", "data": [{"id": self.model, "object": "model"}]})
        else:
            self._send_json(h, 404, {"error": "not found"})

    def _post(self, h: BaseHTTPRequestHandler) -> None:
        body = self._read_body(h)
        number = self._log(body)
        path = h.path.rstrip("/")
        if path not in ("/api/embed", "/v1/embeddings"):
            self._send_json(h, 404, {"error": "not found"})
            return
        if path == "/v1/embeddings" and self.key is not None \
                and h.headers.get("Authorization", "") != f"Bearer {self.key}":
            with self._lock:
                self.refused += 1
            self._send_json(h, 401, {"error": {"message": "Incorrect API key provided", "code": "invalid_api_key"}})
            return
        if body.get("model") != self.model:
            self._send_json(h, 404, {"error": f"model \"{body.get('model')}\" not found, try pulling it first"})
            return
        if self.mode == "hang":
            self._release.wait(self.max_wait_s)
            return
        if self.mode == "flaky" and number == 1:
            self._send_json(h, 503, {"error": "server busy"})
            return
        if self.mode == "broken_json":
            data = b"<html>502 Bad Gateway</html>"
            h.send_response(200)
            h.send_header("Content-Type", "text/html")
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            h.wfile.write(data)
            return
        texts = body.get("input")
        texts = [texts] if isinstance(texts, str) else [str(t) for t in texts or []]
        vectors = np.asarray(self.encoder(texts), dtype=np.float32)
        with self._lock:
            self.texts += len(texts)
            self.answered += 1
            later = self.answered > 1
        if self.mode == "wrong_count":
            vectors = vectors[:-1]
        if self.mode == "wrong_dim" and later:
            vectors = np.concatenate([vectors, np.ones((len(vectors), 1), dtype=np.float32)], axis=1)
        rows = [[float(x) for x in v] for v in vectors]
        if path == "/api/embed":
            self._send_json(h, 200, {"model": self.model, "embeddings": rows, "total_duration": 1000,
                                     "prompt_eval_count": sum(len(t.split()) for t in texts)})
        else:
            data = [{"object": "embedding", "index": i, "embedding": row} for i, row in enumerate(rows)]
            data.reverse()  # servers may answer out of order: the client sorts by index
            self._send_json(h, 200, {"object": "list", "model": self.model, "data": data,
                                     "usage": {"prompt_tokens": 1, "total_tokens": 1}})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve embeddings on 127.0.0.1 (Ollama /api/embed and /v1/embeddings); prints the URLs")
    parser.add_argument("--minilm", action="store_true", help="serve the bundled all-MiniLM-L6-v2's vectors")
    parser.add_argument("--model", default=None, help="the model name it answers to")
    args = parser.parse_args(argv)
    encoder = minilm_encoder() if args.minilm else hashed_bag
    server = FakeEmbedServer(encoder=encoder, model=args.model or ("all-minilm" if args.minilm else MODEL))
    with server:
        print(json.dumps({"ollama": server.ollama_url, "openai": server.openai_url, "model": server.model}),
              flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
