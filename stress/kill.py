"""Kill -9 at random points of ingestion and of a trial, many times; after each kill the data is reopened and
checked.

Ingestion: a child process loops over ingest (sometimes forced), remove and re-ingest on a folder of PDFs until it
is killed with SIGKILL after a random delay. Then the library is reopened (its ``recover()`` purges what the kill
left half-written): the catalog, LanceDB and tantivy must agree, and the fixed query must still answer. No
extraction child (``core.library.isolate``) of a killed process may outlive it for long.

Trial: a child process resumes (or starts) a trial with scripted models that stream slowly, and is killed after a
random delay. After each kill: events contiguous, every finished turn still there, the state rebuilds; at the end
the trial is resumed here to a verdict.

    python -m stress.kill ingest LIBRARY DOCS SEED     (child)
    python -m stress.kill trial STORE TRIAL_ID         (child)
"""

from __future__ import annotations

import asyncio
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from courtroom_desktop.core.court import Court, TrialSpec, TrialStore
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.llm import ScriptedChatModel
from stress.common import (
    CLAIM,
    Section,
    actor,
    complete_rounds,
    contiguous,
    lost_turns,
    open_library,
    retrieval_settings,
    turns_of,
    write_baseline,
)
from stress.faults import MemoryRetriever, settings
from testkit.pdfgen import DocSpec, SectionSpec, render_pdf

MARKER = "COURTROOM_STRESS_RUN"


# ---------------------------------------------------------------------------- children

def child_ingest(library_root: str, docs: str, seed: str) -> None:
    rng = random.Random(seed)
    library = open_library(Path(library_root), file_timeout_s=60.0)
    print("started", flush=True)
    files = sorted(Path(docs).glob("*.pdf"))
    for _ in range(10_000):  # until killed; bounded in case nobody does
        action = rng.random()
        if action < 0.5:
            library.ingest([docs], force=rng.random() < 0.3)
        elif action < 0.8 and library.documents():
            library.remove(rng.choice(library.documents()).id)
        else:
            library.ingest(rng.sample(files, k=min(2, len(files))), force=True)
    library.close()


def trial_models(delay_s: float) -> dict[str, ScriptedChatModel]:
    return {role: ScriptedChatModel([actor] * 400, role=role, token_delay_s=delay_s)
            for role in ("prosecution", "defense", "judge")}


def child_trial(store_path: str, trial_id: str) -> None:
    store = TrialStore(Path(store_path))
    models = trial_models(0.03)
    court = Court(lambda role: models[role], MemoryRetriever(), store, settings("text"))
    print("started", flush=True)

    async def main() -> None:
        async for _ in court.run(trial_id):
            pass

    asyncio.run(main())
    store.close()


# ---------------------------------------------------------------------------- the parent

def _spawn(args: list[str], env: dict, log_path: Path) -> subprocess.Popen:
    with log_path.open("ab") as errors:  # the child's stderr, for the failure message if it never starts
        return subprocess.Popen([sys.executable, "-m", "stress.kill", *args], stdout=subprocess.PIPE, stderr=errors,
                                env=env, cwd=str(Path(__file__).resolve().parents[1]), text=True)


def _kill_after_start(proc: subprocess.Popen, delay_s: float, start_limit_s: float = 60.0) -> tuple[bool, bool]:
    """Wait (at most ``start_limit_s``) for the child's "started" line, then SIGKILL it after ``delay_s``.
    Returns (started, killed): killed is False when it ended by itself first."""
    started = False
    ready, _, _ = select.select([proc.stdout], [], [], start_limit_s)
    if ready:
        started = proc.stdout.readline().strip() == "started"
    if started:
        try:
            proc.wait(timeout=delay_s)
        except subprocess.TimeoutExpired:
            pass
    killed = proc.poll() is None
    if killed:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stdout.close()
    return started, killed and started


def _not_started(section: Section, label: str, log_path: Path) -> None:
    tail = log_path.read_text(encoding="utf-8", errors="replace")[-600:] if log_path.exists() else ""
    section.fail(f"{label}: the child never started: {tail}")


def _orphans(run_id: str) -> list[int]:
    """Extraction children of this run that are still alive."""
    try:
        import psutil
    except ImportError:  # psutil is a dev dependency; without it this check is skipped
        return []
    found = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        try:
            if "courtroom_desktop.core.library.isolate" in " ".join(proc.info["cmdline"] or ()):
                if proc.environ().get(MARKER) == run_id:
                    found.append(proc.info["pid"])
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found


def make_docs(folder: Path, count: int = 6) -> list[Path]:
    paths = write_baseline(folder, 3)
    for index in range(3, count):
        path = folder / f"extra-{index}.pdf"
        if not path.exists():
            sections = [SectionSpec(1, f"{n} Part {n}", [f"Document {index} part {n} paragraph {k}: blood pressure "
                                                         f"readings {index * 10 + k} and notes on placebo tablets."
                                                         for k in range(6)]) for n in range(1, 6)]
            render_pdf(DocSpec(title=f"Extra Report {index}", sections=sections), path, outline=True)
        paths.append(path)
    return paths


def run_ingest(kills: int, seed: int, root: Path, log=print) -> Section:
    section = Section("kill -9 during ingestion")
    began = time.perf_counter()
    rng = random.Random(seed)
    docs = root / "docs"
    make_docs(docs)
    library_root = root / "library"
    run_id = uuid.uuid4().hex
    env = dict(os.environ, **{MARKER: run_id})
    from courtroom_desktop.core.retrieval import Retriever

    for attempt in range(kills):
        delay = rng.uniform(0.05, 6.0)
        started, killed = _kill_after_start(
            _spawn(["ingest", str(library_root), str(docs), f"{seed}-{attempt}"], env, root / "ingest-child.log"), delay)
        if not started:
            _not_started(section, f"ingest kill {attempt + 1}", root / "ingest-child.log")
            break
        section.add("kills" if killed else "ended before the kill")
        library = open_library(library_root)
        try:
            consistency = library.check_consistency()
            ready = len(library.documents())
            results = Retriever(library, retrieval_settings()).search(["blood pressure placebo"], k=3) if ready else []
            pending = [d.id for d in library.catalog.documents() if d.status.value != "ready"]
        finally:
            library.close()
        if consistency["consistent"] and not pending and (results or not ready):
            section.add("consistent after restart")
        else:
            section.fail(f"kill {attempt + 1} after {delay:.2f} s: stores disagree {consistency}, pending {pending}")
        log(f"  ingest kill {attempt + 1:>2} after {delay:4.2f} s: {ready} documents, "
            f"{'consistent' if consistency['consistent'] else 'INCONSISTENT'}")
    # the orphan extraction children: each exits when its parent is gone (within a second or two)
    deadline = time.monotonic() + 15
    while _orphans(run_id) and time.monotonic() < deadline:
        time.sleep(0.5)
    orphans = _orphans(run_id)
    section.counts["orphaned extraction children"] = len(orphans)
    if orphans:
        section.fail(f"extraction children outlived their killed parent: {orphans}")
    # and after all that, a clean ingest brings every document in
    library = open_library(library_root)
    try:
        library.ingest([docs])
        complete = len(library.documents()) == len(list(docs.glob("*.pdf"))) and library.check_consistency()["consistent"]
    finally:
        library.close()
    section.counts["complete after a final ingest"] = complete
    if not complete:
        section.fail("a clean ingest after the kills did not bring the library to every document")
    section.seconds = time.perf_counter() - began
    return section


def run_trial(kills: int, seed: int, root: Path, log=print) -> Section:
    section = Section("kill -9 during a trial")
    began = time.perf_counter()
    rng = random.Random(seed + 1)
    store_path = root / "trials.sqlite"
    store = TrialStore(store_path)
    models = trial_models(0.0)
    court = Court(lambda role: models[role], MemoryRetriever(), store, settings("text"))
    env = dict(os.environ)
    trial_id = court.start(TrialSpec(claim=CLAIM))
    seen: list = []
    finished = 0

    def check(trial: str, label: str) -> list:
        events = store.events(trial)
        state = TrialState.from_events(trial, store.spec(trial), events)
        problems = []
        if not contiguous(events):
            problems.append("events not contiguous")
        if lost_turns(seen, state.turns):
            problems.append(f"{lost_turns(seen, state.turns)} turns lost")
        if not complete_rounds(events):
            problems.append("a ruled round lacks a turn")
        if problems:
            section.fail(f"{label}: {'; '.join(problems)}")
        else:
            section.add("events complete after restart")
        return events

    try:
        for attempt in range(kills):
            delay = rng.uniform(0.05, 3.5)
            started, killed = _kill_after_start(_spawn(["trial", str(store_path), trial_id], env,
                                                       root / "trial-child.log"), delay)
            if not started:
                _not_started(section, f"trial kill {attempt + 1}", root / "trial-child.log")
                break
            section.add("kills" if killed else "ended before the kill")
            events = check(trial_id, f"kill {attempt + 1} after {delay:.2f} s")
            seen[:] = turns_of(events)
            log(f"  trial kill {attempt + 1:>2} after {delay:4.2f} s: {len(events)} events, {len(seen)} turns, "
                f"last {events[-1].kind if events else None}")
            if events and events[-1].kind == "verdict":
                finished += 1
                trial_id = court.start(TrialSpec(claim=CLAIM))
                seen = []

        async def finish() -> list:
            return [e async for e in court.run(trial_id)]

        final = asyncio.run(finish())
        events = check(trial_id, "final resume")
        if not final or final[-1].kind != "verdict":
            section.fail(f"the trial did not resume to a verdict: {final[-1].kind if final else None}")
        else:
            finished += 1
        section.counts["trials resumed to a verdict"] = finished
        section.counts["resumes"] = sum(1 for t in store.list() for e in store.events(t.id) if e.kind == "trial_resumed")
    finally:
        store.close()
    section.counts.setdefault("turns lost", 0)
    section.seconds = time.perf_counter() - began
    return section


def run(ingest_kills: int = 12, trial_kills: int = 12, seed: int = 11, work: Path | None = None,
        log=print) -> list[Section]:
    with tempfile.TemporaryDirectory(prefix="stress-kill-", dir=work) as tmp:
        root = Path(tmp)
        return [run_ingest(ingest_kills, seed, root, log), run_trial(trial_kills, seed, root, log)]


if __name__ == "__main__":  # a child of the runner
    command, *rest = sys.argv[1:]
    if command == "ingest":
        child_ingest(*rest)
    elif command == "trial":
        child_trial(*rest)
    else:
        raise SystemExit(f"unknown child command {command!r}")
