"""bench/peers.py's latency stores on 20 passages: its stand-in embedder (SharedVectors) must still be what the
library asks of an embedder, every passage must get its shared vector (none cut differently by the chunker), and a
query must find the passage whose vector it is. The benchmark itself is not run here (docs/performance.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import peers  # noqa: E402

from courtroom_desktop.core.config import RetrievalSettings  # noqa: E402
from courtroom_desktop.core.retrieval import Retriever  # noqa: E402

TOPICS = ["vitamin D in pregnancy", "antiretroviral therapy", "statins after infarction", "sleep and memory",
          "obesity surgery", "malaria vaccines", "smoking cessation", "hip fractures", "asthma inhalers",
          "influenza antivirals"]


def passages() -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(5)
    out = []
    for index in range(20):
        topic = TOPICS[index % len(TOPICS)]
        text = (f"Study {index} examined {topic} in a cohort of {100 + index} adults. " * 4
                + f"The trial number {index} reported outcomes on {topic} after follow-up.")
        vector = rng.normal(size=384).astype(np.float32)
        out.append((text, vector / np.linalg.norm(vector)))
    return out


def test_latency_stores_take_the_shared_vectors_and_find_a_passage_by_its_own_vector(tmp_path):
    pairs = passages()
    target_text, target_vector = pairs[13]

    def real_query(texts):  # stands in for the model: every query is passage 13's vector
        return np.stack([target_vector] * len(texts))

    embedder = SimpleNamespace(encode=real_query, name="all-MiniLM-L6-v2")
    embeddings = SimpleNamespace(embed_documents=lambda texts: real_query(texts).tolist())
    library, shared, store, figures = peers.build_latency_stores(pairs, tmp_path, embedder, embeddings)
    try:
        assert figures["ours_chunks"] == 20 and figures["recipe_chunks"] == 20
        assert figures["ours_vector_misses"] == 0  # every chunk got its passage's vector, none a random one
        found = Retriever(library, RetrievalSettings(bm25_weight=0.0)).search("which study was it?", k=3)
        assert found and found[0].chunk.text == target_text
        recipe = store.similarity_search("which study was it?", k=1)
        assert recipe[0].page_content == target_text
    finally:
        library.close()
