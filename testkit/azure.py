"""An Azure Blob Storage server on loopback for the tests of a library on object storage: Azurite's blob service
(npm, pinned in package.json and package-lock.json, installed by scripts/setup.sh into ./node_modules), in memory,
run by Node.js, with one container.

Azurite takes Azure's conditional writes as the service does (``If-None-Match: *`` to create, ``If-Match`` to
replace; a write whose condition fails is refused), which is what the commit lock needs. Its account is the emulator's well-known
development account (``devstoreaccount1`` and the key Microsoft publishes for it: not a secret); the app reaches it
through ``library.endpoint`` (``azure_storage_endpoint``: the account's URL, path-style) with that name and key.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import json
import shutil
import tempfile
from email.utils import formatdate
from pathlib import Path

from testkit.loopback import free_port
from testkit.object_store import ROOT, ObjectStoreServer, Unavailable, wait_until_answers

ACCOUNT = "devstoreaccount1"
ACCOUNT_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
API_VERSION = "2021-08-06"


def azurite_blob() -> tuple[str, Path]:
    """Node.js and Azurite's blob service script, or Unavailable saying what to install."""
    node = shutil.which("node")
    if node is None:
        raise Unavailable("Node.js is not installed, so Azurite (the Azure Blob Storage emulator) cannot run: install "
                          "Node.js 20 or later, then run scripts/setup.sh")
    package = ROOT / "node_modules" / "azurite" / "package.json"
    if not package.is_file():
        raise Unavailable(f"Azurite is not installed in {ROOT / 'node_modules'}: run scripts/setup.sh (npm ci)")
    script = package.parent / json.loads(package.read_text(encoding="utf-8"))["bin"]["azurite-blob"]
    return node, script.resolve()


class AzuriteServer(ObjectStoreServer):
    kind = "az"
    name = "Azure Blob Storage"

    def __init__(self, bucket: str = "team-library") -> None:
        super().__init__(bucket)
        self._workspace: tempfile.TemporaryDirectory[str] | None = None

    def start(self) -> None:
        node, script = azurite_blob()
        port = free_port()
        self._workspace = tempfile.TemporaryDirectory(prefix="azurite-")
        process = self._spawn([node, str(script), "--blobHost", "127.0.0.1", "--blobPort", str(port),
                               "--inMemoryPersistence", "--silent", "--disableTelemetry"],
                              cwd=self._workspace.name)  # a folder of its own for anything it might write
        wait_until_answers(f"http://127.0.0.1:{port}/{ACCOUNT}?comp=list", process, self._log)
        self.endpoint = f"http://127.0.0.1:{port}/{ACCOUNT}"
        self._create_container(port)

    def stop(self) -> None:
        super().stop()
        if self._workspace is not None:
            self._workspace.cleanup()
            self._workspace = None

    def _create_container(self, port: int) -> None:
        """``PUT ?restype=container``, signed with the account's key (Shared Key, as the Azure SDKs sign)."""
        date = formatdate(usegmt=True)
        path = f"/{ACCOUNT}/{self.bucket}"
        to_sign = "\n".join(["PUT", *[""] * 11, f"x-ms-date:{date}", f"x-ms-version:{API_VERSION}",
                             f"/{ACCOUNT}{path}", "restype:container"])
        signature = base64.b64encode(hmac.new(base64.b64decode(ACCOUNT_KEY), to_sign.encode(),
                                              hashlib.sha256).digest()).decode()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            connection.request("PUT", f"{path}?restype=container", body=b"", headers={
                "x-ms-date": date, "x-ms-version": API_VERSION, "Authorization": f"SharedKey {ACCOUNT}:{signature}"})
            answer = connection.getresponse()
            body = answer.read()
        finally:
            connection.close()
        if answer.status != 201:
            raise RuntimeError(f"Azurite refused to create the container {self.bucket}: {answer.status} "
                               f"{body.decode(errors='replace')[:500]}")

    def options(self) -> dict[str, str]:
        return {"azure_storage_endpoint": self.endpoint, "allow_http": "true", **self.credentials()}

    def credentials(self) -> dict[str, str]:
        return {"azure_storage_account_name": ACCOUNT, "azure_storage_account_key": ACCOUNT_KEY}

    def environment(self) -> dict[str, str]:
        return {"AZURE_STORAGE_ACCOUNT_NAME": ACCOUNT, "AZURE_STORAGE_ACCOUNT_KEY": ACCOUNT_KEY}
