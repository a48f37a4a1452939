"""A counsel's turn: progressive retrieval (the claim, the opponent's key terms, the judge's open question, the model's
own queries), new passages into the pool, and the argument, checked (citations, quotations, challenges raised and
answered, no echoed instructions) and regenerated once with its problems named. Functions of the court they serve,
which they see as a ``bench.Bench``."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field

from courtroom_desktop.core.court import hearing, prompts
from courtroom_desktop.core.court.bench import Bench, ChatModel, Emit
from courtroom_desktop.core.court.checks import (
    challenge_ids,
    check_citations,
    check_quotes,
    cited_ids,
    clean_queries,
    copied,
    cut_copies,
    cut_generated,
    cut_wrong_side,
    end_cleanly,
    generated_problems,
    is_question,
    key_terms,
    normalise,
    quality_flags,
    questions_in,
    trim_repetition,
)
from courtroom_desktop.core.court.records import (
    CaseType,
    Challenge,
    Citation,
    Code,
    PoolEntry,
    Reason,
    Seat,
    Stance,
    TokenDelta,
    TrialWarning,
    Turn,
    TurnFinished,
    TurnStarted,
    role_name,
)
from courtroom_desktop.core.court.retry import regenerate_once
from courtroom_desktop.core.court.stance import wrong_side
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.errors import ModelError, ModelUnavailable
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.records import Evidence, Usage
from courtroom_desktop.core.text import has_cjk

SEAT_MODEL = {Seat.starts_against: "prosecution", Seat.starts_for: "defense"}
QUERY_TOKENS = 96
WITHDRAWN = "(Argument withdrawn: the model's text only repeated its instructions.)"
WITHDRAWN_COPY = "(Argument withdrawn: the model's text only repeated an earlier argument or argued the other side.)"
BOTH_SIDES = "both sides"


async def turn(court: Bench, state: TrialState, seat: Seat, emit: Emit, queue: asyncio.Queue[object]) -> Turn:
    stance = state.assignments[seat]
    role = role_name(state.spec.case, stance)
    index, round_number = len(state.turns), state.round
    model = court.model(SEAT_MODEL[seat])
    emit(TurnStarted(round=round_number, index=index, seat=seat, stance=stance, role=role))
    began = time.perf_counter()
    opponent = state.opponent_of(seat)
    queries, usages = await _queries(court, state, model, stance, role, opponent, emit)
    added: list[PoolEntry] = []
    if round_number == 1 or court.settings.search_every_round:
        found = await court.retriever.asearch(queries, k=court.k, scope=court.scope)
        opening: list[Evidence] = []
        if index == 0 and state.spec.decision is None:
            opening, found = await _opening(court, state, queries, found)
        await court.record_left_out(emit, round_number)
        court.embedding_failed(getattr(court.retriever, "vector_problem", ""), emit, round_number)
        if opening:  # first, and whatever their novelty: they are what the quick check would decide on
            added = await court.admit(state, opening, seat, stance, round_number, emit, novel_only=False)
        added += await court.admit(state, found, seat, stance, round_number, emit)
    argued = await _argue(court, state, model, seat, stance, role, index, emit, queue, [e.id for e in added])
    total = sum(usages + argued.usages, Usage())
    other_role = role_name(state.spec.case, Stance.for_ if stance == Stance.against else Stance.against)
    first = len(state.challenges())
    raised = tuple(Challenge(id=f"Q{first + n + 1}", text=text, round=round_number, raised_by=role,
                             addressed_to=other_role) for n, text in enumerate(argued.challenges))
    turn = Turn(round=round_number, index=index, seat=seat, stance=stance, role=role, text=argued.text,
                citations=tuple(argued.citations), queries=tuple(queries), evidence_added=tuple(e.id for e in added),
                usage=Usage(tokens_in=total.tokens_in, tokens_out=total.tokens_out,
                            seconds=time.perf_counter() - began),
                regenerated=argued.regenerated, challenges=raised, answers=tuple(argued.answers))
    flags = argued.flags + quality_flags(turn, opponent)
    turn = turn.model_copy(update={"flags": tuple(flags)})
    emit(TurnFinished(turn=turn))
    return turn


async def _opening(court: Bench, state: TrialState, queries: list[str],
                   found: list[Evidence]) -> tuple[list[Evidence], list[Evidence]]:
    """The trial's opening search: what a search for the claim alone finds, admitted first and whatever its novelty,
    so the court hears at least the passages the quick check and the verifier method decide on (the first counsel's
    own queries, fused with the claim, can push some of them out of its top k, and the novelty filter can turn away a
    passage much like another of the same document that does not decide the claim). Returns (the opening's
    passages, the rest of ``found``, the counsel's own search); when that search was for the claim alone, it is the
    opening, and the claim is not searched twice."""
    subject = hearing.search_text(state.spec, state.round)
    if list(queries) == subject:
        return found, []
    return await court.retriever.asearch(subject, k=court.k, scope=court.scope), found


def _challenges_for(state: TrialState, role: str) -> list[Challenge]:
    """Open challenges this role should answer: those addressed to it and the judge's questions."""
    return [c for c in state.open_challenges() if c.addressed_to in (role, BOTH_SIDES) and c.raised_by != role]


async def _queries(court: Bench, state: TrialState, model: ChatModel, stance: Stance, role: str,
                   opponent: Turn | None, emit: Emit) -> tuple[list[str], list[Usage]]:
    """Progressive retrieval: the claim, the opponent's key terms, the judge's open question, the model's queries."""
    spec, settings = state.spec, court.settings
    open_questions = state.rulings[-1].ruling.open_questions if state.rulings else []
    queries, usages = hearing.search_text(spec, state.round), []
    if opponent:
        queries.append(key_terms(opponent.text))
    if open_questions:
        queries.append(open_questions[0])
    if court.model_queries:
        try:
            plan, usage = await model.structured(
                prompts.query_messages(spec.case, stance, hearing.subject(spec, state.round), opponent,
                                       open_questions),
                prompts.SearchPlan, max_tokens=QUERY_TOKENS)
            usages.append(usage)
            queries.extend(plan.queries[: settings.queries_per_turn])
        except ModelUnavailable:
            raise
        except ModelError as exc:
            emit(TrialWarning(round=state.round, reason=Reason.of(Code.warning_queries_unusable, role=role,
                                                                  problem=str(exc))))
    return clean_queries(queries, limit=settings.queries_per_turn + 2), usages


async def _argue(court: Bench, state: TrialState, model: ChatModel, seat: Seat, stance: Stance, role: str,
                 index: int, emit: Emit, queue: asyncio.Queue[object], own_new: list[str]) -> Argued:
    """The argument, validated (citations, quotations, no echoed instructions or template debris, not a copy of an
    earlier argument, not the other side's case); regenerated once with the problems named, then cut and flagged.
    ``own_new``: the passages this side's search just brought in (first in its prompt)."""
    spec = state.spec
    earlier = [(t.role, t.round, t.text) for t in state.turns]
    passages = {e.id: e.evidence.chunk.text for e in state.pool}
    switched = bool(state.switches)
    owed = _challenges_for(state, role)
    budget = model.context_window - model.default_max_tokens - 64
    usages: list[Usage] = []

    async def attempt(number: int, error: str) -> tuple[_Draft, list[Reason]]:
        messages = await asyncio.to_thread(  # sizing the prompt tokenizes it several times: not on the loop
            prompts.argument_messages, spec.case, stance, switched, hearing.subject(spec, state.round), state.pool,
            state.turns, state.rulings, state.round, model.count_tokens, budget, error, assessed=dict(state.assessments),
            challenges=owed, own_new=own_new)
        argued = Argued(regenerated=number > 0, usages=usages)
        structured = _json_arguments(court, model)
        quoted: dict[str, Citation] = {}
        if structured:
            schema = prompts.argument_schema([e.id for e in state.pool], [c.id for c in owed])
            draft, usage = await model.structured(messages, schema, max_tokens=model.default_max_tokens)
            raw = end_cleanly(draft.argument.strip(), cut_off=_cut_off(usage, model) or len(draft.argument) >= CAP)
            named = list(draft.citations) + [q.id for q in draft.quotes]
            missing = [c for c in dict.fromkeys(named) if c not in cited_ids(raw)]
            if missing:
                raw = f"{raw} {' '.join(f'[{c}]' for c in missing)}"
            quoted = {c.evidence_id: c for c in check_quotes([(q.id, q.text) for q in draft.quotes if q.text.strip()],
                                                             passages)}
            argued.challenges = [_as_question(q) for q in [draft.challenge.strip()] if is_question(q)]
            argued.answers = list(getattr(draft, "answers", []))
            queue.put_nowait(TokenDelta(trial_id=state.trial_id, index=index, attempt=number, text=raw))
        else:
            raw, usage = await model.complete(
                messages, on_token=lambda t: queue.put_nowait(
                    TokenDelta(trial_id=state.trial_id, index=index, attempt=number, text=t)))
            raw = end_cleanly(raw, cut_off=_cut_off(usage, model))
        argued.usages.append(usage)
        instructions = [messages[0]["content"], json.dumps(schema.model_json_schema())] if structured \
            else [messages[0]["content"]]
        argued.text = trim_repetition(raw)
        if not structured or not argued.challenges:  # free text: its questions are its challenges
            argued.challenges = questions_in(argued.text)
        if not structured:  # ... and the ids it names its answers
            argued.answers = challenge_ids(argued.text)
        argued.answers = [a for a in argued.answers if a in {c.id for c in owed}]
        argued.citations = [quoted.get(c.evidence_id, c) for c in check_citations(argued.text, passages)]
        argued.citations += [c for i, c in quoted.items() if i not in {x.evidence_id for x in argued.citations}]
        problems = [c.problem or Reason.of(Code.cite_not_in_pool, id=c.evidence_id)
                    for c in argued.citations if not c.valid]
        problems += [Reason.of(Code.problem_argument, problem=p) for p in generated_problems(argued.text, instructions)]
        if not argued.text.strip():
            problems.append(Reason.of(Code.problem_empty))
        problems += [Reason.of(Code.problem_argument, problem=p) for p in _sides_problems(argued.text, earlier, spec.case,
                                                                                        stance, role)]
        return _Draft(argued, quoted, instructions), problems

    checked = await regenerate_once(
        attempt, lambda problems: Reason.of(Code.warning_argument_rejected, role=role, problems=problems),
        emit, state.round)
    argued, quoted, instructions = checked.draft.argued, checked.draft.quoted, checked.draft.instructions
    problems = checked.problems
    if problems:  # the second draft is still wrong: cut what cannot stand, flag the rest
        argued.flags = [Reason.of(Code.flag_rejected_twice, problem=p) for p in problems]
        if quoted:  # a structured quotation that is still wrong goes; the citation of the passage stands
            argued.citations = [c.model_copy(update={"quote": "", "valid": True, "problem": None})
                                if c.evidence_id in quoted and not c.valid and c.evidence_id in passages else c
                                for c in argued.citations]
            argued.flags = [Reason.of(Code.flag_quote_dropped, problem=p) if p.code == Code.cite_quote_missing
                            else Reason.of(Code.flag_rejected_twice, problem=p) for p in problems]
        cut = cut_generated(argued.text, instructions)
        if any(_is(p, Code.problem_copies) for p in problems):
            cut = cut_copies(cut, [text for _, _, text in earlier])
        if any(_is(p, Code.problem_wrong_side) for p in problems):
            cut = cut_wrong_side(cut, stance)
        if cut != argued.text:
            kept = [c for c in argued.citations if c.evidence_id in cited_ids(cut) or c.evidence_id in quoted]
            if not cut.strip() and argued.citations:  # nothing of its own left: the turn stands as withdrawn
                kept = argued.citations
                sides = any(_is(p, c) for p in problems for c in (Code.problem_copies, Code.problem_wrong_side))
                cut = (WITHDRAWN_COPY if sides else WITHDRAWN) + " " + " ".join(
                    f"[{c.evidence_id}]" for c in argued.citations if c.valid)
            still, said = {normalise(q) for q in questions_in(cut, limit=20)}, normalise(argued.text)
            # a question cut with its sentence is no challenge; the structured one (not in the text) stays
            argued.challenges = [q for q in argued.challenges if normalise(q) in still or normalise(q) not in said]
            argued.text, argued.citations = cut, kept
    if not argued.text.strip():  # nothing to put in the transcript: a failure of the model, never an empty turn
        raise ModelError(Message("{role}'s model gave an empty argument twice", role), role=SEAT_MODEL[seat],
                         provider=getattr(model, "provider", ""), model=getattr(model, "model_name", ""))
    return argued


CAP = 1200  # the structured argument's length cap (prompts.argument_schema)


def _cut_off(usage: Usage, model: ChatModel) -> bool:
    """Did the answer stop at the token limit (and so, perhaps, in mid-word)?"""
    return usage.tokens_out >= model.default_max_tokens


def _as_question(text: str) -> str:
    """A challenge as a question: ending in a question mark (the language's own)."""
    text = text.strip().rstrip(".。!！ ")
    if text.endswith(("?", "？")):
        return text
    return text + ("？" if has_cjk(text[-1:]) else "?")


def _is(reason: Reason, code: Code) -> bool:
    """Is ``reason`` (or the problem it wraps) of ``code``?"""
    inner = reason.params.get("problem")
    return reason.code == code or isinstance(inner, Reason) and _is(inner, code)


def _sides_problems(text: str, earlier: list[tuple[str, int, str]], case: CaseType, stance: Stance,
                    role: str) -> list[Reason]:
    """An argument that copies an earlier one (the other side's or its own: word for word or near, by shingles), or
    that argues the other side's case (claims only: the stance phrases of ``stance.py``)."""
    problems = []
    source = copied(text, [e[2] for e in earlier])
    if source is not None:
        problems.append(Reason.of(Code.problem_copies, role=earlier[source][0], round=earlier[source][1]))
    if case == CaseType.claim and wrong_side(text, stance):
        problems.append(Reason.of(Code.problem_wrong_side, role=role,
                                  claim_is="true" if stance == Stance.for_ else "false"))
    return problems


def _json_arguments(court: Bench, model: ChatModel) -> bool:
    mode = court.settings.argument_format
    return mode == "json" or mode == "auto" and getattr(model, "provider", "") == "embedded"


@dataclass
class Argued:
    """A counsel's argument as checked: its text, citations, challenges raised and answered, flags and cost."""

    text: str = ""
    citations: list[Citation] = field(default_factory=list)
    challenges: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    flags: list[Reason] = field(default_factory=list)
    regenerated: bool = False
    usages: list[Usage] = field(default_factory=list)


@dataclass
class _Draft:
    """One attempt at an argument: as checked, its structured quotations by passage id, and the instructions its
    text must not echo."""

    argued: Argued
    quoted: dict[str, Citation]
    instructions: list[str]
