"""Fuzzed PDFs through ingestion: every broken file goes into a real library that already holds good documents,
with a time limit per file, and after each the library must be exactly as it was.

Per file: ``library.ingest([file])`` runs in a thread watched by a deadline (a call that does not return in time
is a hang). An exception out of ``ingest`` is a crash (a bad file must be reported per file, never raised). Then
the baseline documents, their chunk counts in LanceDB and tantivy, and the fixed query's results must be unchanged
and ``check_consistency()`` true; a fuzz file that was valid enough to be added is removed again and the same
checks run once more. The outcome must match what the file's kind expects (a clear reason for a file that must
fail, an added document for one that is valid).

``probe`` (optional) measures the same files through ``extract()`` in this process's way (no isolation), each in
a throwaway subprocess with the same time limit: how many would hang or crash the app without the child process.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from courtroom_desktop.core.records import FileFinished, FileOutcome
from courtroom_desktop.core.retrieval import Retriever
from stress.common import Section, open_library, retrieval_settings, snapshot, write_baseline
from stress.fuzzpdf import FuzzFile, generate

PROBE = """
import sys
from pathlib import Path
from courtroom_desktop.core.errors import IngestError
from courtroom_desktop.core.library.read.extract import extract
try:
    extract(Path(sys.argv[1]))
    print("ok")
except IngestError:
    print("failed")
"""


def ingest_with_deadline(library, path: Path, limit_s: float) -> tuple[str, list[FileFinished], BaseException | None]:
    """("done" | "hang", the FileFinished events, the exception ingest raised if any)."""
    events: list = []
    error: list[BaseException] = []

    def work() -> None:
        try:
            library.ingest([path], on_event=events.append)
        except BaseException as exc:  # noqa: BLE001 - counted as a crash by the caller
            error.append(exc)

    thread = threading.Thread(target=work, name="fuzz-ingest", daemon=True)
    thread.start()
    thread.join(limit_s)
    finished = [e for e in list(events) if isinstance(e, FileFinished)]
    return ("hang" if thread.is_alive() else "done"), finished, (error[0] if error else None)


def probe(files: list[FuzzFile], limit_s: float) -> dict[str, int]:
    """In-process extraction (no isolation) of each file in a subprocess: hangs and crashes it would cause."""
    counts = {"probed without isolation": 0, "hangs without isolation": 0, "crashes without isolation": 0}
    for item in files:
        counts["probed without isolation"] += 1
        try:
            result = subprocess.run([sys.executable, "-c", PROBE, str(item.path)], capture_output=True, text=True,
                                    timeout=limit_s)
        except subprocess.TimeoutExpired:
            counts["hangs without isolation"] += 1
            continue
        lines = result.stdout.strip().splitlines()  # MuPDF prints its complaints to stdout: the verdict is last
        if result.returncode != 0 or not lines or lines[-1] not in ("ok", "failed"):
            counts["crashes without isolation"] += 1
    return counts


def run(seed: int = 7, variants: int = 1, file_timeout_s: float = 10.0, kinds: list[str] | None = None,
        work: Path | None = None, do_probe: bool = False, isolate: bool = True, log=print) -> Section:
    section = Section("fuzzed PDFs")
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="stress-fuzz-", dir=work) as tmp:
        root = Path(tmp)
        files = generate(root / "fuzz", seed=seed, kinds=kinds, variants=variants)
        section.counts["generated in s"] = round(time.perf_counter() - began, 1)
        library = open_library(root / "library", file_timeout_s=file_timeout_s, isolate_extraction=isolate)
        try:
            baseline = library.ingest(write_baseline(root / "baseline"))
            if baseline.added != 3:
                section.fail(f"the baseline did not ingest: {baseline}")
                return section
            retriever = Retriever(library, retrieval_settings())
            base_ids = [d.id for d in library.documents()]
            before = snapshot(library, retriever, base_ids)
            if not before.search or not before.consistent:
                section.fail("the baseline library is not searchable or not consistent")
                return section
            hang_limit = file_timeout_s + 30.0
            for item in files:
                section.add("files tried")
                started = time.perf_counter()
                state, finished, error = ingest_with_deadline(library, item.path, hang_limit)
                spent = time.perf_counter() - started
                if state == "hang":
                    section.add("hangs")
                    section.fail(f"{item.path.name} ({item.kind}): ingest did not return within {hang_limit:.0f} s")
                    break  # the library is still locked by the stuck call: nothing more can be checked
                if error is not None:
                    section.add("crashes")
                    section.fail(f"{item.path.name} ({item.kind}): ingest raised {type(error).__name__}: {error}")
                    continue
                outcome = finished[-1] if finished else None
                added = outcome is not None and outcome.outcome in (FileOutcome.added, FileOutcome.updated)
                section.add("added" if added else "rejected")
                if outcome is not None and "gave up after" in outcome.reason:
                    section.add("stopped at the time limit")
                if item.expect == "fail" and added:
                    section.fail(f"{item.path.name} ({item.kind}, {item.note}): was added but should have failed")
                if item.expect == "ok" and not added:
                    section.fail(f"{item.path.name} ({item.kind}, {item.note}): rejected: "
                                 f"{outcome.reason if outcome else 'no outcome'}")
                if outcome is not None and not added and (not outcome.reason.strip() or "Traceback" in outcome.reason):
                    section.fail(f"{item.path.name}: the failure has no clear reason ({outcome.reason!r})")
                after = snapshot(library, retriever, base_ids)
                intact = after == before
                if added:
                    intact = intact and library.check_consistency()["consistent"]
                    leaked = [t for t in item.absent for c in library.doc_chunks(outcome.doc_id) if t in c.text]
                    if leaked:
                        section.fail(f"{item.path.name}: text that is not page content was ingested: {leaked}")
                    library.remove(outcome.doc_id)
                    intact = intact and snapshot(library, retriever, base_ids) == before
                if intact:
                    section.add("library intact")
                else:
                    section.fail(f"{item.path.name} ({item.kind}): the library changed: {before} -> {after}")
                log(f"  {item.kind:<18} {item.path.name:<32} {'added' if added else 'rejected':<8} {spent:5.1f} s"
                    f"  {'' if added or outcome is None else outcome.reason[:70]}")
            section.counts.setdefault("files tried", 0)
            section.counts.setdefault("hangs", 0)
            section.counts.setdefault("crashes", 0)
            if not section.counts["files tried"]:
                section.fail("no fuzzed file was tried: the check proves nothing")
            extractor = getattr(library, "_extractor", None)
            if extractor is not None:
                section.counts["extractor children killed"] = extractor.killed
            section.counts["documents after"] = len(library.documents())
        finally:
            if not section.counts.get("hangs"):  # a stuck call still holds the library's locks: leave it be
                library.close()
        if do_probe:
            section.counts.update(probe(files, file_timeout_s))
    section.seconds = time.perf_counter() - began
    return section
