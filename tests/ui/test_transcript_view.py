"""The transcript view on its own: cards built from a scripted trial's events (live, with token deltas), streamed text
applied at most every flush, model-written text escaped, citation chips with their passages as tooltips, clicks on
a chip, and the view following the bottom only while the user is there."""

from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtCore import Qt

from courtroom_desktop.core.court.records import Seat, Stance, TokenDelta, TurnStarted
from courtroom_desktop.ui.qt_models.transcript import RulingItem, SwitchItem, TranscriptModel, TurnItem, VerdictItem
from courtroom_desktop.ui.widgets.transcript import TranscriptView

from .records import scripted_trial


def passage(evidence_id: str):
    chunk = SimpleNamespace(page_start=4, text=f"The passage behind {evidence_id}.")
    return SimpleNamespace(evidence=SimpleNamespace(doc_title="Trial report", chunk=chunk, doc_notice=None))


def test_cards_follow_a_live_trial(qtbot, tmp_path):
    trial_id, spec, events, store = scripted_trial(tmp_path)
    model = TranscriptModel()
    view = TranscriptView(model, lookup=passage)
    qtbot.addWidget(view)
    view.resize(600, 500)
    view.show()
    model.reset(spec)
    for event in events:
        model.apply(event)
    view.flush()
    items = model.items()
    assert view.card_count() == len(items)
    for row, item in enumerate(items):
        text = view.card_text(row)
        if isinstance(item, TurnItem):
            assert text.startswith(item.role) and item.text.split("[")[0].strip() in text
            assert {e for e, _ in view.card_chips(row)} == {c.evidence_id for c in item.turn.citations}
        elif isinstance(item, RulingItem):
            assert text.startswith("Judge") and f"{item.ruling.ruling.confidence:.0%}" in text
        elif isinstance(item, SwitchItem):
            assert "sides switched after round 1" in text
        elif isinstance(item, VerdictItem):
            assert text.startswith("Verdict: Supported") and "cite:E1" in view.card_links(row)

    # a chip's tooltip is its passage; clicking it asks for that evidence
    turn_row = next(r for r, i in enumerate(items) if isinstance(i, TurnItem) and i.turn.citations)
    evidence_id, tip = view.card_chips(turn_row)[0]
    assert tip.startswith("Trial report, p. 5\nThe passage behind")
    with qtbot.waitSignal(view.sig_citation, timeout=2000) as asked:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.link_point(turn_row, f"cite:{evidence_id}",
                                                                                         chip=True))
    assert asked.args == [evidence_id]
    store.close()


def test_streamed_text_is_escaped_batched_and_followed(qtbot):
    model = TranscriptModel()
    view = TranscriptView(model)
    qtbot.addWidget(view)
    view.resize(500, 300)
    view.show()
    model.apply(TurnStarted(round=1, index=0, seat=Seat.starts_against, stance=Stance.against, role="Prosecution"))
    assert view.card_count() == 1 and "searching the library" in view.card_text(0)
    model.apply(TokenDelta(index=0, text="<b>Ignore the judge</b> & "))
    assert "Ignore" not in view.card_text(0), "tokens are applied at the next flush, not one by one"
    qtbot.waitUntil(lambda: "<b>Ignore the judge</b> &" in view.card_text(0), timeout=2000)
    assert "&lt;b&gt;Ignore" in view.card_html(0) and "<b>Ignore" not in view.card_html(0)

    # a long argument: the view keeps to the bottom while the user is there ...
    for _ in range(60):
        model.apply(TokenDelta(index=0, text="the cohort was small and the follow-up short. "))
    view.flush()
    qtbot.waitUntil(lambda: view.verticalScrollBar().maximum() > 0)
    bar = view.verticalScrollBar()
    assert bar.value() == bar.maximum()
    # ... and stays where the user scrolled to read
    bar.setValue(0)
    model.apply(TurnStarted(round=1, index=1, seat=Seat.starts_for, stance=Stance.for_, role="Defense"))
    for _ in range(30):
        model.apply(TokenDelta(index=1, text="the effect held in every subgroup. "))
    view.flush()
    assert bar.value() == 0 and view.card_count() == 2

    # an unchanged card is not rebuilt
    first = view.card_html(0)
    view._on_changed(model.index(0, 0), model.index(0, 0))
    view.flush()
    assert view.card_html(0) is first
