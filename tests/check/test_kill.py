"""A check of a draft survives the worst (issue #28): `courtroom check` is killed with SIGKILL in the middle of its
queue, and `courtroom checks resume` loses no finished claim and asks the model nothing twice; a model server that
goes down mid-queue pauses the check with the reason (exit status 3) and a resume once it is back finishes it.

The real CLI runs in a subprocess over a real library (two sample PDFs ingested with the bundled embedder); every
role's model is a fake OpenAI-compatible server on loopback that answers each quick verdict slowly and records which
claim it was asked about."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import testkit.loopback as loopback
from courtroom_desktop.core.check.records import CheckStatus, ClaimStatus
from courtroom_desktop.core.check.store import CheckStore
from courtroom_desktop.core.config import AppConfig, ModelSettings, ModelSpec, save_config
from testkit.fake_openai import MODEL, FakeOpenAI
from testkit.loopback import free_port

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "resources" / "samples"
DRAFT = """# Notes for the review

We met on Tuesday to go through the literature again.

Vitamin D deficiency affected more than 40% of the pregnant women in the cohort. The meeting ran late.
Low vitamin D levels cause lower birth weight in most studies. Obesity rates doubled between 1980 and 2008.
Obesity increases the risk of type 2 diabetes by a factor of three. The coffee was cold.
Most children with obesity become adults with obesity. Supplements reduced the deficiency by half in 2010.
"""
LABELS = ["supported", "refuted", "mixed", "insufficient evidence"]
CLAIM_TAG = re.compile(r"<claim>(.*?)</claim>", re.S)


def env() -> dict[str, str]:
    out = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1",
           "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}  # never the user's keyring: no key is needed
    out.pop("COURTROOM_CONFIG_DIR", None)
    out.pop("COURTROOM_DATA_DIR", None)
    return out


def courtroom(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "courtroom_desktop", "--config-dir", str(root / "config"),
            "--data-dir", str(root / "data"), *args]


class SlowJudge(FakeOpenAI):
    """Answers every quick verdict after ``delay`` seconds, with a label and confidence that depend on the claim (so a
    claim checked twice would show); records each claim asked about. Optionally bound to a fixed ``port``, so that a
    server stopped mid-queue can come back at the same address."""

    def __init__(self, delay: float = 1.0, port: int | None = None):
        super().__init__(None, answer=self.reply)
        self.delay = delay
        self.port = port
        self.asked: list[str] = []

    def reply(self, messages: list[dict]) -> str:
        found = CLAIM_TAG.search(next((m["content"] for m in messages if m.get("role") == "user"), ""))
        if found is None:  # not a quick verdict: nothing in this test asks for anything else
            return json.dumps({"error": "unexpected call"})
        claim = found.group(1)
        with self._lock:
            self.asked.append(claim)
        self._release.wait(self.delay)  # slow, but let go at once when the server stops
        n = sum(map(ord, claim))
        return json.dumps({"label": LABELS[n % 3], "confidence": round(0.5 + (n % 47) / 100, 2),
                           "citations": ["E1"], "reason": f"Passage E1 bears on it ({n % 1000})."})

    def __enter__(self):
        if self.port is None:
            return super().__enter__()
        original, port = loopback.ThreadingHTTPServer, self.port

        class OnPort(original):  # type: ignore[misc, valid-type]
            def __init__(self, address, handler):
                super().__init__((address[0], port), handler)

        loopback.ThreadingHTTPServer = OnPort
        try:
            return super().__enter__()
        finally:
            loopback.ThreadingHTTPServer = original


def write_config(root: Path, url: str) -> None:
    spec = ModelSpec(provider="openai", model=MODEL, base_url=url, read_timeout_s=30, retries=0)
    save_config(AppConfig(models=ModelSettings(default=spec)), root / "config")


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    """A data folder with two real sample PDFs ingested by `courtroom ingest` (the bundled embedder)."""
    root = tmp_path_factory.mktemp("library")
    write_config(root, f"http://127.0.0.1:{free_port()}/v1")
    done = subprocess.run(courtroom(root, "ingest", str(SAMPLES / "vitamin-d-a.pdf"), str(SAMPLES / "obesity-a.pdf")),
                          env=env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return root / "data"


@pytest.fixture
def root(tmp_path, library) -> Path:
    shutil.copytree(library, tmp_path / "data")
    (tmp_path / "draft.md").write_text(DRAFT, encoding="utf-8")
    return tmp_path


def start_check(root: Path) -> subprocess.Popen:
    return subprocess.Popen(courtroom(root, "check", str(root / "draft.md"), "--finder", "rules", "--trials", "never"),
                            env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def done_claims(root: Path) -> int:
    path = root / "data" / "checks.sqlite"
    if not path.exists():
        return 0
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        return db.execute("SELECT COUNT(*) FROM claims WHERE status = 'done'").fetchone()[0]
    except sqlite3.OperationalError:  # the tables are not there yet
        return 0
    finally:
        db.close()


def wait_for(process: subprocess.Popen, root: Path, done: int, timeout: float = 480) -> None:
    deadline = time.monotonic() + timeout
    while done_claims(root) < done:
        if process.poll() is not None:
            out, err = process.communicate()
            pytest.fail(f"`courtroom check` ended ({process.returncode}) before {done} claims were done:\n{out}\n{err}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"fewer than {done} claims done after {timeout:g} s")
        time.sleep(0.05)


def the_check(root: Path):
    store = CheckStore(root / "data" / "checks.sqlite")
    try:
        [summary] = store.list()
        return store.record(summary.id)
    finally:
        store.close()


@pytest.mark.timeout(1200)  # 57 s and 45 s at a load average of 16; the first claim loads the embedder and the client
def test_a_check_killed_mid_queue_loses_no_finished_claim_and_asks_nothing_twice(root):
    with SlowJudge(delay=1.0) as judge:
        write_config(root, judge.url)
        process = start_check(root)
        try:
            wait_for(process, root, 2)
            os.kill(process.pid, signal.SIGKILL)
        finally:
            process.wait(timeout=30)
        assert process.returncode == -signal.SIGKILL

        before = the_check(root)
        finished = {row.index: row for row in before.rows if row.status is ClaimStatus.done}
        assert len(finished) >= 2
        assert any(row.status is ClaimStatus.pending for row in before.rows), "the kill came after the queue's end"
        assert before.status is CheckStatus.running  # killed: nobody wrote another status
        asked_before = list(judge.asked)
        for row in finished.values():
            assert row.quick is not None and asked_before.count(row.claim.text) == 1

        resumed = subprocess.run(courtroom(root, "checks", "resume", before.id), env=env(), capture_output=True,
                                 text=True, timeout=600)
        assert resumed.returncode == 0, resumed.stderr[-3000:]

    after = the_check(root)
    assert after.status is CheckStatus.finished
    assert [row.status for row in after.rows] == [ClaimStatus.done] * len(before.rows)
    for index, row in finished.items():  # the same verdict, citations, passages and reason, never asked again
        assert after.rows[index].quick == row.quick
        assert judge.asked.count(row.claim.text) == 1, f"claim {index + 1} was asked again after the kill"
    for row in after.rows:  # every claim was asked, and a claim in flight at the kill at most once more
        assert 1 <= judge.asked.count(row.claim.text) <= 2
    resumed_lines = [line for line in resumed.stdout.splitlines() if re.match(r"\[\d+\] ", line)]
    assert len(resumed_lines) == len(before.rows) - len(finished)  # only the claims left were reported


@pytest.mark.timeout(1200)
def test_a_server_that_goes_down_pauses_the_check_and_a_resume_finishes_it(root):
    port = free_port()
    judge = SlowJudge(delay=0.5, port=port)
    with judge:
        write_config(root, judge.url)
        process = start_check(root)
        wait_for(process, root, 1)
    # the server is gone: the next quick verdict finds no one there
    try:
        out, err = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    assert process.returncode == 3, err[-3000:]
    assert re.search(r"^paused: the model server is not answering", err, re.M), err[-3000:]
    assert "courtroom checks resume" in err
    paused = the_check(root)
    assert paused.status is CheckStatus.paused and "not answering" in paused.problem
    assert any(row.status is ClaimStatus.pending for row in paused.rows)
    assert not any(row.status is ClaimStatus.failed for row in paused.rows)  # paused, not a string of failures

    back = SlowJudge(delay=0.0, port=port)
    with back:
        resumed = subprocess.run(courtroom(root, "checks", "resume", paused.id), env=env(), capture_output=True,
                                 text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    after = the_check(root)
    assert after.status is CheckStatus.finished and after.problem == ""
    assert all(row.status is ClaimStatus.done for row in after.rows)
    for row in paused.rows:
        if row.status is ClaimStatus.done:
            assert after.rows[row.index].quick == row.quick and row.claim.text not in back.asked
