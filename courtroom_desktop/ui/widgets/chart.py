"""The judge's confidence per round, drawn with QPainter: one point per ruling coloured by its tendency, the
verdict threshold as a dashed line, and a marker where the sides switched."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from courtroom_desktop.ui.i18n import tr
from courtroom_desktop.ui.theme import accent

if TYPE_CHECKING:
    from courtroom_desktop.core.court.records import Ruling


@dataclass(frozen=True)
class Point:
    round: int
    confidence: float
    tendency: str  # support, refute, unclear


class ConfidenceChart(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.points: list[Point] = []
        self.switches: list[int] = []
        self.threshold = 0.0
        self.max_rounds = 0
        self.setMinimumHeight(72)  # a short laptop screen still shows the transcript
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setToolTip(tr("The judge's confidence after each round; colour: the tendency of the ruling"))
        self.setAccessibleName(tr("Confidence per round"))

    def sizeHint(self) -> QSize:
        return QSize(360, 150)

    def set_data(self, rulings: Iterable[Ruling], switches: Iterable[int], threshold: float = 0.0,
                 max_rounds: int = 0) -> None:
        self.points = [Point(r.round, float(r.ruling.confidence), r.ruling.tendency.value) for r in rulings]
        self.switches = list(switches)
        self.threshold = threshold
        self.max_rounds = max_rounds
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        dim = QColor(text)
        dim.setAlpha(110)
        grid = QColor(text)
        grid.setAlpha(35)
        font = QFont(self.font())
        font.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
        painter.setFont(font)
        metrics = painter.fontMetrics()

        left, top, right, bottom = metrics.horizontalAdvance("100%") + 10, metrics.height(), 12, metrics.height() + 8
        plot = QRectF(left, top, max(10, self.width() - left - right), max(10, self.height() - top - bottom))
        rounds = max([self.max_rounds, *(p.round for p in self.points), *self.switches, 1])

        def x_of(round_number: float) -> float:
            return plot.left() + (round_number - 0.5) / rounds * plot.width()

        def y_of(confidence: float) -> float:
            return plot.bottom() - confidence * plot.height()

        # axes and grid
        painter.setPen(QPen(grid, 1))
        for level in (0.0, 0.25, 0.5, 0.75, 1.0):
            y = y_of(level)
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
        painter.setPen(dim)
        for level in (0.0, 0.5, 1.0):
            label = f"{level:.0%}"
            painter.drawText(QRectF(0, y_of(level) - metrics.height() / 2, left - 6, metrics.height()),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), label)
        for number in range(1, rounds + 1):
            painter.drawText(QRectF(x_of(number) - 30, plot.bottom() + 3, 60, metrics.height()),
                             int(Qt.AlignmentFlag.AlignHCenter), tr("R{round}").format(round=number))

        if self.threshold > 0:
            pen = QPen(accent("judge", palette), 1, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            y = y_of(self.threshold)
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            painter.drawText(QRectF(plot.left() + 4, y - metrics.height() - 1, plot.width() - 8, metrics.height()),
                             int(Qt.AlignmentFlag.AlignLeft),
                             tr("verdict threshold {percent}").format(percent=f"{self.threshold:.0%}"))

        for round_number in self.switches:
            pen = QPen(accent("switch", palette), 1.5, Qt.PenStyle.DotLine)
            painter.setPen(pen)
            x = x_of(round_number + 0.5)
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
            painter.drawText(QRectF(x + 3, plot.top(), 60, metrics.height()), int(Qt.AlignmentFlag.AlignLeft), "\u21c4")

        if not self.points:
            painter.setPen(dim)
            painter.drawText(plot, int(Qt.AlignmentFlag.AlignCenter), tr("The judge's confidence appears after each round"))
            return

        path = QPainterPath()
        for i, point in enumerate(self.points):
            position = QPointF(x_of(point.round), y_of(point.confidence))
            if i == 0:
                path.moveTo(position)
            else:
                path.lineTo(position)
        painter.setPen(QPen(dim, 2))
        painter.drawPath(path)
        for point in self.points:
            color = accent(point.tendency, palette)
            painter.setPen(QPen(palette.color(QPalette.ColorRole.Base), 1.5))
            painter.setBrush(color)
            center = QPointF(x_of(point.round), y_of(point.confidence))
            painter.drawEllipse(center, 5.5, 5.5)
            painter.setPen(color)
            painter.drawText(QRectF(center.x() - 30, center.y() - metrics.height() - 8, 60, metrics.height()),
                             int(Qt.AlignmentFlag.AlignHCenter), f"{point.confidence:.0%}")
        painter.end()
