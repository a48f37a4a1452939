"""Text checks of the court: citations and quotations, repetition, injected instructions, generated text that echoes
its instructions, search-query hygiene, challenges, and the quality guard. Pure functions, no model calls."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from courtroom_desktop.core.court.injection import looks_like_instructions  # noqa: F401 - the court's checks, one place
from courtroom_desktop.core.court.records import Citation, Code, QualityScore, Reason, Stance, Turn
from courtroom_desktop.core.court.stance import wrong_side
from courtroom_desktop.core.text import CITATION, has_cjk, join_sentences, sentence_spans
from courtroom_desktop.core.text import CJK as HAN_KANA_HANGUL
from courtroom_desktop.core.text import STOPWORDS as ANY_STOPWORDS
from courtroom_desktop.core.text import words as script_words

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
# compiled once, at import (a worker thread imports this module before a trial): compiling the character class where
# it is used cost the window's thread 30 ms at the end of the first argument (re's cache had let it go)
_CJK_CHAR = re.compile(f"[{CJK}]")
_SPACE_BY_CJK = re.compile(rf"\s+(?=[{CJK}])|(?<=[{CJK}])\s+")
_DASHES = str.maketrans({"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
                         "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00ad": None})


def quote_key(text: str) -> str:
    """Text as a quotation is compared: ligatures and full-width forms unfolded (NFKC), soft hyphens dropped, words
    hyphenated across a line break joined ("treat- ment" -> "treatment"), dashes and curly quotes made plain,
    whitespace collapsed (and dropped next to CJK characters, which have none), case folded."""
    text = unicodedata.normalize("NFKC", text or "").translate(_DASHES)
    text = re.sub(r"(\w)-\s+(\w)", r"\1\2", text)
    text = re.sub(r"\s+", " ", text).strip()
    text = _SPACE_BY_CJK.sub("", text)
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
        result = cut[: end + 1] if end > max_chars // 2 else at_word_boundary(result, max_chars)
    return result


ELLIPSIS = "…"
TERMINAL = re.compile(r"[.!?。！？…][\"'”’)\]」』）]*\s*$")
TRAILING_CITATIONS = re.compile(r"(?:\s*\[\s*E\d+(?:\s*[,;]\s*E\d+)*\s*\])+\s*$")
SENTENCE_STOP = re.compile(r"[.!?][\"'”’)\]]*(?=\s)|[。！？][”’」』）)]*")


def at_word_boundary(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a word boundary (between two CJK characters, or at a space),
    ending in an ellipsis: never in the middle of a word."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if not (has_cjk(cut[-1:]) or text[limit:limit + 1].isspace() or not text[limit:limit + 1].isalnum()):
        space = cut.rstrip().rfind(" ")
        cut = cut[:space] if space > 0 else cut
    return cut.rstrip(" ,;:，；：") + ELLIPSIS


def end_cleanly(text: str, cut_off: bool = False) -> str:
    """A model's text that stops in mid-sentence ("The evidence is so st [E1]"), cut back to its last whole sentence;
    the citations of the dropped fragment stay (as ids). A text with no whole sentence is cut at its last word
    boundary, with an ellipsis, when it was ``cut_off`` (by the token limit or a length cap); otherwise it is left as
    it is (a sentence without its full stop). A text that ends a sentence is left alone, and so is one whose fragment
    ends in a citation or a closing bracket (a finished sentence that lacks only its full stop)."""
    text = (text or "").rstrip()
    trailing = TRAILING_CITATIONS.search(text)
    body, cites = (text[: trailing.start()].rstrip(), text[trailing.start():].strip()) if trailing else (text, "")
    if not body or TERMINAL.search(body):
        return text
    stops = list(SENTENCE_STOP.finditer(body))
    if stops and (cut_off or not cites and re.search(r"\w$", body)):
        end = stops[-1].end()
        kept, fragment = body[:end].rstrip(), body[end:]
        ids = [i for i in cited_ids(fragment + " " + cites) if i not in cited_ids(kept)]
        return kept + (" " + " ".join(f"[{i}]" for i in ids) if ids else "")
    if not cut_off:
        return text
    if has_cjk(body[-1:]):
        cut = body
    else:
        space = body.rfind(" ")
        cut = body[:space] if space > 0 else body
    cut = cut.rstrip(" ,;:，；：-") + ELLIPSIS
    return cut + (" " + cites if cites else "")


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
        if not found and key and key in seen and (len(key.split()) > 2 or len(_CJK_CHAR.findall(key)) >= 4):
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
    joiner = "" if kept and _CJK_CHAR.search(kept[0][-1:]) else " "
    return joiner.join(kept).strip()


# ---------------------------------------------------------------- challenges
CHALLENGE_ID = re.compile(r"\bQ(\d+)\b")


def is_question(text: str) -> bool:
    """Enough of a question to be a challenge: three content words or more (six CJK characters), not a label."""
    plain = CITATION.sub("", text or "")
    return len(content_words(plain)) >= 3 or len(_CJK_CHAR.findall(plain)) >= 6


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


# ---------------------------------------------------------------- copies: an argument that repeats an earlier one
COPY_WORDS = 5    # a shingle: five consecutive words ...
COPY_CHARS = 8    # ... or, in Chinese (no spaces between words), eight consecutive characters
COPY_SHARE = 0.5  # an argument half of whose shingles an earlier argument has is a copy of it
_COPY_TOKEN = re.compile(f"[{HAN_KANA_HANGUL}]|[^\\W{HAN_KANA_HANGUL}_]+")


def _copy_tokens(text: str) -> list[str]:
    """Words (CJK: characters) of an argument as a copy is compared: citations and quotations of passages left out
    (both sides may quote the same passage), case and punctuation folded."""
    plain = QUOTE.sub(" ", CITATION.sub(" ", quote_key(text)))
    return _COPY_TOKEN.findall(plain.casefold())


def _copy_shingles(tokens: list[str]) -> set[tuple[str, ...]]:
    cjk = sum(1 for t in tokens if has_cjk(t))
    size = COPY_CHARS if cjk * 2 > len(tokens) else COPY_WORDS
    return {tuple(tokens[i:i + size]) for i in range(len(tokens) - size + 1)}


def copy_share(text: str, earlier: str) -> float:
    """The share of ``text``'s shingles (five words; eight characters of Chinese) that ``earlier`` also has: 1.0 for a
    word-for-word copy, near it for a copy with a few words changed, low for an answer that quotes a phrase of it."""
    mine = _copy_shingles(_copy_tokens(text))
    if not mine:
        return 0.0
    return len(mine & _copy_shingles(_copy_tokens(earlier))) / len(mine)


def copied(text: str, earlier: Sequence[str], share: float = COPY_SHARE) -> int | None:
    """Index of the earlier argument ``text`` copies most (at least ``share`` of its shingles), or None."""
    scores = [(copy_share(text, e), i) for i, e in enumerate(earlier)]
    best = max(scores, default=(0.0, -1))
    return best[1] if best[0] >= share else None


def cut_copies(text: str, earlier: Sequence[str], share: float = COPY_SHARE) -> str:
    """``text`` without its sentences copied from an earlier argument (half their shingles in it, or, for a short
    sentence, the same words)."""
    before = [_copy_shingles(_copy_tokens(e)) for e in earlier]
    said = {" ".join(_copy_tokens(s)) for e in earlier for s in sentences(e)}
    kept = []
    for sentence in sentences(text):
        mine = _copy_shingles(_copy_tokens(sentence))
        if mine and any(len(mine & b) >= share * len(mine) for b in before):
            continue
        key = " ".join(_copy_tokens(sentence))
        if not mine and key and key in said:
            continue
        kept.append(sentence)
    return join_sentences(kept)


def cut_wrong_side(text: str, stance: Stance) -> str:
    """``text`` without its sentences that argue for the side opposite ``stance``."""
    return join_sentences([s for s in sentences(text) if not wrong_side(s, stance)])


# ---------------------------------------------------------------- the quality guard's scores
#: What each fault costs a turn: arguing without evidence most, then repeating the other side, talking past it, a
#: turn rejected twice (cut and flagged), and no question put to the other side.
QUALITY_WEIGHTS = {"no_evidence": 0.3, "weak_challenge": 0.2, "monologue": 0.2, "rejected": 0.2, "no_question": 0.1}
_REJECTED_CODES = {Code.flag_rejected_twice.value, Code.flag_quote_dropped.value, Code.flag_rejected.value}


def _faults(turn: Turn) -> dict[str, bool]:
    codes = {f.code for f in turn.flags}
    return {
        "no_evidence": not any(c.valid for c in turn.citations),
        "weak_challenge": Code.flag_weak_challenge.value in codes,
        "monologue": Code.flag_parallel_monologue.value in codes,
        "rejected": bool(codes & _REJECTED_CODES),
        "no_question": not turn.challenges,
    }


def _score(side: str, turns: Sequence[Turn]) -> QualityScore:
    faults = [_faults(t) for t in turns]
    shares = {k: (sum(f[k] for f in faults) / len(faults) if faults else 0.0) for k in QUALITY_WEIGHTS}
    score = 1.0 - sum(QUALITY_WEIGHTS[k] * v for k, v in shares.items())
    return QualityScore(side=side, turns=len(turns), score=round(score, 4),
                        **{k: round(v, 4) for k, v in shares.items()})


def quality_scores(turns: Sequence[Turn]) -> list[QualityScore]:
    """The quality guard's scores over a trial's turns: one per side (by role, in order of first speaking), then the
    whole debate's ('trial'). Each component is the share of turns at fault on that count (no valid citation, a weak
    challenge, a monologue, rejected twice, no question to the other side); the score is 1 minus their weighted sum
    (``QUALITY_WEIGHTS``). A pure function of the turns as recorded (their citations, flags and challenges)."""
    sides: dict[str, list[Turn]] = {}
    for turn in turns:
        sides.setdefault(turn.role, []).append(turn)
    return [_score(side, side_turns) for side, side_turns in sides.items()] + [_score("trial", list(turns))]
