"""Screenshots of a decision trial (run under Xvfb: ``SCRIPT=scripts/screenshots_decision.py scripts/screenshots.sh``).

    python scripts/screenshots_decision.py OUT_DIR [--options 2]

Opens the real window on a fresh config and data folder, clicks the first run's "Try a sample decision" (the sample
decision's notes go into the library with the bundled embedding model; the decision, its criteria, constraint and
background are filled in), lets the bundled SmolLM2 argue it through llama.cpp (the first --options options of the
sample, to keep it to minutes on two cores), and grabs the window with the verdict card's options-by-criteria table
(10-decision.png). Then exports the decision memo and renders its first page (11-memo.png).
"""

from __future__ import annotations

import argparse
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


def main(out: Path, options: int) -> None:
    import pymupdf
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from courtroom_desktop.core.config import AppConfig, DebateSettings, save_config
    from courtroom_desktop.ui import first_run, samples
    from courtroom_desktop.ui.app import create_window, make_application
    from courtroom_desktop.ui.tasks import make_event_loop

    out.mkdir(parents=True, exist_ok=True)
    full = samples.sample_decision()
    trimmed = full.decision.model_copy(update={"options": full.decision.options[:options]})
    first_run.sample_decision = lambda *a: samples.SampleDecision(full.question, trimmed, full.background, full.files)
    app = make_application()
    app.setQuitOnLastWindowClosed(False)
    loop = make_event_loop(app)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        save_config(AppConfig(debate=DebateSettings(passages_per_turn=3)), tmp / "config")
        os.environ["COURTROOM_MODEL_SERVERS"] = "none"
        settings = QSettings(str(tmp / "ui.ini"), QSettings.Format.IniFormat)
        window = create_window(tmp / "config", tmp / "data", settings)
        window.resize(1500, 950)

        async def scenario():
            window.show()
            window.start_background()
            court = window.courtroom
            await until(lambda: court.welcome.isVisible(), 600, "the first-run offer")
            court.try_decision_button.click()
            await until(lambda: window.trial.state in ("finished", "paused"), 3600, "the verdict")
            court.view.flush()
            bar = court.view.verticalScrollBar()
            bar.setValue(bar.maximum())
            await asyncio.sleep(0.5)
            QApplication.processEvents()
            table = court.view.document().find("Options by criteria")  # the verdict card's table in view
            if not table.isNull():
                court.view.setTextCursor(table)
                court.view.ensureCursorVisible()
                bar.setValue(bar.value() + court.view.cursorRect().top() - 160)
                table.clearSelection()
                court.view.setTextCursor(table)
            await asyncio.sleep(1.0)
            QApplication.processEvents()
            window.grab().save(str(out / "10-decision.png"))
            print(f"saved {out / '10-decision.png'}", flush=True)
            memo = tmp / "memo"
            result = await asyncio.to_thread(window.workspace.workspace.trials.export, window.trial.trial_id,
                                             ["md", "pdf"], memo)
            pdf = next(p for p in result.paths if p.suffix == ".pdf")
            with pymupdf.open(pdf) as doc:
                doc[0].get_pixmap(dpi=110).save(str(out / "11-memo.png"))
            print(f"saved {out / '11-memo.png'}", flush=True)
            print((memo / "report.md").read_text(encoding="utf-8")[:3000], flush=True)
            window.close()
            await window.shutdown()

        with loop:
            loop.run_until_complete(scenario())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--options", type=int, default=2, help="how many of the sample's options to weigh")
    args = parser.parse_args()
    main(Path(args.out), args.options)
