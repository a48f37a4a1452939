"""How long the court's work holds the event loop, in CPU time of the loop's thread (so a busy machine does not
change the figure much, unlike bench/ui.py's wall-clock lag):

1. ``Court.admit`` over real passages of the sample library (about 200 words each, the app's chunk size), the
   default debate settings, --batches batches of 6: the loop thread's CPU time per batch, with vectors (a
   bag-of-words embedder: the app's own embedding runs in a thread either way) and with word overlap (no embedder);
2. a two-round scripted trial over those passages with arguments of SmolLM2's length: the longest steps of the
   engine's task on the loop, each named by the awaits it stopped in.

    python bench/court_loop.py [--root DIR] [--batches 8]

--root runs another copy of the code (``git archive <commit> courtroom_desktop resources/samples | tar -x -C DIR``)
to compare commits. Target: no step near bench/ui.py's 50 ms budget for a tick.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import re
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=ROOT, help="the code to measure (default: this checkout)")
    parser.add_argument("--batches", type=int, default=8)
    args = parser.parse_args()
    root = args.root.resolve()
    sys.path.insert(0, str(root))

    import numpy as np
    import pymupdf

    from courtroom_desktop.core import court as court_package
    from courtroom_desktop.core.config import DebateSettings
    from courtroom_desktop.core.court import Court, TrialSpec, TrialStore
    from courtroom_desktop.core.court.records import Seat, Stance
    from courtroom_desktop.core.court.state import TrialState
    from courtroom_desktop.core.llm import ScriptedChatModel
    from courtroom_desktop.core.records import Chunk, Evidence

    assert Path(court_package.__file__).resolve().is_relative_to(root), court_package.__file__
    passages = []
    for pdf in sorted((root / "resources" / "samples").glob("*.pdf")):
        words = " ".join(page.get_text() for page in pymupdf.open(pdf)).split()
        passages += [(pdf.stem, " ".join(words[n:n + 200])) for n in range(0, len(words) - 50, 150)]

    def evidence(i: int, query: str = "q") -> Evidence:
        title, text = passages[i % len(passages)]
        text = text if i < len(passages) else f"{text} (copy {i})"
        chunk = Chunk(id=f"c{i}", doc_id=title, ordinal=i, section_path="", page_start=0, page_end=0, char_start=0,
                      char_end=len(text), text=text)
        return Evidence(chunk=chunk, doc_title=title, doc_path=f"/{title}.pdf", query=query, score=1.0)

    def embed(texts):
        rows = np.zeros((len(texts), 384), dtype=np.float32)
        for row, text in zip(rows, texts):
            for word in re.findall(r"\w+", text.lower()):
                row[zlib.crc32(word.encode()) % 384] += 1
        return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)

    async def admit_batches(embedder) -> tuple[list[float], int]:
        with tempfile.TemporaryDirectory() as tmp:
            store = TrialStore(Path(tmp) / "trials.sqlite")
            court = Court(lambda role: None, None, store, DebateSettings(novelty_min=0.0), embed=embedder)
            state = TrialState.from_events("t", TrialSpec(claim="x"), [])
            spent, admitted = [], 0
            for batch in range(args.batches):
                found = [evidence(batch * 6 + j) for j in range(6)]
                await asyncio.sleep(0)
                began = time.thread_time()  # the loop thread's CPU time: what admitting costs the loop
                admitted += len(await court.admit(state, found, Seat.starts_against, Stance.against, 1, lambda e: e))
                spent.append((time.thread_time() - began) * 1000)
            store.close()
            return spent, admitted

    for name, embedder in (("vectors", embed), ("word overlap", None)):
        spent, admitted = asyncio.run(admit_batches(embedder))
        print(f"admit, {name:<12}: loop-thread CPU per batch of 6 passages (ms): {', '.join(f'{x:.1f}' for x in spent)};"
              f" max {max(spent):.1f}, median {statistics.median(spent):.1f} ({admitted} admitted)")

    # a scripted two-round trial, every step of the engine's task timed
    def ids(messages) -> list[str]:
        return re.findall(r'<evidence id="(E\d+)"', messages[-1]["content"])

    argument = ("The randomised evidence [{a}] shows that vitamin D supplementation in pregnancy changes birth weight "
                "only modestly, and the cohort data [{b}] cannot separate supplements from sunlight, diet and income. "
                ) * 6 + "What confounders did the other side's cohort adjust for?"

    def counsel(messages) -> str:
        if "JSON" in messages[0]["content"] and "queries" in messages[0]["content"]:
            return json.dumps({"queries": ["vitamin D birth weight", "randomised trial vitamin D"]})
        cited = ids(messages) or ["E1"]
        return argument.format(a=cited[0], b=cited[-1])

    def ruling(messages) -> str:
        return json.dumps({"summary": "Both sides cite the trials.", "evidence_assessment": "E1 weighs most.",
                           "key_controversy": "whether the effect is causal", "open_questions": ["And sunlight?"],
                           "tendency": "support", "confidence": 0.6, "switch_request": False,
                           "ready_for_verdict": False, "ready_reason": ""})

    def verdict(messages) -> str:
        return json.dumps({"label": "supported", "confidence": 0.7, "open_questions": [], "summary": "Supported [E1].",
                           "findings": [{"text": "Supplements raised birth weight.", "citations": ["E1"]}]})

    def assess(messages) -> str:
        return json.dumps({"assessments": [{"id": i, "stance": "supports", "relevance": 0.8} for i in ids(messages)]})

    class Retriever:
        def __init__(self) -> None:
            self.calls = 0

        async def asearch(self, queries, k=None, scope=None):
            await asyncio.sleep(0)
            self.calls += 1
            return [evidence((self.calls * 4 + j) % len(passages), queries[0]) for j in range(6)]

    steps: dict[str, float] = {}
    run = asyncio.events.Handle._run

    def timed(handle):
        began = time.thread_time()
        try:
            return run(handle)
        finally:
            spent = (time.thread_time() - began) * 1000
            task = getattr(getattr(handle, "_callback", None), "__self__", None)
            if isinstance(task, asyncio.Task) and "drive" in getattr(task.get_coro(), "__qualname__", ""):
                coro, where = task.get_coro(), []
                while coro is not None and getattr(coro, "cr_frame", None) is not None:
                    where.append(f"{Path(coro.cr_frame.f_code.co_filename).name}:{coro.cr_frame.f_lineno}")
                    coro = getattr(coro, "cr_await", None)
                name = " > ".join(where[1:]) or "(finished)"
                steps[name] = max(steps.get(name, 0.0), spent)

    async def trial() -> collections.Counter:
        with tempfile.TemporaryDirectory() as tmp:
            store = TrialStore(Path(tmp) / "trials.sqlite")
            table = {"prosecution": ScriptedChatModel([counsel] * 40, role="prosecution"),
                     "defense": ScriptedChatModel([counsel] * 40, role="defense"),
                     "judge": ScriptedChatModel([ruling, ruling, verdict, verdict], role="judge",
                                                standing={"EvidenceAssessment": assess})}
            court = Court(table.__getitem__, Retriever(), store, DebateSettings(min_rounds=2, max_rounds=2), embed=embed)
            trial_id = court.start(TrialSpec(claim="Vitamin D supplements in pregnancy raise birth weight."))
            kinds = collections.Counter([e.kind async for e in court.run(trial_id)])
            store.close()
            return kinds

    asyncio.events.Handle._run = timed
    try:
        kinds = asyncio.run(trial())
    finally:
        asyncio.events.Handle._run = run
    kinds.pop("token", None)
    print(f"scripted trial ({sum(kinds.values())} events: {dict(kinds)}); longest steps of the engine's task on the "
          "loop, loop-thread CPU (ms), where each stopped:")
    for name, spent in sorted(steps.items(), key=lambda x: -x[1])[:5]:
        print(f"  {spent:7.1f}  {name}")


if __name__ == "__main__":
    main()
