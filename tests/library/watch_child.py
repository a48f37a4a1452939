"""The child of the watched-folder kill test: watches FOLDER for LIBRARY with a slow embedder (so a re-ingest takes a
while), prints "started" once it watches, and "embedding PATH" whenever it embeds a file; it runs until killed.

    python -m tests.library.watch_child LIBRARY FOLDER
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from courtroom_desktop.core.library import Library
from courtroom_desktop.core.library.watch import Folder, FolderWatcher
from stress.common import HashEmbedder, library_settings


class SlowEmbedder(HashEmbedder):
    """The stress harness's hashing embedder (the same vectors), 0.15 s a batch."""

    def encode(self, texts):
        time.sleep(0.15)
        return super().encode(texts)


def main(library_root: str, folder: str) -> None:
    library = Library.open(Path(library_root), library_settings(embed_batch=2), SlowEmbedder())

    def on_event(event) -> None:
        if event.kind == "file_progress" and event.stage.value == "embed" and event.chunks_done <= 2:
            print(f"embedding {event.path}", flush=True)

    watcher = FolderWatcher(library, [Folder(Path(folder).resolve())], debounce_ms=200, on_event=on_event)
    watcher.start()
    watcher.ready.wait(60)
    print("started", flush=True)
    time.sleep(600)  # until killed


if __name__ == "__main__":
    main(*sys.argv[1:3])
