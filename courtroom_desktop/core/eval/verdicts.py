"""Verdict evaluation: the court against baselines with the same models, retriever and verifier, on labelled
claims, measured as the fact-checking papers measure.

Methods:
    verifier          retrieve once with the claim, score every passage with the claim verifier, the label rule
                      decides (core.court.scored): no chat model at all
    single            single-pass RAG: retrieve once with the claim, the judge's chat model answers once
    majority          independent single-pass answers at the trial's token budget, majority label
    court             the full trial (progressive retrieval, rulings, switches, the verdict held to the scores)
    court-fixed-sides the court with role switching off (max_switches 0): an ablation
    court-one-search  the court searching in round 1 only (search_every_round off): an ablation

Per method: accuracy and macro-F1 over the gold classes present with 95% bootstrap intervals, the expected calibration error
of its confidences, the gold-evidence recall of the passages it saw (the share of the claim's gold documents among
them), claims per minute, mean tokens and a confusion matrix. Per trial: rounds, switches, tokens and evidence recall.
For the court also: the judge's own label scored beside the verdict's, the share of verdicts the rules changed, and
the share of assessed passages whose assessed stance differs from the side that found them.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypedDict

from courtroom_desktop.core.config import AppConfig
from courtroom_desktop.core.court.baselines import majority_vote, single_pass
from courtroom_desktop.core.court.bench import Verifier
from courtroom_desktop.core.court.records import TrialEvent, TrialSpec, VerdictLabel
from courtroom_desktop.core.court.scored import decide, numbered
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.eval.labels import Interval, bootstrap, expected_calibration_error
from courtroom_desktop.core.llm.base import ChatModel
from courtroom_desktop.core.records import Evidence
from courtroom_desktop.core.retrieval.scope import Scope

GOLD = {"SUPPORT": VerdictLabel.supported, "CONTRADICT": VerdictLabel.refuted, "NEI": VerdictLabel.insufficient}
CLASSES = [VerdictLabel.supported, VerdictLabel.refuted, VerdictLabel.insufficient]
PREDICTED = [*CLASSES, VerdictLabel.mixed, "error"]
METHODS = ("verifier", "single", "court")
ALL_METHODS = ("verifier", "single", "majority", "court", "court-fixed-sides", "court-one-search")
#: the court's variants: the debate settings each changes
COURTS: dict[str, dict[str, Any]] = {"court": {}, "court-fixed-sides": {"max_switches": 0},
                                     "court-one-search": {"search_every_round": False}}


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
    accuracy_ci: Interval
    macro_f1_ci: Interval
    ece: float | None  # None when the method gave no confidences


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
    confidences: dict[str, float] = field(default_factory=dict)
    judge_labels: dict[str, str] = field(default_factory=dict)  # a court's: the judge's own label, before the rules
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


def scores(results: list[ClaimResult], method: str, judge: bool = False) -> Scores:
    """The figures of ``method`` over the claims it answered (``judge``: a court's judge's own labels instead)."""
    answered = [r for r in results if method in (r.judge_labels if judge else r.predictions)]
    gold = [r.claim.gold.value for r in answered]
    said = [(r.judge_labels if judge else r.predictions)[method] for r in answered]
    confusion = {g.value: {str(p if isinstance(p, str) else p.value): 0 for p in PREDICTED} for g in CLASSES}
    for g, p in zip(gold, said):
        confusion[g][p] = confusion[g].get(p, 0) + 1
    classes = [c.value for c in CLASSES if c.value in set(gold)]  # a set without NEI claims: two classes
    acc, f1 = bootstrap(gold, said, classes)
    sure = [r for r in answered if method in r.confidences] if not judge else []
    ece = (expected_calibration_error([r.confidences[method] for r in sure],
                                      [r.predictions[method] == r.claim.gold.value for r in sure])
           if sure and len(sure) == len(answered) else None)
    return {"n": len(answered), "accuracy": acc.value, "macro_f1": f1.value, "confusion": confusion,
            "accuracy_ci": acc, "macro_f1_ci": f1, "ece": ece}


async def verifier_verdict(claim: str, retriever: Searcher, verifier: Verifier, k: int = 6) -> tuple[str, float, list[str]]:
    """The verifier method: retrieve once with the claim, score every passage, decide by the label rule. (label,
    confidence, the documents of the passages seen)."""
    found = await retriever.asearch([claim], k=k)
    readings = await asyncio.to_thread(verifier.score, [(claim, e.chunk.text) for e in found])
    ruled = decide(claim, numbered([e.chunk.text for e in found], readings))
    return ruled.label.value, ruled.confidence, [e.chunk.doc_id for e in found]


async def evaluate_verdicts(claims: list[LabelledClaim], *, court_factory: Callable[[Mapping[str, Any]], CourtLike],
                            retriever: Searcher, judge_model: ChatModel | None, store: StoreLike,
                            verifier: Verifier | None = None, methods: Sequence[str] = METHODS, k: int = 6,
                            on_result: Callable[[ClaimResult], None] | None = None) -> list[ClaimResult]:
    """Run every method on every claim. ``court_factory(changes)`` gives a Court (fresh per claim) whose debate
    settings take ``changes`` (``COURTS``: the ablations); the baselines use ``judge_model``, ``retriever`` and
    ``verifier``; the majority vote spends the trial's tokens (or 4x a single pass)."""
    unknown = [m for m in methods if m not in ALL_METHODS]
    if unknown:
        raise ConfigError(f"--methods: {', '.join(unknown)} unknown; choose from {', '.join(ALL_METHODS)}")
    results = []
    for claim in claims:
        result = ClaimResult(claim)
        if "verifier" in methods:
            if verifier is None:
                raise ConfigError("the verifier method needs a claim verifier")
            began = time.perf_counter()
            label, confidence, docs = await verifier_verdict(claim.claim, retriever, verifier, k)
            result.predictions["verifier"], result.confidences["verifier"] = label, confidence
            result.tokens["verifier"] = 0
            result.evidence_recall["verifier"] = _recall(claim.gold_docs, set(docs))
            result.seconds["verifier"] = time.perf_counter() - began
        for method in (m for m in COURTS if m in methods):
            await _court(result, method, court_factory(COURTS[method]), store)
        if "single" in methods:
            began = time.perf_counter()
            try:
                assert judge_model is not None, "the single pass needs the judge's model"
                single = await single_pass(claim.claim, retriever, judge_model, k=k)
                result.predictions["single"] = single.label.value
                result.confidences["single"] = single.confidence
                result.tokens["single"] = single.tokens
                result.evidence_recall["single"] = _recall(claim.gold_docs, set(single.doc_ids))
            except Exception as exc:  # a failed answer is a wrong answer, reported
                result.predictions["single"], result.errors["single"] = "error", str(exc)
            result.seconds["single"] = time.perf_counter() - began
        if "majority" in methods:
            began = time.perf_counter()
            budget = result.tokens.get("court") or 4 * result.tokens.get("single", 1000)
            try:
                assert judge_model is not None, "the majority vote needs the judge's model"
                vote = await majority_vote(claim.claim, retriever, judge_model, token_budget=budget, k=k)
                result.predictions["majority"] = vote.label.value
                result.confidences["majority"] = vote.confidence
                result.tokens["majority"] = vote.tokens
                result.evidence_recall["majority"] = _recall(claim.gold_docs, set(vote.doc_ids))
            except Exception as exc:
                result.predictions["majority"], result.errors["majority"] = "error", str(exc)
            result.seconds["majority"] = time.perf_counter() - began
        results.append(result)
        if on_result:
            on_result(result)
    return results


async def _court(result: ClaimResult, method: str, court: CourtLike, store: StoreLike) -> None:
    began = time.perf_counter()
    trial_id = court.start(TrialSpec(claim=result.claim.claim))
    if method == "court":
        result.trial_id = trial_id
    async for _event in court.run(trial_id):
        pass
    state = TrialState.from_events(trial_id, store.spec(trial_id), store.events(trial_id))
    usage = state.usage()
    result.tokens[method] = usage.tokens_in + usage.tokens_out
    result.seconds[method] = time.perf_counter() - began
    if state.verdict is None:
        result.predictions[method] = "error"
        errors = [e.message for e in store.events(trial_id) if e.kind == "error"]
        result.errors[method] = errors[-1] if errors else "no verdict"
    else:
        verdict = state.verdict
        result.predictions[method] = verdict.label.value
        result.confidences[method] = verdict.confidence
        result.judge_labels[method] = (verdict.draft_label or verdict.label).value
        if method == "court":
            result.rounds, result.switches = verdict.rounds, verdict.switches
            result.corrected = verdict.corrected
    if method == "court":
        result.assessed, result.stance_differs = stance_agreement(state)
    result.evidence_recall[method] = _recall(result.claim.gold_docs, {e.evidence.chunk.doc_id for e in state.pool})


def _recall(gold: tuple[str, ...], found: set[str]) -> float:
    return sum(1 for d in gold if d in found) / len(gold) if gold else 1.0


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def format_report(results: list[ClaimResult], methods: Sequence[str] = METHODS) -> str:
    figures = {method: scores(results, method) for method in methods}  # each bootstrapped once
    lines = ["| method | claims | accuracy [95% CI] | macro-F1 [95% CI] | ECE | gold-evidence recall | claims/min | "
             "mean tokens |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for method, s in figures.items():
        if not s["n"]:
            continue
        seconds = sum(r.seconds.get(method, 0.0) for r in results if method in r.predictions)
        recall = _mean([r.evidence_recall[method] for r in results if method in r.evidence_recall])
        tokens = _mean([r.tokens[method] for r in results if method in r.tokens])
        ece = f"{s['ece']:.3f}" if s["ece"] is not None else "-"
        lines.append(f"| {method} | {s['n']} | {s['accuracy_ci']} | {s['macro_f1_ci']} | {ece} | {recall:.3f} | "
                     f"{60 * s['n'] / seconds if seconds else 0:.1f} | {tokens:,.0f} |")
    for method in (m for m in methods if m in COURTS):
        own = scores(results, method, judge=True)
        if own["n"]:
            lines.append(f"| {method}: the judge's own label | {own['n']} | {own['accuracy_ci']} | "
                         f"{own['macro_f1_ci']} | - | | | |")
    for method, s in figures.items():
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
    shown = [m for m in methods if any(m in r.predictions for r in results)]
    if any("court" in r.predictions for r in results):
        lines += ["", "Per claim", "", "| claim | gold | " + " | ".join(shown) + " | rounds | switches | tokens | "
                  "evidence recall | rule corrected | assessed differs |", "| --- |" + " --- |" * (len(shown) + 7)]
        for r in results:
            lines.append(f"| {r.claim.id} | {r.claim.gold.value} | "
                         + " | ".join(r.predictions.get(m, "") for m in shown)
                         + f" | {r.rounds} | {r.switches} | {r.tokens.get('court', 0)} | "
                         f"{r.evidence_recall.get('court', 0):.2f} | {'yes' if r.corrected else 'no'} | "
                         f"{r.stance_differs}/{r.assessed} |")
    return "\n".join(lines)


def run_verdicts(config: AppConfig, corpus: Path, claims_path: Path, cache: Path, methods: Sequence[str],
                 sample: int | None, seed: int, min_rounds: int | None, max_rounds: int | None,
                 log: Callable[[str], None], on_result: Callable[[ClaimResult], None] | None = None, k: int = 6) -> str:
    """`courtroom eval verdicts`: the corpus (a BEIR folder's corpus.jsonl) built into a library under ``cache`` (or
    reused), ``sample`` labelled claims of ``claims_path`` judged by each method with ``config``'s models, the
    court's trials stored under ``cache``; returns the Markdown report. ``log``: progress lines."""
    from courtroom_desktop.core.court import Court, TrialStore
    from courtroom_desktop.core.eval.library import build_beir_library
    from courtroom_desktop.core.llm import ModelRouter
    from courtroom_desktop.core.retrieval import Retriever
    from courtroom_desktop.core.verifier.scorer import ClaimVerifier

    unknown = [m for m in methods if m not in ALL_METHODS]
    if unknown:
        raise ConfigError(f"--methods: {', '.join(unknown)} unknown; choose from {', '.join(ALL_METHODS)}")
    folder = corpus if corpus.is_dir() else corpus.parent
    if not (folder / "corpus.jsonl").exists():
        raise ConfigError(f"--corpus {corpus}: no corpus.jsonl there")
    log(f"building (or reusing) the corpus library in {cache} ...")
    library, seconds = build_beir_library(folder, cache / "library", config.library)
    store = TrialStore(cache / "trials.sqlite")
    try:
        log(f"library ready ({len(library.ready_ids())} documents, built in {seconds:.0f} s)")
        claims = load_claims(claims_path, sample or None, seed)
        settings = config.debate.with_rounds(min_rounds, max_rounds)  # a trial's own settings unless told
        retriever = Retriever(library, config.retrieval)
        router = ModelRouter(config.models)
        verifier = ClaimVerifier()

        def court_factory(changes: Mapping[str, Any]) -> Court:
            changed = settings.model_copy(update=dict(changes))
            return Court(router.for_role, retriever, store, changed, embed=library.embedder.encode,
                         covers=library.embedder.covers, k=changed.passages_per_turn, verifier=verifier)

        async def main() -> list[ClaimResult]:
            try:
                judge = router.for_role("judge") if set(methods) - {"verifier"} else None
                return await evaluate_verdicts(claims, court_factory=court_factory, retriever=retriever,
                                               judge_model=judge, store=store, verifier=verifier, methods=methods,
                                               k=k, on_result=on_result)
            finally:
                await router.aclose()

        results = asyncio.run(main())
        labels = {role: f"{spec.provider}:{spec.model or 'bundled'}"
                  for role, spec in ((r, config.models.for_role(r)) for r in ("prosecution", "defense", "judge"))}
        return (f"Claims: {claims_path} (sample {len(claims)}, seed {seed}); models: {labels}; "
                f"rounds {settings.min_rounds}-{settings.max_rounds}; k {k}\n\n" + format_report(results, methods))
    finally:
        store.close()
        library.close()
