"""The debate engine: the flow of a trial. Turns with progressive retrieval, judge rulings, role switches, the stop
rule and the verdict, as one typed async stream of events that is persisted as it happens and can be resumed.

    court = Court(models, retriever, store, settings)
    trial_id = court.start(spec)                 # the trial's record, with the debate settings
    async for event in court.run(trial_id): ...  # a new trial, or a stopped one from its last complete turn

The state of a trial is a pure function of its stored events (``state.TrialState.from_events``); the next step is a
pure function of the state and the rules (``rules``). So a trial killed at any point resumes where it stopped, and
nothing is redone but the step that was in flight.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, cast

import numpy as np

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.court import counsel, judge, rules
from courtroom_desktop.core.court.bench import ChatModel, E, Emit, Retriever, Verifier
from courtroom_desktop.core.court.checks import overlap
from courtroom_desktop.core.court.counsel import SEAT_MODEL
from courtroom_desktop.core.court.injection import looks_like_instructions
from courtroom_desktop.core.court.levels import evidence_level
from courtroom_desktop.core.court.records import (
    Code,
    ErrorEvent,
    EvidenceAdded,
    EvidenceTurnedAway,
    PoolEntry,
    Reason,
    RolesSwitched,
    Seat,
    Stance,
    TrialEvent,
    TrialResumed,
    TrialSpec,
    TrialStarted,
    TrialWarning,
    TurnedAway,
    _Event,
)
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.court.store import Recorder, TrialStore
from courtroom_desktop.core.errors import (
    Cancelled,
    CourtroomError,
    LibraryError,
    ModelError,
    ModelUnavailable,
    TrialError,
)
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.privacy import TrialPolicy
from courtroom_desktop.core.records import MODEL_CALLS, Evidence, ModelCall, VerifierReading

log = logging.getLogger(__name__)

_END = object()


class Court:
    """Runs trials. Collaborators are passed in, so tests can hand in scripted models and a small library. The
    steps of a trial (``counsel``, ``judge``) are handed the Court itself, which they see as a ``bench.Bench``.

    models:    role name ('prosecution', 'defense', 'judge') -> ChatModel (core.llm)
    retriever: has ``async asearch(queries, k, scope) -> list[Evidence]``
    embed:     texts -> normalised vectors (novelty filter, repeated-controversy check); None: word overlap
    covers:    text -> does ``embed`` read its language? Where it does not (Chinese and the English-only bundled
               model), the court compares words instead of vectors
    k:         passages retrieved per counsel turn
    privacy:   core.privacy.TrialPolicy, or None: while the trial's text goes to another machine, every model call
               and embedding first checks that no private document is in scope or heard (a TrialError, the start's
               message, stops the trial otherwise), and passages of private documents left out of its searches are
               recorded as a warning
    """

    def __init__(self, models: Callable[[str], ChatModel], retriever: Retriever, store: TrialStore,
                 settings: DebateSettings | None = None, embed: Callable[[list[str]], np.ndarray] | None = None,
                 scope: Any = None, k: int = 6, model_queries: bool = True, covers: Callable[[str], bool] | None = None,
                 privacy: TrialPolicy | None = None, verifier: Verifier | None = None) -> None:
        self.models = models
        self.verifier = verifier
        self.retriever = retriever
        self.store = store
        self.settings = settings or DebateSettings()
        self.embed = embed
        self.scope = scope
        self.k = k
        self.model_queries = model_queries
        self.covers = covers or (lambda text: True)
        self.privacy = privacy if privacy is not None and privacy.sends_away else None
        self._vectors: dict[str, np.ndarray] = {}
        self._embedding_warned = False
        self._state: TrialState | None = None  # the trial being driven: what the privacy check reads
        self._calls: Callable[[ModelCall], None] | None = None  # where its model calls are kept

    # ---------------------------------------------------------------- public
    def start(self, spec: TrialSpec) -> str:
        """Create the trial record; ``run(trial_id)`` then drives it."""
        spec = spec.model_copy(update={"settings": self.settings.model_dump(mode="json")})
        if not spec.claim.strip():
            raise TrialError(Message("the claim is empty: say what should be put on trial"))
        return self.store.create(spec)

    async def run(self, trial_id: str) -> AsyncIterator[TrialEvent]:
        """Drive a trial from wherever its stored events leave it; yields every event as it happens. Events are
        written in order by a thread of their own (``store.Recorder``), never on the event loop."""
        spec, events = await asyncio.to_thread(lambda: (self.store.spec(trial_id), self.store.events(trial_id)))
        state = TrialState.from_events(trial_id, spec, events)
        if state.verdict is not None:
            raise TrialError(Message("trial {trial_id} already has a verdict", trial_id))
        queue: asyncio.Queue[object] = asyncio.Queue()
        recorder = Recorder(self.store, trial_id, events[-1].seq if events else 0)
        self._calls = recorder.call  # every model call's prompt and raw answer, kept with the trial

        def emit(event: E) -> E:
            stored = recorder.record(event)
            queue.put_nowait(stored)
            return stored

        async def drive() -> None:
            try:
                if not events:
                    emit(TrialStarted(spec=spec, assignments={k.value: v for k, v in state.assignments.items()}))
                else:
                    emit(TrialResumed(from_round=state.round, discarded=state.in_flight))
                recorder.status("running")
                await self._drive(state, emit, queue)
                verdict = state.verdict
                assert verdict is not None  # _drive returns with the verdict
                await recorder.flush()  # a verdict that could not be saved is an error, not a finished trial
                recorder.status("finished", verdict.label.value, verdict.confidence)
            except (asyncio.CancelledError, Cancelled):
                recorder.status("stopped")
                raise
            except ModelError as exc:
                emit_unsaved(ErrorEvent(message=str(exc), fix=exc.fix or _fix_for(exc), resumable=True))
                recorder.status("paused")
            except CourtroomError as exc:
                emit_unsaved(ErrorEvent(message=str(exc), fix=exc.fix, resumable=True))
                recorder.status("paused")
            finally:
                await recorder.close()
                queue.put_nowait(_END)

        def emit_unsaved(event: ErrorEvent) -> None:
            """An error is shown even when the store is what failed."""
            try:
                emit(event)
            except TrialError:
                queue.put_nowait(event.model_copy(update={"trial_id": trial_id}))

        task = asyncio.create_task(drive())
        try:
            while (event := await queue.get()) is not _END:
                yield cast(TrialEvent, event)
            await task
        finally:
            if not task.done():
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)

    # ---------------------------------------------------------------- the flow
    async def _drive(self, state: TrialState, emit: Emit, queue: asyncio.Queue[object]) -> None:
        self._state = state
        await self._load_models()
        await self._index_pool(state.pool)
        while state.verdict is None:
            round_turns = [t for t in state.turns if t.round == state.round]
            if not round_turns and state.rulings:
                # between rounds (also where a resumed trial may stand): a due switch first, as the design orders
                # them (docs/court.md, "Role switching"), else maybe stop
                switched = await self._maybe_switch(state, emit)
                stop = None if switched else rules.stop_reason(state, self.settings)
                if stop is not None:
                    await judge.assess(self, state, emit)  # what a resumed trial left unassessed
                    state.verdict = await judge.verdict(self, state, stop, emit)
                    break
            if len(round_turns) < 2:
                seat = state.speaking_order()[len(round_turns)]
                state.turns.append(await counsel.turn(self, state, seat, emit, queue))
                continue
            await judge.assess(self, state, emit)
            state.rulings.append(await judge.rule(self, state, emit))

    async def _maybe_switch(self, state: TrialState, emit: Emit) -> bool:
        """Swap counsel's sides after the last ruling when a trigger calls for it (``rules.switch_reasons``); True when
        the sides switched after that ruling (now, or before a resume)."""
        ruled = state.rulings[-1].round
        if any(s.round == ruled for s in state.switches):
            return True
        texts = rules.controversies(state, self.settings)
        similarity = None
        if texts is not None and self.embed is not None and all(map(self.covers, texts)):
            vectors = await self.embed_texts(list(texts), emit, ruled)
            if vectors is not None:  # the cosine of each consecutive pair, oldest first
                similarity = [float(a @ b) for a, b in zip(vectors, vectors[1:])]
        reasons = rules.switch_reasons(state, self.settings, similarity)
        if not reasons:
            return False
        assignments = state.switched_assignments()
        event = emit(RolesSwitched(round=ruled, reasons=tuple(reasons),
                                   assignments={k.value: v for k, v in assignments.items()}))
        state.switches.append(event)
        state.assignments = assignments
        return True

    def model(self, role: str) -> ChatModel:
        """The role's chat model, whose every call (the exact prompt, the raw answer) is kept with the trial; while
        text goes to another machine, one that checks privacy before each call."""
        model = self.models(role)
        model = model if self.privacy is None else PrivacyChecked(model, self.check_private)
        return Observed(model, lambda call: self.keep_call(role, call))

    def keep_call(self, role: str, call: ModelCall) -> None:
        """A model call of the trial being driven, placed (the counsel turn, or the judge's assessment, ruling or
        verdict, by the schema it answered) and queued for the store."""
        state = self._state
        if state is None or self._calls is None:
            return
        if role in SEAT_MODEL.values():
            step, index = "turn", len(state.turns)
        else:
            step, index = JUDGE_STEPS.get(call.schema_name, "ruling"), -1
        self._calls(call.model_copy(update={"role": role, "step": step, "round": state.round, "index": index}))

    async def check_private(self) -> None:
        """Raise the trial's refusal (TrialError) when a private document is now in its scope or among the passages
        it heard, while its text goes to another machine (core.privacy); read off the event loop."""
        if self.privacy is None:
            return
        heard = {e.evidence.chunk.doc_id for e in self._state.pool} if self._state is not None else set()
        await asyncio.to_thread(self.privacy.check, heard)

    async def record_left_out(self, emit: Emit, round_number: int) -> None:
        """After a search: the private documents of the scope that it left out, recorded once each."""
        if self.privacy is None:
            return
        left = await asyncio.to_thread(self.privacy.left_out)
        if left:
            titles = self.privacy.left_out_titles(left)
            emit(TrialWarning(round=round_number, reason=Reason.of(
                Code.warning_private_left_out, documents=", ".join(repr(t) for t in titles[:3]),
                more=max(0, len(titles) - 3), roles=", ".join(self.privacy.remote))))

    async def _load_models(self) -> None:
        """Models that load into this process (embedded llama.cpp) load in a thread before the first turn, so neither
        the weights nor the tokenizer that sizes prompts load on the event loop mid-trial."""
        for role in (*SEAT_MODEL.values(), "judge"):
            load = getattr(self.model(role), "load", None)
            if load is not None:
                await load()

    async def embed_texts(self, texts: list[str], emit: Emit | None = None,
                          round_number: int = 0) -> np.ndarray | None:
        """Vectors of ``texts``, or None (no embedder, one that does not read their language, or one that failed:
        compare words)."""
        if self.embed is None or not texts or not all(map(self.covers, texts)):
            return None
        await self.check_private()
        try:
            return np.asarray(await asyncio.to_thread(self.embed, texts), dtype=np.float32)
        except LibraryError as exc:  # an embedding endpoint down, hanging or answering garbage
            self.embedding_failed(str(exc), emit, round_number)
            return None

    def embedding_failed(self, problem: str, emit: Emit | None, round_number: int) -> None:
        """The embedder failed (``problem``; '' when it did not): the trial goes on, searching with BM25 alone and
        comparing words instead of vectors, and says so once."""
        if problem and emit is not None and not self._embedding_warned:
            self._embedding_warned = True
            emit(TrialWarning(round=round_number, reason=Reason.of(Code.warning_embedder_failed, problem=problem)))

    async def _index_pool(self, pool: Sequence[PoolEntry]) -> None:
        missing = [e for e in pool if e.id not in self._vectors]
        vectors = await self.embed_texts([e.evidence.chunk.text for e in missing])
        if vectors is not None:
            self._vectors.update((e.id, v) for e, v in zip(missing, vectors))

    async def admit(self, state: TrialState, found: list[Evidence], seat: Seat, stance: Stance, round_number: int,
                    emit: Emit, novel_only: bool = True) -> list[PoolEntry]:
        """New passages enter the pool if they are not in it and are novel enough (1 - max cosine >= novelty_min);
        ``novel_only=False``: whatever their novelty (the trial's opening search for the claim alone)."""
        known = {e.evidence.chunk.id: e.id for e in state.pool}
        fresh = [ev for ev in found if ev.chunk.id not in known]
        away = [TurnedAway(evidence=ev, reason=Reason.of(Code.turned_away_in_pool, id=known[ev.chunk.id]))
                for ev in found if ev.chunk.id in known]
        vectors = await self.embed_texts([ev.chunk.text for ev in fresh], emit, round_number)
        # Novelty, the evidence level, the injection detector, the verifier's readings and the events are CPU work
        # (86 ms for five passages on the window's loop before the verifier, bench/ui.py): done in one thread per
        # batch, over copies of the pool and its vectors, so nothing changes there; the pool, the vectors and the
        # events change here, on the loop, in order, and only once the whole batch is screened (a trial stopped
        # meanwhile has changed nothing its events do not say).
        pool, pool_vectors = list(state.pool), dict(self._vectors)
        claim = state.spec.claim

        def screen() -> list[tuple[PoolEntry | None, np.ndarray | None, list[_Event]]]:
            entered: list[tuple[PoolEntry, np.ndarray | None]] = []
            pool_matrix = None
            for position, evidence in enumerate(fresh):
                novelty, like = 1.0, ""
                if vectors is not None and pool_vectors:
                    if pool_matrix is None or len(pool_matrix) != len(pool_vectors):
                        pool_matrix = np.stack(list(pool_vectors.values()))  # rebuilt only when a passage entered
                    similarities = pool_matrix @ vectors[position]
                    novelty = float(1.0 - np.max(similarities))
                    like = list(pool_vectors)[int(np.argmax(similarities))]
                elif vectors is None:
                    scores = [(overlap(evidence.chunk.text, e.evidence.chunk.text), e.id) for e in pool]
                    best = max(scores, default=(0.0, ""))
                    novelty, like = 1.0 - best[0], best[1]
                if novel_only and novelty < self.settings.novelty_min:
                    away.append(TurnedAway(evidence=evidence, reason=Reason.of(
                        Code.turned_away_not_novel, novelty=round(novelty, 4), minimum=self.settings.novelty_min,
                        like=like)))
                    continue
                entry = PoolEntry(
                    id=f"E{len(pool) + 1}", evidence=evidence, round=round_number, found_by=seat, stance=stance,
                    query=evidence.query, level=evidence_level(evidence.chunk.text, evidence.doc_title,
                                                               self.settings.evidence_hierarchy,
                                                               self.settings.keyword_list),
                    novelty=round(novelty, 4), injection=looks_like_instructions(evidence.chunk.text),
                )
                vector = vectors[position] if vectors is not None else None
                pool.append(entry)
                entered.append((entry, vector))
                if vector is not None:
                    pool_vectors[entry.id] = vector
            if entered and self.verifier is not None:  # the verifier reads every passage that enters, in one batch
                readings = self.verifier.score([(claim, e.evidence.chunk.text) for e, _ in entered])
                entered = [(e.model_copy(update={"verifier": r}), v) for (e, v), r in zip(entered, readings)]
            steps: list[tuple[PoolEntry | None, np.ndarray | None, list[_Event]]] = []
            for entry, vector in entered:
                events: list[_Event] = [EvidenceAdded(entry=entry)]
                if entry.injection:
                    events.append(TrialWarning(round=round_number, reason=Reason.of(Code.warning_injection,
                                                                                   id=entry.id)))
                steps.append((entry, vector, events))
            if away:  # what the search found that did not enter, and why (the trial's coverage)
                steps.append((None, None, [EvidenceTurnedAway(round=round_number, found_by=seat,
                                                               passages=tuple(away))]))
            return steps

        added = []
        for entry, vector, events in await asyncio.to_thread(screen) if fresh else screen():
            if entry is not None:
                state.pool.append(entry)
                if vector is not None:
                    self._vectors[entry.id] = vector
                added.append(entry)
            for event in events:
                emit(event)
        return added

    async def readings(self, state: TrialState) -> dict[str, VerifierReading]:
        """The verifier's reading of every passage of the pool, by id: as admitted, or (a passage admitted before the
        court had a verifier) read now, in a thread. Empty without a verifier."""
        if self.verifier is None:
            return {}
        known = {e.id: e.verifier for e in state.pool if e.verifier is not None}
        unread = [e for e in state.pool if e.verifier is None]
        if unread:
            verifier, claim = self.verifier, state.spec.claim
            fresh = await asyncio.to_thread(verifier.score, [(claim, e.evidence.chunk.text) for e in unread])
            known.update((e.id, r) for e, r in zip(unread, fresh))
        return known

#: The judge's calls by the schema they answer; any other is part of the round's ruling.
JUDGE_STEPS = {"EvidenceAssessment": "assessment", "VerdictDraft": "verdict", "DecisionDraft": "verdict"}


class Observed:
    """A chat model whose every call is heard by ``keep`` (the exact messages and the raw answer, as the model
    reported them: core.records.MODEL_CALLS), for the duration of the call only; the rest is the model's."""

    def __init__(self, model: ChatModel, keep: Callable[[ModelCall], None]) -> None:
        self._model = model
        self._keep = keep

    def __getattr__(self, name: str) -> Any:
        return getattr(self._model, name)

    async def structured(self, *args: Any, **kwargs: Any) -> Any:
        token = MODEL_CALLS.set(self._keep)
        try:
            return await self._model.structured(*args, **kwargs)
        finally:
            MODEL_CALLS.reset(token)

    async def complete(self, *args: Any, **kwargs: Any) -> Any:
        token = MODEL_CALLS.set(self._keep)
        try:
            return await self._model.complete(*args, **kwargs)
        finally:
            MODEL_CALLS.reset(token)


class PrivacyChecked:
    """A chat model whose every call first awaits ``check`` (Court.check_private); the rest is the model's."""

    def __init__(self, model: ChatModel, check: Callable[[], Awaitable[None]]) -> None:
        self._model = model
        self._check = check

    def __getattr__(self, name: str) -> Any:
        return getattr(self._model, name)

    async def structured(self, *args: Any, **kwargs: Any) -> Any:
        await self._check()
        return await self._model.structured(*args, **kwargs)

    async def complete(self, *args: Any, **kwargs: Any) -> Any:
        await self._check()
        return await self._model.complete(*args, **kwargs)


def _fix_for(exc: ModelError) -> str:
    if isinstance(exc, ModelUnavailable):
        return "check the model server (`courtroom doctor`), then resume the trial"
    return "resume the trial; if it fails again, try a stronger model for this role"
