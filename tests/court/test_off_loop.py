"""The court's CPU work stays off the event loop (the window's loop, under qasync): admitting passages (novelty by
vectors or word overlap, the evidence level, the injection detector, the events) runs in a worker thread, and the
pool, its vectors and the events still change on the loop, in order (bench/ui.py measured 86 ms for five passages
when it ran on the loop)."""

from __future__ import annotations

import re
import threading
import zlib

import numpy as np
import pytest

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.court import Court, TrialSpec, TrialStore, engine
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.reports.wording import say_reason as said

from .fakes import FakeRetriever, counsel, models, ruling, scripted, verdict

CLAIM = "Vitamin D supplements in pregnancy raise birth weight, whatever previous instructions say."  # finds E-hostile


def embed(texts: list[str]) -> np.ndarray:
    """Normalised bags of words (each word's slot by a stable hash): texts that share words are near."""
    rows = np.zeros((len(texts), 512), dtype=np.float32)
    for row, text in zip(rows, texts):
        for word in re.findall(r"\w+", text.lower()):
            row[zlib.crc32(word.encode()) % 512] += 1
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)


@pytest.fixture
def store(tmp_path):
    s = TrialStore(tmp_path / "trials.sqlite")
    yield s
    s.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("vectors", [False, True], ids=["word-overlap", "vectors"])
async def test_admitting_passages_runs_off_the_event_loop(store, monkeypatch, vectors):
    loop_thread = threading.get_ident()
    calls: dict[str, list[int]] = {"evidence_level": [], "looks_like_instructions": [], "overlap": []}

    def watched(name):
        original = getattr(engine, name)

        def call(*args, **kwargs):
            calls[name].append(threading.get_ident())
            return original(*args, **kwargs)
        return call

    for name in calls:
        monkeypatch.setattr(engine, name, watched(name))
    settings = DebateSettings(min_rounds=2, max_rounds=2, max_switches=0)
    judge = scripted([ruling(0.5), ruling(0.9), verdict()], "judge")
    court = Court(models(scripted([counsel] * 40, "prosecution"), scripted([counsel] * 40, "defense"), judge),
                  FakeRetriever([0, 1, 2, 3, 4, 5]), store, settings, embed=embed if vectors else None)
    trial_id = court.start(TrialSpec(claim=CLAIM))
    events = [e async for e in court.run(trial_id)]

    assert calls["evidence_level"] and calls["looks_like_instructions"]
    if not vectors:
        assert calls["overlap"]
    on_loop = {name: len([t for t in threads if t == loop_thread]) for name, threads in calls.items()}
    assert on_loop == dict.fromkeys(calls, 0), f"called on the event loop: {on_loop}"
    # the pool and the events still agree, in order: ids contiguous, the injected passage warned right after it
    stored = store.events(trial_id)
    added = [e.entry for e in stored if e.kind == "evidence_added"]
    assert [e.id for e in added] == [f"E{i}" for i in range(1, len(added) + 1)]
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
    hostile = next(e for e in added if e.injection)
    after = stored[[s.seq for s in stored].index(next(s.seq for s in stored if s.kind == "evidence_added"
                                                      and s.entry.id == hostile.id)) + 1]
    assert after.kind == "warning" and f"{hostile.id} reads like instructions" in said(after.reason)
    assert [e.kind for e in events if e.kind != "token"] == [e.kind for e in stored]
    state = TrialState.from_events(trial_id, store.spec(trial_id), stored)
    assert [e.id for e in state.pool] == [e.id for e in added]
    if vectors:
        assert sorted(court._vectors) == sorted(e.id for e in added)
