"""Where each role's text goes: this computer (the embedded model, or a server on a loopback address) or a model
server on another machine. Private notes may only go to this computer (docs/notes.md).

Only loopback addresses count as this computer (localhost, 127.0.0.0/8, ::1): a server elsewhere on the local
network is another machine, and so is any host name other than localhost, since it could resolve anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from courtroom_desktop.core.embedder_settings import is_loopback
from courtroom_desktop.core.llm.ollama import DEFAULT_OLLAMA_URL

ROLES = ("prosecution", "defense", "judge")


@dataclass(frozen=True)
class Server:
    label: str      # 'this computer (bundled model)', 'Ollama at localhost:11434', 'api.example.com'
    url: str        # '' for the embedded model
    local: bool     # on this computer: private notes may go there


def server_of(spec) -> Server:
    """Where a ``config.ModelSpec`` sends its prompts."""
    if spec.provider == "embedded":
        name = "bundled model" if not spec.model else "GGUF file"
        return Server(f"this computer ({name}, llama.cpp in the app)", "", True)
    url = spec.base_url or (DEFAULT_OLLAMA_URL if spec.provider == "ollama" else "")
    where = urlsplit(url).netloc or url or "no URL set"
    kind = "Ollama" if spec.provider == "ollama" else "OpenAI-compatible server"
    local = bool(url) and is_loopback(url)
    return Server(f"{kind} at {where}" + (" (this computer)" if local else " (another machine)"), url, local)


def servers(models) -> dict[str, Server]:
    """role -> where its text goes, from ``config.ModelSettings``."""
    return {role: server_of(models.for_role(role)) for role in ROLES}


def embedder_server(library) -> Server:
    """Where a ``config.LibrarySettings``' embedder sends passage text (and queries): this computer for the bundled
    and local models, else its server."""
    from courtroom_desktop.core.embedder_settings import ENDPOINTS, describe, endpoint_url

    if library.embedder not in ENDPOINTS:
        return Server(f"this computer ({describe(library)})", "", True)
    url = endpoint_url(library)
    local = is_loopback(url)
    kind = "Ollama" if library.embedder == "ollama" else "OpenAI-compatible"
    return Server(f"the {kind} embedding server at {urlsplit(url).netloc or url}"
                  + (" (this computer)" if local else " (another machine)"), url, local)


def remote_roles(models, library=None) -> dict[str, Server]:
    """The roles whose text leaves this computer; with ``library`` (``config.LibrarySettings``), the embedder too
    (as role 'embedder'): it receives the text of every passage it embeds."""
    remote = {role: server for role, server in servers(models).items() if not server.local}
    if library is not None and not (embedder := embedder_server(library)).local:
        remote["embedder"] = embedder
    return remote
