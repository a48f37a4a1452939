"""The Chinese sample library (resources/samples-zh): `courtroom search` in Chinese puts the passage that answers
first, and passage-level evaluation runs on the labelled Chinese set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from courtroom_desktop.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "resources" / "samples-zh"
# queries a user would type, each with a phrase of the passage that answers it
SEARCHES = [
    ("角色切换的条件是什么", "角色切换"),
    ("证据池的字段包括哪些", "evidence_snippet"),
    ("Phi-3-mini 和 GPT-4 比较结果", "GPT-4"),
    ("倒数排名融合", "Reciprocal"),
    ("辩论成本是单次回答的几倍", "3-6倍"),
    ("进程重启以后审议怎样接着进行", "断点"),
]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("zh-data")
    assert main(["--data-dir", str(folder), "ingest", "--quiet", str(SAMPLES)]) == 0
    return folder


def _rank_of(hits, phrase):
    """1-based rank of the first hit whose text or heading holds the phrase (a heading names what its section
    answers), or None."""
    for hit in hits:
        seen = (hit["text"] + " " + (hit.get("section") or "")).replace(" ", "").replace("\n", "")
        if phrase.replace(" ", "") in seen:
            return hit["rank"]
    return None


def test_chinese_search_puts_the_answering_passage_at_the_top(data_dir, capsys):
    ranks = {}
    for query, phrase in SEARCHES:
        assert main(["--data-dir", str(data_dir), "search", query, "--k", "3", "--json"]) == 0
        ranks[query] = _rank_of(json.loads(capsys.readouterr().out), phrase)
    # every answer in the top three, and nearly all first (the Phi-3-mini comparison is second, after the set-up
    # step that also names phi-3-mini)
    assert all(rank is not None for rank in ranks.values()), ranks
    assert sum(rank == 1 for rank in ranks.values()) >= len(SEARCHES) - 1, ranks


def test_passage_evaluation_on_the_labelled_chinese_set(data_dir, capsys):
    code = main(["--data-dir", str(data_dir), "eval", "passages", "--pdfs", str(SAMPLES), "--queries",
                 str(ROOT / "tests" / "retrieval" / "data" / "zh_queries.jsonl"), "--cache",
                 str(data_dir / "library"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["queries"] >= 40
    systems = report["systems"]
    # BM25 carries Chinese (segmented words); the English-only bundled embedder barely helps; hybrid leans on BM25
    assert systems["bm25"]["ndcg@10"] > 0.5 and systems["vector"]["ndcg@10"] < 0.2
    assert systems["hybrid"]["ndcg@10"] >= systems["bm25"]["ndcg@10"] - 0.02


def test_the_character_back_off_ranks_better_on_queries_written_apart_from_its_tuning(data_dir, monkeypatch):
    """GRAMS_WEIGHT was chosen on zh_queries.jsonl; zh_queries_heldout.jsonl (40 queries written by someone who saw
    neither the tuning list nor the retrieval code) is where it is judged: hybrid ranks better with the back-off than
    without it on both, and puts the answering passage first for most held-out queries."""
    from courtroom_desktop.core.config import RetrievalSettings
    from courtroom_desktop.core.eval.passages import evaluate_passages, read_labelled
    from courtroom_desktop.core.library import Library
    from courtroom_desktop.core.retrieval import query as query_module

    data = ROOT / "tests" / "retrieval" / "data"
    library = Library.open(data_dir / "library")
    try:
        def hybrid(name):
            systems = evaluate_passages(library, read_labelled(data / name), RetrievalSettings())
            return next(s.metrics for s in systems if s.name == "hybrid")

        with_back_off = {name: hybrid(name) for name in ("zh_queries.jsonl", "zh_queries_heldout.jsonl")}
        monkeypatch.setattr(query_module, "han_grams", lambda text: [])
        without = {name: hybrid(name) for name in with_back_off}
    finally:
        library.close()
    for name in with_back_off:
        assert with_back_off[name]["ndcg@10"] > without[name]["ndcg@10"], (name, with_back_off, without)
    assert with_back_off["zh_queries_heldout.jsonl"]["hit@1"] >= 0.65, with_back_off
