"""The library beyond a workspace's use cases: notes written in the app, watched folders, a text document's text,
the embedder's identity and settings in words, where it sends text, the cancel token of long work, the Ray ingest
engine, where a library lives (its location and the credentials of its bucket), a Zotero library brought in, and
whether an ONNX embedding model runs in a child process (the window's choice)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtroom_desktop.core.services._lazy import exports

if TYPE_CHECKING:
    from courtroom_desktop.core.cancel import CancelToken
    from courtroom_desktop.core.embedder_settings import OLLAMA_URL, describe
    from courtroom_desktop.core.library.embed.child import use as use_embedding_child
    from courtroom_desktop.core.library.embed.embedder import identity_of
    from courtroom_desktop.core.library.notes import list_notes, read_note
    from courtroom_desktop.core.library.ray_engine import RayEngine, shutdown
    from courtroom_desktop.core.library.read.text_files import document_text
    from courtroom_desktop.core.library.shared.location import CREDENTIAL_FIELDS, locate, store_credentials
    from courtroom_desktop.core.library.watch import FolderWatcher, WatchReport, folders_of, unwatching, watching
    from courtroom_desktop.core.library.zotero import (
        ZoteroImport,
        collection_of,
        import_items,
        read_zotero,
        scope_of,
    )
    from courtroom_desktop.core.privacy import embedder_server

__all__ = ["CREDENTIAL_FIELDS", "OLLAMA_URL", "CancelToken", "FolderWatcher", "RayEngine", "describe", "document_text", "embedder_server",
           "folders_of", "identity_of", "list_notes", "locate", "read_note", "shutdown", "store_credentials",
           "unwatching", "watching", "WatchReport", "ZoteroImport", "import_items", "read_zotero", "scope_of",
           "collection_of",
           "use_embedding_child"]

__getattr__ = exports({
    "CancelToken": "cancel:CancelToken",
    "document_text": "library.read.text_files:document_text",
    "FolderWatcher": "library.watch:FolderWatcher", "folders_of": "library.watch:folders_of",
    "watching": "library.watch:watching", "unwatching": "library.watch:unwatching",
    "WatchReport": "library.watch:WatchReport",
    "read_note": "library.notes:read_note", "list_notes": "library.notes:list_notes",
    "identity_of": "library.embed.embedder:identity_of",
    "use_embedding_child": "library.embed.child:use",
    "RayEngine": "library.ray_engine:RayEngine", "shutdown": "library.ray_engine:shutdown",
    "locate": "library.shared.location:locate", "CREDENTIAL_FIELDS": "library.shared.location:CREDENTIAL_FIELDS",
    "store_credentials": "library.shared.location:store_credentials",
    "OLLAMA_URL": "embedder_settings:OLLAMA_URL", "describe": "embedder_settings:describe",
    "embedder_server": "privacy:embedder_server",
    "read_zotero": "library.zotero:read_zotero", "import_items": "library.zotero:import_items",
    "scope_of": "library.zotero:scope_of", "collection_of": "library.zotero:collection_of",
    "ZoteroImport": "library.zotero:ZoteroImport",
}, __name__)
