"""What the object-storage servers the tests start on loopback share (testkit.s3: moto; testkit.gcs: fake-gcs-server;
testkit.azure: Azurite): one bucket, the ``LibraryLocation`` that reaches it with test credentials (never real ones),
the same credentials as the environment variables and keyring fields the app reads, and a listing of the bucket's
keys. A server runs as a process of its own where it is one (started on a free port, waited for until it answers,
ended on leaving); ``Unavailable`` says why one cannot start here (the tests skip on it, or fail where
``emulators_required``).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO, Any, Self

ROOT = Path(__file__).resolve().parents[1]


class Unavailable(RuntimeError):
    """The server cannot run on this machine (a tool not installed); the message says what to install."""


def emulators_required() -> bool:
    """True where a missing emulator must fail the tests rather than skip them: CI (``CI`` set, as every CI service
    does) or ``COURTROOM_REQUIRE_EMULATORS=1``."""
    ci = os.environ.get("CI", "").strip().lower()
    return os.environ.get("COURTROOM_REQUIRE_EMULATORS", "") == "1" or ci not in ("", "0", "false", "no")


def wait_until_answers(url: str, process: subprocess.Popen[bytes] | None, log: IO[bytes] | None,
                       timeout_s: float = 60.0) -> None:
    """Poll ``url`` until any HTTP answer comes back (an error status counts: the server is up); raise with the
    server's own output if its process ends first or the time runs out."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return
        except OSError:
            pass
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{url}: the server exited with {process.returncode}: {_tail(log)}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url}: no answer within {timeout_s:.0f} s: {_tail(log)}")
        time.sleep(0.05)


def _tail(log: IO[bytes] | None) -> str:
    if log is None:
        return ""
    log.flush()
    log.seek(0)
    return log.read()[-2000:].decode(errors="replace")


class ObjectStoreServer:
    """The interface the shared-library tests use, whatever the store."""

    kind = ""  # the app's store kind: 's3', 'gs' or 'az'
    name = ""  # as the app names the store (LibraryLocation.describe)

    def __init__(self, bucket: str = "team-library") -> None:
        self.bucket = bucket
        self.endpoint = ""  # what `library.endpoint` is set to, to reach it
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    def __enter__(self) -> Self:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout=10)
        self._process = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def _spawn(self, command: list[str], cwd: str | None = None) -> subprocess.Popen[bytes]:
        """The server's process, its output kept in a temporary file for the error that says why it failed."""
        self._log = tempfile.TemporaryFile()
        self._process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=self._log,
                                         stderr=subprocess.STDOUT, cwd=cwd)
        return self._process

    # ---------------------------------------------------------------- what the tests use
    def options(self) -> dict[str, str]:
        """The location's options: the endpoint and the credentials, in the stores' option names."""
        raise NotImplementedError

    def credentials(self) -> dict[str, str]:
        """The credentials, as `courtroom library credentials` keeps them (core.library.shared.location)."""
        raise NotImplementedError

    def environment(self) -> dict[str, str]:
        """The credentials as environment variables (what a test sets, never a settings file)."""
        raise NotImplementedError

    def uri(self, prefix: str = "library") -> str:
        return f"{self.kind}://{self.bucket}/{prefix}"

    def location(self, prefix: str = "library", read_only: bool = False) -> Any:
        from courtroom_desktop.core.library.shared.location import LibraryLocation

        return LibraryLocation(self.uri(prefix), self.kind, read_only, self.options())

    def keys(self, prefix: str = "") -> list[str]:
        """Every key in the bucket under ``prefix``, listed through obstore."""
        import obstore

        from courtroom_desktop.core.library.shared.commit_lock import object_store
        from courtroom_desktop.core.library.shared.location import LibraryLocation

        store = object_store(LibraryLocation(f"{self.kind}://{self.bucket}", self.kind, True, self.options()))
        listed = obstore.list(store, prefix=prefix.rstrip("/") or None).collect()
        return sorted(str(meta["path"]) for meta in listed)
