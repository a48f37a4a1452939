"""Concurrency: ingesting while a trial runs, trials at once on one store, a cited document removed mid-trial.

1. A trial runs with the real retriever on a library while another thread ingests, removes and re-ingests
   documents in it. The trial must reach a verdict, the ingest thread must not fail, the stores must agree after.
2. Three trials at once on one trial store file: two on one event loop sharing a TrialStore, a third in another
   thread with its own connection to the same file. Every trial's events must be its own, contiguous and
   complete.
3. The document behind a cited passage is removed from the library mid-trial. Later searches must not return it,
   the trial must finish, and the exported report (JSON and Markdown) must still carry the cited passage's text
   (the evidence snapshot) and its highlighted page.
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import threading
import time
from pathlib import Path

from courtroom_desktop.core.config import AppConfig, DebateSettings
from courtroom_desktop.core.court import Court, TrialSpec, TrialStore
from courtroom_desktop.core.llm import ScriptedChatModel
from courtroom_desktop.core.retrieval import Retriever
from courtroom_desktop.core.workspace import Workspace
from stress.common import CLAIM, Section, actor, complete_rounds, contiguous, open_library, retrieval_settings
from stress.faults import MemoryRetriever
from stress.kill import make_docs


def _models(delay_s: float = 0.0):
    table = {role: ScriptedChatModel([actor] * 400, role=role, token_delay_s=delay_s)
             for role in ("prosecution", "defense", "judge")}
    return lambda role: table[role]


def _settings(max_rounds: int = 3) -> DebateSettings:
    return DebateSettings(min_rounds=2, max_rounds=max_rounds, max_switches=1, argument_format="text",
                          novelty_min=0.0)


def _trial_ok(store: TrialStore, trial_id: str, events: list) -> list[str]:
    stored = store.events(trial_id)
    problems = []
    if not events or events[-1].kind != "verdict":
        problems.append(f"no verdict ({events[-1].kind if events else None})")
    if not contiguous(stored):
        problems.append("events not contiguous")
    if any(e.trial_id != trial_id for e in stored):
        problems.append("another trial's events are mixed in")
    if not complete_rounds(stored):
        problems.append("a ruled round lacks a turn")
    return problems


async def _collect(court: Court, trial_id: str) -> list:
    return [e async for e in court.run(trial_id)]


def ingest_during_trial(root: Path, section: Section, seed: int) -> None:
    rng = random.Random(seed)
    library = open_library(root / "library-a")
    docs = make_docs(root / "docs", 8)
    library.ingest(docs[:3])
    stop = threading.Event()
    errors: list[BaseException] = []
    operations = [0]

    def churn() -> None:
        try:
            for _ in range(1000):
                if stop.is_set():
                    return
                if rng.random() < 0.6:
                    library.ingest(rng.sample(docs, 3), force=rng.random() < 0.3)
                else:
                    extra = [d for d in library.documents() if "extra" in d.path]
                    if extra:
                        library.remove(rng.choice(extra).id)
                operations[0] += 1
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    store = TrialStore(root / "trials-a.sqlite")
    try:
        court = Court(_models(0.01), Retriever(library, retrieval_settings()), store, _settings())
        trial_id = court.start(TrialSpec(claim=CLAIM))
        worker = threading.Thread(target=churn, name="stress-churn", daemon=True)
        worker.start()
        events = asyncio.run(_collect(court, trial_id))
        stop.set()
        worker.join(120)
        problems = _trial_ok(store, trial_id, events)
    finally:
        store.close()
    if worker.is_alive():
        problems.append("the ingest thread did not stop")
    if errors:
        problems.append(f"the ingest thread failed: {type(errors[0]).__name__}: {errors[0]}")
    consistent = library.check_consistency()["consistent"]
    library.close()
    if not consistent:
        problems.append("the stores disagree after the churn")
    section.counts["library operations during the trial"] = operations[0]
    if not operations[0]:
        problems.append("no library operation finished during the trial: the check proves nothing")
    section.add("ingest during a trial: ok" if not problems else "ingest during a trial: failed")
    for problem in problems:
        section.fail(f"ingest during a trial: {problem}")


def trials_at_once(root: Path, section: Section) -> None:
    path = root / "trials-b.sqlite"
    store = TrialStore(path)
    other = TrialStore(path)  # a second connection to the same file, as a second window or process would have
    results: dict[str, list] = {}
    try:
        court_a = Court(_models(0.005), MemoryRetriever(), store, _settings())
        court_b = Court(_models(0.005), MemoryRetriever(), store, _settings())
        court_c = Court(_models(0.005), MemoryRetriever(), other, _settings())
        ids = [court_a.start(TrialSpec(claim=CLAIM)), court_b.start(TrialSpec(claim="Salt raises blood pressure.")),
               court_c.start(TrialSpec(claim="Walking improves sleep."))]

        def third() -> None:
            results[ids[2]] = asyncio.run(_collect(court_c, ids[2]))

        thread = threading.Thread(target=third, name="stress-third-trial")
        thread.start()

        async def both():
            return await asyncio.gather(_collect(court_a, ids[0]), _collect(court_b, ids[1]))

        results[ids[0]], results[ids[1]] = asyncio.run(both())
        thread.join(120)
        problems = []
        for trial_id in ids:
            problems += [f"{trial_id}: {p}" for p in _trial_ok(store, trial_id, results.get(trial_id, []))]
    finally:
        store.close()
        other.close()
    section.counts["trials at once"] = len(ids)
    section.add("trials at once: ok" if not problems else "trials at once: failed")
    for problem in problems:
        section.fail(f"trials at once: {problem}")


def remove_cited_document(root: Path, section: Section) -> None:
    data_dir = root / "data-c"
    workspace = Workspace(root / "config-c", data_dir, AppConfig())
    workspace.parts._library = open_library(data_dir / "library")
    problems: list[str] = []
    try:
        library = workspace.parts.library
        library.ingest(make_docs(root / "docs", 6))
        store = workspace.parts.trials
        court = Court(_models(0.0), Retriever(library, retrieval_settings()), store, _settings(2))
        trial_id = court.start(TrialSpec(claim=CLAIM))
        removed: dict[str, str] = {}
        after_removal: list = []

        async def drive() -> list:
            events = []
            async for event in court.run(trial_id):
                events.append(event)
                if event.kind == "turn_finished" and not removed:
                    cited = [c.evidence_id for c in event.turn.citations if c.valid]
                    pool = {e.entry.id: e.entry for e in events if e.kind == "evidence_added"}
                    if cited and cited[0] in pool:
                        entry = pool[cited[0]]
                        await asyncio.to_thread(library.remove, entry.evidence.chunk.doc_id)
                        removed.update(evidence_id=entry.id, doc_id=entry.evidence.chunk.doc_id,
                                       text=entry.evidence.chunk.text)
                elif event.kind == "evidence_added" and removed:
                    after_removal.append(event.entry)
            return events

        events = asyncio.run(drive())
        problems += _trial_ok(store, trial_id, events)
        if not removed:
            problems.append("no cited passage to remove")
        else:
            if any(e.evidence.chunk.doc_id == removed["doc_id"] for e in after_removal):
                problems.append("a search returned the removed document")
            out = root / "report-c"
            workspace.trials.export(trial_id, ["md", "json"], out)
            report = json.loads((out / "report.json").read_text(encoding="utf-8"))
            kept = [p for p in report["pool"] if p["id"] == removed["evidence_id"]]
            text = kept[0]["evidence"]["chunk"]["text"] if kept else ""
            if text != removed["text"]:
                problems.append("the report lost the removed document's passage")
            if removed["text"][:60] not in (out / "report.md").read_text(encoding="utf-8"):
                problems.append("the Markdown report does not quote the removed document's passage")
            if not any(s["evidence_id"] == removed["evidence_id"] and s["pdf"] for s in report["sources"]):
                problems.append("no highlighted page for the removed document's passage")
        section.counts["cited documents removed mid-trial"] = 1 if removed else 0
    finally:
        workspace.close()
    section.add("remove a cited document: ok" if not problems else "remove a cited document: failed")
    for problem in problems:
        section.fail(f"remove a cited document: {problem}")


def run(seed: int = 5, work: Path | None = None, log=print) -> Section:
    section = Section("concurrency")
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="stress-concurrency-", dir=work) as tmp:
        root = Path(tmp)
        ingest_during_trial(root, section, seed)
        trials_at_once(root, section)
        remove_cited_document(root, section)
    section.seconds = time.perf_counter() - began
    log(f"  {section.counts}")
    return section
