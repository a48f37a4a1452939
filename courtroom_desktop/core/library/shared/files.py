"""The files of a library on object storage: each document's file is kept beside the library, under
``files/<sha256><suffix>`` (by content: two writers storing the same file write the same object, created once), so
that a colleague's machine, or this one after the file moved, still opens the page and highlights the passage. A file
is fetched on first use into this machine's cache (``<cache folder>/files``) and read from there afterwards."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from courtroom_desktop.core.errors import LibraryError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.library.shared.location import LibraryLocation

FOLDER = "files"


def stored_name(sha256: str, path: str) -> str:
    return f"{FOLDER}/{sha256}{Path(path).suffix.lower()}"


class SharedFiles:
    def __init__(self, location: LibraryLocation, cache: Path):
        from courtroom_desktop.core.library.shared.commit_lock import object_store

        self.location = location
        self.store: Any = object_store(location)
        self.cache = Path(cache) / FOLDER
        self._kept: set[str] = set()  # stored by this process already (put_bytes): not read again

    def put(self, path: str, sha256: str) -> None:
        """Keep the file at ``path`` (on this machine) beside the library, once per content."""
        name = stored_name(sha256, path)
        if name in self._kept:
            return
        if not Path(path).is_file():
            return  # a document given as text (a benchmark corpus): no file to keep
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise LibraryError(Message("{path}: cannot read the file to keep it in the shared library "
                                       "({exc.strerror})",
                                       path, exc.strerror)) \
                from exc
        self.put_bytes(path, sha256, data)

    def put_bytes(self, path: str, sha256: str, data: bytes) -> None:
        """Keep a file's bytes, read already, beside the library, once per content."""
        import obstore
        from obstore.exceptions import AlreadyExistsError

        name = stored_name(sha256, path)
        try:
            obstore.put(self.store, name, data, mode="create")
        except AlreadyExistsError:
            pass  # the same content, stored by anyone before
        self._kept.add(name)

    def local(self, path: str, sha256: str) -> Path:
        """A readable copy: a copy fetched before, else the file at ``path`` if this machine has it, else the stored
        copy, fetched now (in the caller's thread: never the window's)."""
        import obstore
        from obstore.exceptions import NotFoundError

        here = Path(path)
        cached = self.cache / Path(stored_name(sha256, path)).name
        if cached.is_file():
            return cached
        if here.is_file():
            return here
        name = stored_name(sha256, path)
        try:
            data = bytes(obstore.get(self.store, name).bytes())
        except NotFoundError:
            raise LibraryError(Message("{path} is not on this computer and the shared library has no copy of it "
                                       "({self.location.uri}/{name}): ingest it again from a machine that has it",
                                       path, self.location.uri, name)) from None
        self.cache.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=self.cache, suffix=".part")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temp, cached)  # whole or absent: a half-fetched file is never opened
        return cached
