"""Role switching as the design describes it (issue #29), with scripted models: each trigger on its own (the judge's
tendency unchanged, confidence stalled over the whole window, the same key controversy over the window, by words and
by the engine's vectors, few passages cited for the first time, the judge asking), the order of the checks (a due
switch before the stop), the default of two switches, and the numbers behind a trigger in the event, the command
line's transcript, the window's transcript and the report."""

from __future__ import annotations

import io
import itertools
import json
import re

import numpy as np
import pytest
from rich.console import Console

from courtroom_desktop.core.config import DebateSettings
from courtroom_desktop.core.court import Court, TrialSpec, TrialStore, rules
from courtroom_desktop.core.court.prompts import judge_system
from courtroom_desktop.core.court.records import (
    CaseType,
    Citation,
    Code,
    JudgeRuling,
    Ruling,
    Seat,
    Stance,
    Tendency,
    Turn,
)
from courtroom_desktop.core.court.state import TrialState
from courtroom_desktop.core.llm import ScriptedChatModel
from courtroom_desktop.core.records import Chunk, Evidence
from courtroom_desktop.core.reports.wording import say_reason as said

from .fakes import FakeRetriever, assess_all, models, ruling, scripted, verdict

CLAIM = "Vitamin D supplements in pregnancy raise birth weight."
#: every trigger off: a test turns on the one it is about
OFF = {"tendency_rounds": 0, "stall_delta": 0.0, "controversy_rounds": 0, "min_new_evidence": 0}
WORDS = iter(f"{a}{b}" for a, b in itertools.product(
    ["amber", "basil", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper", "kestrel", "lagoon",
     "meadow", "nectar", "orchid", "pepper", "quartz", "russet", "saffron", "tundra"], range(10_000)))


def settings(**on) -> DebateSettings:
    return DebateSettings(**{"min_rounds": 2, "max_rounds": 6, "confidence_threshold": 0.95, **OFF, **on})


def pool_ids(messages) -> list[str]:
    return sorted(set(re.findall(r'<evidence id="(E\d+)"', messages[-1]["content"])), key=lambda i: int(i[1:]))


def arguing(cite="first"):
    """Counsel that search with the claim's words and argue in fresh words each turn, citing the pool's first passage
    (``first``: E1, whether or not the prompt shows it) or the newest the prompt shows (``newest``)."""
    def reply(messages) -> str:
        if "JSON" in messages[0]["content"]:
            return json.dumps({"queries": ["vitamin D birth weight"]})
        ids = pool_ids(messages)
        chosen = "E1" if cite == "first" else ids[-1] if ids else ""
        fresh = " ".join(next(WORDS) for _ in range(6))
        return f"On birth weight, the passage [{chosen}] settles {fresh}. Does the other side answer {next(WORDS)}?"
    return reply


class FreshRetriever:
    """Every search finds one passage never seen before (so the pool grows every turn)."""

    def __init__(self):
        self.n = 0

    async def asearch(self, queries, k=None, scope=None):
        self.n += 1
        text = f"Report {self.n}: " + " ".join(next(WORDS) for _ in range(12)) + " vitamin D birth weight."
        chunk = Chunk(id=f"fresh{self.n}-0000", doc_id=f"fresh{self.n}", ordinal=0, section_path="1 Results",
                      page_start=0, page_end=0, char_start=0, char_end=len(text), text=text)
        return [Evidence(chunk=chunk, doc_title=f"Report {self.n}", doc_path=f"/docs/fresh{self.n}.pdf",
                         query=queries[0], score=1.0)]


@pytest.fixture
def store(tmp_path):
    s = TrialStore(tmp_path / "trials.sqlite")
    yield s
    s.close()


async def trial(store, judge_replies, debate, cite="first", retriever=None, **kwargs):
    """Run a claim's trial to its verdict; (events, the court)."""
    judge = ScriptedChatModel(judge_replies, role="judge", standing={  # the verdict whenever it comes
        "EvidenceAssessment": assess_all(), "VerdictDraft": verdict()})
    c = Court(models(scripted([arguing(cite)] * 60, "prosecution"), scripted([arguing(cite)] * 60, "defense"), judge),
              retriever or FakeRetriever(), store, debate, **kwargs)
    events = [e async for e in c.run(c.start(TrialSpec(claim=CLAIM)))]
    assert events[-1].kind == "verdict", [e for e in events if e.kind in ("error", "warning")]
    return events, c


def switches(events) -> list:
    return [e for e in events if e.kind == "switch"]


def only(event, code: Code):
    """The switch's one reason, of ``code``."""
    assert [r.code for r in event.reasons] == [code.value], event.reasons
    return event.reasons[0]


# ---------------------------------------------------------------- (1) the judge's tendency unchanged for N rounds
@pytest.mark.asyncio
async def test_a_tendency_unchanged_for_n_rounds_switches_the_sides(store):
    tendencies = ["support", "refute", "refute", "refute", "support", "support", "support"]
    judge = [ruling(0.3 + 0.1 * i, tendency=t) for i, t in enumerate(tendencies)]
    events, _ = await trial(store, judge, settings(tendency_rounds=3, max_rounds=6))
    first = switches(events)[0]
    assert first.round == 4  # rounds 2, 3 and 4 refute (round 1 supported)
    reason = only(first, Code.switch_tendency_unchanged)
    assert reason.params == {"leans": "refute", "rounds": 3}
    assert said(reason) == "the judge's tendency stayed 'refute' for 3 rounds in a row"
    # the window starts after the switch: the same tendency once more (round 5) is not three rounds
    assert len(switches(events)) == 1


# ---------------------------------------------------------------- (2) confidence moved less than delta over M rounds
@pytest.mark.asyncio
async def test_confidence_stalled_over_the_whole_window_switches_not_first_against_last(store):
    # round 3: 0.50 -> 0.60 -> 0.52, first against last moved 0.02 but the window 0.10: no stall
    # round 4: 0.60 -> 0.52 -> 0.55: 0.08; round 5: 0.52 -> 0.55 -> 0.56: 0.04 < 0.05: a stall
    judge = [ruling(c) for c in (0.50, 0.60, 0.52, 0.55, 0.56, 0.57)]
    events, _ = await trial(store, judge, settings(stall_delta=0.05, stall_rounds=2, max_rounds=6))
    first = switches(events)[0]
    assert first.round == 5
    reason = only(first, Code.switch_confidence_stalled)
    assert reason.params == {"moved": 0.04, "rounds": 2, "delta": 0.05, "values": "0.52, 0.55, 0.56"}
    assert said(reason) == "confidence moved 0.04 over the last 2 rounds (< 0.05): 0.52, 0.55, 0.56"


def state_of(confidences, tendencies=None, controversies=None, switched_after=()) -> TrialState:
    state = TrialState("t", TrialSpec(claim=CLAIM))
    state.rulings = [Ruling(round=n, ruling=JudgeRuling(
        tendency=Tendency((tendencies or ["unclear"] * len(confidences))[n - 1]), confidence=c,
        key_controversy=(controversies or [f"point {n}" for n in range(1, len(confidences) + 1)])[n - 1],
        summary="")) for n, c in enumerate(confidences, 1)]
    from courtroom_desktop.core.court.records import RolesSwitched
    state.switches = [RolesSwitched(trial_id="t", round=r, reasons=(), assignments={"A": "for", "B": "against"})
                      for r in switched_after]
    return state


def test_the_confidence_window_is_every_step_and_the_drift_and_starts_after_a_switch():
    on = settings(stall_delta=0.05, stall_rounds=2)
    assert rules.switch_reasons(state_of([0.50, 0.53, 0.49]), on)                # every step and the range < 0.05
    assert not rules.switch_reasons(state_of([0.50, 0.54, 0.58]), on)            # each step 0.04, the drift 0.08
    assert not rules.switch_reasons(state_of([0.50, 0.60, 0.51]), on)            # first against last only: 0.01
    assert not rules.switch_reasons(state_of([0.50, 0.50]), on)                  # two rulings are one round
    # after a switch after round 3, its ruling is the baseline and two rounds must follow it
    assert not rules.switch_reasons(state_of([0.5, 0.5, 0.5, 0.5], switched_after=[3]), on)
    assert rules.switch_reasons(state_of([0.5, 0.5, 0.5, 0.5, 0.52], switched_after=[3]), on)


# ---------------------------------------------------------------- (3) the same key controversy over N rounds
@pytest.mark.asyncio
async def test_the_same_controversy_over_the_window_switches_every_pair_compared(store):
    same, other = "whether the trials measured birth weight alike", "whether the cohort was confounded by season"
    # the last two agree already at round 2, and round 4 (a window of three with one pair apart): no switch yet
    points = [same, same, other, other, other, same]
    judge = [ruling(0.3 + 0.1 * i, controversy=p) for i, p in enumerate(points)]
    events, _ = await trial(store, judge, settings(controversy_rounds=3, max_rounds=6))
    first = switches(events)[0]
    assert first.round == 5
    reason = only(first, Code.switch_controversy_same)
    assert reason.params == {"rounds": 3, "similarity": 1.0, "threshold": 0.9, "controversy": other}
    assert said(reason) == f"the same key controversy for 3 rounds (similarity 1.00 >= 0.90): '{other}'"


@pytest.mark.asyncio
async def test_the_controversy_window_uses_the_engines_vectors_for_every_pair(store):
    """Texts with no word in common that the embedder finds alike: the vectors decide, for each pair of the window."""
    points = ["alpha one", "bravo two", "charlie three", "delta four", "echo five"]
    direction = {"alpha one": 0, "bravo two": 1, "charlie three": 1, "delta four": 1, "echo five": 1}
    asked: list[list[str]] = []

    def embed(texts):
        if all(t in direction for t in texts):
            asked.append(list(texts))
        vectors = np.zeros((len(texts), 4), dtype=np.float32)
        for row, text in enumerate(texts):
            vectors[row, direction.get(text, 2 + row % 2)] = 1.0
        return vectors

    judge = [ruling(0.3 + 0.1 * i, controversy=p) for i, p in enumerate(points)]
    events, _ = await trial(store, judge, settings(controversy_rounds=3, max_rounds=5), embed=embed)
    first = switches(events)[0]
    # round 3: alpha-bravo apart, bravo-charlie alike (a last-two rule would switch); round 4: both pairs alike
    assert first.round == 4
    assert ["alpha one", "bravo two", "charlie three"] in asked
    reason = only(first, Code.switch_controversy_same)
    assert reason.params["similarity"] == 1.0 and reason.params["controversy"] == "delta four"


def test_without_vectors_the_controversy_is_compared_by_words_pair_by_pair():
    on = settings(controversy_rounds=3)
    alike = ["dose of vitamin D in pregnancy", "dose of vitamin D in pregnancy", "dose of vitamin D in pregnancy"]
    assert rules.switch_reasons(state_of([0.1, 0.2, 0.3], controversies=alike), on)
    apart = [alike[0], "season of birth and sunlight", alike[0]]
    assert not rules.switch_reasons(state_of([0.1, 0.2, 0.3], controversies=apart), on)
    assert not rules.switch_reasons(state_of([0.1, 0.2, 0.3], controversies=apart), on, [1.0])  # one pair of two
    assert rules.switch_reasons(state_of([0.1, 0.2, 0.3], controversies=apart), on, [0.95, 0.92])
    assert not rules.switch_reasons(state_of([0.1, 0.2, 0.3], controversies=alike), settings(controversy_rounds=0))


# ---------------------------------------------------------------- (4) few newly cited passages over K rounds
@pytest.mark.asyncio
async def test_few_passages_cited_for_the_first_time_switch_though_new_ones_keep_entering(store):
    judge = [ruling(0.3 + 0.1 * i) for i in range(6)]
    debate = settings(min_new_evidence=1, new_evidence_rounds=2, max_rounds=5)
    events, _ = await trial(store, judge, debate, cite="first", retriever=FreshRetriever())
    pool = [e.entry for e in events if e.kind == "evidence_added"]
    assert {e.round for e in pool} >= {2, 3}  # the pool grew every round: the old rule (entries) never switches
    first = switches(events)[0]
    assert first.round == 3  # E1, cited since round 1, is all counsel cite in rounds 2 and 3
    reason = only(first, Code.switch_few_new_citations)
    assert {k: reason.params[k] for k in ("count", "rounds", "passages")} == {"count": 0, "rounds": 2, "passages": 1}
    assert said(reason) == "0 passages cited for the first time over the last 2 rounds (fewer than 1)"


@pytest.mark.asyncio
async def test_counsel_citing_new_passages_every_round_never_switch_for_it(store):
    judge = [ruling(0.3 + 0.1 * i) for i in range(6)]
    debate = settings(min_new_evidence=1, new_evidence_rounds=2, max_rounds=4)
    events, _ = await trial(store, judge, debate, cite="newest", retriever=FreshRetriever())
    assert not switches(events)


def cited(round_number: int, *ids: str) -> Turn:
    return Turn(round=round_number, index=round_number, seat=Seat.starts_for, stance=Stance.for_, role="Defense",
                text="x", citations=tuple(Citation(evidence_id=i) for i in ids))


def test_newly_cited_counts_passages_first_cited_in_the_window_and_only_valid_citations():
    on = settings(min_new_evidence=2, new_evidence_rounds=2)
    state = state_of([0.1, 0.2, 0.3])
    state.turns = [cited(1, "E1", "E2"), cited(2, "E1", "E3"), cited(3, "E2", "E4")]
    assert not rules.switch_reasons(state, on)  # E3 and E4 are new in rounds 2-3
    state.turns[-1] = cited(3, "E2", "E1").model_copy(update={"citations": (
        Citation(evidence_id="E2"), Citation(evidence_id="E9", valid=False))})
    reason = rules.switch_reasons(state, on)[0]
    assert reason.code == Code.switch_few_new_citations and reason.params["count"] == 1
    assert reason.params["ids"] == "E3"


# ---------------------------------------------------------------- (5) the judge asks, and is told it may
@pytest.mark.asyncio
async def test_the_judge_asking_switches_and_its_prompt_says_it_may(store):
    judge = [ruling(0.4), ruling(0.5, switch=True), ruling(0.6), ruling(0.7)]
    events, c = await trial(store, judge, settings(max_rounds=4))
    first = switches(events)[0]
    assert first.round == 2 and [r.code for r in first.reasons] == [Code.switch_judge_asked.value]
    system = c.models("judge").calls[0][0]["content"]
    assert "switch_request" in system and "swap sides" in system
    assert "switch_request" in judge_system(CaseType.claim) and "switch_request" not in judge_system(CaseType.decision)


# ---------------------------------------------------------------- the order, and how many
@pytest.mark.asyncio
async def test_a_due_switch_comes_before_the_stop_but_not_after_the_round_limit(store):
    # round 2: confident and ready, but the judge asks for a switch: the sides switch and argue round 3 first
    judge = [ruling(0.5), ruling(0.9, ready=True, reason="the randomised trial [E1] decides it", switch=True),
             ruling(0.9, ready=True, reason="the randomised trial [E1] still decides it"), ruling(0.9, switch=True)]
    events, _ = await trial(store, judge, settings(max_rounds=5, confidence_threshold=0.8))
    assert [s.round for s in switches(events)] == [2]
    assert max(e.ruling.round for e in events if e.kind == "ruling") == 3
    assert said(events[-1].verdict.stopped_because) == "confidence 0.90 reached the threshold 0.80"
    # at the round limit no round is left to argue the other side: the limit stops the trial
    at_limit = state_of([0.5, 0.5])
    at_limit.rulings[-1] = at_limit.rulings[-1].model_copy(update={"ruling": at_limit.rulings[-1].ruling.model_copy(
        update={"switch_request": True})})
    assert rules.switch_reasons(at_limit, settings(max_rounds=3))
    assert not rules.switch_reasons(at_limit, settings(max_rounds=2))


@pytest.mark.asyncio
async def test_two_switches_by_default_and_no_third(store):
    assert DebateSettings().max_switches == 2
    judge = [ruling(0.4 + 0.05 * i, switch=True) for i in range(5)]
    debate = DebateSettings(min_rounds=2, max_rounds=5, confidence_threshold=0.95, **OFF)
    events, _ = await trial(store, judge, debate)
    both = switches(events)
    assert [s.round for s in both] == [1, 2]
    assert both[0].assignments == {"A": Stance.for_, "B": Stance.against}
    assert both[1].assignments == {"A": Stance.against, "B": Stance.for_}  # back where they started
    assert events[-1].verdict.switches == 2


# ---------------------------------------------------------------- the numbers behind a switch, wherever it shows
@pytest.mark.asyncio
async def test_the_trigger_and_its_numbers_show_in_the_event_the_transcripts_and_the_report(store, qtbot):
    from courtroom_desktop.cli.render import TranscriptPrinter
    from courtroom_desktop.core.reports import render_markdown
    from courtroom_desktop.core.reports.record import TrialRecord
    from courtroom_desktop.ui.qt_models.transcript import SwitchItem, TranscriptModel
    from courtroom_desktop.ui.widgets.transcript import TranscriptView

    judge = [ruling(c) for c in (0.50, 0.52, 0.53, 0.7, 0.8)]
    events, c = await trial(store, judge, settings(stall_delta=0.05, stall_rounds=2, max_rounds=4))
    switch = switches(events)[0]
    words = "confidence moved 0.03 over the last 2 rounds (< 0.05): 0.50, 0.52, 0.53"
    assert said(switch.reasons[0]) == words
    stored = [e for e in store.events(switch.trial_id) if e.kind == "switch"]
    assert stored[0].reasons[0].params == {"moved": 0.03, "rounds": 2, "delta": 0.05, "values": "0.50, 0.52, 0.53"}

    out = io.StringIO()
    printer = TranscriptPrinter(Console(file=out, width=200, color_system=None), show_tokens=False)
    for event in events:
        printer(event)
    assert f"trigger: {words}" in out.getvalue()

    model = TranscriptModel()
    view = TranscriptView(model, lookup=lambda evidence_id: None)
    qtbot.addWidget(view)
    model.reset(store.spec(switch.trial_id), events)
    view.flush()
    row = next(r for r, item in enumerate(model.items()) if isinstance(item, SwitchItem))
    assert words in view.card_text(row) and "switched after round 3" in view.card_text(row)
    assert words in model.index(row, 0).data()

    report = render_markdown(TrialRecord.from_store(store, switch.trial_id), "expert")
    in_markdown = words.replace("<", "&lt;")  # the report escapes what could read as markup
    assert f"**\u21c4 Sides switched after round 3:** {in_markdown}" in report
    assert f"**sides switched after this round**: {in_markdown}" in report
