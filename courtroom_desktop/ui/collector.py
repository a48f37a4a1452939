"""The garbage collector paced for the event loop. A full collection walks every object the process holds, with the
interpreter lock held throughout, in whichever thread triggers it: while the models and stores load in the background
after the window shows, the imports make hundreds of thousands of objects and full passes of 30 to 100 ms each (lancedb's
import alone triggers two: ``bench/ui.py --trace-stalls``) stop the window's thread as long.

So full passes wait from the window's creation (``defer_full_collections``) until the first preload is done
(``settle``), which moves what is loaded by then (modules, models, stores, kept for the process's life) out of the
collector's reach with ``gc.freeze()`` and lets full passes run again over the rest. Young collections run all along:
they are short and reclaim most cycles."""

from __future__ import annotations

import gc

_held: tuple[int, int, int] | None = None
_settled = False


def defer_full_collections() -> None:
    """Freeze what the window's start-up made and hold full collections back (young ones still run)."""
    global _held
    if _held is None and not _settled:
        gc.freeze()
        _held = gc.get_threshold()
        gc.set_threshold(_held[0], _held[1], 1_000_000)


def settle() -> None:
    """Once, after the first preload (however it ended): freeze what it loaded, then full collections as before."""
    global _held, _settled
    if _settled:
        return
    _settled = True
    gc.freeze()
    if _held is not None:
        gc.set_threshold(*_held)
        _held = None


def deferring() -> bool:
    return _held is not None
