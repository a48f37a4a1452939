"""The fuzz generator: every kind, deterministic in its seed, quick even for thousands of pages."""

from __future__ import annotations

import time

import pymupdf

from stress.fuzzpdf import KINDS, generate


def test_every_kind_writes_files_with_a_known_expectation(tmp_path):
    files = generate(tmp_path, seed=3, kinds=[k for k in KINDS if k not in ("thousands_of_pages", "nested_outlines")])
    assert {f.kind for f in files} == set(KINDS) - {"thousands_of_pages", "nested_outlines"}
    assert all(f.expect in ("fail", "ok", "any") and f.path.exists() for f in files)
    assert len({f.path for f in files}) == len(files)
    # the JavaScript and embedded-file specimens really carry them
    javascript = next(f.path for f in files if f.kind == "javascript")
    doc = pymupdf.open(javascript)
    assert "/JavaScript" in doc.xref_object(doc.pdf_catalog()) or "JavaScript" in doc.xref_get_key(doc.pdf_catalog(), "Names")[1]
    doc.close()
    embedded = next(f.path for f in files if f.kind == "embedded_files")
    doc = pymupdf.open(embedded)
    assert doc.embfile_count() == 3
    doc.close()


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path):
    kinds = ["truncated", "bitflip", "broken_fonts", "enormous_page", "javascript", "odd_text"]
    first = generate(tmp_path / "a", seed=9, kinds=kinds)
    second = generate(tmp_path / "b", seed=9, kinds=kinds)
    other = generate(tmp_path / "c", seed=10, kinds=kinds)
    assert [f.path.name for f in first] == [f.path.name for f in second]
    assert all(a.path.read_bytes() == b.path.read_bytes() for a, b in zip(first, second))
    assert any(a.path.read_bytes() != c.path.read_bytes() for a, c in zip(first, other))


def test_thousands_of_pages_and_an_enormous_page_are_quick_to_make(tmp_path):
    began = time.perf_counter()
    files = generate(tmp_path, seed=1, kinds=["thousands_of_pages", "enormous_page"])
    assert time.perf_counter() - began < 10
    big = next(f.path for f in files if f.kind == "thousands_of_pages")
    doc = pymupdf.open(big)
    assert doc.page_count == 3000 and "Page 3000" in doc[2999].get_text()
    doc.close()
    huge = next(f.path for f in files if "1000000" in f.note)
    doc = pymupdf.open(huge)
    assert doc[0].rect.width >= 1_000_000  # UserUnit 75 makes it 75 million points wide
    doc.close()
