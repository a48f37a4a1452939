"""Verdict evaluation: the court against two baselines with the same models and retriever, on labelled claims.

Methods:
    court     the full trial (progressive retrieval, rulings, switches, verdict)
    single    single-pass RAG: retrieve once with the claim, answer once
    majority  independent single-pass answers at the trial's token budget, majority label

Per method: accuracy, macro-F1 over the gold classes and a confusion matrix. Per trial: rounds, switches, tokens
and evidence recall (the share of the claim's gold documents that entered the evidence pool). For the court also:
the share of verdicts the verdict rule had to correct, and the share of assessed passages whose assessed stance
differs from the side that found them (supports for the Defense, refutes for the Prosecution).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypedDict

from courtroom_desktop.core.config import AppConfig
from courtroom_desktop.core.court.baselines import majority_vote, single_pass
from courtroom_desktop.core.court.records import TrialEvent, TrialSpec, VerdictLabel
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.llm.base import ChatModel
from courtroom_desktop.core.records import Evidence
from courtroom_desktop.core.retrieval.scope import Scope

GOLD = {"SUPPORT": VerdictLabel.supported, "CONTRADICT": VerdictLabel.refuted, "NEI": VerdictLabel.insufficient}
CLASSES = [VerdictLabel.supported, VerdictLabel.refuted, VerdictLabel.insufficient]
PREDICTED = [*CLASSES, VerdictLabel.mixed, "error"]
METHODS = ("court", "single", "majority")


class CourtLike(Protocol):
    """A court (``core.court.engine.Court``): starts a trial and drives it."""

    def start(self, spec: TrialSpec) -> str: ...

    def run(self, trial_id: str) -> AsyncIterator[object]: ...


class StoreLike(Protocol):
    """The trial store the court writes to (``core.court.store.TrialStore``)."""

    def spec(self, trial_id: str) -> TrialSpec: ...

    def events(self, trial_id: str) -> Sequence[TrialEvent]: ...


class Searcher(Protocol):
    """What the baselines search with (a ``core.retrieval.Retriever``)."""

    async def asearch(self, queries: Sequence[str], k: int | None = None,
                      scope: Scope | None = None) -> list[Evidence]: ...


class Scores(TypedDict):
    n: int
    accuracy: float
    macro_f1: float
    confusion: dict[str, dict[str, int]]  # gold label -> predicted label (or 'error') -> claims


@dataclass(frozen=True)
class LabelledClaim:
    id: str
    claim: str
    gold: VerdictLabel
    gold_docs: tuple[str, ...]


@dataclass
class ClaimResult:
    claim: LabelledClaim
    predictions: dict[str, str] = field(default_factory=dict)
    trial_id: str = ""
    rounds: int = 0
    switches: int = 0
    tokens: dict[str, int] = field(default_factory=dict)
    evidence_recall: dict[str, float] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    corrected: bool = False      # the verdict rule set the court's label or confidence
    assessed: int = 0            # passages of the pool the judge assessed
    stance_differs: int = 0      # ... whose assessed stance is not the finder's side


FINDER_SAYS = {"for": "supports", "against": "refutes"}


def stance_agreement(state: TrialState) -> tuple[int, int]:
    """(assessed passages, those whose assessed stance is not what the side that found them argues)."""
    assessed = [(e.stance, state.assessments[e.id]) for e in state.pool
                if e.id in state.assessments and e.stance is not None]
    return len(assessed), sum(1 for found_by, a in assessed if a.stance.value != FINDER_SAYS[found_by.value])


def load_claims(path: Path, sample: int | None = None, seed: int = 0, balanced: bool = True) -> list[LabelledClaim]:
    """SciFact-style claims (id, claim, label, cited_doc_ids). ``sample`` draws that many, balanced over labels."""
    claims = []
    with Path(path).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            row = json.loads(line)
            label = row.get("label")
            if label not in GOLD:
                raise ConfigError(f"{path}:{number}: label {label!r} is not SUPPORT, CONTRADICT or NEI")
            claims.append(LabelledClaim(str(row["id"]), row["claim"], GOLD[label],
                                        tuple(str(d) for d in row.get("cited_doc_ids", []))))
    if not sample or sample >= len(claims):
        return claims
    rng = random.Random(seed)
    if not balanced:
        return rng.sample(claims, sample)
    by_label = {label: [c for c in claims if c.gold == label] for label in CLASSES}
    for group in by_label.values():
        rng.shuffle(group)
    chosen: list[LabelledClaim] = []
    while len(chosen) < sample and any(by_label.values()):
        for label in CLASSES:
            if by_label[label] and len(chosen) < sample:
                chosen.append(by_label[label].pop())
    return chosen


def scores(results: list[ClaimResult], method: str) -> Scores:
    pairs = [(r.claim.gold.value, r.predictions.get(method, "error")) for r in results if method in r.predictions]
    confusion = {g.value: {str(p if isinstance(p, str) else p.value): 0 for p in PREDICTED} for g in CLASSES}
    for gold, predicted in pairs:
        confusion[gold][predicted] = confusion[gold].get(predicted, 0) + 1
    f1s = []
    for label in CLASSES:
        tp = confusion[label.value][label.value]
        predicted_as = sum(row[label.value] for row in confusion.values())
        actual = sum(confusion[label.value].values())
        precision = tp / predicted_as if predicted_as else 0.0
        recall = tp / actual if actual else 0.0
        f1s.append(2 * precision * recall / (precision + recall) if precision + recall else 0.0)
    n = len(pairs)
    return {"n": n, "accuracy": sum(g == p for g, p in pairs) / n if n else 0.0,
            "macro_f1": sum(f1s) / len(f1s), "confusion": confusion}


async def evaluate_verdicts(claims: list[LabelledClaim], *, court_factory: Callable[[], CourtLike], retriever: Searcher,
                            judge_model: ChatModel, store: StoreLike, methods: Sequence[str] = METHODS, k: int = 6,
                            on_result: Callable[[ClaimResult], None] | None = None) -> list[ClaimResult]:
    """Run every method on every claim. ``court_factory()`` gives a Court (fresh per claim); the baselines use
    ``judge_model`` and ``retriever``; the majority vote spends the trial's tokens (or 4x a single pass)."""
    results = []
    for claim in claims:
        result = ClaimResult(claim)
        if "court" in methods:
            began = time.perf_counter()
            court = court_factory()
            trial_id = court.start(TrialSpec(claim=claim.claim))
            result.trial_id = trial_id
            async for _event in court.run(trial_id):
                pass
            state = TrialState.from_events(trial_id, store.spec(trial_id), store.events(trial_id))
            usage = state.usage()
            result.tokens["court"] = usage.tokens_in + usage.tokens_out
            result.seconds["court"] = time.perf_counter() - began
            if state.verdict is None:
                result.predictions["court"] = "error"
                errors = [e.message for e in store.events(trial_id) if e.kind == "error"]
                result.errors["court"] = errors[-1] if errors else "no verdict"
            else:
                result.predictions["court"] = state.verdict.label.value
                result.rounds, result.switches = state.verdict.rounds, state.verdict.switches
                result.corrected = state.verdict.corrected
            result.assessed, result.stance_differs = stance_agreement(state)
            pool_docs = {e.evidence.chunk.doc_id for e in state.pool}
            result.evidence_recall["court"] = _recall(claim.gold_docs, pool_docs)
        if "single" in methods:
            began = time.perf_counter()
            try:
                single = await single_pass(claim.claim, retriever, judge_model, k=k)
                result.predictions["single"] = single.label.value
                result.tokens["single"] = single.tokens
                result.evidence_recall["single"] = _recall(claim.gold_docs, set(single.doc_ids))
            except Exception as exc:  # a failed answer is a wrong answer, reported
                result.predictions["single"], result.errors["single"] = "error", str(exc)
            result.seconds["single"] = time.perf_counter() - began
        if "majority" in methods:
            began = time.perf_counter()
            budget = result.tokens.get("court") or 4 * result.tokens.get("single", 1000)
            try:
                vote = await majority_vote(claim.claim, retriever, judge_model, token_budget=budget, k=k)
                result.predictions["majority"] = vote.label.value
                result.tokens["majority"] = vote.tokens
                result.evidence_recall["majority"] = _recall(claim.gold_docs, set(vote.doc_ids))
            except Exception as exc:
                result.predictions["majority"], result.errors["majority"] = "error", str(exc)
            result.seconds["majority"] = time.perf_counter() - began
        results.append(result)
        if on_result:
            on_result(result)
    return results


def _recall(gold: tuple[str, ...], found: set[str]) -> float:
    return sum(1 for d in gold if d in found) / len(gold) if gold else 1.0


def format_report(results: list[ClaimResult], methods: Sequence[str] = METHODS) -> str:
    lines = ["| method | claims | accuracy | macro-F1 | mean tokens | mean evidence recall |",
             "| --- | --- | --- | --- | --- | --- |"]
    for method in methods:
        s = scores(results, method)
        if not s["n"]:
            continue
        tokens = [r.tokens[method] for r in results if method in r.tokens]
        recall = [r.evidence_recall[method] for r in results if method in r.evidence_recall]
        lines.append(f"| {method} | {s['n']} | {s['accuracy']:.3f} | {s['macro_f1']:.3f} | "
                     f"{sum(tokens) / max(len(tokens), 1):.0f} | {sum(recall) / max(len(recall), 1):.2f} |")
    for method in methods:
        s = scores(results, method)
        if not s["n"]:
            continue
        labels = [str(p if isinstance(p, str) else p.value) for p in PREDICTED]
        lines += ["", f"Confusion matrix, {method} (rows: gold, columns: predicted)", "",
                  "| gold \\ predicted | " + " | ".join(labels) + " |", "| --- |" + " --- |" * len(labels)]
        for gold, row in s["confusion"].items():
            lines.append(f"| {gold} | " + " | ".join(str(row.get(label, 0)) for label in labels) + " |")
    court = [r for r in results if r.predictions.get("court") not in (None, "error")]
    if court:
        corrected = sum(r.corrected for r in court)
        assessed = sum(r.assessed for r in court)
        differs = sum(r.stance_differs for r in court)
        lines += ["", f"Verdict rule: corrected {corrected} of {len(court)} court verdicts "
                      f"({corrected / len(court):.0%}). Assessed passages: {assessed}, of which {differs} "
                      f"({differs / assessed if assessed else 0:.0%}) say something other than the side that found "
                      "them argues."]
    if any("court" in r.predictions for r in results):
        lines += ["", "Per trial", "", "| claim | gold | court | single | majority | rounds | switches | tokens | "
                  "evidence recall | rule corrected | assessed differs |", "| --- |" + " --- |" * 10]
        for r in results:
            lines.append(f"| {r.claim.id} | {r.claim.gold.value} | {r.predictions.get('court', '')} | "
                         f"{r.predictions.get('single', '')} | {r.predictions.get('majority', '')} | {r.rounds} | "
                         f"{r.switches} | {r.tokens.get('court', 0)} | {r.evidence_recall.get('court', 0):.2f} | "
                         f"{'yes' if r.corrected else 'no'} | {r.stance_differs}/{r.assessed} |")
    return "\n".join(lines)


def run_verdicts(config: AppConfig, corpus: Path, claims_path: Path, cache: Path, methods: Sequence[str],
                 sample: int | None, seed: int, min_rounds: int | None, max_rounds: int | None,
                 log: Callable[[str], None], on_result: Callable[[ClaimResult], None] | None = None) -> str:
    """`courtroom eval verdicts`: the corpus (a BEIR folder's corpus.jsonl) built into a library under ``cache`` (or
    reused), ``sample`` labelled claims of ``claims_path`` judged by each method with ``config``'s models, the
    court's trials stored under ``cache``; returns the Markdown report. ``log``: progress lines."""
    import asyncio

    from courtroom_desktop.core.court import Court, TrialStore
    from courtroom_desktop.core.eval.library import build_beir_library
    from courtroom_desktop.core.llm import ModelRouter
    from courtroom_desktop.core.retrieval import Retriever

    folder = corpus if corpus.is_dir() else corpus.parent
    if not (folder / "corpus.jsonl").exists():
        raise ConfigError(f"--corpus {corpus}: no corpus.jsonl there")
    log(f"building (or reusing) the corpus library in {cache} ...")
    library, seconds = build_beir_library(folder, cache / "library", config.library)
    store = TrialStore(cache / "trials.sqlite")
    try:
        log(f"library ready ({len(library.ready_ids())} documents, built in {seconds:.0f} s)")
        claims = load_claims(claims_path, sample or None, seed)
        settings = config.debate.model_copy(update={"min_rounds": 1}).with_rounds(min_rounds, max_rounds)
        retriever = Retriever(library, config.retrieval)
        router = ModelRouter(config.models)

        def court_factory() -> Court:
            return Court(router.for_role, retriever, store, settings, embed=library.embedder.encode,
                         covers=library.embedder.covers, k=settings.passages_per_turn)

        async def main() -> list[ClaimResult]:
            try:
                return await evaluate_verdicts(claims, court_factory=court_factory, retriever=retriever,
                                               judge_model=router.for_role("judge"), store=store, methods=methods,
                                               on_result=on_result)
            finally:
                await router.aclose()

        results = asyncio.run(main())
        labels = {role: f"{spec.provider}:{spec.model or 'bundled'}"
                  for role, spec in ((r, config.models.for_role(r)) for r in ("prosecution", "defense", "judge"))}
        return (f"Claims: {claims_path} (sample {len(claims)}, seed {seed}); models: {labels}; "
                f"rounds {settings.min_rounds}-{settings.max_rounds}\n\n" + format_report(results, methods))
    finally:
        store.close()
        library.close()
