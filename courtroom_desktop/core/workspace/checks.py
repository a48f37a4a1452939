"""The draft checks' use cases: a draft read into sentences, its claims found and reviewed, stored as a check, its
queue of quick checks and full trials run, the reviewer's sign-off, and the report with the annotated draft
(core/check, docs/check.md). Takes and returns records (core.check.records) and ids."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

from courtroom_desktop.core.errors import TrialError
from courtroom_desktop.core.lexicon.message import Message
from courtroom_desktop.core.workspace.library import LibraryService
from courtroom_desktop.core.workspace.parts import Parts
from courtroom_desktop.core.workspace.trials import EMPTY_LIBRARY, Export, TrialService

if TYPE_CHECKING:
    from courtroom_desktop.core.check.drafts import Draft
    from courtroom_desktop.core.check.queue import CheckQueue
    from courtroom_desktop.core.check.records import (
        CheckClaim,
        CheckRecord,
        CheckSummary,
        ClaimRow,
        TrialOutcome,
        TrialsWhen,
    )
    from courtroom_desktop.core.check.references import Citation, CitedReferences, Reference
    from courtroom_desktop.core.court.bench import ChatModel
    from courtroom_desktop.core.court.records import VerdictLabel


class CheckService:
    def __init__(self, parts: Parts, trials: TrialService, library: LibraryService):
        self._parts = parts
        self._trials = trials
        self._library = library

    # ---------------------------------------------------------------- a draft to its claims
    def read_draft(self, path: str | PathLike[str] | None = None, text: str | None = None) -> Draft:
        """A draft file (.pdf, .docx, .md, .txt) or pasted ``text`` read into located sentences (CheckError naming
        the file and the fix when it cannot be)."""
        from courtroom_desktop.core.check.drafts import read_draft, read_text

        if text is not None:
            return read_text(text)
        if path is None:
            raise TrialError(Message("no draft: give a file or paste the text"))
        return read_draft(Path(path).expanduser())

    def claim_finder(self, finder: str | None = None) -> str:
        """The finder a check uses: the setting's (or ``finder``), with auto resolved: the rules alone for the
        embedded model (too small to find claims), the rules and the judge's model otherwise."""
        config = self._parts.config
        chosen = finder or config.check.finder
        if chosen == "auto":
            return "rules" if config.models.for_role("judge").provider == "embedded" else "both"
        return chosen

    async def find_claims(self, draft: Draft, finder: str | None = None) -> tuple[builtins.list[CheckClaim], builtins.list[str]]:
        """The claims worth checking in ``draft`` as the finder finds them (see ``claim_finder``), in the draft's
        order; and warnings (what the model's answer had that could not be placed in the draft)."""
        from courtroom_desktop.core.check.claims import find_claims
        from courtroom_desktop.core.check.review import from_found

        chosen = self.claim_finder(finder)
        listed = self._in_reference_list(draft)
        body = [s for s in draft.sentences if s.index not in listed]  # a reference entry is not a claim
        rules = from_found(find_claims(body)) if chosen in ("rules", "both") else []
        if chosen == "rules":
            return rules, []
        from courtroom_desktop.core.check.model_claims import combine, find_with_model
        from courtroom_desktop.core.llm.limits import ServerLimits

        models = self._parts.config.models
        judge = ServerLimits(models).wrap(self._parts.router.for_role("judge"), models.for_role("judge"))
        found, warnings = await find_with_model(draft, judge)
        found = [c for c in found if not set(c.sentences) <= listed]
        return (combine(rules, found) if chosen == "both" else found), warnings

    def create(self, draft: Draft, claims: Sequence[CheckClaim], *, title: str = "",
               trials: TrialsWhen | None = None, trial_below: float | None = None, k: int | None = None,
               documents: Sequence[str] | None = None, finder: str = "rules") -> str:
        """A new check of ``draft``'s reviewed ``claims`` over the library (or the named documents), stored with the
        settings it runs with (the config's where not given); returns its id. ``queue(check_id).run()`` runs it."""
        import hashlib

        from courtroom_desktop.core.check.records import CheckSpec

        parts = self._parts
        if not parts.library.ready_ids():
            raise TrialError(EMPTY_LIBRARY)
        scope = parts.scope(documents)
        parts.privacy(scope).check()
        settings = parts.config.check
        source = Path(draft.source)
        is_file = draft.source != "pasted text" and source.is_file()
        spec = CheckSpec(draft=str(source.resolve()) if is_file else draft.source, kind=draft.kind,
                         language=draft.language, sentences=len(draft.sentences),
                         draft_sha256=hashlib.sha256(source.read_bytes()).hexdigest() if is_file else "",
                         pasted_text="" if is_file else " ".join(s.text for s in draft.sentences),
                         title=title or (source.name if is_file else draft.source),
                         trials=trials or settings.trials,
                         trial_below=settings.trial_below if trial_below is None else trial_below,
                         k=k or settings.passages, documents=tuple(sorted(scope.doc_ids or ())),
                         models=parts.model_labels(), finder=finder)
        return parts.checks.create(spec, self.with_citations(draft, claims))

    def references(self, path: str | PathLike[str] | None = None, text: str | None = None) -> CitedReferences:
        """What a draft cites: its reference list, its in-text citations (each tied to the sentences that carry it)
        and each reference's library document, or none ("cited, not in your library")."""
        from courtroom_desktop.core.check.drafts import draft_text
        from courtroom_desktop.core.check.references import CitedReferences, match_references

        draft = self.read_draft(path, text)
        whole = text if text is not None else draft_text(Path(path or ""))
        references, citations = self._cited(draft, whole)
        matches = match_references(references, self._library.works()) if references else []
        notices = self._library.notices() if matches else {}
        matches = [m.model_copy(update={"notice": notices[m.doc_id].kind}) if m.doc_id in notices else m
                   for m in matches]
        return CitedReferences(references=tuple(references), citations=tuple(citations), matches=tuple(matches))

    @staticmethod
    def _cited(draft: Draft, whole: str) -> tuple[builtins.list[Reference], builtins.list[Citation]]:
        """The draft's references (its text's list; a Word draft's footnotes and Zotero items too: core.check.word)
        and its citations, each tied to the entries it names."""
        from courtroom_desktop.core.check.references import find_citations, read_references
        from courtroom_desktop.core.check.word import with_fields

        references = read_references(whole)
        citations = find_citations(((s.index, s.text) for s in draft.sentences), references)
        return with_fields(draft, references, citations)

    def _text_of(self, draft: Draft) -> str:
        """The draft's whole text again ('' when its file cannot be read now)."""
        from courtroom_desktop.core.check.drafts import draft_text
        from courtroom_desktop.core.errors import CheckError

        if draft.source == "pasted text":
            return "\n".join(s.text for s in draft.sentences)
        try:
            return draft_text(Path(draft.source))
        except CheckError:
            return ""

    def _in_reference_list(self, draft: Draft) -> set[int]:
        """The sentences that belong to the draft's reference list (their text is part of one of its entries)."""
        from courtroom_desktop.core.check.references import split_reference_list

        _, entries = split_reference_list(self._text_of(draft))
        listed = [" ".join(e.split()) for e in entries]
        return {s.index for s in draft.sentences if listed and any(" ".join(s.text.split()) in e for e in listed)}

    def with_citations(self, draft: Draft, claims: Sequence[CheckClaim]) -> builtins.list[CheckClaim]:
        """``claims`` with the references their sentences cite (``CheckClaim.cites``), each matched to the library;
        a draft that cites nothing, or whose text cannot be read again, leaves them as they are."""
        from courtroom_desktop.core.check.records import CitedSource
        from courtroom_desktop.core.check.references import match_references

        references, citations = self._cited(draft, self._text_of(draft))
        if not references:
            return builtins.list(claims)
        matches = match_references(references, self._library.works())
        notices = self._library.notices()
        by_sentence: dict[int, builtins.list[int]] = {}
        for citation in citations:
            by_sentence.setdefault(citation.sentence, []).extend(citation.references)
        out = []
        for claim in claims:
            cited = sorted({r for i in claim.sentences for r in by_sentence.get(i, [])})
            cites = tuple(CitedSource(reference=references[r].text[:300], doc_id=matches[r].doc_id,
                                      how=matches[r].how,
                                      notice=notices[matches[r].doc_id].kind if matches[r].doc_id in notices else "")
                          for r in cited)
            out.append(claim.model_copy(update={"cites": cites}) if cites else claim)
        return out

    # ---------------------------------------------------------------- running one
    def queue(self, ref: str) -> CheckQueue:
        """The queue of a stored check (id or unique prefix), new or stopped, ready to ``run()``: quick checks with
        the judge's model, full trials with every role's, each model's calls held to its server's ``max_parallel``
        (core.llm.limits), today's privacy rule applied to every search and call."""
        import asyncio

        from courtroom_desktop.core.check.queue import CheckQueue
        from courtroom_desktop.core.check.quick import quick_check
        from courtroom_desktop.core.check.records import QuickResult
        from courtroom_desktop.core.llm.limits import ServerLimits

        parts = self._parts
        check_id = parts.checks.find(ref)
        spec = parts.checks.spec(check_id)
        scope = parts.scope(list(spec.documents))
        policy = parts.privacy(scope)
        policy.check()
        limits = ServerLimits(parts.config.models)

        def models(role: str) -> ChatModel:
            model: ChatModel = limits.wrap(parts.router.for_role(role), parts.config.models.for_role(role))
            return model

        judge = models("judge")
        retriever = parts.retriever
        verifier = parts.verifier
        cap = parts.config.debate.verdict_rule.insufficient_max_confidence
        trials = self._trials

        async def quick(claim: CheckClaim) -> QuickResult:
            cited_ids = sorted({c.doc_id for c in claim.cites if c.doc_id})
            cited = await asyncio.to_thread(parts.scope, cited_ids) if cited_ids else None
            return await quick_check(claim.text, retriever, judge, verifier, k=spec.k, scope=scope, policy=policy,
                                     insufficient_cap=cap, cited=cited)

        async def trial(text: str, trial_id: str | None, started: Callable[[str], None]) -> TrialOutcome:
            if trial_id is None:
                run = await asyncio.to_thread(trials.start, text, "claim", list(spec.documents) or None,
                                              models=models)
                await asyncio.to_thread(started, run.trial_id)
                trial_id = run.trial_id
            else:
                done = trials.outcome(trial_id)
                if done.label is not None:
                    return done
                run = await asyncio.to_thread(trials.resume, trial_id, models)
            async for _ in run.events():
                pass
            return await asyncio.to_thread(trials.outcome, trial_id)

        return CheckQueue(parts.checks, check_id, quick=quick, trial=trial, workers=limits.workers)

    # ---------------------------------------------------------------- stored checks
    def id(self, ref: str) -> str:
        """A stored check's id from its id or a unique prefix (CheckError otherwise)."""
        return self._parts.checks.find(ref)

    def list(self) -> builtins.list[CheckSummary]:
        """Every stored check, newest first."""
        return self._parts.checks.list()

    def record(self, ref: str) -> CheckRecord:
        """A stored check (id or unique prefix), whole."""
        store = self._parts.checks
        return store.record(store.find(ref))

    def delete(self, refs: Sequence[str]) -> builtins.list[str]:
        """Stored checks deleted (the trials they started are kept: they are trials like any other); their ids."""
        store = self._parts.checks
        ids = [store.find(ref) for ref in refs]
        for check_id in ids:
            store.delete(check_id)
        return ids

    def sign_off(self, ref: str, claim: int, decision: str, label: VerdictLabel | str | None = None, note: str = "",
                 reviewer: str = "") -> ClaimRow:
        """A reviewer's sign-off of claim ``claim`` (from 1) of a check: 'accepted', 'overridden' (with the
        reviewer's ``label``) or 'withdrawn' (the sign-off removed). ``reviewer``: the setting's name, else the
        computer's user name. Kept beside the court's verdict."""
        import getpass
        import time

        from pydantic import ValidationError

        from courtroom_desktop.core.check.records import SignOff
        from courtroom_desktop.core.errors import CheckError

        store = self._parts.checks
        check_id = store.find(ref)
        index = claim - 1
        where = Message("claim {claim}", claim)
        if decision == "withdrawn":
            store.sign_off(check_id, index, None)
            return store.row(check_id, index)
        row = store.row(check_id, index)
        if row.label is None and decision == "accepted":
            raise CheckError(where, Message("it has no verdict to accept yet"),
                             fix=Message("wait for its check, or override it"))
        name = reviewer or self._parts.config.check.reviewer or getpass.getuser()
        try:
            signoff = SignOff(reviewer=name, decision=decision, label=label or None,  # type: ignore[arg-type]
                              note=note.strip(), at=time.time())
        except ValidationError as exc:
            problem = exc.errors()[0]["msg"]
            raise CheckError(where, Message("not a sign-off ({exc.errors()[0]['msg']})", problem),
                             fix=Message("decide 'accepted' or 'overridden' (with the reviewer's verdict)")) from None
        if signoff.decision == "overridden" and signoff.label is None:
            raise CheckError(where, Message("an override needs the reviewer's verdict"),
                             fix=Message("give supported, refuted, mixed or insufficient evidence"))
        store.sign_off(check_id, index, signoff)
        return store.row(check_id, index)

    def send_to_trial(self, ref: str, claim: int) -> ClaimRow:
        """Claim ``claim`` (from 1) of a check sent to a full trial: the queue runs it after the quick checks."""
        store = self._parts.checks
        check_id = store.find(ref)
        store.send_to_trial(check_id, claim - 1)
        return store.row(check_id, claim - 1)

    def export(self, ref: str, formats: Iterable[str], out_dir: str | PathLike[str], annotate: bool = True) -> Export:
        """A stored check's report into ``out_dir`` (md, html, pdf, json, csv, with the highlighted source pages),
        and with ``annotate`` the draft's annotated copy (a PDF with highlights and notes, a Word file with a
        comment on each claim, Markdown with marks)."""
        from courtroom_desktop.core.check.annotate import annotate_draft
        from courtroom_desktop.core.check.export import export_check

        record = self.record(ref)
        notes: builtins.list[str] = []
        paths = export_check(record, formats, Path(out_dir), locate=self._parts.locate_document, notes=notes)
        if annotate:
            if record.spec.draft_sha256:
                copy, why = annotate_draft(record, Path(record.spec.draft), Path(out_dir))
                if copy is not None:
                    paths.append(copy)
                else:
                    notes.append(Message("the annotated draft was not written: {why}", why))
            else:
                notes.append(Message("the annotated draft was not written: the draft was pasted text (there is no "
                                     "file)"))
        return Export(paths, notes)
