"""A library beyond one machine: what Ray costs on the same cores, and what object storage costs a search.

    python bench/scale.py [--pdfs 24] [--workers 2] [--sizes 100000,1000000] [--queries 200] [--json FILE]

1. Ingest: --pdfs generated PDFs (six to eleven pages each) into a fresh local library, read in this process (the
   standard way: `courtroom ingest`), then the same files with `--engine ray` (a local Ray instance, --workers actors)
   into another fresh library. Pages per second for both, and the ratio: on the same cores Ray can only add overhead
   (its start, actors loading the model, files shipped as bytes); what it buys is more machines (docs/scale.md).
2. Search: a chunk table of --sizes synthetic chunks (384-d random unit vectors, the bundled embedder's size) with
   the app's ANN index (IVF_HNSW_SQ, cosine), once on this disk and once on an S3 server (moto's server mode in a
   separate process on loopback: a real HTTP round trip per object read, no network beyond that). --queries
   searches of 50 nearest each; p50 and p95 in milliseconds and the S3/local ratio, and the HTTP requests the S3
   server logged (for the first five searches, which read the index, then per search). An S3 bucket in a cloud region
   adds its latency (tens of ms per request) on top: see docs/scale.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
warnings.filterwarnings("ignore", message="lancedb fork support")  # Ray and moto start after lancedb is loaded
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from courtroom_desktop.core.config import LibrarySettings  # noqa: E402
from courtroom_desktop.core.library import Library  # noqa: E402
from courtroom_desktop.core.library.shared.location import LibraryLocation  # noqa: E402
from courtroom_desktop.core.library.store.vectors import VectorStore  # noqa: E402
from courtroom_desktop.core.records import Chunk  # noqa: E402

DIM = 384


# ---------------------------------------------------------------- an S3 server in its own process
class MotoProcess:
    def __enter__(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.log = tempfile.NamedTemporaryFile(prefix="moto-", suffix=".log", delete=False)
        self.proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
                                     stdout=self.log, stderr=self.log)
        self.endpoint = f"http://127.0.0.1:{self.port}"
        import boto3

        client = boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id="bench",
                              aws_secret_access_key="bench", region_name="us-east-1")
        for _ in range(100):
            try:
                client.create_bucket(Bucket="bench")
                break
            except Exception:  # noqa: BLE001 - not listening yet
                time.sleep(0.1)
        return self

    def location(self, prefix: str) -> LibraryLocation:
        return LibraryLocation(f"s3://bench/{prefix}", "s3", False, {
            "aws_endpoint": self.endpoint, "allow_http": "true", "aws_region": "us-east-1",
            "aws_access_key_id": "bench", "aws_secret_access_key": "bench"})

    def requests(self) -> int:
        """HTTP requests the server has logged so far (one line each)."""
        time.sleep(0.2)  # its log lines are written after the answers
        return sum(1 for line in Path(self.log.name).read_text(errors="replace").splitlines() if " HTTP/1.1" in line)

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait(10)
        Path(self.log.name).unlink(missing_ok=True)


# ---------------------------------------------------------------- 1. ingest, local and on Ray
def make_pdfs(folder: Path, count: int) -> tuple[list[Path], int]:
    from testkit.pdfgen import render_pdf
    from tests.library.docs import structured_spec

    folder.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        render_pdf(structured_spec(title=f"Report {n}", paragraphs_per_section=4 + n % 6), folder / f"r{n}.pdf")
    import pymupdf

    paths = sorted(folder.glob("*.pdf"))
    pages = 0
    for p in paths:
        with pymupdf.open(p) as doc:
            pages += doc.page_count
    return paths, pages


def ingest_rates(pdfs: int, workers: int, tmp: Path) -> dict:
    from courtroom_desktop.core.library.ray_engine import RayEngine, shutdown

    paths, pages = make_pdfs(tmp / "pdfs", pdfs)
    settings = LibrarySettings()
    out: dict = {"files": len(paths), "pages": pages}
    began = time.perf_counter()
    lib = Library.open(tmp / "local-lib", settings)
    finished = lib.ingest(paths)
    out["local_s"] = time.perf_counter() - began
    lib.close()
    assert finished.added == len(paths), finished
    engine = RayEngine(workers=workers)
    began = time.perf_counter()
    engine._ray()
    out["ray_start_s"] = time.perf_counter() - began
    lib = Library.open(tmp / "ray-lib", settings)
    began = time.perf_counter()
    finished = lib.ingest(paths, engine=engine)
    out["ray_s"] = time.perf_counter() - began
    lib.close()
    shutdown()
    assert finished.added == len(paths), finished
    out["local_pages_per_s"] = pages / out["local_s"]
    out["ray_pages_per_s"] = pages / out["ray_s"]
    out["ray_over_local"] = out["ray_pages_per_s"] / out["local_pages_per_s"]
    return out


# ---------------------------------------------------------------- 2. search, local disk and S3
def fill(store: VectorStore, rows: int, seed: int = 0, batch: int = 50_000) -> None:
    rng = np.random.default_rng(seed)
    for start in range(0, rows, batch):
        n = min(batch, rows - start)
        vectors = rng.standard_normal((n, DIM)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        chunks = [Chunk(id=f"d{(start + i) // 20:07d}-{(start + i) % 20:04d}", doc_id=f"d{(start + i) // 20:07d}",
                        ordinal=(start + i) % 20, section_path="", page_start=0, page_end=0, char_start=0,
                        char_end=0, text=f"synthetic passage {start + i}", highlights=())
                  for i in range(n)]
        store.add(chunks, vectors)


def search_times(store: VectorStore, queries: int, seed: int = 1, s3: MotoProcess | None = None) -> dict:
    rng = np.random.default_rng(seed)
    vectors = rng.standard_normal((queries + 5, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    before = s3.requests() if s3 else 0
    for v in vectors[:5]:  # warm: the index's first reads
        store.vector_search(v, 50)
    warm = s3.requests() if s3 else 0
    times = []
    for v in vectors[5:]:
        began = time.perf_counter()
        hits = store.vector_search(v, 50)
        times.append((time.perf_counter() - began) * 1000)
        assert len(hits) == 50
    out = {"p50_ms": float(np.percentile(times, 50)), "p95_ms": float(np.percentile(times, 95))}
    if s3:  # what a search asks of the server: the first five (reading the index), then each one after
        out["requests_first_5"] = warm - before
        out["requests_per_search"] = (s3.requests() - warm) / queries
    return out


def search_figures(sizes: list[int], queries: int, tmp: Path, s3: MotoProcess) -> list[dict]:
    out = []
    for rows in sizes:
        figures: dict = {"chunks": rows}
        for where in ("local", "s3"):
            began = time.perf_counter()
            if where == "local":
                store = VectorStore(tmp / f"vectors-{rows}", DIM)
            else:
                location = s3.location(f"vectors-{rows}")
                store = VectorStore(location.uri, DIM, location.options)
            fill(store, rows)
            figures[f"{where}_fill_s"] = time.perf_counter() - began
            began = time.perf_counter()
            created = store.ensure_indices(vector_min_rows=1)
            figures[f"{where}_index_s"] = time.perf_counter() - began
            assert store.has_vector_index(), created
            figures[where] = search_times(store, queries, s3=s3 if where == "s3" else None)
            requests = (f"; {figures[where]['requests_first_5']} requests for the first 5 searches, then "
                        f"{figures[where]['requests_per_search']:.1f} per search" if where == "s3" else "")
            print(f"  {rows:>9,} chunks, {where:>5}: filled in {figures[f'{where}_fill_s']:.0f} s, indexed in "
                  f"{figures[f'{where}_index_s']:.0f} s; search p50 {figures[where]['p50_ms']:.1f} ms, "
                  f"p95 {figures[where]['p95_ms']:.1f} ms{requests}", flush=True)
        figures["s3_over_local_p50"] = figures["s3"]["p50_ms"] / figures["local"]["p50_ms"]
        figures["s3_over_local_p95"] = figures["s3"]["p95_ms"] / figures["local"]["p95_ms"]
        out.append(figures)
        shutil.rmtree(tmp / f"vectors-{rows}", ignore_errors=True)
    return out


def commit_times(s3: MotoProcess, tmp: Path, batches: int = 20, size: int = 128) -> dict:
    """What one commit of an ingest costs the writer: an append of ``size`` passages (the storing batch) to the
    chunk table, locally and on S3; median seconds."""
    out = {}
    for where in ("local", "s3"):
        if where == "local":
            store = VectorStore(tmp / "commits", DIM)
        else:
            location = s3.location("commits")
            store = VectorStore(location.uri, DIM, location.options)
        times = []
        for b in range(batches):
            began = time.perf_counter()
            fill(store, size, seed=b, batch=size)
            times.append(time.perf_counter() - began)
        out[f"{where}_s"] = float(np.median(times))
    out["passages"] = size
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdfs", type=int, default=24)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--sizes", default="100000,1000000", help="chunk counts of the search tables")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--skip-ingest", action="store_true")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    result: dict = {"cpus": os.cpu_count(), "workers": args.workers}
    with tempfile.TemporaryDirectory(prefix="courtroom-scale-") as folder:
        tmp = Path(folder)
        if not args.skip_ingest:
            ingest = ingest_rates(args.pdfs, args.workers, tmp)
            result["ingest"] = ingest
            print(f"ingest of {ingest['files']} PDFs, {ingest['pages']} pages, on {os.cpu_count()} CPUs:")
            print(f"  local (one process, the standard way): {ingest['local_pages_per_s']:.2f} pages/s "
                  f"({ingest['local_s']:.1f} s)")
            print(f"  Ray, {args.workers} actors:                 {ingest['ray_pages_per_s']:.2f} pages/s "
                  f"({ingest['ray_s']:.1f} s, after {ingest['ray_start_s']:.1f} s to start Ray)")
            print(f"  Ray / local: {ingest['ray_over_local']:.2f}x")
        with MotoProcess() as s3:
            commits = commit_times(s3, tmp)
            result["commit"] = commits
            print(f"one storing batch ({commits['passages']} passages) appended: local {commits['local_s'] * 1000:.0f} "
                  f"ms, S3 {commits['s3_s'] * 1000:.0f} ms (median of 20)")
            print(f"search, 50 nearest of {args.queries} random queries, ANN index (IVF_HNSW_SQ, cosine):")
            result["search"] = search_figures(sizes, args.queries, tmp, s3)
        for row in result["search"]:
            print(f"  {row['chunks']:>9,} chunks: local p50 {row['local']['p50_ms']:.1f} / p95 "
                  f"{row['local']['p95_ms']:.1f} ms; S3 p50 {row['s3']['p50_ms']:.1f} / p95 {row['s3']['p95_ms']:.1f} "
                  f"ms; S3/local {row['s3_over_local_p50']:.2f}x (p50), {row['s3_over_local_p95']:.2f}x (p95)")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
