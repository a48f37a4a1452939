"""Every Qt item model checked with qtmodeltester (Qt's QAbstractItemModelTester), filled with real core records,
and what each shows of them."""

from __future__ import annotations

from PySide6.QtCore import Qt

from courtroom_desktop.core.records import FileFinished, FileOutcome, FileProgress, FileStarted, IngestStage, IngestStarted
from courtroom_desktop.ui.qt_models import ProgressRole, RecordRole
from courtroom_desktop.ui.qt_models.doctor import DoctorModel
from courtroom_desktop.ui.qt_models.documents import DocumentsModel
from courtroom_desktop.ui.qt_models.evidence import CITED, FOUND, STANCE, EvidenceModel
from courtroom_desktop.ui.qt_models.transcript import RulingItem, SwitchItem, TranscriptModel, TurnItem, VerdictItem
from courtroom_desktop.ui.qt_models.trials import TrialsModel

from .records import CLAIM, documents, scripted_trial


def texts(model, column=0):
    return [model.data(model.index(r, column)) for r in range(model.rowCount())]


def test_documents_model_lists_documents_failures_and_live_progress(qtmodeltester):
    model = DocumentsModel()
    qtmodeltester.check(model)
    docs = documents()
    model.set_documents(docs, [("/library/broken.pdf", "not a PDF (the file starts with 'hello')")])
    qtmodeltester.check(model)
    assert texts(model) == ["First report", "second.pdf", "broken.pdf"]
    assert texts(model, 1) == ["ready", "ready", "failed"]
    assert model.data(model.index(0, 2)) == "12" and model.data(model.index(2, 5)).startswith("not a PDF")

    # an ingest adds a live row with its stage and progress
    model.apply_ingest_event(IngestStarted(files=1))
    model.apply_ingest_event(FileStarted(path="/library/new.pdf", index=0, files=1))
    model.apply_ingest_event(FileProgress(path="/library/new.pdf", stage=IngestStage.extract, pages_done=5, pages=10))
    qtmodeltester.check(model)
    row = model.rowCount() - 1
    assert model.data(model.index(row, 1)) == "reading page 5/10"
    assert model.data(model.index(row, 1), ProgressRole) == 15
    model.apply_ingest_event(FileProgress(path="/library/new.pdf", stage=IngestStage.embed, chunks_done=10, chunks=20,
                                          pages=10, pages_done=10))
    assert model.data(model.index(row, 1)) == "embedding 10/20" and model.data(model.index(row, 1), ProgressRole) == 65
    # a refresh in the middle of the ingest keeps the live row
    model.set_documents(docs, [])
    assert model.data(model.index(model.rowCount() - 1, 1)) == "embedding 10/20"
    model.apply_ingest_event(FileFinished(path="/library/new.pdf", outcome=FileOutcome.failed, reason="encrypted"))
    qtmodeltester.check(model)
    last = model.rowCount() - 1
    assert model.data(model.index(last, 1)) == "failed" and model.data(model.index(last, 5)) == "encrypted"
    assert model.data(model.index(last, 1), ProgressRole) is None
    assert model.data(model.index(0, 0), RecordRole).doc.id == docs[0].id


def test_transcript_model_from_live_and_replayed_events(qtmodeltester, tmp_path):
    trial_id, spec, events, store = scripted_trial(tmp_path)
    live = TranscriptModel()
    qtmodeltester.check(live)
    live.reset(spec)
    for event in events:
        live.apply(event)
    qtmodeltester.check(live)
    items = live.items()
    turns = [i for i in items if isinstance(i, TurnItem)]
    assert len(turns) == 6 and all(t.finished and t.text == t.turn.text for t in turns)
    assert [i.ruling.round for i in items if isinstance(i, RulingItem)] == [1, 2, 3]
    assert [i.switch.round for i in items if isinstance(i, SwitchItem)] == [1]
    assert isinstance(items[-1], VerdictItem) and items[-1].verdict.label.value == "supported"
    # after the switch, counsel A argues for the claim: the transcript follows the stance, not the seat
    assert live.assignments == {"A": "for", "B": "against"}
    assert {t.role for t in turns if t.round == 1 and t.seat == "A"} == {"Prosecution"}
    assert {t.role for t in turns if t.round == 2 and t.seat == "A"} == {"Defense"}
    assert live.rulings()[-1].ruling.confidence == 0.9 and live.switch_rounds() == [1]
    assert live.data(live.index(0, 0)).startswith("Prosecution (round 1):")

    # the stored events (no token deltas) rebuild the same transcript
    replay = TranscriptModel()
    replay.reset(spec, store.events(trial_id))
    qtmodeltester.check(replay)
    assert [type(i).__name__ for i in replay.items()] == [type(i).__name__ for i in items]
    assert [i.text for i in replay.items() if isinstance(i, TurnItem)] == [t.text for t in turns]
    assert replay.claim == CLAIM and replay.max_rounds == 3 and replay.threshold == 0.8
    store.close()


def test_transcript_model_streams_tokens_and_marks_interrupted_turns(qtmodeltester):
    from courtroom_desktop.core.court.records import Seat, Stance, TokenDelta, TrialResumed, TurnStarted

    model = TranscriptModel()
    model.apply(TurnStarted(round=1, index=0, seat=Seat.starts_against, stance=Stance.against, role="Prosecution"))
    model.apply(TokenDelta(index=0, text="The trial"))
    model.apply(TokenDelta(index=0, text=" failed [E1]."))
    assert model.item(0).text == "The trial failed [E1]." and not model.item(0).finished
    model.apply(TokenDelta(index=0, attempt=1, text="Again"))  # a regeneration starts the text afresh
    assert model.item(0).text == "Again" and "again" in model.item(0).status
    model.apply(TrialResumed(from_round=1, discarded="turn 1 (Prosecution, round 1)"))
    qtmodeltester.check(model)
    assert model.item(0).interrupted and "redone" in model.item(1).text


def test_evidence_model_shows_assessed_stance_finder_and_who_cited(qtmodeltester, tmp_path):
    trial_id, spec, events, store = scripted_trial(tmp_path)
    model = EvidenceModel()
    qtmodeltester.check(model)
    model.reset(spec.case)
    for event in events:
        if event.kind == "evidence_added":
            model.add(event.entry)
            assert model.data(model.index(model.row_of(event.entry.id), STANCE)) == "\u2014"  # not assessed yet
        elif event.kind == "evidence_assessed":
            model.note_assessed(event.assessments)
        elif event.kind == "turn_finished":
            model.note_turn(event.turn)
        elif event.kind == "verdict":
            model.note_verdict(event.verdict)
    qtmodeltester.check(model)
    assert texts(model) == [f"E{i}" for i in range(1, model.rowCount() + 1)]
    first = model.entry("E1")
    # the Prosecution found it, but what it says (as the judge assessed it) is that it supports the claim
    assert first.stance.value == "against" and "round 1, Prosecution" in model.data(model.index(0, FOUND))
    assert model.data(model.index(0, STANCE)) == "supports"
    tip = model.data(model.index(0, STANCE), Qt.ItemDataRole.ToolTipRole)
    assert "supports (relevance 0.80)" in tip and "Found by Prosecution" in tip
    cited = model.data(model.index(0, CITED))
    assert "Prosecution (round 1)" in cited and "verdict" in cited
    assert cited.startswith("both sides")  # both counsel cited E1
    assert model.data(model.index(0, STANCE), Qt.ItemDataRole.ForegroundRole) is not None
    assert model.data(model.index(0, 0), RecordRole) is first
    # rebuilt at once from a trial state, it shows the same
    from courtroom_desktop.core.court.state import TrialState

    state = TrialState.from_events(trial_id, spec, store.events(trial_id))
    again = EvidenceModel()
    again.reset(spec.case, state.pool, state.turns, state.verdict, list(state.assessments.values()))
    qtmodeltester.check(again)
    assert texts(again, CITED) == texts(model, CITED) and texts(again, STANCE) == texts(model, STANCE)
    store.close()


def test_evidence_model_shows_the_verifiers_reading_and_the_judges_beside_it_when_they_differ(qtmodeltester,
                                                                                               tmp_path):
    """The stance column is the verifier's reading (never a dash once it has one); where the judge's model read the
    passage otherwise, both are shown and the cell is marked."""
    from courtroom_desktop.core.court.records import Assessed, Assessment
    from courtroom_desktop.core.records import VerifierReading

    _, spec, events, store = scripted_trial(tmp_path)
    pool = [e.entry for e in events if e.kind == "evidence_added"][:2]
    store.close()
    pool = [pool[0].model_copy(update={"verifier": VerifierReading(supports=0.1, refutes=0.8, neither=0.1)}),
            pool[1].model_copy(update={"verifier": VerifierReading(supports=0.7, refutes=0.1, neither=0.2)})]
    model = EvidenceModel()
    model.reset(spec.case, pool)
    qtmodeltester.check(model)
    assert texts(model, STANCE) == ["refutes 0.80", "supports 0.70"]  # read by the verifier: no dash
    model.note_assessed([Assessment(evidence_id=pool[0].id, stance=Assessed.supports, relevance=0.9, round=1),
                         Assessment(evidence_id=pool[1].id, stance=Assessed.supports, relevance=0.9, round=1)])
    assert texts(model, STANCE) == ["refutes 0.80 \u00b7 judge: supports", "supports 0.70"]
    assert model.disagree(pool[0]) and not model.disagree(pool[1])
    tip = model.data(model.index(0, STANCE), Qt.ItemDataRole.ToolTipRole)
    assert "refutes 0.80" in tip and "relevance 0.90" in tip and "disagree" in tip
    assert model.data(model.index(0, STANCE), Qt.ItemDataRole.ForegroundRole) != model.data(
        model.index(1, STANCE), Qt.ItemDataRole.ForegroundRole)


def test_trials_model_newest_first(qtmodeltester, qapp, tmp_path):
    trial_id, spec, events, store = scripted_trial(tmp_path, switch=False)
    from courtroom_desktop.core.court import TrialSpec

    second = store.create(TrialSpec(claim="Coffee prevents colds."))
    model = TrialsModel()
    qtmodeltester.check(model)
    model.set_trials(store.list())
    qtmodeltester.check(model)
    assert model.trial(0).id == second and model.row_of(trial_id) == 1
    assert model.data(model.index(1, 3)) == "Supported" and model.data(model.index(1, 2)) == "Finished"
    assert model.data(model.index(0, 2)) == "Running" and model.data(model.index(0, 1)) == "Claim"
    assert model.data(model.index(1, 4)).endswith("%")
    # in the Chinese window the case and status columns speak Chinese too
    from courtroom_desktop.core.text import has_cjk
    from testkit.untranslated import speaking

    with speaking("zh_CN"):
        chinese = TrialsModel()
        chinese.set_trials(store.list())
        shown = [chinese.data(chinese.index(row, column)) for row in (0, 1) for column in (1, 2, 3)]
    assert all(has_cjk(text) for text in shown if text), shown
    store.close()


def test_doctor_model(qtmodeltester):
    from courtroom_desktop.core.llm.doctor import DoctorRow

    model = DoctorModel()
    qtmodeltester.check(model)
    model.set_rows([DoctorRow("judge", "ollama", "llama3", "server", False, "cannot reach Ollama", "start Ollama"),
                    DoctorRow("judge", "ollama", "llama3", "model", None, "skipped: an earlier check failed"),
                    DoctorRow("defense", "embedded", "SmolLM2", "model", True, "loaded")])
    qtmodeltester.check(model)
    assert texts(model, 2) == ["FAILED", "skipped", "ok"] and model.failed()
    assert model.data(model.index(0, 4)) == "start Ollama"
