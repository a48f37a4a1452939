"""The verifier reranker (retrieval.reranker = "verifier"): the bundled claim verifier reads each candidate against
its query and the head of the fused list is reordered by its relevance (supports + refutes), ties kept in the fused
order, the best k returned; one verifier, built on first use, serves every such reranker."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from courtroom_desktop.core.config import RetrievalSettings
from courtroom_desktop.core.lazy import LazyModel
from courtroom_desktop.core.retrieval import rerank
from courtroom_desktop.core.retrieval.rerank import Candidate, VerifierReranker, make_reranker

CLAIM = "Smoking causes lung cancer."


def _candidates(query: str, texts: list[str]) -> list[Candidate]:
    # fused order: the first is the best fused; fused scores fall along the list
    return [Candidate(id=f"c{i}", query=query, text=t, relevance=1.0 - i / 10) for i, t in enumerate(texts)]


@dataclass(frozen=True)
class _Reading:
    relevance: float


class _StubVerifier:
    """Relevance by passage text; records what it was asked."""

    def __init__(self, relevance: dict[str, float]):
        self.relevance = relevance
        self.asked: list[list[tuple[str, str]]] = []

    def score(self, pairs):
        self.asked.append(list(pairs))
        return [_Reading(self.relevance[passage]) for _, passage in pairs]


def test_make_reranker_offers_the_verifier_by_name():
    for spec in ("verifier", " Verifier "):
        reranker = make_reranker(spec)
        assert isinstance(reranker, VerifierReranker)
        assert reranker.name == "verifier"
    assert RetrievalSettings(reranker="verifier").reranker == "verifier"


def test_the_supporting_passage_comes_first_with_the_real_verifier():
    candidates = _candidates(CLAIM, [
        "The museum's new wing opened to visitors in May, with a gallery of Dutch landscapes.",
        "Tomato plants need six to eight hours of direct sunlight a day and regular watering.",
        "Cohort studies show that smokers have a fifteen- to thirty-fold higher risk of lung cancer than "
        "non-smokers; tobacco smoke is the leading cause of lung cancer.",
    ])
    ranked = VerifierReranker().rerank(candidates, 3)
    assert [cid for cid, _ in ranked][0] == "c2"
    assert len(ranked) == 3
    scores = [score for _, score in ranked]
    assert scores == sorted(scores, reverse=True)
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert scores[0] > 0.9 and scores[0] > scores[1] + 0.1
    # (the verifier is no topic detector: the tomato passage reads as 0.62 "refutes", relevance 0.77; the museum 0.43)


def test_scores_are_the_verifiers_relevance_and_k_is_respected():
    stub = _StubVerifier({"a": 0.1, "b": 0.9, "c": 0.5, "d": 0.7})
    candidates = _candidates("q", ["a", "b", "c", "d"])
    ranked = VerifierReranker(stub).rerank(candidates, 2)
    assert ranked == [("c1", 0.9), ("c3", 0.7)]
    assert stub.asked == [[("q", "a"), ("q", "b"), ("q", "c"), ("q", "d")]]  # every candidate read, with its query
    assert [cid for cid, _ in VerifierReranker(stub).rerank(candidates, 10)] == ["c1", "c3", "c2", "c0"]
    assert VerifierReranker(stub).rerank(candidates, 0) == []
    assert VerifierReranker(stub).rerank([], 5) == []


def test_ties_keep_the_fused_order():
    stub = _StubVerifier({"a": 0.4, "b": 0.8, "c": 0.4, "d": 0.8, "e": 0.4})
    ranked = VerifierReranker(stub).rerank(_candidates("q", ["a", "b", "c", "d", "e"]), 5)
    assert [cid for cid, _ in ranked] == ["c1", "c3", "c0", "c2", "c4"]


def test_each_candidate_is_read_against_its_own_query():
    stub = _StubVerifier({"x": 0.2, "y": 0.6})
    candidates = [Candidate("c0", "first query", "x", 0.9), Candidate("c1", "second query", "y", 0.8)]
    assert [cid for cid, _ in VerifierReranker(stub).rerank(candidates, 2)] == ["c1", "c0"]
    assert stub.asked == [[("first query", "x"), ("second query", "y")]]


def test_one_verifier_built_on_first_use_and_shared(monkeypatch):
    built = []

    def build():
        built.append(_StubVerifier({"a": 0.3, "b": 0.6}))
        return built[-1]

    monkeypatch.setattr(rerank, "_SHARED_VERIFIER", LazyModel(build))
    first, second = make_reranker("verifier"), make_reranker("verifier")
    assert built == []  # making the rerankers builds nothing
    candidates = _candidates("q", ["a", "b"])
    assert [cid for cid, _ in first.rerank(candidates, 2)] == ["c1", "c0"]
    assert [cid for cid, _ in second.rerank(candidates, 2)] == ["c1", "c0"]
    assert len(built) == 1 and len(built[0].asked) == 2


@pytest.mark.parametrize("spec", ["none", "", "mmr"])
def test_the_other_names_still_mean_what_they_did(spec):
    reranker = make_reranker(spec)
    assert reranker is None if spec in ("none", "") else reranker.name == "mmr"
