"""AppConfig: typed, versioned settings saved as TOML under the platform config folder.

Where things live (each can be moved, flag first, then environment, then platform default):

    config folder   --config-dir  COURTROOM_CONFIG_DIR  platformdirs.user_config_dir("courtroom-desktop")
    data folder     --data-dir    COURTROOM_DATA_DIR    platformdirs.user_data_dir("courtroom-desktop")

Secrets (API keys) never enter this file: they live in the OS keyring (see ``core.secrets``).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, Self

import platformdirs
import tomli_w
from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError, model_validator

from courtroom_desktop import APP_ID
from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.lexicon.message import Message, joined, of_validation

SCHEMA_VERSION = 1
CONFIG_FILE = "config.toml"
ROLES = ("prosecution", "defense", "judge")


def shown(label: str, unit: str = "", step: float | None = None, decimals: int | None = None) -> dict[str, JsonValue]:
    """How the settings dialog shows a field (its ``json_schema_extra``): a label, a unit, a spin step, decimals.
    Ranges come from the field's own bounds and the tooltip from its description, so a new setting in the dialog is
    one line of its field table."""
    hint: dict[str, JsonValue] = {"label": label}
    if unit:
        hint["unit"] = unit
    if step is not None:
        hint["step"] = step
    if decimals is not None:
        hint["decimals"] = decimals
    return hint


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class WatchedFolder(_Section):
    """A folder the app keeps in step with the library (core.library.watch)."""

    path: str = Field(description="Absolute path of the folder.")
    private: bool = Field(False, description="Every document from this folder is private (never sent to a model "
                          "server on another machine).")


EMBEDDERS = {"bundled": "Bundled all-MiniLM-L6-v2 (English)",
             "multilingual": "Bundled multilingual-e5-small (Chinese, English and about 100 languages)",
             "crosslingual": "Bundled Universal Sentence Encoder multilingual (16 languages; best across languages)",
             "local": "A sentence-transformers folder on this computer",
             "ollama": "Ollama (/api/embed)", "openai": "OpenAI-compatible server (/v1/embeddings)"}
BUNDLED_EMBEDDER = "all-MiniLM-L6-v2"


class LibrarySettings(_Section):
    embedder: Literal["bundled", "multilingual", "crosslingual", "local", "ollama", "openai"] = Field(
        "bundled", description="What embeds passages and queries: 'bundled' (all-MiniLM-L6-v2, English, in the app), "
        "'multilingual' (multilingual-e5-small, 4-bit, in the app: about 100 languages in one space, so a question "
        "finds passages in another language; slower to ingest), 'crosslingual' (Universal Sentence Encoder "
        "multilingual v3, in the app: 16 languages, trained to match a question with its answer in another language; "
        "the best of these when English questions must find Chinese passages or the reverse), "
        "'local' (a sentence-transformers model folder: embedding_model), 'ollama' (an Ollama server's /api/embed) or "
        "'openai' (any OpenAI-compatible /v1/embeddings). A server on another machine receives the text of every "
        "passage: private documents are then refused (docs/embedders.md). Changing it re-embeds the library.",
        json_schema_extra={**shown("Embedder"), "choices": dict(EMBEDDERS)})
    embedding_model: str = Field(
        BUNDLED_EMBEDDER,
        description="The embedding model: 'all-MiniLM-L6-v2' (bundled), a sentence-transformers folder (local), or "
        "the model's name on the server (ollama, openai: e.g. 'bge-m3').",
    )
    embedding_url: str = Field("", description="The embedding server's URL (ollama: empty for "
                               "http://localhost:11434; openai: required, e.g. http://127.0.0.1:8000/v1).")
    embedding_languages: str = Field(
        "", description="Languages the embedding model reads, as codes ('en', 'zh', 'ja', 'ko'; comma-separated) or "
        "'all'; empty: 'en' for the bundled MiniLM, 'all' for any other model. A query in a language it does not read "
        "leans on BM25 (retrieval.uncovered_vector_weight).")
    embedding_timeout_s: float = Field(60.0, gt=0, le=3600, description="Embedding server: the longest wait for "
                                       "one batch's answer (one retry follows).")
    embedding_backend: Literal["torch", "onnx", "onnx-int8"] = Field(
        "onnx", description="How the embedding model runs: 'onnx' (the model exported once per machine to ONNX and "
        "run by onnxruntime, each text alone on a worker per core: the same vectors as 'torch', about 1.5x as fast; "
        "PyTorch where the export fails), 'torch' (PyTorch, float32: the reference), 'onnx-int8' (that export with "
        "int8 weights: about 3x PyTorch where the CPU has int8 dot-product instructions, vectors at cosine ~0.995 of "
        "the float ones; docs/performance.md). 'onnx' and 'torch' make the same vectors; a library embedded with "
        "'onnx-int8' keeps it until `courtroom library reindex`.")
    chunk_tokens: int = Field(200, ge=32, le=2000, description="Token budget of one chunk (passage).",
                              json_schema_extra=shown("Passage size", "tokens", 10))
    overlap_tokens: int = Field(30, ge=0, le=500, description="Tokens repeated from the end of the previous chunk.",
                                json_schema_extra=shown("Overlap", "tokens", 5))
    min_section_tokens: int = Field(40, ge=0, description="Sections shorter than this merge with a neighbour.")
    embed_batch: int = Field(32, ge=1, le=1024, description="Passages per embedding batch.",
                             json_schema_extra=shown("Embedding batch", "passages", 8))
    file_timeout_s: float = Field(300.0, gt=0, description="Give up on one file after this many seconds.")
    isolate_extraction: bool = Field(
        True, description="Read PDFs in a child process that is killed at file_timeout_s, so one pathological file "
        "can never hang or crash the app (starting the child costs about a second, once per open library).")
    ocr: Literal["auto", "off", "force"] = Field(
        "auto", description="Read scanned pages by OCR (RapidOCR, Chinese and English, on this machine): 'auto' reads "
        "the pages that show an image but have no text layer, 'force' every page (its text layer is replaced), 'off' "
        "none (a document that is all scans is then refused). Pages read once are cached by content.",
        json_schema_extra={**shown("OCR of scanned pages"), "choices": {
            "auto": "auto: pages without a text layer", "force": "force: every page", "off": "off"}})
    ocr_dpi: int = Field(300, ge=72, le=600, description="Resolution pages are rendered at for OCR (dots per inch); "
                         "a page is never rendered to more than 24 million pixels, whatever its size.",
                         json_schema_extra=shown("OCR resolution", "dpi", 50))
    ocr_page_timeout_s: float = Field(
        60.0, gt=0, description="Give up on OCR of one page after this many seconds (the page is reported, the rest "
        "of the document goes on). Each page read by OCR extends file_timeout_s by this much.",
        json_schema_extra=shown("OCR time per page", "s", 10, 0))

    uri: str = Field(
        "", description="Where the library lives: empty for the data folder; another folder; or a prefix on object "
        "storage shared by a team: s3://bucket/prefix (AWS S3, or an S3-compatible server such as MinIO with "
        "library.endpoint), gs://bucket/prefix, az://container/prefix. Credentials come from the environment or the "
        "OS keyring (`courtroom library credentials`), never from this file (docs/scale.md).",
        json_schema_extra=shown("Library location"))
    endpoint: str = Field("", description="The object-storage server's URL for library.uri: an S3-compatible "
                          "server (MinIO: http://minio.example:9000), an Azure account's blob URL, a GCS server's "
                          "base URL; empty for AWS, Azure or Google Cloud themselves.",
                          json_schema_extra=shown("Object-storage endpoint"))
    region: str = Field("", description="The bucket's region for library.uri (empty: AWS_REGION, else us-east-1 with "
                        "an endpoint).")
    read_only: bool = Field(False, description="Open a shared library (library.uri) for reading only: search and "
                            "trials work, adding and removing documents is refused.",
                            json_schema_extra=shown("Open the shared library read-only"))
    ingest_engine: Literal["local", "ray"] = Field(
        "local", description="Who reads, chunks and embeds the files an ingest adds (the window's Add, `courtroom "
        "ingest`): this process, or Ray actors (a local Ray instance, or the cluster ray_address names; "
        "docs/scale.md). Storing is always this machine's.",
        json_schema_extra={**shown("Ingest engine"), "choices": {"local": "this computer", "ray": "Ray"}})
    ray_address: str = Field("", description="With ingest_engine = ray: the Ray cluster ('auto', host:6379, "
                             "ray://host:10001); empty: a local Ray instance on this machine's CPUs.",
                             json_schema_extra=shown("Ray cluster address"))
    ray_workers: int = Field(0, ge=0, le=10_000, description="With ingest_engine = ray: how many actors prepare files "
                             "(0: one per CPU of the cluster).", json_schema_extra=shown("Ray workers"))
    replica: bool = Field(True, description="A shared library (library.uri): keep a local read replica of its chunk "
                          "table, so that searches read this disk, not the bucket; caught up in the background when "
                          "another machine commits (docs/scale.md).",
                          json_schema_extra=shown("Keep a local replica of a shared library"))
    replica_limit_gb: float = Field(20.0, gt=0, le=100_000, description="The most disk the local replica may take; "
                                    "a larger chunk table is not copied (searches read the bucket).",
                                    json_schema_extra=shown("Local replica size limit", "GB", 1, 1))
    watched_folders: list[WatchedFolder] = Field(
        default_factory=list, description="Folders watched while the app (or `courtroom watch`) runs: a file added "
        "or changed there is ingested, a file removed leaves the library.")

    def private_folder(self, path: str) -> bool:
        """Whether ``path`` lies in a watched folder marked private."""
        return any(f.private and Path(path).is_relative_to(f.path) for f in self.watched_folders)

    @model_validator(mode="before")
    @classmethod
    def _embedder_of_older_files(cls, data: object) -> object:
        """A settings file from before ``embedder`` existed names a model folder in embedding_model alone: 'local'."""
        from courtroom_desktop.core.embedder_settings import BUNDLED_NAMES

        model = str(data.get("embedding_model") or BUNDLED_EMBEDDER) if isinstance(data, dict) else ""
        if isinstance(data, dict) and "embedder" not in data and model.lower() not in BUNDLED_NAMES:
            data = {**data, "embedder": "local"}
        if isinstance(data, dict) and data.get("embedder") in ("ollama", "openai") and "embedding_model" not in data:
            raise ValueError(Message("library.embedding_model: name the embedding model on the {data['embedder']} "
                                     "server (e.g. 'bge-m3')",
                                     data['embedder']))
        return data

    @model_validator(mode="after")
    def _embedder_fields(self) -> Self:
        from courtroom_desktop.core.embedder_settings import check_embedder

        check_embedder(self)
        return self

    @model_validator(mode="after")
    def _overlap_below_size(self) -> Self:
        if self.overlap_tokens >= self.chunk_tokens:
            raise ValueError(Message("library.overlap_tokens ({self.overlap_tokens}) must be smaller than "
                                     "library.chunk_tokens ({self.chunk_tokens}): lower the overlap or raise the "
                                     "passage size",
                                     self.overlap_tokens, self.chunk_tokens))
        return self


class RetrievalSettings(_Section):
    k: int = Field(8, ge=1, le=200, description="Passages returned per search.",
                   json_schema_extra=shown("Passages per search"))
    candidates: int = Field(100, ge=10, le=2000, description="Candidates each method contributes per query before fusion.",
                            json_schema_extra=shown("Candidates per method", step=10))
    # Boosts and weights tuned on SciFact's 809 training claims (bench/tune_retrieval.py), never on its test set; the
    # fusion chosen on sets it was not tuned on (bench/fusion.py; docs/retrieval.md#fusion-on-collections-it-was-not-tuned-on)
    fusion: Literal["rrf", "convex"] = Field(
        "rrf", description="'rrf': weighted reciprocal rank fusion, weight / (rrf_k + rank) summed over the lists; "
        "'convex': weighted sum of normalised scores (score_normalisation).", json_schema_extra={**shown("Fusion"), "choices": {
            "rrf": "Weighted reciprocal rank fusion", "convex": "Weighted sum of normalised scores"}})
    score_normalisation: Literal["max", "minmax", "dist"] = Field(
        "max", description="Convex fusion: 'max' divides each list's scores by its best (0 as the floor); "
        "'minmax' scales each list to [0, 1] between its worst and best hit; 'dist' places each score within its "
        "list's own distribution for the query (mean +- 3 standard deviations), so a list whose best hits do not "
        "stand out of the rest counts for less.")
    bm25_weight: float = Field(0.5, ge=0, le=10, description="Weight of the BM25 lists in fusion.",
                               json_schema_extra=shown("BM25 weight", step=0.1, decimals=2))
    vector_weight: float = Field(0.5, ge=0, le=10, description="Weight of the vector lists in fusion.",
                                 json_schema_extra=shown("Vector weight", step=0.1, decimals=2))
    rrf_k: float = Field(5.0, gt=0, description="The k of reciprocal rank fusion: 1 / (k + rank) (used when fusion = 'rrf'): "
                         "small, so the head of each list counts most.")
    uncovered_vector_weight: float = Field(
        0.1, ge=0, le=1, description="For a query in a language the embedding model does not read (a Chinese query and "
        "the English-only bundled MiniLM), the vector list's weight is multiplied by this: retrieval leans on BM25.")
    cross_language_slot: int = Field(
        3, ge=0, le=50, description="In a library of English and Chinese passages, a query is also searched with its "
        "words translated into the other language (CC-CEDICT), and the best passage in that language is shown at this "
        "place unless it ranks higher already (0: off). Places above it keep the query's own language.")
    cross_language_reader: Literal["usem", "none"] = Field(
        "usem", description="What picks that passage in the other language among the candidates: 'usem' reads the "
        "query and each candidate with the bundled Universal Sentence Encoder multilingual, whatever embedder the "
        "library uses, and takes the closest; 'none' takes the first in the translated words' BM25 list "
        "(docs/embedders.md#across-languages-whatever-the-embedder-the-cross-language-reader).")
    cross_language_reader_slot: int = Field(
        5, ge=0, le=50, description="Where the reader's pick is shown when it differs from the translated list's "
        "(which keeps cross_language_slot); 0: the reader's pick takes cross_language_slot instead.")
    cross_language_pool: int = Field(
        10, ge=1, le=100, description="Candidates read for the other-language place: this many of the translated "
        "list's hits and of the query's own ranking, those in the other language.")
    cjk_vector_scale: float = Field(
        0.85, ge=0, le=1, description="For a Chinese, Japanese or Korean query the embedding model does read (the "
        "multilingual embedder), the vector list's weight is multiplied by this: BM25 over segmented words is the "
        "stronger list there (chosen on the 46 Chinese tuning queries, docs/embedders.md).")
    text_boost: float = Field(1.0, ge=0, description="BM25 boost of the passage text.")
    section_boost: float = Field(0.25, ge=0, description="BM25 boost of the section path.")
    title_boost: float = Field(0.25, ge=0, description="BM25 boost of the document title.")
    bm25_stopwords: bool = Field(True, description="Drop English function words from BM25 queries.")
    compound_phrases: bool = Field(False, description="Search hyphenated compounds (IL-6) as phrases.")
    max_query_terms: int = Field(48, ge=1, le=1024, description="Longer queries keep their first this many words for BM25.")
    reranker: str = Field("none", description="'none', 'mmr', or a path to a cross-encoder model folder.",
                          json_schema_extra={**shown("Reranker"), "suggestions": ["none", "mmr"]})
    rerank_depth: int = Field(30, ge=1, le=1000, description="Fused candidates the reranker (and dedup) look at.")
    mmr_lambda: float = Field(0.7, ge=0, le=1, description="MMR trade-off between relevance (1) and diversity (0).")
    dedup_similarity: float = Field(0.95, ge=0, le=1, description="Passages more similar than this collapse to one.",
                                    json_schema_extra=shown("Near-duplicate similarity", step=0.01, decimals=2))
    ann_min_rows: int = Field(20_000, ge=0, description="Chunks from which the vector search uses an ANN index.")
    ann_index: Literal["IVF_HNSW_SQ", "IVF_PQ"] = Field("IVF_HNSW_SQ", description="The LanceDB ANN index type.")
    ann_partitions: int = Field(0, ge=0, description="IVF partitions of the ANN index (0: chosen from the table size).")
    ann_ef: int = Field(100, ge=0, description="HNSW search breadth (at least the number of candidates is used).")
    ann_refine_factor: int = Field(0, ge=0, description="Re-score this many times the candidates exactly (0: off).")
    ann_build: Literal["background", "never"] = Field(
        "background", description="Build the ANN index in the background once the table reaches ann_min_rows.")
    query_threads: int = Field(1, ge=0, le=64, description="torch threads for embedding queries (0: torch's default); "
                               "one is fastest for short queries and robust when the cores are busy. The ONNX "
                               "backends run each batch on one thread anyway.")

    @model_validator(mode="after")
    def _some_weight(self) -> Self:
        if self.bm25_weight <= 0 and self.vector_weight <= 0:
            raise ValueError(Message("retrieval.bm25_weight and retrieval.vector_weight are both 0: give at least "
                                     "one a weight"))
        return self


ProviderName = Literal["embedded", "ollama", "openai"]


class ModelSpec(_Section):
    provider: ProviderName = Field(
        "embedded", description="embedded (llama.cpp in process), ollama or openai (any OpenAI-compatible server)."
    )
    model: str = Field("", description="Model name on the server, or a GGUF path for embedded; empty: the bundled SmolLM2-135M.")
    base_url: str = Field("", description="Server URL; empty: http://localhost:11434 for Ollama, required for openai.")
    num_ctx: int = Field(4096, ge=512, le=262_144,
                         description="Context window in tokens (Ollama's own default, 2048, truncates silently).",
                         json_schema_extra=shown("Context", "tokens", 512))
    max_tokens: int = Field(384, ge=1, le=32_768, description="Most tokens one answer may have.",
                            json_schema_extra=shown("Longest answer", "tokens", 64))
    temperature: float = Field(0.2, ge=0, le=2, description="Sampling temperature: 0 is the most deterministic.",
                               json_schema_extra=shown("Temperature", step=0.1, decimals=2))
    keep_alive: str = Field("10m", description="Ollama: how long the model stays loaded.")
    connect_timeout_s: float = Field(5.0, gt=0)
    read_timeout_s: float = Field(120.0, gt=0, le=3600, description="Longest wait for the next bytes of an answer.",
                                  json_schema_extra=shown("Read timeout", "s", 10, 0))
    retries: int = Field(2, ge=0, le=10, description="Retries on transient errors (connection reset, 5xx), with backoff.")
    threads: int = Field(0, ge=0, le=256, description="Embedded: CPU threads llama.cpp uses (0: automatic, one fewer "
                         "than the cores in the window, at most 8; COURTROOM_LLAMA_THREADS overrides).",
                         json_schema_extra=shown("CPU threads", "threads"))
    gpu_layers: int = Field(0, ge=-1, le=1000, description="Embedded: layers llama.cpp offloads to the GPU (0: none, "
                            "-1: all; needs a llama-cpp-python built with GPU support).",
                            json_schema_extra=shown("GPU layers", "layers"))
    max_parallel: int = Field(1, ge=1, le=64, description="Calls to this model's server at once (a check of a "
                              "draft runs claims side by side up to it; roles on one server share the smallest). The "
                              "embedded model always answers one call at a time.",
                              json_schema_extra=shown("Calls at once", "calls"))


class ModelSettings(_Section):
    default: ModelSpec = Field(default_factory=ModelSpec)
    prosecution: ModelSpec | None = None
    defense: ModelSpec | None = None
    judge: ModelSpec | None = None

    def for_role(self, role: str) -> ModelSpec:
        if role not in ROLES:
            raise ConfigError(Message("unknown role {role}: use one of {', '.join(ROLES)}",
                                      f'{role!r}', ', '.join(ROLES)))
        return getattr(self, role) or self.default


DEFAULT_LEVEL_KEYWORDS: dict[str, tuple[str, ...]] = {
    "systematic review": ("systematic review*", "meta-analy*", "meta analy*", "metaanaly*", "pooled analys*",
                          "umbrella review*", "cochrane review*", "we searched", "searched pubmed", "searched medline",
                          "study selection", "eligible studies", "included studies", "random-effects model*",
                          "random effects model*", "系统评价", "系统综述", "荟萃分析", "meta分析", "合并分析"),
    "randomised trial": ("randomi*", "randomly assigned", "randomly allocated", "rct", "rcts", "placebo-controlled",
                         "double-blind*", "double blind*", "controlled trial*", "随机对照", "随机双盲", "随机分组",
                         "安慰剂对照", "随机、双盲"),
    "cohort": ("cohort*", "prospective*", "retrospective*", "longitudinal", "case-control", "case control",
               "cross-sectional", "cross sectional", "observational", "registry", "population-based",
               "nonrandomi*", "non-randomi*", "medical records", "队列研究", "前瞻性", "回顾性", "病例对照", "横断面",
               "观察性研究"),
    "case report": ("case report*", "case series", "we report a", "we report an", "we describe a patient",
                    "we describe a case", "we present a", "we present the first", "describes a patient",
                    "cases of", "year-old man", "year-old woman", "year-old boy", "year-old girl", "year-old patient",
                    "year-old male", "year-old female", "病例报告", "报告一例", "报道一例", "个案报告"),
    "expert opinion": ("expert opinion*", "editorial*", "commentary", "commentaries", "consensus statement*",
                       "consensus guideline*", "position statement*", "perspective*", "narrative review*",
                       "viewpoint*", "opinion article*", "essay", "in this review", "this review", "we review",
                       "we argue", "we propose", "专家共识", "共识", "述评", "专家意见", "指南"),
    "other": ("mice", "mouse", "murine", "rats", "rat", "rodent*", "zebrafish", "drosophila", "in vitro", "in vivo",
              "cell line*", "cultured cells", "小鼠", "大鼠", "细胞实验", "体外"),
}
"""Phrases of the default levels. Those of 'other' mark preclinical work (animals, cells): where they score as high as
the best level, the passage is 'other'."""


class VerdictRule(_Section):
    """Thresholds of the rule that holds the verdict to the rulings and the weighed evidence (docs/court.md)."""

    enabled: bool = Field(True, description="Check the judge's draft verdict against the record (off: the draft stands).")
    insufficient_max_confidence: float = Field(
        0.5, ge=0, le=1, description="'insufficient evidence' cannot carry a confidence above this.")
    decided_confidence: float = Field(
        0.7, ge=0, le=1, description="A last ruling at least this confident decides the record's side: 'insufficient "
        "evidence' then contradicts it when the cited evidence leans the same way.")
    balance_margin: float = Field(
        0.34, ge=0, le=1, description="The weighed evidence leans one way when (supporting - refuting) / (supporting + "
        "refuting) reaches this; within it, it is mixed.")


class DebateSettings(_Section):
    min_rounds: int = Field(2, ge=1, le=20, description="Rounds before a verdict may be given.",
                            json_schema_extra=shown("Minimum rounds"))
    max_rounds: int = Field(4, ge=1, le=20, description="The round limit: the verdict comes after this round at the latest.",
                            json_schema_extra=shown("Round limit"))
    confidence_threshold: float = Field(0.9, ge=0, le=1, description="The verdict comes once the judge's confidence "
                                        "reaches this (after the minimum rounds) in a ruling that names the argument "
                                        "or evidence it rests on.",
                                        json_schema_extra=shown("Verdict at confidence", step=0.05, decimals=2))
    # role switching (rules.switch_reasons; docs/court.md "Role switching"): each window counts from the last switch
    tendency_rounds: int = Field(3, ge=0, le=10, description="Counsel swap sides when the judge's tendency (support, "
                                 "refute, unclear) stayed the same in this many rulings in a row; 0: never for this.",
                                 json_schema_extra=shown("Switch after a steady tendency of", "rounds"))
    stall_delta: float = Field(0.05, ge=0, le=1, description="Counsel swap sides when the judge's confidence moved less "
                               "than this (its highest minus its lowest) over the last stall_rounds rounds; 0: never "
                               "for this.", json_schema_extra=shown("Confidence stall below", step=0.01, decimals=2))
    stall_rounds: int = Field(2, ge=1, le=10, description="The rounds over which a confidence stall is judged (the last "
                              "stall_rounds + 1 rulings).", json_schema_extra=shown("Confidence stall over", "rounds"))
    novelty_min: float = Field(0.2, ge=0, le=1, description="A passage enters the pool only if 1 - max cosine to it is "
                               "at least this.", json_schema_extra=shown("Novelty of new evidence", step=0.05, decimals=2))
    min_new_evidence: int = Field(1, ge=0, description="Counsel swap sides when fewer passages than this were "
                                  "cited for the first time in the arguments of the last new_evidence_rounds rounds "
                                  "(passages that entered the pool but nobody cited do not count); 0: never for this.",
                                  json_schema_extra=shown("Switch below new cited passages"))
    new_evidence_rounds: int = Field(2, ge=1, le=10, description="The rounds over which newly cited passages are "
                                     "counted (min_new_evidence).",
                                     json_schema_extra=shown("New cited passages over", "rounds"))
    controversy_rounds: int = Field(2, ge=0, le=10, description="Counsel swap sides when the judge named the same key "
                                    "controversy in this many rulings in a row (every consecutive pair at least "
                                    "controversy_repeat_similarity alike); 0 or 1: never for this.",
                                    json_schema_extra=shown("Switch after the same controversy for", "rounds"))
    controversy_repeat_similarity: float = Field(0.9, ge=0, le=1, description="How alike two key controversies must be "
                                                 "to count as the same: cosine of their vectors where the embedder "
                                                 "reads their language, else the share of content words they share.")
    max_switches: int = Field(2, ge=0, le=10, description="How many times counsel may swap sides in one trial.",
                              json_schema_extra=shown("Role switches at most"))
    queries_per_turn: int = Field(3, ge=1, le=3, description="Search queries a counsel's model may add per turn.",
                                  json_schema_extra=shown("Model queries per turn"))
    passages_per_turn: int = Field(6, ge=1, le=20, description="Passages each counsel's search brings back per turn "
                                   "(before the novelty filter); more passages make longer prompts.",
                                   json_schema_extra=shown("Passages per turn"))
    search_every_round: bool = Field(True, description="Counsel search the library in every round; off: in round 1 "
                                     "only, later rounds argue from the pool (an ablation of progressive retrieval).")
    argument_format: Literal["auto", "text", "json"] = Field(
        "auto", description="text: free streaming text with inline [E#] citations; json: an argument plus a list of "
        "citations constrained to the pool's ids (for small models); auto: json for the embedded model, else text.",
        json_schema_extra={**shown("Argument format"), "choices": {
            "auto": "auto: JSON for the embedded model, else text", "text": "streaming text",
            "json": "JSON with constrained citations"}})
    evidence_hierarchy: list[str] = Field(
        default_factory=lambda: ["systematic review", "randomised trial", "cohort", "case report", "expert opinion", "other"],
        min_length=1, description="Evidence levels, strongest first (in the dialog: separated by ;). Every level but "
        "'other' needs its keywords in evidence_keywords.", json_schema_extra=shown("Evidence hierarchy"))
    evidence_keywords: dict[str, list[str]] = Field(
        default_factory=lambda: {level: list(words) for level, words in DEFAULT_LEVEL_KEYWORDS.items()},
        description="Per evidence level, the phrases that mark it in a passage or a document title (case-insensitive, "
        "whole words; * stands for any word ending, e.g. 'randomi*'; CJK phrases match anywhere). A level a user adds "
        "to the hierarchy brings its own, e.g. evidence_keywords.'animal study' = ['mice', 'rats', 'in vivo']. The "
        "phrases of 'other' mark preclinical work, which wins ties.")
    verdict_rule: VerdictRule = Field(default_factory=lambda: VerdictRule(),
                                      description="How the verdict is held to the record (docs/court.md).")
    assess_evidence: bool = Field(True, description="After each round, the judge's model assesses the stance and "
                                  "relevance of the round's new passages in one short structured call.")
    confidence_disagreement: float = Field(
        0.3, ge=0, le=1, description="The verdict is flagged when the judge's confidence and the weighed evidence's "
        "(rules.evidence_confidence) differ by more than this, or point to different labels with either above it.",
        json_schema_extra=shown("Flag judge vs evidence gap over", step=0.05, decimals=2))


    @model_validator(mode="after")
    def _levels_have_keywords(self) -> Self:
        missing = [level for level in self.evidence_hierarchy
                   if level.lower() != "other" and not self.keyword_list(level)]
        if missing:
            raise ValueError(Message("debate.evidence_hierarchy names {', '.join((repr(m) for m in missing))} but "
                                     "debate.evidence_keywords has no phrases for it: add them, e.g. "
                                     "evidence_keywords.'{missing[0]}' = ['phrase one', 'phrase two']",
                                     ', '.join(repr(m) for m in missing), missing[0]))
        return self

    def keyword_list(self, level: str) -> list[str]:
        wanted = level.strip().lower()
        return next((words for name, words in self.evidence_keywords.items() if name.strip().lower() == wanted), [])

    @model_validator(mode="after")
    def _rounds_in_order(self) -> Self:
        if self.min_rounds > self.max_rounds:
            raise ValueError(Message("debate.min_rounds ({self.min_rounds}) exceeds debate.max_rounds "
                                     "({self.max_rounds}): lower the minimum or raise the round limit",
                                     self.min_rounds, self.max_rounds))
        return self

    def with_rounds(self, min_rounds: int | None = None, max_rounds: int | None = None) -> DebateSettings:
        """These settings with new round bounds, as a person means them: a bound given explicitly wins, and the other,
        when not given, follows it (``--max-rounds 1`` also lowers the minimum to 1). Both given and contradicting:
        a ValidationError naming both."""
        values = self.model_dump()
        if min_rounds is not None:
            values["min_rounds"] = min_rounds
        if max_rounds is not None:
            values["max_rounds"] = max_rounds
        if min_rounds is None and max_rounds is not None:
            values["min_rounds"] = min(values["min_rounds"], max_rounds)
        if max_rounds is None and min_rounds is not None:
            values["max_rounds"] = max(values["max_rounds"], min_rounds)
        return DebateSettings.model_validate(values)


class CheckSettings(_Section):
    """How a draft is checked (``courtroom check``, the window's Check a draft...)."""

    finder: Literal["auto", "rules", "model", "both"] = Field(
        "auto", description="How claims are found: rules (works with any model), model (a structured call of the "
        "judge's model), both; auto: rules with the embedded model, both otherwise.",
        json_schema_extra={**shown("Claim finder"), "choices": {
            "auto": "auto: rules with the bundled model, else rules and model", "rules": "rules only",
            "model": "the judge's model only", "both": "rules and model"}})
    trials: Literal["auto", "never", "all"] = Field(
        "auto", description="Which claims get a full trial after their quick check: auto (contested, or less sure "
        "than trial_below), never, all.", json_schema_extra={**shown("Full trials"), "choices": {
            "auto": "when contested or unsure", "never": "never", "all": "every claim"}})
    trial_below: float = Field(0.6, ge=0, le=1, description="A quick verdict less sure than this goes to a full "
                               "trial (trials = auto).", json_schema_extra=shown("Trial below confidence", step=0.05,
                                                                                 decimals=2))
    passages: int = Field(6, ge=1, le=30, description="Passages the quick check retrieves per claim.",
                          json_schema_extra=shown("Passages per claim"))
    min_worth: float = Field(0.19, ge=0, le=1, description="Claims scoring less than this for check-worthiness "
                             "(0: nothing to verify, 1: clearly a fact) are hidden on the review page and not checked "
                             "by `courtroom check`; 0 keeps every claim found.",
                             json_schema_extra=shown("Hide claims worth less than", step=0.05, decimals=2))
    reviewer: str = Field("", description="The name a sign-off is made under (empty: the computer's user name).")


class AppConfig(_Section):
    schema_version: int = SCHEMA_VERSION
    library: LibrarySettings = Field(default_factory=LibrarySettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    models: ModelSettings = Field(default_factory=ModelSettings)
    debate: DebateSettings = Field(default_factory=DebateSettings)
    check: CheckSettings = Field(default_factory=CheckSettings)


# Each entry turns a version-N dict into a version-N+1 dict.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


def migrate(raw: dict[str, Any]) -> dict[str, Any]:
    version = int(raw.get("schema_version", 1))
    if version > SCHEMA_VERSION:
        raise ConfigError(
            Message("config schema_version {version} is newer than this app understands ({SCHEMA_VERSION}): upgrade "
                    "the app",
                    version, SCHEMA_VERSION)
        )
    while version < SCHEMA_VERSION:
        raw = MIGRATIONS[version](raw)
        version += 1
        raw["schema_version"] = version
    return raw


def config_dir(override: str | os.PathLike[str] | None = None) -> Path:
    value = override or os.environ.get("COURTROOM_CONFIG_DIR")
    return Path(value).expanduser() if value else Path(platformdirs.user_config_dir(APP_ID))


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    value = override or os.environ.get("COURTROOM_DATA_DIR")
    return Path(value).expanduser() if value else Path(platformdirs.user_data_dir(APP_ID))


def load_config(folder: Path) -> AppConfig:
    path = Path(folder) / CONFIG_FILE
    if not path.exists():
        return AppConfig()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(Message("{path}: not valid TOML ({exc}); fix or delete the file", path, exc)) from exc
    try:
        return AppConfig.model_validate(migrate(raw))
    except ValidationError as exc:
        problems = joined(Message("{field}: {problem}", ".".join(str(p) for p in err["loc"]), of_validation(err))
                          for err in exc.errors())
        raise ConfigError(Message("{path}: {problems}", path, problems)) from exc


def save_config(config: AppConfig, folder: Path) -> Path:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / CONFIG_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(tomli_w.dumps(config.model_dump(mode="json", exclude_none=True)), encoding="utf-8")
    os.replace(tmp, path)  # atomic: a crash never leaves half a config
    return path


def parse_model_override(text: str) -> tuple[list[str], str, str]:
    """'judge=ollama:llama3.1:8b' -> (['judge'], 'ollama', 'llama3.1:8b'); 'all=...' names every role."""
    role, sep, target = text.partition("=")
    provider, _, model = target.partition(":")
    if not sep or provider not in ("embedded", "ollama", "openai"):
        raise ConfigError(Message("--model {text}: write ROLE=PROVIDER:MODEL, e.g. judge=ollama:llama3.1 (ROLE: "
                                  "prosecution, defense, judge or all; PROVIDER: embedded, ollama or openai)",
                                  f'{text!r}'))
    roles = list(ROLES) if role == "all" else [role]
    if any(r not in ROLES for r in roles):
        raise ConfigError(Message("--model {text}: unknown role {role}; use prosecution, defense, judge or all",
                                  f'{text!r}', f'{role!r}'))
    return roles, provider, model


def with_model_overrides(config: AppConfig, overrides: list[str]) -> AppConfig:
    """``config`` with ``--model ROLE=PROVIDER:MODEL`` overrides (each role keeps its other model settings)."""
    models = config.models.model_copy(deep=True)
    for text in overrides:
        roles, provider, model = parse_model_override(text)
        for role in roles:
            base = models.for_role(role)
            spec = ModelSpec.model_validate({**base.model_dump(), "provider": provider, "model": model})
            setattr(models, role, spec)
    return config.model_copy(update={"models": models})
