"""Cross-fitted folds of the verifier's SciFact training claims: a selection set of about 700 SciFact *train* claims
that the model reading them never trained on, instead of the 80 held out for calibration.

    python training/folds.py --data build/verifier-data

Writes, beside verifier_data.py's files:

- ``general.jsonl``: the training pairs from every source but SciFact (VitaminC, FEVER, SNLI);
- ``scifact-a.jsonl`` and ``scifact-b.jsonl``: the SciFact training pairs, split by claim into two folds;
- ``retrieved-a.jsonl`` and ``retrieved-b.jsonl`` (when retrieved_pairs.py has written ``retrieved.jsonl``): the
  pairs of the app's own search, split by the same claims.

A claim goes to fold a or b by a hash of its id and the seed, so every pair of one claim stays in one fold. The model
trained on general + fold a reads the claims of fold b, and the other way round (training/crossfit.py); the claims
held out for calibration (``calibration.jsonl``) are in neither fold. SciFact dev and Check-COVID are never read here.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter
from pathlib import Path


def fold_of(group: str, seed: int = 13) -> str:
    """'a' or 'b' for a claim's group ("scifact:<id>"), fixed by the seed."""
    digest = hashlib.sha256(f"{seed}:{group}".encode()).digest()
    return "a" if digest[0] % 2 == 0 else "b"


def read(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def write(path: Path, pairs: list[dict]) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for pair in pairs:
            handle.write(json.dumps(pair, ensure_ascii=False) + "\n")
    print(f"{path.name}: {len(pairs)} pairs, {len({p['group'] for p in pairs})} claims",
          dict(sorted(Counter(p["label"] for p in pairs).items())))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=Path("build/verifier-data"))
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args(argv)
    train = read(args.data / "train.jsonl")
    write(args.data / "general.jsonl", [p for p in train if not p["source"].startswith("scifact")])
    for name, source in (("scifact", train), ("retrieved", None)):
        if source is None:
            path = args.data / "retrieved.jsonl"
            if not path.exists():
                continue
            source = read(path)
        pairs = [p for p in source if p["source"].startswith("scifact")]
        for fold in ("a", "b"):
            write(args.data / f"{name}-{fold}.jsonl", [p for p in pairs if fold_of(p["group"], args.seed) == fold])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
