"""Drive the real window like a new user and save screenshots (run by scripts/screenshots.sh under Xvfb).

    python scripts/screenshots.py OUT_DIR

A fresh config and data folder, the bundled models, "Try the sample library", a two-round trial; the window is
grabbed on first run, during the trial (a citation open in the inspector), after the verdict (light and dark),
and the settings dialog (after its Test) and the export dialog are grabbed too.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


async def until(predicate, timeout: float, what: str):
    from courtroom_desktop.ui.tasks import wait_until

    return await wait_until(predicate, timeout, what, poll_s=0.1)


async def settle(seconds: float = 0.4) -> None:
    from PySide6.QtWidgets import QApplication

    await asyncio.sleep(seconds)
    QApplication.processEvents()


def save(widget, out: Path, name: str) -> None:
    path = out / name
    widget.grab().save(str(path))
    print(f"saved {path}", flush=True)


def screen(out: Path, name: str) -> None:
    """The whole X screen, as a person would see it (window and dialogs), when ImageMagick is there."""
    if shutil.which("import") and os.environ.get("DISPLAY"):
        path = out / name
        subprocess.run(["import", "-window", "root", str(path)], check=False, timeout=60)
        print(f"saved {path}", flush=True)


def main(out: Path) -> None:
    from PySide6.QtCore import QSettings, QUrl

    from courtroom_desktop.core.config import AppConfig, DebateSettings, save_config
    from courtroom_desktop.ui.app import create_window, make_application
    from courtroom_desktop.ui.tasks import make_event_loop
    from courtroom_desktop.ui.text import cite_href

    out.mkdir(parents=True, exist_ok=True)
    app = make_application()
    app.setQuitOnLastWindowClosed(False)  # the scenario closes the window, then awaits its shutdown
    loop = make_event_loop(app)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        save_config(AppConfig(debate=DebateSettings(min_rounds=1, max_rounds=2)), tmp / "config")
        settings = QSettings(str(tmp / "ui.ini"), QSettings.Format.IniFormat)
        window = create_window(tmp / "config", tmp / "data", settings)
        window.resize(1600, 1000)
        window.move(0, 0)
        court, inspector = window.courtroom, window.inspector

        async def scenario():
            window.show()
            window.start_background()
            await until(lambda: window.workspace.library_open and not window.library.tasks.running, 120, "the library")
            await settle(1.0)
            save(window, out, "01-first-run.png")

            await until(lambda: window.workspace.models_ready, 600, "the models")
            court.try_button.click()
            await until(lambda: window.trial.state == "running", 600, "the trial to start")
            await until(lambda: any(i.kind == "turn" and i.finished for i in window.transcript_model.items())
                        and window.evidence_model.rowCount() > 0, 600, "the first turn")
            court.view.flush()
            items = window.transcript_model.items()
            row = next(r for r, i in enumerate(items) if i.kind == "turn" and i.finished)
            chips = court.view.card_chips(row)
            if chips:
                court.view.anchorClicked.emit(QUrl(cite_href(chips[0][0])))
            else:
                inspector.show_evidence(window.evidence_model.entries()[0].id)
            await until(lambda: inspector.page_view.image is not None, 60, "the page")
            await until(lambda: any(i.kind == "ruling" for i in window.transcript_model.items())
                        or window.trial.state != "running", 600, "the first ruling")
            await settle(1.0)
            court.view.flush()
            save(window, out, "02-trial-running.png")

            await until(lambda: window.trial.state in ("finished", "paused"), 1200, "the verdict")
            await settle(0.5)
            court.view.flush()
            verdict = window.transcript_model.verdict()
            cited = [f.citations[0] for f in verdict.findings if f.citations] if verdict else []
            pick = cited[0] if cited else window.evidence_model.entries()[-1].id
            inspector.show_evidence(pick)
            await until(lambda: inspector.entry is not None and inspector.entry.id == pick
                        and inspector.page_view.image is not None, 60, "the cited page")
            court.view.verticalScrollBar().setValue(court.view.verticalScrollBar().maximum())
            await settle(1.0)
            save(window, out, "03-verdict.png")
            screen(out, "03-verdict-screen.png")

            window.set_appearance("dark")
            await settle(1.0)
            save(window, out, "04-verdict-dark.png")
            window.set_appearance("system")
            await settle(0.5)

            dialog = window.open_settings()
            dialog.resize(900, 700)
            dialog.test_button.click()
            await until(lambda: dialog.doctor_model.rowCount() > 0 and dialog.test_button.isEnabled(), 300,
                        "the doctor's checks")
            dialog.doctor_table.resizeRowsToContents()
            await settle(0.5)
            save(dialog, out, "05-settings.png")
            screen(out, "05-settings-screen.png")
            dialog.reject()

            window.act_export.trigger()
            export = window.dialogs["export"]
            export.folder.setText(str(tmp / "report"))
            export.export_button.click()
            await until(lambda: export.written, 300, "the export")
            await settle(0.5)
            save(export, out, "06-export.png")
            export.reject()

            window.close()
            await window.shutdown()

        with loop:
            loop.run_until_complete(scenario())


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"))
