"""The courtroom: Prosecution and Defense argue from progressively retrieved evidence, the Judge rules each round,
the sides switch when the debate stalls, and the Judge gives a verdict. See ``engine`` for the flow."""

from courtroom_desktop.core.court.engine import Court
from courtroom_desktop.core.court.records import CaseType, Stance, TrialSpec, VerdictLabel
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.court.store import TrialStore

__all__ = ["CaseType", "Court", "Stance", "TrialSpec", "TrialState", "TrialStore", "VerdictLabel"]
