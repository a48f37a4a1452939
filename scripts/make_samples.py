"""Rebuild the sample library in resources/samples/ from SciFact abstracts.

    python scripts/make_samples.py [--scifact ../shared/data/scifact] [--out resources/samples]

Three topics, two PDFs each: every PDF gathers a few abstracts as numbered sections. The "A" PDF of each topic
has an outline; the "B" one has none, so its sections must be found from the headings' type.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # testkit/ sits beside scripts/

from testkit.pdfgen import DocSpec, SectionSpec, render_pdf  # noqa: E402

TOPICS = {
    "hiv-tuberculosis": {
        "title": "HIV, antiretroviral therapy and tuberculosis",
        "must": ["4883040", "13899137", "13901073", "17077004", "24241932", "22194407", "3475317"],
        "pattern": r"\b(antiretroviral|tuberculosis)\b",
    },
    "vitamin-d": {
        "title": "Vitamin D in pregnancy and bone health",
        "must": ["2425364", "16256507"],
        "pattern": r"\bvitamin D\b",
    },
    "obesity": {
        "title": "Obesity: causes and treatments",
        "must": ["7552215", "11360768", "597790", "13001323", "1180972"],
        "pattern": r"\bobesity\b",
    },
}
PER_TOPIC = 12
CLAIMS = [
    ("Antiretroviral therapy reduces rates of tuberculosis across a broad range of CD4 strata.", "SUPPORT"),
    ("Vitamin D deficiency is unrelated to birth weight.", "CONTRADICT"),
    ("Medications to treat obesity do not have side effects.", "CONTRADICT"),
    ("Having a main partner improves HIV outcomes.", "SUPPORT"),
]


def paragraphs(sentences: list[str], size: int = 3) -> list[str]:
    return [" ".join(sentences[i:i + size]) for i in range(0, len(sentences), size)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scifact", default=str(Path(__file__).resolve().parents[2] / "shared/data/scifact"))
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "resources/samples"))
    args = parser.parse_args()
    corpus = {}
    with open(Path(args.scifact) / "corpus.jsonl", encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            corpus[row["_id"]] = row
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    for slug, topic in TOPICS.items():
        chosen = [i for i in topic["must"] if i in corpus]
        pattern = re.compile(topic["pattern"], re.I)
        for doc_id, row in corpus.items():
            if len(chosen) >= PER_TOPIC:
                break
            if doc_id not in chosen and pattern.search(row["title"] + " " + row["text"]):
                chosen.append(doc_id)
        halves = {"a": chosen[0::2], "b": chosen[1::2]}
        for part, ids in halves.items():
            sections = [SectionSpec(1, "Introduction", [
                f"This dossier gathers {len(ids)} published abstracts on {topic['title'].lower()}. "
                "Each section reproduces one abstract; the claims a reader may test against them are listed "
                "in the sample library's README."])]
            for number, doc_id in enumerate(ids, start=1):
                row = corpus[doc_id]
                sentences = row.get("sentences") or [row["text"]]
                sections.append(SectionSpec(1, f"{number} {row['title'].strip().rstrip('.')}", paragraphs(sentences)))
            spec = DocSpec(
                title=f"{topic['title']} (dossier {part.upper()})", sections=sections, authors="SciFact abstracts",
                byline="Compiled from abstracts in the SciFact corpus (Wadden et al., 2020; ODC-By).",
            )
            name = f"{slug}-{part}.pdf"
            render_pdf(spec, out / name, outline=(part == "a"))
            manifest.append({"file": name, "topic": topic["title"], "outline": part == "a", "scifact_ids": ids})
            print(f"wrote {out / name} ({len(ids)} abstracts)")
    (out / "samples.json").write_text(json.dumps({
        "documents": manifest,
        "claims": [{"claim": c, "expected": label} for c, label in CLAIMS],
    }, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
