"""Application start: a QApplication on a qasync event loop and the main window.

The window must appear within two seconds, so nothing heavy is imported here: the library's stores, the embedding
model (torch, sentence-transformers) and llama.cpp load in worker threads after the window shows.

``COURTROOM_UI_SMOKE=1`` opens the window, prints one JSON line (seconds from process start to the window shown,
and which heavy modules were imported by then) and quits: the start-up benchmark and a test use it.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from courtroom_desktop import APP_ID, APP_NAME, __version__
from courtroom_desktop.ui import collector
from courtroom_desktop.ui.i18n import tr

if TYPE_CHECKING:
    from courtroom_desktop.core.config import AppConfig
    from courtroom_desktop.core.services.trials import Workspace
    from courtroom_desktop.ui.window import MainWindow

ICON = Path(__file__).resolve().parents[2] / "resources" / "icons" / "courtroom.svg"
HEAVY_MODULES = ("torch", "sentence_transformers", "lancedb", "llama_cpp", "tantivy", "langchain_core", "pymupdf")


def _process_age() -> float:
    """Seconds since this process started (from /proc where there is one)."""
    try:
        with open(f"/proc/{os.getpid()}/stat", encoding="ascii") as fh:
            start_ticks = int(fh.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as fh:
            uptime = float(fh.read().split()[0])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.perf_counter()


def reserve_a_core_for_the_window() -> int:
    """Model threads default to one fewer than the cores, so the event loop always finds a free core: measured on two
    cores, llama.cpp with two threads delayed even an idle process by 120 ms, with one thread by 30 ms, and the trial
    got faster. Applies only where the user has not chosen (COURTROOM_LLAMA_THREADS, OMP_NUM_THREADS)."""
    threads = max(1, (os.cpu_count() or 2) - 1)
    os.environ.setdefault("COURTROOM_LLAMA_THREADS", str(threads))
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))  # torch's intra-op pool, read when torch loads
    return threads


#: How long a worker thread running Python may keep the global interpreter lock while the GUI thread waits for it.
#: Every Qt callback into Python (a timer, a signal, the asyncio loop's own step) has to take the lock; at Python's
#: default of 5 ms one turn of the event loop can queue behind busy workers several times. `bench/gil_switch.py`
#: compares the intervals under load (figures in docs/ui.md).
GIL_SWITCH_INTERVAL_S = 0.0002


def make_application(argv: list[str] | None = None) -> QApplication:
    reserve_a_core_for_the_window()
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)
    collector.defer_full_collections()  # until the first preload is done (ui/collector.py)
    app = QApplication.instance() or QApplication(argv or sys.argv[:1])
    assert isinstance(app, QApplication)  # the window's process makes a QApplication, never a bare QCoreApplication
    app.setOrganizationName(APP_ID)
    app.setApplicationName(APP_ID)
    app.setApplicationDisplayName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_ID)  # the installed launcher, courtroom-desktop.desktop: docks match the window to it
    if ICON.is_file():
        from PySide6.QtGui import QIcon

        app.setWindowIcon(QIcon(str(ICON)))
    return app


def create_window(config_dir: Path, data_dir: Path, settings: QSettings | None = None, config: AppConfig | None = None,
                  workspace: Workspace | None = None) -> MainWindow:
    """The main window over a workspace (its library opens in the background once ``start_background`` runs).
    A settings file that does not validate is reported in the window, and the defaults are used meanwhile."""
    from courtroom_desktop.core.config import load_config
    from courtroom_desktop.core.errors import ConfigError
    from courtroom_desktop.ui import theme
    from courtroom_desktop.ui.controllers.workspace import WorkspaceController
    from courtroom_desktop.ui.window import MainWindow

    problem = None
    if config is None and workspace is None:
        try:
            config = load_config(Path(config_dir))
        except ConfigError as exc:
            problem = str(exc)
            from courtroom_desktop.core.config import AppConfig

            config = AppConfig()
    settings = settings or QSettings()
    from courtroom_desktop.ui import i18n

    app = QApplication.instance()
    assert isinstance(app, QApplication)  # made by make_application (or by the tests) before any window
    i18n.install(app, settings)  # before any widget is made: every tr() reads it
    theme.apply_appearance(app, str(settings.value("appearance", "system", type=str)))
    from courtroom_desktop.ui import focus_ring

    focus_ring.install(app)  # focus always visible, whatever the style draws
    controller = WorkspaceController(config_dir, data_dir, config, workspace)
    window = MainWindow(controller, settings)
    if problem:
        window.notice.show_error(tr("Settings"), problem, tr("fix the file, or open Settings and press OK to rewrite it"))
    return window


def use_embedding_child() -> None:
    """The window runs an ONNX embedding model in a child process (``core/library/embed/child.py``): loading it in
    the window's process held the interpreter lock 60 to 200 ms in one piece (onnxruntime's import, the tokenizer)."""
    from courtroom_desktop.core.services.library import use_embedding_child as use

    use(True)


def _remembered_data_dir(data_dir: Path, settings: QSettings) -> Path:
    """The data folder chosen in Settings, unless a flag or the environment named one for this run."""
    from courtroom_desktop.core.config import data_dir as default_data_dir

    chosen = str(settings.value("paths/data_dir", "", type=str))
    if chosen and not os.environ.get("COURTROOM_DATA_DIR") and Path(data_dir) == default_data_dir():
        return Path(chosen)
    return Path(data_dir)


def run_app(config_dir: Path, data_dir: Path, argv: list[str] | None = None) -> int:
    import asyncio
    import json

    from courtroom_desktop.ui.tasks import make_event_loop

    app = make_application(argv)
    settings = QSettings()
    use_embedding_child()
    window = create_window(config_dir, _remembered_data_dir(data_dir, settings), settings)
    loop = make_event_loop(app)
    closed = asyncio.Event()
    app.aboutToQuit.connect(closed.set)
    smoke = os.environ.get("COURTROOM_UI_SMOKE") == "1"

    def shown() -> None:
        if smoke:
            heavy = sorted(m for m in HEAVY_MODULES if m in sys.modules)
            print(json.dumps({"shown_s": round(_process_age(), 3), "heavy_modules": heavy}), flush=True)
            window.close()
            app.quit()
            return
        window.start_background()

    window.sig_shown.connect(shown)
    window.show()
    with loop:
        loop.run_until_complete(closed.wait())
        loop.run_until_complete(window.shutdown())
    return 0
