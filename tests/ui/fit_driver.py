"""Drive the window on a screen of a given size and report what a person would see: the window's and its dialogs'
frames against the screen's available area, and every text that does not fit its widget (testkit.clipping).

    QT_QPA_PLATFORM=offscreen:configfile=SCREEN.json python -m tests.ui.fit_driver REPORT.json

Run in its own process by tests/ui/test_fits_screen.py: Qt's offscreen platform takes its screen (size, device pixel
ratio) from the config file when the application starts, so each screen size is a process. The window runs with a
hash embedder and scripted models (tests/ui/conftest.py), through the states a new user passes: the first run with
its welcome banner, "Try the sample library" (six PDFs ingested, a trial to its verdict, a passage in the inspector),
then every dialog it opens from there (the coverage panel, a prompt viewer, export, shortcuts, about, the scope,
Zotero, a new note, a decision's options), the settings dialog and the check-a-draft window (its start page, the claims
found in a draft, and the export of their verdicts)."""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QRect, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget


def _rect(rect: QRect) -> list[int]:
    return [rect.x(), rect.y(), rect.width(), rect.height()]


def _data_words(window) -> set[str]:
    """Words of the documents' own text the window shows (titles, sections, the passage's query): data, not the
    window's wording."""
    words: set[str] = set()
    texts = [d.title for d in window.library.documents]
    for entry in window.evidence_model.entries():
        texts += [entry.evidence.chunk.section_path, entry.query, entry.evidence.doc_title, entry.evidence.doc_cite,
                  entry.evidence.chunk.text]  # the passage the inspector shows
    texts += _written_by_models(window)
    for text in texts:  # as english_words compares them: a trailing apostrophe or hyphen is not part of the word
        words.update(w.lower().strip("'-.") for w in re.findall(r"[A-Za-z][\w'\-]*", text or ""))
    return words


def _written_by_models(window) -> list[str]:
    """What the models wrote into the transcript (counsel's turns, the judge's rulings and verdict, their searches):
    data in the model's language, not the window's wording."""
    found: list[str] = []

    def strings(value) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                strings(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                strings(item)

    for item in window.transcript_model.items():
        for name in ("text", "turn", "ruling", "verdict"):
            value = getattr(item, name, None)
            if item.kind == "notice" and name == "text":
                continue  # the court's own notices are the window's wording
            strings(value.model_dump(mode="json") if hasattr(value, "model_dump") else value)
    return found


def _state(widget: QWidget, names: set[str] | None = None) -> dict:
    from testkit.accessibility import unnamed_on_every_tab
    from testkit.clipping import clipped
    from testkit.untranslated import english

    QApplication.processEvents()
    state = {"frame": _rect(widget.frameGeometry()), "minimum_width": widget.minimumSizeHint().width(),
             "clipped": [str(clip) for clip in clipped(widget)]}
    if os.environ.get("COURTROOM_LANGUAGE", "en") != "en":  # the window in another language: no English left
        state["english"] = [f"{where}: {text!r} ({', '.join(words)})"
                            for where, text, words in english(widget, names or set())]
    state["unnamed"] = unnamed_on_every_tab(widget)  # controls a screen reader would find with no name: none
    return state


async def _settled(widget: QWidget, names: set[str] | None = None) -> dict:
    """The state once the window has had a moment to lay out and render, inside the running loop (as in the app,
    whose loop always runs: a page render started outside it would find no loop)."""
    import asyncio

    await asyncio.sleep(0.5)
    return _state(widget, names)


#: A draft for the check window (one sentence a signpost, one about the memo: no claims)
DRAFT = """# Vitamin D and HIV

Vitamin D deficiency during pregnancy was associated with a 40% higher risk of low birth weight.

Antiretroviral therapy reduced the incidence of tuberculosis by 65% among adults living with HIV.

We now turn to the next part of this memo.
"""
#: Examples the dialogs give in the user's own terms (section names, a citation): not the window's wording
EXAMPLES = {"results", "discussion", "smith", "et", "al"}


async def _dialogs(window, names: set[str]) -> dict:
    """Every dialog the window opens after a verdict, as a person would open them: name -> its state."""
    from courtroom_desktop.ui.qt_models.transcript import TurnItem
    from tests.ui.conftest import until

    out: dict = {}

    async def seen(name: str, dialog, words: set[str] = names) -> None:
        await until(lambda: dialog.isVisible(), 30, name)
        out[name] = await _settled(dialog, words)
        dialog.close()

    bar, court = window.courtroom.record_bar, window.courtroom
    bar.coverage_button.click()
    await until(lambda: bar.coverage_panel is not None, 30, "the coverage panel")
    passages = {w.lower() for p in bar.coverage_panel.coverage.passages
                for w in re.findall(r"[A-Za-z][\w'\-]*", f"{p.excerpt} {p.query}")}  # the documents' words
    await seen("coverage", bar.coverage_panel, names | passages)
    row, turn = next((row, item) for row, item in enumerate(window.transcript_model.items())
                     if isinstance(item, TurnItem))
    QTest.mouseClick(court.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=court.view.link_point(row, f"prompt:turn:{turn.index}"))  # its "Prompt…" link
    await until(lambda: bar.prompt_viewer is not None, 30, "the prompt viewer")
    await seen("prompts", bar.prompt_viewer)
    for name, opener in (("export", window.export_current), ("shortcuts", window.show_shortcuts),
                         ("about", window.show_about), ("scope", window.choose_scope),
                         ("zotero", window.library_panel.import_zotero), ("note", window.library_panel.new_note)):
        await seen(name, opener(), names | EXAMPLES)
    court.case.setCurrentIndex(court.case.findData("decision"))
    await seen("decision", court.edit_details())
    court.case.setCurrentIndex(court.case.findData("claim"))
    return out


def main(out: Path) -> None:
    app = QApplication(sys.argv[:1])
    if (scale := float(os.environ.get("COURTROOM_TEST_FONT_SCALE", "1") or 1)) != 1:  # the system font made bigger
        font = app.font()
        font.setPointSizeF(font.pointSizeF() * scale)
        app.setFont(font)
    from courtroom_desktop.ui.app import create_window
    from courtroom_desktop.ui.tasks import make_event_loop
    from tests.ui.conftest import make_workspace, opened, run, until

    loop = make_event_loop(app)
    tmp = Path(tempfile.mkdtemp(prefix="courtroom-fit-"))
    workspace = make_workspace(tmp)
    settings = QSettings(str(tmp / "ui.ini"), QSettings.Format.IniFormat)
    window = create_window(workspace.config_dir, workspace.data_dir, settings, workspace=workspace)
    window.show()
    run(loop, opened(window, 120), 150)
    screen = window.screen()
    report: dict = {"available": _rect(screen.availableGeometry()), "ratio": screen.devicePixelRatio()}
    court = window.courtroom
    run(loop, until(lambda: court.welcome.isVisible(), 30, "the welcome banner"), 40)
    report["first_run"] = run(loop, _settled(window), 60)
    report["first_run"]["welcome_share"] = round(court.welcome.height() / max(court.view.height(), 1), 3)

    window.try_samples()
    run(loop, until(lambda: window.trial.state == "finished", 240, "the sample trial's verdict"), 260)
    async def show_a_passage() -> None:  # inside the running loop, as a click would be
        window.inspector.table.selectRow(0)
        await until(lambda: window.inspector.entry is not None, 30, "a passage in the inspector")

    run(loop, show_a_passage(), 40)
    names = _data_words(window)
    report["verdict"] = run(loop, _settled(window, names), 60)

    report["dialogs"] = run(loop, _dialogs(window, names), 240)

    dialog = window.open_settings()
    run(loop, until(lambda: dialog.isVisible(), 30, "the settings dialog"), 40)
    report["settings"] = run(loop, _settled(dialog), 60)
    dialog.reject()
    checker = window.check_draft()
    run(loop, until(lambda: checker.isVisible(), 30, "the check window"), 40)
    report["check"] = run(loop, _settled(checker), 60)
    draft = tmp / "memo.md"
    draft.write_text(DRAFT, encoding="utf-8")
    checker.start.sig_read.emit(str(draft), None)
    run(loop, until(lambda: checker.stack.currentIndex() == checker.REVIEW, 30, "the claims found"), 40)
    draft_words = names | {w.lower() for w in re.findall(r"[A-Za-z][\w'\-]*", DRAFT)}  # the draft's own words
    report["check_review"] = run(loop, _settled(checker, draft_words), 60)
    checker.review.check_button.click()
    run(loop, until(lambda: checker.controller.state == "finished", 120, "the check's verdicts"), 130)
    report["check_done"] = run(loop, _settled(checker, draft_words), 60)
    exporter = checker.export()
    run(loop, until(lambda: exporter.isVisible(), 30, "the check's export"), 40)
    report["check_export"] = run(loop, _settled(exporter), 60)
    exporter.close()
    checker.close()
    window.close()
    run(loop, window.shutdown(), 60)
    out.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
