"""How worth checking a claim is: a score in [0, 1] that lets the review page hide the trivial ones.

The rule finder (``core.check.claims``) keeps a sentence when any sign of a fact fires: a number, a comparison, a
cause, a quantifier, a superlative, an attribution. Many sentences carry such a sign and still state nothing a reader
could verify: an opinion ("we think the corridor is a better use of space"), a plan or a target ("we aim to reach 2
million users by 2027", "力争到2027年……"), a definition ("本文所称……是指……"), a guess ("this may explain…"), a
judgement ("an encouraging result"). The score weighs the finder's signs against these cues (``SIGNALS``) with a
logistic model:

    worth = sigmoid(BIAS + sum of WEIGHTS[signal] for each signal that fires)

The weights are fitted by ``training/tune_worth.py`` on the tuning drafts only (tests/check/data/tuning and
tests/check/data/worth), never on the held-out drafts (tests/check/data/heldout), where the score is measured.
``DEFAULT_WORTH`` is the threshold the review page hides below unless the user sets another (``check.min_worth``):
chosen on the tuning drafts as the highest that keeps the rule finder's recall there, so the score lifts precision
at the same recall. The cues are English and Chinese, like the finder's.
"""

from __future__ import annotations

import math
import re

from courtroom_desktop.core.check.claims import FEATURES, RECOMMENDATION, SIGNPOST, features

OPINION = re.compile(
    r"\b(?:I|we)\s+(?:(?:strongly|firmly|still)\s+)?(?:think|believe|feel|consider|hope|doubt|suspect|are\s+confident|"
    r"are\s+convinced)\b"
    r"|\bin\s+(?:my|our)\s+(?:view|opinion|judg(?:e)?ment|experience)\b|\b(?:arguably|frankly|undoubtedly|surely)\b"
    r"|\b(?:argues?|argued|contends?|contended|insists?|insisted|maintains?|believes?|claims?)\s+that\b"
    r"|\bshould\s+have\b|\bit\s+(?:seems|appears)\b"
    r"|认为|觉得|看来|相信|主张|坚信|依我看|我们判断|个人看法|在我们看来",
    re.I)
PLAN = re.compile(
    r"\b(?:will|shall|plan(?:s|ned)?\s+to|aim(?:s|ed)?\s+(?:to|at)|intend(?:s|ed)?\s+to|going\s+to|"
    r"(?:our|the|a|its)\s+(?:goal|target|aim|ambition|objective|plan)|targets?|targeting|we\s+propose|"
    r"(?:we|they)\s+(?:request|seek|are\s+seeking|want|expect)\s+to|we\s+(?:request|seek)|"
    r"(?:is|are)\s+(?:scheduled|expected|set|due)\s+to|by\s+the\s+end\s+of|next\s+(?:year|quarter|month|week|phase)|"
    r"would\s+(?:allow|enable|let|cost|take|give|bring|help))\b"
    r"|将(?!近|军|来自)|拟|计划|目标|力争|争取|打算|准备|有望|下一步|明年|今后|未来[^，。]{0,4}年|申请|希望",
    re.I)
DEFINITION = re.compile(
    r"\b(?:we\s+(?:define|call|use\s+the\s+term|refer\s+to|mean)|(?:is|are)\s+defined\s+as|refers?\s+to|hereafter|"
    r"stands?\s+for|is\s+(?:understood|taken)\s+to\s+mean|(?:here|below),?\s+\S+\s+means)\b"
    r"|是指|指的是|定义为|所称|简称|以下称|称之为|即指|这里的",
    re.I)
HEDGE = re.compile(
    r"\b(?:may|might|could|perhaps|possibly|potentially|presumably|conceivably|we\s+hypothes[iz]e|hypothes[ie]s|"
    r"speculat\w+|it\s+is\s+possible|remains\s+to\s+be\s+seen|interesting\s+to|worth\s+exploring|if)\b"
    r"|可能|或许|也许|假设|假如|如果|推测|猜测|有待|或将|值得探索",
    re.I)
EVALUATION = re.compile(
    r"\b(?:wiser|preferable|desirable|worthwhile|sensible|prudent|attractive|promising|impressive|excellent|"
    r"remarkable|disappointing|encouraging|welcome|unacceptable|crucial|essential|vital|valuable|admirable|"
    r"better\s+(?:use|choice|option|approach|way|investment|fit)|the\s+right\s+(?:choice|decision|thing|call)|"
    r"(?:we|i)\s+(?:are|am)\s+(?:proud|pleased|delighted|grateful|excited|thankful)|thank\w*|congratulat\w+)\b"
    r"|更(?:可取|稳妥|合理|明智|理想|有意义|值得)|值得|令人(?:满意|失望|鼓舞|振奋|担忧|遗憾)|可喜|遗憾|宝贵|出色|优秀|"
    r"感谢|感激|自豪|高兴|欣慰|祝贺",
    re.I)
PAST = re.compile(
    r"\b(?:was|were|had|did|rose|fell|grew|reached|recorded|reported|found|showed|launched|opened|closed|announced|"
    r"completed|published|occurred|happened|began|ended|won|lost|took\s+place|has\s+been|have\s+been)\b"
    r"|\b(?:in|since|during|between)\s+(?:19|20)\d{2}\b"
    r"|了|已经|已|曾|去年|上年|同比|环比|截至|截止",
    re.I)
FIRST_PERSON = re.compile(r"\b(?:we|our|us|I)\b|我们|我司|本项目|本团队|本课题|本研究|本文|本报告", re.I)

CUES: dict[str, re.Pattern[str]] = {
    "opinion": OPINION, "plan": PLAN, "definition": DEFINITION, "hedge": HEDGE, "evaluation": EVALUATION,
    "advice": RECOMMENDATION, "signpost": SIGNPOST, "past": PAST, "first_person": FIRST_PERSON,
}
SIGNALS: tuple[str, ...] = (*FEATURES, "several", *CUES)  # 'several': two or more of the finder's features

# fitted by `python training/tune_worth.py` (its output, pasted; tests/check/test_worth.py refits and compares)
BIAS = -0.99
WEIGHTS: dict[str, float] = {
    "number": 1.859, "comparison": 1.375, "causal": 1.284, "quantifier": 1.073, "superlative": 1.21,
    "attribution": 1.097, "several": -0.087, "opinion": -2.046, "plan": -2.321, "definition": -1.301, "hedge": -0.325,
    "evaluation": -1.22, "advice": -1.983, "signpost": -1.939, "past": 1.381, "first_person": -0.902}
DEFAULT_WORTH = 0.19


def signals(sentence: str) -> tuple[str, ...]:
    """The signals that fire on ``sentence``, in the order of ``SIGNALS``."""
    fired = set(features(sentence))
    if len(fired) >= 2:
        fired.add("several")
    fired.update(name for name, cue in CUES.items() if cue.search(sentence.strip()))
    return tuple(name for name in SIGNALS if name in fired)


def worth_of(fired: tuple[str, ...], weights: dict[str, float] | None = None, bias: float | None = None) -> float:
    """The score of a set of signals under ``weights`` and ``bias`` (the shipped ones by default)."""
    weights = WEIGHTS if weights is None else weights
    z = (BIAS if bias is None else bias) + sum(weights.get(name, 0.0) for name in fired)
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def worth(sentence: str) -> float:
    """How worth checking ``sentence`` is, from 0 (nothing to verify) to 1, rounded to 3 places."""
    return round(worth_of(signals(sentence)), 3)
