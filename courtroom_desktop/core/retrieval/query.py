"""Lenient BM25 query building: arbitrary text from people and from models -> a tantivy query, never an error.

The text is first reduced to what BM25 can use: quoted phrases (balanced pairs of straight or curly double
quotes) and plain word terms. Every character of tantivy's query syntax (``: ( ) [ ] { } + - ! ^ ~ * ? \\ /``,
``AND``/``OR``/``NOT``, ``field:``) is dropped on the way, so ``vitamin d: deficiency``, ``IL-6 [high]``,
``title:foo`` or an unbalanced quote all mean their words. The cleaned string then goes through tantivy's
lenient parser over the text, section and title fields (with per-field boosts), which analyses it with the
fields' own tokenizer (English stemming). CJK text in the query becomes words as the index holds them
(``core.library.store.text_index``: Chinese segmented, kana and Hangul as bigrams, Chinese stop words dropped) and searches
the CJK fields, with the same boosts; a mixed query searches both. Its Chinese characters and character bigrams
(``core.text.han_grams``) also search the chunk text's ``text_grams`` at ``GRAMS_WEIGHT`` of the text boost: the back-off
for a query that cuts an idea into other words than the passage does. The weight was chosen on the 46 labelled queries
of tests/retrieval/data/zh_queries.jsonl and checked on the 40 written apart (zh_queries_heldout.jsonl); see
docs/retrieval.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from courtroom_desktop.core.library.store.text_index import GRAMS_FIELD
from courtroom_desktop.core.text import CJK, han_grams, has_cjk
from courtroom_desktop.core.text import STOPWORDS as ANY_STOPWORDS
from courtroom_desktop.core.text import words as script_words

if TYPE_CHECKING:
    import tantivy

FIELDS = ("text", "section", "title")
MAX_TERMS = 48
GRAMS_WEIGHT = 0.75  # of the text field's boost, for the Chinese character and bigram back-off
MAX_CHARS = 20_000
WORD = re.compile(f"[^\\W{CJK}]+")  # letters and digits of alphabetic scripts; CJK text is taken apart below
# a word joined to the next by a hyphen or slash with no space ("IL-6", "TNF-alpha", "HER2/neu")
COMPOUND = re.compile(r"\w+(?:[-/]\w+)+")
QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"'})
# short English function words: they carry no evidence and only slow a disjunction down
STOPWORDS = frozenset("""
a an and are as at be been being but by can could did do does for from had has have if in into is it its
may might of on or our should so such than that the their then there these they this those to was were
which while will with would we not no nor
""".split())


@dataclass(frozen=True)
class QueryTerms:
    """What BM25 gets from a query: phrases (tuples of words, two or more) and single terms, lower-cased."""

    phrases: tuple[tuple[str, ...], ...] = ()
    terms: tuple[str, ...] = ()
    cjk: tuple[str, ...] = ()  # CJK words, for the CJK fields
    grams: tuple[str, ...] = ()  # Chinese characters and bigrams, for the text_grams field

    @property
    def empty(self) -> bool:
        return not self.phrases and not self.terms and not self.cjk and not self.grams

    def to_syntax(self) -> str:
        """The tantivy query string: ``"w1 w2" t1 t2``; only word characters, spaces and pairs of quotes."""
        return " ".join([f'"{" ".join(p)}"' for p in self.phrases] + list(self.terms))


def query_terms(text: str | None, max_terms: int = MAX_TERMS, stopwords: bool = True,
                compound_phrases: bool = True) -> QueryTerms:
    """Split arbitrary text into phrases and terms (pure; never raises).

    - balanced double quotes (straight or curly) delimit phrases; an unpaired quote is ignored;
    - with ``compound_phrases``, hyphenated or slashed compounds (``IL-6``) become phrases too, so their parts
      must stand together;
    - terms are word-character runs, lower-cased, each kept once, stop words dropped (unless that would leave
      nothing);
    - at most ``max_terms`` words in all (phrases first): a pasted page becomes a query of its first words.
    """
    if not text:
        return QueryTerms()
    text = str(text).translate(QUOTES)
    if len(text) > MAX_CHARS:  # a runaway input (a pasted book): the words we keep are near its start anyway
        text = text[:MAX_CHARS]
    quoted: list[str] = []
    rest: list[str] = []
    parts = text.split('"')
    closed = len(parts) - 1 - (len(parts) - 1) % 2  # quote characters that have a partner
    for index, part in enumerate(parts):
        inside = index % 2 == 1 and index <= closed
        (quoted if inside else rest).append(part)
    phrases: list[tuple[str, ...]] = []
    singles: list[str] = []
    for part in quoted:
        words = tuple(w.lower() for w in WORD.findall(part))
        if len(words) > 1:
            phrases.append(words)
        elif words:
            singles.append(words[0])
    loose = " ".join(rest)
    if compound_phrases:
        def take(match: re.Match[str]) -> str:
            words = tuple(w.lower() for w in WORD.findall(match.group(0)))
            phrases.append(words)
            return " "
        loose = COMPOUND.sub(take, loose)
    singles.extend(w.lower() for w in WORD.findall(loose))
    budget = max_terms
    kept_phrases: list[tuple[str, ...]] = []
    for phrase in dict.fromkeys(phrases):
        if budget <= 0:
            break
        phrase = phrase[:budget]
        if len(phrase) > 1:
            kept_phrases.append(phrase)
        else:
            singles.insert(0, phrase[0])
        budget -= len(phrase)
    unique = list(dict.fromkeys(singles))
    if stopwords:
        content = [t for t in unique if t not in STOPWORDS]
        if content or kept_phrases:
            unique = content
    cjk: tuple[str, ...] = ()
    grams: tuple[str, ...] = ()
    if has_cjk(text):
        found = list(dict.fromkeys(w for w in script_words(text, search=True) if has_cjk(w)))
        content = [w for w in found if w not in ANY_STOPWORDS] if stopwords else found
        cjk = tuple((content or found)[:max_terms])
        grams = tuple(list(dict.fromkeys(han_grams(text)))[: 4 * max_terms])
    return QueryTerms(tuple(kept_phrases), tuple(unique[: max(budget, 0)]), cjk, grams)


def build_text_query(index: tantivy.Index, text: str | None, boosts: dict[str, float] | None = None,
                     max_terms: int = MAX_TERMS, stopwords: bool = True, compound_phrases: bool = True,
                     fields: tuple[str, ...] = FIELDS) -> tantivy.Query | None:
    """A tantivy Query for ``text`` over ``fields`` (a disjunction of the terms, each summed over the fields
    with ``boosts``), or None when the text holds no searchable word (BM25 then returns nothing)."""
    terms = query_terms(text, max_terms, stopwords, compound_phrases)
    if terms.empty:
        return None
    boosts = {f: float(b) for f, b in (boosts or {}).items() if f in fields}
    active = [f for f in fields if boosts.get(f, 1.0) > 0]
    if not active:
        return None
    parts = []
    if terms.phrases or terms.terms:
        query, _errors = index.parse_query_lenient(terms.to_syntax(), active, field_boosts=boosts or None)
        parts.append(query)
    if terms.cjk:
        query, _errors = index.parse_query_lenient(" ".join(terms.cjk), [f"{f}_cjk" for f in active],
                                                   field_boosts={f"{f}_cjk": b for f, b in boosts.items()} or None)
        parts.append(query)
    if terms.grams and "text" in active:
        weight = boosts.get("text", 1.0) * GRAMS_WEIGHT
        query, _errors = index.parse_query_lenient(" ".join(terms.grams), [GRAMS_FIELD],
                                                   field_boosts={GRAMS_FIELD: weight})
        parts.append(query)
    if len(parts) == 1:
        return parts[0]
    import tantivy

    return tantivy.Query.boolean_query([(tantivy.Occur.Should, part) for part in parts])
