"""The commit lock of a library on object storage: one small object, ``_courtroom/commit.lock``, created with a
conditional write and taken over, when its holder stopped renewing it, with another.

Why a lock, when Lance commits safely on its own (its manifests are written with put-if-absent, so two appends at
once both land; tested against the S3 server in the tests)? Because "is this document in the library already?" and
"write it" must be one step across two tables (the chunks, then the catalog row that makes them count), or two
analysts ingesting the same file both add it; and because a writer killed between the two leaves chunks no row
names, which the next holder sweeps away (``dirty``). Lance's merge-insert alone does not stop the first: four
concurrent inserts of the same 50 ids left 200 rows (LanceDB 0.40).

The primitives, per store (all through obstore, the Rust ``object_store`` crate LanceDB itself uses):
- S3 and S3-compatible servers: ``If-None-Match: *`` to create, ``If-Match: <etag>`` to renew or take over;
- Google Cloud Storage: the generation preconditions (``ifGenerationMatch``: 0 to create, else the object's
  generation, which is why a lease keeps the version a write returned beside its etag: GCS refuses an update that
  names only the etag);
- Azure Blob Storage: ``If-None-Match: *`` / ``If-Match``.
A store without conditional writes (an old MinIO, some S3 clones) fails the first acquire with a clear error rather
than lock nothing.

The lock is a lease: its holder renews it every ``lease_s / 3`` seconds from a thread while it holds it; another
writer takes it over only once ``lease_s`` have passed since the last renewal (a killed or frozen holder), with a
conditional write on the etag it read, so that of two writers taking over at once exactly one wins.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from courtroom_desktop.core.errors import LibraryError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.shared.location import LibraryLocation

log = logging.getLogger(__name__)

LOCK_PATH = "_courtroom/commit.lock"


def object_store(location: LibraryLocation) -> Any:
    """An obstore store rooted at the library's prefix, with the location's options (endpoint, credentials)."""
    from obstore.store import from_url

    config = {k: v for k, v in location.options.items() if k != "allow_http"}
    client = {"allow_http": location.options.get("allow_http") == "true"}
    if location.kind == "s3":
        config.setdefault("conditional_put", "etag")  # S3's own conditional writes, not a DynamoDB table
    return from_url(location.uri, config=cast(Any, config), client_options=cast(Any, client))


def listed(store: Any, prefix: str) -> dict[str, int]:
    """Path -> size of every object under ``prefix`` in ``store`` (obstore's listing, all its pages)."""
    import obstore

    return {str(meta["path"]): int(meta["size"]) for batch in obstore.list(store, prefix) for meta in batch}


class CommitLock:
    """``with lock.held() as dirty:`` the library is this writer's to commit to; ``dirty`` says the previous holder
    never released it (it died mid-commit: sweep what it may have left)."""

    def __init__(self, location: LibraryLocation, lease_s: float = 60.0, wait_s: float = 600.0,
                 poll_s: float = 0.2):
        self.location = location
        self.store = object_store(location)
        self.lease_s = lease_s
        self.wait_s = wait_s
        self.poll_s = poll_s
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._etag: str | None = None
        self._version: str | None = None  # GCS's generation of our lease; None on S3 and Azure
        self._depth = 0
        self._mutex = threading.RLock()  # the lock is re-entrant within this process
        self._renewer: threading.Thread | None = None
        self._stop = threading.Event()

    # ---------------------------------------------------------------- the lease
    def _body(self) -> bytes:
        return json.dumps({"owner": self.owner, "renewed": time.time(), "lease_s": self.lease_s}).encode()

    def _put(self, mode: Any) -> None:
        """Write our lease under ``mode`` and keep what makes the next conditional write ours: its etag and version."""
        import obstore

        written = obstore.put(self.store, LOCK_PATH, self._body(), mode=mode)
        self._etag, self._version = written["e_tag"], written.get("version")

    @staticmethod
    def _match(etag: str, version: str | None) -> Any:
        """An update's precondition: the etag (S3, Azure) and the version where the store has one (GCS needs it)."""
        return {"e_tag": etag, "version": version} if version else {"e_tag": etag}

    def _try_acquire(self) -> bool | None:
        """True: taken from nobody; None: taken over from a holder whose lease ran out; False: held by another."""
        import obstore
        from obstore.exceptions import AlreadyExistsError, NotFoundError, PreconditionError

        try:
            self._put("create")
            return True
        except AlreadyExistsError:
            pass
        except (PreconditionError, NotFoundError):
            return False
        except Exception as exc:  # noqa: BLE001 - a store that cannot do this must say so, not lock nothing
            raise LibraryError(Message("{self.location.uri}: the commit lock could not be written ({exc}). The "
                                       "store must allow conditional writes (S3, MinIO since 2024, GCS, Azure); "
                                       "check the credentials and `library.read_only`",
                                       self.location.uri, exc)) from exc
        try:
            current = obstore.get(self.store, LOCK_PATH)
            etag, version = current.meta["e_tag"], current.meta.get("version")
            held = json.loads(bytes(current.bytes()))
        except NotFoundError:
            return False  # released just now: the next attempt creates it
        except ValueError:
            held, etag, version = {"renewed": 0.0, "lease_s": 0.0}, None, None
        if time.time() - float(held.get("renewed", 0.0)) < float(held.get("lease_s", self.lease_s)):
            return False
        try:  # the holder stopped renewing: take it over, unless another writer did so first
            self._put(self._match(etag, version) if etag else "overwrite")
        except (PreconditionError, AlreadyExistsError, NotFoundError):
            return False
        log.warning("%s: took the commit lock over from %s, whose lease ran out", self.location.uri,
                    held.get("owner", "an unknown writer"))
        return None

    def _renew(self) -> None:
        while not self._stop.wait(self.lease_s / 3):
            with self._mutex:
                if self._etag is None:
                    return
                try:
                    self._put(self._match(self._etag, self._version))
                except Exception as exc:  # noqa: BLE001 - lost: the next commit step fails on its own check
                    log.error("%s: the commit lock could not be renewed (%s)", self.location.uri, exc)
                    self._etag = None
                    return

    def acquire(self) -> bool:
        """Wait for the lock; returns ``dirty``. Raises LibraryError after ``wait_s``."""
        with self._mutex:
            if self._depth:
                self._depth += 1
                return False
            deadline = time.monotonic() + self.wait_s
            while True:
                taken = self._try_acquire()
                if taken is not False:
                    break
                if time.monotonic() > deadline:
                    raise LibraryError(Message("{self.location.uri}: another writer has held the library's commit "
                                               "lock for over {self.wait_s} s; try again later",
                                               self.location.uri, f'{self.wait_s:.0f}'))
                time.sleep(self.poll_s)
            self._depth = 1
            self._stop.clear()
            self._renewer = threading.Thread(target=self._renew, name="courtroom-commit-lease", daemon=True)
            self._renewer.start()
            return taken is None

    def release(self) -> None:
        import obstore
        from obstore.exceptions import NotFoundError

        with self._mutex:
            self._depth -= 1
            if self._depth:
                return
            self._stop.set()
            if self._etag is not None:
                try:  # only our own lease: one taken over after ours ran out is its new holder's
                    if obstore.head(self.store, LOCK_PATH)["e_tag"] == self._etag:
                        obstore.delete(self.store, LOCK_PATH)
                except NotFoundError:
                    pass
                self._etag = self._version = None

    @contextmanager
    def held(self) -> Iterator[bool]:
        dirty = self.acquire()
        try:
            yield dirty
        finally:
            self.release()

    @property
    def holding(self) -> bool:
        return self._depth > 0 and self._etag is not None
