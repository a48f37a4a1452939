"""The verifier's third stage of training data: SciFact claims negated by rule, so that the model learns to read the
claim's direction against the passage instead of the topic alone.

SciFact's refuted claims were written by negating supported ones ("X increases Y" -> "X decreases Y", "... is not
..."), and SciFact train has about half as many refuting pairs as supporting ones; the second model called few
claims refuted. This script writes the same trick out as rules and applies it to the training pairs we already have:

- a SciFact pair that supports its claim, with the claim negated, refutes it, and the other way round;
- a pair that is neither stays neither when its claim is negated: "not" alone must not read as "refutes";
- the decided retrieved pairs (supports or refutes, found by the app's own search) are also written alone, so a stage
  can draw them more than once against the many "neither" pairs.

    python training/negated_pairs.py --data build/verifier-data

Only training pairs are read (``train.jsonl``, ``retrieved.jsonl``): the calibration claims stay held out and
SciFact dev is never read. Writes ``negated.jsonl`` and ``decided.jsonl`` into ``--data``.

    python training/negated_pairs.py --data build/verifier-data --folds

does the same for each cross-fitted fold (training/folds.py) apart, from ``scifact-<fold>.jsonl`` and
``retrieved-<fold>.jsonl``: ``negated-a.jsonl``, ``decided-a.jsonl``, ``negated-b.jsonl``, ``decided-b.jsonl``, so
that a fold model trains on its own fold's negated claims only and crossfit.py can judge the stage.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from pathlib import Path

SUPPORTS, REFUTES, NEITHER = 0, 1, 2

# opposite words, both ways; matched as whole words, first match wins (the claim's main verb is usually first)
_OPPOSITES = [
    ("increases", "decreases"), ("increased", "decreased"), ("increase", "decrease"), ("increasing", "decreasing"),
    ("upregulates", "downregulates"), ("upregulated", "downregulated"), ("upregulation", "downregulation"),
    ("up-regulates", "down-regulates"), ("up-regulated", "down-regulated"),
    ("higher", "lower"), ("more", "less"), ("greater", "smaller"), ("larger", "smaller"),
    ("promotes", "inhibits"), ("activates", "inhibits"), ("enhances", "impairs"), ("improves", "worsens"),
    ("improved", "worsened"), ("raises", "lowers"), ("elevated", "reduced"), ("elevates", "reduces"),
    ("positive", "negative"), ("positively", "negatively"), ("beneficial", "harmful"),
    ("accelerates", "slows"), ("induces", "suppresses"), ("stimulates", "suppresses"),
    ("gain", "loss"), ("before", "after"), ("above", "below"), ("high", "low"),
    ("reduces", "increases"), ("reduced", "increased"), ("reduction", "increase"), ("decline", "rise"),
]
_SWAP: dict[str, str] = {}
for _a, _b in _OPPOSITES:
    _SWAP.setdefault(_a, _b)
    _SWAP.setdefault(_b, _a)
_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")
# auxiliaries a "not" can follow or be taken from; the first one in the claim is negated
_AUX = re.compile(r"\b(is|are|was|were|can|could|may|might|will|would|should|has been|have been|does|do|did)\b")
_NOT = re.compile(r"\b(is|are|was|were|can|could|may|might|will|would|should|has|have|does|do|did) not\b")
_CANNOT = re.compile(r"\bcannot\b")
_NO = re.compile(r"\b(no|none of)\s")


def _match_case(word: str, like: str) -> str:
    return word.capitalize() if like[:1].isupper() else word


def negate(claim: str) -> str | None:
    """The claim said the other way, or None when no rule applies. Rules, the first that applies: an existing negation
    is taken out ("does not increase" -> "does increase"; "cannot" -> "can"); the first auxiliary is negated ("is" ->
    "is not"); the first word with an opposite is swapped ("increases" -> "decreases")."""
    text = claim.strip()
    found = _NOT.search(text)
    if found:
        return text[: found.start()] + found.group(1) + text[found.end():]
    found = _CANNOT.search(text)
    if found:
        return text[: found.start()] + "can" + text[found.end():]
    found = _AUX.search(text)
    if found:
        return text[: found.end()] + " not" + text[found.end():]
    for word in _WORD.finditer(text):
        other = _SWAP.get(word.group(0).lower())
        if other:
            return text[: word.start()] + _match_case(other, word.group(0)) + text[word.end():]
    found = _NO.search(text)
    if found:
        return None  # "no X does Y" has no safe rewrite by rule
    return None


def flipped(label: int) -> int:
    return {SUPPORTS: REFUTES, REFUTES: SUPPORTS}.get(label, NEITHER)


def negated_pairs(pairs: list[dict], rng: random.Random, neither: int) -> list[dict]:
    """Each decided SciFact pair with its claim negated and its label flipped, and ``neither`` of the SciFact
    "neither" pairs with their claims negated, still neither."""
    decided = [p for p in pairs if p["label"] != NEITHER]
    others = [p for p in pairs if p["label"] == NEITHER]
    out = []
    for pair in decided + rng.sample(others, min(neither, len(others))):
        claim = negate(pair["claim"])
        if claim is None or claim == pair["claim"]:
            continue
        out.append({**pair, "claim": claim, "label": flipped(pair["label"]), "source": pair["source"] + "-negated"})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("build/verifier-data"))
    parser.add_argument("--neither", type=int, default=1500, help="negated 'neither' pairs to draw (default 1500)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--folds", action="store_true",
                        help="write each cross-fitted fold's negated and decided pairs apart (with --neither halved)")
    args = parser.parse_args(argv)

    def read(name: str) -> list[dict]:
        with (args.data / name).open(encoding="utf-8") as handle:
            return [json.loads(line) for line in handle]

    out: dict[str, list[dict]] = {}
    if args.folds:
        for fold in ("a", "b"):
            retrieved = read(f"retrieved-{fold}.jsonl")
            scifact = read(f"scifact-{fold}.jsonl")
            out[f"negated-{fold}"] = negated_pairs(scifact + retrieved, random.Random(args.seed), args.neither // 2)
            out[f"decided-{fold}"] = [p for p in retrieved if p["label"] != NEITHER]
    else:
        retrieved = read("retrieved.jsonl")
        scifact = [p for p in read("train.jsonl") if p["source"] in ("scifact", "scifact-rationale", "scifact-away")]
        out["negated"] = negated_pairs(retrieved + scifact, random.Random(args.seed), args.neither)
        out["decided"] = [p for p in retrieved if p["label"] != NEITHER]
    for name, rows in out.items():
        with (args.data / f"{name}.jsonl").open("w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"{name}: {len(rows)} pairs", dict(sorted(Counter(p["label"] for p in rows).items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
