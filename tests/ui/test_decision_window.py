"""A decision with options in the window: the case's details dialog (options, weighted criteria, constraints,
background; OK only for a decision the court can weigh), a decision trial started from the courtroom with them, the
options-by-criteria table on the verdict card, and the details restored when the trial is opened again."""

from __future__ import annotations

from PySide6.QtWidgets import QTableWidgetItem

from courtroom_desktop.ui.dialogs.decision import DecisionDialog
from courtroom_desktop.ui.qt_models.transcript import VerdictItem
from courtroom_desktop.ui.text import verdict_markdown
from tests.court.test_decisions import DECISION, decision_ruling, decision_verdict

from .conftest import run, until
from .test_trial_window import wait_ready

QUESTION = "Which vitamin D plan should I follow this winter?"
SCORES = {"Supplements": {"evidence": 9, "effort": 6}, "Sunlight": {"evidence": 3, "effort": 8}}


def test_the_dialog_allows_only_a_decision_the_court_can_weigh(qtbot):
    dialog = DecisionDialog()
    qtbot.addWidget(dialog)
    assert dialog.ok_button.isEnabled() and dialog.decision_or_none() is None  # nothing entered: one question
    dialog.option_edits[0].setText("Move to Lisbon")
    assert not dialog.ok_button.isEnabled() and "option" in dialog.problem.text().lower()
    dialog.option_edits[1].setText("Stay in Manchester")
    assert not dialog.ok_button.isEnabled() and "criteri" in dialog.problem.text().lower()  # the row has no name
    dialog.criteria.setItem(0, 0, QTableWidgetItem("cost of living"))
    dialog.criteria.cellWidget(0, 1).setValue(3)
    dialog.add_criterion("career", 1)
    dialog.constraints.setPlainText("rent under 1,500 euros a month\n")
    dialog.background.setPlainText("  I work remotely.  ")
    assert dialog.ok_button.isEnabled() and dialog.problem.text() == ""
    spec = dialog.decision_or_none()
    assert spec.options == ("Move to Lisbon", "Stay in Manchester")
    assert [(c.name, c.weight) for c in spec.criteria] == [("cost of living", 3.0), ("career", 1.0)]
    assert spec.constraints == ("rent under 1,500 euros a month",) and dialog.background_text() == "I work remotely."


def test_the_dialog_shows_the_background_limit(qtbot):
    from courtroom_desktop.core.court.hearing import BACKGROUND_CHARS

    dialog = DecisionDialog(background="I work remotely.", with_options=False)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    count = dialog.background_count
    assert count.isVisible() and count.text() == f"16 / {BACKGROUND_CHARS:,} characters"
    dialog.background.setPlainText("x" * (BACKGROUND_CHARS + 345))
    qtbot.waitUntil(lambda: "too long" in count.text())
    assert f"{BACKGROUND_CHARS + 345:,} / {BACKGROUND_CHARS:,} characters" in count.text()
    assert f"reads only the first {BACKGROUND_CHARS:,}" in count.text() and count.isVisible()
    dialog.background.setPlainText("x" * BACKGROUND_CHARS)  # at the limit: nothing is cut
    qtbot.waitUntil(lambda: count.text() == f"{BACKGROUND_CHARS:,} / {BACKGROUND_CHARS:,} characters")


def test_a_decision_trial_from_the_window(make_window, sample_library_template, qloop):
    judge = [decision_ruling(SCORES), decision_ruling(SCORES),
             decision_verdict("Supplements are recommended: the randomised trial [E1] shows it.")]
    window = make_window(template=sample_library_template, judge=judge)
    court = window.courtroom

    async def scenario():
        await wait_ready(window)
        court.set_claim(QUESTION)
        court.case.setCurrentIndex(court.case.findData("decision"))
        assert court.details_button.text() == "Options and criteria\u2026"
        dialog = court.edit_details()
        for edit, option in zip(dialog.option_edits, DECISION.options, strict=False):
            edit.setText(option)
        dialog.criteria.setItem(0, 0, QTableWidgetItem("evidence"))
        dialog.criteria.cellWidget(0, 1).setValue(2)
        dialog.add_criterion("effort", 1)
        dialog.background.setPlainText("I live in Oslo.")
        dialog.accept()
        assert court.details_button.text().startswith("2 options, 2 criteria")
        court.start()
        await until(lambda: window.trial.state == "finished", 120, "the verdict")

    run(qloop, scenario(), 150)
    spec = window.trial.spec
    assert spec.decision.options == DECISION.options and spec.background == "I live in Oslo."
    verdict = [i for i in window.transcript_model.items() if isinstance(i, VerdictItem)][-1].verdict
    assert verdict.decision.recommended == "Supplements"
    card = verdict_markdown(verdict, "decision", QUESTION)
    assert card.startswith("## Verdict: Recommended: Supplements")
    assert "### Options by criteria" in card and "| Supplements | 9 [\\[E" in card
    # a new trial clears the details; opening the finished one again restores them
    court.new_trial()
    assert court.decision is None and court.background == ""
    court._on_opened(window.trial.trial_id, spec, [])
    assert court.decision == spec.decision and court.details_button.text().startswith("2 options")


def test_the_sample_decision_from_the_first_run(make_window, qloop, qtbot):
    from PySide6.QtCore import Qt

    from courtroom_desktop.ui.samples import sample_decision

    sample = sample_decision()
    assert sample is not None and len(sample.decision.options) == 3 and len(sample.files) == 4
    cells = {c.name: 7 for c in sample.decision.criteria}
    judge = [decision_ruling(dict.fromkeys(sample.decision.options, cells))] * 3 + [
        decision_verdict(f"{sample.decision.options[0]} is recommended [E1].")]
    window = make_window(judge=judge)  # an empty library: the first run
    court = window.courtroom

    async def scenario():
        from .conftest import opened

        await opened(window)
        await until(lambda: court.welcome.isVisible(), 20, "the first-run offer")
        qtbot.mouseClick(court.try_decision_button, Qt.MouseButton.LeftButton)
        await until(lambda: window.trial.state == "finished", 150, "the sample decision's verdict")

    run(qloop, scenario(), 180)
    spec = window.trial.spec
    assert spec.claim == sample.question and spec.case.value == "decision"
    assert spec.decision == sample.decision and spec.background == sample.background
    kinds = {d.kind for d in window.library.documents}
    assert kinds == {"markdown"}, kinds  # the four notes, read as Markdown


def test_the_window_shows_which_roles_send_text_where(make_window, qloop):
    from courtroom_desktop.core.config import ModelSpec
    from courtroom_desktop.core.privacy import servers

    window = make_window()
    line = window.courtroom.servers_line.text()
    assert "prosecution, defense, judge \u2192 this computer" in line and "<b>" not in line
    assert "embedder \u2192 this computer" in line
    config = window.workspace.config
    models = config.models.model_copy(update={"judge": ModelSpec(provider="openai", model="gpt-x",
                                                                 base_url="https://api.example.com/v1")})
    window.courtroom.set_servers(servers(models))
    line = window.courtroom.servers_line.text()
    assert "prosecution, defense \u2192 this computer" in line
    assert "judge \u2192 <b>OpenAI-compatible server at api.example.com (another machine)</b>" in line
