"""`courtroom ingest PATH...`"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Literal

from courtroom_desktop.cli import words

if TYPE_CHECKING:
    from collections.abc import Callable

    from courtroom_desktop.cli import Context
    from courtroom_desktop.core.records import IngestEvent, IngestFinished
    from courtroom_desktop.core.services.library import CancelToken, RayEngine


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "ingest", help="add PDFs, Markdown, text and Word files (files or folders, recursive) to the library",
        description="Add documents to the library: files, or folders searched recursively for PDF, Markdown (.md, "
        ".markdown), text (.txt) and Word (.docx) files (README, LICENSE and hidden files skipped). Unchanged files "
        "are skipped, changed ones re-ingested; a file that cannot be read is reported with the reason and the "
        "rest of the batch goes on. Ctrl+C cancels cleanly (nothing half-written stays).",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    parser.add_argument("--force", action="store_true", help="re-ingest even files whose content is unchanged")
    parser.add_argument("--quiet", action="store_true", help="no progress bars; print only the summary")
    parser.add_argument("--private", action=argparse.BooleanOptionalAction, default=None,
                        help="mark the documents private (never sent to a model server on another machine), or not "
                        "(--no-private); by default a file keeps its earlier flag")
    parser.add_argument("--engine", choices=("local", "ray"), default=None,
                        help="who reads, OCRs, chunks and embeds the files: this process (local) or Ray actors, one "
                        "per CPU, each holding the embedding model (ray; needs the [scale] extra); default: the "
                        "setting library.ingest_engine (local unless set). Either way this process stores them, "
                        "under the commit lock when the library is shared (docs/scale.md)")
    parser.add_argument("--address", metavar="ADDR", default=None,
                        help="with --engine ray: the Ray cluster to use ('auto', host:6379, ray://host:10001); none "
                        "starts a local Ray instance on this machine's CPUs")
    parser.add_argument("--workers", type=int, default=None, metavar="N",
                        help="with --engine ray: how many actors (default: the cluster's CPUs)")
    return parser


def run(args: argparse.Namespace, ctx: Context) -> int:
    engine: RayEngine | Literal["settings", "local"] = args.engine or "settings"
    if args.engine == "ray":
        from courtroom_desktop.core.services.library import RayEngine

        engine = RayEngine(address=args.address, workers=args.workers)
    elif args.address or args.workers:
        print("courtroom ingest: --address and --workers go with --engine ray", file=sys.stderr)
        return 2
    workspace = ctx.workspace()
    try:
        finished = run_ingest(lambda emit, cancel: workspace.library.ingest(args.paths, on_event=emit, cancel=cancel,
                                                                    force=args.force, private=args.private,
                                                                    engine=engine),
                              quiet=args.quiet)
    finally:
        workspace.close()
        if engine is not None:
            from courtroom_desktop.core.services.library import shutdown

            shutdown()
    return 1 if finished.failed or finished.cancelled else 0


def run_ingest(job: Callable[[Callable[[IngestEvent], None], CancelToken], IngestFinished],
               quiet: bool = False) -> IngestFinished:
    """Run an ingest-like job with rich progress bars (one per file, one overall); Ctrl+C cancels."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

    from courtroom_desktop.core.records import FileFinished, FileOutcome, FileProgress, FileStarted, IngestStarted
    from courtroom_desktop.core.services.library import CancelToken

    console = Console(stderr=True)
    cancel = CancelToken()
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[unit]}"),
                        TimeElapsedColumn(), console=console, disable=quiet or not sys.stderr.isatty(), transient=True)
    tasks: dict[str, TaskID] = {}
    overall: TaskID | None = None
    styles = {FileOutcome.added: "green", FileOutcome.updated: "cyan", FileOutcome.skipped: "dim",
              FileOutcome.failed: "red", FileOutcome.cancelled: "yellow"}

    def emit(event: IngestEvent) -> None:
        nonlocal overall
        if isinstance(event, IngestStarted):
            overall = progress.add_task("all files", total=event.files, unit="files")
        elif isinstance(event, FileStarted):
            tasks[event.path] = progress.add_task(_short(event.path), total=None, unit="")
        elif isinstance(event, FileProgress) and event.path in tasks:
            # a bar while the file is read or embedded: files wait between the two (small files are stored in
            # batches, so dozens may be waiting), and between embedding and their batch's commit
            progress.update(tasks[event.path], visible=event.stage.value in ("extract", "ocr") or (
                event.stage.value == "embed" and event.chunks_done < event.chunks))
            if event.stage.value == "extract":
                progress.update(tasks[event.path], completed=event.pages_done, total=event.pages, unit="pages")
            elif event.stage.value == "ocr":  # scanned pages, one at a time: the slow part of a scan
                progress.update(tasks[event.path], completed=event.pages_done, total=event.pages or None,
                                unit="pages (ocr)")
            else:
                progress.update(tasks[event.path], completed=event.chunks_done, total=event.chunks or None,
                                unit=f"chunks ({event.stage.value})")
        elif isinstance(event, FileFinished):
            if event.path in tasks:
                progress.remove_task(tasks.pop(event.path))
            if overall is not None:
                progress.advance(overall)
            pages = f"{event.pages} pages, " if event.pages else ""  # a text document has none
            detail = f"{pages}{event.chunks} chunks" if event.chunks else words.say(event.reason)
            console.print(f"[{styles[event.outcome]}]{event.outcome.value:>9}[/] {event.path}: {detail}",
                          highlight=False, markup=True, soft_wrap=True)
            if event.note:
                console.print(f"[yellow]{words.word('note'):>9}[/] {words.say(event.note)}", highlight=False,
                              soft_wrap=True)

    with progress:
        try:
            finished = job(emit, cancel)
        except KeyboardInterrupt:
            cancel.cancel()
            raise
    console.print(
        f"{finished.added} added, {finished.updated} updated, {finished.skipped} skipped, {finished.failed} failed"
        f"{' (cancelled)' if finished.cancelled else ''}; {finished.pages} pages, {finished.chunks} chunks "
        f"in {finished.seconds:.1f} s", highlight=False, soft_wrap=True,
    )
    return finished


def _short(path: str, width: int = 40) -> str:
    return path if len(path) <= width else "…" + path[-(width - 1):]
