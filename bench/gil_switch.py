"""How much does Python's GIL switch interval delay the window's event loop when worker threads are busy? And what
does an application-wide event filter written in Python cost the GUI thread meanwhile?

    python bench/gil_switch.py [--seconds 8] [--intervals 0.005 0.001 0.0005 0.0002] [--repeats 2] [--updates 300]

For each interval, a fresh process opens a Qt window on the qasync loop (offscreen), starts the kind of load an
ingest or a trial puts on the other threads (two threads running Python bytecode, one calling numpy that releases the
lock between calls), and records how late 10 ms sleeps on the loop wake up. Python's default interval (5 ms) is the
baseline measured in the same run; the app sets ``courtroom_desktop.ui.app.GIL_SWITCH_INTERVAL_S``.

Then, at the app's interval, with one thread running Python: (and each smaller one) --updates updates of cards like the transcript's (rich
text labels in a scroll area, laid out and painted each time), timed on the GUI thread, with no event filter
(baseline) and with a do-nothing Python event filter installed on the application, which Qt calls for every event of
every object, each call taking the GIL.
"""

from __future__ import annotations

import argparse
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
import qasync
from PySide6.QtWidgets import QApplication, QLabel

interval, seconds = float(sys.argv[1]), float(sys.argv[2])
sys.setswitchinterval(interval)
app = QApplication([])
loop = qasync.QEventLoop(app)
asyncio.set_event_loop(loop)
label = QLabel("load")
label.show()
stop = threading.Event()


done = [0]


def python_work():
    x = 0
    while not stop.is_set():
        for i in range(10000):
            x += i * i
        done[0] += 1


def numpy_work():
    a = np.random.default_rng(0).random((300, 300))
    while not stop.is_set():
        a @ a


lags = []


async def main():
    threads = [threading.Thread(target=python_work), threading.Thread(target=python_work),
               threading.Thread(target=numpy_work)]
    for t in threads:
        t.start()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        began = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append((time.perf_counter() - began - 0.01) * 1000)
    stop.set()
    for t in threads:
        t.join()


with loop:
    loop.run_until_complete(main())
lags.sort()
print(json.dumps({"ticks": len(lags), "worst_ms": lags[-1], "p99_ms": lags[int(0.99 * (len(lags) - 1))],
                  "median_ms": lags[len(lags) // 2], "work_per_s": done[0] / seconds}))
"""


FILTER_CHILD = r"""
import json, os, sys, threading, time
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea, QVBoxLayout, QWidget

with_filter, updates, interval = sys.argv[1] == "1", int(sys.argv[2]), float(sys.argv[3])
sys.setswitchinterval(interval)
app = QApplication([])


class Filter(QObject):
    def eventFilter(self, watched, event):
        return False


if with_filter:
    keep = Filter(app)
    app.installEventFilter(keep)
area, column = QScrollArea(), QWidget()
layout = QVBoxLayout(column)
labels = []
for i in range(30):
    label = QLabel()
    label.setWordWrap(True)
    label.setText(f"<b>Counsel {i}</b> " + "the randomised trial <a href='cite:E1'>[E1]</a> shows it " * 12)
    layout.addWidget(label)
    labels.append(label)
area.setWidget(column)
area.setWidgetResizable(True)
area.resize(700, 900)
area.show()
app.processEvents()
stop = threading.Event()


def python_work():
    x = 0
    while not stop.is_set():
        for i in range(1000):
            x += i


worker = threading.Thread(target=python_work)
worker.start()
times = []
for n in range(updates):
    began = time.perf_counter()
    labels[n % 30].setText(f"<b>Counsel {n}</b> " + "a longer argument citing <a href='cite:E2'>[E2]</a> " * (8 + n % 9))
    app.processEvents()
    times.append((time.perf_counter() - began) * 1000)
stop.set()
worker.join()
times.sort()
print(json.dumps({"total_ms": sum(times), "worst_ms": times[-1], "median_ms": times[len(times) // 2]}))
"""


def run_filter(with_filter: bool, updates: int, interval: float) -> dict:
    return run_child(FILTER_CHILD, "1" if with_filter else "0", updates, interval, timeout=600)


def run(interval: float, seconds: float) -> dict:
    return run_child(CHILD, interval, seconds, timeout=seconds + 120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds of load per run")
    parser.add_argument("--intervals", type=float, nargs="+", default=[0.005, 0.001, 0.0005, 0.0002],
                        help="switch intervals to try (the first is the baseline)")
    parser.add_argument("--repeats", type=int, default=2, help="runs per interval (interleaved)")
    parser.add_argument("--updates", type=int, default=300, help="card updates per event-filter run (0: skip)")
    args = parser.parse_args()

    results: dict[float, list[dict]] = {i: [] for i in args.intervals}
    for _ in range(args.repeats):
        for interval in args.intervals:
            results[interval].append(run(interval, args.seconds))
    base = args.intervals[0]
    base_median = sorted(r["median_ms"] for r in results[base])[len(results[base]) // 2]
    print(f"event-loop lag with 3 busy worker threads, {args.repeats} x {args.seconds:.0f} s per interval "
          f"(10 ms ticks; worst and median over the runs)")
    base_work = statistics.median(r["work_per_s"] for r in results[base])
    print("  interval    ticks   worst ms   p99 ms   median ms   median vs baseline   workers' Python work vs baseline")
    for interval, runs in results.items():
        worst = max(r["worst_ms"] for r in runs)
        p99 = max(r["p99_ms"] for r in runs)
        median = sorted(r["median_ms"] for r in runs)[len(runs) // 2]
        ticks = sum(r["ticks"] for r in runs)
        print(f"  {interval * 1000:5.1f} ms {ticks:8d} {worst:10.1f} {p99:8.1f} {median:11.2f} "
              f"{median / base_median if base_median else float('nan'):17.2f}x"
              f"{statistics.median(r['work_per_s'] for r in runs) / base_work:27.2f}x"
              f"{'   (baseline: Python default)' if interval == base else ''}")
    if args.updates:
        from courtroom_desktop.ui.app import GIL_SWITCH_INTERVAL_S

        cases = [(interval, False) for interval in args.intervals] + [(GIL_SWITCH_INTERVAL_S, True)]
        runs: dict[tuple[float, bool], list[dict]] = {case: [] for case in cases}
        for _ in range(args.repeats):
            for case in cases:
                runs[case].append(run_filter(case[1], args.updates, case[0]))
        base_total = statistics.median(r["total_ms"] for r in runs[(base, False)])
        print(f"{args.updates} card updates on the GUI thread (set the text, lay out, paint), one busy worker thread "
              f"(median of {args.repeats} runs; the app uses {GIL_SWITCH_INTERVAL_S * 1000:g} ms)")
        print("  interval   application event filter   total ms   median ms   worst ms   total vs baseline")
        for interval, with_filter in cases:
            got = runs[(interval, with_filter)]
            total = statistics.median(r["total_ms"] for r in got)
            label = "a do-nothing Python one" if with_filter else "none"
            print(f"  {interval * 1000:5.1f} ms   {label:<24} {total:9.0f} {statistics.median(r['median_ms'] for r in got):11.2f}"
                  f" {max(r['worst_ms'] for r in got):10.1f} {total / base_total:18.2f}x"
                  f"{'   (baseline)' if (interval, with_filter) == (base, False) else ''}")

if __name__ == "__main__":
    main()
