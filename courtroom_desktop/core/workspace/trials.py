"""The trials' use cases: a claim or a decision put on trial over the library, a stopped trial resumed, the stored
trials read (events, model calls, what their searches covered), exported and deleted. Takes and returns records
(core.court.records) and ids; the store, the court and the models stay inside (parts.py)."""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.errors import TrialError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.workspace.parts import Parts

if TYPE_CHECKING:
    from courtroom_desktop.core.check.records import TrialOutcome
    from courtroom_desktop.core.court import Court
    from courtroom_desktop.core.court.bench import ChatModel
    from courtroom_desktop.core.court.coverage import TrialCoverage
    from courtroom_desktop.core.court.decisions import DecisionSpec
    from courtroom_desktop.core.court.records import TrialEvent, TrialSpec
    from courtroom_desktop.core.court.store import TrialSummary
    from courtroom_desktop.core.records import ModelCall

EMPTY_LIBRARY = Message("the library is empty: add documents first (`courtroom ingest PATH`, or the sample library in "
                        "the window)")


@dataclass
class TrialRun:
    """A trial ready to run: its id, its spec as stored (with the debate settings) and the court that drives it."""

    trial_id: str
    spec: TrialSpec
    court: Court

    def events(self) -> AsyncIterator[TrialEvent]:
        """The trial's event stream (``async for``): persisted as it happens, resumable if it stops."""
        stream: AsyncIterator[TrialEvent] = self.court.run(self.trial_id)
        return stream


@dataclass
class Export:
    paths: builtins.list[Path]
    notes: builtins.list[str]  # what could not be done as asked (a source PDF moved, a page not highlighted)


class TrialService:
    def __init__(self, parts: Parts):
        self._parts = parts

    # ---------------------------------------------------------------- stored trials
    def list(self) -> builtins.list[TrialSummary]:
        """Every stored trial, newest first, with its status and verdict."""
        return self._parts.trials.list()

    def id(self, ref: str) -> str:
        """A stored trial's id from its id or a unique prefix (TrialError otherwise)."""
        return self._parts.trials.find(ref)

    def spec(self, ref: str) -> TrialSpec:
        """A stored trial's spec: its claim, case, scope, models and debate settings."""
        store = self._parts.trials
        return store.spec(store.find(ref))

    def events(self, ref: str) -> builtins.list[TrialEvent]:
        """A stored trial's events, in order."""
        store = self._parts.trials
        return store.events(store.find(ref))

    def opened(self, ref: str) -> tuple[TrialSpec, builtins.list[TrialEvent], str]:
        """A stored trial as the window opens it: its spec, its events and its status."""
        store = self._parts.trials
        trial_id = store.find(ref)
        status = next((t.status for t in store.list() if t.id == trial_id), "")
        return store.spec(trial_id), store.events(trial_id), status

    def calls(self, ref: str, step: str | None = None, round_number: int | None = None,
              turn: int | None = None) -> builtins.list[ModelCall]:
        """A stored trial's model calls (the exact prompt each model saw and its raw answer), in order; only those of
        a step (turn, assessment, ruling, verdict), a round or a counsel turn (0-based) when asked."""
        store = self._parts.trials
        return store.calls(store.find(ref), step, round_number, turn)

    def coverage(self, ref: str) -> TrialCoverage:
        """What a stored trial's searches covered: the passages found (admitted, or turned away and why) and the
        documents in its scope no search reached."""
        from courtroom_desktop.core.court.coverage import trial_coverage

        store = self._parts.trials
        trial_id = store.find(ref)
        spec, events = store.spec(trial_id), store.events(trial_id)
        return trial_coverage(events, self._parts.scope_titles(spec.documents))

    def outcome(self, trial_id: str) -> TrialOutcome:
        """Where a trial stands, as a check records it: deleted, its status, and its verdict once it has one."""
        from courtroom_desktop.core.check.records import TrialOutcome
        from courtroom_desktop.core.court.records import VerdictReached

        store = self._parts.trials
        summary = next((t for t in store.list() if t.id == trial_id), None)
        if summary is None:
            return TrialOutcome(trial_id=trial_id, status="deleted")
        verdict = next((e.verdict for e in reversed(store.events(trial_id)) if isinstance(e, VerdictReached)), None)
        if verdict is None:
            return TrialOutcome(trial_id=trial_id, status=summary.status)
        return TrialOutcome(trial_id=trial_id, status=summary.status, label=verdict.label,
                            confidence=verdict.confidence, summary=verdict.summary)

    def delete(self, refs: Sequence[str]) -> builtins.list[str]:
        """Stored trials (ids or unique prefixes) deleted; returns their ids."""
        store = self._parts.trials
        ids = [store.find(ref) for ref in refs]
        for trial_id in ids:
            store.delete(trial_id)
        return ids

    # ---------------------------------------------------------------- running one
    def start(self, claim: str, case: str = "claim", documents: Sequence[str] | None = None,
              sections: Sequence[str] | None = None, settings: DebateSettings | None = None, *,
              background: str = "", decision: DecisionSpec | None = None,
              models: Callable[[str], ChatModel] | None = None) -> TrialRun:
        """Create a trial of ``claim`` over the library (or the named documents and sections) with ``settings``
        (default: the config's debate settings). ``background``: text every role sees, as data; ``decision``: a
        ``DecisionSpec`` (options, weighted criteria, hard constraints) for a decision case; ``models``: role ->
        chat model, instead of the configured ones (a check's queue hands in models held to their servers' limits)."""
        from pydantic import ValidationError

        from courtroom_desktop.core.court import CaseType, TrialSpec

        parts = self._parts
        claim = " ".join(claim.split())
        if not claim:
            raise TrialError(Message("the claim is empty: say what should be put on trial"))
        if not parts.library.ready_ids():
            raise TrialError(EMPTY_LIBRARY)
        scope = parts.scope(documents, sections)
        try:
            spec = TrialSpec(claim=claim, case=CaseType(case), documents=tuple(sorted(scope.doc_ids or ())),
                             sections=tuple(scope.sections), models=parts.model_labels(),
                             background=background.strip(), decision=decision)
        except ValidationError as exc:
            from courtroom_desktop.core.court.decisions import problem_of

            raise TrialError(problem_of(exc)) from None
        parts.privacy(scope).check()
        court = parts.court(scope, settings or parts.config.debate, models)
        trial_id = court.start(spec)
        return TrialRun(trial_id, parts.trials.spec(trial_id), court)

    def resume(self, ref: str, models: Callable[[str], ChatModel] | None = None) -> TrialRun:
        """A stopped or paused trial (id or unique prefix), with the debate settings and scope it started with and
        this workspace's models (or ``models``)."""
        parts = self._parts
        trial_id = parts.trials.find(ref)
        spec = parts.trials.spec(trial_id)
        settings = DebateSettings.model_validate(spec.settings) if spec.settings else parts.config.debate
        scope = parts.scope(list(spec.documents), list(spec.sections))
        parts.privacy(scope).check()  # today's models, today's private flags
        court = parts.court(scope, settings, models)
        return TrialRun(trial_id, spec, court)

    def export(self, ref: str, formats: Iterable[str], out_dir: str | PathLike[str],
               audience: Literal["general", "expert"] = "general", with_prompts: bool = False) -> Export:
        """A stored trial's report into ``out_dir``: the formats asked for and the highlighted source pages; with
        ``with_prompts`` (only when asked: they hold the documents' text), every model call's exact prompt and raw
        answer too, in prompts.json and prompts.md."""
        from courtroom_desktop.core.reports import TrialRecord, export

        parts = self._parts
        trial_id = parts.trials.find(ref)
        scope = parts.scope_titles(parts.trials.spec(trial_id).documents)
        record = TrialRecord.from_store(parts.trials, trial_id, scope=scope)
        notes: builtins.list[str] = []
        paths = export(record, formats, Path(out_dir), audience=audience, locate=parts.locate_document, notes=notes)
        if with_prompts:
            from courtroom_desktop.core.reports.model_calls import write_prompts

            paths += write_prompts(parts.trials.calls(trial_id), Path(out_dir))
        return Export(paths, notes)
