"""Ranking metrics at document level (binary or graded relevance), as BEIR reports them."""

from __future__ import annotations

import math
from collections.abc import Sequence

METRICS = ("ndcg@10", "recall@10", "recall@100", "mrr@10")


def ndcg_at(ranked: Sequence[str], relevant: dict[str, int], k: int) -> float:
    gains = [relevant.get(doc, 0) for doc in ranked[:k]]
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains) if g)
    ideal = sorted(relevant.values(), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal) if g)
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: Sequence[str], relevant: dict[str, int], k: int) -> float:
    wanted = {d for d, g in relevant.items() if g > 0}
    return len(wanted.intersection(ranked[:k])) / len(wanted) if wanted else 0.0


def mrr_at(ranked: Sequence[str], relevant: dict[str, int], k: int) -> float:
    for index, doc in enumerate(ranked[:k]):
        if relevant.get(doc, 0) > 0:
            return 1.0 / (index + 1)
    return 0.0


def query_metrics(ranked: Sequence[str], relevant: dict[str, int]) -> dict[str, float]:
    ranked = list(dict.fromkeys(ranked))  # a document counts once, at its best position
    return {"ndcg@10": ndcg_at(ranked, relevant, 10), "recall@10": recall_at(ranked, relevant, 10),
            "recall@100": recall_at(ranked, relevant, 100), "mrr@10": mrr_at(ranked, relevant, 10)}


def mean_metrics(per_query: Sequence[dict[str, float]]) -> dict[str, float]:
    if not per_query:
        return {m: 0.0 for m in METRICS}
    return {m: sum(q[m] for q in per_query) / len(per_query) for m in METRICS}
