"""Evidence levels: which level of the (editable) evidence hierarchy a passage reports, from the phrases each level
carries in the settings (``debate.evidence_keywords``).

A phrase counts for the study the passage reports, not for studies it merely mentions: a match is discounted when
a contrast or negation comes just before it in the same sentence ("unlike earlier randomised trials, this
retrospective cohort ...", "no randomised trial has tested ..."), and counts double when the passage speaks of
itself ("we conducted a randomised trial", "this cohort", "in our meta-analysis"). A match in the document's title
counts double too. The level with the highest score wins; ties go to the stronger level. No phrase: 'other'.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

OTHER = "other"
WINDOW_CHARS = 60  # how far before a phrase a contrast or a self-reference still belongs to it
CONTRAST = re.compile(
    r"\b(unlike|contrary to|in contrast (to|with)|as opposed to|rather than|instead of|compared (with|to)|"
    r"versus|vs|not|no|nor|never|without|lack of|absence of|previous(ly)?|earlier|prior|former|past|"
    r"existing|other|few|although|whereas)\b", re.I)
SELF = re.compile(r"\b(this|our|we|present|current|here)\b", re.I)
SENTENCE_START = re.compile(r"[.;:!?。；！？]\s*")


@lru_cache(maxsize=256)
def _phrase(phrase: str) -> re.Pattern:
    """'randomi*' -> \\brandomi\\w*\\b; words joined by spaces or hyphens match either."""
    words = [re.escape(w).replace(r"\*", r"\w*") for w in re.split(r"[\s-]+", phrase.strip().lower()) if w]
    return re.compile(r"(?<!\w)" + r"[\s-]+".join(words) + r"(?!\w)", re.I)


def _context(text: str, start: int) -> str:
    """The stretch of the sentence just before ``start``."""
    before = text[max(0, start - WINDOW_CHARS):start]
    ends = [m.end() for m in SENTENCE_START.finditer(before)]
    return before[ends[-1]:] if ends else before


def _score(text: str, phrases: Iterable[str]) -> float:
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
            score += 2.0 if itself >= 0 else 1.0
    return score


def evidence_level(text: str, title: str, hierarchy: Sequence[str], keywords) -> str:
    """The level of ``hierarchy`` (strongest first) the passage reports; ``keywords(level)`` gives a level's phrases."""
    best, best_score = OTHER, 0.0
    for level in hierarchy:
        if level.lower() == OTHER:
            continue
        phrases = keywords(level)
        score = 2.0 * _score(title or "", phrases) + _score(text or "", phrases)
        if score > best_score:  # strict: on a tie the stronger level (earlier in the hierarchy) stays
            best, best_score = level, score
    return best
