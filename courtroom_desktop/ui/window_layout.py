"""The main window's remembered layout: its geometry and toolbar state, the sizes of its three splitters and the left
tab, kept in QSettings between runs; and the first sizes that "Reset the layout" goes back to."""

from __future__ import annotations

from PySide6.QtWidgets import QSplitter

FIRST_SIZES = {"main": [360, 660, 520], "courtroom": [640, 170], "inspector": [200, 640]}


def splitters(window) -> dict[str, QSplitter]:
    return {"main": window.splitter, "courtroom": window.courtroom.splitter, "inspector": window.inspector.splitter}


def reset(window) -> None:
    for key, splitter in splitters(window).items():
        splitter.setSizes(FIRST_SIZES[key])


def restore(window) -> None:
    s = window.settings
    geometry = s.value("window/geometry")
    if geometry is not None:
        window.restoreGeometry(geometry)
    state = s.value("window/state")
    if state is not None:
        window.restoreState(state)
    for key, splitter in splitters(window).items():
        value = s.value(f"splitters/{key}")
        if value is not None:
            splitter.restoreState(value)
    window.left_tabs.setCurrentIndex(int(s.value("window/left_tab", 0, type=int)))


def save(window) -> None:
    s = window.settings
    s.setValue("window/geometry", window.saveGeometry())
    s.setValue("window/state", window.saveState())
    for key, splitter in splitters(window).items():
        s.setValue(f"splitters/{key}", splitter.saveState())
    s.setValue("window/left_tab", window.left_tabs.currentIndex())
    s.sync()
