"""The main window's remembered layout: its geometry and toolbar state, the sizes of its three splitters and the left
tab, kept in QSettings between runs; the first sizes that "Reset the layout" goes back to; and the first size of any
window or dialog, which fits the screen it opens on."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QByteArray, QRect, QSettings, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QSplitter, QTabWidget, QWidget

FIRST_WINDOW = QSize(1480, 900)
SCREEN_SHARE = 0.92  # of the available area a first window takes at most, so its frame and title bar fit too


def fitted(wanted: QSize, available: QRect) -> QRect:
    """A window of about ``wanted`` placed within ``available`` (a screen's area less its task bars): as wanted when it
    fits, else cut to ``SCREEN_SHARE`` of the area in each direction that does not, centred."""
    width = min(wanted.width(), int(available.width() * SCREEN_SHARE))
    height = min(wanted.height(), int(available.height() * SCREEN_SHARE))
    rect = QRect(0, 0, width, height)
    rect.moveCenter(available.center())
    return rect


def fit_to_screen(widget: QWidget, width: int, height: int) -> None:
    """Size ``widget`` (a window or dialog not yet shown) to about ``width`` x ``height``, within the available area
    of the screen it will open on (its parent's, else the primary one)."""
    parent = widget.parentWidget()
    screen = (parent.screen() if parent is not None else None) or QGuiApplication.primaryScreen()
    if screen is None:
        widget.resize(width, height)
        return
    available = screen.availableGeometry()
    rect = fitted(QSize(width, height), available)
    # a window whose least size is larger than that (the system font at twice its size) gets its least size, placed
    # so that it stays on the screen: Qt would centre it on its parent and let it run off the edge
    size = rect.size().expandedTo(widget.minimumSizeHint()).boundedTo(available.size())
    widget.resize(size)
    if parent is None or size != rect.size():
        placed = QRect(rect.topLeft(), size)
        placed.moveCenter(available.center())
        widget.move(placed.topLeft())

FIRST_SIZES = {"main": [360, 660, 520], "courtroom": [640, 170], "inspector": [200, 640]}


class _Split(Protocol):
    @property
    def splitter(self) -> QSplitter: ...


class LaidOut(Protocol):
    """The main window as its layout sees it (ui/window.py's MainWindow, which this module must not import)."""

    @property
    def settings(self) -> QSettings: ...
    @property
    def splitter(self) -> QSplitter: ...
    @property
    def courtroom(self) -> _Split: ...
    @property
    def inspector(self) -> _Split: ...
    @property
    def left_tabs(self) -> QTabWidget: ...
    def saveGeometry(self, /) -> QByteArray: ...  # noqa: N802 - Qt's names
    def restoreGeometry(self, geometry: QByteArray | bytes | bytearray | memoryview, /) -> bool: ...  # noqa: N802
    def saveState(self, /, version: int | None = ...) -> QByteArray: ...  # noqa: N802
    def restoreState(self, state: QByteArray | bytes | bytearray | memoryview, /,  # noqa: N802
                     version: int | None = ...) -> bool: ...


def splitters(window: LaidOut) -> dict[str, QSplitter]:
    return {"main": window.splitter, "courtroom": window.courtroom.splitter, "inspector": window.inspector.splitter}


def reset(window: LaidOut) -> None:
    for key, splitter in splitters(window).items():
        splitter.setSizes(FIRST_SIZES[key])


def restore(window: LaidOut) -> None:
    s = window.settings
    geometry = s.value("window/geometry")
    if geometry is not None:
        window.restoreGeometry(geometry)
    state = s.value("window/state")
    if state is not None:
        window.restoreState(state)
    tab = s.value("window/left_tab", 0, type=int)
    window.left_tabs.setCurrentIndex(tab if isinstance(tab, int) else 0)


def restore_splits(window: LaidOut) -> None:
    """The splitters as they were left: once the window is laid out at its size (on its first show), or the room a
    splitter gains between its default size and the window's would be shared out by stretch factors, not kept."""
    s = window.settings
    for key, splitter in splitters(window).items():
        value = s.value(f"splitters/{key}")
        if value is not None:
            splitter.restoreState(value)


def save(window: LaidOut) -> None:
    s = window.settings
    s.setValue("window/geometry", window.saveGeometry())
    s.setValue("window/state", window.saveState())
    for key, splitter in splitters(window).items():
        s.setValue(f"splitters/{key}", splitter.saveState())
    s.setValue("window/left_tab", window.left_tabs.currentIndex())
    s.sync()
