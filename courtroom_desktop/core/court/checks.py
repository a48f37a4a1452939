"""Text checks of the court: citations and quotations, repetition, evidence levels, injected instructions,
search-query hygiene and the quality guard. Pure functions, no model calls."""

from __future__ import annotations

import re
from collections.abc import Iterable

from courtroom_desktop.core.court.records import Citation, Turn

CITATION = re.compile(r"\[\s*(E\d+(?:\s*[,;]\s*E\d+)*)\s*\]")
QUOTE = re.compile(r"[\"“]([^\"”]{12,400})[\"”]")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9\-]+")
STOPWORDS = frozenset("""a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has have having he her
here hers him his how i if in into is it its itself just me more most my no nor not now of off on once only or other our
out over own same she should so some such than that the their them then there these they this those through to too
under until up very was we were what when where which while who whom why will with would you your claim evidence
argument argue argues prosecution defense defence judge court also may might shows show showed study studies
however therefore thus""".split())
INJECTION = re.compile(
    r"\b(ignore|disregard|forget)\b.{0,40}\b(previous|prior|above|all|earlier)\b.{0,40}\b(instructions?|prompts?|rules?)\b"
    r"|\b(you are now|as an ai|system prompt|respond only with)\b|\bnew instructions?\s*(:|follow|below)"
    r"|\b(do not|don't|stop)\s+(follow|obey)\w*\b.{0,30}\b(instructions?|rules?|prompts?)\b"
    r"|\b(rule|declare|find|judge)\b.{0,30}\b(claim|case)\b.{0,30}\b(supported|refuted|true|false|proven)\b"
    r"|\b(rule|decide|find)\b.{0,20}\bin favou?r of\b.{0,20}\b(defen[cs]e|prosecution|claim)\b"
    r"|\bignore\b.{0,40}\b(arguments?|evidence|passages?|other side)\b.{0,40}\b(rule|find|declare|verdict|return)"
    r"|\b(attention|note to|message to|dear)\s+(the\s+)?(ai|llm|language model|assistant|chatbot|model|judge model)\b"
    r"|\byou are (chatgpt|gpt|claude|llama|an? (helpful )?(ai|assistant|language model))\b"
    r"|\b(ready_for_verdict|switch_request|tendency|confidence|label)\b[\"']?\s*(to|=|:)\s*[\"']?(true|1(\.0)?|support)"
    r"|\boverride\b.{0,20}\b(instructions?|rules?|verdict|confidence|label)\b"
    r"|</?\s*(system|assistant|evidence|instructions?)\s*>|<\|\s*\w+\s*\|>|\[/?INST\]|<</?SYS>>"
    r"|(^|\n)\s*(#{2,}\s*(instruction|system|response)\b|(system|assistant)\s*:)",
    re.I | re.S,
)
LEVELS = (
    ("systematic review", re.compile(r"\b(systematic review|meta-analys[ie]s|meta-analytic|pooled analysis)\b", re.I)),
    ("randomised trial", re.compile(r"\b(randomi[sz]ed|randomly assigned|RCT|placebo-controlled|double-blind)\b", re.I)),
    ("cohort", re.compile(r"\b(cohort|prospective|longitudinal|case-control|cross-sectional|observational)\b", re.I)),
    ("case report", re.compile(r"\b(case report|case series|we report a|we describe a patient)\b", re.I)),
    ("expert opinion", re.compile(r"\b(expert opinion|editorial|commentary|consensus statement|perspective)\b", re.I)),
)
DEGENERATE = {"claim", "evidence", "the claim", "query", "search", "argument", ""}


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", text.lower())).strip()


def content_words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text) if w.lower() not in STOPWORDS and len(w) > 2}


def overlap(a: str, b: str) -> float:
    """Share of the smaller text's content words that the other text also has."""
    wa, wb = content_words(a), content_words(b)
    if not wa or not wb:
        return 0.0
    return len(wa & wb) / min(len(wa), len(wb))


def cited_ids(text: str) -> list[str]:
    ids: list[str] = []
    for match in CITATION.finditer(text):
        for part in re.split(r"\s*[,;]\s*", match.group(1)):
            if part not in ids:
                ids.append(part)
    return ids


def check_citations(text: str, passages: dict[str, str]) -> list[Citation]:
    """Every [E#] must name a passage in the pool; a quotation next to a citation must be in that passage."""
    citations: list[Citation] = []
    for evidence_id in cited_ids(text):
        if evidence_id not in passages:
            citations.append(Citation(evidence_id=evidence_id, valid=False,
                                      problem=f"{evidence_id} is not in the evidence pool"))
        else:
            citations.append(Citation(evidence_id=evidence_id))
    # quotations: attributed to the citation that follows them within the same sentence
    for match in QUOTE.finditer(text):
        after = text[match.end(): match.end() + 80]
        ids = cited_ids(after.split(".")[0] + "]") if "[" in after else []
        quote = match.group(1).strip()
        for evidence_id in ids[:1]:
            if evidence_id in passages and normalise(quote) not in normalise(passages[evidence_id]):
                citations = [c for c in citations if c.evidence_id != evidence_id]
                citations.append(Citation(evidence_id=evidence_id, quote=quote, valid=False,
                                          problem=f"the quotation \"{quote[:60]}\" is not in {evidence_id}"))
            elif evidence_id in passages:
                citations = [c if c.evidence_id != evidence_id else Citation(evidence_id=evidence_id, quote=quote)
                             for c in citations]
    return citations


def trim_repetition(text: str, max_chars: int = 2400) -> str:
    """Small models loop: drop sentences already said and cut to a length cap at a sentence end."""
    sentences = re.split(r"(?<=[.!?])\s+", text.strip())
    seen: set[str] = set()
    kept: list[str] = []
    for sentence in sentences:
        key = normalise(sentence)
        if not key or key in seen:
            continue
        seen.add(key)
        kept.append(sentence)
    result = " ".join(kept)
    if len(result) > max_chars:
        cut = result[:max_chars]
        end = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "))
        result = cut[: end + 1] if end > max_chars // 2 else cut
    return result


def evidence_level(text: str, title: str = "") -> str:
    for level, pattern in LEVELS:
        if pattern.search(title) or pattern.search(text):
            return level
    return "other"


def looks_like_instructions(text: str) -> bool:
    return bool(INJECTION.search(text))


def clean_queries(queries: Iterable[str], limit: int = 6) -> list[str]:
    """Drop degenerate queries (empty, 'claim', a word repeated) and duplicates; keep at most ``limit``."""
    result: list[str] = []
    seen: set[str] = set()
    for query in queries:
        query = re.sub(r"\s+", " ", str(query)).strip()[:300]
        words = normalise(query).split()
        key = " ".join(sorted(set(words)))
        if normalise(query) in DEGENERATE or len(content_words(query)) < 2 or len(set(words)) < len(words) / 2:
            continue
        if key in seen:
            continue
        seen.add(key)
        result.append(query)
    return result[:limit]


def key_terms(text: str, count: int = 8, exclude: Iterable[str] = ()) -> str:
    """The most frequent content words of ``text`` (for a query built from the opponent's argument)."""
    excluded = {w.lower() for w in exclude}
    frequency: dict[str, int] = {}
    for word in WORD.findall(text):
        lower = word.lower()
        if lower in STOPWORDS or len(lower) <= 3 or lower in excluded or re.fullmatch(r"e\d+", lower):
            continue
        frequency[lower] = frequency.get(lower, 0) + 1
    return " ".join(sorted(frequency, key=lambda w: (-frequency[w], w))[:count])


def quality_flags(turn: Turn, previous: Turn | None) -> list[str]:
    """Flags of the quality guard for one turn, given the opponent's turn before it."""
    flags = []
    if not any(c.valid for c in turn.citations):
        flags.append("argument with no evidence")
    if previous is not None and previous.seat != turn.seat:
        if overlap(turn.text, previous.text) < 0.12:
            flags.append("does not answer the other side (parallel monologue)")
        elif len(content_words(turn.text) - content_words(previous.text)) < 3:
            flags.append("weak challenge: repeats the other side without new points")
    return flags
