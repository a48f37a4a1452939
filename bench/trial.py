"""Trial benchmark: how much of a trial's wall time is model time, and how much is everything else (retrieval,
embedding for the novelty filter, prompt building, persistence). Target: everything else at most 5%.

    python bench/trial.py [--claim "..."] [--rounds 2] [--model all=ollama:llama3.1]

Ingests the sample library into a temporary data folder first (not timed), loads the models (not timed),
then runs one trial and splits its wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from courtroom_desktop.core.config import AppConfig, with_model_overrides  # noqa: E402
from courtroom_desktop.core.court import TrialSpec  # noqa: E402
from courtroom_desktop.core.workspace import Workspace  # noqa: E402


class Timed:
    """Wraps a ChatModel and adds up the wall time of its calls."""

    def __init__(self, model, clock: dict):
        self._model = model
        self._clock = clock

    def __getattr__(self, name):
        return getattr(self._model, name)

    async def _timed(self, method, *args, **kwargs):
        began = time.perf_counter()
        try:
            return await method(*args, **kwargs)
        finally:
            self._clock["model"] += time.perf_counter() - began
            self._clock["calls"] += 1

    async def complete(self, *args, **kwargs):
        return await self._timed(self._model.complete, *args, **kwargs)

    async def structured(self, *args, **kwargs):
        return await self._timed(self._model.structured, *args, **kwargs)


async def run_trial(workspace: Workspace, claim: str, rounds: int) -> dict:
    clock = {"model": 0.0, "calls": 0}
    settings = workspace.config.debate.model_copy(update={"max_rounds": rounds, "min_rounds": min(2, rounds)})
    court = workspace.parts.court(None, settings)
    router = workspace.parts.router
    court.models = lambda role: Timed(router.for_role(role), clock)
    for role in ("prosecution", "defense", "judge"):
        load = getattr(router.for_role(role), "load", None)
        if load is not None and inspect.isawaitable(result := load()):
            await result
    workspace.parts.retriever.search([claim], k=1)  # warm the retriever and the embedding model
    trial_id = court.start(TrialSpec(claim=claim, models=workspace.models.labels()))
    began = time.perf_counter()
    kinds: dict[str, int] = {}
    async for event in court.run(trial_id):
        kinds[event.kind] = kinds.get(event.kind, 0) + 1
    clock["wall"] = time.perf_counter() - began
    clock["events"] = kinds
    return clock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--claim", default="Vitamin D deficiency is unrelated to birth weight.")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--model", action="append", default=[], help="ROLE=PROVIDER:MODEL")
    args = parser.parse_args()
    config = with_model_overrides(AppConfig(), args.model)
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Workspace(Path(tmp) / "config", Path(tmp) / "data", config)
        workspace.library.ingest([ROOT / "resources" / "samples"])
        clock = asyncio.run(run_trial(workspace, args.claim, args.rounds))
        workspace.close()
    other = clock["wall"] - clock["model"]
    print(f"models: {workspace.models.labels()}")
    print(f"events: {clock['events']}")
    print(f"trial wall time: {clock['wall']:.2f} s over {clock['calls']} model calls")
    print(f"  model time:      {clock['model']:.2f} s ({clock['model'] / clock['wall']:.1%})")
    print(f"  everything else: {other:.2f} s ({other / clock['wall']:.1%})  (target <= 5%)")


if __name__ == "__main__":
    main()
