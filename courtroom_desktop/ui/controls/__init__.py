"""The building blocks the widgets and the dialogs share: a push button, a table of records, a panel over a table, a
control's accessible name, and the row that wraps (``flow``). Below both: they import nothing else of the ui."""

from collections.abc import Callable, Iterable
from typing import TypeVar

from PySide6.QtCore import QAbstractItemModel, SignalInstance
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from courtroom_desktop.ui.controls.flow import FlowLayout

W = TypeVar("W", bound=QWidget)


def named(widget: W, name: str, description: str = "") -> W:
    """``widget`` with the accessible name a screen reader announces (already translated: the caller's ``tr``) and,
    where the name is not enough, its description; an editable combo box's own text field gets the same name (the
    accessibility tree shows it apart). See docs/ui.md, Accessibility."""
    widget.setAccessibleName(name)
    if description:
        widget.setAccessibleDescription(description)
    line = widget.lineEdit() if isinstance(widget, QComboBox) else None
    if line is not None:
        line.setAccessibleName(name)
        if description:
            line.setAccessibleDescription(description)
    return widget


def push_button(text: str, tip: str = "", slot: Callable[..., object] | SignalInstance | None = None,
                name: str = "") -> QPushButton:
    """A push button with its tooltip, its clicked slot and the object name the tests and style sheets find it by."""
    button = QPushButton(text)
    if name:
        button.setObjectName(name)
    if tip:
        button.setToolTip(tip)
    if slot is not None:
        button.clicked.connect(slot)
    return button


def record_table(model: QAbstractItemModel, name: str, widths: Iterable[int] = (), single: bool = False) -> QTableView:
    """A read-only table of records, one a row: whole rows are selected (several at once unless ``single``), no row
    numbers, alternating colours, one line a row, columns the person resizes (the last one takes the rest room);
    ``widths`` are the first columns' widths."""
    table = QTableView()
    table.setTabKeyNavigation(False)  # the arrows move between cells; Tab moves on to the next control
    table.setObjectName(name)
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection if single
                           else QAbstractItemView.SelectionMode.ExtendedSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(True)
    for column, width in enumerate(widths):
        table.setColumnWidth(column, width)
    return table


def table_panel(panel: QWidget, buttons: Iterable[QWidget], table: QTableView, empty: QLabel,
                right: Iterable[QWidget] = ()) -> QVBoxLayout:
    """The column of a panel over a table: its buttons in a row that wraps when the panel is narrow (``right`` ones
    last), the table taking the room, and below it the line shown while the table is empty. More can be added below."""
    row = FlowLayout()
    for button in (*buttons, *right):
        row.addWidget(button)
    column = QVBoxLayout(panel)
    column.setContentsMargins(4, 4, 4, 4)
    column.addLayout(row)
    column.addWidget(table, 1)
    column.addWidget(empty)
    return column
