"""API keys for OpenAI-compatible servers, one per base URL, kept in the OS keyring.

Where no usable keyring backend exists (a headless Linux box without a Secret Service), keys go to
``<data dir>/secrets.json`` created readable by the owner only (0600), and a warning is logged once.
Keys are never logged, and :class:`ApiKey` hides its value from ``repr``.

From a shell, the same entry can be set with the keyring tool: ``keyring set courtroom-desktop <base_url>``
(the base URL as normalised by :func:`normalize_base_url`).
"""

from __future__ import annotations

import json
import logging
import os
import stat
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit, urlunsplit

from courtroom_desktop import APP_ID
from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.lexicon.message import Message

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

log = logging.getLogger(__name__)

SERVICE = APP_ID
FALLBACK_FILE = "secrets.json"

_lock = threading.Lock()
_warned = False


class ApiKey(str):
    """A str whose repr never shows the key."""

    def __repr__(self) -> str:
        return "ApiKey('***')"


def normalize_base_url(base_url: str) -> str:
    """``HTTP://Host:8000/v1/`` and ``http://host:8000/v1`` name the same key."""
    raw = (base_url or "").strip()
    if not raw:
        raise ConfigError(Message("an API key needs the server's base_url"))
    parts = urlsplit(raw)
    if not parts.scheme or not parts.netloc:
        raise ConfigError(Message("base_url {raw} is not a URL like http://host:port/v1", f'{raw!r}'))
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/"), "", ""))


def mask(key: str | None) -> str:
    """For display: 'sk-...9f3a' style, or '(none)'."""
    if not key:
        return "(none)"
    return f"{key[:3]}...{key[-4:]}" if len(key) > 12 else "***"


def redact(text: str, *keys: str | None) -> str:
    """``text`` with every key in ``keys`` replaced by its mask (a server may quote the key it refused); a core
    message stays one, its values masked."""
    if isinstance(text, Message):
        return text.map(lambda value: redact(value, *keys))
    for key in keys:
        if key and len(key) >= 8 and key in text:
            text = text.replace(key, mask(key))
    return text


# ---------------------------------------------------------------------------- keyring or file

class _Keyring(Protocol):
    """What this module uses of the keyring module."""

    def get_keyring(self) -> KeyringBackend: ...

    def get_password(self, service_name: str, username: str) -> str | None: ...

    def set_password(self, service_name: str, username: str, password: str) -> None: ...

    def delete_password(self, service_name: str, username: str) -> None: ...


def _keyring_backend() -> _Keyring | None:
    """The keyring module when a real backend is active, else None."""
    try:
        import keyring
        from keyring.backends import fail
    except Exception:  # noqa: BLE001 - keyring missing or broken: use the file
        return None
    try:
        backend = keyring.get_keyring()
    except Exception:  # noqa: BLE001
        return None
    if isinstance(backend, fail.Keyring):
        return None
    try:
        priority = float(getattr(backend, "priority", 1))
    except Exception:  # noqa: BLE001 - some backends compute priority and raise when unusable
        return None
    if priority <= 0:
        return None
    return keyring


def _warn_fallback(path: Path, why: str) -> None:
    global _warned
    if not _warned:
        log.warning("no usable OS keyring (%s): API keys are stored in %s, readable by you only", why, path)
        _warned = True


def _fallback_path(data_dir: str | os.PathLike[str] | None) -> Path:
    from courtroom_desktop.core.config import data_dir as default_data_dir

    return default_data_dir(data_dir) / FALLBACK_FILE


def _read_file(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(
            Message("{path}: unreadable secrets file ({type(exc).__name__}); delete it and set the keys again",
                    path, type(exc).__name__)
        ) from None
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _write_file(path: Path, data: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)  # O_CREAT's mode is masked by umask and ignored for an existing file
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1, sort_keys=True)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, path)
    os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)


# ---------------------------------------------------------------------------- public API

def key_storage(*, data_dir: str | os.PathLike[str] | None = None) -> str:
    """Where API keys go on this machine, in words for the settings dialog and `courtroom doctor`."""
    keyring = _keyring_backend()
    if keyring is not None:
        backend = keyring.get_keyring()
        return f"the operating system's keyring ({getattr(backend, 'name', type(backend).__name__)})"
    return (f"{_fallback_path(data_dir)}, readable by you only (mode 0600): no operating-system keyring was found "
            "(on Linux, install and unlock a Secret Service such as GNOME Keyring or KWallet to use it)")


def get_api_key(base_url: str, *, data_dir: str | os.PathLike[str] | None = None) -> ApiKey | None:
    """The key stored for this server, or None."""
    name = normalize_base_url(base_url)
    keyring = _keyring_backend()
    if keyring is not None:
        try:
            value = keyring.get_password(SERVICE, name)
            return ApiKey(value) if value else None
        except Exception as exc:  # noqa: BLE001 - a locked or broken keyring: fall back to the file
            _warn_fallback(_fallback_path(data_dir), type(exc).__name__)
    path = _fallback_path(data_dir)
    with _lock:
        value = _read_file(path).get(name)
    return ApiKey(value) if value else None


def set_api_key(base_url: str, key: str, *, data_dir: str | os.PathLike[str] | None = None) -> str:
    """Store ``key`` for this server; returns where it went ('keyring' or the file path)."""
    if not key or not key.strip():
        raise ConfigError(Message("an empty API key cannot be stored; use delete_api_key to remove one"))
    name = normalize_base_url(base_url)
    keyring = _keyring_backend()
    if keyring is not None:
        try:
            keyring.set_password(SERVICE, name, key.strip())
            return "keyring"
        except Exception as exc:  # noqa: BLE001
            _warn_fallback(_fallback_path(data_dir), type(exc).__name__)
    else:
        _warn_fallback(_fallback_path(data_dir), "no backend")
    path = _fallback_path(data_dir)
    with _lock:
        data = _read_file(path)
        data[name] = key.strip()
        _write_file(path, data)
    return str(path)


def delete_api_key(base_url: str, *, data_dir: str | os.PathLike[str] | None = None) -> bool:
    """Remove the stored key; True when one was there."""
    name = normalize_base_url(base_url)
    removed = False
    keyring = _keyring_backend()
    if keyring is not None:
        try:
            if keyring.get_password(SERVICE, name) is not None:
                keyring.delete_password(SERVICE, name)
                removed = True
        except Exception as exc:  # noqa: BLE001
            _warn_fallback(_fallback_path(data_dir), type(exc).__name__)
    path = _fallback_path(data_dir)
    with _lock:
        data = _read_file(path)
        if name in data:
            del data[name]
            _write_file(path, data)
            removed = True
    return removed
