"""Model faults at every stage of a trial: the trial must continue after repair or retry, or pause resumably with
a clear message and then resume to a verdict, and no persisted turn may be lost.

Two transports:
- ``http``: every role is an OllamaChatModel talking over loopback HTTP to ``FaultOllama`` (timeouts, dropped
  streams and oversized answers happen for real, through httpx and langchain-ollama); arguments as free text;
- ``scripted``: ScriptedChatModel with a fault-injecting actor, arguments as JSON (the embedded model's path).

Each case runs one trial. When it pauses (an ``error`` event), the fault is healed and the trial is resumed.

Faults fire from the second round on: the fault is armed once the first ruling has come out of the trial's event
stream, and as it fires it waits until every turn that came out before it (round 1's two at least) is in the trial
store (its writer thread may lag behind the event stream). So every case has turns in the store when its fault
fires, and "turns lost" can fail in every case. The retriever hands out new passages in round 2 too, so that round
has an evidence assessment to break.

Turns lost: each time a fault fires, the finished turns already in the trial store are read; when the case ends,
every one of them (and every turn stored when the trial paused) must still be in the trial, by index and text,
whether it continued or paused and resumed. A case in which no turn was stored when its fault fired fails.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from courtroom_desktop.core.config import DebateSettings, ModelSpec
from courtroom_desktop.core.court import Court, TrialSpec, TrialStore
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.errors import ModelUnavailable
from courtroom_desktop.core.llm import ScriptedChatModel
from courtroom_desktop.core.llm.ollama import OllamaChatModel
from courtroom_desktop.core.records import Chunk, Evidence, Highlight
from stress.common import CLAIM, Section, actor, complete_rounds, contiguous, lost_turns, stage_of, turns_of
from stress.faultserver import FAULTS, STAGES, FaultOllama, faulty_answer
from testkit.fake_ollama import MODEL

PASSAGES = [
    ("Blood Pressure Trial", "Systolic blood pressure fell by nine points in adults who took the tablets for twelve weeks."),
    ("Placebo Arm", "In the placebo group blood pressure fell by two points over the same twelve weeks."),
    ("Measurement Note", "Nurses measured blood pressure at every visit and did not know which tablets were taken."),
    ("Adherence", "Most adults took their tablets on at least nine days in ten during the trial."),
    # the second round's passages (a MemoryRetriever with passages=8)
    ("Dropouts", "Three adults in each group left the trial early, for reasons unrelated to the tablets."),
    ("Home Readings", "Readings taken at home with a cuff agreed with the clinic readings within three points."),
    ("Side Effects", "Mild dizziness was reported by four adults on the tablets and three on placebo."),
    ("Follow-up", "Four weeks after the tablets were stopped blood pressure had risen back by six points."),
]
#: Finished turns that must be in the trial store before a fault fires: round 1's two.
ARMED_AFTER_TURNS = 2
STORE_WAIT_S = 10.0
CONTENT_FAULTS = ("broken_json", "unknown_cite", "empty", "enormous")
BAD_TEXT = ("Traceback", "ModelError", "ModelUnavailable", "[prosecution/", "[defense/", "[judge/")


def evidence(index: int, query: str = "") -> Evidence:
    title, text = PASSAGES[index]
    chunk = Chunk(id=f"stress{index}-0000", doc_id=f"stress{index}", ordinal=0, section_path="2 Results",
                  page_start=0, page_end=0, char_start=0, char_end=len(text), text=text,
                  highlights=(Highlight(page=0, rects=((0.1, 0.1, 0.9, 0.12),)),))
    return Evidence(chunk=chunk, doc_title=title, doc_path=f"/stress/{index}.pdf", query=query, score=1.0)


class MemoryRetriever:
    """Hands out the first ``passages`` fixed passages, two new ones per search, then the same ones again (four: one
    round's worth; eight: new ones in round 2 as well)."""

    def __init__(self, passages: int = 4) -> None:
        self.calls = 0
        self.passages = passages

    async def asearch(self, queries, k=None, scope=None):
        start = (2 * self.calls) % self.passages
        self.calls += 1
        return [evidence((start + i) % self.passages, queries[0] if queries else "") for i in range(2)]


class FaultyActor:
    """The court actor with one content fault on one stage, ``times`` times once ``armed``; ``timeout`` raises what a
    timed-out provider raises."""

    def __init__(self, fault: str | None, stage: str | None, times: int = 1, armed: bool = True):
        self.fault, self.stage, self.times = fault, stage, times
        self.armed = armed  # no fault fires while False
        self.injected = 0
        self.on_inject = None  # called as each fault fires (run_case reads the stored turns then)

    def heal(self) -> None:
        self.fault = None

    def __call__(self, messages) -> str:
        stage = stage_of(messages)
        good = actor(messages)
        if self.armed and self.fault and stage == self.stage and self.injected < self.times:
            self.injected += 1
            if self.on_inject is not None:
                self.on_inject()
            if self.fault == "timeout":
                raise ModelUnavailable("the scripted server sent nothing for 1s", role=stage)
            return faulty_answer(self.fault, stage, good)
        return good


@dataclass
class CaseResult:
    transport: str
    stage: str
    fault: str
    times: int
    outcome: str          # continued, paused-resumed, hung, failed
    injected: int
    lost: int             # turns stored when a fault fired (or at the pause) missing from the trial at the end
    message: str = ""
    seconds: float = 0.0
    problems: tuple[str, ...] = ()
    at_fault: int = 0     # turns that were stored when a fault fired (what "lost" was measured against)


def settings(argument_format: str) -> DebateSettings:
    return DebateSettings(min_rounds=2, max_rounds=3, confidence_threshold=0.8, max_switches=0,
                          argument_format=argument_format, novelty_min=0.0)


async def _drive(court: Court, trial_id: str, limit_s: float, on_event=lambda event: None) -> list | None:
    async def collect():
        events = []
        async for event in court.run(trial_id):
            on_event(event)
            events.append(event)
        return events

    try:
        return await asyncio.wait_for(collect(), limit_s)
    except TimeoutError:
        return None


async def run_case(transport: str, stage: str, fault: str, times: int, work: Path, limit_s: float = 90.0) -> CaseResult:
    began = time.perf_counter()
    store = TrialStore(work / f"{transport}-{stage}-{fault}-{times}.sqlite")
    server = None
    models = {}
    try:
        if transport == "http":
            server = FaultOllama(fault, stage, times, armed=False).__enter__()
            spec = ModelSpec(provider="ollama", model=MODEL, base_url=server.url, read_timeout_s=1.0,
                             connect_timeout_s=1.0, retries=1, max_tokens=200)
            models = {role: OllamaChatModel(spec, role) for role in ("prosecution", "defense", "judge")}
            faulty = server
            fmt = "text"
        else:
            faulty = FaultyActor(fault, stage, times, armed=False)
            models = {role: ScriptedChatModel([faulty] * 400, role=role, max_tokens=200)
                      for role in ("prosecution", "defense", "judge")}
            fmt = "json"
        court = Court(lambda role: models[role], MemoryRetriever(passages=8), store, settings(fmt))
        trial_id = court.start(TrialSpec(claim=CLAIM))
        stored_at_fault: dict[tuple[int, str], object] = {}  # (index, text) -> turn, stored when a fault fired

        finished_turns = [0]  # turns that have come out of the trial's event stream

        def read_stored_turns() -> None:  # the store is thread-safe: the fake server calls this from its thread
            # every turn that came out of the trial before the fault fired (round 1's at least): wait for the writer
            # thread to store them (it writes on its own thread, so waiting here, even on the event loop, is safe)
            waited = time.monotonic() + STORE_WAIT_S
            while True:
                turns = turns_of(store.events(trial_id))
                if len(turns) >= max(ARMED_AFTER_TURNS, finished_turns[0]) or time.monotonic() > waited:
                    break
                time.sleep(0.01)
            stored_at_fault.update(((t.index, t.text), t) for t in turns)

        def arm(event) -> None:  # the first ruling: round 1 is over, both its turns were emitted before it
            if event.kind == "turn_finished":
                finished_turns[0] += 1
            if event.kind == "ruling":
                faulty.armed = True

        faulty.on_inject = read_stored_turns
        events = await _drive(court, trial_id, limit_s, arm)
        problems: list[str] = []
        if events is None:
            return CaseResult(transport, stage, fault, times, "hung", faulty.injected, 0,
                              seconds=time.perf_counter() - began, at_fault=len(stored_at_fault))
        outcome, message = "continued", ""
        at_fault = len(stored_at_fault)
        before = dict(stored_at_fault)
        if events and events[-1].kind == "error":  # and every turn stored when it paused
            before.update(((t.index, t.text), t) for t in turns_of(store.events(trial_id)))
            error = events[-1]
            message = error.message
            if not error.resumable:
                problems.append("paused but not resumable")
            if len(error.message) < 10:
                problems.append(f"unclear pause message {error.message!r}")
            faulty.heal()
            again = await _drive(court, trial_id, limit_s)
            if again is None:
                return CaseResult(transport, stage, fault, times, "hung", faulty.injected, 0, message,
                                  time.perf_counter() - began, at_fault=at_fault)
            events = again
            outcome = "paused-resumed"
        stored = store.events(trial_id)
        if not events or events[-1].kind != "verdict":
            problems.append(f"no verdict: last event {events[-1].kind if events else None}")
            outcome = "failed"
        if not contiguous(stored):
            problems.append("events are not contiguous")
        if not complete_rounds(stored):
            problems.append("a ruled round lacks a turn")
        state = TrialState.from_events(trial_id, store.spec(trial_id), stored)
        for turn in state.turns:
            if not turn.text.strip():
                problems.append(f"turn {turn.index} is empty")
            if any(bad in turn.text for bad in BAD_TEXT):
                problems.append(f"turn {turn.index} holds error text")
            if len(turn.text) > 5000:
                problems.append(f"turn {turn.index} is {len(turn.text)} characters long")
        lost = lost_turns(list(before.values()), state.turns)
        return CaseResult(transport, stage, fault, times, outcome, faulty.injected, lost, message,
                          time.perf_counter() - began, tuple(problems), at_fault)
    finally:
        for model in models.values():
            await model.aclose()
        if server is not None:
            server.__exit__(None, None, None)
        store.close()


def cases(quick: bool = False) -> list[tuple[str, str, str, int]]:
    """(transport, stage, fault, times): every fault at every stage once over HTTP, the content faults with the
    scripted transport, and persistent faults (every attempt fails) that must pause the trial."""
    out = [("http", stage, fault, 1) for stage in STAGES for fault in FAULTS]
    out += [("scripted", stage, fault, 1) for stage in STAGES for fault in CONTENT_FAULTS]
    out += [("scripted", stage, fault, 99) for stage in STAGES for fault in ("broken_json", "empty", "timeout")]
    out += [("http", "argument", fault, 99) for fault in ("empty", "unknown_cite", "disconnect", "enormous")]
    out += [("http", "ruling", "broken_json", 99), ("http", "verdict", "empty", 99)]
    if quick:
        out = [c for c in out if c[2] != "endless"][::3]
    return out


def run(quick: bool = False, work: Path | None = None, log=print, only: list[tuple] | None = None) -> Section:
    section = Section("model faults", {"trials": 0, "faults injected": 0, "turns stored when a fault fired": 0,
                                       "turns lost": 0})
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="stress-faults-", dir=work) as tmp:
        for transport, stage, fault, times in cases(quick) if only is None else only:
            result = asyncio.run(run_case(transport, stage, fault, times, Path(tmp)))
            section.add("trials")
            section.add("faults injected", result.injected)
            section.add(result.outcome)
            section.add("turns stored when a fault fired", result.at_fault)
            section.add("turns lost", result.lost)
            if result.outcome in ("hung", "failed") or result.problems or result.lost:
                section.fail(f"{transport}/{stage}/{fault}x{times}: {result.outcome}, lost {result.lost}, "
                             f"{'; '.join(result.problems)}")
            if result.injected == 0:
                section.fail(f"{transport}/{stage}/{fault}x{times}: no fault was injected")
            elif result.at_fault == 0:
                section.fail(f"{transport}/{stage}/{fault}x{times}: no turn was stored when the fault fired, so "
                             f"turns lost proves nothing")
            log(f"  {transport:<8} {stage:<8} {fault:<12} x{times:<3} {result.outcome:<15} injected {result.injected:<2} "
                f"stored {result.at_fault} lost {result.lost}  {result.seconds:4.1f} s  {result.message[:60]}")
    if not section.counts["trials"]:
        section.fail("no case ran: the check proves nothing")
    elif not section.counts["turns stored when a fault fired"]:
        section.fail("no turn was stored when any fault fired: turns lost proves nothing")
    section.seconds = time.perf_counter() - began
    return section
