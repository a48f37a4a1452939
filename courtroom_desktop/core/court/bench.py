"""What a trial's steps (a counsel's turn, the judge's assessment, ruling and verdict) may use of the court that runs
them: ``Bench``, a protocol the ``Court`` meets (it passes itself), naming the settings, the chat model of a role, the
retriever and its scope, the verifier's readings of the pool, and the few calls back (recording what privacy left
out, an embedder's failure, admitting passages to the pool). ``ChatModel``, ``Retriever`` and ``Verifier`` are what
the court asks of the collaborators it is handed (core.llm, core.retrieval and core.verifier implement them; the
court imports none of them); ``Emit`` records an event and hands back
the stored one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.court.prompts import Messages
from courtroom_desktop.core.court.records import PoolEntry, Seat, Stance, _Event
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.records import Evidence, Usage, VerifierReading

E = TypeVar("E", bound=_Event)
M = TypeVar("M", bound=BaseModel)


class Emit(Protocol):
    """Records an event of the trial and hands back the stored copy (its sequence number and trial id set)."""

    def __call__(self, event: E, /) -> E: ...


class ChatModel(Protocol):
    """A role's chat model (core.llm.ChatModel)."""

    @property
    def context_window(self) -> int: ...

    @property
    def default_max_tokens(self) -> int: ...

    def count_tokens(self, text: str) -> int: ...

    async def complete(self, messages: Messages, *, max_tokens: int | None = None, stop: list[str] | None = None,
                       on_token: Callable[[str], None] | None = None) -> tuple[str, Usage]: ...

    async def structured(self, messages: Messages, schema: type[M], *, max_tokens: int | None = None,
                         retry: bool = True) -> tuple[M, Usage]: ...


class Retriever(Protocol):
    """Searches the library (core.retrieval.Retriever); ``scope`` is the retriever's own (core.retrieval.Scope)."""

    async def asearch(self, queries: str | Sequence[str], k: int | None = None,
                      scope: Any = None) -> list[Evidence]: ...


class Verifier(Protocol):
    """Scores (claim, passage) pairs (core.verifier.ClaimVerifier): calibrated readings, one per pair, in order. It
    is called in a thread, never on the event loop."""

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[VerifierReading]: ...


class Bench(Protocol):
    """What the steps of a trial use of the court that runs them (``engine.Court``)."""

    @property
    def settings(self) -> DebateSettings: ...

    @property
    def retriever(self) -> Retriever: ...

    @property
    def scope(self) -> Any: ...

    @property
    def k(self) -> int: ...

    @property
    def model_queries(self) -> bool: ...

    def model(self, role: str) -> ChatModel: ...

    async def record_left_out(self, emit: Emit, round_number: int) -> None: ...

    def embedding_failed(self, problem: str, emit: Emit | None, round_number: int) -> None: ...

    async def admit(self, state: TrialState, found: list[Evidence], seat: Seat, stance: Stance, round_number: int,
                    emit: Emit, novel_only: bool = True) -> list[PoolEntry]: ...

    async def readings(self, state: TrialState) -> dict[str, VerifierReading]: ...
