"""The verifier's second stage of training data: SciFact train claims against the passages the app's own search
finds for them, labelled from SciFact's rationales. These are the pairs the verifier meets in use: chunks of the
library (not hand-cut windows), most of them on the claim's topic without deciding it (hard negatives).

    python training/retrieved_pairs.py --scifact ../shared/data/scifact --library build/eval-cache/scifact \
        --data build/verifier-data

For each claim of claims_train.jsonl, the top ``--k`` passages of the hybrid search (the app's Retriever over a
library built from SciFact's corpus by ``courtroom eval retrieval --cache``) become pairs:

- a passage of a document the claim has evidence in, holding one of the rationale's sentences: supports or refutes,
  as SciFact labels it;
- any other passage (another document; the right document away from its rationale; a cited document of an NEI
  claim): neither.

The claims held out for calibration by verifier_data.py (its calibration.jsonl) stay held out: their pairs go to
``retrieved-calibration.jsonl``, the rest to ``retrieved.jsonl``. SciFact dev is never read here.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

SUPPORTS, REFUTES, NEITHER = 0, 1, 2


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def label_of(passage: str, doc_id: str, claim: dict, corpus: dict[str, list[str]]) -> int:
    """The passage's label for the claim from SciFact's rationales (see the module's docstring)."""
    evidence = claim["evidence"].get(doc_id)
    if not evidence:
        return NEITHER
    sentences = corpus.get(doc_id, [])
    text = _norm(passage)
    inside = [i for i in evidence["sentences"] if i < len(sentences) and _norm(sentences[i])[:120] in text]
    if not inside:
        return NEITHER
    return SUPPORTS if evidence["label"] == "SUPPORT" else REFUTES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scifact", type=Path, required=True, help="SciFact in BEIR layout with claims_train.jsonl")
    parser.add_argument("--library", type=Path, required=True, help="a library built from SciFact's corpus")
    parser.add_argument("--data", type=Path, default=Path("build/verifier-data"),
                        help="verifier_data.py's output (its calibration.jsonl names the held-out claims)")
    parser.add_argument("--k", type=int, default=8)
    args = parser.parse_args(argv)

    from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings
    from courtroom_desktop.core.eval.library import build_beir_library
    from courtroom_desktop.core.retrieval import Retriever

    corpus: dict[str, list[str]] = {}
    with (args.scifact / "corpus.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            corpus[str(row["_id"])] = row["sentences"]
    with (args.scifact / "claims_train.jsonl").open(encoding="utf-8") as handle:
        claims = [json.loads(line) for line in handle]
    with (args.data / "calibration.jsonl").open(encoding="utf-8") as handle:
        held = {json.loads(line)["group"] for line in handle}
    library, _ = build_beir_library(args.scifact, args.library, LibrarySettings())
    retriever = Retriever(library, RetrievalSettings())
    out = {"retrieved": [], "retrieved-calibration": []}
    try:
        for claim in claims:
            group = f"scifact:{claim['id']}"
            for evidence in retriever.search([claim["claim"]], k=args.k):
                pair = {"claim": claim["claim"], "passage": evidence.chunk.text,
                        "label": label_of(evidence.chunk.text, evidence.chunk.doc_id, claim, corpus),
                        "source": "scifact-retrieved", "group": group}
                out["retrieved-calibration" if group in held else "retrieved"].append(pair)
    finally:
        library.close()
    for name, pairs in out.items():
        with (args.data / f"{name}.jsonl").open("w", encoding="utf-8") as handle:
            for pair in pairs:
                handle.write(json.dumps(pair, ensure_ascii=False) + "\n")
        print(f"{name}: {len(pairs)} pairs", dict(sorted(Counter(p["label"] for p in pairs).items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
