"""scripts/make_scifact_pdfs.py (the document set of bench/peers.py) on five documents: ligatures and line-end
hyphenation in the text layer, and the claims' cited documents among the PDFs. The benchmark itself is not run here."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

ROOT = Path(__file__).resolve().parents[1]
SCIFACT = ROOT.parent / "shared" / "data" / "scifact"
LIGATURES = "\ufb00\ufb01\ufb02\ufb03\ufb04"


@pytest.mark.skipif(not (SCIFACT / "claims_dev.jsonl").is_file(), reason="needs ../shared/data/scifact")
def test_five_scifact_abstracts_become_pdfs_with_ligatures_hyphens_and_their_claims(tmp_path):
    out = tmp_path / "set"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_scifact_pdfs.py"), str(out), "--docs", "5",
                           "--scifact", str(SCIFACT)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    pdfs = sorted((out / "pdfs").glob("*.pdf"))
    assert len(pdfs) == 5
    texts = {}
    for path in pdfs:
        with pymupdf.open(path) as doc:
            texts[path.stem] = "".join(page.get_text() for page in doc)  # PyMuPDF's default keeps ligatures
            assert doc.metadata["title"] and not any(c in doc.metadata["title"] for c in LIGATURES)
    every = "\n".join(texts.values())
    assert any(c in every for c in LIGATURES), "no ligature glyph in the text layer"
    assert re.search(r"[a-z\ufb00-\ufb04]{3,}-\n[a-z\ufb00-\ufb04]{3,}", every), "no line-end hyphenation"
    assert all(re.search(r"^1 (Background|Abstract)$", t, re.M) and "Journal article" in t
               for t in texts.values())  # sectioned, with a byline

    claims = [json.loads(line) for line in (out / "queries.jsonl").read_text().splitlines()]
    assert claims and all(set(c["relevant"]) <= set(texts) for c in claims)
    corpus_claims = {}
    for line in (SCIFACT / "claims_dev.jsonl").read_text().splitlines():
        row = json.loads(line)
        corpus_claims[str(row["id"])] = {str(d) for d in row["cited_doc_ids"]}
    first = claims[0]
    assert set(first["relevant"]) <= corpus_claims[first["id"]]  # really the documents that claim cites
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["documents"] == 5 and manifest["cited"] == 5
