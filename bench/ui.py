"""Window benchmark: does anything block the event loop? And how soon does the window appear?

    python bench/ui.py [--pages 300] [--rounds 2] [--launches 3] [--json bench/out/ui.json]

1. Launch: `python -m courtroom_desktop` (offscreen unless a display is set) with COURTROOM_UI_SMOKE=1, which prints
   the seconds from process start to the window shown and which heavy modules were imported by then; median of
   --launches runs. Target: at most 2 s, no torch / lancedb / llama.cpp.
2. Event-loop lag: the real window over a fresh data folder, driven as a user would: it opens, "Try the sample
   library" is clicked at once (the time until a trial runs is the first-run figure; that trial is then stopped) while
   the models preload (phase "preload"), then it ingests a generated --pages-page PDF plus the sample library through the library
   panel (phase "ingest"), then runs a trial with the bundled SmolLM2 on a suggested claim, exactly --rounds rounds
   (phase "trial"). A coroutine sleeps 10 ms at a time on the qasync loop and records how late it wakes up.
   Target: worst lag at most 50 ms in every phase, from the first frame on (model loading included).
   Every tick more than 30 ms late is then explained: the GUI thread's time on a CPU, waiting for one, and neither
   (Linux schedstat), and which loop callbacks (a task's step by its coroutine) and garbage collections ran in it.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import faulthandler
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

TICK_S = 0.010
TRACE_AFTER_S = 0.030


def launch_times(runs: int) -> list[dict]:
    out = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, COURTROOM_UI_SMOKE="1", HOME=tmp, XDG_CONFIG_HOME=f"{tmp}/xdg",
                       COURTROOM_CONFIG_DIR=f"{tmp}/config", COURTROOM_DATA_DIR=f"{tmp}/data")
            done = subprocess.run([sys.executable, "-m", "courtroom_desktop"], cwd=ROOT, env=env, capture_output=True,
                                  text=True, timeout=120)
            line = next((x for x in done.stdout.splitlines() if x.startswith("{")), None)
            if done.returncode != 0 or line is None:
                raise SystemExit(f"the window did not start: {done.stderr[-2000:]}")
            out.append(json.loads(line))
    return out


CONTROL = r"""
import json, os, sys, threading, time
phase, samples = "start", {}
def read():
    global phase
    for line in sys.stdin:
        if line.strip() == "stop":
            break
        phase = line.strip()
    summary = {}
    for name, lags in samples.items():
        lags.sort()
        summary[name] = {"samples": len(lags), "worst_ms": round(lags[-1], 1),
                         "p99_ms": round(lags[min(len(lags) - 1, int(round(0.99 * (len(lags) - 1))))], 1),
                         "over_50ms": sum(1 for x in lags if x > 50)}
    try:
        print(json.dumps(summary), flush=True)
    finally:  # the bench died (stdin closed, stdout gone): exit all the same instead of sampling forever
        os._exit(0)
threading.Thread(target=read, daemon=True).start()
while True:
    began = time.perf_counter()
    time.sleep(0.01)
    samples.setdefault(phase, []).append(max(0.0, time.perf_counter() - began - 0.01) * 1000)
"""


class Control:
    """An idle process that only sleeps 10 ms at a time, measured over the same phases: how late the machine itself
    wakes a thread up (other processes, our own worker threads), to tell the window's lag from the machine's."""

    def __init__(self):
        self.process = subprocess.Popen([sys.executable, "-c", CONTROL], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)

    def phase(self, name: str) -> None:
        self.process.stdin.write(name + "\n")
        self.process.stdin.flush()

    def finish(self) -> dict:
        try:
            out, _ = self.process.communicate("stop\n", timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return {}
        return json.loads(out.strip().splitlines()[-1]) if out.strip() else {}


def thread_schedstat() -> tuple[float, float] | None:
    """The calling thread's time on a CPU and waiting in a run queue for one, in ms (Linux), else None."""
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as fh:
            on_cpu, waiting, _ = fh.read().split()
    except (OSError, ValueError):
        return None
    return int(on_cpu) / 1e6, int(waiting) / 1e6


class LoopLog:
    """What ran on the GUI thread: every asyncio callback of at least 2 ms (a task's step is named by its coroutine)
    and every garbage collection, kept for the last few seconds, so a late tick can be explained."""

    MIN_S = 0.002

    def __init__(self):
        self.calls: collections.deque = collections.deque(maxlen=500)  # (began, ended, name)
        self._thread = threading.get_ident()
        self._gc_began = 0.0
        original = self._original = asyncio.events.Handle._run
        log = self

        def timed(handle):
            began = time.perf_counter()
            try:
                return original(handle)
            finally:
                ended = time.perf_counter()
                if ended - began >= log.MIN_S:
                    log.calls.append((began, ended, log.name(handle)))

        asyncio.events.Handle._run = timed
        gc.callbacks.append(self._gc)

    @staticmethod
    def name(handle) -> str:
        callback = getattr(handle, "_callback", None)
        task = getattr(callback, "__self__", None)
        if isinstance(task, asyncio.Task):
            name = getattr(task.get_coro(), "__qualname__", task.get_name())
            stack = task.get_stack()  # where the step stopped: the innermost await it now waits in
            if stack:
                name += f" (now at {Path(stack[-1].f_code.co_filename).name}:{stack[-1].f_lineno})"
            return f"task {name}"
        return getattr(callback, "__qualname__", repr(callback))[:60]

    def _gc(self, phase: str, info: dict) -> None:
        if threading.get_ident() != self._thread:
            return
        if phase == "start":
            self._gc_began = time.perf_counter()
        elif self._gc_began:
            ended = time.perf_counter()
            if ended - self._gc_began >= self.MIN_S:
                self.calls.append((self._gc_began, ended, f"gc generation {info.get('generation')}"))

    def mark(self, what: str) -> None:
        """Something that happened on the loop (a trial event), listed with the callbacks of a late tick."""
        now = time.perf_counter()
        self.calls.append((now, now, what))

    def during(self, began: float, ended: float) -> list[tuple[str, float]]:
        return [(name, round((min(e, ended) - max(b, began)) * 1000, 1)) for b, e, name in self.calls
                if e >= began and b <= ended]

    def close(self) -> None:
        asyncio.events.Handle._run = self._original
        if self._gc in gc.callbacks:
            gc.callbacks.remove(self._gc)


class LagMonitor:
    """Sleeps TICK_S at a time; each wake-up later than asked is lag, booked to the current phase.

    For every tick more than TRACE_AFTER_S late it also books where the GUI thread's time went meanwhile (Linux's
    schedstat): on a CPU (work on the loop), waiting in the run queue for a CPU (other threads or processes had the
    cores), or neither (waiting for the interpreter lock, or for I/O)."""

    def __init__(self, trace_file=None, loop_log: LoopLog | None = None):
        self.loop_log = loop_log
        self.phase = "start"
        self.samples: dict[str, list[float]] = {}
        self._task = None
        self._trace = trace_file  # where every thread's stack goes when a tick is more than TRACE_AFTER_S late
        self.stalls: list[tuple[str, float]] = []
        self.late: list[dict] = []  # ticks more than TRACE_AFTER_S late: phase, lag and the GUI thread's time split
        self._started = 0.0

    def start(self) -> None:
        self._started = time.perf_counter()
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while True:
            began, stat = time.perf_counter(), thread_schedstat()
            if self._trace is not None:
                faulthandler.dump_traceback_later(TICK_S + TRACE_AFTER_S, file=self._trace)
            await asyncio.sleep(TICK_S)
            lag = max(0.0, time.perf_counter() - began - TICK_S) * 1000
            late = lag > TRACE_AFTER_S * 1000
            if late and stat is not None:
                now = thread_schedstat()
                on_cpu, waiting = now[0] - stat[0], now[1] - stat[1]
                self.late.append({"phase": self.phase, "at_s": round(began - self._started, 2),
                                  "lag_ms": round(lag, 1), "on_cpu_ms": round(on_cpu, 1),
                                  "runqueue_ms": round(waiting, 1),
                                  "off_cpu_ms": round(max(0.0, lag + TICK_S * 1000 - on_cpu - waiting), 1),
                                  "ran": self.loop_log.during(began, time.perf_counter()) if self.loop_log else []})
            if self._trace is not None:
                faulthandler.cancel_dump_traceback_later()
                if late:
                    self.stalls.append((self.phase, round(lag, 1)))
                    self._trace.write(f"=== stall {len(self.stalls)}: {lag:.1f} ms in phase {self.phase}\n")
                    self._trace.flush()
            self.samples.setdefault(self.phase, []).append(lag)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def summary(self, phases) -> dict:
        lags = sorted(x for p in phases for x in self.samples.get(p, []))
        if not lags:
            return {"samples": 0}
        p99 = lags[min(len(lags) - 1, int(round(0.99 * (len(lags) - 1))))]
        return {"samples": len(lags), "worst_ms": round(lags[-1], 1), "p99_ms": round(p99, 1),
                "median_ms": round(statistics.median(lags), 2), "over_50ms": sum(1 for x in lags if x > 50)}


async def until(predicate, timeout: float, what: str):
    from courtroom_desktop.ui.tasks import wait_until

    return await wait_until(predicate, timeout, what, poll_s=0.05)


def lag_run(pages: int, rounds: int, trace: str | None = None, preload_only: bool = False) -> dict:
    from ingest import generated_pdf
    from PySide6.QtCore import QSettings

    from courtroom_desktop.core.config import AppConfig, DebateSettings, save_config
    from courtroom_desktop.ui.app import create_window, make_application, use_embedding_child
    from courtroom_desktop.ui.samples import SAMPLES_DIR, sample_files, suggested_claims
    from courtroom_desktop.ui.tasks import make_event_loop

    pdf = generated_pdf(pages, ROOT / "bench" / "out")
    app = make_application()
    use_embedding_child()  # as run_app does
    app.setQuitOnLastWindowClosed(False)  # the scenario closes the window, then awaits its shutdown
    loop = make_event_loop(app)
    trace_file = open(trace, "w", encoding="utf-8") if trace else None  # noqa: SIM115 - open for the whole run
    loop_log = LoopLog()
    monitor = LagMonitor(trace_file, loop_log)
    control = Control()
    result: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        save_config(AppConfig(debate=DebateSettings(min_rounds=rounds, max_rounds=rounds)), tmp / "config")
        settings = QSettings(str(tmp / "ui.ini"), QSettings.Format.IniFormat)
        window = create_window(tmp / "config", tmp / "data", settings)
        window.trial.sig_event.connect(lambda event: event.kind == "token" or loop_log.mark(f"event {event.kind}"))

        async def scenario():
            monitor.start()
            monitor.phase = "preload"
            control.phase("preload")
            window.show()
            began = time.perf_counter()
            window.start_background()
            # a new user: "Try the sample library" at once; the models load meanwhile
            window.try_samples()
            await until(lambda: window.trial.state == "running", 600, "the first trial to start")
            result["first_trial_running_s"] = round(time.perf_counter() - began, 1)
            await until(lambda: any(i.kind == "turn" and i.text for i in window.transcript_model.items()), 600,
                        "the first argument")
            result["first_argument_s"] = round(time.perf_counter() - began, 1)
            window.trial.stop()
            await until(lambda: not window.trial.running and window.workspace.models_ready, 600, "the preload")
            result["preload_s"] = round(time.perf_counter() - began, 1)
            print(f"first run: trial running {result['first_trial_running_s']} s after the window showed, first "
                  f"argument at {result['first_argument_s']} s; {monitor.summary(['preload'])}", flush=True)
            if preload_only:
                monitor.phase = "done"
                control.phase("done")
                monitor.stop()
                window.close()
                await window.shutdown()
                return

            monitor.phase = "ingest"
            control.phase("ingest")
            began = time.perf_counter()
            window.library.ingest([pdf, *sample_files(SAMPLES_DIR)])
            await until(lambda: window.library.busy, 30, "the ingest to start")
            await until(lambda: not window.library.busy, 1800, "the ingest")
            result["ingest_s"] = round(time.perf_counter() - began, 1)
            finished = window.library.last_result
            result["ingested_pages"] = finished.pages if finished else 0
            print(f"ingest {result['ingest_s']} s: {monitor.summary(['ingest'])}", flush=True)

            monitor.phase = "trial"
            control.phase("trial")
            began = time.perf_counter()
            window.courtroom.set_claim(suggested_claims()[0].claim)
            window.courtroom.start()
            await until(lambda: window.trial.state == "running", 120, "the trial to start")
            await until(lambda: window.trial.state in ("finished", "paused", "stopped"), 1800, "the verdict")
            result["trial_s"] = round(time.perf_counter() - began, 1)
            result["trial_state"] = window.trial.state
            notices = [i for i in window.transcript_model.items() if i.kind == "notice"]
            result["trial_notices"] = [getattr(i, "text", "") or str(i) for i in notices][-3:]
            result["turns"] = sum(1 for i in window.transcript_model.items() if i.kind == "turn")
            print(f"trial {result['trial_s']} s: {monitor.summary(['trial'])}", flush=True)
            monitor.phase = "done"
            control.phase("done")
            monitor.stop()
            window.close()
            await window.shutdown()

        with loop:
            loop.run_until_complete(scenario())
    result["preload"] = monitor.summary(["preload"])
    result["ingest"] = monitor.summary(["ingest"])
    result["trial"] = monitor.summary(["trial"])  # empty with preload_only
    result["ingest_and_trial"] = monitor.summary(["ingest", "trial"])
    result["control"] = control.finish()
    loop_log.close()
    result["late_ticks"] = monitor.late
    if trace_file is not None:
        trace_file.close()
        result["stalls"] = monitor.stalls
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=300, help="pages of the generated PDF to ingest")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the trial (the verdict comes after exactly this many)")
    parser.add_argument("--launches", type=int, default=3, help="window launches to time")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--skip-lag", action="store_true", help="only time the launch")
    parser.add_argument("--preload-only", action="store_true",
                        help="stop after the preload phase (the window opened, the sample trial started, the models "
                             "loaded): no ingest or trial phase")
    parser.add_argument("--trace-stalls", metavar="FILE", help="write every thread's stack into FILE whenever the loop is "
                        f"more than {TRACE_AFTER_S * 1000:.0f} ms late, to find what blocks it (faulthandler reads the "
                        "other threads' frames without the GIL: for diagnosis only, it can crash the run)")
    args = parser.parse_args()
    failed = False

    launches = launch_times(args.launches)
    shown = sorted(x["shown_s"] for x in launches)
    figures: dict = {"launch_shown_s": shown, "launch_median_s": statistics.median(shown),
                     "heavy_modules_at_show": sorted({m for x in launches for m in x["heavy_modules"]})}
    print(f"window shown after launch: median {figures['launch_median_s']:.2f} s (runs: "
          f"{', '.join(f'{s:.2f}' for s in shown)}; target <= 2 s); heavy modules imported by then: "
          f"{figures['heavy_modules_at_show'] or 'none'}")
    if not args.skip_lag:
        lag = lag_run(args.pages, args.rounds, args.trace_stalls, args.preload_only)
        figures.update(lag)
        print(f"first run: a trial running {lag['first_trial_running_s']} s after the window showed (\"Try the sample "
              f"library\" clicked at once), its first argument at {lag['first_argument_s']} s")
        if args.preload_only:
            print(f"preload (models loading in threads): {lag['preload_s']} s")
        else:
            print(f"preload (models loading in threads): {lag['preload_s']} s; ingest of {lag['ingested_pages']} "
                  f"pages: {lag['ingest_s']} s; trial ({lag['turns']} turns, {lag['trial_state']}): {lag['trial_s']} s")
        print("event-loop lag (10 ms ticks)        samples   worst    p99   median  >50ms")
        for phase in ("preload", "ingest", "trial", "ingest_and_trial"):
            s = lag[phase]
            if s.get("samples"):
                print(f"  {phase:<33} {s['samples']:7d} {s['worst_ms']:7.1f} {s['p99_ms']:6.1f} {s['median_ms']:8.2f}"
                      f" {s['over_50ms']:6d}")
        for phase in ("preload", "ingest", "trial"):
            s = lag["control"].get(phase)
            if s:
                print(f"  control: an idle process, {phase:<14} {s['samples']:7d} {s['worst_ms']:7.1f} {s['p99_ms']:6.1f}"
                      f" {'':8} {s['over_50ms']:6d}")
        late = [x for x in lag["late_ticks"] if x["phase"] in ("preload", "ingest", "trial")]
        if late:
            print(f"ticks more than {TRACE_AFTER_S * 1000:.0f} ms late, and where the GUI "
                  "thread's time went (ms): on a CPU / waiting for a CPU / neither (interpreter lock, I/O)")
            for x in late:
                ran = ", ".join(f"{name} {ms:g}" if ms else name for name, ms in x["ran"])
                ran = ran or "no callback of 2 ms or more"
                print(f"  {x['phase']:<7} at {x['at_s']:6.2f} s {x['lag_ms']:6.1f} late: {x['on_cpu_ms']:6.1f} / {x['runqueue_ms']:6.1f} /"
                      f" {x['off_cpu_ms']:6.1f}; loop callbacks (ms): {ran}")
        worst = max(lag[phase].get("worst_ms", 0) for phase in ("preload", "ingest", "trial"))
        print(f"worst lag from the first frame on, model loading included: {worst} ms (target <= 50 ms): "
              f"{'OK' if worst <= 50 else 'OVER'}")
        if not args.preload_only and lag["trial_state"] != "finished":  # a paused or stopped trial is a failed run, not a short one
            print(f"FAILED: the trial ended {lag['trial_state']}, without a verdict: "
                  f"{'; '.join(lag['trial_notices']) or 'no notice'}", file=sys.stderr)
            failed = True
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(figures, indent=1), encoding="utf-8")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
