"""The ONNX backends of :mod:`~courtroom_desktop.core.library.embed.embedder` ('onnx', 'onnx-int8'): the export of a
sentence-transformers model to ONNX, once per machine, and its runner.

The runner runs each text alone (a batch of one), on one single-threaded worker per core. A text alone has no
padding, so the graph needs no attention mask (the export leaves it out), and one text's activations stay in the
core's cache where a batch's spill out of it: about 1.6x PyTorch's batched throughput for the float model and 3.3x for
int8 (docs/performance.md). For int8 it also makes a text's vector its own: the activations are quantised per run, so
in a batch a text's vector depended on the texts beside it.

The models are exported from the local weights (nothing is downloaded) on first use, by the worker thread that first
needs the model, into the cache folder (``COURTROOM_CACHE_DIR``, else the platform's user cache folder): written to a
temporary folder, then renamed into place, so a crash or a second process never leaves or reads a half-written model.
At run time they need onnxruntime and the ``tokenizers`` package only (no torch import); the export itself needs torch
and onnx.
"""

from __future__ import annotations

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
from typing import TYPE_CHECKING, Any

import numpy as np

from courtroom_desktop.core.errors import ConfigError
from courtroom_desktop.core.lexicon.message import Message

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

log = logging.getLogger(__name__)

SETTING = "library.embedding_backend"
EXPORT_FORMAT = 2  # bump when the exported files change, so that every machine exports again (2: no attention mask)
POOLING = ("mean", "cls", "max")
# onnxruntime's fused SkipLayerNormalization and BiasGelu kernels run slower on CPU than the plain ops they replace
# (LayerNormalization, Add, Gelu): left unfused both at export and when a session loads the model
UNFUSED = {"enable_skip_layer_norm": False, "enable_bias_skip_layer_norm": False, "enable_bias_gelu": False}
SESSION_UNFUSED = ["SkipLayerNormFusion", "BiasGeluFusion"]
MAX_WORKERS = 8


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


def cache_root() -> Path:
    """Where exported models live: ``COURTROOM_CACHE_DIR``, else the platform's user cache folder."""
    value = os.environ.get("COURTROOM_CACHE_DIR")
    if value:
        return Path(value).expanduser()
    import platformdirs

    from courtroom_desktop import APP_ID

    return Path(platformdirs.user_cache_dir(APP_ID))


def _need_onnxruntime(backend: str, export: bool, load: bool = True) -> None:
    """ConfigError, naming the setting and what to install, when a module the ONNX backend needs is missing.
    ``load=False`` only looks for them without importing (the embedding child imports them, not the window)."""
    import importlib.util

    missing = []
    for module in ("onnxruntime", "tokenizers") + (("onnx",) if export else ()):
        if not load:
            if importlib.util.find_spec(module) is None:
                missing.append(module)
            continue
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        raise ConfigError(
            Message("{SETTING} = {backend} needs {' and '.join(missing)}, which is not installed: install it with "
                    "`python -m pip install {' '.join(missing)}` (they are among the app's dependencies), or set "
                    "{SETTING} = 'torch'",
                    SETTING, f'{backend!r}', ' and '.join(missing), ' '.join(missing)),
            reason=Message("{' and '.join(missing)} not installed", ' and '.join(missing)),
            fix=Message("python -m pip install {' '.join(missing)}, or set {SETTING} = 'torch'",
                        ' '.join(missing), SETTING),
        )


SHIPPED = "all-MiniLM-L6-v2"  # the model a desktop bundle carries exported: <bundle>/embedders/<SHIPPED>-<backend>


def torch_installed() -> bool:
    """PyTorch and sentence-transformers are importable (the optional [torch] extra): only an export needs them."""
    import importlib.util

    return all(importlib.util.find_spec(name) is not None for name in ("torch", "sentence_transformers"))


def shipped_export(backend: str) -> Path | None:
    """The bundled MiniLM exported for ``backend`` when the desktop bundle was built (``embedders/`` beside the
    bundle's modules, or the folder ``COURTROOM_EMBEDDERS_DIR`` names), so that the bundle runs it without PyTorch;
    None where there is none (a pip install exports it once, into the cache)."""
    import sys

    bundle = getattr(sys, "_MEIPASS", None)  # set by PyInstaller in a frozen app
    places = [os.environ.get("COURTROOM_EMBEDDERS_DIR", ""), str(Path(bundle) / "embedders") if bundle else ""]
    for place in filter(None, places):
        folder = Path(place) / f"{SHIPPED}-{backend}"
        manifest = _manifest(folder)
        if manifest and int(manifest.get("format", 0)) == EXPORT_FORMAT:
            return folder
    return None


def _onnxruntime_version() -> str:
    """onnxruntime's version from its package metadata, without importing it (its import holds the interpreter lock
    for 60 to 200 ms); imported where the metadata is missing."""
    import importlib.metadata

    try:
        return importlib.metadata.version("onnxruntime")
    except importlib.metadata.PackageNotFoundError:
        import onnxruntime

        return str(onnxruntime.__version__)


def _cpu_has_vnni() -> bool:
    """int8 dot-product instructions (AVX512-VNNI or AVX-VNNI): then int8 weights are signed (the fast kernels);
    without them onnxruntime's signed kernels can saturate, and unsigned weights (its 'avx2' setting) are safe."""
    try:
        flags = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        import platform

        return platform.machine().lower() in ("arm64", "aarch64")  # ARM: signed int8 is native
    return "avx512_vnni" in flags or "avx_vnni" in flags


def _fingerprint(path: Path) -> list[list[str | int]]:
    """Names, sizes and modification times of the model's files: a changed model exports again."""
    files = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in (".json", ".safetensors", ".bin", ".txt"))
    return [[str(p.relative_to(path)), p.stat().st_size, int(p.stat().st_mtime)] for p in files]


def exported_model(model_path: str, backend: str, root: Path, label: str = "") -> Path:
    """The folder of ``model_path`` exported for ``backend`` under ``root``, exporting it first if it is not there
    (``label`` names the folder). Raises ConfigError (naming the setting) when the packages are missing or the
    export fails."""
    _need_onnxruntime(backend, export=False, load=False)
    weights = "s8" if backend == "onnx-int8" and _cpu_has_vnni() else "u8"
    source = Path(model_path).resolve()
    material = json.dumps({"model": str(source), "files": _fingerprint(source), "backend": backend,
                           "weights": weights if backend == "onnx-int8" else None, "format": EXPORT_FORMAT,
                           "onnxruntime": _onnxruntime_version()}, sort_keys=True)
    key = hashlib.sha1(material.encode()).hexdigest()[:12]
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(label or source.name).name)[:48]
    folder = Path(root) / "embedders" / f"{slug}-{backend}-{key}"
    if (folder / "manifest.json").exists():
        return folder
    _need_onnxruntime(backend, export=True)
    if not torch_installed():
        raise ConfigError(
            Message("{SETTING} = {backend}: {source.name} runs on ONNX after a one-time export that needs PyTorch, "
                    "which is not installed: python -m pip install 'courtroom-desktop[torch]' (the desktop bundle "
                    "ships the model exported), or choose library.embedder = 'multilingual', which needs no PyTorch",
                    SETTING, f'{backend!r}', source.name),
            reason=Message("PyTorch not installed for the one-time export"),
            fix=Message("python -m pip install 'courtroom-desktop[torch]', or library.embedder = 'multilingual'"),
        )
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
            Message("{SETTING} = {backend}: exporting the embedding model {source.name} to ONNX failed ({exc}); set "
                    "{SETTING} = 'torch' to embed with PyTorch",
                    SETTING, f'{backend!r}', source.name, exc),
            reason=Message("ONNX export failed ({exc})", exc), fix=Message("set {SETTING} = 'torch'", SETTING),
        ) from exc
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    log.info("exported %s (%s) in %.1f s", source.name, backend, time.perf_counter() - began)
    _remove_stale_exports(folder)
    return folder


def _manifest(folder: Path) -> dict[str, Any] | None:
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) else None


def _remove_stale_exports(folder: Path) -> None:
    """Remove the exports beside ``folder`` of the same model and backend (as their manifests name them) in an older
    EXPORT_FORMAT: no run of this version reads them again (~90 MB each). Exports of the current format (another
    onnxruntime) stay, as do other models' and backends' exports and anything that is not an export."""
    made = _manifest(folder) or {}
    for sibling in folder.parent.iterdir():
        manifest = _manifest(sibling) if sibling != folder and sibling.is_dir() else None
        if (manifest and manifest.get("backend") == made.get("backend") and manifest.get("source") == made.get("source")
                and int(manifest.get("format", 0)) < EXPORT_FORMAT):
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
        raise ConfigError(Message("{SETTING}: the ONNX backends run Transformer + Pooling (+ Normalize) models; "
                                  "{Path(model_path).name} is {' + '.join(kinds)}: set {SETTING} = 'torch'",
                                  SETTING, Path(model_path).name, ' + '.join(kinds)))
    # sentence-transformers' own modules, used by their attributes
    transformer_module: Any = st[0]
    pooling_module: Any = st[1]
    pooling = pooling_module.get_config_dict().get("pooling_mode", "mean")
    if pooling not in POOLING:
        raise ConfigError(Message("{SETTING}: the ONNX backends pool by {', '.join(POOLING)}; "
                                  "{Path(model_path).name} pools by {pooling}: set {SETTING} = 'torch'",
                                  SETTING, ', '.join(POOLING), Path(model_path).name, f'{pooling!r}'))
    tokenizer = st.tokenizer
    inputs = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in tokenizer.model_input_names]
    transformer = transformer_module.auto_model.eval()
    if hasattr(transformer, "set_attn_implementation"):
        transformer.set_attn_implementation("eager")  # plain ops, which onnxruntime fuses into its Attention

    class Wrapped(torch.nn.Module):
        def __init__(self, model: Any) -> None:
            super().__init__()
            self.model = model

        def forward(self, *tensors: torch.Tensor) -> Any:
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
    max_length = st.max_seq_length
    if max_length is None:  # a Transformer module always has one
        raise TypeError(f"{Path(model_path).name} does not say its max_seq_length")
    manifest = {
        "format": EXPORT_FORMAT, "backend": backend, "weights": weights if backend == "onnx-int8" else "float32",
        "source": model_path, "inputs": inputs, "pooling": pooling, "dim": int(pooling_module.get_config_dict().get(
            "embedding_dimension", config.hidden_size)),
        "max_length": int(max_length), "truncation_side": tokenizer.truncation_side,
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


class OnnxModel:
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
        self.pool: ThreadPoolExecutor | None = None
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
        normalised: np.ndarray = vectors / np.clip(norms, 1e-12, None)
        return normalised
