"""A host name that resolves to loopback inside a test: ``resolving("models.remote.localhost")`` makes that one name
resolve to 127.0.0.1 for everything in this process that looks names up through ``socket.getaddrinfo`` (httpx, the
OpenAI and Ollama clients, asyncio), and leaves every other name alone.

The privacy rule (core.privacy) counts such a name as another machine, so a fake server reached through it is, to
the app, a model server elsewhere, while the traffic stays on this computer's loopback.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def resolving(name: str, address: str = "127.0.0.1") -> Iterator[None]:
    real = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        if isinstance(host, bytes):
            host = host.decode()
        return real(address if host == name else host, *args, **kwargs)

    socket.getaddrinfo = getaddrinfo
    try:
        yield
    finally:
        socket.getaddrinfo = real
