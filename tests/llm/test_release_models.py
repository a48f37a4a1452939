"""The window's close frees the embedded llama.cpp models through the core (services.models.release_loaded_models),
without importing the embedded wrapper when no model was loaded."""

from __future__ import annotations

import subprocess
import sys


def test_release_frees_the_loaded_models():
    from courtroom_desktop.core.llm import embedded
    from courtroom_desktop.core.services.models import release_loaded_models

    embedded._loaded["/models/x.gguf"] = object()  # stands for a loaded model
    release_loaded_models()
    assert not embedded._loaded  # break: return before unload_all, and it stays


def test_release_imports_nothing_when_no_model_was_loaded():
    code = ("import sys\nfrom courtroom_desktop.core.services.models import release_loaded_models\n"
            "release_loaded_models()\nprint('courtroom_desktop.core.llm.embedded' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
