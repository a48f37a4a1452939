"""The courtroom: Prosecution and Defense argue from progressively retrieved evidence, the Judge rules each round,
the sides switch when the debate stalls, and the Judge gives a verdict. See ``engine`` for the flow.

The names below load on first use, so that ``court.records`` (which the window's text helpers use) comes without the
engine and numpy."""

from importlib import import_module

_HOMES = {"Court": "engine", "TrialState": "state", "TrialStore": "store", "CaseType": "records", "Stance": "records",
          "TrialSpec": "records", "VerdictLabel": "records"}
__all__ = sorted(_HOMES)


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
