"""The focus ring: a 2-pixel outline in the palette's highlight colour drawn around whichever control has the keyboard
focus, in every window and dialog, so that focus is always visible (#49; WCAG 2.4.7).

Styles draw their own focus cues unevenly: Fusion draws none on a push button, a table, a text browser or a tab bar
until the window has seen a keyboard focus change, and none at all on some of them. The ring does not depend on the
style: one transparent widget, laid over the focused control's window above its other children, follows the focus
(``QApplication.focusChanged``) and the control's moves and resizes, and lets every mouse event through.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QTimer
from PySide6.QtGui import QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QApplication, QWidget
from shiboken6 import isValid

WIDTH = 2  # the ring's pen, in device-independent pixels
GAP = 1  # between the control and the ring

_GEOMETRY_EVENTS = (QEvent.Type.Move, QEvent.Type.Resize, QEvent.Type.Show, QEvent.Type.Hide,
                    QEvent.Type.ParentChange, QEvent.Type.ZOrderChange)  # of the control or what holds it


class FocusRing(QWidget):
    """The outline itself, a child of the focused control's window (created and moved by ``FocusRingTracker``)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("focusRing")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(self.palette().color(QPalette.ColorRole.Highlight), WIDTH)
        painter.setPen(pen)
        half = WIDTH / 2
        painter.drawRoundedRect(self.rect().toRectF().adjusted(half, half, -half, -half), 3, 3)
        painter.end()


class FocusRingTracker(QObject):
    """Follows the application's focus: one ring per window, shown around the focused control, hidden when the focus
    leaves for nothing, a menu or a popup.

    ``focusChanged`` and the event filter only note what happened and ask for a refresh on the next turn of the event
    loop: both are also called while a window is being torn down (its focused child loses the focus, its children are
    hidden), when touching its widgets would touch half-destroyed objects. The refresh touches only widgets that are
    still whole (``shiboken6.isValid``)."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self._target: QWidget | None = None
        self._watched: list[QWidget] = []
        self._rings: list[FocusRing] = []
        self._pending = False
        app.focusChanged.connect(self._on_focus)

    def _on_focus(self, _old: QWidget | None, new: QWidget | None) -> None:
        self._target = new
        self._refresh_soon()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() in _GEOMETRY_EVENTS:
            self._refresh_soon()
        return False

    def _refresh_soon(self) -> None:
        if not self._pending:
            self._pending = True
            QTimer.singleShot(0, self._refresh)

    def _refresh(self) -> None:
        self._pending = False
        target = self._target if self._target is not None and isValid(self._target) else None
        window = target.window() if target is not None else None
        if target is None or window is None or window is target or isinstance(target, FocusRing) or \
                window.windowType() in (Qt.WindowType.Popup, Qt.WindowType.ToolTip):
            target = window = None  # none, a window itself, a menu or a completer's list: they draw their own item
        self._watch(target, window)
        self._rings = [ring for ring in self._rings if isValid(ring)]
        for other in self._rings:
            if other.parentWidget() is not window:
                other.hide()
        if target is None or window is None:
            return
        ring: FocusRing | None = next((r for r in self._rings if r.parentWidget() is window), None)
        if ring is None:
            ring = FocusRing(window)
            self._rings.append(ring)
        shown = visible_part(target, window)
        if not target.isVisible() or shown.isEmpty():
            ring.hide()
            return
        margin = GAP + WIDTH
        ring.setGeometry(shown.adjusted(-margin, -margin, margin, margin))
        ring.raise_()
        ring.show()
        ring.update()

    def _watch(self, target: QWidget | None, window: QWidget | None) -> None:
        """Filter the moves of ``target`` and of what holds it up to its window (scrolling moves a holder), and no
        longer those of the controls that had the focus before."""
        chain: list[QWidget] = []
        widget = target
        while widget is not None and widget is not window:
            chain.append(widget)
            widget = widget.parentWidget()
        for old in self._watched:
            if old not in chain and isValid(old):
                old.removeEventFilter(self)
        for widget in chain:
            if widget not in self._watched:
                widget.installEventFilter(self)
        self._watched = chain


def visible_part(widget: QWidget, window: QWidget) -> QRect:
    """The part of ``widget`` its ancestors let be seen (a control scrolled partly out of view), in ``window``'s
    coordinates; empty when none is."""
    rect = QRect(widget.mapTo(window, widget.rect().topLeft()), widget.size())
    holder = widget.parentWidget()
    while holder is not None and holder is not window:
        rect = rect.intersected(QRect(holder.mapTo(window, holder.rect().topLeft()), holder.size()))
        holder = holder.parentWidget()
    return rect


_tracker: FocusRingTracker | None = None


def install(app: QApplication) -> FocusRingTracker:
    """The application's focus ring (made once)."""
    global _tracker
    if _tracker is None or _tracker.parent() is not app:
        _tracker = FocusRingTracker(app)
    return _tracker
