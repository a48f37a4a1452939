"""The check window (issue #28) over the hash-embedded sample library with a scripted judge and a scripted claim
verifier (the labels follow from its readings by the label rule, as in the app): the review's edits
reach the stored check, the table fills live, sorts and filters by verdict, a cited passage opens its page, a sign-off
override is shown beside the court's verdict and stored, export writes files; pause then resume checks every claim
once while the GUI thread keeps ticking; a server that goes down pauses the check with its reason; stored checks
reopen and delete; a claim's full trial opens in the main window."""

from __future__ import annotations

import json
import re
import time

import pytest
from PySide6.QtCore import QTimer, QUrl

from courtroom_desktop.core.config import AppConfig, CheckSettings
from testkit.verifier import NEITHER, ScriptedVerifier, reading

from .conftest import FAST_DEBATE, make_workspace, opened, run, until

DRAFT = """# Vitamin D, HIV and weight

Vitamin D deficiency during pregnancy was associated with a higher risk of low birth weight.

Antiretroviral therapy reduced the incidence of tuberculosis among adults living with HIV.

We now turn to the next part of this memo.

Obesity doubled the risk of type 2 diabetes according to a cohort study.

Vitamin D supplementation prevented most fractures in older adults, a randomised trial found.

This memo was written for the committee.
"""
REFUTED_WORD = "tuberculosis"  # the scripted verifier reads E1 as refuting the claims that name it


def read_by_claim(claim: str, passage: str, position: int):
    """E1 refutes a tuberculosis claim; E1 supports and E2 refutes the fractures claim (mixed); E1 supports any other;
    every other passage reads neither. ("Obesity doubled ..." names a quantity no sample states: insufficient.)"""
    if REFUTED_WORD in claim:
        return reading(refutes=0.7) if position == 0 else NEITHER
    if "fractures" in claim:
        return {0: reading(0.6), 1: reading(refutes=0.55)}.get(position, NEITHER)
    return reading(0.9) if position == 0 else NEITHER


def verdict_reply(messages) -> str:
    """The judge's one sentence of reason for the label the rule gave."""
    claim = re.search(r"<claim>(.*?)</claim>", messages[-1]["content"], re.S).group(1)
    if REFUTED_WORD in claim:
        return json.dumps({"reason": "E1 says otherwise."})
    if "fractures" in claim:
        return json.dumps({"reason": "Both ways."})
    return json.dumps({"reason": "E1 reports it."})


def claim_of(messages) -> str:
    return re.search(r"<claim>(.*?)</claim>", messages[-1]["content"], re.S).group(1)


def check_workspace(tmp_path, template, *, delay: float = 0.0, reply=verdict_reply, trials: str = "never",
                    judge_replies=None):
    """A workspace over the sample library whose judge answers every quick check with ``reply``."""
    from courtroom_desktop.core.llm import ModelRouter

    from .conftest import scripted_router

    config = AppConfig(debate=FAST_DEBATE, check=CheckSettings(finder="rules", trials=trials, reviewer="Ada Reviewer"))
    ws = make_workspace(tmp_path, template=template, config=config)
    base = scripted_router(config)
    judge = base.for_role("judge")
    judge.standing["Explanation"] = reply
    ws.parts._verifier = ScriptedVerifier(read_by_claim)
    if judge_replies is not None:
        judge.replies = list(judge_replies)
    judge.token_delay_s = delay
    ws.parts._router = ModelRouter(config.models, overrides={"judge": judge, "prosecution": base.for_role("prosecution"),
                                                       "defense": base.for_role("defense")})
    return ws, judge


def quick_calls(judge) -> list[str]:
    return [claim_of(call) for call, kind in zip(judge.calls, judge.kinds, strict=True)
            if kind == "structured" and "<claim>" in call[-1]["content"] and "Passages:" in call[-1]["content"]]


async def open_check_window(window):
    await opened(window)
    await until(lambda: window.library.ready_documents(), 30, "the library to be listed")
    window.act_check_draft.trigger()
    check = window.check_window
    await until(lambda: check.isVisible(), 5, "the check window")
    return check


async def read_draft(check, path):
    check.start.sig_read.emit(str(path), None)
    await until(lambda: check.stack.currentIndex() == check.REVIEW, 30, "the review list")


async def finished(check, timeout: float = 60):
    await until(lambda: check.controller.state == "finished", timeout, "the check to finish")


@pytest.fixture
def draft_file(tmp_path):
    path = tmp_path / "memo.md"
    path.write_text(DRAFT, encoding="utf-8")
    return path


def test_review_edits_reach_the_check_then_the_table_sorts_filters_signs_off_and_exports(
        make_window, sample_library_template, qloop, tmp_path, draft_file, qtmodeltester):
    from courtroom_desktop.ui.qt_models.checks import CLAIM, CONFIDENCE, SIGNOFF, VERDICT

    ws, judge = check_workspace(tmp_path, sample_library_template)
    window = make_window(workspace=ws)
    state = {}

    async def review():
        check = await open_check_window(window)
        state["check"] = check
        await read_draft(check, draft_file)

    run(qloop, review(), 90)
    check = state["check"]
    page = check.review
    found = [c.text for c in page.claims]
    assert len(found) == 4, found  # the signpost and the sentence about the memo are no claims
    assert all("memo" not in text for text in found)
    assert page.check_button.text() == "Check 4 claims"
    assert page.table.item(0, 1).text().startswith("paragraph")  # where it stands
    assert page.table.item(0, 2).text() not in ("", "\u2014")    # why it was found

    # merge two claims that are not adjacent (the first and the third)
    page.select_rows([0, 2])
    assert page.merge_selected()
    assert len(page.claims) == 3 and page.claims[0].origin == "merged"
    assert page.claims[0].text.startswith("Vitamin D deficiency") and "Obesity doubled" in page.claims[0].text
    # split the merged claim at the text cursor, put between its two sentences
    page.select_rows([0])
    cursor = page.editor.textCursor()
    cursor.setPosition(page.editor.toPlainText().index("Obesity"))
    page.editor.setTextCursor(cursor)
    assert page.split_current()
    assert [c.origin for c in page.claims[:2]] == ["split", "split"]
    assert page.claims[1].text.startswith("Obesity doubled")
    # edit a claim in place (its cell), remove one, and add a sentence of the draft that was no claim
    edited = "Antiretroviral therapy cut tuberculosis among adults with HIV."
    row = next(i for i, c in enumerate(page.claims) if "Antiretroviral" in c.text)
    page.table.item(row, 0).setText(edited)
    assert page.claims[row].text == edited and page.claims[row].origin == "edited"
    page.select_rows([next(i for i, c in enumerate(page.claims) if "fractures" in c.text)])
    page.remove_selected()
    remaining = page.remaining_sentences()
    assert any("committee" in s.text for s in remaining)
    picker = page.pick_sentence()
    assert picker.list.count() == len(remaining)
    picker.filter.setText("committee")
    visible = [picker.list.item(i) for i in range(picker.list.count()) if not picker.list.item(i).isHidden()]
    assert len(visible) == 1
    picker.list.setCurrentItem(visible[0])
    picker.add_button.click()
    assert page.claims[-1].origin == "added" and "committee" in page.claims[-1].text
    reviewed = [(c.text, c.origin) for c in page.claims]
    assert page.check_button.text() == f"Check {len(reviewed)} claims"

    async def check_them():
        page.check_button.click()
        await until(lambda: check.stack.currentIndex() == check.RESULTS, 30, "the results table")
        await finished(check)

    run(qloop, check_them(), 90)
    record = ws.checks.record(check.controller.check_id)
    assert [(r.claim.text, r.claim.origin) for r in record.rows] == reviewed
    assert len(quick_calls(judge)) == len(reviewed)
    results = check.results
    model = results.model
    qtmodeltester.check(model)
    qtmodeltester.check(results.proxy)
    assert model.rowCount() == len(reviewed)
    assert results.progress.format().startswith(f"{len(reviewed)} of {len(reviewed)} done")
    words = [model.index(r, VERDICT).data() for r in range(model.rowCount())]
    assert "Refuted" in words and "Supported" in words
    assert "Insufficient evidence \u00b7 no passage states doubled" in words  # the numbers rule, named in the table
    assert re.fullmatch(r".+ p\. \d+(, \d+)*(; .+ p\. \d+(, \d+)*)*", model.index(0, 5).data()), "title p. N"

    # sort by confidence, highest first; then only the refuted claims
    proxy = results.proxy
    results.table.sortByColumn(CONFIDENCE, results.table.horizontalHeader().sortIndicatorOrder().DescendingOrder)
    shown = [proxy.index(r, CONFIDENCE).data() for r in range(proxy.rowCount())]
    assert [int(s.rstrip("%")) for s in shown] == sorted((int(s.rstrip("%")) for s in shown), reverse=True)
    results.filter.setCurrentIndex(results.filter.findData("refuted"))
    assert proxy.rowCount() == 1 and proxy.index(0, VERDICT).data() == "Refuted"
    assert REFUTED_WORD in proxy.index(0, CLAIM).data()
    results.filter.setCurrentIndex(results.filter.findData("unchecked"))
    assert proxy.rowCount() == 0
    results.filter.setCurrentIndex(0)
    assert proxy.rowCount() == len(reviewed)

    # a claim's evidence: its cited passage opens its page, highlighted
    refuted = next(r.index for r in record.rows if r.label is not None and r.label.value == "refuted")
    assert results.select_claim(refuted)
    pane = check.pane
    assert pane.row.index == refuted
    assert 'href="cite:E1"' in pane.row_html(pane.row) and "E1 says otherwise." in pane.detail.toPlainText()
    assert check.evidence_model.rowCount() == len(record.rows[refuted].quick.passages)

    async def open_the_passage():  # inside the running loop: the page renders in a worker thread
        pane.detail.anchorClicked.emit(QUrl("cite:E1"))
        await until(lambda: check.inspector.page_view.image is not None, 20, "the cited page")

    run(qloop, open_the_passage())
    assert check.inspector.entry.id == "E1" and check.inspector.page_view.rects

    # the reviewer overrides the court: shown beside the court's verdict, which stays, and stored
    assert pane.reviewer.text() == "Ada Reviewer"
    pane.override_label.setCurrentIndex(pane.override_label.findData("supported"))
    pane.note.setText("E1 is about another population.")

    async def override():
        pane.override_button.click()
        await until(lambda: model.row(refuted).signoff is not None, 20, "the sign-off")

    run(qloop, override())
    source_row = model.index(refuted, VERDICT)
    assert source_row.data() == "Refuted"
    assert model.index(refuted, SIGNOFF).data() == "overridden: Supported (Ada Reviewer)"
    assert "Signed off: overridden: Supported" in pane.signoff_state.text()
    stored = ws.checks.record(record.id).rows[refuted]
    assert stored.signoff.decision == "overridden" and stored.signoff.label.value == "supported"
    assert stored.label.value == "refuted" and stored.signoff.note == "E1 is about another population."

    # export: the report files and the annotated draft, listed
    out = tmp_path / "export"

    async def export():
        results.export_button.click()
        dialog = check.export_dialog
        dialog.folder.setText(str(out))
        dialog.export_button.click()
        await until(lambda: dialog.written, 60, "the export")
        return dialog

    dialog = run(qloop, export(), 90)
    assert all(p.is_file() for p in dialog.written)
    names = {p.name for p in dialog.written}
    assert {"check.md", "check.html", "check.json", "check.csv"} <= names, names
    assert any(p.suffix == ".md" and p.name != "check.md" for p in dialog.written), "the annotated draft"
    assert dialog.written_list.count() == len(dialog.written)
    dialog.close()


def test_pause_then_resume_checks_every_claim_once_and_the_window_stays_responsive(
        make_window, sample_library_template, qloop, tmp_path, draft_file, monkeypatch):
    """Also: every search and every scoring of a check runs off the window's thread, and the window's timer never
    stops for half a second. Break: run the search on the window's thread (and block it 0.6 s), and both fail."""
    import threading

    from courtroom_desktop.core.retrieval.retriever import Retriever

    ws, judge = check_workspace(tmp_path, sample_library_template, delay=0.4)
    on_gui: list[str] = []
    search, score = Retriever.search, ws.parts._verifier.score

    def spied_search(self, *args, **kwargs):
        if threading.current_thread() is threading.main_thread():
            on_gui.append("search")
        return search(self, *args, **kwargs)

    def spied_score(*args, **kwargs):
        if threading.current_thread() is threading.main_thread():
            on_gui.append("score")
        return score(*args, **kwargs)

    monkeypatch.setattr(Retriever, "search", spied_search)
    monkeypatch.setattr(ws.parts._verifier, "score", spied_score)
    window = make_window(workspace=ws)
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    state = {}

    async def scenario():
        check = await open_check_window(window)
        state["check"] = check
        await read_draft(check, draft_file)
        claims = len(check.review.claims)
        timer.start()
        check.review.check_button.click()
        await until(lambda: check.results.model.rowCount() == claims and any(
            r.status.value == "done" for r in check.results.model.rows()), 30, "a first claim checked")
        started = ticks[-1] if ticks else time.monotonic()
        check.results.pause_button.click()
        await until(lambda: check.controller.state == "paused", 20, "the pause")
        rows = check.results.model.rows()
        state["done_at_pause"] = {r.claim.text for r in rows if r.status.value == "done"}
        state["calls_at_pause"] = len(quick_calls(judge))
        assert len(state["done_at_pause"]) < claims, "the pause came before the end"
        assert check.results.notice.isVisible() and "Paused" in check.results.notice.text()
        assert check.results.resume_button.isEnabled() and not check.results.pause_button.isEnabled()
        check.results.resume_button.click()
        await until(lambda: check.controller.state == "running", 10, "the resume")
        assert not check.results.notice.isVisible()
        await finished(check)
        state["window"] = (started, time.monotonic())
        timer.stop()
        return claims

    claims = run(qloop, scenario(), 120)
    check = state["check"]
    calls = quick_calls(judge)
    after_pause = calls[state["calls_at_pause"]:]
    assert not state["done_at_pause"] & set(after_pause), "a claim finished before the pause was checked again"
    assert set(calls) == {r.claim.text for r in check.results.model.rows()}
    assert len(calls) <= claims + 1  # at most the one claim in flight at the pause was asked again
    assert all(r.status.value == "done" for r in ws.checks.record(check.controller.check_id).rows)
    assert check.results.progress.value() == claims
    # the GUI thread ticked all along: claims ran in the loop and in worker threads, never on it
    begin, end = state["window"]
    during = [t for t in ticks if begin <= t <= end]
    assert len(during) >= 10
    assert not on_gui, f"ran on the window's thread: {sorted(set(on_gui))}"
    gaps = [b - a for a, b in zip(during, during[1:], strict=False)]
    assert max(gaps) < 0.5, f"the window froze for {max(gaps):.2f} s"


def test_a_server_that_goes_down_pauses_the_check_with_its_reason(make_window, sample_library_template, qloop,
                                                                   tmp_path):
    from courtroom_desktop.core.errors import ModelUnavailable

    def down(messages):
        raise ModelUnavailable("connection refused at http://localhost:11434")

    ws, judge = check_workspace(tmp_path, sample_library_template, reply=down)
    window = make_window(workspace=ws)

    async def scenario():
        check = await open_check_window(window)
        check.start.paste.setPlainText("Antiretroviral therapy reduced tuberculosis incidence by 65% among adults.")
        check.start.paste_button.click()
        await until(lambda: check.stack.currentIndex() == check.REVIEW, 30, "the review list")
        check.review.check_button.click()
        await until(lambda: check.controller.state == "paused", 30, "the pause")
        return check

    check = run(qloop, scenario(), 90)
    notice = check.results.notice
    assert notice.isVisible() and "not answering" in notice.text() and "connection refused" in notice.text()
    assert check.results.resume_button.isEnabled()
    assert check.results.model.row(0).status.value == "pending"


def test_stored_checks_reopen_and_delete(make_window, sample_library_template, qloop, tmp_path, draft_file,
                                         qtmodeltester):
    from courtroom_desktop.core.services.check import find_claims, from_found

    ws, judge = check_workspace(tmp_path, sample_library_template)
    draft = ws.checks.read_draft(draft_file)
    claims = from_found(find_claims(draft.sentences))
    first = ws.checks.create(draft, claims[:2], title="First memo")
    second = ws.checks.create(draft, claims[2:], title="Second memo")
    window = make_window(workspace=ws)

    async def scenario():
        check = await open_check_window(window)
        await until(lambda: check.start.checks_model.rowCount() == 2, 20, "the stored checks")
        return check

    check = run(qloop, scenario(), 90)
    start = check.start
    qtmodeltester.check(start.checks_model)
    titles = [start.checks_model.check(r).title for r in range(2)]
    assert set(titles) == {"First memo", "Second memo"}
    row = titles.index("First memo")

    async def reopen():
        start.checks.selectRow(row)
        start.resume_button.click()  # open it and go on with its claims
        await until(lambda: check.stack.currentIndex() == check.RESULTS, 20, "the check")
        await finished(check)

    run(qloop, reopen(), 60)
    assert check.controller.check_id == first and check.results.model.rowCount() == 2
    assert check.results.title.text() == "First memo"
    assert all(r.label is not None for r in check.results.model.rows())

    async def delete():
        check.results.new_button.click()
        await until(lambda: check.stack.currentIndex() == check.START, 5, "the start page")
        await until(lambda: start.checks_model.rowCount() == 2 and sum(
            start.checks_model.check(r).done for r in range(2)) == 2, 20, "the list")
        second_row = next(r for r in range(2) if start.checks_model.check(r).id == second)
        start.checks.selectRow(second_row)
        start.delete_selected(confirm=False)
        await until(lambda: start.checks_model.rowCount() == 1, 20, "the deletion")

    run(qloop, delete())
    assert start.checks_model.check(0).id == first
    assert [c.id for c in ws.checks.list()] == [first]


def test_a_claim_sent_to_a_full_trial_runs_it_and_the_trial_opens_in_the_main_window(
        make_window, sample_library_template, qloop, tmp_path):
    from tests.court.fakes import ruling, verdict

    ws, judge = check_workspace(tmp_path, sample_library_template, trials="never", judge_replies=[
        ruling(0.55, questions=["Was it randomised?"]), ruling(0.85, ready=True, reason="[E1] decides it"), verdict()])
    window = make_window(workspace=ws)

    async def scenario():
        check = await open_check_window(window)
        check.start.paste.setPlainText("Vitamin D deficiency during pregnancy was associated with a higher risk "
                                       "of low birth weight.")
        check.start.paste_button.click()
        await until(lambda: check.stack.currentIndex() == check.REVIEW, 30, "the review list")
        check.review.check_button.click()
        await finished(check)
        check.results.select_claim(0)
        pane = check.pane
        assert pane.row.by == "quick check" and pane.row.trial is None
        assert not pane.open_trial_button.isEnabled() and pane.send_button.isEnabled()
        pane.send_button.click()  # the claim goes to a full trial, and the queue resumes to run it
        await until(lambda: check.controller.state == "running", 20, "the queue to resume")
        await finished(check, 120)
        row = check.results.model.row(0)
        assert row.by == "trial" and row.trial.label is not None and row.sent_to_trial
        assert pane.row.trial is not None and pane.open_trial_button.isEnabled()
        assert check.results.model.index(0, 4).data() == "trial"
        pane.open_trial_button.click()
        await until(lambda: window.trial.trial_id == row.trial.trial_id and window.trial.state == "finished", 20,
                    "the trial in the main window")
        return row

    run(qloop, scenario(), 180)
    assert window.transcript_model.rowCount() > 0
    assert len(quick_calls(judge)) == 1  # the quick check was not run again for the trial


def test_the_references_tab_lists_what_the_draft_cites(make_window, sample_library_template, qloop, tmp_path):
    """A stored check opened in the window: its References tab lists the draft's reference list, the sentence that
    cites each entry and the library document it is (by title), or "cited, not in your library" (break: the
    controller not sending the references, and the table stays empty)."""
    from courtroom_desktop.core.services.check import find_claims, from_found
    from courtroom_desktop.ui.widgets.references_panel import ReferencesPanel

    ws, _ = check_workspace(tmp_path, sample_library_template)
    draft_path = tmp_path / "cited.md"
    draft_path.write_text(
        "# Memo\n\nVitamin D in pregnancy raised birth weight by 5% [1]. Obesity rose in 40% of adults [2].\n\n"
        "## References\n\n1. SciFact A. Vitamin D in pregnancy and bone health (dossier A). Dossiers. 2024.\n"
        "2. Nobody B. A paper the library does not hold. J Nothing. 2020.\n", encoding="utf-8")
    draft = ws.checks.read_draft(draft_path)
    ws.checks.create(draft, from_found(find_claims(draft.sentences)), title="Cited memo")
    window = make_window(workspace=ws)

    async def scenario():
        check = await open_check_window(window)
        await until(lambda: check.start.checks_model.rowCount() == 1, 20, "the stored check")
        check.start.checks.selectRow(0)
        check.start.open_button.click()
        await until(lambda: check.references.table.rowCount() == 2, 20, "the references")
        return check

    check = run(qloop, scenario(), 90)
    panel: ReferencesPanel = check.references
    cells = [[panel.table.item(r, c).text() for c in range(panel.table.columnCount())] for r in range(2)]
    assert cells[0][3].startswith("Vitamin D in pregnancy and bone health") and "by title" in cells[0][3]
    assert cells[1][3] == "cited, not in your library"
    assert cells[0][2] == "1" and cells[1][2] == "2"
    assert "2 references, 1 of them in your library" in panel.summary.text()
    assert check.tabs.tabText(1) == "References"
