"""Widgets: they show models and call controllers; none awaits core code."""

from PySide6.QtWidgets import QPushButton


def push_button(text: str, tip: str = "", slot=None, name: str = "") -> QPushButton:
    """A push button with its tooltip, its clicked slot and the object name the tests and style sheets find it by."""
    button = QPushButton(text)
    if name:
        button.setObjectName(name)
    if tip:
        button.setToolTip(tip)
    if slot is not None:
        button.clicked.connect(slot)
    return button
