"""Figures of labelled predictions, as the fact-checking papers report them: accuracy and macro-F1 over the gold
classes with 95% bootstrap intervals (claims resampled with replacement), and the expected calibration error of the
confidences (equal-width bins, the gap between confidence and accuracy weighted by each bin's share)."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

BOOTSTRAP = 1000  # resamples for an interval


def accuracy(gold: Sequence[Hashable], said: Sequence[Hashable]) -> float:
    return sum(g == s for g, s in zip(gold, said, strict=True)) / len(gold) if gold else 0.0


def macro_f1(gold: Sequence[Hashable], said: Sequence[Hashable], classes: Sequence[Hashable] | None = None) -> float:
    """The mean F1 over ``classes`` (default: the gold classes); a prediction outside them (an error, 'mixed') counts
    against the recall of its gold class."""
    classes = list(dict.fromkeys(gold)) if classes is None else list(classes)
    f1s = []
    for label in classes:
        tp = sum(g == label and s == label for g, s in zip(gold, said, strict=True))
        predicted = sum(s == label for s in said)
        actual = sum(g == label for g in gold)
        precision = tp / predicted if predicted else 0.0
        recall = tp / actual if actual else 0.0
        f1s.append(2 * precision * recall / (precision + recall) if precision + recall else 0.0)
    return sum(f1s) / len(f1s) if f1s else 0.0


def expected_calibration_error(confidences: Sequence[float], correct: Sequence[bool], bins: int = 10) -> float:
    """ECE: sum over equal-width confidence bins of |accuracy - mean confidence| x the bin's share of predictions."""
    total = len(confidences)
    if not total:
        return 0.0
    error = 0.0
    for b in range(bins):
        low, high = b / bins, (b + 1) / bins
        members = [i for i, c in enumerate(confidences) if low < c <= high or (b == 0 and c == 0.0)]
        if members:
            confidence = sum(confidences[i] for i in members) / len(members)
            right = sum(bool(correct[i]) for i in members) / len(members)
            error += len(members) / total * abs(right - confidence)
    return error


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"


def bootstrap(gold: Sequence[Hashable], said: Sequence[Hashable], classes: Sequence[Hashable] | None = None,
              resamples: int = BOOTSTRAP, seed: int = 0) -> tuple[Interval, Interval]:
    """(accuracy, macro-F1), each with its 95% percentile interval over ``resamples`` resamples of the claims."""
    classes = list(dict.fromkeys(gold)) if classes is None else list(classes)
    rng = random.Random(seed)
    n = len(gold)
    accs, f1s = [], []
    for _ in range(resamples if n else 0):
        picks = [rng.randrange(n) for _ in range(n)]
        g, s = [gold[i] for i in picks], [said[i] for i in picks]
        accs.append(accuracy(g, s))
        f1s.append(macro_f1(g, s, classes))

    def interval(value: float, values: list[float]) -> Interval:
        if not values:
            return Interval(value, value, value)
        values.sort()
        return Interval(value, values[int(0.025 * len(values))], values[min(int(0.975 * len(values)), len(values) - 1)])

    return interval(accuracy(gold, said), accs), interval(macro_f1(gold, said, classes), f1s)
