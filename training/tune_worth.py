"""Fit the check-worthiness score (``core.check.worth``: its ``BIAS``, ``WEIGHTS`` and ``DEFAULT_WORTH``) on the
tuning drafts, never the held-out ones.

Every labelled sentence of the tuning folders (tests/check/data/tuning and tests/check/data/worth) is one example:
its signals (``worth.signals``) against its label. The model is a logistic regression with an L2 penalty
(``--l2``, the bias not penalised), fitted by Newton's method to the exact optimum, so the same drafts always give
the same weights. The threshold: among the sentences the rule finder keeps, the highest score (on a grid of 0.01)
whose recall of the check-worthy ones is still the rule finder's own, so the score lifts precision at the same
recall. Prints the constants to paste into worth.py, and a table of precision and recall per threshold.

    python training/tune_worth.py
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = (ROOT / "tests/check/data/tuning", ROOT / "tests/check/data/worth")
L2 = 1.0


@dataclass(frozen=True)
class Example:
    sentence: str
    checkworthy: bool
    found: bool  # the rule finder keeps it
    signals: tuple[str, ...]


def examples(folders: tuple[Path, ...] = FOLDERS) -> list[Example]:
    from courtroom_desktop.core.check.claims import why_checkworthy
    from courtroom_desktop.core.check.worth import signals
    from courtroom_desktop.core.eval.claims import read_labels

    out = []
    for folder in folders:
        if "heldout" in folder.parts:
            raise SystemExit(f"{folder}: the held-out drafts score the model; they never fit it")
        for path in sorted(folder.glob("*.labels.jsonl")):
            for label in read_labels(path):
                out.append(Example(label.sentence, label.checkworthy, bool(why_checkworthy(label.sentence)),
                                   signals(label.sentence)))
    return out


def fit(rows: list[Example], l2: float = L2) -> tuple[float, dict[str, float]]:
    """(bias, weights) of the L2-penalised logistic regression of the labels on the signals."""
    import numpy as np

    from courtroom_desktop.core.check.worth import SIGNALS

    x = np.array([[1.0] + [1.0 if name in row.signals else 0.0 for name in SIGNALS] for row in rows])
    y = np.array([1.0 if row.checkworthy else 0.0 for row in rows])
    penalty = np.diag([0.0] + [l2] * len(SIGNALS))
    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + penalty @ w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + penalty + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if float(np.abs(step).max()) < 1e-10:
            break
    return round(float(w[0]), 3), {name: round(float(v), 3) for name, v in zip(SIGNALS, w[1:], strict=True)}


@dataclass(frozen=True)
class Point:
    threshold: float
    kept: int
    precision: float
    recall: float


def curve(rows: list[Example], bias: float, weights: dict[str, float]) -> list[Point]:
    """Precision and recall of the found sentences scoring at least each threshold (0.00 is the rule finder)."""
    from courtroom_desktop.core.check.worth import worth_of

    found = [(worth_of(row.signals, weights, bias), row.checkworthy) for row in rows if row.found]
    labelled = sum(1 for row in rows if row.checkworthy)
    points = []
    for step in range(0, 100):
        t = step / 100
        kept = [good for score, good in found if round(score, 3) >= t]
        hits = sum(kept)
        points.append(Point(t, len(kept), hits / len(kept) if kept else 0.0, hits / labelled if labelled else 0.0))
    return points


def choose(points: list[Point]) -> Point:
    """The highest threshold that keeps the rule finder's recall (the first point's)."""
    return max((p for p in points if p.recall >= points[0].recall - 1e-12), key=lambda p: p.threshold)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--l2", type=float, default=L2, help="the penalty on each weight (default %(default)s)")
    args = parser.parse_args(argv)
    rows = examples()
    bias, weights = fit(rows, args.l2)
    points = curve(rows, bias, weights)
    chosen = choose(points)
    print(f"{len(rows)} labelled sentences, {sum(r.checkworthy for r in rows)} check-worthy, "
          f"{sum(r.found for r in rows)} kept by the rule finder")
    print("| threshold | kept | precision | recall |\n| --- | --- | --- | --- |")
    for p in points[::5]:
        print(f"| {p.threshold:.2f} | {p.kept} | {p.precision:.3f} | {p.recall:.3f} |")
    print(f"\nchosen threshold {chosen.threshold:.2f}: kept {chosen.kept}, precision {chosen.precision:.3f}, "
          f"recall {chosen.recall:.3f} (the rule finder: precision {points[0].precision:.3f}, recall "
          f"{points[0].recall:.3f})\n")
    print(f"BIAS = {bias}")
    print("WEIGHTS: dict[str, float] = {" + ", ".join(f'"{k}": {v}' for k, v in weights.items()) + "}")
    print(f"DEFAULT_WORTH = {chosen.threshold:.2f}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main())
