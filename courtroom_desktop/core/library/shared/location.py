"""Where a library lives: a folder on this machine (the default) or a prefix on object storage (``s3://``, ``gs://``,
``az://``; an S3-compatible server such as MinIO, an Azure account's own URL or an emulator through
``library.endpoint``).

The URI and the endpoint are settings; credentials never are. They come from the environment (the variables each
store's own SDK reads: ``AWS_ACCESS_KEY_ID`` / ``AWS_SECRET_ACCESS_KEY`` / ``AWS_SESSION_TOKEN``,
``GOOGLE_APPLICATION_CREDENTIALS`` / ``GOOGLE_SERVICE_ACCOUNT`` / ``GOOGLE_SERVICE_ACCOUNT_KEY``,
``AZURE_STORAGE_ACCOUNT_KEY`` ...) or from the OS keyring,
where ``courtroom library credentials URI`` stores them as one entry per bucket (core.secrets). The same options
reach LanceDB (its ``storage_options``) and obstore (the commit lock and the file store): both are built on the
Rust ``object_store`` crate and read the same keys.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.lexicon.message import Message

SCHEMES = {"s3": "s3", "s3a": "s3", "gs": "gs", "gcs": "gs", "az": "az", "azure": "az", "abfs": "az", "abfss": "az"}
"""The object stores a library may live on, by URI scheme (the value: the store's kind)."""

CREDENTIAL_FIELDS = {
    "s3": ("aws_access_key_id", "aws_secret_access_key", "aws_session_token"),
    "gs": ("google_service_account_key", "google_service_account"),
    "az": ("azure_storage_account_name", "azure_storage_account_key", "azure_storage_sas_key"),
}
"""What a keyring entry may hold per store (the ``object_store`` option names)."""

ENDPOINT_OPTIONS = {"s3": "aws_endpoint", "gs": "google_base_url", "az": "azure_storage_endpoint"}
"""The option ``library.endpoint`` sets per store: an S3-compatible server, GCS's base URL, an Azure account's URL."""


@dataclass(frozen=True)
class LibraryLocation:
    """A library's place. ``uri``: a local folder's path, or an object-storage URI with its bucket and prefix.
    ``options``: what LanceDB and obstore need to reach it, credentials included (never written anywhere;
    ``repr`` leaves them out)."""

    uri: str
    kind: str = "file"  # 'file', 's3', 'gs' or 'az'
    read_only: bool = False
    options: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def shared(self) -> bool:
        """On object storage, where other machines (and other writers) reach it too."""
        return self.kind != "file"

    @property
    def bucket(self) -> str:
        return urlsplit(self.uri).netloc if self.shared else ""

    @property
    def credentials_name(self) -> str:
        """The keyring entry of this library's bucket: one per store and bucket (``s3://team-papers``)."""
        parts = urlsplit(self.uri)
        return f"{parts.scheme.lower()}://{parts.netloc.lower()}"

    def child(self, *names: str) -> str:
        """A URI (or path) inside the library."""
        if not self.shared:
            return str(Path(self.uri, *names))
        return "/".join([self.uri.rstrip("/"), *names])

    def cache_folder(self, data_dir: Path) -> Path:
        """This machine's folder for the library's local parts (its BM25 index, the embedding and OCR caches, the
        fetched PDFs): one per URI under the data folder. A local library is its own folder."""
        if not self.shared:
            return Path(self.uri)
        digest = hashlib.sha256(self.uri.rstrip("/").encode()).hexdigest()[:16]
        return Path(data_dir) / "shared" / f"{self.bucket}-{digest}"

    def describe(self) -> str:
        """Where it lives, in words for the window and `courtroom library info`."""
        if not self.shared:
            return Message("this computer: {self.uri}", self.uri)
        where = {"s3": "S3", "gs": "Google Cloud Storage", "az": "Azure Blob Storage"}[self.kind]
        endpoint = self.options.get(ENDPOINT_OPTIONS[self.kind])
        if endpoint:
            return (Message("{where}: {uri} at {endpoint} (read-only)", where, self.uri, endpoint) if self.read_only
                 else Message("{where}: {uri} at {endpoint} (read-write)", where, self.uri, endpoint))
        return (Message("{where}: {uri} (read-only)", where, self.uri) if self.read_only
                 else Message("{where}: {uri} (read-write)", where, self.uri))


def locate(uri: str, default_folder: Path, *, endpoint: str = "", region: str = "", read_only: bool = False,
           data_dir: str | os.PathLike[str] | None = None) -> LibraryLocation:
    """The location ``library.uri`` names: empty for ``default_folder``; a path; or an object-storage URI, whose
    options are gathered from the settings (endpoint, region), the keyring entry of its bucket, then the
    environment (which the stores' SDKs read themselves as well)."""
    raw = (uri or "").strip()
    if not raw:
        return LibraryLocation(str(Path(default_folder)), read_only=read_only)
    parts = urlsplit(raw)
    scheme = parts.scheme.lower()
    if scheme in ("", "file") or (len(scheme) == 1 and os.name == "nt"):  # a path (C:\... on Windows)
        path = Path(parts.path if scheme == "file" else raw).expanduser()
        return LibraryLocation(str(path.resolve()), read_only=read_only)
    if scheme not in SCHEMES:
        raise ConfigError(Message("library.uri {raw}: '{scheme}://' is not a store the library can live on; use a "
                                  "folder, s3://bucket/prefix, gs://bucket/prefix or az://container/prefix",
                                  f'{raw!r}', scheme))
    if not parts.netloc:
        raise ConfigError(Message("library.uri {raw} names no bucket: write it as {scheme}://bucket/prefix",
                                  f'{raw!r}', scheme))
    kind = SCHEMES[scheme]
    options: dict[str, str] = {}
    if endpoint:
        options[ENDPOINT_OPTIONS[kind]] = endpoint.rstrip("/")
        options["allow_http"] = "true" if endpoint.startswith("http://") else "false"
    if kind == "s3":
        region = region or os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or ""
        if region:
            options["aws_region"] = region
        elif endpoint:  # an S3-compatible server (MinIO, moto) takes any region; the SDKs insist on one
            options["aws_region"] = "us-east-1"
    location = LibraryLocation(raw.rstrip("/"), kind, read_only)
    options.update(stored_credentials(location, data_dir))
    options.update(environment_credentials(kind))
    return LibraryLocation(location.uri, kind, read_only, options)


def environment_credentials(kind: str) -> dict[str, str]:
    """Credentials the environment names, in the stores' option names (so that one set reaches LanceDB and
    obstore alike); they win over the keyring's."""
    names = {
        "s3": {"AWS_ACCESS_KEY_ID": "aws_access_key_id", "AWS_SECRET_ACCESS_KEY": "aws_secret_access_key",
               "AWS_SESSION_TOKEN": "aws_session_token"},
        "gs": {"GOOGLE_SERVICE_ACCOUNT": "google_service_account",
               "GOOGLE_APPLICATION_CREDENTIALS": "google_service_account",
               "GOOGLE_SERVICE_ACCOUNT_KEY": "google_service_account_key"},
        "az": {"AZURE_STORAGE_ACCOUNT_NAME": "azure_storage_account_name",
               "AZURE_STORAGE_ACCOUNT_KEY": "azure_storage_account_key"},
    }[kind]
    return {option: os.environ[var] for var, option in names.items() if os.environ.get(var)}


def stored_credentials(location: LibraryLocation, data_dir: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """The keyring entry of the location's bucket, if any (a JSON object of ``CREDENTIAL_FIELDS``)."""
    from courtroom_desktop.core.secrets import get_api_key

    stored = get_api_key(location.credentials_name, data_dir=data_dir)
    if not stored:
        return {}
    try:
        values = json.loads(stored)
    except ValueError:
        raise ConfigError(Message("the keyring entry for {location.credentials_name} is not what `courtroom library "
                                  "credentials` writes: set it again with that command",
                                  location.credentials_name)) from None
    allowed = CREDENTIAL_FIELDS[location.kind]
    return {k: str(v) for k, v in values.items() if k in allowed and v}


def store_credentials(location: LibraryLocation, values: dict[str, str],
                      data_dir: str | os.PathLike[str] | None = None) -> str:
    """Keep a bucket's credentials in the OS keyring (never the settings file); returns where they went."""
    from courtroom_desktop.core.secrets import set_api_key

    if not location.shared:
        raise ConfigError(Message("{location.uri} is a folder on this computer: it needs no credentials",
                                  location.uri))
    allowed = CREDENTIAL_FIELDS[location.kind]
    unknown = sorted(set(values) - set(allowed))
    if unknown:
        raise ConfigError(Message("{', '.join(unknown)}: not a credential of {location.kind} (use {', "
                                  "'.join(allowed)})",
                                  ', '.join(unknown), location.kind, ', '.join(allowed)))
    kept = {k: v for k, v in values.items() if v}
    if not kept:
        raise ConfigError(Message("no credential given"))
    return set_api_key(location.credentials_name, json.dumps(kept), data_dir=data_dir)
