"""What the fake model servers share: a ``ThreadingHTTPServer`` on 127.0.0.1 (a port the OS picks) serving from a
daemon thread, started and stopped as a context manager, with a log of every request; plus ``free_port`` for a
port where nothing listens.

A fake subclasses :class:`LoopbackServer` and answers in ``_get`` and ``_post`` (each gets the request handler);
``_send_json``, ``_read_body`` and ``_log`` help. ``_release`` is set when the server stops, so a handler that
holds a request open (``self._release.wait(...)``) lets go then.
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self


def free_port() -> int:
    """A loopback port with nothing listening on it (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LoopbackServer:
    url_path = ""  # appended to http://host:port in ``url`` (an OpenAI-compatible server's "/v1")

    def __init__(self) -> None:
        self.requests: list[dict] = []     # every logged request body (see _log), in order
        self.paths: list[str] = []         # every request path, in order
        self._release = threading.Event()
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}{self.url_path}"

    def __enter__(self) -> Self:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                fake.paths.append(self.path)
                fake._get(self)

            def do_POST(self):
                fake.paths.append(self.path)
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

    # ------------------------------------------------------------------ for the subclasses

    def _get(self, h: BaseHTTPRequestHandler) -> None:
        self._send_json(h, 404, {"error": "not found"})

    def _post(self, h: BaseHTTPRequestHandler) -> None:
        self._send_json(h, 404, {"error": "not found"})

    def _log(self, body: dict) -> int:
        """Append ``body`` to ``requests``; returns its 1-based number."""
        with self._lock:
            self.requests.append(body)
            return len(self.requests)

    @staticmethod
    def _send_json(h: BaseHTTPRequestHandler, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        h.wfile.write(data)

    @staticmethod
    def _read_body(h: BaseHTTPRequestHandler) -> dict:
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b"{}"
        return json.loads(raw or b"{}")
