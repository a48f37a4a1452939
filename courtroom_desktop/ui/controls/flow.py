"""A row of buttons that wraps: items laid left to right and onto the next line when the row is too narrow, so a row
of seven buttons asks for the width of its widest one, not of all seven (a window at 1280 pixels shows every label
whole). Qt has no such layout among its widgets; this is the height-for-width layout of Qt's flow-layout example."""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QSizePolicy, QStyle, QWidget


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, spacing: int = -1):
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        # sizes measured since Qt last invalidated the layout (a child shown, hidden, relabelled, restyled): Qt asks
        # for them many times per layout pass, each ask a call into Python (the window's thread's time)
        self._heights: dict[int, int] = {}    # width -> height for it
        self._sizes: dict[str, QSize] = {}     # "hint", "minimum"
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    # ---------------------------------------------------------------- QLayout
    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 (Qt's name)
        self._items.append(item)
        self._forget()

    def invalidate(self) -> None:
        self._forget()
        super().invalidate()

    def _forget(self) -> None:
        self._heights.clear()
        self._sizes.clear()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802
        self._forget()
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = self._place(QRect(0, 0, width, 0), move=False)
        return height

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:  # noqa: N802
        """All items on one line (what the row would like)."""
        if "hint" not in self._sizes:
            self._sizes["hint"] = self._one_line()
        return QSize(self._sizes["hint"])

    def _one_line(self) -> QSize:
        width = height = 0
        shown = self._shown()
        for item in shown:
            hint = item.sizeHint()
            width += hint.width()
            height = max(height, hint.height())
        width += max(len(shown) - 1, 0) * self._gap()
        margins = self.contentsMargins()
        return QSize(width + margins.left() + margins.right(), height + margins.top() + margins.bottom())

    def minimumSize(self) -> QSize:  # noqa: N802
        """The widest single item: everything else wraps."""
        if "minimum" not in self._sizes:
            self._sizes["minimum"] = self._widest()
        return QSize(self._sizes["minimum"])

    def _widest(self) -> QSize:
        size = QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize())
        margins = self.contentsMargins()
        return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    # ---------------------------------------------------------------- placing
    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items if not ((widget := item.widget()) is not None and widget.isHidden())]

    def _gap(self) -> int:
        if self._spacing >= 0:
            return self._spacing
        parent = self.parentWidget()
        if parent is None:
            return 6
        gap = parent.style().pixelMetric(QStyle.PixelMetric.PM_LayoutHorizontalSpacing, None, parent)
        return gap if gap >= 0 else parent.style().layoutSpacing(
            QSizePolicy.ControlType.PushButton, QSizePolicy.ControlType.PushButton, Qt.Orientation.Horizontal)

    def _place(self, rect: QRect, move: bool) -> int:
        """Lay the items out in ``rect`` (only measure unless ``move``); the height they take."""
        margins = self.contentsMargins()
        area = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        x, y, line = area.x(), area.y(), 0
        gap = self._gap()
        for item in self._shown():
            hint = item.sizeHint()
            width = min(hint.width(), max(area.width(), item.minimumSize().width()))
            if x > area.x() and x + width > area.right() + 1:
                x, y, line = area.x(), y + line + gap, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), QSize(width, hint.height())))
            x += width + gap
            line = max(line, hint.height())
        return y + line - rect.y() + margins.bottom()
