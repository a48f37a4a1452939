"""Check benchmark: how fast a whole draft is checked (issue #28), against what a user would otherwise do.

    python bench/check.py [--claims 20] [--baseline-claims 3] [--model all=ollama:llama3.1]

Ingests the sample library into a temporary data folder and loads the models first (not timed). Then:

- the quick check: a draft of 20 claims (English, on the samples' topics, among ordinary sentences; one of them the
  40-percent vitamin D claim of issue #45, whose number no sample states) found by the rules, stored as a check
  (``create_check``, --trials never) and run by its queue (``check_queue(id).run()``), as ``courtroom check`` does;
  timed from ``create_check`` to the first ClaimUpdated (the first row of the table) and to the last; each row's
  label is printed with the passages it rests on and the verifier's reading of each;
- the baseline: the standard recipe without a check, one full trial per claim typed by hand
  (``start_trial`` + run to its verdict, the default debate settings), on the first --baseline-claims claims.

Prints claims per minute for both, their ratio, and the time to the first row (the baseline's first row is its first
verdict). The figures are wall time on this machine: the load average is printed with them.
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
from courtroom_desktop.core.workspace import Workspace  # noqa: E402

DRAFT = """# Draft: what the dossiers say

This memo gathers the points we want to keep for the literature review.

Vitamin D deficiency affects more than 40% of pregnant women. Low maternal vitamin D levels cause lower birth weight. \
We discussed the dossiers over lunch. Vitamin D supplements reduce the risk of fractures in older adults by a third. \
Most studies found no link between vitamin D and preterm birth.

Obesity rates doubled between 1980 and 2008. Obesity increases the risk of type 2 diabetes. The figures come from the \
second dossier. Children with obesity are more likely to become adults with obesity. Bariatric surgery leads to \
greater weight loss than diet alone.

Antiretroviral therapy reduces the incidence of tuberculosis in people with HIV. Tuberculosis is the leading cause of \
death among people with HIV. The meeting ended early. Starting antiretroviral therapy early lowers mortality by more \
than 50%. Isoniazid preventive therapy halves the risk of tuberculosis.

Our review found that vitamin D supplementation in pregnancy reduced the risk of low birth weight by 40 percent. \
Vitamin D deficiency is common among people living far from the equator. We will circulate the notes on Friday. \
Sun exposure is the main source of vitamin D for most people. Obesity is associated with lower vitamin D levels. \
Physical activity reduces the risk of obesity in children. Sugar-sweetened beverages contribute to weight gain in \
adolescents. The next section lists open questions. Tuberculosis screening should be offered to everyone diagnosed \
with HIV. People with HIV are about 20 times more likely to develop active tuberculosis than people without HIV. \
Rifampicin interacts with several antiretroviral drugs.

Vitamin D supplementation lowers the risk of respiratory infections. Children who sleep less are more likely to \
become obese. Tuberculosis killed more people than any other infectious disease in 2019. Weight loss improves blood \
sugar control in people with type 2 diabetes.
"""


async def warm(workspace: Workspace) -> None:
    router = workspace.parts.router
    for role in ("prosecution", "defense", "judge"):
        load = getattr(router.for_role(role), "load", None)
        if load is not None and inspect.isawaitable(result := load()):
            await result
    workspace.parts.retriever.search(["vitamin D"], k=1)  # the retriever and the embedding model
    workspace.parts.verifier.score([("vitamin D", "vitamin D")])  # the claim verifier


async def quick_check(workspace: Workspace, draft, claims) -> dict:
    from courtroom_desktop.core.check.queue import ClaimUpdated, QueueFinished

    began = time.perf_counter()
    check_id = workspace.checks.create(draft, claims, trials="never", finder="rules")
    first = None
    done = 0
    status = None
    async for event in workspace.checks.queue(check_id).run():
        if isinstance(event, ClaimUpdated) and event.row.status.value in ("done", "failed"):
            done += 1
            print(f"  quick check {done}/{len(claims)}: {event.row.label.value if event.row.label else event.row.status.value} "
                  f"after {time.perf_counter() - began:.1f} s", file=sys.stderr, flush=True)
            if first is None:
                first = time.perf_counter() - began
        elif isinstance(event, QueueFinished):
            status = event.status.value
    wall = time.perf_counter() - began
    record = workspace.checks.record(check_id)
    for row in record.rows:  # each row's label and what it rests on: the passages scored for it
        quick = row.quick
        if quick is None:
            continue
        shown = [(cid, *quick.reading(cid).shown) for cid in quick.citations if quick.reading(cid) is not None]
        backing = ", ".join(f"{cid} {stance} {p:.2f}" for cid, stance, p in shown) or "no passage"
        missing = f"; no passage states {', '.join(quick.missing)}" if quick.missing else ""
        print(f"  {row.index + 1:2d}. {quick.label.value} {quick.confidence:.2f} <- {backing}{missing}: "
              f"{row.claim.text[:80]}", flush=True)
    return {"wall": wall, "first": first, "claims": done, "status": status, "counts": record.counts(),
            "failed": sum(r.status.value == "failed" for r in record.rows)}


async def run(workspace: Workspace, n: int, n_baseline: int) -> None:
    """Everything on one event loop, as the CLI and the window run it; each figure printed as soon as it is known
    (a run stopped during the baseline keeps the quick check's figures and the trials finished so far)."""
    await warm(workspace)
    draft = workspace.checks.read_draft(text=DRAFT)
    claims, _ = await workspace.checks.find_claims(draft, "rules")
    claims = claims[:n]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"models: {workspace.models.labels()}; {os.cpu_count()} CPUs, load average {load:.1f}", flush=True)
    quick = await quick_check(workspace, draft, claims)
    print(f"quick check: {quick['claims']} claims in {quick['wall']:.1f} s = {per_minute(quick):.2f} claims/min "
          f"(first row after {quick['first']:.1f} s; {quick['status']}, {quick['failed']} failed; {quick['counts']})",
          flush=True)
    debate = workspace.config.debate
    began = time.perf_counter()
    first = None
    labels: list[str | None] = []
    for text in [c.text for c in claims[:n_baseline]]:
        run = await asyncio.to_thread(workspace.trials.start, text)
        async for _ in run.events():
            pass
        label = workspace.trials.outcome(run.trial_id).label
        labels.append(label.value if label else None)
        wall = time.perf_counter() - began
        first = wall if first is None else first
        base = {"claims": len(labels), "wall": wall}
        print(f"baseline, a full trial per claim ({debate.min_rounds}-{debate.max_rounds} rounds): {len(labels)} "
              f"claims in {wall:.1f} s = {per_minute(base):.2f} claims/min (first verdict after {first:.1f} s; "
              f"{labels})", flush=True)
        print(f"quick check / baseline: {per_minute(quick) / per_minute(base):.1f}x the claims per minute; first row "
              f"{first / quick['first']:.1f}x sooner", flush=True)


def per_minute(result: dict) -> float:
    return result["claims"] / (result["wall"] / 60) if result["wall"] > 0 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--claims", type=int, default=20, help="claims of the draft to check (at most 20)")
    parser.add_argument("--baseline-claims", type=int, default=3, help="claims given a full trial each (baseline)")
    parser.add_argument("--model", action="append", default=[], help="ROLE=PROVIDER:MODEL")
    args = parser.parse_args()
    config = with_model_overrides(AppConfig(), args.model)
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Workspace(Path(tmp) / "config", Path(tmp) / "data", config)
        try:
            workspace.library.ingest([ROOT / "resources" / "samples"])
            asyncio.run(run(workspace, args.claims, args.baseline_claims))
        finally:
            workspace.close()


if __name__ == "__main__":
    main()
