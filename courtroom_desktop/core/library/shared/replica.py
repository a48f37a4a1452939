"""A local read replica of a shared library's chunk table: searches read this machine's disk, not the bucket.

A vector search on object storage reads the ANN index's partitions and then a few dozen ranges of the data files
over HTTP: about two seconds at 1,000,000 chunks on a loopback S3 server, more on a real bucket (docs/scale.md).
The chunk table is a Lance dataset, and a Lance dataset is immutable files plus one manifest per version: a copy of
the objects under ``<uri>/<vectors folder>/chunks.lance/`` is a dataset LanceDB opens locally, exactly as the
bucket's at the newest version the copy holds. So the replica copies those objects, once each (a file never
changes under its name), into ``<cache folder>/replica/<vectors folder>/``.

Catching up (``catch_up``):
1. list the manifests (``_versions/``) first, then everything else: every file a listed manifest names was written
   before that manifest, so the second listing holds it (a writer mid-commit leaves files no manifest names yet:
   copied, harmless);
2. copy the missing objects, the manifests last (a file is written beside, then renamed: never read half-written);
3. the local table is checked out at the newest version it now holds.
Objects the bucket no longer has (an ``optimize`` elsewhere cleaned old versions up) are deleted here only when the
replica is opened or cleared, never under a search that may still read them.

A replica is **current** when its newest manifest is the bucket's; checking that is one listing of ``_versions/``,
done in the background at most every ``check_s`` seconds, so a search never waits on the bucket (``Library``
starts the checks, core.library.library). A stale replica is still searched while it catches up in the background;
it never serves a removed document, because every search keeps only the documents the shared catalog holds now
(read at most every 2 s, again only when its version changed: core.library.shared.catalog).

The copy has a size limit (``library.replica_limit_gb``); a table larger than that is not copied at all (searches
read the bucket, and ``status`` says why). It survives restarts (its state is ``state.json`` beside it) and
``clear`` deletes it.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.shared.location import LibraryLocation
from courtroom_desktop.core.library.store.vectors import TABLE

if TYPE_CHECKING:
    from courtroom_desktop.core.library.store.vectors import VectorStore

log = logging.getLogger(__name__)

FOLDER = "replica"
VERSIONS = "_versions/"
STATE = "state.json"


@dataclass
class ReplicaStatus:
    """What the replica holds, for `courtroom library replica` and the library panel."""

    folder: str = ""                # the vectors folder it copies
    manifest: str = ""              # the newest manifest it holds ('' before the first catch-up)
    remote_manifest: str = ""       # the bucket's newest, when last checked
    caught_up_at: float = 0.0       # time.time() of the last finished catch-up
    checked_at: float = 0.0         # time.time() of the last check of the bucket's version
    bytes: int = 0                  # on this disk
    limit_bytes: int = 0
    problem: str = ""               # why it is not used ('' when it is)

    @property
    def current(self) -> bool:
        return bool(self.manifest) and self.manifest == self.remote_manifest and not self.problem

    def describe(self) -> str:
        """In words: 'local replica: 1,204 MB, current (checked 3 s ago)' and the like."""
        size = f"{self.bytes / 1e6:,.0f} MB"
        if self.problem:
            return Message("local replica not used: {problem}", self.problem)
        if not self.manifest:
            return Message("local replica: being copied")
        if self.current:
            return Message("local replica: {size}, current (checked {age} s ago)", size,
                           round(max(0.0, time.time() - self.checked_at)))
        return Message("local replica: {size}, {age} s behind the bucket, catching up", size,
                       round(max(0.0, time.time() - self.caught_up_at)))


class Replica:
    def __init__(self, location: LibraryLocation, folder: str, cache: Path, limit_bytes: int, check_s: float = 2.0):
        from courtroom_desktop.core.library.shared.commit_lock import object_store

        self.location = location
        self.folder = folder
        self.store: Any = object_store(location)
        self.remote = f"{folder}/{TABLE}.lance/"
        self.root = Path(cache) / FOLDER
        self.local_db = self.root / folder           # lancedb.connect() here: the table is <local_db>/chunks.lance
        self.local = self.local_db / f"{TABLE}.lance"
        self.check_s = check_s
        self.limit_bytes = limit_bytes
        self._lock = threading.Lock()                # one catch-up at a time
        self._worker: threading.Thread | None = None
        self._store: VectorStore | None = None
        self.status = self._load_state()
        self.status.limit_bytes = limit_bytes
        self._prune_on_open = True

    # ---------------------------------------------------------------- state
    def _load_state(self) -> ReplicaStatus:
        try:
            data = json.loads((self.root / STATE).read_text(encoding="utf-8"))
            status = ReplicaStatus(**{k: v for k, v in data.items() if k in ReplicaStatus.__dataclass_fields__})
        except (OSError, ValueError, TypeError):
            return ReplicaStatus(folder=self.folder)
        if status.folder != self.folder or not self.local.is_dir():  # another table since (an embedder switch)
            return ReplicaStatus(folder=self.folder)
        status.problem = ""
        return status

    def _save_state(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=self.root, suffix=".part")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(asdict(self.status), out)
        os.replace(temp, self.root / STATE)

    # ---------------------------------------------------------------- the bucket
    def _listing(self, prefix: str) -> dict[str, int]:
        """Relative name -> size of every object under the table's ``prefix``."""
        from courtroom_desktop.core.library.shared.commit_lock import listed

        return {path[len(self.remote):]: size for path, size in listed(self.store, self.remote + prefix).items()}

    def remote_manifest(self) -> str:
        """The bucket's newest manifest (one listing of ``_versions/``); '' when the table has none yet."""
        manifests = [name for name in self._listing(VERSIONS) if name.endswith(".manifest")]
        return newest(manifests)

    def _local_files(self) -> dict[str, int]:
        if not self.local.is_dir():
            return {}
        return {p.relative_to(self.local).as_posix(): p.stat().st_size
                for p in self.local.rglob("*") if p.is_file() and not p.name.endswith(".part")}

    # ---------------------------------------------------------------- catching up
    def catch_up(self) -> ReplicaStatus:
        """Copy what the bucket has and this disk lacks (see the module's docstring); the status after."""
        with self._lock:
            return self._catch_up()

    def _catch_up(self) -> ReplicaStatus:
        import obstore

        manifests = {n: size for n, size in self._listing(VERSIONS).items() if n.endswith(".manifest")}
        # every object but the mutable version hint (rewritten under its name at each commit; Lance finds the newest
        # manifest without it)
        everything = {n: size for n, size in self._listing("").items() if not n.startswith(VERSIONS)}
        everything.update(manifests)
        total = sum(everything.values())
        self.status.checked_at = time.time()
        self.status.remote_manifest = newest(list(manifests))
        if total > self.limit_bytes:
            self.status.problem = Message("the chunk table ({size} MB) is larger than library.replica_limit_gb "
                                          "({limit} MB): searches read the bucket",
                                          f"{total / 1e6:,.0f}", f"{self.limit_bytes / 1e6:,.0f}")
            self._drop_files()
            return self.status
        self.status.problem = ""
        have = self._local_files()
        if self._prune_on_open:  # objects the bucket no longer has: nothing reads them yet
            for name in set(have) - set(everything):
                (self.local / name).unlink(missing_ok=True)
            self._prune_on_open = False
        missing = sorted((n for n in everything if have.get(n) != everything[n]),
                         key=lambda n: (n.startswith(VERSIONS), n))  # the manifests last
        for name in missing:
            target = self.local / name
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=target.parent, suffix=".part")
            try:
                with os.fdopen(fd, "wb") as out:
                    for piece in obstore.get(self.store, self.remote + name).stream(min_chunk_size=8 * 1024 * 1024):
                        out.write(piece)
                os.replace(temp, target)
            except BaseException:
                Path(temp).unlink(missing_ok=True)
                raise
        self.status.manifest = self.status.remote_manifest
        self.status.caught_up_at = time.time()
        self.status.bytes = sum(self._local_files().values())
        if self._store is not None:
            self._store.refresh()
        self._save_state()
        return self.status

    def check(self) -> None:
        """In the background, at most every ``check_s``: is the bucket's table newer? Then catch up. Never blocks."""
        if self._worker is not None and self._worker.is_alive():
            return
        if time.time() - self.status.checked_at < self.check_s:
            return
        self.status.checked_at = time.time()  # one check at a time, whatever the outcome

        def run() -> None:
            try:
                if not self.status.manifest or self.remote_manifest() != self.status.manifest:
                    self.catch_up()
                else:
                    self.status.remote_manifest = self.status.manifest
            except Exception as exc:  # noqa: BLE001 - the bucket unreachable: searches keep the replica they have
                log.warning("the library's local replica could not catch up: %s", exc)

        self._worker = threading.Thread(target=run, name="courtroom-replica", daemon=True)
        self._worker.start()

    def wait(self, timeout: float | None = None) -> None:
        """Until the background catch-up (if any) is done (tests, `courtroom library replica sync`)."""
        if self._worker is not None:
            self._worker.join(timeout)

    # ---------------------------------------------------------------- reading
    def vectors(self, dim: int) -> VectorStore | None:
        """The local table, when the replica holds one and is usable; None otherwise (read the bucket)."""
        if self.status.problem or not self.status.manifest:
            return None
        if self._store is None:
            from courtroom_desktop.core.library.store.vectors import VectorStore

            self._store = VectorStore(self.local_db, dim)
        return self._store

    def clear(self) -> None:
        """Delete the copy (it is made again at the next search)."""
        with self._lock:
            self._drop_files()
            self.status = ReplicaStatus(folder=self.folder, limit_bytes=self.limit_bytes)

    def _drop_files(self) -> None:
        self._store = None
        shutil.rmtree(self.local_db, ignore_errors=True)
        (self.root / STATE).unlink(missing_ok=True)
        self.status.manifest = ""
        self.status.bytes = 0


def newest(manifests: list[str]) -> str:
    """The newest of a table's manifest names: Lance writes ``_versions/<version>.manifest`` or, in its V2 naming,
    ``_versions/<u64::MAX - version>.manifest`` (zero-padded to 20 digits): the smallest such name is the newest."""
    if not manifests:
        return ""
    stems = [(name, Path(name).stem) for name in manifests]
    if all(len(stem) == 20 and stem.isdigit() for _, stem in stems):
        return min(stems, key=lambda pair: int(pair[1]))[0]
    return max(stems, key=lambda pair: int(pair[1]) if pair[1].isdigit() else -1)[0]
