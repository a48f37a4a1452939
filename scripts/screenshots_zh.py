"""A Chinese trial in the real window, for docs/screenshots/09-chinese-trial.png (run under Xvfb with a CJK font, e.g.
Debian's fonts-noto-cjk):

    SCRIPT=scripts/screenshots_zh.py scripts/screenshots.sh

A fresh config and data folder, the Chinese sample library (resources/samples-zh) added, a one-round trial of a
Chinese claim with the bundled models; once the verdict is in, a cited passage opens in the evidence inspector on
its page, highlighted, and the window is grabbed with the finished transcript scrolled to the verdict.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

from screenshots import save, settle, until  # noqa: E402

SAMPLES_ZH = ROOT / "resources" / "samples-zh"
CLAIM = "辩论模式适合所有问题，包括简单的事实性查询。"  # the third PDF refutes it (resources/samples-zh/README.md)
NAME = "09-chinese-trial.png"


def main(out: Path) -> None:
    from PySide6.QtCore import QSettings

    from courtroom_desktop.core.config import AppConfig, DebateSettings, ModelSettings, ModelSpec, save_config
    from courtroom_desktop.ui.app import create_window, make_application
    from courtroom_desktop.ui.tasks import make_event_loop

    out.mkdir(parents=True, exist_ok=True)
    app = make_application()
    app.setQuitOnLastWindowClosed(False)
    loop = make_event_loop(app)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        save_config(AppConfig(debate=DebateSettings(min_rounds=1, max_rounds=1, passages_per_turn=4),
                              models=ModelSettings(default=ModelSpec(max_tokens=200))), tmp / "config")
        settings = QSettings(str(tmp / "ui.ini"), QSettings.Format.IniFormat)
        window = create_window(tmp / "config", tmp / "data", settings)
        window.resize(1600, 1000)
        window.move(0, 0)
        court, inspector = window.courtroom, window.inspector

        async def scenario():
            window.show()
            window.start_background()
            await until(lambda: window.workspace.library_open and not window.library.tasks.running, 120, "the library")
            await until(lambda: window.workspace.models_ready, 600, "the models")
            window.show_library()
            window.library.ingest([SAMPLES_ZH])
            await until(lambda: len(window.library.ready_documents()) == 4 and not window.library.busy, 600,
                        "the Chinese samples")
            court.set_claim(CLAIM)
            await settle(0.5)
            court.start_button.click()
            await until(lambda: window.trial.state == "running", 120, "the trial to start")
            await until(lambda: window.trial.state in ("finished", "paused"), 1200, "the verdict")
            if window.trial.state != "finished":
                raise SystemExit(f"the trial ended {window.trial.state}, not with a verdict")
            await settle(0.5)
            court.view.flush()
            # a cited passage (the verdict's, else a counsel's), highlighted on its page in the inspector
            verdict = window.transcript_model.verdict()
            cited = [i for f in verdict.findings for i in f.citations] if verdict else []
            cited += [c.evidence_id for i in window.transcript_model.items() if i.kind == "turn" and i.turn is not None
                      for c in i.turn.citations if c.valid]
            pick = cited[0] if cited else window.evidence_model.entries()[0].id
            inspector.show_evidence(pick)
            await until(lambda: inspector.entry is not None and inspector.entry.id == pick
                        and inspector.page_view.image is not None, 60, "the cited page")
            court.view.verticalScrollBar().setValue(court.view.verticalScrollBar().maximum())
            await settle(1.0)
            save(window, out, NAME)
            print(f"cited {pick}: {inspector.entry.evidence.chunk.text[:60]}", flush=True)

            window.close()
            await window.shutdown()

        with loop:
            loop.run_until_complete(scenario())


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"))
