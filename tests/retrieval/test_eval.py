"""Metrics arithmetic, the BEIR harness end to end on a tiny folder, tuning, and the search / eval commands."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from courtroom_desktop.cli import main
from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings
from courtroom_desktop.core.eval.beir import read_claims, read_split
from courtroom_desktop.core.eval.library import build_beir_library
from courtroom_desktop.core.eval.metrics import mean_metrics, mrr_at, ndcg_at, query_metrics, recall_at
from courtroom_desktop.core.eval.retrieval import EvalReport, evaluate
from courtroom_desktop.core.eval.tune import Grid, tune

from .labelled import DOCS, QUERIES


def test_tuning_fast_path_ranks_exactly_like_fuse():
    import random

    from courtroom_desktop.core.eval.tune import Prepared
    from courtroom_desktop.core.retrieval.fusion import BM25, VECTOR, Hit, RankedList, by_document, fuse

    rng = random.Random(5)
    for _ in range(30):
        pool = [f"d{rng.randrange(12)}-{i}" for i in range(40)]
        lists = [RankedList(method, "q", tuple(Hit(c, c.split("-")[0], round(rng.uniform(0, 10), 1))
                                               for c in sorted(rng.sample(pool, rng.randrange(0, 30)))))
                 for method in (BM25, VECTOR)]
        lists = [RankedList(r.method, r.query, tuple(sorted(r.hits, key=lambda h: -h.score))) for r in lists]
        prepared = Prepared(lists)
        for settings in (RetrievalSettings(fusion="rrf", rrf_k=5, bm25_weight=1.2, vector_weight=1, candidates=10),
                         RetrievalSettings(fusion="convex", score_normalisation="max", candidates=20),
                         RetrievalSettings(fusion="convex", score_normalisation="minmax", bm25_weight=0.3, candidates=15),
                         RetrievalSettings(fusion="convex", score_normalisation="dist", candidates=25)):
            expected = [d for d, _ in by_document(fuse([r.head(settings.candidates) for r in lists],
                                                       {BM25: settings.bm25_weight, VECTOR: settings.vector_weight},
                                                       settings.fusion, settings.rrf_k, normalisation=settings.score_normalisation))]
            assert prepared.ranking(settings) == expected


def test_metrics_arithmetic():
    relevant = {"a": 1, "b": 1}
    ranked = ["x", "a", "y", "b"]
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    assert ndcg_at(ranked, relevant, 10) == pytest.approx(dcg / (1 + 1 / math.log2(3)))
    assert ndcg_at(["a", "b"], relevant, 10) == pytest.approx(1.0)
    assert ndcg_at(ranked, relevant, 1) == 0.0
    assert ndcg_at(["a"], {"a": 2, "b": 1}, 10) == pytest.approx(2 / (2 + 1 / math.log2(3)))
    assert recall_at(ranked, relevant, 2) == 0.5 and recall_at(ranked, relevant, 10) == 1.0
    assert mrr_at(ranked, relevant, 10) == 0.5 and mrr_at(ranked, relevant, 1) == 0.0
    assert query_metrics(["a", "a", "b"], relevant)["ndcg@10"] == pytest.approx(1.0)  # a document counts once
    assert mean_metrics([{"ndcg@10": 1, "recall@10": 1, "recall@100": 1, "mrr@10": 1},
                         {"ndcg@10": 0, "recall@10": 0, "recall@100": 1, "mrr@10": 0.5}])["mrr@10"] == 0.75


@pytest.fixture(scope="module")
def beir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("beir")
    (folder / "qrels").mkdir()
    with (folder / "corpus.jsonl").open("w") as handle:
        for doc_id, title, _section, text in DOCS:
            handle.write(json.dumps({"_id": doc_id, "title": title, "text": text}) + "\n")
    test, train = QUERIES[::2], QUERIES[1::2]
    with (folder / "queries.jsonl").open("w") as handle:
        for index, (query, _) in enumerate(test):
            handle.write(json.dumps({"_id": f"q{index}", "text": query}) + "\n")
    with (folder / "qrels" / "test.tsv").open("w") as handle:
        handle.write("query-id\tcorpus-id\tscore\n")
        for index, (_, wanted) in enumerate(test):
            handle.write(f"q{index}\t{wanted}\t1\n")
    with (folder / "claims_train.jsonl").open("w") as handle:
        for index, (query, wanted) in enumerate(train):
            handle.write(json.dumps({"id": index, "claim": query, "cited_doc_ids": [wanted]}) + "\n")
        # as in SciFact, a test query that is also a training claim (with the same gold document), spaced differently
        handle.write(json.dumps({"id": 99, "claim": "  " + test[0][0].upper(), "cited_doc_ids": [test[0][1]]}) + "\n")
    return folder


def test_beir_reading(beir):
    split = read_split(beir, "test")
    assert len(split.queries) == 8 and split.qrels["q0"] == {"kx44": 1}
    assert len(split.limited(2).queries) == 2
    claims = read_claims(beir / "claims_train.jsonl")
    assert len(claims.queries) == 8 and claims.qrels["0"] == {"c2014": 1}
    kept, dropped = claims.without(split)
    assert dropped == ["99"] and len(kept.queries) == 7 and "99" not in kept.qrels


def test_harness_builds_a_cached_library_and_scores_every_system(beir, tmp_path, embedder):
    settings = LibrarySettings()
    library, seconds = build_beir_library(beir, tmp_path / "lib", settings, embedder)
    assert seconds > 0 and len(library.ready_ids()) == len(DOCS)
    chunk = library.doc_chunks("kx44")[0]
    assert chunk.section_path == "Compound KX-44" and chunk.text.startswith("KX-44")  # title as the section heading
    library.close()
    library, seconds = build_beir_library(beir, tmp_path / "lib", settings, embedder)
    assert seconds == 0.0  # reused
    split = read_split(beir, "test")
    systems = evaluate(library, split, RetrievalSettings(), rerankers=("mmr",))
    assert [s.name for s in systems] == ["bm25", "vector", "hybrid", "hybrid+mmr"]
    for system in systems:
        assert set(system.metrics) == {"ndcg@10", "recall@10", "recall@100", "mrr@10"}
        assert all(0 <= v <= 1 for v in system.metrics.values()) and len(system.per_query) == 8
    table = EvalReport("beir", "test", 8, len(DOCS), library.vectors.count(), RetrievalSettings(), systems).table()
    assert table.splitlines()[0].startswith("| system | ndcg@10") and "| hybrid+mmr |" in table
    result = tune(library, read_claims(beir / "claims_train.jsonl").without(split)[0], RetrievalSettings(),
                  Grid(field_boosts=((1.0, 1.0), (0.25, 0.25)), compound_phrases=(False,), rrf_k=(5, 60),
                       rrf_bm25_weight=(1.0,), convex_bm25_weight=(0.5,), candidates=(20,), normalisation=("max",)),
                  rounds=1)
    assert result.queries == 7 and len(result.trials) == 2 + 3
    assert result.best["ndcg@10"] >= max(t.ndcg for t in result.trials) - 1e-9
    library.close()


def test_eval_and_search_commands(beir, tmp_path, capsys):
    cache = tmp_path / "cache"
    code = main(["--data-dir", str(tmp_path / "data"), "eval", "retrieval", "--beir", str(beir), "--cache", str(cache),
                 "--set", "rrf_k=30", "--rerankers", "mmr"])
    out = capsys.readouterr().out
    assert code == 0, out
    for row in ("| bm25 |", "| vector |", "| hybrid |", "| hybrid+mmr |"):
        assert row in out
    assert "8 queries" in out
    code = main(["--data-dir", str(tmp_path / "data"), "eval", "retrieval", "--beir", str(beir), "--cache", str(cache),
                 "--json", "--tune-on", str(beir / "claims_train.jsonl"), "--rerankers"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and set(report["systems"]) == {"bm25", "vector", "hybrid"}
    assert report["tuned_on"]["queries"] == 7 and report["tuned_on"]["left_out"] == ["99"]
    assert main(["--data-dir", str(tmp_path / "data"), "eval", "retrieval", "--beir", str(tmp_path)]) == 2
    assert main(["eval", "retrieval", "--beir", str(beir), "--cache", str(cache), "--set", "rrf_k=-1"]) == 2
    assert "rrf_k" in capsys.readouterr().err

    # `courtroom search` over a library in the data folder
    from courtroom_desktop.core.library import Library
    from courtroom_desktop.core.library.read.text_docs import TextDocument

    library = Library.open(tmp_path / "data" / "library", LibrarySettings())
    library.add_text_documents([TextDocument(i, t, [(s, x)], path=f"/docs/{i}.pdf") for i, t, s, x in DOCS])
    library.close()
    data = ["--data-dir", str(tmp_path / "data")]
    assert main([*data, "search", "KX-44 liver enzymes", "--k", "2"]) == 0
    out = capsys.readouterr().out
    # documents added as text (a benchmark corpus) have no pages: '(text)', and no page in the JSON
    assert "Compound KX-44" in out and "(text)" in out and "p. 1" not in out and "Safety" in out
    assert out.index("KX-44") < out.index(" 2.")
    assert main([*data, "search", "septic shock", "IL-8", "--json", "--documents", "il8", "tnf"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert {f["doc_id"] for f in found} == {"il8", "tnf"} and found[0]["rank"] == 1 and found[0]["page"] is None
    assert found[0]["char_end"] > found[0]["char_start"] >= 0  # its character span is given instead
    assert main([*data, "search", "vemurafenib", "--section", "find", "--json"]) == 0
    assert {f["section"] for f in json.loads(capsys.readouterr().out)} == {"Findings"}
    assert main([*data, "search", "(((", "--json"]) == 0 and json.loads(capsys.readouterr().out) == []
    assert main([*data, "search", "x", "--k", "0"]) == 2


SCIFACT = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "scifact"


@pytest.mark.skipif(not (SCIFACT / "claims_train.jsonl").is_file(), reason="needs ../shared/data/scifact")
def test_scifacts_own_training_claims_lose_the_two_that_are_test_queries():
    kept, dropped = read_claims(SCIFACT / "claims_train.jsonl").without(read_split(SCIFACT, "test"))
    assert sorted(dropped) == ["1291", "871"] and len(kept.queries) == 807


def test_eval_verdicts_runs_a_trials_settings_unless_set(beir, tmp_path, capsys):
    """`courtroom eval verdicts` judges with the debate settings a trial in the app has (its rounds in the report's
    head), and --set changes one for the run; a bad key or value names itself. Break: force min_rounds 1 in
    run_verdicts (as it did), and the head says "rounds 1-..."."""
    from courtroom_desktop.core.config import DebateSettings

    claims = tmp_path / "claims.jsonl"
    claims.write_text("".join(json.dumps({"id": i, "claim": query, "label": "SUPPORT", "cited_doc_ids": [wanted]}) + "\n"
                              for i, (query, wanted) in enumerate(QUERIES[:2])), encoding="utf-8")
    base = ["--data-dir", str(tmp_path / "data"), "eval", "verdicts", "--claims", str(claims), "--corpus", str(beir),
            "--cache", str(tmp_path / "cache"), "--methods", "verifier", "--sample", "0"]
    trial = DebateSettings()
    assert main(base) == 0
    assert f"rounds {trial.min_rounds}-{trial.max_rounds};" in capsys.readouterr().out
    assert main([*base, "--set", "debate.min_rounds=2", "--set", "max_rounds=3"]) == 0
    assert "rounds 2-3;" in capsys.readouterr().out
    assert main([*base, "--set", "nonsense=1"]) == 2
    assert "nonsense" in capsys.readouterr().err
    assert main([*base, "--set", "max_switches=many"]) == 2
    assert "max_switches" in capsys.readouterr().err
