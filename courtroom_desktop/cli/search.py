"""`courtroom search "query" [--k N] [--documents ID...] [--section PREFIX] [--json]`"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from courtroom_desktop.cli import words

if TYPE_CHECKING:
    from courtroom_desktop.cli import Context


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "search", help="hybrid search of the library: ranked passages with document, page and section",
        description="Search the library as the courtroom does: BM25 and vector search fused, near-duplicates "
        "collapsed, optionally reranked (retrieval.reranker). Any text is a valid query; quote phrases "
        "(\"heart failure\") to keep their words together. Several queries are fused into one list.",
    )
    parser.add_argument("queries", nargs="+", metavar="QUERY", help="query text (several: fused together)")
    parser.add_argument("--k", type=int, default=None, metavar="N", help="passages to show (default: retrieval.k)")
    parser.add_argument("--documents", nargs="+", metavar="ID", default=None,
                        help="only these documents (ids, unique id prefixes or file paths)")
    parser.add_argument("--section", action="append", metavar="PREFIX", default=None,
                        help="only sections whose path starts with PREFIX (case-insensitive); repeatable")
    parser.add_argument("--reranker", metavar="NAME", default=None,
                        help="override retrieval.reranker: none, mmr, or a cross-encoder folder")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    return parser


def excerpt(text: str, width: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1].rsplit(" ", 1)[0] + "…"


def run(args: argparse.Namespace, ctx: Context) -> int:
    from courtroom_desktop.core.errors import ConfigError

    if args.k is not None and args.k < 1:
        raise ConfigError("--k must be at least 1")
    workspace = ctx.workspace()
    try:
        evidence = workspace.library.search(args.queries, k=args.k, documents=args.documents, sections=args.section,
                                    reranker=args.reranker)
        empty = not evidence and not workspace.library.has_documents()
        problem = workspace.library.search_problem
    finally:
        workspace.close()
    if problem:  # on stderr, so --json output stays parseable
        print(words.label("warning") + words.word("vector_skipped", problem=words.say(problem)), file=sys.stderr)
    if args.json:
        print(json.dumps([{
            "rank": rank, "score": e.score, "document": e.doc_title, "doc_id": e.chunk.doc_id, "path": e.doc_path,
            # a passage of a text document has no page (null) but a character span in its text
            "page": e.chunk.page_start + 1 if e.chunk.on_pages else None,
            "page_end": e.chunk.page_end + 1 if e.chunk.on_pages else None, "section": e.chunk.section_path,
            "char_start": e.chunk.char_start, "char_end": e.chunk.char_end,
            "chunk_id": e.chunk.id, "query": e.query, "bm25_rank": e.bm25_rank, "bm25_score": e.bm25_score,
            "vector_rank": e.vector_rank, "vector_score": e.vector_score, "rerank_score": e.rerank_score,
            "text": e.chunk.text,
        } for rank, e in enumerate(evidence, 1)], indent=2, ensure_ascii=False))
        return 0
    from rich.console import Console
    from rich.markup import escape

    console = Console()
    if not evidence:
        console.print("No passages found." + (" The library is empty: add documents with `courtroom ingest PATH`."
                                              if empty else ""))
        return 0
    for rank, e in enumerate(evidence, 1):
        pages = e.chunk.page_start + 1
        page = f"p. {pages}" if e.chunk.page_end == e.chunk.page_start else f"pp. {pages}-{e.chunk.page_end + 1}"
        page = page if e.chunk.on_pages else "(text)"  # a text document has no pages
        how = ", ".join(part for part in (
            f"bm25 #{e.bm25_rank}" if e.bm25_rank else "", f"vector #{e.vector_rank}" if e.vector_rank else "",
            f"rerank {e.rerank_score:.3f}" if e.rerank_score is not None else "") if part)
        console.print(f"[bold]{rank:>2}.[/] {e.score:.4f}  [bold]{escape(e.doc_title or e.doc_path or e.chunk.doc_id)}[/]"
                      f"  {page}" + (f"  § {escape(e.chunk.section_path)}" if e.chunk.section_path else ""),
                      highlight=False)
        console.print(f"    {excerpt(e.chunk.text)}", highlight=False, markup=False)
        console.print(f"    [dim]{how}" + (f"; query: {escape(e.query)}" if len(args.queries) > 1 else "") + "[/]",
                      highlight=False)
    return 0
