"""Application start: a QApplication on a qasync event loop and the main window."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

from courtroom_desktop import APP_ID, APP_NAME, __version__


class MainWindow(QMainWindow):
    def __init__(self, config_dir: Path, data_dir: Path):
        super().__init__()
        self.config_dir = config_dir
        self.data_dir = data_dir
        self.setWindowTitle(f"{APP_NAME} {__version__}")
        self.resize(1200, 800)
        label = QLabel(f"{APP_NAME}\n\nLibrary: {data_dir / 'library'}\nUse `courtroom ingest` to add PDFs.")
        label.setObjectName("placeholder")
        self.setCentralWidget(label)


def run_app(config_dir: Path, data_dir: Path, argv: list[str] | None = None) -> int:
    import asyncio

    import qasync

    app = QApplication.instance() or QApplication(argv or sys.argv[:1])
    app.setApplicationName(APP_ID)
    app.setApplicationDisplayName(APP_NAME)
    window = MainWindow(config_dir, data_dir)
    window.show()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    closed = asyncio.Event()
    app.aboutToQuit.connect(closed.set)
    with loop:
        loop.run_until_complete(closed.wait())
    return 0
