"""Fusion arithmetic: weighted reciprocal rank fusion, convex fusion, multi-query fusion, document aggregation."""

from __future__ import annotations

import pytest

from courtroom_desktop.core.retrieval.fusion import BM25, VECTOR, Hit, RankedList, by_document, convex_fuse, fuse, normalised, weighted_rrf


def ranked(method: str, query: str, ids: list[str], scores: list[float] | None = None) -> RankedList:
    scores = scores or [float(len(ids) - i) for i in range(len(ids))]
    return RankedList(method, query, tuple(Hit(i, i.split("-")[0], s) for i, s in zip(ids, scores)))


def test_rrf_is_the_weighted_sum_of_reciprocal_ranks():
    lists = [ranked(BM25, "q", ["a-1", "b-1", "c-1"]), ranked(VECTOR, "q", ["c-1", "a-1"])]
    fused = weighted_rrf(lists, {BM25: 2.0, VECTOR: 1.0}, rrf_k=10)
    scores = {f.chunk_id: f.score for f in fused}
    assert scores["a-1"] == pytest.approx(2 / 11 + 1 / 12)
    assert scores["b-1"] == pytest.approx(2 / 12)
    assert scores["c-1"] == pytest.approx(2 / 13 + 1 / 11)
    assert [f.chunk_id for f in fused] == ["a-1", "c-1", "b-1"]
    a = next(f for f in fused if f.chunk_id == "a-1")
    assert a.ranks == {BM25: 1, VECTOR: 2} and a.scores == {BM25: 3.0, VECTOR: 1.0}


def test_weights_move_the_order_and_zero_weight_only_records():
    lists = [ranked(BM25, "q", ["a-1", "b-1"]), ranked(VECTOR, "q", ["b-1", "a-1"])]
    assert weighted_rrf(lists, {BM25: 1.0, VECTOR: 3.0})[0].chunk_id == "b-1"
    assert weighted_rrf(lists, {BM25: 3.0, VECTOR: 1.0})[0].chunk_id == "a-1"
    only_bm25 = weighted_rrf(lists, {BM25: 1.0, VECTOR: 0.0}, rrf_k=60)
    assert [f.chunk_id for f in only_bm25] == ["a-1", "b-1"]
    assert only_bm25[1].score == pytest.approx(1 / 62) and only_bm25[1].ranks[VECTOR] == 1


def test_rrf_k_flattens_or_sharpens_rank_differences():
    # one list puts x first and y tenth; the other puts y second and x nowhere
    lists = [ranked(BM25, "q", ["x-1"] + [f"f{i}-1" for i in range(8)] + ["y-1"]),
             ranked(VECTOR, "q", ["z-1", "y-1"])]
    sharp = [f.chunk_id for f in weighted_rrf(lists, {BM25: 1, VECTOR: 1}, rrf_k=1)]
    flat = [f.chunk_id for f in weighted_rrf(lists, {BM25: 1, VECTOR: 1}, rrf_k=100)]
    assert sharp.index("x-1") < sharp.index("y-1")  # 1/2 beats 1/11 + 1/3
    assert flat.index("y-1") < flat.index("x-1")    # agreement wins when ranks matter little


def test_depth_limits_each_list():
    lists = [ranked(BM25, "q", ["a-1", "b-1", "c-1"])]
    assert [f.chunk_id for f in weighted_rrf(lists, {BM25: 1}, depth=2)] == ["a-1", "b-1"]


def test_multi_query_fusion_counts_a_chunk_once_and_credits_the_queries():
    lists = [ranked(BM25, "first", ["a-1", "b-1"]), ranked(VECTOR, "first", ["a-1"]),
             ranked(BM25, "second", ["b-1", "c-1"]), ranked(VECTOR, "second", ["b-1", "a-1"])]
    fused = weighted_rrf(lists, {BM25: 1, VECTOR: 1}, rrf_k=60)
    assert sorted(f.chunk_id for f in fused) == ["a-1", "b-1", "c-1"]
    b = next(f for f in fused if f.chunk_id == "b-1")
    assert b.score == pytest.approx(1 / 62 + 1 / 61 + 1 / 61)
    assert b.query == "second" and set(b.by_query) == {"first", "second"}
    assert b.ranks == {BM25: 1, VECTOR: 1}   # best rank over the queries
    assert fused[0].chunk_id == "b-1"       # found by both queries, on top of one
    a = next(f for f in fused if f.chunk_id == "a-1")
    assert a.query == "first"


def test_convex_fusion_uses_normalised_scores():
    assert normalised([3.0, 2.0, 1.0], "minmax") == [1.0, 0.5, 0.0]
    assert normalised([5.0, 5.0], "minmax") == [1.0, 1.0]
    assert normalised([4.0, 2.0, 1.0]) == [1.0, 0.5, 0.25]                  # "max": divided by the best, floor 0
    assert normalised([0.5, -0.1]) == [1.0, 0.0]
    assert normalised([-0.2, -0.4]) == pytest.approx([1.0, 0.0])             # nothing positive: min-max
    with pytest.raises(ValueError):
        normalised([1.0], "zscore")
    lists = [ranked(BM25, "q", ["a-1", "b-1", "c-1"], [30.0, 20.0, 10.0]),
             ranked(VECTOR, "q", ["c-1", "b-1", "a-1"], [0.9, 0.8, 0.1])]
    fused = convex_fuse(lists, {BM25: 0.5, VECTOR: 1.0}, normalisation="minmax")
    scores = {f.chunk_id: f.score for f in fused}
    assert scores["a-1"] == pytest.approx(0.5 * 1.0 + 1.0 * 0.0)
    assert scores["b-1"] == pytest.approx(0.5 * 0.5 + 1.0 * 0.875)
    assert scores["c-1"] == pytest.approx(0.5 * 0.0 + 1.0 * 1.0)
    assert [f.chunk_id for f in fused] == ["b-1", "c-1", "a-1"]
    by_max = {f.chunk_id: f.score for f in convex_fuse(lists, {BM25: 0.5, VECTOR: 1.0})}
    assert by_max["a-1"] == pytest.approx(0.5 * 1.0 + 1.0 * 0.1 / 0.9)
    assert by_max["c-1"] == pytest.approx(0.5 * 10 / 30 + 1.0 * 1.0)
    assert fuse(lists, {BM25: 0.5, VECTOR: 1.0}, "convex", normalisation="minmax")[0].chunk_id == "b-1"
    with pytest.raises(ValueError):
        fuse(lists, {}, "borda")


def test_max_normalisation_does_not_punish_the_last_hit_of_a_short_list():
    # three near-equal BM25 hits: min-max gives the third 0, dividing by the best keeps it at 0.97
    lists = [ranked(BM25, "q", ["t-1", "x-1", "w-1"], [6.29, 6.12, 6.12]),
             ranked(VECTOR, "q", ["w-1", "x-1", "t-1"], [0.77, 0.74, 0.68])]
    assert fuse(lists, {BM25: 0.5, VECTOR: 0.5}, "convex")[0].chunk_id == "w-1"
    assert fuse(lists, {BM25: 0.5, VECTOR: 0.5}, "convex", normalisation="minmax")[0].chunk_id == "t-1"


def test_ties_break_deterministically_and_documents_take_their_best_chunk():
    lists = [ranked(BM25, "q", ["d1-a"]), ranked(VECTOR, "q", ["d2-a"])]
    first = [f.chunk_id for f in weighted_rrf(lists, {BM25: 1, VECTOR: 1})]
    assert first == [f.chunk_id for f in weighted_rrf(list(reversed(lists)), {BM25: 1, VECTOR: 1})]
    lists = [ranked(BM25, "q", ["d1-a", "d2-a", "d1-b"])]
    assert [d for d, _ in by_document(weighted_rrf(lists, {BM25: 1}))] == ["d1", "d2"]


def test_dist_normalisation_places_a_score_within_its_own_list():
    scores = [10.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0]
    mean, sd = 2.8, 2.4
    assert normalised(scores, "dist")[0] == pytest.approx(min(1.0, (10.0 - (mean - 3 * sd)) / (6 * sd)))
    assert normalised(scores, "dist")[1] == pytest.approx((2.0 - (mean - 3 * sd)) / (6 * sd))
    assert normalised([3.0, 3.0], "dist") == [1.0, 1.0] and normalised([0.4], "dist") == [1.0]
    assert all(0.0 <= v <= 1.0 for v in normalised([100.0, 1.0, 0.5, 0.4, 0.3], "dist"))


def test_with_dist_a_flat_list_lifts_its_head_less_than_a_list_whose_head_stands_out():
    # BM25 matches common words everywhere: its first hit barely beats the rest. The vector list's first hit stands
    # clear. Dividing by the best gives both heads 1.0 (a tie, broken by chunk id for BM25's); within their own
    # distributions the vector head is 1.0 and BM25's about 0.77: the standout hit comes first
    flat = [ranked(BM25, "q", [f"b{i}-1" for i in range(20)], [10.0 - 0.02 * i for i in range(20)])]
    peaked = [ranked(VECTOR, "q", [f"v{i}-1" for i in range(20)], [0.9] + [0.4 - 0.005 * i for i in range(1, 20)])]
    weights = {BM25: 0.5, VECTOR: 0.5}
    by_max = {f.chunk_id: f.score for f in fuse(flat + peaked, weights, "convex", normalisation="max")}
    by_dist = fuse(flat + peaked, weights, "convex", normalisation="dist")
    assert by_max["b0-1"] == pytest.approx(by_max["v0-1"])
    assert by_dist[0].chunk_id == "v0-1"
    scores = {f.chunk_id: f.score for f in by_dist}
    assert scores["v0-1"] == pytest.approx(0.5) and scores["b0-1"] == pytest.approx(0.5 * 0.77, abs=0.01)
