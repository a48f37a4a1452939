"""``python scripts/llama_server.py [llama_cpp.server options]``: llama-cpp-python's
OpenAI-compatible server with this package's llama.cpp workarounds applied first (see ``embedded``: on machines whose
CPU reports AMX but faults on it, ``python -m llama_cpp.server`` dies on its first batched decode).
With no ``--model``, serves the bundled SmolLM2-135M GGUF."""

from __future__ import annotations

import runpy
import sys


def main() -> None:
    from courtroom_desktop.core.llm.embedded import bundled_gguf_path
    from courtroom_desktop.core.llm.llama_setup import apply_llama_workarounds

    apply_llama_workarounds()
    if "--model" not in sys.argv:
        sys.argv[1:1] = ["--model", str(bundled_gguf_path())]
    sys.argv[0] = "llama_cpp.server"
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
