"""Which text may leave this computer: the one rule for "this computer", where each role's text and the embedder's
go, and what that means for private documents (``Document.private``). The library, the retriever, the court, the
watcher and the window ask this module; none of them decides it on its own.

This computer is a server addressed as the literal host name ``localhost``, an address in 127.0.0.0/8, ``::1``, or
the IPv4-mapped form of one of those (``::ffff:127.0.0.1``). Everything else is another machine: ``*.localhost``
(a name that a resolver may send anywhere), ``0.0.0.0`` (a listening address, not a peer), any other host name
(it could resolve anywhere), and the private ranges (10/8, 172.16/12, 192.168/16: another computer on the network).
The embedded llama.cpp model and the bundled or local embedders run in the app: this computer.

Private documents never reach another machine:

- the library refuses to embed one with an embedder on another machine (``embedding_refusal``): at ingest, for a
  file landing in a private watched folder, and on switching embedder;
- a trial refuses to start or resume while its scope holds one and a role's model server or the embedder is on
  another machine (``TrialPolicy.check``, the message names the documents, the roles and the servers);
- while such a trial runs, every search leaves private documents out (``TrialPolicy.scope``), and the trial records
  which it left out; before every model call and every embedding the check runs again, so a trial whose scope became
  private mid-way (a note saved into a private folder, a document marked private) stops with the start's message
  before any of that text is sent.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Self, TypeVar
from urllib.parse import urlsplit

from courtroom_desktop.core.embedder_settings import ENDPOINTS, OLLAMA_URL, describe, endpoint_url
from courtroom_desktop.core.errors import TrialError
from courtroom_desktop.core.lexicon.message import Message, joined

if TYPE_CHECKING:
    from courtroom_desktop.core.config import LibrarySettings, ModelSettings, ModelSpec

ROLES = ("prosecution", "defense", "judge")
LOCALHOST = "localhost"


def is_this_computer(url: str) -> bool:
    """Whether a server at ``url`` (or ``host:port``) is on this computer, by the rule in the module's docstring."""
    text = (url or "").strip()
    try:
        host = urlsplit(text if "//" in text else f"//{text}").hostname or ""
    except ValueError:  # a malformed address (an unclosed '[') names no computer we know
        return False
    host = host.strip("[]").lower()
    if host == LOCALHOST:
        return True
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])  # a zone id ('fe80::1%eth0') is not part of the address
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


# ------------------------------------------------------------------------------------------ where text goes

@dataclass(frozen=True)
class Server:
    label: str      # 'this computer (bundled model)', 'Ollama at localhost:11434', 'api.example.com'
    url: str        # '' for a model that runs in the app
    local: bool     # on this computer: private documents may go there


#: The roles (and the embedder) as a message names them
_ROLE = {"prosecution": Message("prosecution"), "defense": Message("defense"), "judge": Message("judge"),
         "embedder": Message("embedder")}


def server_of(spec: ModelSpec) -> Server:
    """Where a ``config.ModelSpec`` sends its prompts."""
    if spec.provider == "embedded":
        return Server(Message("this computer (bundled model, llama.cpp in the app)") if not spec.model
                      else Message("this computer (GGUF file, llama.cpp in the app)"), "", True)
    url = spec.base_url or (OLLAMA_URL if spec.provider == "ollama" else "")
    where = urlsplit(url).netloc or url or Message("no URL set")
    local = bool(url) and is_this_computer(url)
    if spec.provider == "ollama":
        label = (Message("Ollama at {where} (this computer)", where) if local
                 else Message("Ollama at {where} (another machine)", where))
    else:
        label = (Message("OpenAI-compatible server at {where} (this computer)", where) if local
                 else Message("OpenAI-compatible server at {where} (another machine)", where))
    return Server(label, url, local)


def servers(models: ModelSettings) -> dict[str, Server]:
    """role -> where its text goes, from ``config.ModelSettings``."""
    return {role: server_of(models.for_role(role)) for role in ROLES}


def embedder_server(library: LibrarySettings) -> Server:
    """Where a ``config.LibrarySettings``' embedder sends passage text (and queries): this computer for the bundled
    and local models, else its server."""
    if library.embedder not in ENDPOINTS:
        return Server(Message("this computer ({embedder})", describe(library)), "", True)
    url = endpoint_url(library)
    local = is_this_computer(url)
    where = urlsplit(url).netloc or url
    if library.embedder == "ollama":
        label = (Message("the Ollama embedding server at {where} (this computer)", where) if local
                 else Message("the Ollama embedding server at {where} (another machine)", where))
    else:
        label = (Message("the OpenAI-compatible embedding server at {where} (this computer)", where) if local
                 else Message("the OpenAI-compatible embedding server at {where} (another machine)", where))
    return Server(label, url, local)


def where_text_goes(models: ModelSettings, library: LibrarySettings) -> dict[str, Server]:
    """role -> its server, and 'embedder' -> the embedder's (passages and queries), from today's settings."""
    return {**servers(models), "embedder": embedder_server(library)}


def remote_roles(models: ModelSettings, library: LibrarySettings | None = None) -> dict[str, Server]:
    """The roles whose text leaves this computer; with ``library`` (``config.LibrarySettings``), the embedder too
    (as role 'embedder'): it receives the text of every passage it embeds."""
    remote = {role: server for role, server in servers(models).items() if not server.local}
    if library is not None and not (embedder := embedder_server(library)).local:
        remote["embedder"] = embedder
    return remote


# ------------------------------------------------------------------------------------------ the library

def _names(docs: Sequence[object]) -> str:
    names = ", ".join(repr(getattr(d, "title", "") or Path(getattr(d, "path", "")).name) for d in docs[:3])
    return names + (f" and {len(docs) - 3} more" if len(docs) > 3 else "")


def embedding_refusal(docs: Iterable[object], embedder: object) -> str:
    """Why ``docs`` (Documents) may not be embedded by ``embedder`` ('' when they may): a private document never goes
    to an embedding server on another machine. An embedder that runs in the app has no ``base_url``."""
    url = getattr(embedder, "base_url", "")
    if not url or is_this_computer(url):
        return ""
    private = [d for d in docs if getattr(d, "private", False)]
    if not private:
        return ""
    names, where = _names(private), getattr(embedder, "where", url)
    if len(private) == 1:
        return Message("private document {names} would be sent to {where} ({url}), another machine: use an embedder "
                       "on this computer (Settings → Library → Embedder), or mark the document not private",
                       names, where, url)
    return Message("private documents {names} would be sent to {where} ({url}), another machine: use an embedder on "
                   "this computer (Settings → Library → Embedder), or mark the documents not private", names, where, url)


# ------------------------------------------------------------------------------------------ a trial

class _Scope(Protocol):
    """What the policy needs of a retrieval scope (``core.retrieval.scope.Scope``)."""

    def without_private(self) -> Self: ...


ScopeT = TypeVar("ScopeT", bound=_Scope)


@dataclass
class TrialPolicy:
    """The privacy rule for one trial, from the settings it runs with.

    remote:       role (and 'embedder') -> its server, for those on another machine; empty: everything stays here
    scope_ids:    the documents the trial was given (None: the whole library)
    library_ids:  () -> the library's ready documents now (the whole-library scope)
    private_ids:  ids -> the private ones among them, read from the catalog at each call (flags change mid-trial)
    title_of:     id -> a document's title, for messages
    """

    remote: Mapping[str, Server]
    scope_ids: frozenset[str] | None
    library_ids: Callable[[], Iterable[str]]
    private_ids: Callable[[Iterable[str]], frozenset[str]]
    title_of: Callable[[str], str] = str
    _recorded: set[str] = field(default_factory=set, repr=False)

    @property
    def sends_away(self) -> bool:
        """Whether any text of this trial goes to another machine."""
        return bool(self.remote)

    def scope(self, scope: ScopeT | None) -> ScopeT | None:
        """The retrieval scope the trial searches with: without private documents while text goes away."""
        return scope.without_private() if self.sends_away and scope is not None else scope

    def private_in_scope(self, heard: Iterable[str] = ()) -> list[str]:
        """The private documents among the trial's scope and the documents already heard (``heard``, document ids),
        sorted; empty when nothing goes away."""
        if not self.sends_away:
            return []
        ids = set(self.scope_ids) if self.scope_ids is not None else set(self.library_ids())
        return sorted(self.private_ids(ids | set(heard)))

    def check(self, heard: Iterable[str] = ()) -> None:
        """Raise the trial's refusal (``TrialError``) when private documents are in scope or were heard while text
        goes to another machine: at start, at resume, and before each model call and embedding of a running trial."""
        private = self.private_in_scope(heard)
        if private:
            raise self.refusal(private)

    def refusal(self, private: list[str]) -> TrialError:
        titles = [self.title_of(i) or i for i in private[:3]]
        more = f" and {len(private) - 3} more" if len(private) > 3 else ""
        return TrialError(
            Message("this trial would send private notes ({', '.join((repr(t) for t in titles))}{more}) to a model "
                    "server on another machine: {self.sends()}",
                    ', '.join(repr(t) for t in titles), more, self.sends()),
            fix=Message("use a model on this computer for those roles (Settings → Models, or --model "
                        "ROLE=ollama:MODEL with a local Ollama), an embedder on this computer (Settings → Library), or "
                        "leave the private notes out of the trial's scope (Scope…, or --documents)")
            if "embedder" in self.remote else
            Message("use a model on this computer for those roles (Settings → Models, or --model ROLE=ollama:MODEL "
                    "with a local Ollama), or leave the private notes out of the trial's scope (Scope…, or "
                    "--documents)"))

    def sends(self) -> str:
        """'the judge would send it to OpenAI-compatible server at api.example.com (another machine) (https://...)'."""
        return joined(Message("the {role} would send it to {server} ({url})", _ROLE[role], server.label, server.url)
                      if server.url else Message("the {role} would send it to {server}", _ROLE[role], server.label)
                      for role, server in self.remote.items())

    def left_out(self) -> list[str]:
        """The private documents of the scope that this trial's searches leave out and that were not reported yet
        (each is reported once); empty when nothing goes away."""
        fresh = [i for i in self.private_in_scope() if i not in self._recorded]
        self._recorded.update(fresh)
        return fresh

    def left_out_titles(self, ids: list[str]) -> list[str]:
        """The titles of private documents left out (their ids where they have none), for the trial's warning."""
        return [self.title_of(i) or i for i in ids]
