"""Does running the worker threads below the GUI thread's priority keep the event loop on time when they keep every
core busy? And what does it cost the workers?

    python bench/worker_priority.py [--seconds 8] [--nices 0 5 10] [--repeats 2]

For each nice increment, a fresh process opens a Qt window on the app's event loop (offscreen) and starts as many
worker threads as there are cores, each multiplying large matrices in numpy (long native calls that hold no
interpreter lock, as llama.cpp decoding a token and torch encoding a batch are), after lowering its own priority with
the app's ``lower_thread_priority``. The loop sleeps 10 ms at a time and records how late it wakes up; every fifth
tick it also rewrites a card of a transcript-like text document (a burst of GUI work, as a streamed argument is). An
increment of 0 is the baseline measured in the same run; the app uses ``courtroom_desktop.ui.tasks.WORKER_NICE``.
Linux only (elsewhere the priority does not change).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from child import run_child  # noqa: E402 - bench/ is the script's own folder

CHILD = r"""
import asyncio, json, os, sys, threading, time
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
import numpy as np
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QTextBrowser
from courtroom_desktop.ui.app import make_application
from courtroom_desktop.ui.tasks import lower_thread_priority, make_event_loop

nice, seconds = int(sys.argv[1]), float(sys.argv[2])
app = make_application()
loop = make_event_loop(app)
view = QTextBrowser()
view.resize(700, 900)
view.show()
for i in range(30):
    view.append(f"<p><b>Counsel {i}</b> " + "the randomised trial <a href='cite:E1'>[E1]</a> shows it " * 20 + "</p>")
stop = threading.Event()
done = []


def work():
    lower_thread_priority(nice)
    a = np.random.default_rng(0).random((1500, 1500))
    n = 0
    while not stop.is_set():
        a @ a
        n += 1
    done.append(n)


lags = []


async def main():
    threads = [threading.Thread(target=work) for _ in range(os.cpu_count() or 2)]
    for t in threads:
        t.start()
    end = time.perf_counter() + seconds
    tick = 0
    while time.perf_counter() < end:
        began = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append((time.perf_counter() - began - 0.01) * 1000)
        tick += 1
        if tick % 5 == 0:
            cursor = QTextCursor(view.document())
            cursor.movePosition(QTextCursor.MoveOperation.End)
            cursor.movePosition(QTextCursor.MoveOperation.StartOfBlock, QTextCursor.MoveMode.KeepAnchor)
            cursor.insertHtml(f"<b>Counsel {tick}</b> " + "a longer argument citing <a href='cite:E2'>[E2]</a> " * (20 + tick % 30))
    stop.set()
    for t in threads:
        t.join()


with loop:
    loop.run_until_complete(main())
lags.sort()
print(json.dumps({"ticks": len(lags), "worst_ms": lags[-1], "p99_ms": lags[int(0.99 * (len(lags) - 1))],
                  "median_ms": lags[len(lags) // 2], "work_per_s": sum(done) / seconds}))
"""


def run(nice: int, seconds: float) -> dict:
    # one BLAS thread per worker: the workers are the load, one per core
    return run_child(CHILD, nice, seconds, timeout=seconds + 120, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
                     MKL_NUM_THREADS="1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds of load per run")
    parser.add_argument("--nices", type=int, nargs="+", default=[0, 5, 10],
                        help="nice increments of the workers to try (the first is the baseline)")
    parser.add_argument("--repeats", type=int, default=2, help="runs per increment (interleaved)")
    args = parser.parse_args()
    if not sys.platform.startswith("linux"):
        raise SystemExit("per-thread priorities are measured on Linux only")

    from courtroom_desktop.ui.tasks import WORKER_NICE

    results: dict[int, list[dict]] = {n: [] for n in args.nices}
    for _ in range(args.repeats):
        for nice in args.nices:
            results[nice].append(run(nice, args.seconds))
    base = args.nices[0]
    base_p99 = statistics.median(r["p99_ms"] for r in results[base])
    base_work = statistics.median(r["work_per_s"] for r in results[base])
    print(f"event-loop lag with {os.cpu_count()} busy native worker threads (one per core), {args.repeats} x "
          f"{args.seconds:.0f} s per increment (10 ms ticks, a card rewritten every fifth; worst over the runs, "
          f"p99 and median: median of the runs; the app uses nice +{WORKER_NICE})")
    print("  workers' nice   ticks   worst ms   p99 ms   median ms   p99 vs baseline   workers' work vs baseline")
    for nice, runs in results.items():
        p99 = statistics.median(r["p99_ms"] for r in runs)
        print(f"  +{nice:<13d} {sum(r['ticks'] for r in runs):6d} {max(r['worst_ms'] for r in runs):10.1f} "
              f"{p99:8.1f} {statistics.median(r['median_ms'] for r in runs):11.2f} "
              f"{p99 / base_p99 if base_p99 else float('nan'):16.2f}x"
              f"{statistics.median(r['work_per_s'] for r in runs) / base_work:27.2f}x"
              f"{'   (baseline: same priority as the window)' if nice == base else ''}")


if __name__ == "__main__":
    main()
