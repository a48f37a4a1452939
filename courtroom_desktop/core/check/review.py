"""The reviewer's edits of a draft's list of claims, before anything is checked: pure functions on a ``Draft`` and
``CheckClaim`` lists, used by the window's review list and by ``courtroom check --claims FILE``.

Edits: ``edit`` (new text, same places), ``merge`` (several claims into one, standing at all their places), ``split``
(one claim into two at a character), ``add_sentence`` (a sentence of the draft the finder passed over). A list goes
to a file with ``dump_claims`` and comes back with ``load_claims_file``, which places each claim in the draft again:
by its sentence indexes while its text still lies in those sentences, else by finding its text among the draft's
sentences (exactly, then ignoring spaces and case, then the sentence sharing most of its words, more than half; for
Chinese, characters). A claim that lies inside one paragraph sentence stands at its own span there; a PDF location
keeps its sentence's rectangles (the draft gives no box per character).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, cast, get_args

from courtroom_desktop.core.check.claims import FoundClaim
from courtroom_desktop.core.check.drafts import Draft, DraftSentence, Location
from courtroom_desktop.core.check.records import CheckClaim
from courtroom_desktop.core.errors import CheckError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.text import CJK, CJK_PUNCT, HAN, STOPWORDS, join_sentences

Origin = Literal["rules", "model", "edited", "merged", "split", "added"]
ORIGINS: frozenset[str] = frozenset(get_args(Origin))
REVIEW = "the list of claims"  # what a CheckError of an edit names in place of a file
OVERLAP = 0.5  # a reworded claim is placed in the sentence holding more than this share of its words
_CJK_EDGE = re.compile(f"[{CJK}{CJK_PUNCT}]")
_CJK_END = re.compile(f"[{CJK}{CJK_PUNCT}]$")
_LATIN_WORD = re.compile(r"[^\W_]+")
_HAN_CHAR = re.compile(f"[{HAN}]")


# ------------------------------------------------------------------------------------------------ finding text
def text_pattern(text: str, *, ignore_case: bool = False) -> re.Pattern[str] | None:
    """A pattern finding ``text`` with any run of spaces (line breaks included) where it has one, and optional spaces
    beside CJK characters (a model or a person may add or drop them there); None for blank text."""
    tokens = text.split()
    if not tokens:
        return None
    pattern = re.escape(tokens[0])
    for before, after in zip(tokens, tokens[1:], strict=False):
        cjk = _CJK_EDGE.match(before[-1]) or _CJK_EDGE.match(after[0])
        pattern += (r"\s*" if cjk else r"\s+") + re.escape(after)
    return re.compile(pattern, re.IGNORECASE if ignore_case else 0)


def find_span(text: str, within: str, *, ignore_case: bool = False) -> tuple[int, int] | None:
    """Where ``text`` stands in ``within``: exactly (ends trimmed), else with its spaces normalised (and its case, when
    ``ignore_case``); None when it is not there."""
    text = text.strip()
    if not text:
        return None
    at = within.find(text)
    if at >= 0:
        return at, at + len(text)
    pattern = text_pattern(text, ignore_case=ignore_case)
    match = pattern.search(within) if pattern else None
    return (match.start(), match.end()) if match else None


def narrow(location: Location, start: int, end: int) -> Location:
    """``location`` (a whole sentence's) for the characters [start, end) of that sentence: a paragraph location's span
    narrowed to them; a PDF location as it is."""
    if location.kind != "paragraph" or location.start is None:
        return location
    return location.model_copy(update={"start": location.start + start, "end": location.start + end})


def _joined(sentences: Sequence[DraftSentence]) -> tuple[str, list[int]]:
    """The sentences' text as ``merge`` joins claims, and where each sentence starts in it."""
    parts: list[str] = []
    starts, size = [], 0
    for sentence in sentences:
        if parts and not _CJK_END.search(parts[-1]):  # as core.text.join_sentences
            parts.append(" ")
            size += 1
        starts.append(size)
        parts.append(sentence.text)
        size += len(sentence.text)
    return "".join(parts), starts


def _place_in(text: str, sentences: Sequence[DraftSentence], *,
              ignore_case: bool) -> tuple[tuple[int, ...], tuple[Location, ...]] | None:
    """The sentences (of ``sentences``, in that order) that ``text`` overlaps when looked for in their joined text, and
    its location in each (narrowed to the part of the claim in it); None when it is not there."""
    joined, starts = _joined(sentences)
    span = find_span(text, joined, ignore_case=ignore_case)
    if span is None:
        return None
    indexes, locations = [], []
    for sentence, offset in zip(sentences, starts, strict=True):
        start, end = max(span[0], offset), min(span[1], offset + len(sentence.text))
        if start < end:
            indexes.append(sentence.index)
            locations.append(narrow(sentence.location, start - offset, end - offset))
    return tuple(indexes), tuple(locations)


def _words(text: str) -> set[str]:
    """What the overlap counts: Latin words (no stop words, lower case) and Chinese characters."""
    out = {w for w in _LATIN_WORD.findall(_HAN_CHAR.sub(" ", text).lower()) if w not in STOPWORDS}
    return out | set(_HAN_CHAR.findall(text))


def best_overlap(text: str, sentences: Sequence[DraftSentence]) -> tuple[DraftSentence, float] | None:
    """The sentence holding the largest share of ``text``'s words (ties: the one with fewest other words), and that
    share; None when ``text`` has no words."""
    words = _words(text)
    if not words:
        return None
    best: tuple[float, float, DraftSentence] | None = None
    for sentence in sentences:
        theirs = _words(sentence.text)
        shared = len(words & theirs)
        key = (shared / len(words), shared / len(words | theirs))
        if shared and (best is None or key > best[:2]):
            best = (*key, sentence)
    return (best[2], best[0]) if best else None


def place(text: str, draft: Draft, hint: Sequence[int] = ()) -> tuple[tuple[int, ...], tuple[Location, ...], bool]:
    """Where ``text`` stands in ``draft``: (sentence indexes, locations, exact) where ``exact`` is False for a
    reworded claim placed by overlap (it stands at its whole sentence). ``hint``: sentence indexes it came from, used
    while the text still lies in them. Raises LookupError when it is nowhere."""
    if hint and all(0 <= i < len(draft.sentences) for i in hint):
        hinted = [draft.sentences[i] for i in hint]
        for ignore_case in (False, True):
            found = _place_in(text, hinted, ignore_case=ignore_case)
            if found:
                return (*found, True)
    for ignore_case in (False, True):
        for sentence in draft.sentences:  # one sentence first: the whole draft's first match might straddle two
            found = _place_in(text, [sentence], ignore_case=ignore_case)
            if found:
                return (*found, True)
        found = _place_in(text, draft.sentences, ignore_case=ignore_case)
        if found:
            return (*found, True)
    best = best_overlap(text, draft.sentences)
    if best and best[1] > OVERLAP:
        return (best[0].index,), (best[0].location,), False
    raise LookupError(text)


# ------------------------------------------------------------------------------------------------ edits
def from_found(found: Sequence[FoundClaim], origin: Origin = "rules") -> list[CheckClaim]:
    """The finder's claims as the review list starts with them."""
    return [CheckClaim(text=f.text, sentences=(f.sentence_index,), locations=(f.location,), why=f.why, origin=origin)
            for f in found]


def _short(text: str, chars: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= chars else text[:chars - 1] + "…"


def edit(claim: CheckClaim, text: str) -> CheckClaim:
    """The claim with new wording; it stays where it stood."""
    text = text.strip()
    if not text:
        raise CheckError(REVIEW, Message("the edited claim '{_short(claim.text)}' is empty", _short(claim.text)),
                         fix=Message("type the claim's text, or drop the claim"))
    return claim.model_copy(update={"text": text, "origin": "edited"})


def _united(items: Sequence[Any]) -> tuple[Any, ...]:
    out: list[Any] = []
    for item in items:
        if item not in out:
            out.append(item)
    return tuple(out)


def _first(claim: CheckClaim) -> tuple[int, int]:
    """Where a claim starts in the draft, to put claims in reading order."""
    location = claim.locations[0] if claim.locations else None
    start = location.start if location is not None and location.start is not None else 0
    return (min(claim.sentences) if claim.sentences else 1 << 30), start


def _joined_locations(claims: Sequence[CheckClaim]) -> tuple[Location, ...]:
    """The claims' locations united in order, the touching spans of one sentence made one (two halves of a split
    sentence merged back stand at the whole sentence again)."""
    out: list[tuple[int | None, Location]] = []
    for claim in claims:
        paired = len(claim.sentences) == len(claim.locations)
        for n, location in enumerate(claim.locations):
            sentence = claim.sentences[n] if paired else None
            last = out[-1] if out else None
            if (last is not None and sentence is not None and last[0] == sentence
                    and last[1].kind == location.kind == "paragraph" and last[1].paragraph == location.paragraph
                    and None not in (last[1].start, last[1].end, location.start, location.end)
                    and cast(int, last[1].start) <= cast(int, location.start) <= cast(int, last[1].end) + 1):
                end = max(cast(int, last[1].end), cast(int, location.end))
                out[-1] = (sentence, last[1].model_copy(update={"end": end}))
            elif all(location != seen for _, seen in out):
                out.append((sentence, location))
    return tuple(location for _, location in out)


def merge(claims: Sequence[CheckClaim]) -> CheckClaim:
    """One claim of several, in draft order: their texts joined (a space between them, none after CJK), standing at
    all their sentences and locations, with all their reasons."""
    if len(claims) < 2:
        raise CheckError(REVIEW, Message("a merge needs two claims or more ({len(claims)} chosen)", len(claims)),
                         fix=Message("choose the claims to merge together"))
    ordered = sorted(claims, key=_first)
    return CheckClaim(text=join_sentences([c.text.strip() for c in ordered]),
                      sentences=tuple(sorted({i for c in ordered for i in c.sentences})),
                      locations=_joined_locations(ordered),
                      why=_united([w for c in ordered for w in c.why]), origin="merged")


def split(claim: CheckClaim, at: int) -> tuple[CheckClaim, CheckClaim]:
    """Two claims of one, cut before character ``at`` of its text. Both keep its sentences and locations; a claim
    standing exactly at one paragraph span gets each part's own span."""
    text = claim.text
    left, right = text[:at], text[at:]
    if not 0 < at < len(text) or not left.strip() or not right.strip():
        raise CheckError(REVIEW, Message("cannot split '{_short(text)}' at character {at}: a part would be empty",
                                         _short(text), at),
                         fix=Message("split between two words, after character 1 and before character {len(text)}",
                                     len(text)))
    locations: tuple[tuple[Location, ...], tuple[Location, ...]] = (claim.locations, claim.locations)
    only = claim.locations[0] if len(claim.locations) == 1 else None
    if (only is not None and only.kind == "paragraph" and only.start is not None and only.end is not None
            and only.end - only.start == len(text) and claim.origin != "edited"):
        left_start = len(left) - len(left.lstrip())
        right_start = at + len(right) - len(right.lstrip())
        locations = ((narrow(only, left_start, left_start + len(left.strip())),),
                     (narrow(only, right_start, right_start + len(right.strip())),))
    parts = (left.strip(), right.strip())
    made = [claim.model_copy(update={"text": part, "locations": where, "origin": "split"})
            for part, where in zip(parts, locations, strict=True)]
    return made[0], made[1]


def add_sentence(draft: Draft, sentence_index: int) -> CheckClaim:
    """A sentence of the draft, as a claim of its own."""
    if not 0 <= sentence_index < len(draft.sentences):
        raise CheckError(draft.source, Message("there is no sentence {sentence_index} (the draft has "
                                               "{len(draft.sentences)} sentences, numbered 0 to "
                                               "{len(draft.sentences) - 1})",
                                               sentence_index, len(draft.sentences), len(draft.sentences) - 1),
                         fix=Message("choose a sentence of the draft"))
    sentence = draft.sentences[sentence_index]
    return CheckClaim(text=sentence.text, sentences=(sentence.index,), locations=(sentence.location,), origin="added")


# ------------------------------------------------------------------------------------------------ files
FIX_FILE = ('write a JSON list of claims: strings, or objects with a "text" (and optionally "sentences", "why"), '
            "or the output of `courtroom check DRAFT --list-claims --json`")


def dump_claims(claims: Sequence[CheckClaim]) -> str:
    """The list as JSON that ``load_claims_file`` reads back (``where`` is for people; the loader places each claim
    again by its text and sentences)."""
    items = [{"text": c.text, "sentences": list(c.sentences), "why": list(c.why), "origin": c.origin,
              "where": [loc.describe() for loc in c.locations]} for c in claims]
    return json.dumps({"claims": items}, ensure_ascii=False, indent=2) + "\n"


def _items(path: Path) -> list[Any]:
    try:
        raw = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise CheckError(str(path), Message("claims file not found"), fix=Message("check the path")) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CheckError(str(path), Message("the claims file cannot be read ({exc})", exc),
                         fix=Message("save it as UTF-8 text, or check its permissions")) from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise CheckError(str(path), Message("not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}",
                                            exc.msg, exc.lineno, exc.colno),
                         fix=Message("correct line {exc.lineno}; {FIX_FILE}", exc.lineno, FIX_FILE)) from None
    if isinstance(data, dict) and isinstance(data.get("claims"), list):
        return cast(list[Any], data["claims"])
    if isinstance(data, list):
        return data
    raise CheckError(str(path), Message("the claims file holds neither a list of claims nor an object with a "
                                        "\"claims\" list"),
                     fix=FIX_FILE)


def _hint(item: dict[str, Any]) -> tuple[int, ...]:
    value = item.get("sentences", item.get("sentence_index", ()))
    values = value if isinstance(value, list) else [value]
    return tuple(v for v in values if isinstance(v, int) and not isinstance(v, bool))


def _why(item: dict[str, Any]) -> tuple[str, ...]:
    value = item.get("why", ())
    if isinstance(value, str):
        return (value,) if value.strip() else ()
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def load_claims_file(path: Path, draft: Draft) -> list[CheckClaim]:
    """A reviewed list of claims from a JSON file (see ``FIX_FILE``), each placed in ``draft``; raises CheckError
    naming the file, the item (from 1) and what to do, for broken JSON, an item without text, or a claim that is not
    in the draft."""
    path = Path(path)
    claims = []
    for number, item in enumerate(_items(path), start=1):
        entry: dict[str, Any] = {"text": item} if isinstance(item, str) else item if isinstance(item, dict) else {}
        text = entry.get("text")
        if not isinstance(text, str) or not text.strip():
            raise CheckError(str(path), Message("claim {number} has no text ({_short(json.dumps(item, "
                                                "ensure_ascii=False))})",
                                                number, _short(json.dumps(item, ensure_ascii=False))),
                             fix=Message('give claim {number} a "text", or remove it; {FIX_FILE}', number, FIX_FILE))
        text = text.strip()
        try:
            sentences, locations, exact = place(text, draft, _hint(entry))
        except LookupError:
            raise CheckError(str(path), Message("claim {number} ('{_short(text)}') is not in the draft "
                                                "{draft.source}",
                                                number, _short(text), draft.source),
                             fix=Message("copy claim {number}'s text from the draft (or reword less), or remove it",
                                         number)) from None
        why = _why(entry)
        origin = entry.get("origin")
        if origin not in ORIGINS:  # a file written by hand: a reworded finding is an edit, a new one an addition
            whole = join_sentences([draft.sentences[i].text for i in sentences])
            if not exact or (why and text != whole):
                origin = "edited"
            else:
                origin = "rules" if why else "added"
        claims.append(CheckClaim(text=text, sentences=sentences, locations=locations, why=why,
                                 origin=cast(Origin, origin)))
    return claims
