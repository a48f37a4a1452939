"""The window at the size it picks for the screen it opens on, for docs/screenshots/fit-*.png (issue #32; run by
scripts/screenshots_fit.sh, one Xvfb screen per size):

    python scripts/screenshots_fit.py OUT_DIR NAME        e.g. docs/screenshots fit-1280x720.png

A fresh config and data folder; the window sizes and places itself (window_layout.fit_to_screen: nothing here
resizes or moves it), the sample library (resources/samples) is added as "Add the sample library" does, and once
the six documents are ready the whole X screen is grabbed (ImageMagick's ``import -window root``), so the picture
shows the window against the screen. With FIT_FIRST_RUN=1 the first run (its welcome banner) is grabbed too, as
NAME with "-first-run" before ".png"; with FIT_FAILURES=1, three files the library turns away are added after the
samples and the window grabbed again ("-failures"). The window's geometry, the screen's and the scaling are printed, and the
window's position and size in pixels as the X server has them (xdotool, when installed).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

from screenshots import settle, until  # noqa: E402


def root_window(path: Path) -> None:
    """The whole X screen, at its pixels (with Qt's scaling, twice the window's logical size)."""
    if not shutil.which("import") or not os.environ.get("DISPLAY"):
        raise SystemExit("needs ImageMagick's import and an X display (run scripts/screenshots_fit.sh)")
    subprocess.run(["import", "-window", "root", str(path)], check=True, timeout=120)
    print(f"saved {path}", flush=True)


def geometry(window) -> str:
    screen = window.screen()
    frame, available = window.frameGeometry(), screen.availableGeometry()
    ratio = screen.devicePixelRatio()
    inside = available.contains(frame)
    return (f"screen {screen.geometry().width()}x{screen.geometry().height()} logical at {ratio:g}x "
            f"(available {available.width()}x{available.height()}+{available.x()}+{available.y()}); "
            f"window {frame.width()}x{frame.height()}+{frame.x()}+{frame.y()} logical = "
            f"{round(frame.width() * ratio)}x{round(frame.height() * ratio)} pixels; "
            f"{'within' if inside else 'NOT within'} the screen")


def x_geometry(window) -> str:
    """The window as the X server has it, in pixels (xdotool, when it is there)."""
    if not shutil.which("xdotool"):
        return "no xdotool"
    done = subprocess.run(["xdotool", "getwindowgeometry", str(int(window.winId()))], capture_output=True, text=True,
                          timeout=30, check=False)
    return " ".join(done.stdout.split()[2:]) or done.stderr.strip()


def failing_files(folder: Path) -> list[Path]:
    """Three files the library turns away, each for its own reason: an encrypted PDF, an empty file, and a text
    file named .pdf."""
    import pymupdf

    folder.mkdir(parents=True, exist_ok=True)
    document = pymupdf.open()
    document.new_page().insert_text((72, 72), "A report behind a password.")
    document.save(str(folder / "locked-report.pdf"), encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw",
                  owner_pw="pw")
    document.close()
    (folder / "empty-notes.pdf").write_bytes(b"")
    (folder / "minutes.pdf").write_text("not a PDF at all", encoding="utf-8")
    return [folder / "locked-report.pdf", folder / "empty-notes.pdf", folder / "minutes.pdf"]


def main(out: Path, name: str) -> None:
    from PySide6.QtCore import QSettings

    from courtroom_desktop.core.config import AppConfig, save_config
    from courtroom_desktop.ui.app import create_window, make_application
    from courtroom_desktop.ui.tasks import make_event_loop

    out.mkdir(parents=True, exist_ok=True)
    app = make_application()
    app.setQuitOnLastWindowClosed(False)
    loop = make_event_loop(app)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        save_config(AppConfig(), tmp / "config")
        settings = QSettings(str(tmp / "ui.ini"), QSettings.Format.IniFormat)
        window = create_window(tmp / "config", tmp / "data", settings)  # sizes itself: no resize, no move

        async def scenario():
            window.show()
            window.start_background()
            await until(lambda: window.workspace.library_open and not window.library.tasks.running, 120, "the library")
            await settle(1.0)
            print("first run:", geometry(window), flush=True)
            if os.environ.get("FIT_FIRST_RUN") == "1":
                root_window(out / name.replace(".png", "-first-run.png"))

            window.show_library()
            if window.add_samples() is None:
                raise SystemExit("the sample library is missing (resources/samples)")
            await until(lambda: len(window.library.ready_documents()) == 6 and not window.library.busy, 900,
                        "the sample library")
            await settle(1.5)
            print("samples ready:", geometry(window), flush=True)
            print("X server:", x_geometry(window), flush=True)
            root_window(out / name)
            if os.environ.get("FIT_FAILURES") == "1":
                window.library.ingest(failing_files(tmp))
                await until(lambda: not window.library.busy and sum(r.status == "failed" for r in window.documents_model.rows()) >= 3, 120,
                            "the failed files")
                sizes = window.splitter.sizes()  # the library panel widened, as a person would drag it, to read why
                window.splitter.setSizes([sizes[0] + sizes[2] // 2 + 200, sizes[1] - 200, sizes[2] // 2])
                table = window.library_panel.table
                table.horizontalScrollBar().setValue(table.horizontalScrollBar().maximum())
                await settle(1.5)
                root_window(out / name.replace(".png", "-failures.png"))

            window.close()
            await window.shutdown()

        with loop:
            loop.run_until_complete(scenario())


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]), sys.argv[2])
