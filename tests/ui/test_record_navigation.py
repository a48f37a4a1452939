"""A record you can navigate (issue #29), from the window, over a whole trial with scripted models on the sample
library: the round selector, rounds that fold, every card's 'Prompt…' link opening the exact prompt and the raw
answer, the coverage panel, and the library's use in trials."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from courtroom_desktop.ui.qt_models.documents import COLUMNS
from courtroom_desktop.ui.qt_models.transcript import RulingItem, TurnItem, VerdictItem

from .conftest import click, opened, run, until

CLAIM = "Vitamin D deficiency is unrelated to birth weight."


def click_link(qloop, view, row: int, href: str) -> None:
    """Click the link ``href`` of card ``row`` inside the running loop (what a person's click does)."""

    async def clicked() -> None:
        point = view.link_point(row, href)
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)

    run(qloop, clicked())


def test_rounds_fold_and_jump_each_card_opens_its_prompt_and_the_coverage_panel(sample_window, qloop):
    window = sample_window
    court = window.courtroom
    bar, view = court.record_bar, court.view

    async def trial():
        await opened(window)
        await until(lambda: window.library.ready_documents(), 30, "the library to be listed")
        court.set_claim(CLAIM)
        court.start()
        await until(lambda: window.trial.state == "finished", 60, "the verdict")

    run(qloop, trial(), 90)
    view.flush()
    items = window.transcript_model.items()
    assert isinstance(items[-1], VerdictItem)

    # the round selector lists the rounds; choosing one shows its first card at the top of the view
    assert [bar.rounds.itemText(i) for i in range(bar.rounds.count())][1:] == ["Round 1", "Round 2"]
    first_of_2 = view.first_row_of_round(2)
    assert isinstance(items[first_of_2], TurnItem) and items[first_of_2].round == 2
    view.verticalScrollBar().setValue(view.verticalScrollBar().maximum())

    async def jump():
        bar.rounds.activated.emit(2)
        await until(lambda: abs(view.cursorRect().top()) < view.viewport().height() // 3, 5, "round 2 on top")

    run(qloop, jump())
    assert view.textCursor().position() == view.tables[first_of_2].firstPosition()
    assert bar.rounds.currentIndex() == 0  # ready to jump again

    # folding: every round but the last on one line a card; a card's link unfolds its round again
    rows_1 = [row for row, item in enumerate(items) if getattr(item, "round", None) == 1
              or isinstance(item, RulingItem) and item.ruling.round == 1]
    full = {row: view.card_text(row) for row in rows_1}
    click(qloop, bar.fold_button)
    run(qloop, until(lambda: view.folded == {1}, 5, "round 1 folded"))
    for row in rows_1:
        text = view.card_text(row)
        assert text.startswith("\u25b8") and "Unfold round 1" in text and len(text) < len(full[row])
    assert "Fold round 2" in view.card_text(first_of_2)  # the last round stays open
    assert not bar.fold_button.isEnabled() and bar.unfold_button.isEnabled()
    click_link(qloop, view, rows_1[0], "fold:1")
    run(qloop, until(lambda: not view.folded, 5, "round 1 unfolded"))
    assert all(view.card_text(row) == full[row] for row in rows_1)
    click_link(qloop, view, first_of_2, "fold:2")  # a card folds its own round
    run(qloop, until(lambda: view.folded == {2}, 5, "round 2 folded"))
    click(qloop, bar.unfold_button)
    run(qloop, until(lambda: not view.folded, 5, "all unfolded"))

    # a turn's 'Prompt…' link: the exact prompt and the raw answer of each of its model calls
    turn_row = next(row for row, item in enumerate(items) if isinstance(item, TurnItem))
    turn = items[turn_row].turn
    assert f"prompt:turn:{turn.index}" in view.card_links(turn_row)
    click_link(qloop, view, turn_row, f"prompt:turn:{turn.index}")
    run(qloop, until(lambda: bar.prompt_viewer is not None and bar.prompt_viewer.isVisible(), 10, "the viewer"))
    viewer = bar.prompt_viewer
    labels = [viewer.list.item(i).text() for i in range(viewer.list.count())]
    assert labels[0].startswith("1. Search queries") and "Argument" in labels[-1]
    assert viewer.list.currentRow() == len(labels) - 1
    assert "Vitamin D deficiency" in viewer.prompt.toPlainText()  # the claim, in the prompt the model saw
    assert "\u2500\u2500 system \u2500\u2500" in viewer.prompt.toPlainText()
    assert turn.text.split()[:3] == viewer.answer.toPlainText().split()[:3]
    viewer.list.setCurrentRow(0)
    assert "JSON" in viewer.prompt.toPlainText() and "queries" in viewer.answer.toPlainText()

    # the ruling's and the verdict's
    ruling_row = next(row for row, item in enumerate(items) if isinstance(item, RulingItem))
    click_link(qloop, view, ruling_row, "prompt:ruling:1")
    run(qloop, until(lambda: bar.prompt_viewer is not viewer, 10, "the ruling's viewer"))
    assert "ruling after round 1" in bar.prompt_viewer.windowTitle()
    assert any("Ruling" in bar.prompt_viewer.list.item(i).text() for i in range(bar.prompt_viewer.list.count()))
    assert '"confidence"' in bar.prompt_viewer.answer.toPlainText()
    assert "prompt:verdict:0" in view.card_links(len(items) - 1)

    # the coverage panel: documents reached and never retrieved, passages admitted or turned away and why
    assert bar.coverage_button.isEnabled()
    click(qloop, bar.coverage_button)
    run(qloop, until(lambda: bar.coverage_panel is not None and bar.coverage_panel.isVisible(), 20, "coverage"))
    panel = bar.coverage_panel
    fates = panel.passage_fates()
    pool = window.evidence_model.rowCount()
    assert sum(f.startswith("admitted as E") for f in fates) == pool
    assert any(f.startswith("turned away: already in the pool as E") for f in fates)
    assert "passages found" in panel.summary.text()
    rows = panel.document_rows()
    coverage = panel.coverage
    assert len(rows) == len(coverage.documents) == 6  # the sample library: every document, reached or not
    assert sum(r.endswith("never retrieved") for r in rows) == len(coverage.never_retrieved)

    # the library's use in trials: its column shown, the most cited document first
    column = COLUMNS.index("In trials")
    assert window.library_panel.table.isColumnHidden(column)
    click(qloop, window.library_panel.use_button)
    run(qloop, until(lambda: not window.library_panel.table.isColumnHidden(column), 20, "the use column"))
    model = window.documents_model
    first = model.index(0, column).data()
    assert first.startswith("cited ") and "1 trial" in first
    cited = [model.index(r, column).data() for r in range(model.rowCount())]
    assert cited.index(first) == 0 and all(not c.startswith("cited") for c in cited[sum(c.startswith("cited")
                                                                                         for c in cited):])
