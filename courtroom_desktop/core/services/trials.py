"""Trials and decisions: a workspace's use cases (``Workspace``: ingest, search, start, resume, export a trial),
the decision a trial weighs, and a stored trial's state (a trial shown again from its events)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from courtroom_desktop.core.services._lazy import exports

if TYPE_CHECKING:
    from courtroom_desktop.core.court.decisions import (
        MAX_CONSTRAINTS,
        MAX_CRITERIA,
        MAX_OPTIONS,
        Criterion,
        DecisionOutcome,
        DecisionSpec,
        OptionRow,
        problem_of,
    )
    from courtroom_desktop.core.court.hearing import BACKGROUND_CHARS
    from courtroom_desktop.core.court.state import TrialState
    from courtroom_desktop.core.court.store import TrialSummary
    from courtroom_desktop.core.workspace import Export, TrialRun, Workspace

__all__ = ["BACKGROUND_CHARS", "MAX_CONSTRAINTS", "MAX_CRITERIA", "MAX_OPTIONS", "Criterion", "DecisionOutcome",
           "DecisionSpec", "Export", "OptionRow", "TrialRun", "TrialState", "TrialSummary", "Workspace", "problem_of"]

__getattr__ = exports({
    "Workspace": "workspace:Workspace", "TrialRun": "workspace:TrialRun", "Export": "workspace:Export",
    "TrialState": "court.state:TrialState", "TrialSummary": "court.store:TrialSummary",
    "Criterion": "court.decisions:Criterion", "DecisionSpec": "court.decisions:DecisionSpec",
    "DecisionOutcome": "court.decisions:DecisionOutcome", "OptionRow": "court.decisions:OptionRow",
    "problem_of": "court.decisions:problem_of", "MAX_OPTIONS": "court.decisions:MAX_OPTIONS",
    "MAX_CRITERIA": "court.decisions:MAX_CRITERIA", "MAX_CONSTRAINTS": "court.decisions:MAX_CONSTRAINTS",
    "BACKGROUND_CHARS": "court.hearing:BACKGROUND_CHARS",
}, __name__)
