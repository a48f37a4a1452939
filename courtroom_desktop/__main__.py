"""`courtroom` and `python -m courtroom_desktop`."""

import os
import sys

# Nothing may be fetched from a model hub at run time: every model ships in a package or a local file.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def main() -> int:
    if sys.argv[1:2] == ["--courtroom-extract-worker"]:  # a frozen app's PDF extraction child (core.library.read.isolate)
        from courtroom_desktop.core.library.read.isolate import serve

        serve()
        return 0
    if sys.argv[1:2] == ["--courtroom-embed-worker"]:  # a frozen app's embedding child (core.library.embed.child)
        from courtroom_desktop.core.library.embed.child import serve as serve_embedder

        serve_embedder()
        return 0
    from courtroom_desktop.cli import main as cli_main

    return cli_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
