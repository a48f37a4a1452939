"""Lay out SciFact abstracts as PDFs (one abstract per PDF) with the labelled claims that cite them: the document
set of bench/peers.py.

    python scripts/make_scifact_pdfs.py OUT [--scifact ../shared/data/scifact] [--distractors 1000]
                                            [--claims N] [--docs N] [--seed 13]

Documents: every abstract cited by the chosen claims of ``claims_dev.jsonl`` (all 300 claims cite 283 abstracts),
then ``--distractors`` other abstracts of ``corpus.jsonl`` drawn at random (seeded). ``--docs N`` keeps only the
first N documents (cited ones first), for tests.

Each PDF is typeset the way real papers come out of a typesetter, not through an HTML engine: A4, Times (embedded as a
subset, with a ToUnicode map), the title in 16 pt bold, an italic byline, numbered section headings in 12 pt bold
("1 Background", "2 Methods and findings"; a short abstract has one "1 Abstract"), ragged-right body text in
10.5 pt, paragraphs separated by space. Like TeX output:

- ligatures: every "ffi", "ffl", "ff", "fi", "fl" in the typeset text is one glyph (U+FB03, U+FB04, U+FB00, U+FB01,
  U+FB02), so a PDF reader that keeps ligatures (PyMuPDF's default) reads "signiﬁcant", "eﬀect", "ﬂuid";
- line-end hyphenation: a long word that does not fit at the end of a line is broken at a syllable-like point
  ("treat-" / "ment") when that fills the line better, so the text layer holds "treat-\\nment".

No outline: sections must be found from the headings' type. The PDF's metadata title is the plain title.

Writes OUT/pdfs/<corpus id>.pdf, OUT/queries.jsonl (one claim a line: ``id``, ``claim``, ``relevant``: the cited
corpus ids, every one of which has a PDF; claims left with none are dropped) and OUT/manifest.json (what was made,
and from what).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
SCIFACT = ROOT.parent / "shared" / "data" / "scifact"
FORMAT = 1

PAPER = pymupdf.paper_rect("a4")
MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = 72.0, 72.0, 72.0
BODY_SIZE, BODY_LEADING = 10.5, 13.0
HEAD_SIZE, TITLE_SIZE, BYLINE_SIZE = 12.0, 16.0, 9.0
LIGATURES = (("ffi", "\ufb03"), ("ffl", "\ufb04"), ("ff", "\ufb00"), ("fi", "\ufb01"), ("fl", "\ufb02"))
VOWELS = set("aeiouy")
SUFFIXES = ("tion", "sion", "ment", "ness", "ity", "ical", "ance", "ence", "ing", "ogy", "ular", "ive", "ated")
DIGRAPHS = {"th", "ch", "sh", "ph", "ck", "gh", "wh", "qu"}
HYPHENATE_FROM = 0.04  # hyphenate when the line would otherwise end this share of its width short
BYLINE = "Journal article. Abstract reproduced from the SciFact corpus (Wadden et al., 2020)."


def ligate(text: str) -> str:
    for plain, glyph in LIGATURES:
        text = text.replace(plain, glyph)
    return text


def split_points(word: str) -> list[int]:
    """Where ``word`` may be broken, best first: before a common suffix, between two consonants that sit between
    vowels (treat-ment), before a consonant that follows a vowel (ca-pacity); at least three letters each side.
    Only plain lower-case words (after a possible capital) are broken: no digits, hyphens or acronyms."""
    core = word.rstrip(".,;:)]\"'")
    letters = core.replace("\ufb00", "ff").replace("\ufb01", "fi").replace("\ufb02", "fl") \
        .replace("\ufb03", "ffi").replace("\ufb04", "ffl")
    if len(core) < 7 or not letters.isalpha() or not letters[1:].islower():
        return []
    low = core.lower()
    good, fair = [], []
    for p in range(3, len(core) - 2):
        before, after = low[p - 1], low[p]
        if low[p:] in SUFFIXES:
            good.append(p)
        elif (before not in VOWELS and after not in VOWELS and low[p - 2] in VOWELS and low[p + 1] in VOWELS
              and low[p - 1:p + 1] not in DIGRAPHS):
            good.append(p)
        elif before in VOWELS and after not in VOWELS and low[p + 1] in VOWELS:
            fair.append(p)
    return sorted(good, reverse=True) + sorted(fair, reverse=True)


_ADVANCES: dict[str, dict[str, float]] = {}


def text_width(text: str, font: pymupdf.Font, size: float) -> float:
    """``font.text_length`` with the glyph advances cached (it is slow character by character)."""
    advances = _ADVANCES.setdefault(font.name, {})
    total = 0.0
    for char in text:
        advance = advances.get(char)
        if advance is None:
            advance = advances[char] = font.text_length(char, 1.0)
        total += advance
    return total * size


def wrap(text: str, font: pymupdf.Font, size: float, width: float) -> list[str]:
    """Lines of ``text`` (already ligated) no wider than ``width``, long words hyphenated at line ends."""
    lines: list[str] = []
    line = ""
    words = text.split()
    i = 0
    while i < len(words):
        word = words[i]
        candidate = f"{line} {word}" if line else word
        if text_width(candidate, font, size) <= width or not line:
            line = candidate
            i += 1
            continue
        room = width - text_width(line + " ", font, size)
        if room > HYPHENATE_FROM * width:
            for p in split_points(word):
                head = word[:p] + "-"
                if text_width(head, font, size) <= room:
                    lines.append(f"{line} {head}")
                    words[i] = word[p:]
                    line = ""
                    break
            else:
                lines.append(line)
                line = ""
        else:
            lines.append(line)
            line = ""
    if line:
        lines.append(line)
    return lines


@dataclass
class Abstract:
    id: str
    title: str
    sentences: list[str]


def sections_of(abstract: Abstract) -> list[tuple[str, list[str]]]:
    """(heading, paragraphs): a third of the sentences as background, the rest as methods and findings (in two
    paragraphs when long); an abstract of fewer than four sentences is one section."""
    sentences = [" ".join(s.split()) for s in abstract.sentences if s.strip()]
    if len(sentences) < 4:
        return [("1 Abstract", [" ".join(sentences)])]
    cut = max(1, round(len(sentences) / 3))
    rest = sentences[cut:]
    paragraphs = [" ".join(rest)]
    if len(rest) >= 6:
        half = len(rest) // 2
        paragraphs = [" ".join(rest[:half]), " ".join(rest[half:])]
    return [("1 Background", [" ".join(sentences[:cut])]), ("2 Methods and findings", paragraphs)]


def render(abstract: Abstract, path: Path) -> int:
    """Typeset one abstract into ``path``; returns its number of pages."""
    regular, bold, italic = pymupdf.Font("tiro"), pymupdf.Font("tibo"), pymupdf.Font("tiit")
    width = PAPER.width - 2 * MARGIN_X
    bottom = PAPER.height - MARGIN_BOTTOM
    doc = pymupdf.open()
    state = {"writer": None, "page": None, "y": MARGIN_TOP}

    def new_page() -> None:
        flush()
        state["page"] = doc.new_page(width=PAPER.width, height=PAPER.height)
        state["writer"] = pymupdf.TextWriter(state["page"].rect)
        state["y"] = MARGIN_TOP

    def flush() -> None:
        if state["writer"] is not None:
            state["writer"].write_text(state["page"])
            state["writer"] = None

    def put(lines: list[str], font: pymupdf.Font, size: float, leading: float, keep: int = 1) -> None:
        for index, text in enumerate(lines):
            need = leading * (keep if index == 0 else 1)
            if state["y"] + need > bottom:
                new_page()
            state["y"] += leading
            state["writer"].append((MARGIN_X, state["y"]), text, font=font, fontsize=size)

    new_page()
    put(wrap(ligate(abstract.title), bold, TITLE_SIZE, width), bold, TITLE_SIZE, TITLE_SIZE * 1.25)
    state["y"] += 4
    put(wrap(BYLINE, italic, BYLINE_SIZE, width), italic, BYLINE_SIZE, BYLINE_SIZE * 1.3)
    for heading, paragraphs in sections_of(abstract):
        state["y"] += 12
        put([ligate(heading)], bold, HEAD_SIZE, HEAD_SIZE * 1.3, keep=3)  # no heading alone at a page's foot
        state["y"] += 2
        for paragraph in paragraphs:
            put(wrap(ligate(paragraph), regular, BODY_SIZE, width), regular, BODY_SIZE, BODY_LEADING)
            state["y"] += 6
    flush()
    doc.set_metadata({"title": abstract.title, "author": "SciFact corpus", "producer": "courtroom-desktop "
                      "make_scifact_pdfs", "creationDate": "D:20200101000000"})
    doc.subset_fonts()  # as typesetters do: only the glyphs used, still with their ToUnicode map
    pages = doc.page_count
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(str(path), garbage=3, deflate=True)
    doc.close()
    return pages


def read_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def make_pdfs(out: Path, scifact: Path = SCIFACT, distractors: int = 1000, claims: int | None = None,
              docs: int | None = None, seed: int = 13, log=None) -> dict:
    """Write the PDFs, queries.jsonl and manifest.json under ``out`` (reused when the manifest matches)."""
    out = Path(out)
    wanted = {"format": FORMAT, "scifact": str(Path(scifact).resolve()), "distractors": distractors,
              "claims": claims, "docs": docs, "seed": seed}
    manifest_path = out / "manifest.json"
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text())
        if manifest.get("request") == wanted and all((out / "pdfs" / f"{d}.pdf").exists() for d in manifest["ids"]):
            return manifest
    corpus = {str(row["_id"]): Abstract(str(row["_id"]), row["title"].strip(),
                                        row.get("sentences") or [row["text"]])
              for row in read_jsonl(Path(scifact) / "corpus.jsonl")}
    chosen_claims = read_jsonl(Path(scifact) / "claims_dev.jsonl")
    if claims is not None:
        chosen_claims = chosen_claims[:claims]
    cited = list(dict.fromkeys(str(d) for c in chosen_claims for d in c.get("cited_doc_ids", []) if str(d) in corpus))
    others = sorted(set(corpus) - set(cited))
    random.Random(seed).shuffle(others)
    ids = cited + others[:distractors]
    if docs is not None:
        ids = ids[:docs]
    present = set(ids)
    queries = []
    for claim in chosen_claims:
        relevant = [str(d) for d in claim.get("cited_doc_ids", []) if str(d) in present]
        if relevant:
            queries.append({"id": str(claim["id"]), "claim": claim["claim"], "relevant": relevant})
    pdfs = out / "pdfs"
    pdfs.mkdir(parents=True, exist_ok=True)
    for old in pdfs.glob("*.pdf"):
        if old.stem not in present:
            old.unlink()
    began = time.perf_counter()
    pages = 0
    for index, doc_id in enumerate(ids):
        pages += render(corpus[doc_id], pdfs / f"{doc_id}.pdf")
        if log and (index + 1) % 200 == 0:
            log(f"  laid out {index + 1:,} of {len(ids):,} PDFs")
    with (out / "queries.jsonl").open("w", encoding="utf-8") as handle:
        for query in queries:
            handle.write(json.dumps(query) + "\n")
    manifest = {"request": wanted, "documents": len(ids), "cited": len([d for d in ids if d in set(cited)]),
                "distractors": len(ids) - len([d for d in ids if d in set(cited)]), "pages": pages,
                "queries": len(queries), "seconds": round(time.perf_counter() - began, 1), "ids": ids}
    manifest_path.write_text(json.dumps(manifest, indent=1))
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="folder to write pdfs/, queries.jsonl and manifest.json into")
    parser.add_argument("--scifact", type=Path, default=SCIFACT, help="the SciFact folder (BEIR layout + claims)")
    parser.add_argument("--distractors", type=int, default=1000, help="abstracts no chosen claim cites")
    parser.add_argument("--claims", type=int, help="use only the first N claims of claims_dev.jsonl")
    parser.add_argument("--docs", type=int, help="keep only the first N documents (cited ones come first)")
    parser.add_argument("--seed", type=int, default=13, help="seed of the distractors' draw")
    args = parser.parse_args(argv)
    if not (args.scifact / "corpus.jsonl").is_file():
        parser.error(f"{args.scifact}: no corpus.jsonl (SciFact in BEIR layout)")
    manifest = make_pdfs(args.out, args.scifact, args.distractors, args.claims, args.docs, args.seed,
                         log=lambda line: print(line, file=sys.stderr))
    print(f"{manifest['documents']:,} PDFs ({manifest['cited']:,} cited by claims, {manifest['distractors']:,} "
          f"distractors; {manifest['pages']:,} pages) and {manifest['queries']:,} claims in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
