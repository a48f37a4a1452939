"""The focus ring: a 2-pixel outline in the palette's highlight colour drawn around whichever control has the keyboard
focus, in every window and dialog, so that focus is always visible (#49; WCAG 2.4.7).

Styles draw their own focus cues unevenly: Fusion draws none on a push button, a table, a text browser or a tab bar
until the window has seen a keyboard focus change, and none at all on some of them. The ring does not depend on the
style: one transparent widget, laid over the focused control's window above its other children, follows the focus
(``QApplication.focusChanged``) and the control's moves and resizes, and lets every mouse event through.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QApplication, QWidget

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
    leaves for nothing, a menu or a popup."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self._target: QWidget | None = None
        self._watched: list[QWidget] = []
        self._rings: dict[int, FocusRing] = {}
        app.focusChanged.connect(self._on_focus)

    def ring_of(self, window: QWidget) -> FocusRing:
        ring = self._rings.get(id(window))
        if ring is None or ring.parent() is not window:
            ring = FocusRing(window)
            key = id(window)
            self._rings[key] = ring
            window.destroyed.connect(lambda _=None: self._rings.pop(key, None))
        return ring

    @property
    def target(self) -> QWidget | None:
        return self._target

    def _on_focus(self, _old: QWidget | None, new: QWidget | None) -> None:
        for watched in self._watched:
            try:
                watched.removeEventFilter(self)
            except RuntimeError:  # deleted meanwhile
                pass
        self._watched = []
        for ring in list(self._rings.values()):
            try:
                ring.hide()
            except RuntimeError:
                pass
        self._target = None
        if new is None or isinstance(new, FocusRing):
            return
        window = new.window()
        if window is new or window.windowType() in (Qt.WindowType.Popup, Qt.WindowType.ToolTip):
            return  # a window itself, a menu or a completer's list: they draw their own current item
        self._target = new
        widget: QWidget | None = new
        while widget is not None and widget is not window:  # its moves, and those of what holds it (scrolling)
            widget.installEventFilter(self)
            self._watched.append(widget)
            widget = widget.parentWidget()
        self._place()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() in _GEOMETRY_EVENTS and self._target is not None:
            self._place()
        return False

    def _place(self) -> None:
        target = self._target
        if target is None:
            return
        try:
            window = target.window()
            ring = self.ring_of(window)
            shown = visible_part(target, window)
            if not target.isVisible() or shown.isEmpty():
                ring.hide()
                return
            margin = GAP + WIDTH
            ring.setGeometry(shown.adjusted(-margin, -margin, margin, margin))
            ring.raise_()
            ring.show()
            ring.update()
        except RuntimeError:  # the control or its window was deleted
            self._target = None


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
