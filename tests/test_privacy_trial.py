"""Private stays private during a whole trial (core.privacy): every role talks real HTTP to a fake OpenAI-compatible
server that the privacy rule counts as another machine (a ``*.localhost`` name, resolved to loopback by the test) and
that records every request body. A private note ingested mid-trial, and a heard document marked private mid-trial,
never appear in any body sent after that moment: not in a question, a passage or a search query. The trial records
what its searches left out and stops with the start's own message."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest

from courtroom_desktop.core.config import AppConfig, DebateSettings, ModelSettings, ModelSpec
from courtroom_desktop.core.errors import TrialError
from courtroom_desktop.core.reports.wording import say_reason
from courtroom_desktop.core.retrieval import Retriever, Scope
from courtroom_desktop.core.workspace import Workspace
from stress.common import actor, schema_title
from testkit.fake_openai import MODEL, FakeOpenAI
from testkit.resolve import resolving

REMOTE_HOST = "court-models.localhost"  # another machine by the rule; this test resolves it to 127.0.0.1
CLAIM = "Moving to Lisbon lowers my monthly living costs."
SETTINGS = DebateSettings(min_rounds=2, max_rounds=3, passages_per_turn=4)

DOCS = {
    "costs.md": "# Costs\n\nLiving costs in Lisbon are lower than in Berlin for rent, transport and food; a monthly "
                "transport pass costs 40 euros in Lisbon.\n",
    "offers.md": "# Offers\n\nThe Berlin offer pays 68,000 euros a year; the Lisbon offer pays 48,000 euros a year. "
                 "Monthly costs in Kreuzberg are higher than in Lisbon.\n",
}
BUDGET = ("# Budget\n\nMy monthly budget in Lisbon: rent in Arroios is 1,250 euros a month, living costs stay under "
          "the Berlin figure by a third.\n")


@pytest.fixture
def folder(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    notes = tmp_path / "private-notes"
    notes.mkdir()
    (notes / "budget.md").write_text(BUDGET, encoding="utf-8")
    return tmp_path


class Recording(FakeOpenAI):
    """The stress harness's disciplined court actor, with ``on_plan(n)`` called before the n-th search plan is
    answered (n from 1), and the index of the first body sent after a moment kept in ``marks``."""

    def __init__(self, on_plan):
        super().__init__(None, answer=self.reply)
        self.on_plan = on_plan
        self.plans = 0
        self.marks: list[int] = []
        self._plan_lock = threading.Lock()

    def reply(self, messages):
        if schema_title(messages) == "SearchPlan":
            with self._plan_lock:
                self.plans += 1
                n = self.plans
            if self.on_plan(n):
                self.marks.append(len(self.requests))  # every body from here on came after the change
        return actor(messages)

    def bodies_after_mark(self) -> list[str]:
        start = self.marks[0] if self.marks else len(self.requests)
        return [json.dumps(b, ensure_ascii=False) for b in self.requests[start:]]


def remote_workspace(root, url: str) -> Workspace:
    spec = ModelSpec(provider="openai", model=MODEL, base_url=url, read_timeout_s=30, retries=0)
    return Workspace(root / "config", root / "data", AppConfig(models=ModelSettings(default=spec), debate=SETTINGS))


def run_trial(run) -> list:
    async def collect():
        return [event async for event in run.events()]

    return asyncio.run(collect())


@pytest.mark.usefixtures("memory_keyring")
def test_a_private_note_ingested_mid_trial_never_reaches_the_remote_server(folder):
    ws = None

    def ingest_private_note(n: int) -> bool:
        if n != 3:  # the first search plan of round 2
            return False
        ws.library.ingest([folder / "private-notes" / "budget.md"], private=True)
        return True

    with Recording(ingest_private_note) as server, resolving(REMOTE_HOST):
        url = server.url.replace("127.0.0.1", REMOTE_HOST)
        ws = remote_workspace(folder, url)
        try:
            ws.library.ingest([folder / "docs"])
            run = ws.trials.start(CLAIM)  # nothing private yet: the trial starts
            events = run_trial(run)
            assert server.marks, "the note was ingested mid-trial"
            everything = [json.dumps(b, ensure_ascii=False) for b in server.requests]
            assert everything and all(REMOTE_HOST not in b for b in everything)
            # the private note's text is in no body, before or after (its words, its title)
            assert not [b for b in everything if "Arroios" in b or "1,250" in b]
            # the trial recorded what its searches left out ...
            warnings = [say_reason(e.reason, "en") for e in events if e.kind == "warning"]
            assert any(w.startswith("private documents left out of this trial's searches ('Budget')") for w in warnings)
            # ... and stopped with the message a start gives now, naming the note, the roles and the server
            errors = [e for e in events if e.kind == "error"]
            assert len(errors) == 1 and not any(e.kind == "verdict" for e in events)
            with pytest.raises(TrialError) as start:
                ws.trials.start(CLAIM)
            assert errors[0].message == str(start.value)
            assert "private notes ('Budget')" in errors[0].message and REMOTE_HOST in errors[0].message
            assert next(t for t in ws.trials.list() if t.id == run.trial_id).status == "paused"
            with pytest.raises(TrialError, match="private notes"):
                ws.trials.resume(run.trial_id)  # a resume refuses as well
        finally:
            ws.close()


@pytest.mark.usefixtures("memory_keyring")
def test_a_heard_document_marked_private_mid_trial_is_never_sent_again(folder):
    ws = None
    run = None
    marked: list[str] = []  # the text of the passages of the document marked private

    def mark_heard_document_private(n: int) -> bool:
        if n != 3:
            return False
        heard = [e.entry for e in ws.trials.events(run.trial_id) if e.kind == "evidence_added"]
        doc_id = heard[0].evidence.chunk.doc_id
        marked.extend(e.evidence.chunk.text for e in heard if e.evidence.chunk.doc_id == doc_id)
        ws.library.set_private(doc_id, True)
        return True

    with Recording(mark_heard_document_private) as server, resolving(REMOTE_HOST):
        ws = remote_workspace(folder, server.url.replace("127.0.0.1", REMOTE_HOST))
        try:
            ws.library.ingest([folder / "docs"])
            ids = [d.id for d in ws.parts.library.catalog.documents()]
            run = ws.trials.start(CLAIM, documents=ids)  # an explicit scope
            events = run_trial(run)
            assert marked, "a heard document was marked private mid-trial"
            before = [json.dumps(b, ensure_ascii=False) for b in server.requests[: server.marks[0]]]
            after = server.bodies_after_mark()
            probe = max(marked, key=len)[:60]
            assert any(probe in b for b in before), "the passage was sent while it was not private"
            assert not [b for b in after if any(text[:60] in b for text in marked)]
            errors = [e for e in events if e.kind == "error"]
            assert len(errors) == 1 and "private notes" in errors[0].message
            assert any(e.kind == "warning" and say_reason(e.reason, "en").startswith("private documents left out")
                       for e in events)
        finally:
            ws.close()


def test_a_search_without_private_documents_reads_the_flags_at_each_search(folder):
    ws = Workspace(folder / "config", folder / "data", AppConfig())
    try:
        ws.library.ingest([folder / "docs"])
        ws.library.ingest([folder / "private-notes"], private=True)
        retriever = Retriever(ws.parts.library, ws.config.retrieval)
        budget = next(d.id for d in ws.parts.library.catalog.documents() if d.title == "Budget")
        offers = next(d.id for d in ws.parts.library.catalog.documents() if d.title == "Offers")

        def docs(scope):
            return {e.chunk.doc_id for e in retriever.search(["rent in Arroios Lisbon", "Kreuzberg offer"], k=10,
                                                             scope=scope)}

        assert budget in docs(Scope.all())  # an ordinary search finds the private note
        assert budget not in docs(Scope.all().without_private()) and offers in docs(Scope.all().without_private())
        ws.library.set_private(offers, True)  # marked private after the retriever was made: the next search knows
        assert not docs(Scope.documents([budget, offers]).without_private())
        assert Scope.all().without_private().doc_ids is None and not Scope.all().without_private().is_all
    finally:
        ws.close()
