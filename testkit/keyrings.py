"""In-memory keyring backends standing for the OS keyring: install one with ``keyring.set_keyring(MemoryKeyring())``
and restore the previous backend afterwards.

Neither is ``viable``: keyring's own backend detection never picks them, so importing this module does not change
which keyring the rest of a process (a test session, a stress run) gets by default.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import keyring
import keyring.errors
from keyring.backend import KeyringBackend


class MemoryKeyring(KeyringBackend):
    """A keyring that works; ``store`` maps (service, username) to the password."""

    priority = 1     # a usable backend (the app treats priority <= 0 as no keyring)
    viable = False   # but never chosen by keyring.get_keyring()'s detection

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}

    def get_password(self, service, username):
        return self.store.get((service, username))

    def set_password(self, service, username, password):
        self.store[(service, username)] = password

    def delete_password(self, service, username):
        if self.store.pop((service, username), None) is None:
            raise keyring.errors.PasswordDeleteError("no such password")


class BrokenKeyring(MemoryKeyring):
    """A keyring that is there but locked: every read and write raises."""

    def get_password(self, service, username):
        raise keyring.errors.KeyringLocked("locked")

    def set_password(self, service, username, password):
        raise keyring.errors.KeyringLocked("locked")


@contextmanager
def installed(backend: KeyringBackend) -> Iterator[KeyringBackend]:
    """``backend`` as the process's keyring for the block; the previous one afterwards (also on failure)."""
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)
