"""Read SciFact train claims with the cross-fitted verifiers and compare claim-level rules on them: a selection set of
about 700 claims that each reading model never trained on (training/folds.py), instead of the 80 held out for
calibration.

    python training/crossfit.py retrieve --scifact ../shared/data/scifact --library build/eval-cache/scifact
    python training/crossfit.py score --model build/verifier-a --fold b
    python training/crossfit.py score --model build/verifier-b --fold a
    python training/crossfit.py compare

``score --windows`` also reads the first passages by their runs of two sentences (tried, not shipped: docs/verifier.md).

``retrieve`` finds each train claim's top ``--k`` passages with the app's own hybrid search (as ``courtroom eval
verdicts --methods verifier`` does for dev claims) and keeps them in ``DATA/crossfit-passages.jsonl``. ``score`` reads
one fold's claims with the model trained on the other fold (and on every other source), each passage against the
claim and, where a rule can say it the other way (training/negated_pairs.py's ``negate``), against the claim negated.
``compare`` prints, over both folds' claims, the label rule at each pair of thresholds (supports, refutes) and
passage count, with and without the negated reading folded in, and a learned claim-level rule (a softmax regression
over the readings, fitted on one fold and read on the other); then the claim-level calibration of the rule as
shipped. SciFact dev and Check-COVID are never read here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from courtroom_desktop.core.court.scored import Scored

sys.path.insert(0, str(Path(__file__).resolve().parent))

from folds import fold_of  # noqa: E402
from negated_pairs import negate  # noqa: E402
from tune_rule import fit_claim_calibration  # noqa: E402

GOLD = {"SUPPORT": "supported", "CONTRADICT": "refuted", "NEI": "insufficient evidence"}


def gold_label(row: dict) -> str | None:
    labels = {ev["label"] for ev in row["evidence"].values()}
    if not labels:
        return GOLD["NEI"]
    return GOLD[labels.pop()] if len(labels) == 1 else None


def retrieve(args: argparse.Namespace) -> int:
    from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings
    from courtroom_desktop.core.eval.library import build_beir_library
    from courtroom_desktop.core.retrieval import Retriever

    with (args.data / "calibration.jsonl").open(encoding="utf-8") as handle:
        held = {json.loads(line)["group"] for line in handle}
    library, _ = build_beir_library(args.scifact, args.library, LibrarySettings())
    out = args.data / "crossfit-passages.jsonl"
    try:
        retriever = Retriever(library, RetrievalSettings())
        with (args.scifact / "claims_train.jsonl").open(encoding="utf-8") as source, \
                out.open("w", encoding="utf-8") as sink:
            for line in source:
                row = json.loads(line)
                group, gold = f"scifact:{row['id']}", gold_label(row)
                if gold is None:
                    continue
                fold = "calibration" if group in held else fold_of(group, args.seed)
                found = retriever.search([row["claim"]], k=args.k)
                sink.write(json.dumps({"group": group, "fold": fold, "claim": row["claim"], "gold": gold,
                                       "passages": [e.chunk.text for e in found]}, ensure_ascii=False) + "\n")
    finally:
        library.close()
    print(f"wrote {out}")
    return 0


def score(args: argparse.Namespace) -> int:
    from courtroom_desktop.core.verifier.scorer import ClaimVerifier

    verifier = ClaimVerifier(args.model)
    rows = [json.loads(line) for line in (args.data / "crossfit-passages.jsonl").open(encoding="utf-8")]
    rows = [r for r in rows if r["fold"] == args.fold]
    out = args.data / f"crossfit-scores-{args.fold}.jsonl"
    with out.open("w", encoding="utf-8") as sink:
        for row in rows:
            readings = verifier.score([(row["claim"], p) for p in row["passages"]])
            other = negate(row["claim"])
            negated = verifier.score([(other, p) for p in row["passages"]]) if other else []
            kept = {"model": str(args.model), "negated_claim": other,
                    "readings": [[r.supports, r.refutes, r.neither] for r in readings],
                    "negated": [[r.supports, r.refutes, r.neither] for r in negated]}
            if args.windows:
                spans = [windows(p) for p in row["passages"][:WINDOWED]]
                flat = verifier.score([(row["claim"], w) for span in spans for w in span])
                within, at = [], 0
                for span in spans:
                    within.append([[r.supports, r.refutes, r.neither] for r in flat[at:at + len(span)]])
                    at += len(span)
                kept["windows"] = within
            sink.write(json.dumps({**row, **kept}, ensure_ascii=False) + "\n")
    print(f"wrote {out}: {len(rows)} claims")
    return 0


WINDOWED = 6  # the passages whose sentence windows are read as well (score)


def windows(passage: str, size: int = 2) -> list[str]:
    """A passage's runs of ``size`` consecutive sentences (the passage itself when it has no more than ``size``): the
    rationale-sized pieces the verifier was also trained on, read so that one deciding sentence is not drowned out by
    the rest of its chunk."""
    from courtroom_desktop.core.text import join_sentences, sentence_spans

    parts = [passage[a:b] for a, b in sentence_spans(passage)]
    if len(parts) <= size:
        return [passage]
    return [join_sentences(parts[i:i + size]) for i in range(len(parts) - size + 1)]


def sharpest(whole: Sequence[float], pieces: Sequence[Sequence[float]]) -> list[float]:
    """A passage's reading taken from its most decided piece (the whole passage counts as one): the reading whose
    supports or refutes is the highest."""
    return list(max([whole, *pieces], key=lambda r: max(r[0], r[1])))


def folded(reading: Sequence[float], negated: Sequence[float] | None, weight: float) -> list[float]:
    """A reading with the negated claim's folded in: what refutes the negated claim supports the claim."""
    if negated is None or weight == 0:
        return list(reading)
    s = (1 - weight) * reading[0] + weight * negated[1]
    r = (1 - weight) * reading[1] + weight * negated[0]
    return [s, r, max(0.0, 1.0 - s - r)]


def features(readings: Sequence[Sequence[float]]) -> list[float]:
    """What a learned claim-level rule reads of a claim's passages: the best supports and refutes readings, the best
    margin either way, the mean of the three most relevant, how many lean each way, and the top passage's reading."""
    import numpy as np

    x = np.asarray(readings, dtype=float).reshape(-1, 3)
    if not len(x):
        return [0.0] * 10
    order = np.argsort(-(x[:, 0] + x[:, 1]))[:3]
    return [x[:, 0].max(), x[:, 1].max(), (x[:, 0] - x[:, 1]).max(), (x[:, 1] - x[:, 0]).max(),
            x[order, 0].mean(), x[order, 1].mean(), float((x[:, 0] > 0.5).sum()), float((x[:, 1] > 0.5).sum()),
            x[0, 0], x[0, 1]]


def softmax_fit(x, y, classes: int, l2: float = 1e-2, steps: int = 3000, balanced: bool = True):  # type: ignore[no-untyped-def]
    """Multinomial logistic regression by gradient descent (numpy; standardised inputs): (mean, scale, W, b)."""
    import numpy as np

    mean, scale = x.mean(0), x.std(0) + 1e-6
    z = (x - mean) / scale
    w, b = np.zeros((z.shape[1], classes)), np.zeros(classes)
    counts = np.bincount(y, minlength=classes).astype(float)
    weight = (len(y) / (classes * np.maximum(counts, 1)))[y] if balanced else np.ones(len(y))
    target = np.eye(classes)[y]
    for _ in range(steps):
        logits = z @ w + b
        logits -= logits.max(1, keepdims=True)
        prob = np.exp(logits)
        prob /= prob.sum(1, keepdims=True)
        grad = (prob - target) * weight[:, None] / weight.sum()
        w -= 0.5 * (z.T @ grad + l2 * w)
        b -= 0.5 * grad.sum(0)
    return mean, scale, w, b


def calibrate(rows: list[dict], gold: list[str]) -> None:
    """The claim-level calibration (``core.court.scored.CLAIM_CALIBRATION``) of the rule as shipped (its thresholds
    and passage count), fitted on these claims (tune_rule.py's ``fit_claim_calibration``)."""
    from courtroom_desktop.core.court import scored

    ruled = [scored.decide(row["claim"], scored_passages(row, len(row["readings"]), 0.0), insufficient_cap=1.0,
                           calibration=(1.0, 0.0)) for row in rows]
    right = [r.label.value == g for r, g in zip(ruled, gold)]
    a, b, loss, ece = fit_claim_calibration([r.confidence for r in ruled], right)
    print(f"the rule as shipped (VERIFIER_BACKS {scored.VERIFIER_BACKS}, {scored.RULE_PASSAGES} passages): right on "
          f"{sum(right) / len(right):.3f}; CLAIM_CALIBRATION ({a}, {b}), log-loss {loss:.3f}, ECE on these claims "
          f"{ece:.3f}")


def scored_passages(row: dict, k: int, weight: float, windowed: bool = False) -> list[Scored]:
    """A claim's first ``k`` passages as the label rule reads them (``core.court.scored.Scored``), each reading with the
    negated claim's folded in at ``weight``; ``windowed``: each passage read by its most decided sentence window."""
    from courtroom_desktop.core.court import scored
    from courtroom_desktop.core.records import VerifierReading

    negs = row["negated"] or [None] * len(row["readings"])
    base = row["readings"]
    if windowed:
        pieces = row["windows"] + [[]] * (len(base) - len(row["windows"]))
        base = [sharpest(r, p) for r, p in zip(base, pieces, strict=True)]
    readings = [VerifierReading(**dict(zip(("supports", "refutes", "neither"), folded(r, n, weight), strict=True)))
                for r, n in list(zip(base, negs, strict=True))[:k]]
    return scored.numbered(row["passages"][:k], readings)


def compare(args: argparse.Namespace) -> int:
    import numpy as np

    from courtroom_desktop.core.court import scored
    from courtroom_desktop.core.eval.labels import accuracy, macro_f1

    rows = []
    for fold in args.folds.split(","):
        path = args.data / f"crossfit-scores-{fold}.jsonl"
        rows += [json.loads(line) for line in path.open(encoding="utf-8")]
    labels = list(GOLD.values())
    gold = [r["gold"] for r in rows]
    print(f"{len(rows)} claims: " + ", ".join(f"{label} {gold.count(label)}" for label in labels))

    def right(said: list[str]) -> list[int]:
        return [sum(1 for g, s in zip(gold, said) if g == label and s == label) for label in labels]

    results = []
    grid = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
    windowed_too = all("windows" in row for row in rows)
    for k in (3, 4, 6, 8, 10):
        for weight, windowed in [(w, False) for w in (0.0, 0.25, 0.5)] + ([(0.0, True)] if windowed_too else []):
            if windowed and k > WINDOWED:
                continue
            passages = [scored_passages(row, k, weight, windowed) for row in rows]
            for backs_s in grid:
                for backs_r in grid:
                    said = [scored.decide(row["claim"], ps, threshold=(backs_s, backs_r), top=k).label.value
                            for row, ps in zip(rows, passages)]
                    results.append((macro_f1(gold, said, labels), accuracy(gold, said), k, weight,
                                    f"rule {backs_s:.2f}/{backs_r:.2f}" + (" windows" if windowed else ""),
                                    right(said)))
            # the learned rule: fitted on one fold's claims, read on the other's, and the other way round
            x = np.array([features([[p.reading.supports, p.reading.refutes, p.reading.neither] for p in ps])
                          for ps in passages])
            y = np.array([labels.index(g) for g in gold])
            folds = np.array([row["fold"] for row in rows])
            said = [""] * len(rows)
            for fold in ("a", "b"):
                mean, scale, w, b = softmax_fit(x[folds != fold], y[folds != fold], len(labels))
                guess = (((x[folds == fold] - mean) / scale) @ w + b).argmax(1)
                for index, g in zip(np.flatnonzero(folds == fold), guess):
                    said[index] = labels[g]
            results.append((macro_f1(gold, said, labels), accuracy(gold, said), k, weight,
                            "learned" + (" windows" if windowed else ""), right(said)))
    results.sort(key=lambda r: -r[0])
    print("macro-F1  accuracy  passages  negated weight  rule (backs supported/refuted)  right per label (S, R, NEI)")
    for f1, acc, k, weight, how, counts in results[: args.top]:
        print(f"{f1:.3f}     {acc:.3f}     {k:>2}        {weight:.2f}            {how:<30}  {counts}")
    calibrate(rows, gold)
    for how in ("rule 0.15/0.15", "learned"):
        best = max((r for r in results if r[4] == how and r[3] == 0.0 and r[2] == 6), key=lambda r: r[0])
        print(f"as shipped ({how}, 6 passages, no negated reading): macro-F1 {best[0]:.3f} accuracy {best[1]:.3f} "
              f"{best[5]}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("retrieve", "score", "compare"))
    parser.add_argument("--data", type=Path, default=Path("build/verifier-data"))
    parser.add_argument("--scifact", type=Path, default=Path("../shared/data/scifact"))
    parser.add_argument("--library", type=Path, default=Path("build/eval-cache/scifact"))
    parser.add_argument("--k", type=int, default=10, help="passages kept per claim (retrieve)")
    parser.add_argument("--seed", type=int, default=13, help="the folds' seed (training/folds.py)")
    parser.add_argument("--model", type=Path, help="a trained model's folder (score)")
    parser.add_argument("--fold", choices=("a", "b", "calibration"), help="the claims to read (score)")
    parser.add_argument("--top", type=int, default=25, help="rows of the comparison to print")
    parser.add_argument("--folds", default="a,b", help="the folds' readings to compare (compare)")
    parser.add_argument("--windows", action="store_true",
                        help="also read the first passages' runs of two sentences (score; compare then weighs a "
                             "passage read by its most decided run: docs/verifier.md, tried and not shipped)")
    args = parser.parse_args(argv)
    return {"retrieve": retrieve, "score": score, "compare": compare}[args.step](args)


if __name__ == "__main__":
    raise SystemExit(main())
