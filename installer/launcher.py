"""The frozen app's entry script (PyInstaller runs this file as __main__): the same main() as the `courtroom`
console script, which also serves the PDF-extraction child (`courtroom --courtroom-extract-worker`) and the window's
embedding child (`courtroom --courtroom-embed-worker`)."""

import multiprocessing
import sys

from courtroom_desktop.__main__ import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a no-op unless a library starts multiprocessing children in the frozen app
    sys.exit(main())
