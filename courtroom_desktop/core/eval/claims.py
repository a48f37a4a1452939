"""How well the finder finds check-worthy sentences: precision, recall and F1 against labelled drafts.

A labelled folder holds drafts NAME.md (or .txt, .docx, .pdf) beside NAME.labels.jsonl, one JSON object per body
sentence, in order: {"sentence": the sentence verbatim, "checkworthy": true/false, "why": [features]}. A found claim
matches a label when their texts agree once Markdown marks, spaces and case are set aside, or when one holds the other
or they share most of their characters (a labeller may cut sentences a little differently). Per language (the
draft's, by ``core.text.language_of``), counts are summed over drafts (micro averages). With ``min_worth``, only the
found claims whose check-worthiness (``core.check.worth``) reaches it count as found: what the review page shows.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path

from pydantic import field_validator

from courtroom_desktop.core.check.claims import FoundClaim, find_claims
from courtroom_desktop.core.check.drafts import KINDS, read_draft
from courtroom_desktop.core.check.worth import worth
from courtroom_desktop.core.errors import CheckError
from courtroom_desktop.core.records import Frozen

SIMILAR = 0.85  # the share of characters two cuts of the same sentence have in common, at least


class Label(Frozen):
    """One labelled sentence; ``why`` is a few words or a list of features (labellers write either)."""

    sentence: str
    checkworthy: bool
    why: tuple[str, ...] = ()

    @field_validator("why", mode="before")
    @classmethod
    def _words_or_list(cls, value: object) -> object:
        return (value,) if isinstance(value, str) else value


class Score(Frozen):
    found: int  # claims the finder found
    labelled: int  # labelled check-worthy sentences
    true_positives: int  # found claims that are labelled check-worthy
    precision: float
    recall: float
    f1: float


@dataclass
class _Counts:
    found: int = 0
    labelled: int = 0
    hits: int = 0  # found claims matching a check-worthy label
    recalled: int = 0  # check-worthy labels matched by a found claim
    drafts: list[str] = field(default_factory=list)

    def score(self) -> Score:
        precision = self.hits / self.found if self.found else 0.0
        recall = self.recalled / self.labelled if self.labelled else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return Score(found=self.found, labelled=self.labelled, true_positives=self.hits, precision=round(precision, 4),
                     recall=round(recall, 4), f1=round(f1, 4))


class LanguageScore(Frozen):
    language: str  # 'en', 'zh', ... or 'all'
    drafts: tuple[str, ...]
    score: Score


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"[*_`~]+|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", text)
    return " ".join(text.lower().split())


def _same(a: str, b: str) -> bool:
    if a == b or (min(len(a), len(b)) >= 8 and (a in b or b in a)):
        return True
    return SequenceMatcher(None, a, b, autojunk=False).ratio() >= SIMILAR


def _match(found: Sequence[FoundClaim], labels: Sequence[Label]) -> _Counts:
    keys = [normalize(label.sentence) for label in labels]
    counts = _Counts(found=len(found), labelled=sum(1 for label in labels if label.checkworthy))
    recalled: set[int] = set()
    for claim in found:
        text = normalize(claim.text)
        exact = [i for i, key in enumerate(keys) if key == text]
        matches = exact or [i for i, key in enumerate(keys) if _same(text, key)]
        positive = [i for i in matches if labels[i].checkworthy]
        if positive:
            counts.hits += 1
            recalled.update(positive)
    counts.recalled = len(recalled)
    return counts


def score(found: Sequence[FoundClaim], labels: Sequence[Label]) -> Score:
    """Precision (found claims labelled check-worthy), recall (check-worthy labels found) and F1 for one draft."""
    return _match(found, labels).score()


def read_labels(path: Path) -> list[Label]:
    labels = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            labels.append(Label.model_validate(json.loads(line)))
        except ValueError as exc:
            raise CheckError(str(path), f"line {number} is not a label ({exc.__class__.__name__})",
                             fix='write one {"sentence", "checkworthy", "why"} object per line') from None
    return labels


def labelled_drafts(folder: Path) -> list[tuple[Path, Path]]:
    """(draft, labels) pairs of a folder, by name."""
    folder = Path(folder)
    if not folder.is_dir():
        raise CheckError(str(folder), "not a folder", fix="give a folder of drafts and their NAME.labels.jsonl")
    pairs = []
    for labels in sorted(folder.glob("*.labels.jsonl")):
        stem = labels.name.removesuffix(".labels.jsonl")
        drafts = [folder / f"{stem}{ext}" for ext in KINDS if (folder / f"{stem}{ext}").is_file()]
        if drafts:
            pairs.append((drafts[0], labels))
    if not pairs:
        raise CheckError(str(folder), "no labelled drafts (NAME.md beside NAME.labels.jsonl)",
                         fix="put each draft beside its NAME.labels.jsonl")
    return pairs


def run_claims(folder: Path, min_worth: float = 0.0) -> list[LanguageScore]:
    """The finder scored on a folder of labelled drafts: one row per language, then 'all'. ``min_worth`` > 0 keeps
    only the claims worth at least that."""
    by_language: dict[str, _Counts] = {}
    total = _Counts()
    for draft_path, labels_path in labelled_drafts(folder):
        draft = read_draft(draft_path)
        found = [claim for claim in find_claims(draft.sentences) if not min_worth or worth(claim.text) >= min_worth]
        counts = _match(found, read_labels(labels_path))
        for bucket in (by_language.setdefault(draft.language, _Counts()), total):
            bucket.found += counts.found
            bucket.labelled += counts.labelled
            bucket.hits += counts.hits
            bucket.recalled += counts.recalled
            bucket.drafts.append(draft_path.name)
    rows = [LanguageScore(language=lang, drafts=tuple(c.drafts), score=c.score()) for lang, c in sorted(by_language.items())]
    return rows + [LanguageScore(language="all", drafts=tuple(total.drafts), score=total.score())]
