"""Screenshots of a trial's record (run under Xvfb: ``SCRIPT=scripts/screenshots_record.py scripts/screenshots.sh``).

    python scripts/screenshots_record.py OUT_DIR [--scripted]

Opens the real window on a fresh config and data folder, clicks the first run's "Try the sample library" (the sample
library goes in with the bundled embedding model and the suggested claim goes on trial), lets the bundled SmolLM2
argue it through llama.cpp (two rounds), then opens the prompt viewer of the second counsel turn (the exact prompt
the model saw and its raw answer: prompt-viewer.png) and the trial's coverage panel (coverage-panel.png), and grabs
the window with the first round folded (record-folded.png). With --scripted the sample library is embedded by the
tests' hashing embedder and the models are the tests' scripted ones (tests/ui/conftest.py): the prompts are the
court's own, the answers the script's; seconds instead of minutes on a busy machine.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


async def until(predicate, timeout: float, what: str):
    from courtroom_desktop.ui.tasks import wait_until

    return await wait_until(predicate, timeout, what, poll_s=0.2)


async def settle(seconds: float = 0.6) -> None:
    from PySide6.QtWidgets import QApplication

    await asyncio.sleep(seconds)
    QApplication.processEvents()


def save(widget, out: Path, name: str) -> None:
    widget.grab().save(str(out / name))
    print(f"saved {out / name}", flush=True)


def main(out: Path, scripted: bool = False) -> None:
    from PySide6.QtCore import QSettings

    from courtroom_desktop.core.config import AppConfig, DebateSettings, save_config
    from courtroom_desktop.ui.app import create_window, make_application
    from courtroom_desktop.ui.tasks import make_event_loop

    out.mkdir(parents=True, exist_ok=True)
    app = make_application()
    app.setQuitOnLastWindowClosed(False)
    loop = make_event_loop(app)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        save_config(AppConfig(debate=DebateSettings(min_rounds=2, max_rounds=2)), tmp / "config")
        os.environ["COURTROOM_MODEL_SERVERS"] = "none"
        settings = QSettings(str(tmp / "ui.ini"), QSettings.Format.IniFormat)
        workspace = None
        if scripted:
            from tests.ui.conftest import SAMPLES, make_workspace, open_library

            template = tmp / "template"
            library = open_library(template)
            library.ingest(sorted(SAMPLES.glob("*.pdf")))
            library.close()
            workspace = make_workspace(tmp / "run", template, AppConfig(debate=DebateSettings(min_rounds=2,
                                                                                              max_rounds=2)))
        window = create_window(workspace.config_dir if workspace else tmp / "config",
                               workspace.data_dir if workspace else tmp / "data", settings, workspace=workspace)
        window.resize(1500, 950)

        async def scenario():
            window.show()
            window.start_background()
            court = window.courtroom
            if scripted:
                await until(lambda: window.workspace.models_ready and window.library.ready_documents(), 120,
                            "the library")
                court.set_claim("Vitamin D deficiency is unrelated to birth weight.")
                court.start()
            else:
                await until(lambda: court.welcome.isVisible(), 600, "the first-run offer")
                await until(lambda: window.workspace.models_ready, 900, "the models")
                court.try_button.click()
            await until(lambda: window.trial.state in ("finished", "paused"), 3600, "the verdict")
            court.view.flush()
            bar = court.record_bar
            turns = [i for i in window.transcript_model.items() if i.kind == "turn" and i.finished]
            court.view.sig_prompt.emit("turn", turns[1].index)
            await until(lambda: bar.prompt_viewer is not None, 60, "the prompt viewer")
            viewer = bar.prompt_viewer
            viewer.resize(1200, 760)
            await settle()
            save(viewer, out, "prompt-viewer.png")
            viewer.close()
            bar.coverage_button.click()
            await until(lambda: bar.coverage_panel is not None, 120, "the coverage panel")
            bar.coverage_panel.resize(1200, 760)
            await settle()
            save(bar.coverage_panel, out, "coverage-panel.png")
            bar.coverage_panel.close()
            bar.fold_button.click()
            court.view.verticalScrollBar().setValue(0)
            await settle(1.0)
            save(window, out, "record-folded.png")
            await window.shutdown()

        loop.run_until_complete(scenario())
        window.close()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(Path(args[0] if args else "docs/screenshots"), "--scripted" in sys.argv)
