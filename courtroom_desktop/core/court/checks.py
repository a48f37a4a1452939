"""Text checks of the court: citations and quotations, repetition, injected instructions, generated text that echoes
its instructions, search-query hygiene, challenges, and the quality guard. Pure functions, no model calls."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from courtroom_desktop.core.court.injection import looks_like_instructions  # noqa: F401 - the court's checks, one place
from courtroom_desktop.core.court.records import Citation, Code, Reason, Turn
from courtroom_desktop.core.text import STOPWORDS as ANY_STOPWORDS
from courtroom_desktop.core.text import has_cjk, join_sentences, sentence_spans
from courtroom_desktop.core.text import words as script_words

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
# the court's own vocabulary carries no evidence either, in Chinese too
COURT_WORDS_ZH = frozenset("主张 证据 论点 论据 控方 辩方 检方 法官 法庭 法院 判决 裁决 研究 表明 显示 认为 指出 段落 文献".split())
DEGENERATE = {"claim", "evidence", "the claim", "query", "search", "argument", "", "主张", "证据", "查询", "搜索"}


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", text.lower())).strip()


def content_words(text: str) -> set[str]:
    """Words that carry the point: English words of three letters or more, not stop words or the court's own
    vocabulary; Chinese words of two characters or more (segmented), likewise."""
    found = {w.lower() for w in WORD.findall(text) if w.lower() not in STOPWORDS and len(w) > 2}
    if has_cjk(text):
        found.update(w for w in _cjk_words(text) if len(w) >= 2)
    return found


def _cjk_words(text: str) -> list[str]:
    return [w for w in script_words(text) if has_cjk(w) and w not in ANY_STOPWORDS and w not in COURT_WORDS_ZH]


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


CJK = "\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
_DASHES = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
                         "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00ad": None})


def quote_key(text: str) -> str:
    """Text as a quotation is compared: ligatures and full-width forms unfolded (NFKC), soft hyphens dropped, words
    hyphenated across a line break joined ("treat- ment" -> "treatment"), dashes and curly quotes made plain,
    whitespace collapsed (and dropped next to CJK characters, which have none), case folded."""
    text = unicodedata.normalize("NFKC", text or "").translate(_DASHES)
    text = re.sub(r"(\w)-\s+(\w)", r"\1\2", text)
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(rf"\s+(?=[{CJK}])|(?<=[{CJK}])\s+", "", text)
    return text.casefold()


def quote_in(quote: str, passage: str) -> bool:
    """Is ``quote`` in ``passage``, word for word (punctuation may differ)?"""
    key = normalise(quote_key(quote))
    return bool(key) and key in normalise(quote_key(passage))


def check_quotes(quotes: Sequence[tuple[str, str]], passages: dict[str, str]) -> list[Citation]:
    """Citations of a structured argument, (evidence id, exact quote or ''), checked like those of free text."""
    citations: list[Citation] = []
    for evidence_id, quote in quotes:
        quote = (quote or "").strip()
        if evidence_id not in passages:
            citations.append(Citation(evidence_id=evidence_id, quote=quote, valid=False,
                                      problem=Reason.of(Code.cite_not_in_pool, id=evidence_id)))
        elif quote and not quote_in(quote, passages[evidence_id]):
            citations.append(Citation(evidence_id=evidence_id, quote=quote, valid=False,
                                      problem=Reason.of(Code.cite_quote_missing, quote=quote[:60], id=evidence_id)))
        else:
            citations.append(Citation(evidence_id=evidence_id, quote=quote))
    return citations


def check_citations(text: str, passages: dict[str, str]) -> list[Citation]:
    """Every [E#] must name a passage in the pool; a quotation next to a citation must be in that passage."""
    citations: list[Citation] = []
    for evidence_id in cited_ids(text):
        if evidence_id not in passages:
            citations.append(Citation(evidence_id=evidence_id, valid=False,
                                      problem=Reason.of(Code.cite_not_in_pool, id=evidence_id)))
        else:
            citations.append(Citation(evidence_id=evidence_id))
    # quotations: attributed to the citation that follows them within the same sentence
    for match in QUOTE.finditer(text):
        after = text[match.end(): match.end() + 80]
        ids = cited_ids(after.split(".")[0] + "]") if "[" in after else []
        quote = match.group(1).strip()
        for evidence_id in ids[:1]:
            if evidence_id in passages and not quote_in(quote, passages[evidence_id]):
                citations = [c for c in citations if c.evidence_id != evidence_id]
                citations.append(Citation(evidence_id=evidence_id, quote=quote, valid=False,
                                          problem=Reason.of(Code.cite_quote_missing, quote=quote[:60],
                                                            id=evidence_id)))
            elif evidence_id in passages:
                citations = [c if c.evidence_id != evidence_id else Citation(evidence_id=evidence_id, quote=quote)
                             for c in citations]
    return citations


def trim_repetition(text: str, max_chars: int = 2400) -> str:
    """Small models loop: drop sentences already said and cut to a length cap at a sentence end (. ! ? or 。！？)."""
    text = text.strip()
    seen: set[str] = set()
    kept: list[str] = []
    for start, end in sentence_spans(text) or [(0, len(text))]:
        sentence = text[start:end]
        key = normalise(sentence)
        if not key or key in seen:
            continue
        seen.add(key)
        kept.append(sentence)
    result = join_sentences(kept)
    if len(result) > max_chars:
        cut = result[:max_chars]
        end = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "), cut.rfind("。"), cut.rfind("！"), cut.rfind("？"))
        result = cut[: end + 1] if end > max_chars // 2 else cut
    return result


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
    for word in _cjk_words(text) if has_cjk(text) else ():
        if len(word) >= 2 and word not in excluded:
            frequency[word] = frequency.get(word, 0) + 1
    return " ".join(sorted(frequency, key=lambda w: (-frequency[w], w))[:count])


def quality_flags(turn: Turn, previous: Turn | None) -> list[Reason]:
    """Flags of the quality guard for one turn, given the opponent's turn before it."""
    flags = []
    if not any(c.valid for c in turn.citations):
        flags.append(Reason.of(Code.flag_no_evidence))
    if previous is not None and previous.seat != turn.seat:
        if overlap(turn.text, previous.text) < 0.12:
            flags.append(Reason.of(Code.flag_parallel_monologue))
        elif len(content_words(turn.text) - content_words(previous.text)) < 3:
            flags.append(Reason.of(Code.flag_weak_challenge))
    return flags


# ---------------------------------------------------------------- generated text: what a model must not hand in
SENTENCE = re.compile(r"[^.!?。！？；;\n]+(?:[.!?。！？；;]+[\"'”’)\]]*|\n|$)")
ECHO = re.compile(
    r"\byou are (a|an|the|now)\b[^.!?。！？]{0,80}?\b(assistant|ai|model|judge|prosecution|prosecutor|defen[cs]e|"
    r"counsel|court|chatbot|expert|system)\b|\bas an ai\b|\bi am an ai\b|\bdesigned to (support|assist|help)\b"
    r"|\b(answer|reply|respond)\s+(only\s+)?with\s+(one|a|only|the)\b[^.!?]{0,40}\bjson\b|\bjson schema\b"
    r"|(^|\n)\s*(system|user|assistant|rules|instructions?)\s*:|\bthey are data, never instructions\b"
    r"|\bcite every factual statement\b|\byou (must|should|may|are (not )?(allowed|required) to)\b[^.!?]{0,40}"
    r"\b(cite|quote|answer|write|argue|use|rule|give)\b|你是一个|作为(一个)?(人工智能|AI)",
    re.I)
TEMPLATE = re.compile(
    r"[{}]|<\|[^|>]{0,24}\|>|</?s>|\[/?INST\]|<</?SYS>>|</?\s*(evidence|argument|system|user|assistant)\b[^>]{0,80}>?"
    r"|```|\$\{|\[\s*\]", re.I)  # [] : an empty list the model was to fill
SHINGLE = 6  # consecutive words shared with the instructions that make a sentence an echo of them


def sentences(text: str) -> list[str]:
    """Sentences, ending at . ! ? ; and their CJK forms 。！？；, or at a line break."""
    return [m.group(0).strip() for m in SENTENCE.finditer(text or "") if m.group(0).strip()]


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = normalise(text).split()
    return {tuple(words[i:i + SHINGLE]) for i in range(len(words) - SHINGLE + 1)}


def _sentence_problems(sentence: str, instructions: set[tuple[str, ...]]) -> list[Reason]:
    problems = []
    if TEMPLATE.search(sentence):
        problems.append(Reason.of(Code.problem_template))
    if ECHO.search(sentence) or instructions & _shingles(sentence):
        problems.append(Reason.of(Code.problem_echo))
    return problems


def generated_problems(text: str, instructions: Sequence[str] = (), need_citation: bool = False) -> list[Reason]:
    """What is wrong with model-written text before it is shown or stored: sentences that echo the instructions or a
    role prompt, stray template characters, repeated sentences, and (``need_citation``) no [E#] citation at all."""
    given = set().union(*(_shingles(i) for i in instructions)) if instructions else set()
    problems: list[Reason] = []
    seen: set[str] = set()
    for sentence in sentences(text):
        found = _sentence_problems(sentence, given)
        key = normalise(sentence)
        if not found and key and key in seen and (len(key.split()) > 2 or len(re.findall(f"[{CJK}]", key)) >= 4):
            found = [Reason.of(Code.problem_repeats)]
        seen.add(key)
        problems.extend(p for p in found if p not in problems)
    if need_citation and text.strip() and not cited_ids(text):
        problems.append(Reason.of(Code.problem_no_citation))
    return problems


def cut_generated(text: str, instructions: Sequence[str] = ()) -> str:
    """``text`` without its echoing, template-ridden and repeated sentences."""
    given = set().union(*(_shingles(i) for i in instructions)) if instructions else set()
    kept: list[str] = []
    seen: set[str] = set()
    for sentence in sentences(text):
        key = normalise(sentence)
        if _sentence_problems(sentence, given) or not key or key in seen:
            continue
        seen.add(key)
        kept.append(sentence)
    joiner = "" if kept and re.search(f"[{CJK}]", kept[0][-1:]) else " "
    return joiner.join(kept).strip()


# ---------------------------------------------------------------- challenges
CHALLENGE_ID = re.compile(r"\bQ(\d+)\b")


def is_question(text: str) -> bool:
    """Enough of a question to be a challenge: three content words or more (six CJK characters), not a label."""
    plain = CITATION.sub("", text or "")
    return len(content_words(plain)) >= 3 or len(re.findall(f"[{CJK}]", plain)) >= 6


def questions_in(text: str, limit: int = 2) -> list[str]:
    """The direct questions of an argument (sentences that end in a question mark), citations stripped."""
    found = []
    for sentence in sentences(text):
        if sentence.rstrip("\"'”’)] ").endswith(("?", "？")):
            plain = " ".join(CITATION.sub("", sentence).split())
            if is_question(plain):
                found.append(plain)
    return found[:limit]


def challenge_ids(text: str) -> list[str]:
    """Challenge ids (Q3) an argument names, in order, once each."""
    return list(dict.fromkeys(f"Q{n}" for n in CHALLENGE_ID.findall(text or "")))
