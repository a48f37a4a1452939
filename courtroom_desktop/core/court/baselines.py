"""Baselines for evaluating the court with the same models and retriever:

- single-pass RAG: retrieve once with the claim, answer once;
- majority vote: several independent single-pass answers (each over a different ordering and subset of the
  retrieved passages), as many as fit in a given token budget, the most frequent label wins.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from courtroom_desktop.core.court import prompts
from courtroom_desktop.core.court.bench import ChatModel, Retriever
from courtroom_desktop.core.court.records import VerdictLabel
from courtroom_desktop.core.records import Evidence


class QuickVerdict(BaseModel):
    label: VerdictLabel = Field(description="supported, refuted, mixed, or insufficient evidence.")
    confidence: float = Field(ge=0.0, le=1.0)
    citations: list[str] = Field(default_factory=list, description="Evidence ids the answer rests on.")
    reason: str = Field("", description="One sentence.")


@dataclass
class BaselineResult:
    label: VerdictLabel
    confidence: float
    tokens: int
    doc_ids: list[str]
    votes: dict[str, int] | None = None


def _messages(claim: str, evidence: Sequence[Evidence], words: int = 60) -> prompts.Messages:
    block = "\n".join(
        f'<evidence id="E{i}" doc="{prompts.attribute(e.doc_title)[:80]}">{prompts.escape(prompts.excerpt(e.chunk.text, words))}'
        "</evidence>" for i, e in enumerate(evidence, start=1))
    return [
        {"role": "system", "content": "You check a claim against passages from documents. " + prompts.DATA_RULE},
        {"role": "user", "content": f"Claim: {claim}\n\nEvidence:\n{block or '(none found)'}\n\n"
                                    "Is the claim supported, refuted, mixed, or is the evidence insufficient?"},
    ]


async def single_pass(claim: str, retriever: Retriever, model: ChatModel, k: int = 6, scope: Any = None,
                      evidence: Sequence[Evidence] | None = None, max_tokens: int = 200) -> BaselineResult:
    found = evidence if evidence is not None else await retriever.asearch([claim], k=k, scope=scope)
    answer, usage = await model.structured(_messages(claim, found), QuickVerdict, max_tokens=max_tokens)
    return BaselineResult(answer.label, answer.confidence, usage.tokens_in + usage.tokens_out,
                          [e.chunk.doc_id for e in found])


async def majority_vote(claim: str, retriever: Retriever, model: ChatModel, token_budget: int, k: int = 6,
                        scope: Any = None,
                        max_votes: int = 15, seed: int = 0) -> BaselineResult:
    found = await retriever.asearch([claim], k=k, scope=scope)
    rng = random.Random(seed)
    votes: Counter[VerdictLabel] = Counter()
    confidences: dict[VerdictLabel, list[float]] = {}
    spent = 0
    while len(votes.values()) == 0 or (sum(votes.values()) < max_votes and spent < token_budget):
        subset = list(found)
        rng.shuffle(subset)
        subset = subset[: max(1, len(subset) - rng.randint(0, max(0, len(subset) // 3)))]
        result = await single_pass(claim, retriever, model, evidence=subset)
        votes[result.label] += 1
        confidences.setdefault(result.label, []).append(result.confidence)
        spent += result.tokens
        if spent >= token_budget:
            break
    label = max(votes, key=lambda lab: (votes[lab], sum(confidences[lab])))
    return BaselineResult(label, sum(confidences[label]) / len(confidences[label]), spent,
                          [e.chunk.doc_id for e in found], votes={k.value: v for k, v in votes.items()})
