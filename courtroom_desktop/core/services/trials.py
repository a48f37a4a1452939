"""Trials and decisions: a workspace's use cases (``Workspace``: ingest, search, start, resume, export a trial),
the decision a trial weighs, and a stored trial's state (a trial shown again from its events)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtroom_desktop.core.services._lazy import exports

if TYPE_CHECKING:
    from courtroom_desktop.core.court.decisions import Criterion, DecisionSpec, problem_of
    from courtroom_desktop.core.court.hearing import BACKGROUND_CHARS
    from courtroom_desktop.core.court.state import TrialState
    from courtroom_desktop.core.workspace import Export, TrialRun, Workspace

__all__ = ["BACKGROUND_CHARS", "Criterion", "DecisionSpec", "Export", "TrialRun", "TrialState", "Workspace",
           "problem_of"]

__getattr__ = exports({
    "Workspace": "workspace:Workspace", "TrialRun": "workspace:TrialRun", "Export": "workspace:Export",
    "TrialState": "court.state:TrialState",
    "Criterion": "court.decisions:Criterion", "DecisionSpec": "court.decisions:DecisionSpec",
    "problem_of": "court.decisions:problem_of",
    "BACKGROUND_CHARS": "court.hearing:BACKGROUND_CHARS",
}, globals())
