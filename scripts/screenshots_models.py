"""Screenshots of the model setup (run under Xvfb: ``SCRIPT=scripts/screenshots_models.py scripts/screenshots.sh``).

    python scripts/screenshots_models.py OUT_DIR

Starts the test kit's fake Ollama on loopback (a few models, one more to pull), opens the real window on a fresh
config and data folder, and grabs the settings dialog's Models tab after "Find models on this computer" and
"Use this assignment" (07-models-found.png), then during a pull that resumes an earlier, cancelled one (08-pull.png).
No real model server and no network are needed: the fake answers Ollama's API, and the pull's bytes are made up.
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

CATALOG = [  # (name, bytes, parameters, family, quantisation, context, parameter count, capabilities)
    ("qwen2.5:14b", 8_988_124_069, "14.8B", "qwen2", "Q4_K_M", 32768, 14_770_033_664, ("completion", "tools")),
    ("llama3.2:3b", 2_019_393_189, "3.2B", "llama", "Q4_K_M", 131072, 3_212_749_888, ("completion", "tools")),
    ("qwen2.5:0.5b", 397_821_319, "494.03M", "qwen2", "Q4_K_M", 32768, 494_032_768, ("completion",)),
    ("nomic-embed-text:latest", 274_302_450, "137M", "nomic-bert", "F16", 2048, 136_727_040, ("embedding",)),
]
PULLED = "qwen2.5:7b"
LAYERS = [4_683_073_184, 11_343, 1_482]


async def until(predicate, timeout: float, what: str):
    from courtroom_desktop.ui.tasks import wait_until

    return await wait_until(predicate, timeout, what, poll_s=0.05)


def save(widget, out: Path, name: str) -> None:
    path = out / name
    widget.grab().save(str(path))
    print(f"saved {path}", flush=True)


def main(out: Path) -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from courtroom_desktop.core.llm import pull
    from courtroom_desktop.ui.app import create_window, make_application
    from courtroom_desktop.ui.tasks import make_event_loop
    from testkit.fake_ollama import FakeModel, FakeOllama

    out.mkdir(parents=True, exist_ok=True)
    pull.free_bytes = lambda path: 200_000_000_000  # the pulled bytes are made up: never the real disk's business
    catalog = [FakeModel(name, size=size, parameter_size=label, family=family, quantization=quant, context_length=ctx,
                         parameter_count=count, capabilities=caps)
               for name, size, label, family, quant, ctx, count, caps in CATALOG]
    app = make_application()
    app.setQuitOnLastWindowClosed(False)
    loop = make_event_loop(app)
    with tempfile.TemporaryDirectory() as tmp, \
            FakeOllama(catalog=catalog, library={PULLED: LAYERS}, pull_chunk=3_000_000, pull_delay_s=0.03) as ollama:
        tmp = Path(tmp)
        os.environ["COURTROOM_MODEL_SERVERS"] = f"ollama={ollama.url}"
        os.environ["OLLAMA_HOST"] = ollama.url
        # an earlier pull of qwen2.5:7b stopped at 1.2 GB: this one resumes
        ollama.downloaded[ollama.layer_digest(PULLED, 0)] = 1_204_000_000
        settings = QSettings(str(tmp / "ui.ini"), QSettings.Format.IniFormat)
        settings.setValue("models/offer_dismissed", True)  # the dialog is the subject here, not the first-run offer
        window = create_window(tmp / "config", tmp / "data", settings)
        window.resize(1500, 950)

        async def scenario():
            window.show()
            window.start_background()
            await until(lambda: window.workspace.library_open, 120, "the library")
            dialog = window.open_model_setup()
            dialog.resize(1000, 940)
            dialog.move(40, 20)
            setup = dialog.model_setup
            setup.find_button.click()
            await until(lambda: setup.use_button.isEnabled(), 30, "the models to be found")
            setup.use_button.click()
            for column in range(setup.found_model.columnCount()):
                setup.found_table.resizeColumnToContents(column)
            await asyncio.sleep(0.5)
            QApplication.processEvents()
            save(dialog, out, "07-models-found.png")

            setup.pull_name.setText(PULLED)
            setup.pull_button.click()
            await until(lambda: setup.pull_bar.value() >= 300 and "MB/s" in setup.pull_status.text(), 120,
                        "the pull to be under way")
            await asyncio.sleep(0.3)
            QApplication.processEvents()
            save(dialog, out, "08-pull.png")
            setup.cancel_button.click()
            await until(lambda: setup.pull_button.isEnabled(), 30, "the cancel")
            dialog.reject()
            window.close()
            await window.shutdown()

        with loop:
            loop.run_until_complete(scenario())


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"))
