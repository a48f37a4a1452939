"""The courtroom: Prosecution and Defense argue from progressively retrieved evidence, the Judge rules each round,
the sides switch when the debate stalls, and the Judge gives a verdict. See ``engine`` for the flow.

The names below load on first use, so that ``court.records`` (which the window's text helpers use) comes without the
engine and numpy."""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from courtroom_desktop.core.court.engine import Court as Court
    from courtroom_desktop.core.court.records import CaseType as CaseType
    from courtroom_desktop.core.court.records import Stance as Stance
    from courtroom_desktop.core.court.records import TrialSpec as TrialSpec
    from courtroom_desktop.core.court.records import VerdictLabel as VerdictLabel
    from courtroom_desktop.core.court.state import TrialState as TrialState
    from courtroom_desktop.core.court.store import TrialStore as TrialStore

_HOMES = {"Court": "engine", "TrialState": "state", "TrialStore": "store", "CaseType": "records", "Stance": "records",
          "TrialSpec": "records", "VerdictLabel": "records"}
__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
