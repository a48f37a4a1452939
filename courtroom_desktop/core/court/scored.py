"""The label rule: a verdict decided from the claim verifier's calibrated scores of the passages it rests on, never
from a chat model's say-so (docs/court.md, "The label rule").

Every passage carries the verifier's reading (``core.records.VerifierReading``: the probabilities that it supports
the claim, refutes it, or neither). The first ``RULE_PASSAGES`` passages in the search's order decide (the search
for the claim ranked them best; in a trial, the opening search's E1-E3); the others are scored and shown, not
counted. A passage *backs* a label when the verifier gives that reading more than its threshold in
``VERIFIER_BACKS`` (one for supports, one for refutes) and more than the opposite one (``VerifierReading.backs``).
Then:

- supported: a passage backs it and none backs refuted, or the best refuting one is weaker by at least
  ``MIXED_MARGIN``; refuted the other way round;
- mixed: passages back both, the best of each within ``MIXED_MARGIN`` of the other;
- insufficient evidence: no passage backs either.

The numbers rule comes after: a claim whose numbers or named quantities no passage states (``core.verifier.numbers``)
is at best insufficient evidence, whatever the scores say, and the missing quantities are named.

Confidence: the probability behind the label (the best backing passage's; for mixed, the weaker side's best; for
insufficient evidence, one minus the strongest reading either way), mapped to a claim-level probability by
``CLAIM_CALIBRATION`` (a logistic map of its logit), and for insufficient evidence at most ``insufficient_cap``. So a
label never stands without a passage scored for it, and its confidence is the verifier's, not the chat model's.

``VERIFIER_BACKS``, ``RULE_PASSAGES`` and ``CLAIM_CALIBRATION`` were chosen on 729 SciFact *train* claims, each read
by a verifier trained without it (cross-fitted: training/crossfit.py prints the table); ``MIXED_MARGIN`` was set
before any measurement. SciFact dev and Check-COVID only judge the result (docs/verifier.md).

A reason written by a model is held to the label too (``contradicts``): "no evidence is provided" beside supported,
or a reason that argues the claim false beside supported, cannot be stored with it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from courtroom_desktop.core.court.records import Stance, VerdictLabel
from courtroom_desktop.core.court.stance import stance_of
from courtroom_desktop.core.records import VERIFIER_BACKS, VerifierReading
from courtroom_desktop.core.verifier.numbers import missing

MIXED_MARGIN = 0.15  # passages back both labels and their best are this close: mixed
RULE_PASSAGES = 3
"""The rule reads the first three passages of the search for the claim (in a trial, the opening search's E1-E3): on
729 cross-fitted SciFact train claims, reading the top 3 gave macro-F1 0.564 against 0.511 for the top 6 (and 0.55
or less for the 3 most relevant of 6 or 10, by the verifier's own relevance), so the search's rank is worth more than
more passages (training/crossfit.py; docs/verifier.md). With the models trained with negated claims too, the top 3
stay ahead (0.607 against 0.593 for the top 4 at their best thresholds)."""
INSUFFICIENT_CAP = 0.5  # 'insufficient evidence' is never surer than this (the court's verdict rule's default)
CLAIM_CALIBRATION = (0.25, 0.25)
"""(a, b) of the claim-level map sigmoid(a * logit(p) + b), fitted by training/crossfit.py (least log-loss of the
label being right; ECE 0.002 there) on the 729 cross-fitted SciFact train claims: the pair-level probability says
little of whether a claim's label is right (a small slope), so confidences stay mostly between 0.4 and 0.75."""


@dataclass(frozen=True)
class Scored:
    """One passage as the rule sees it: its id (E1, ...), its text and the verifier's reading of it."""

    id: str
    text: str
    reading: VerifierReading
    retracted: bool = False  # from a retracted work: it never carries a label alone


@dataclass(frozen=True)
class Ruled:
    """What the rule decides: the label, its confidence, the passages scored for it (best first), the claim's
    quantities no passage states (named whether or not they changed the label), and the best probability of each way
    over all passages."""

    label: VerdictLabel
    confidence: float
    backing: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    best_supports: float = 0.0
    best_refutes: float = 0.0
    demoted: VerdictLabel | None = None  # the label the scores gave before the numbers rule set it aside

    def reason(self, lang: str = "en") -> str:
        """One sentence that says why, in the draft's language ('en' or 'zh')."""
        words = WORDS["zh" if lang.startswith("zh") else "en"]
        ids = ", ".join(self.backing[:3])
        if self.missing:
            quantities = "、".join(self.missing) if lang.startswith("zh") else ", ".join(f"'{q}'" for q in self.missing)
            return words["missing"].format(quantities=quantities)
        if self.label == VerdictLabel.mixed:
            return words["mixed"].format(s=self.best_supports, r=self.best_refutes)
        if self.label == VerdictLabel.supported:
            return words["supported"].format(ids=ids, p=self.best_supports)
        if self.label == VerdictLabel.refuted:
            return words["refuted"].format(ids=ids, p=self.best_refutes)
        return words["insufficient"].format(p=max(self.best_supports, self.best_refutes))


WORDS = {
    "en": {
        "supported": "The verifier reads {ids} as supporting the claim (probability {p:.2f}); no passage refutes it as "
                     "strongly.",
        "refuted": "The verifier reads {ids} as refuting the claim (probability {p:.2f}); no passage supports it as "
                   "strongly.",
        "mixed": "Passages point both ways: the best supporting one at {s:.2f}, the best refuting one at {r:.2f}.",
        "insufficient": "No passage decides the claim: the strongest reading either way is {p:.2f}.",
        "missing": "No passage states {quantities}, which the claim asserts: insufficient evidence, whatever the "
                   "passages say otherwise.",
    },
    "zh": {
        "supported": "核验模型认为 {ids} 支持该主张（概率 {p:.2f}），没有同样有力的反驳文段。",
        "refuted": "核验模型认为 {ids} 反驳该主张（概率 {p:.2f}），没有同样有力的支持文段。",
        "mixed": "文段指向两个方向：最有力的支持文段 {s:.2f}，最有力的反驳文段 {r:.2f}。",
        "insufficient": "没有文段能判定该主张：任一方向最强的读数为 {p:.2f}。",
        "missing": "没有文段陈述主张中的 {quantities}：证据不足，无论文段在其他方面如何。",
    },
}


def numbered(texts: Sequence[str], readings: Sequence[VerifierReading],
             retracted: Sequence[bool] | None = None) -> list[Scored]:
    """Passages as a quick check shows them: E1, E2, ... in order, each with its reading (and whether its work is
    retracted)."""
    flags = retracted or [False] * len(texts)
    return [Scored(f"E{i}", text, reading, flag)
            for i, (text, reading, flag) in enumerate(zip(texts, readings, flags, strict=True), 1)]


def backing(passages: Sequence[Scored], stance: str,
            threshold: float | tuple[float, float] = VERIFIER_BACKS) -> list[Scored]:
    """The passages that back ``stance`` ('supports' or 'refutes'; ``VerifierReading.backs_at``), best first. Passages
    of retracted works back it only beside one that is not: alone, they back nothing."""
    found = [p for p in passages if p.reading.backs_at(threshold) == stance]
    if found and all(p.retracted for p in found):
        return []
    return sorted(found, key=lambda p: -p.reading.probability(stance))


def claim_confidence(p: float, calibration: tuple[float, float] = CLAIM_CALIBRATION) -> float:
    """The claim-level confidence for a label whose backing probability is ``p`` (``CLAIM_CALIBRATION``)."""
    a, b = calibration
    p = min(max(p, 1e-4), 1 - 1e-4)
    return 1.0 / (1.0 + math.exp(-(a * math.log(p / (1 - p)) + b)))


def decide(claim: str, passages: Sequence[Scored], insufficient_cap: float = INSUFFICIENT_CAP,
           threshold: float | tuple[float, float] = VERIFIER_BACKS,
           calibration: tuple[float, float] = CLAIM_CALIBRATION, top: int = RULE_PASSAGES) -> Ruled:
    """The label ``passages`` (in the order the search ranked them) give ``claim`` by the rule of this module's
    docstring: the first ``top`` of them decide it (``threshold``, ``calibration`` and ``top``: other values than the
    shipped ones, for training/crossfit.py and tune_rule.py to compare)."""
    passages = list(passages)[:top]
    supporting = backing(passages, "supports", threshold)
    refuting = backing(passages, "refutes", threshold)
    best_s = max((p.reading.supports for p in passages), default=0.0)
    best_r = max((p.reading.refutes for p in passages), default=0.0)
    # the strength of a label is its best passage that is not from a retracted work (backing() keeps retracted ones
    # only beside such a passage)
    s = max((p.reading.supports for p in supporting if not p.retracted), default=0.0)
    r = max((p.reading.refutes for p in refuting if not p.retracted), default=0.0)
    undecided = min(claim_confidence(1.0 - max(best_s, best_r), calibration), insufficient_cap)
    if supporting and refuting and abs(s - r) < MIXED_MARGIN:
        label, confidence = VerdictLabel.mixed, claim_confidence(min(s, r), calibration)
        ids = tuple(p.id for p in sorted(supporting + refuting, key=lambda p: -p.reading.relevance))
    elif supporting and s >= r:
        label, confidence, ids = VerdictLabel.supported, claim_confidence(s, calibration), tuple(p.id for p in supporting)
    elif refuting:
        label, confidence, ids = VerdictLabel.refuted, claim_confidence(r, calibration), tuple(p.id for p in refuting)
    else:
        label, confidence, ids = VerdictLabel.insufficient, undecided, ()
    absent = tuple(dict.fromkeys(q.text for q in missing(claim, [p.text for p in passages]))) if passages else ()
    demoted = None
    if absent and label != VerdictLabel.insufficient:
        demoted = label
        label, ids, confidence = VerdictLabel.insufficient, (), undecided
    return Ruled(label=label, confidence=round(confidence, 3), backing=ids, missing=absent,
                 best_supports=round(best_s, 3), best_refutes=round(best_r, 3), demoted=demoted)


NO_EVIDENCE = re.compile(
    r"\b(?:no|not any|without|lacks?|lacking|insufficient|not enough|little)\s+(?:\w+\s+){0,2}?(?:evidence|support|"
    r"information|data|passages?)\b|\b(?:not|never)\s+(?:provided|mentioned|stated|addressed|discussed)\b|"
    r"\bdo(?:es)?\s+not\s+(?:mention|address|discuss|say|state|provide)\b|\bcannot be (?:determined|verified)\b|"
    r"没有(?:任何|足够|充分)?(?:的)?(?:证据|依据|信息)|缺乏(?:证据|依据)|证据不足|未(?:提及|提到|说明)|无法(?:判断|确定|核实)", re.I)


TOWARD_SUPPORT = re.compile(r"support|in favou?r|for (?:the|this|it)|confirm|支持|证实|证明", re.I)
TOWARD_REFUTE = re.compile(r"against|refut|contradict|contrary|oppos|disprov|反驳|反对|否定|相反|相矛盾", re.I)


def contradicts(label: VerdictLabel, reason: str) -> str | None:
    """Why ``reason`` cannot stand beside ``label`` (None: it can). A decided label beside a reason that says there
    is no evidence ("No evidence is provided to support the claim" beside supported; "no evidence against it" may
    stand there), or a reason that argues the other way; 'insufficient evidence' beside a reason that argues a side."""
    label = VerdictLabel(label)
    text = " ".join((reason or "").split())
    if not text:
        return None
    leans = stance_of(text)
    for found in NO_EVIDENCE.finditer(text):
        after = text[found.end():found.end() + 40]
        if label == VerdictLabel.mixed or (label == VerdictLabel.supported and not TOWARD_REFUTE.search(after)) or \
                (label == VerdictLabel.refuted and not TOWARD_SUPPORT.search(after)):
            return f"the reason says the evidence does not decide the claim, beside '{label.value}'"
    if label == VerdictLabel.supported and leans == Stance.against:
        return "the reason argues the claim is false or unsupported, beside 'supported'"
    if label == VerdictLabel.refuted and leans == Stance.for_:
        return "the reason argues the claim is true, beside 'refuted'"
    if label == VerdictLabel.insufficient and leans is not None and not NO_EVIDENCE.search(text):
        return f"the reason argues the claim is {'true' if leans == Stance.for_ else 'false'}, beside " \
               "'insufficient evidence'"
    return None
