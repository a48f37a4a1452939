"""The evaluation harnesses behind `courtroom eval`: retrieval on a BEIR folder (build or reuse its library, tune
fusion, score), passages on labelled PDFs, check-worthy claims on labelled drafts, and verdicts (the court against
single-pass RAG and a majority vote)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtroom_desktop.core.services._lazy import exports

if TYPE_CHECKING:
    from courtroom_desktop.core.eval.beir import read_claims, read_split
    from courtroom_desktop.core.eval.claims import run_claims
    from courtroom_desktop.core.eval.library import build_beir_library
    from courtroom_desktop.core.eval.passages import run_passages
    from courtroom_desktop.core.eval.retrieval import EvalReport, evaluate, run_retrieval
    from courtroom_desktop.core.eval.tune import tune
    from courtroom_desktop.core.eval.verdicts import run_verdicts

__all__ = ["EvalReport", "build_beir_library", "evaluate", "read_claims", "read_split", "run_claims",
           "run_passages", "run_retrieval", "run_verdicts", "tune"]

__getattr__ = exports({
    "read_claims": "eval.beir:read_claims", "read_split": "eval.beir:read_split",
    "build_beir_library": "eval.library:build_beir_library",
    "run_passages": "eval.passages:run_passages", "run_claims": "eval.claims:run_claims",
    "EvalReport": "eval.retrieval:EvalReport", "evaluate": "eval.retrieval:evaluate",
    "run_retrieval": "eval.retrieval:run_retrieval",
    "tune": "eval.tune:tune", "run_verdicts": "eval.verdicts:run_verdicts",
}, __name__)
