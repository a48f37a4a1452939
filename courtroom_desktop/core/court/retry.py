"""Reject, warn, regenerate once: the one loop behind every checked model answer (a counsel's argument, a verdict's
text). An attempt drafts and names its problems; the first rejection is warned of and the draft asked for again with
its problems named (``prompts.told_to_model``); what the second draft still gets wrong comes back with it, for the
caller to cut and flag."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from courtroom_desktop.core.court import prompts
from courtroom_desktop.core.court.records import Reason, TrialWarning

D = TypeVar("D")

#: One attempt: its number (0, then 1) and the problems of the rejected draft as told to the model ('' the first
#: time) -> the draft and its problems (none: it stands).
Attempt = Callable[[int, str], Awaitable[tuple[D, list[Reason]]]]


@dataclass
class Checked(Generic[D]):
    """The last draft and what is still wrong with it (empty: it stands); ``regenerated``: it is the second."""

    draft: D
    problems: list[Reason]
    regenerated: bool


async def regenerate_once(attempt: Attempt[D], rejected: Callable[[tuple[Reason, ...]], Reason],
                          emit: Callable[[TrialWarning], object], round_number: int) -> Checked[D]:
    """Run ``attempt``; a draft with problems is warned of (``rejected(problems)``: the warning's reason) and drafted
    once more with its problems named. The second draft comes back whatever its problems."""
    told = ""
    draft, problems = await attempt(0, told)
    if not problems:
        return Checked(draft, problems, regenerated=False)
    emit(TrialWarning(round=round_number, reason=rejected(tuple(problems))))
    told = prompts.told_to_model(problems)
    draft, problems = await attempt(1, told)
    return Checked(draft, problems, regenerated=True)
