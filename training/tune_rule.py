"""Choose the label rule's threshold (``core.records.VERIFIER_BACKS``: the probability above which a passage backs a
label) and its claim-level calibration (``core.court.scored.CLAIM_CALIBRATION``) on SciFact *train* claims the
verifier never trained on: the claims verifier_data.py held out for calibration (its calibration.jsonl names them).
Each is searched in a library built from SciFact's corpus (the app's own hybrid search, top ``--k``), every passage
scored by the shipped verifier, and the rule applied at each threshold: prints claim-level accuracy, macro-F1 and
ECE per threshold, then, at the best threshold by macro-F1 (the higher one on a tie), the (a, b) of the logistic map
sigmoid(a * logit(p) + b) from the rule's probability to the claim's, least log-loss of the label being right.
SciFact dev and Check-COVID are never read here.

    python training/tune_rule.py --scifact ../shared/data/scifact --library build/eval-cache/scifact \
        --data build/verifier-data

``--model build/verifier3`` reads a newly trained model instead of the shipped one: how a stage is chosen for
shipping (the higher best macro-F1 here), never by SciFact dev.

Superseded for the shipped rule by training/crossfit.py, which reads 729 train claims instead of these 80 (each by a
model trained without it) and tries a threshold per side and the number of passages read; this script stays for a
quick look at one threshold for both sides on the held-out claims (``decide``'s other settings as shipped).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def fit_claim_calibration(probabilities: list[float], right: list[bool]) -> tuple[float, float, float, float]:
    """The (a, b) of the claim-level map sigmoid(a * logit(p) + b) (``core.court.scored.CLAIM_CALIBRATION``) of least
    log-loss of each label being right, on a grid; returns (a, b, log-loss, ECE of the mapped probabilities)."""
    import math

    import numpy as np

    from courtroom_desktop.core.eval.labels import expected_calibration_error

    x = np.array([math.log(min(max(p, 1e-4), 1 - 1e-4) / (1 - min(max(p, 1e-4), 1 - 1e-4))) for p in probabilities])
    y = np.array([float(r) for r in right])
    fits = []
    for a in np.linspace(0.05, 3.0, 60):
        for b in np.linspace(-3.0, 3.0, 121):
            q = np.clip(1 / (1 + np.exp(-(a * x + b))), 1e-6, 1 - 1e-6)
            fits.append((float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))), round(float(a), 2), round(float(b), 2)))
    loss, a, b = min(fits)
    q = 1 / (1 + np.exp(-(a * x + b)))
    return a, b, loss, expected_calibration_error(list(q), list(y.astype(bool)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scifact", type=Path, required=True)
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument("--data", type=Path, default=Path("build/verifier-data"))
    parser.add_argument("--k", type=int, default=6)
    parser.add_argument("--model", type=Path, default=None,
                        help="a trained model's folder (train_verifier.py's --out) to compare; default: the shipped one")
    args = parser.parse_args(argv)

    from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings
    from courtroom_desktop.core.court import scored
    from courtroom_desktop.core.court.records import VerdictLabel
    from courtroom_desktop.core.eval.labels import accuracy, expected_calibration_error, macro_f1
    from courtroom_desktop.core.eval.library import build_beir_library
    from courtroom_desktop.core.retrieval import Retriever
    from courtroom_desktop.core.verifier.scorer import ClaimVerifier

    gold_of = {"SUPPORT": VerdictLabel.supported.value, "CONTRADICT": VerdictLabel.refuted.value,
               "NEI": VerdictLabel.insufficient.value}
    with (args.data / "calibration.jsonl").open(encoding="utf-8") as handle:
        held = {json.loads(line)["group"] for line in handle}
    claims = []
    with (args.scifact / "claims_train.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            if f"scifact:{row['id']}" in held:
                labels = {ev["label"] for ev in row["evidence"].values()}
                gold = "NEI" if not labels else ("SUPPORT" if labels == {"SUPPORT"} else
                                                 "CONTRADICT" if labels == {"CONTRADICT"} else None)
                if gold:
                    claims.append((row["claim"], gold_of[gold]))
    library, _ = build_beir_library(args.scifact, args.library, LibrarySettings())
    verifier = ClaimVerifier(args.model)
    try:
        retriever = Retriever(library, RetrievalSettings())
        scored_claims = []
        for claim, gold in claims:
            found = retriever.search([claim], k=args.k)
            readings = verifier.score([(claim, e.chunk.text) for e in found])
            scored_claims.append((claim, gold, scored.numbered([e.chunk.text for e in found], readings)))
    finally:
        library.close()
    print(f"{len(scored_claims)} held-out SciFact train claims")
    gold = [g for _, g, _ in scored_claims]
    best: tuple[float, float] = (-1.0, 0.0)
    raw: dict[float, list[tuple[str, float]]] = {}
    for threshold in (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6):
        # the identity map (1, 0): the rule's own probability, before any calibration
        ruled = [scored.decide(claim, passages, insufficient_cap=1.0, threshold=threshold, calibration=(1.0, 0.0))
                 for claim, _, passages in scored_claims]
        said = [r.label.value for r in ruled]
        raw[threshold] = [(s, r.confidence) for s, r in zip(said, ruled)]
        f1 = macro_f1(gold, said, list(gold_of.values()))
        ece = expected_calibration_error([r.confidence for r in ruled], [g == s for g, s in zip(gold, said)])
        print(f"VERIFIER_BACKS {threshold:.2f}: accuracy {accuracy(gold, said):.3f} macro-F1 {f1:.3f} "
              f"ECE (uncalibrated) {ece:.3f}")
        if f1 >= best[0]:
            best = (f1, threshold)
    chosen = raw[best[1]]
    a, b, loss, ece = fit_claim_calibration([p for _, p in chosen], [s == g for (s, _), g in zip(chosen, gold)])
    print(f"chosen VERIFIER_BACKS {best[1]:.2f} (macro-F1 {best[0]:.3f}); CLAIM_CALIBRATION ({a}, {b}), log-loss "
          f"{loss:.3f}, ECE on these claims {ece:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
