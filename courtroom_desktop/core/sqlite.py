"""The one way the core opens its SQLite files (the library's catalog, the trial store)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path


def open_db(path: Path, schema: str) -> sqlite3.Connection:
    """Open (creating folder and file as needed) a connection for use from any thread, behind the caller's own lock:
    autocommit (transactions are explicit), WAL, and ``synchronous=NORMAL``: in WAL mode a commit then does not wait
    for the disk (an fsync per write), and a committed row still survives the process being killed; only a power cut
    may lose the last ones. ``schema`` is run once (CREATE ... IF NOT EXISTS)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(str(path), check_same_thread=False, timeout=30, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.executescript(schema)
    return db


class SqliteFile:
    """One SQLite file with its ``SCHEMA``, one connection shared by threads behind ``self._lock``."""

    SCHEMA = ""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._lock = threading.RLock()
        self._db = open_db(self.path, self.SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()
