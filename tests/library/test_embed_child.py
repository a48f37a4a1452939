"""The ONNX embedding model in a child process, as the window runs it (core/library/embed/child.py): the window's
process imports neither onnxruntime nor the tokenizer and gets the vectors it would have computed itself; a child
that dies fails one call with an error naming the model, and the next call starts a new one; a model folder the
child cannot load is an error with the child's reason; closing the library stops the child."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from courtroom_desktop.core.errors import LibraryError
from courtroom_desktop.core.library import Embedder
from courtroom_desktop.core.library.embed import child

SENTENCES = ["The court ruled that the evidence was insufficient.", "维生素D缺乏与出生体重无关。", "word " * 600]


@pytest.fixture
def in_child():
    pytest.importorskip("onnxruntime")
    child.use(True)
    try:
        embedder = Embedder("all-MiniLM-L6-v2", batch=2, backend="onnx")
        assert embedder.dim == 384
        yield embedder
    finally:
        child.use(False)
        embedder.close()


def _gone(pid: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_the_windows_process_gets_the_same_vectors_without_importing_onnxruntime(tmp_path):
    """As the window does (ui/app.py use_embedding_child): a library preloaded and searched in a fresh process,
    whose vectors equal the in-process model's, with onnxruntime and tokenizers never imported there."""
    pytest.importorskip("onnxruntime")
    code = textwrap.dedent("""
        import json, sys
        from pathlib import Path
        from courtroom_desktop.ui.app import use_embedding_child
        use_embedding_child()
        from courtroom_desktop.core.config import AppConfig, LibrarySettings
        from courtroom_desktop.core.workspace import Workspace
        workspace = Workspace(Path(sys.argv[1]) / "config", Path(sys.argv[1]) / "data",
                              AppConfig(library=LibrarySettings(isolate_extraction=False)))
        workspace.library.preload()
        vectors = workspace.parts.library.embedder.encode(json.loads(sys.argv[2]))
        print(json.dumps({"vectors": vectors.tolist(),
                          "imported": [m for m in ("onnxruntime", "tokenizers") if m in sys.modules]}))
        workspace.close()
    """)
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path), json.dumps(SENTENCES)], capture_output=True,
                         text=True, env={**os.environ, "HF_HUB_OFFLINE": "1"}, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    answer = json.loads(out.stdout.strip().splitlines()[-1])
    assert answer["imported"] == []
    here = Embedder("all-MiniLM-L6-v2", batch=2, backend="onnx").encode(SENTENCES)
    assert np.allclose(np.array(answer["vectors"]), here, atol=1e-6)


def test_a_child_that_dies_fails_the_call_it_served_and_the_next_starts_a_new_one(in_child):
    model = in_child._load()
    assert isinstance(model, child.ChildModel)
    first = in_child.encode(SENTENCES)
    pid = model.pid
    assert pid is not None and pid != os.getpid()
    os.kill(pid, 9)  # between two calls: the next one starts a new child and gets the same vectors
    model._proc.wait(timeout=10)
    assert np.allclose(in_child.encode(SENTENCES), first, atol=1e-6)
    assert model.started == 2 and model.pid not in (None, pid)
    killer = threading.Timer(0.5, os.kill, (model.pid, 9))  # during a call (a few seconds of embedding)
    killer.start()
    try:
        with pytest.raises(LibraryError, match=r"embedding model .*process stopped") as failed:
            in_child.encode(["a long passage about the court and its evidence " * 40] * 200)
    finally:
        killer.cancel()
    assert failed.value.fix
    assert np.allclose(in_child.encode(SENTENCES), first, atol=1e-6)
    assert model.started == 3


def test_a_model_folder_the_child_cannot_load_is_an_error_with_its_reason(tmp_path):
    (tmp_path / "manifest.json").write_text(json.dumps({"dim": 384, "pooling": "mean", "max_length": 256,
                                                        "truncation_side": "right"}))
    with pytest.raises(LibraryError, match=r"embedding model .*cannot load the model folder") as failed:
        child.ChildModel(tmp_path, "onnx")
    assert "exported again" in failed.value.fix


def test_closing_stops_the_child(in_child):
    model = in_child._load()
    pid = model.pid
    in_child.close()
    assert _gone(pid)


def test_a_child_imports_the_same_package_as_its_parent(tmp_path):
    """The children (the embedding child, the text extractor) run with the folder holding this very
    courtroom_desktop first on their path, so that a checkout's child never imports another copy installed beside it
    (break: the folder of the package itself put there, parents[2], and it fails)."""
    import courtroom_desktop
    from courtroom_desktop.core.library.child_process import environment

    env = environment()
    first = env["PYTHONPATH"].split(os.pathsep)[0]
    assert (Path(first) / "courtroom_desktop" / "__init__.py").resolve() == Path(courtroom_desktop.__file__).resolve()
    shown = subprocess.run([sys.executable, "-c", "import courtroom_desktop; print(courtroom_desktop.__file__)"],
                           env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True)
    assert Path(shown.stdout.strip()).resolve() == Path(courtroom_desktop.__file__).resolve()
