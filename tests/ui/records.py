"""Real core records for the model tests: a scripted trial run through the engine (with a role switch), and
documents and summaries as the core makes them."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.court import Court, TrialSpec, TrialStore
from courtroom_desktop.core.records import DocStatus, Document
from tests.court.fakes import FakeRetriever, counsel, models, ruling, scripted, verdict

CLAIM = "Vitamin D supplements in pregnancy raise birth weight."


def scripted_trial(tmp_path: Path, switch: bool = True) -> tuple[str, TrialSpec, list, TrialStore]:
    """Run a whole scripted trial (three rounds, the sides switch after the first); returns its id, spec, every
    event as yielded (token deltas included) and the store."""
    store = TrialStore(tmp_path / "trials.sqlite")
    settings = DebateSettings(min_rounds=2, max_rounds=3, confidence_threshold=0.8, max_switches=1)
    judge = scripted([ruling(0.4, switch=switch, questions=["Is the trial randomised?"]), ruling(0.6),
                      ruling(0.9, ready=True, reason="the randomised trial [E1] decides it"), verdict()], "judge")
    court = Court(models(scripted([counsel] * 40, "prosecution"), scripted([counsel] * 40, "defense"), judge),
                  FakeRetriever(), store, settings)
    trial_id = court.start(TrialSpec(claim=CLAIM))

    async def collect():
        return [event async for event in court.run(trial_id)]

    events = asyncio.run(collect())
    return trial_id, store.spec(trial_id), events, store


def documents() -> list[Document]:
    now = time.time()
    return [
        Document(id="a1b2c3d4e5f60001", path="/library/first.pdf", sha256="a" * 64, title="First report", pages=12,
                 chunks=40, sections=6, status=DocStatus.ready, added_at=now),
        Document(id="a1b2c3d4e5f60002", path="/library/second.pdf", sha256="b" * 64, title="", pages=3, chunks=9,
                 sections=1, status=DocStatus.ready, added_at=now + 1),
    ]
