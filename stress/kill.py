"""Kill -9 at random points of ingestion and of a trial, many times; after each kill the data is reopened and
checked.

A kill counts only when it lands: the child was still running when the SIGKILL was sent and the SIGKILL is what
ended it. At least ``LANDED_SHARE`` (80 %) of the requested kills must land, and a run where none lands (or none was
requested) fails: it would prove nothing.

Ingestion: a child process loops over ingest (sometimes forced), remove and re-ingest on a folder of PDFs until it
is killed with SIGKILL after a random delay; its loop outlasts any delay, so a child that ends by itself has failed.
Then the library is reopened (its ``recover()`` purges what the kill left half-written): the catalog, LanceDB and
tantivy must agree, and the fixed query must still answer. No extraction child (``core.library.read.isolate``) of a
killed process may outlive it for long; the ones running at the kills are counted (psutil, a dev dependency, finds
them: without it the section fails).

Trial: a child process resumes (or starts) a trial with scripted models that stream slowly, and is killed after a
random delay; a child whose trial reaches its verdict first ends by itself, as it should. After each child: events
contiguous, turn indexes without gaps, every ruled round complete; after the next resume of a killed trial (by the
next child, or the final resume here) every finished turn persisted before the kill must still be there, by index
and text ("turns lost"). Only resumes by children after a kill count as resumes; at the end the trial is resumed
here to a verdict.

    python -m stress.kill ingest LIBRARY DOCS SEED     (child)
    python -m stress.kill trial STORE TRIAL_ID         (child)
"""

from __future__ import annotations

import asyncio
import math
import os
import random
import select
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
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

#: The share of the requested kills that must land (the child alive, and ended by our SIGKILL), or the run fails.
LANDED_SHARE = 0.8


@dataclass
class Attempt:
    """One child and what ended it."""

    started: bool = False     # it printed "started" within the start limit
    sent: bool = False        # SIGKILL was sent while it was still running
    code: int | None = None   # its exit status (negative: the signal that ended it)
    before: object = None     # what ``before_kill`` returned, just before the SIGKILL

    @property
    def landed(self) -> bool:
        """The child was alive when the kill was sent, and our SIGKILL is what ended it."""
        return self.started and self.sent and self.code == -signal.SIGKILL

    @property
    def by_itself(self) -> bool:
        """It ended before the kill was sent."""
        return self.started and not self.sent


def _spawn(args: list[str], env: dict, log_path: Path) -> subprocess.Popen:
    with log_path.open("ab") as errors:  # the child's stderr, for the failure message if it never starts
        return subprocess.Popen([sys.executable, "-m", "stress.kill", *args], stdout=subprocess.PIPE, stderr=errors,
                                env=env, cwd=str(Path(__file__).resolve().parents[1]), text=True)


def _kill_after_start(proc: subprocess.Popen, delay_s: float, before_kill=None, start_limit_s: float = 60.0) -> Attempt:
    """Wait (at most ``start_limit_s``) for the child's "started" line, then SIGKILL it after ``delay_s`` unless it
    has ended by itself; ``before_kill(pid)`` runs just before the signal is sent."""
    attempt = Attempt()
    ready, _, _ = select.select([proc.stdout], [], [], start_limit_s)
    if ready:
        attempt.started = proc.stdout.readline().strip() == "started"
    if attempt.started:
        try:
            proc.wait(timeout=delay_s)
        except subprocess.TimeoutExpired:
            pass
    if proc.poll() is None:
        if attempt.started and before_kill is not None:
            attempt.before = before_kill(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        attempt.sent = attempt.started
    attempt.code = proc.wait(timeout=30)
    proc.stdout.close()
    return attempt


def _log_tail(log_path: Path) -> str:
    return log_path.read_text(encoding="utf-8", errors="replace")[-600:] if log_path.exists() else ""


def _not_started(section: Section, label: str, log_path: Path) -> None:
    section.fail(f"{label}: the child never started: {_log_tail(log_path)}")


def _how(code: int | None) -> str:
    return f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"


def _require_kills(section: Section, requested: int, landed: int) -> None:
    """Fail unless at least LANDED_SHARE of the requested kills landed (and at least one did)."""
    section.counts["kills requested"] = requested
    section.counts["kills landed"] = landed
    if requested < 1:
        section.fail("no kill was requested: the check proves nothing")
    elif landed == 0:
        section.fail(f"no kill landed (0 of {requested}): the check proves nothing")
    elif landed < math.ceil(LANDED_SHARE * requested):
        section.fail(f"only {landed} of {requested} kills landed (at least {LANDED_SHARE:.0%} must)")


def _psutil():
    """psutil (a dev dependency), or None."""
    try:
        import psutil
    except ImportError:
        return None
    return psutil


def _extraction_children(psutil, pid: int) -> list[int]:
    """The extraction children (``core.library.read.isolate``) of process ``pid``."""
    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []
    found = []
    for child in children:
        try:
            if "courtroom_desktop.core.library.read.isolate" in " ".join(child.cmdline()):
                found.append(child.pid)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found


def _orphans(psutil, run_id: str) -> list[int]:
    """Extraction children of this run that are still alive."""
    found = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        try:
            if "courtroom_desktop.core.library.read.isolate" in " ".join(proc.info["cmdline"] or ()):
                if proc.environ().get(MARKER) == run_id and proc.status() != psutil.STATUS_ZOMBIE:
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
    """``kills`` children, each killed at a random point; a child never ends by itself (its loop outlasts any
    delay), so one that does is a failure."""
    section = Section("kill -9 during ingestion", {"kills requested": kills, "kills landed": 0})
    began = time.perf_counter()
    psutil = _psutil()
    if psutil is None:
        section.fail("psutil cannot be imported (a dev dependency: pip install -e '.[dev]'): the extraction children "
                     "of the killed processes cannot be found, so the orphan check would prove nothing")
        section.seconds = time.perf_counter() - began
        return section
    rng = random.Random(seed)
    docs = root / "docs"
    make_docs(docs)
    library_root = root / "library"
    log_path = root / "ingest-child.log"
    run_id = uuid.uuid4().hex
    env = dict(os.environ, **{MARKER: run_id})
    from courtroom_desktop.core.retrieval import Retriever

    landed = 0
    at_kills: set[int] = set()
    for number in range(1, kills + 1):
        delay = rng.uniform(0.05, 6.0)
        attempt = _kill_after_start(_spawn(["ingest", str(library_root), str(docs), f"{seed}-{number}"], env, log_path),
                                    delay, before_kill=lambda pid: _extraction_children(psutil, pid))
        if not attempt.started:
            _not_started(section, f"ingest kill {number}", log_path)
            break
        if attempt.landed:
            landed += 1
            at_kills.update(attempt.before or ())
        elif attempt.by_itself:
            section.fail(f"ingest kill {number}: the child ended by itself ({_how(attempt.code)}) before the kill "
                         f"after {delay:.2f} s; its work never ends, so it failed: {_log_tail(log_path)}")
        else:
            section.fail(f"ingest kill {number}: the SIGKILL was sent but the child ended with {_how(attempt.code)}")
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
            section.fail(f"kill {number} after {delay:.2f} s: stores disagree {consistency}, pending {pending}")
        log(f"  ingest kill {number:>2} after {delay:4.2f} s: {'landed' if attempt.landed else _how(attempt.code)}, "
            f"{len(attempt.before or ())} extraction children, {ready} documents, "
            f"{'consistent' if consistency['consistent'] else 'INCONSISTENT'}")
    _require_kills(section, kills, landed)
    # the orphan extraction children: each exits when its parent is gone (within a second or two)
    section.counts["extraction children at the kills"] = len(at_kills)
    deadline = time.monotonic() + 15
    while _orphans(psutil, run_id) and time.monotonic() < deadline:
        time.sleep(0.5)
    orphans = _orphans(psutil, run_id)
    section.counts["orphaned extraction children"] = len(orphans)
    if orphans:
        section.fail(f"extraction children outlived their killed parent: {orphans}")
    if landed and not at_kills:
        section.fail("no extraction child was running at any kill: the orphan check proves nothing")
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


def _turn_keys(turns) -> set[tuple[int, str]]:
    return {(t.index, t.text) for t in turns}


def run_trial(kills: int, seed: int, root: Path, log=print) -> Section:
    """Children resume (or start) a trial and are killed at random points. A child whose trial reaches its verdict
    ends by itself, as it should: that is no failure, and it does not use up a kill (at most ``kills`` such extra
    attempts). Turns lost: every finished turn persisted before a kill (read just before the SIGKILL, and again
    after it) must be in the store, by index and text, after the next resume of that trial."""
    section = Section("kill -9 during a trial", {"kills requested": kills, "kills landed": 0})
    began = time.perf_counter()
    rng = random.Random(seed + 1)
    store_path = root / "trials.sqlite"
    log_path = root / "trial-child.log"
    store = TrialStore(store_path)
    models = trial_models(0.0)
    court = Court(lambda role: models[role], MemoryRetriever(), store, settings("text"))
    env = dict(os.environ)
    trial_id = court.start(TrialSpec(claim=CLAIM))
    persisted: set[tuple[int, str]] = set()   # this trial's turns persisted before its kills, not yet checked
    counts = dict.fromkeys(("finished by a child before its kill", "resumes by a child after a kill",
                            "trials resumed to a verdict by a child", "turns checked after a resume",
                            "turns lost"), 0)
    resumed_this_trial = False
    landed = 0

    def state_of(trial: str) -> tuple[list, TrialState]:
        events = store.events(trial)
        return events, TrialState.from_events(trial, store.spec(trial), events)

    def check(events, state: TrialState, label: str, resumed: bool) -> None:
        problems = []
        if not contiguous(events):
            problems.append("events not contiguous")
        if not complete_rounds(events):
            problems.append("a ruled round lacks a turn")
        indexes = sorted(t.index for t in state.turns)
        if indexes != list(range(len(indexes))):
            problems.append(f"turn indexes {indexes} have gaps or repeats")
        if resumed and persisted:  # after a resume: every turn persisted before the kill must still be there
            missing = sorted(persisted - _turn_keys(state.turns))
            counts["turns checked after a resume"] += len(persisted)
            counts["turns lost"] += len(missing)
            if missing:
                problems.append(f"{len(missing)} turns persisted before the kill are gone after the resume: "
                                f"{[index for index, _ in missing]}")
            persisted.clear()
        if problems:
            section.fail(f"{label}: {'; '.join(problems)}")
        else:
            section.add("events complete after restart")

    def turns_now(_pid) -> list:
        return turns_of(store.events(trial_id))

    try:
        attempts = used = 0
        while used < kills and attempts < 2 * kills:
            attempts += 1
            delay = rng.uniform(0.05, 3.5)
            resumes_before = sum(1 for e in store.events(trial_id) if e.kind == "trial_resumed")
            killed_before = bool(store.events(trial_id))  # the trial was killed (or started) by an earlier child
            attempt = _kill_after_start(_spawn(["trial", str(store_path), trial_id], env, log_path), delay,
                                        before_kill=turns_now)
            label = f"trial attempt {attempts} after {delay:.2f} s"
            if not attempt.started:
                _not_started(section, label, log_path)
                break
            events, state = state_of(trial_id)
            resumed = sum(1 for e in events if e.kind == "trial_resumed") > resumes_before
            if resumed and killed_before:
                counts["resumes by a child after a kill"] += 1
                resumed_this_trial = True
            check(events, state, label, resumed)
            done = state.verdict is not None
            if attempt.landed:
                used += 1
                landed += 1
                persisted.update(_turn_keys(attempt.before or ()), _turn_keys(state.turns))
                outcome = "landed"
            elif attempt.code == 0 and done:
                # exit code 0 (not the SIGKILL's -9) with the verdict stored: the child finished its work, before
                # the kill or in the instant between the last check that it was alive and the signal; expected
                counts["finished by a child before its kill"] += 1
                outcome = "finished by itself"
            else:
                used += 1
                section.fail(f"{label}: the child ended with {_how(attempt.code)} "
                             f"{'before the kill' if attempt.by_itself else 'after the kill'} and the trial "
                             f"{'has' if done else 'has no'} verdict: {_log_tail(log_path)}")
                outcome = _how(attempt.code)
            log(f"  {label}: {outcome}, {len(events)} events, {len(state.turns)} turns, "
                f"{'resumed, ' if resumed else ''}last {events[-1].kind if events else None}")
            if done:
                if resumed_this_trial:
                    counts["trials resumed to a verdict by a child"] += 1
                trial_id = court.start(TrialSpec(claim=CLAIM))
                persisted.clear()
                resumed_this_trial = False
        _require_kills(section, kills, landed)

        async def finish() -> list:
            return [e async for e in court.run(trial_id)]

        try:  # the last trial is resumed here (not counted as a child's resume); its turns are checked all the same
            final = asyncio.run(finish())
        except Exception as exc:  # noqa: BLE001 - reported as the failure it is
            final = []
            section.fail(f"the final resume raised {type(exc).__name__}: {exc}")
        events, state = state_of(trial_id)
        check(events, state, "final resume", resumed=True)
        resumed_to_verdict = bool(final) and final[-1].kind == "verdict"
        if not resumed_to_verdict:
            section.fail(f"the trial did not resume to a verdict: {final[-1].kind if final else None}")
        section.counts.update(counts)
        section.counts["final resume to a verdict"] = resumed_to_verdict
        if landed and not counts["resumes by a child after a kill"]:
            section.fail("no child resumed a killed trial: the resume check proves nothing")
        if landed and not counts["turns checked after a resume"]:
            section.fail("no turn persisted before a kill was checked after a resume: turns lost proves nothing")
    finally:
        store.close()
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
