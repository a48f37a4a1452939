"""BEIR-layout data sets: corpus.jsonl, queries.jsonl, qrels/<split>.tsv, and SciFact-style claims files
(claims_train.jsonl with ``cited_doc_ids``) as extra relevance judgements for tuning."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from courtroom_desktop.core.errors import ConfigError

Qrels = dict[str, dict[str, int]]  # query id -> {doc id: relevance}


@dataclass(frozen=True)
class CorpusDoc:
    id: str
    title: str
    text: str


@dataclass(frozen=True)
class QuerySet:
    """Queries with their judgements; only queries that have at least one relevant document."""

    name: str
    queries: dict[str, str]
    qrels: Qrels

    def without(self, other: QuerySet) -> tuple[QuerySet, list[str]]:
        """These queries minus those whose text is also a query of ``other`` (case and spacing aside), and the ids
        dropped: tuning on a query that is also scored would report a tuned-on-test figure (two of SciFact's test
        claims are in claims_train.jsonl, with the same gold abstract)."""
        scored = {" ".join(q.casefold().split()) for q in other.queries.values()}
        dropped = [i for i, q in self.queries.items() if " ".join(q.casefold().split()) in scored]
        kept = {i: q for i, q in self.queries.items() if i not in dropped}
        return QuerySet(self.name, kept, {i: self.qrels[i] for i in kept}), dropped

    def limited(self, limit: int | None) -> QuerySet:
        if not limit:
            return self
        ids = list(self.queries)[:limit]
        return QuerySet(self.name, {i: self.queries[i] for i in ids}, {i: self.qrels[i] for i in ids})


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    if not path.exists():
        raise ConfigError(f"{path}: not found (a BEIR folder holds corpus.jsonl, queries.jsonl and qrels/)")
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise ConfigError(f"{path}:{number}: not JSON ({exc})") from exc


def read_corpus(folder: Path) -> Iterator[CorpusDoc]:
    for row in _jsonl(Path(folder) / "corpus.jsonl"):
        yield CorpusDoc(str(row["_id"]), (row.get("title") or "").strip(), (row.get("text") or "").strip())


def read_qrels(path: Path) -> Qrels:
    if not path.exists():
        raise ConfigError(f"{path}: no relevance judgements for this split")
    qrels: Qrels = {}
    with path.open(encoding="utf-8") as handle:
        reader = csv.reader(handle, delimiter="\t")
        for row in reader:
            if len(row) < 3 or row[0] in ("query-id", "query_id"):
                continue
            qid, did, score = row[0], row[1], int(float(row[2]))
            if score > 0:
                qrels.setdefault(qid, {})[did] = score
    return qrels


def read_split(folder: Path, split: str = "test") -> QuerySet:
    folder = Path(folder)
    qrels = read_qrels(folder / "qrels" / f"{split}.tsv")
    texts = {str(r["_id"]): r.get("text", "") for r in _jsonl(folder / "queries.jsonl")}
    queries = {qid: texts[qid] for qid in qrels if qid in texts}
    return QuerySet(split, queries, {qid: qrels[qid] for qid in queries})


def read_claims(path: Path) -> QuerySet:
    """SciFact claims (``id``, ``claim``, ``cited_doc_ids``) as queries judged by the abstracts they cite."""
    queries: dict[str, str] = {}
    qrels: Qrels = {}
    for row in _jsonl(Path(path)):
        cited = [str(d) for d in row.get("cited_doc_ids") or []]
        if not cited:
            continue
        qid = str(row["id"])
        queries[qid] = row["claim"]
        qrels[qid] = {d: 1 for d in cited}
    return QuerySet(Path(path).stem, queries, qrels)
