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
import time
from collections.abc import AsyncIterator, Callable

import numpy as np

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.court import prompts, rules
from courtroom_desktop.core.court.checks import (
    check_citations,
    cited_ids,
    clean_queries,
    evidence_level,
    key_terms,
    looks_like_instructions,
    overlap,
    quality_flags,
    trim_repetition,
)
from courtroom_desktop.core.court.records import (
    ErrorEvent,
    EvidenceAdded,
    Finding,
    JudgeRuling,
    PoolEntry,
    RolesSwitched,
    Ruling,
    RulingIssued,
    Seat,
    Stance,
    TokenDelta,
    TrialResumed,
    TrialSpec,
    TrialStarted,
    TrialWarning,
    Turn,
    TurnFinished,
    TurnStarted,
    Verdict,
    VerdictDraft,
    VerdictLabel,
    VerdictReached,
    role_name,
)
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.court.store import TrialStore
from courtroom_desktop.core.errors import Cancelled, CourtroomError, ModelError, ModelUnavailable, TrialError
from courtroom_desktop.core.records import Usage

log = logging.getLogger(__name__)
SEAT_MODEL = {Seat.starts_against: "prosecution", Seat.starts_for: "defense"}
QUERY_TOKENS, RULING_TOKENS, VERDICT_TOKENS = 96, 420, 640
_END = object()


class Court:
    """Runs trials. Collaborators are passed in, so tests can hand in scripted models and a small library.

    models:    role name ('prosecution', 'defense', 'judge') -> ChatModel (core.llm)
    retriever: has ``async asearch(queries, k, scope) -> list[Evidence]``
    embed:     texts -> normalised vectors (novelty filter, repeated-controversy check); None: word overlap
    k:         passages retrieved per counsel turn
    """

    def __init__(self, models: Callable[[str], object], retriever, store: TrialStore,
                 settings: DebateSettings | None = None, embed: Callable[[list[str]], np.ndarray] | None = None,
                 scope=None, k: int = 6, model_queries: bool = True):
        self.models = models
        self.retriever = retriever
        self.store = store
        self.settings = settings or DebateSettings()
        self.embed = embed
        self.scope = scope
        self.k = k
        self.model_queries = model_queries
        self._vectors: dict[str, np.ndarray] = {}

    # ---------------------------------------------------------------- public
    def start(self, spec: TrialSpec) -> str:
        """Create the trial record; ``run(trial_id)`` then drives it."""
        spec = spec.model_copy(update={"settings": self.settings.model_dump(mode="json")})
        if not spec.claim.strip():
            raise TrialError("the claim is empty: say what should be put on trial")
        return self.store.create(spec)

    async def run(self, trial_id: str) -> AsyncIterator:
        """Drive a trial from wherever its stored events leave it; yields every event as it happens."""
        spec = self.store.spec(trial_id)
        events = self.store.events(trial_id)
        state = TrialState.from_events(trial_id, spec, events)
        if state.verdict is not None:
            raise TrialError(f"trial {trial_id} already has a verdict")
        queue: asyncio.Queue = asyncio.Queue()

        def emit(event):
            stored = self.store.append(event.model_copy(update={"trial_id": trial_id}))
            queue.put_nowait(stored)
            return stored

        async def drive() -> None:
            try:
                if not events:
                    emit(TrialStarted(spec=spec, assignments={k.value: v for k, v in state.assignments.items()}))
                else:
                    emit(TrialResumed(from_round=state.round, discarded=state.in_flight))
                self.store.set_status(trial_id, "running")
                await self._drive(state, emit, queue)
                self.store.set_status(trial_id, "finished", state.verdict.label.value, state.verdict.confidence)
            except (asyncio.CancelledError, Cancelled):
                self.store.set_status(trial_id, "stopped")
                raise
            except ModelError as exc:
                emit(ErrorEvent(message=str(exc), fix=exc.fix or _fix_for(exc), resumable=True))
                self.store.set_status(trial_id, "paused")
            except CourtroomError as exc:
                emit(ErrorEvent(message=str(exc), fix=exc.fix, resumable=True))
                self.store.set_status(trial_id, "paused")
            finally:
                queue.put_nowait(_END)

        task = asyncio.create_task(drive())
        try:
            while (event := await queue.get()) is not _END:
                yield event
            await task
        finally:
            if not task.done():
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)

    # ---------------------------------------------------------------- the flow
    async def _drive(self, state: TrialState, emit, queue) -> None:
        await self._load_models()
        await self._index_pool(state.pool)
        while state.verdict is None:
            round_turns = [t for t in state.turns if t.round == state.round]
            if not round_turns and state.rulings:
                # between rounds (also where a resumed trial may stand): stop, or maybe switch sides
                stop = rules.stop_reason(state, self.settings)
                if stop:
                    state.verdict = await self._verdict(state, stop, emit)
                    break
                await self._maybe_switch(state, emit)
            if len(round_turns) < 2:
                seat = state.speaking_order()[len(round_turns)]
                state.turns.append(await self._counsel_turn(state, seat, emit, queue))
                continue
            state.rulings.append(await self._rule(state, emit))

    async def _maybe_switch(self, state: TrialState, emit) -> None:
        ruled = state.rulings[-1].round
        if any(s.round == ruled for s in state.switches):
            return
        pair = rules.controversies(state)
        similarity = None
        if pair is not None and self.embed is not None:
            vectors = await self._embed(list(pair))
            similarity = float(vectors[0] @ vectors[1])
        reasons = rules.switch_reasons(state, self.settings, similarity)
        if reasons:
            assignments = state.switched_assignments()
            event = emit(RolesSwitched(round=ruled, reasons=tuple(reasons),
                                       assignments={k.value: v for k, v in assignments.items()}))
            state.switches.append(event)
            state.assignments = assignments

    def _model(self, role: str):
        return self.models(role)

    async def _load_models(self) -> None:
        """Models that load into this process (embedded llama.cpp) load in a thread before the first turn, so neither
        the weights nor the tokenizer that sizes prompts load on the event loop mid-trial."""
        for role in (*SEAT_MODEL.values(), "judge"):
            load = getattr(self._model(role), "load", None)
            if load is not None:
                await load()

    async def _counsel_turn(self, state: TrialState, seat: Seat, emit, queue) -> Turn:
        stance = state.assignments[seat]
        role = role_name(state.spec.case, stance)
        index, round_number = len(state.turns), state.round
        model = self._model(SEAT_MODEL[seat])
        emit(TurnStarted(round=round_number, index=index, seat=seat, stance=stance, role=role))
        began = time.perf_counter()
        opponent = state.opponent_of(seat)
        queries, usages = await self._queries(state, model, stance, role, opponent, emit)
        found = await self.retriever.asearch(queries, k=self.k, scope=self.scope)
        added = await self._admit(state, found, seat, stance, round_number, emit)
        text, citations, problems, regenerated, argued = await self._argue(state, model, seat, stance, role, index,
                                                                             emit, queue)
        total = sum(usages + argued, Usage())
        turn = Turn(round=round_number, index=index, seat=seat, stance=stance, role=role, text=text,
                    citations=tuple(citations), queries=tuple(queries), evidence_added=tuple(e.id for e in added),
                    usage=Usage(tokens_in=total.tokens_in, tokens_out=total.tokens_out,
                                seconds=time.perf_counter() - began),
                    regenerated=regenerated)
        flags = [f"rejected twice: {p}" for p in problems] + quality_flags(turn, opponent)
        turn = turn.model_copy(update={"flags": tuple(flags)})
        emit(TurnFinished(turn=turn))
        return turn

    async def _queries(self, state: TrialState, model, stance: Stance, role: str, opponent: Turn | None,
                       emit) -> tuple[list[str], list[Usage]]:
        """Progressive retrieval: the claim, the opponent's key terms, the judge's open question, the model's queries."""
        spec, settings = state.spec, self.settings
        open_questions = state.rulings[-1].ruling.open_questions if state.rulings else []
        queries, usages = [spec.claim], []
        if opponent:
            queries.append(key_terms(opponent.text))
        if open_questions:
            queries.append(open_questions[0])
        if self.model_queries:
            try:
                plan, usage = await model.structured(
                    prompts.query_messages(spec.case, stance, spec.claim, opponent, open_questions),
                    prompts.SearchPlan, max_tokens=QUERY_TOKENS)
                usages.append(usage)
                queries.extend(plan.queries[: settings.queries_per_turn])
            except ModelUnavailable:
                raise
            except ModelError as exc:
                emit(TrialWarning(round=state.round, message=f"{role}: search queries unusable, searching with the "
                                                             f"claim and the debate's terms ({exc})"))
        return clean_queries(queries, limit=settings.queries_per_turn + 2), usages

    async def _argue(self, state: TrialState, model, seat: Seat, stance: Stance, role: str, index: int, emit, queue):
        """The argument, validated; regenerated once with the problem named, then flagged. Returns (text, citations,
        problems left, regenerated, usages)."""
        spec = state.spec
        passages = {e.id: e.evidence.chunk.text for e in state.pool}
        switched = bool(state.switches)
        budget = model.context_window - model.default_max_tokens - 64
        error, problems, text, citations, regenerated, usages = "", [], "", [], False, []
        for attempt in (0, 1):
            messages = await asyncio.to_thread(  # sizing the prompt tokenizes it several times: not on the loop
                prompts.argument_messages, spec.case, stance, switched, spec.claim, state.pool, state.turns,
                state.rulings, state.round, model.count_tokens, budget, error)
            if self._json_arguments(model):
                draft, usage = await model.structured(messages, prompts.argument_schema([e.id for e in state.pool]),
                                                      max_tokens=model.default_max_tokens)
                raw = draft.argument.strip()
                missing = [c for c in draft.citations if c not in cited_ids(raw)]
                if missing:
                    raw = f"{raw} {' '.join(f'[{c}]' for c in missing)}"
                queue.put_nowait(TokenDelta(trial_id=state.trial_id, index=index, attempt=attempt, text=raw))
            else:
                raw, usage = await model.complete(
                    messages, on_token=lambda t, a=attempt: queue.put_nowait(
                        TokenDelta(trial_id=state.trial_id, index=index, attempt=a, text=t)))
            usages.append(usage)
            text = trim_repetition(raw)
            citations = check_citations(text, passages)
            problems = [c.problem for c in citations if not c.valid]
            if not text.strip():
                problems.append("the answer was empty")
            if not problems:
                break
            error = "; ".join(problems)
            if attempt == 0:
                regenerated = True
                emit(TrialWarning(round=state.round, message=f"{role}'s argument was rejected ({error}); regenerating once"))
        if not text.strip():  # nothing to put in the transcript: a failure of the model, never an empty turn
            raise ModelError(f"{role}'s model gave an empty argument twice", role=SEAT_MODEL[seat],
                             provider=getattr(model, "provider", ""), model=getattr(model, "model_name", ""))
        return text, citations, problems, regenerated, usages

    def _json_arguments(self, model) -> bool:
        mode = self.settings.argument_format
        return mode == "json" or mode == "auto" and getattr(model, "provider", "") == "embedded"

    async def _embed(self, texts: list[str]) -> np.ndarray | None:
        if self.embed is None or not texts:
            return None
        return np.asarray(await asyncio.to_thread(self.embed, texts), dtype=np.float32)

    async def _index_pool(self, pool) -> None:
        missing = [e for e in pool if e.id not in self._vectors]
        vectors = await self._embed([e.evidence.chunk.text for e in missing])
        if vectors is not None:
            self._vectors.update((e.id, v) for e, v in zip(missing, vectors))

    async def _admit(self, state: TrialState, found, seat: Seat, stance: Stance, round_number: int, emit):
        """New passages enter the pool if they are not in it and are novel enough (1 - max cosine >= novelty_min)."""
        known = {e.evidence.chunk.id for e in state.pool}
        fresh = [ev for ev in found if ev.chunk.id not in known]
        vectors = await self._embed([ev.chunk.text for ev in fresh])
        added = []
        pool_matrix = None
        for position, evidence in enumerate(fresh):
            novelty = 1.0
            if vectors is not None and self._vectors:
                if pool_matrix is None or len(pool_matrix) != len(self._vectors):
                    pool_matrix = np.stack(list(self._vectors.values()))  # rebuilt only when a passage entered
                novelty = float(1.0 - np.max(pool_matrix @ vectors[position]))
            elif vectors is None:
                texts = [e.evidence.chunk.text for e in state.pool]
                novelty = 1.0 - max((overlap(evidence.chunk.text, t) for t in texts), default=0.0)
            if novelty < self.settings.novelty_min:
                continue
            entry = PoolEntry(
                id=f"E{len(state.pool) + 1}", evidence=evidence, round=round_number, found_by=seat, stance=stance,
                query=evidence.query, level=evidence_level(evidence.chunk.text, evidence.doc_title),
                novelty=round(novelty, 4), injection=looks_like_instructions(evidence.chunk.text),
            )
            state.pool.append(entry)
            if vectors is not None:
                self._vectors[entry.id] = vectors[position]
            emit(EvidenceAdded(entry=entry))
            if entry.injection:
                emit(TrialWarning(round=round_number, message=f"{entry.id} reads like instructions to a model; it is "
                                                              "treated as a quoted passage only"))
            added.append(entry)
        return added

    async def _rule(self, state: TrialState, emit) -> Ruling:
        judge = self._model("judge")
        budget = judge.context_window - RULING_TOKENS - 64
        messages = await asyncio.to_thread(prompts.ruling_messages, state.spec.case, state.spec.claim, state.pool,
                                           state.turns, state.rulings, state.round, judge.count_tokens, budget)
        ruling, usage = await judge.structured(messages, JudgeRuling, max_tokens=RULING_TOKENS)
        record = Ruling(round=state.round, ruling=ruling,
                        overruled=tuple(rules.overrule_reasons(ruling, state, self.settings)), usage=usage)
        emit(RulingIssued(ruling=record))
        return record

    # ---------------------------------------------------------------- verdict
    async def _verdict(self, state: TrialState, stop: str, emit) -> Verdict:
        judge = self._model("judge")
        budget = judge.context_window - VERDICT_TOKENS - 64
        messages = await asyncio.to_thread(prompts.verdict_messages, state.spec.case, state.spec.claim, state.pool,
                                           state.turns, state.rulings, judge.count_tokens, budget)
        draft, usage = await judge.structured(messages, VerdictDraft, max_tokens=VERDICT_TOKENS)
        pool = {e.id: e for e in state.pool}
        findings = []
        for finding in draft.findings:
            valid = tuple(dict.fromkeys(c.strip("[] ") for c in finding.citations if c.strip("[] ") in pool))
            dropped = [c for c in finding.citations if c.strip("[] ") not in pool]
            if dropped:
                emit(TrialWarning(round=state.round, message=f"verdict finding cited unknown evidence "
                                                             f"{', '.join(dropped)}; those citations were removed"))
            if finding.text.strip():
                findings.append(Finding(text=finding.text.strip(), citations=valid))
        label = draft.label
        if not state.pool or not any(f.citations for f in findings) and not any(
                c.valid for t in state.turns for c in t.citations):
            label = VerdictLabel.insufficient
        open_questions = list(dict.fromkeys(
            [q for q in draft.open_questions if q.strip()]
            + (list(state.rulings[-1].ruling.open_questions) if state.rulings else [])))
        verdict = Verdict(
            label=label, confidence=draft.confidence, findings=tuple(findings), open_questions=tuple(open_questions),
            summary=draft.summary, conditions=tuple(draft.conditions), risks=tuple(draft.risks),
            evidence=tuple(rules.weigh(state, self.settings)), quality_flags=tuple(rules.trial_flags(state)),
            stopped_because=stop, rounds=len(state.rulings), switches=len(state.switches), usage=usage,
        )
        emit(VerdictReached(verdict=verdict))
        return verdict


def _fix_for(exc: ModelError) -> str:
    if isinstance(exc, ModelUnavailable):
        return "check the model server (`courtroom doctor`), then resume the trial"
    return "resume the trial; if it fails again, try a stronger model for this role"
