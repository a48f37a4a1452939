"""Text in any script: which scripts a text uses, its words (Chinese segmented with rjieba, Japanese kana and Korean
as character bigrams, everything else by letters and digits), its sentences (ending at . ! ? and at 。！？；), and
stop words in English and Chinese. The library (chunk budgets, BM25), the retriever and the court's text checks all
read text through here, so a Chinese claim is handled the same way everywhere.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Protocol

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
KANA = "\u3040-\u30ff\u31f0-\u31ff"
HANGUL = "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
CJK = HAN + KANA + HANGUL
# a citation of passages in the record's ids, "[E3]" or "[E1, E4]": group 1 holds the ids
CITATION = re.compile(r"\[\s*(E\d+(?:\s*[,;]\s*E\d+)*)\s*\]")
CJK_CHAR = re.compile(f"[{CJK}]")
HAN_RUN = re.compile(f"[{HAN}]+")
CJK_PUNCT = "\u3000-\u303f\uff00-\uffef"  # ideographic punctuation and full-width forms
# compiled at import, never where used: a character class compiled on the window's thread cost it 13 to 30 ms
_CJK_END = re.compile(f"[{CJK}{CJK_PUNCT}]$")
_KANA, _HANGUL, _HAN = (re.compile(f"[{chars}]") for chars in (KANA, HANGUL, HAN))
RUNS = re.compile(f"(?P<han>[{HAN}]+)|(?P<kana>[{KANA}{HAN}]*[{KANA}][{KANA}{HAN}]*)|(?P<hangul>[{HANGUL}]+)"
                  f"|(?P<latin>[^\\W{CJK}]+)")
TOKEN = re.compile(f"[{CJK}]|[^\\W{CJK}]+|[^\\w\\s]")
# a sentence ends at . ! ? followed by space and an upper-case letter, digit or opening bracket/quote, or at a CJK
# full stop, exclamation, question mark or semicolon (with any closing quote), whatever follows
SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z0-9(\[\"'])"
                          r"|(?:(?<=[。！？；])(?![”’」』）)])|(?<=[。！？；][”’」』）)]))\s*")

STOPWORDS = frozenset("""a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has have having he her
here hers him his how i if in into is it its itself just me more most my no nor not now of off on once only or other our
out over own same she should so some such than that the their them then there these they this those through to too
under until up very was we were what when where which while who whom why will with would you your
的 了 是 在 和 与 及 或 也 都 就 而 并 对 把 被 让 给 从 向 于 为 以 之 其 这 那 这个 那个 这些 那些 这种 一个 一种 一些
我 你 他 她 它 我们 你们 他们 她们 它们 吗 呢 吧 啊 呀 嘛 有 没有 不 没 很 更 最 还 又 再 等 等等 可以 可能 会 能 要 应
应该 因为 所以 如果 但是 但 然而 而且 此外 以及 通过 进行 使用 其中 什么 怎么 如何 哪些 是否 已经 正在 将 曾 所 着 过 得 地
""".split())


def has_cjk(text: str) -> bool:
    return bool(CJK_CHAR.search(text or ""))


def cjk_share(text: str) -> float:
    """The share of CJK characters among the letters of ``text`` (0 for a text without letters)."""
    letters = [c for c in text or "" if c.isalnum()]
    return sum(1 for c in letters if CJK_CHAR.match(c)) / len(letters) if letters else 0.0


def language_of(text: str) -> str:
    """'zh', 'ja', 'ko' when most letters are of that script, else 'en' (a stand-in for any alphabetic language)."""
    if cjk_share(text) < 0.3:
        return "en"
    kana = len(_KANA.findall(text))
    hangul = len(_HANGUL.findall(text))
    han = len(_HAN.findall(text))
    return max((("ja", kana), ("ko", hangul), ("zh", han - kana)), key=lambda item: item[1])[0]


class _Segmenter(Protocol):
    """What ``words`` uses of rjieba (the module itself)."""

    def cut(self, text: str) -> list[str]: ...

    def cut_for_search(self, text: str) -> list[str]: ...


@lru_cache(maxsize=1)
def _segmenter() -> _Segmenter | None:
    try:
        import rjieba
    except ImportError:  # pragma: no cover - rjieba is a dependency; without it Chinese falls back to bigrams
        return None
    return rjieba


def _bigrams(run: str) -> list[str]:
    return [run] if len(run) < 2 else [run[i:i + 2] for i in range(len(run) - 1)]


def words(text: str, search: bool = False) -> list[str]:
    """The words of ``text`` in order: Chinese segmented into words (``search``: also the shorter words inside longer
    ones, as a search index wants), kana and Hangul as character bigrams, other scripts as runs of letters and digits
    (lower-cased). Punctuation and spaces go."""
    out: list[str] = []
    jieba = _segmenter()
    for match in RUNS.finditer(text or ""):
        kind, run = match.lastgroup, match.group(0)
        if kind == "latin":
            out.append(run.lower())
        elif kind == "han" and jieba is not None:
            out.extend(w for w in (jieba.cut_for_search(run) if search else jieba.cut(run)) if w.strip())
        else:
            out.extend(_bigrams(run))
    return out


def han_grams(text: str) -> list[str]:
    """The Chinese characters of ``text`` and their bigrams, in order (each run of Han characters: its bigrams, then
    its characters). BM25 over these backs word matching off when a query and a passage cut the same idea into
    different words (查找/找到, 多少倍/倍); the index keeps them beside the words (``core.library.store.text_index``)."""
    out: list[str] = []
    for run in HAN_RUN.findall(text or ""):
        out.extend(run[i:i + 2] for i in range(len(run) - 1))
        out.extend(run)
    return out


def content_words(text: str, min_latin: int = 3) -> set[str]:
    """Words that carry meaning: no stop words, Latin words of at least ``min_latin`` letters, CJK words of two
    characters or more (a single character carries too little)."""
    found = set()
    for word in words(text):
        if word in STOPWORDS:
            continue
        if has_cjk(word):
            if len(word) >= 2:
                found.add(word)
        elif len(word) >= min_latin and not word.isdigit():
            found.add(word)
    return found


def count_tokens(text: str) -> int:
    """A fast, tokenizer-free estimate of model tokens: words and punctuation marks, and one per CJK character (as
    BERT-style tokenizers count them; CJK text has no spaces, so words cannot be counted)."""
    return len(TOKEN.findall(text))


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``, spaces trimmed."""
    spans, start = [], 0
    for match in SENTENCE_END.finditer(text):
        piece = text[start:match.start()].rstrip()
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            spans.append((start + lead, start + len(piece)))
        start = match.end()
    rest = text[start:]
    if rest.strip():
        lead = len(rest) - len(rest.lstrip())
        spans.append((start + lead, start + len(rest.rstrip())))
    return spans


def join_sentences(sentences: list[str]) -> str:
    """Sentences back into text: a space between them, none after a CJK sentence end."""
    out = ""
    for sentence in sentences:
        if out and not _CJK_END.search(out):
            out += " "
        out += sentence
    return out
