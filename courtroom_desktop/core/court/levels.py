"""Evidence levels: which level of the (editable) evidence hierarchy a passage reports, from the phrases each level
carries in the settings (``debate.evidence_keywords``).

A phrase counts for the study the passage reports, not for studies it merely mentions: a match is discounted when
a contrast or negation comes just before it in the same sentence ("unlike earlier randomised trials, this
retrospective cohort ...", "no randomised trial has tested ..."), and counts double when the passage speaks of
itself ("we conducted a randomised trial", "this cohort", "in our meta-analysis"). A match in the document's title
counts double too. The level with the highest score wins; ties go to the stronger level. No phrase: 'other'. The
phrases of 'other' itself (if the settings give it any) mark preclinical work ("in rats", "cell lines"): when they
score at least as high as the best level, the passage is 'other' ("a randomised study in rats").
Chinese works the same way: cues such as 与既往…不同 / 尚无 (contrast) and 本研究 / 本文 / 我们 (the passage itself).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

OTHER = "other"
WINDOW_CHARS = 60  # how far before a phrase a contrast or a self-reference still belongs to it
CONTRAST = re.compile(
    r"\b(unlike|contrary to|in contrast (to|with)|as opposed to|rather than|instead of|compared (with|to)|"
    r"versus|vs|not|no|nor|never|without|lack of|absence of|previous(ly)?|earlier|prior|former|past|"
    r"existing|other|few|although|whereas|until)\b|与既往|不同于|尚无|没有|未见|缺乏|既往|此前|以往", re.I)
POOLED = re.compile(  # "a meta-analysis of 11 cohort studies": the cohorts are what the review pooled
    r"\b(reviews?|meta-?analys[ie]s|pooled analys[ie]s|searched|search|selection|manuscripts)\b.*"
    r"\b(of|including|included|includes|with|from|across|and)\b|系统评价|荟萃分析|纳入", re.I)
SELF = re.compile(r"\b(this|our|we|present|current|here)\b|本研究|本试验|本文|我们|本", re.I)
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
SENTENCE_START = re.compile(r"[.;:!?。；！？]\s*")


@lru_cache(maxsize=512)
def _phrase(phrase: str) -> re.Pattern[str]:
    """'randomi*' -> \\brandomi\\w*\\b; words joined by spaces or hyphens match either. A phrase that starts or ends in a
    CJK character has no word boundary there (CJK text has no spaces)."""
    phrase = phrase.strip().lower()
    words = [re.escape(w).replace(r"\*", r"\w*") for w in re.split(r"[\s-]+", phrase) if w]
    head = "" if CJK.match(phrase[:1]) else r"(?<!\w)"
    tail = "" if CJK.match(phrase[-1:]) else r"(?!\w)"
    return re.compile(head + r"[\s-]+".join(words) + tail, re.I)


def _context(text: str, start: int) -> str:
    """The stretch of the sentence just before ``start``."""
    before = text[max(0, start - WINDOW_CHARS):start]
    ends = [m.end() for m in SENTENCE_START.finditer(before)]
    return before[ends[-1]:] if ends else before


DASHES = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-"})


def _score(text: str, phrases: Iterable[str], pooled: bool = True) -> float:
    """``pooled``: a match the passage names as pooled by a review does not count."""
    text = text.translate(DASHES)
    score = 0.0
    for phrase in phrases:
        for match in _phrase(phrase).finditer(text):
            context = _context(text, match.start())
            if text[max(0, match.start() - 4):match.start()].lower().endswith("non-"):
                continue
            contrast = max((m.end() for m in CONTRAST.finditer(context)), default=-1)
            itself = max((m.end() for m in SELF.finditer(context)), default=-1)
            if contrast > itself:  # the nearest cue decides: "unlike earlier X, this Y" counts Y, not X
                continue
            if pooled and POOLED.search(context):
                continue
            score += 2.0 if itself >= 0 else 1.0
    return score


def evidence_level(text: str, title: str, hierarchy: Sequence[str],
                   keywords: Callable[[str], Sequence[str]]) -> str:
    """The level of ``hierarchy`` (strongest first) the passage reports; ``keywords(level)`` gives a level's phrases."""
    best, best_score = OTHER, 0.0
    for index, level in enumerate(hierarchy):
        if level.lower() == OTHER:
            continue
        score = _level_score(text, title, keywords(level), pooled=index > 0)
        if score > best_score:  # strict: on a tie the stronger level (earlier in the hierarchy) stays
            best, best_score = level, score
    if best_score and _level_score(text, title, keywords(OTHER)) >= best_score:
        return next((level for level in hierarchy if level.lower() == OTHER), OTHER)
    return best


def _level_score(text: str, title: str, phrases: Sequence[str], pooled: bool = True) -> float:
    return 2.0 * _score(title or "", phrases, pooled) + _score(text or "", phrases, pooled)
