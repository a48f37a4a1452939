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
   server logged (for the first five searches, which read the index, then per search). Then the same S3 table read
   through the local replica (core.library.shared.replica: copied once, searched on this disk, its version checked in
   the background), as a shared library's searches read it: the time of the first copy, p50 and p95, and the requests
   per search. An S3 bucket in a cloud region adds its latency to every request: the bench models it
   (--bucket-ms per request, each request one after another, the worst case) from the requests counted here.
   The S3 table is the local table's files uploaded (--s3-build upload, the default: the same table, minutes
   sooner) or filled and indexed through S3 (--s3-build fill: also times that).
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
from courtroom_desktop.core.library.shared.replica import Replica  # noqa: E402
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


class ReplicaSearch:
    """What a shared library's search reads (Library.search_vectors): the replica's local table, its version checked
    in the background at most every 2 s."""

    def __init__(self, replica: Replica, dim: int):
        self.replica, self.dim = replica, dim

    def vector_search(self, vector: np.ndarray, limit: int) -> list:
        self.replica.check()
        store = self.replica.vectors(self.dim)
        assert store is not None, self.replica.status
        return store.vector_search(vector, limit)


def upload(folder: Path, s3: MotoProcess, location: LibraryLocation, under: str) -> None:
    """A local table's files put on the S3 server as they are: the same Lance table there."""
    import obstore

    from courtroom_desktop.core.library.shared.commit_lock import object_store

    store = object_store(location)
    for path in sorted(folder.rglob("*"), key=lambda p: "_versions" in p.parts):  # the manifests last
        if path.is_file():
            obstore.put(store, f"{under}/{path.relative_to(folder).as_posix()}", path)


def search_times(store: VectorStore | ReplicaSearch, queries: int, seed: int = 1, s3: MotoProcess | None = None) -> dict:
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


def search_figures(sizes: list[int], queries: int, tmp: Path, s3: MotoProcess, build: str = "upload") -> list[dict]:
    out = []
    for rows in sizes:
        figures: dict = {"chunks": rows}
        location = s3.location(f"vectors-{rows}")
        for where in ("local", "s3"):
            began = time.perf_counter()
            if where == "local":
                store = VectorStore(tmp / f"vectors-{rows}", DIM)
            elif build == "upload":  # the local table's files, as they are
                upload(tmp / f"vectors-{rows}" / "chunks.lance", s3, location, "lancedb/chunks.lance")
                figures["s3_upload_s"] = time.perf_counter() - began
                store = VectorStore(location.child("lancedb"), DIM, location.options)
                assert store.count() == rows and store.has_vector_index()
                figures[where] = search_times(store, queries, s3=s3)
                print(f"  {rows:>9,} chunks, {where:>5}: uploaded in {figures['s3_upload_s']:.0f} s; search p50 "
                      f"{figures[where]['p50_ms']:.1f} ms, p95 {figures[where]['p95_ms']:.1f} ms; "
                      f"{figures[where]['requests_first_5']} requests for the first 5 searches, then "
                      f"{figures[where]['requests_per_search']:.1f} per search", flush=True)
                continue
            else:
                store = VectorStore(location.child("lancedb"), DIM, location.options)
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
        # the same S3 table through the local replica
        replica = Replica(location, "lancedb", tmp / f"replica-{rows}", limit_bytes=10**12)
        began = time.perf_counter()
        replica.catch_up()
        figures["replica_copy_s"] = time.perf_counter() - began
        figures["replica_mb"] = replica.status.bytes / 1e6
        figures["replica"] = search_times(ReplicaSearch(replica, DIM), queries, s3=s3)
        replica.wait(60)
        print(f"  {rows:>9,} chunks, s3 + local replica: first copy {figures['replica_mb']:,.0f} MB in "
              f"{figures['replica_copy_s']:.0f} s; search p50 {figures['replica']['p50_ms']:.1f} ms, p95 "
              f"{figures['replica']['p95_ms']:.1f} ms; {figures['replica']['requests_per_search']:.2f} requests per "
              f"search (the background version checks)", flush=True)
        for where in ("s3", "replica"):
            figures[f"{where}_over_local_p50"] = figures[where]["p50_ms"] / figures["local"]["p50_ms"]
            figures[f"{where}_over_local_p95"] = figures[where]["p95_ms"] / figures["local"]["p95_ms"]
        out.append(figures)
        shutil.rmtree(tmp / f"vectors-{rows}", ignore_errors=True)
        shutil.rmtree(tmp / f"replica-{rows}", ignore_errors=True)
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
    parser.add_argument("--s3-build", choices=("upload", "fill"), default="upload",
                        help="the S3 table: the local one's files uploaded (default), or filled and indexed through S3")
    parser.add_argument("--bucket-ms", type=float, default=30.0,
                        help="a cloud bucket's latency per request, for the model (default %(default)s ms)")
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
            result["search"] = search_figures(sizes, args.queries, tmp, s3, args.s3_build)
        for row in result["search"]:
            print(f"  {row['chunks']:>9,} chunks: local p50 {row['local']['p50_ms']:.1f} / p95 "
                  f"{row['local']['p95_ms']:.1f} ms; S3 p50 {row['s3']['p50_ms']:.1f} / p95 {row['s3']['p95_ms']:.1f} "
                  f"ms ({row['s3_over_local_p50']:.2f}x local at p50); S3 with the replica p50 "
                  f"{row['replica']['p50_ms']:.1f} / p95 {row['replica']['p95_ms']:.1f} ms "
                  f"({row['replica_over_local_p50']:.2f}x local at p50, {row['replica_over_local_p95']:.2f}x at p95)")
        print(f"modelled on a cloud bucket answering each request in {args.bucket_ms:.0f} ms (one after another):")
        for row in result["search"]:
            s3_model = row["local"]["p50_ms"] + row["s3"]["requests_per_search"] * args.bucket_ms
            replica_model = row["replica"]["p50_ms"]  # its requests run in the background, never in a search
            row["modelled_bucket_ms"] = {"bucket_ms": args.bucket_ms, "s3_p50_ms": s3_model,
                                         "replica_p50_ms": replica_model}
            print(f"  {row['chunks']:>9,} chunks: without the replica about {s3_model:.0f} ms a search "
                  f"({row['s3']['requests_per_search']:.1f} requests x {args.bucket_ms:.0f} ms + local), with it "
                  f"{replica_model:.1f} ms (and a background listing every 2 s at most)")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
