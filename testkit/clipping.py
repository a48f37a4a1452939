"""Text a person cannot read in full: every visible widget of a window walked, each label, button, tab, check box,
combo box and line edit's placeholder measured with its own font against the room its widget gives it.

    clipped(window) -> list[Clip]     empty when every visible text fits

A widget that elides on purpose (a QLabel whose text was elided by the app keeps the whole text as its tooltip) or
wraps (word-wrapped labels) is measured accordingly; rich-text labels are measured by their document's ideal width.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFontMetrics, QTextDocument
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import (
    QAbstractButton,
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QStyle,
    QStyleOptionButton,
    QStyleOptionComboBox,
    QTabBar,
    QTextEdit,
    QToolButton,
    QWidget,
)


@dataclass(frozen=True)
class Clip:
    widget: str  # class and object name, and its path of parents
    text: str
    needs: int  # pixels the text needs
    has: int  # pixels it is given

    def __str__(self) -> str:
        return f"{self.widget}: {self.text!r} needs {self.needs}px, has {self.has}px"


def _name(widget: QWidget) -> str:
    parts = []
    current: QWidget | None = widget
    while current is not None and len(parts) < 4:
        parts.append(f"{type(current).__name__}#{current.objectName()}" if current.objectName()
                     else type(current).__name__)
        current = current.parentWidget()
    return " < ".join(parts)


def _shown(widget: QWidget) -> bool:
    if not widget.isVisible() or widget.width() <= 0 or widget.height() <= 0:
        return False
    region = widget.visibleRegion()
    return not region.isEmpty()


def _text_width(metrics: QFontMetrics, text: str) -> int:
    return max((metrics.horizontalAdvance(line) for line in text.replace("&&", "\0").replace("&", "")
                .replace("\0", "&").split("\n")), default=0)


def _label(label: QLabel) -> Clip | None:
    text = label.text()
    if not text or label.wordWrap() or label.pixmap() is not None and not label.pixmap().isNull():
        return None
    room = label.contentsRect().width() - 2 * label.margin() - 2 * max(label.indent(), 0)
    if GuiQt.mightBeRichText(text) or label.textFormat() == Qt.TextFormat.RichText:
        document = QTextDocument()
        document.setDefaultFont(label.font())
        document.setHtml(text)
        document.setDocumentMargin(0)
        needs = int(document.idealWidth())
    else:
        if label.toolTip() and label.toolTip() != text and text.endswith("\u2026"):
            return None  # elided by the app on purpose; the tooltip holds the whole text
        needs = _text_width(label.fontMetrics(), text)
    return Clip(_name(label), text, needs, room) if needs > room + 1 else None


def _button(button: QAbstractButton) -> Clip | None:
    text = button.text()
    if not text:
        return None
    if isinstance(button, QToolButton) and button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly:
        return None
    metrics = button.fontMetrics()
    needs = _text_width(metrics, text)
    style = button.style()
    if isinstance(button, (QCheckBox, QRadioButton)):
        indicator = style.pixelMetric(QStyle.PixelMetric.PM_IndicatorWidth if isinstance(button, QCheckBox)
                                      else QStyle.PixelMetric.PM_ExclusiveIndicatorWidth, None, button)
        spacing = style.pixelMetric(QStyle.PixelMetric.PM_CheckBoxLabelSpacing, None, button)
        room = button.width() - indicator - spacing
    elif isinstance(button, QPushButton):
        option = QStyleOptionButton()
        button.initStyleOption(option)
        icon = button.iconSize().width() + 4 if not button.icon().isNull() else 0
        # the room is what the style gives the contents of a button this wide
        full = style.sizeFromContents(QStyle.ContentsType.CT_PushButton, option, QSize(needs + icon, 0), button)
        padding = full.width() - needs - icon
        room = button.width() - padding - icon
    else:  # a tool button showing its text
        icon = 0
        if button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon and not button.icon().isNull():
            icon = button.iconSize().width() + 4
        room = button.width() - icon - 6
    return Clip(_name(button), text, needs, room) if needs > room + 1 else None


def _tabs(bar: QTabBar) -> list[Clip]:
    clips = []
    metrics = bar.fontMetrics()
    for index in range(bar.count()):
        if not bar.isTabVisible(index):
            continue
        text = bar.tabText(index)
        room = bar.tabRect(index).width() - 12 - (bar.iconSize().width() + 4 if not bar.tabIcon(index).isNull() else 0)
        if bar.tabButton(index, QTabBar.ButtonPosition.RightSide) is not None:
            room -= bar.tabButton(index, QTabBar.ButtonPosition.RightSide).width()
        needs = _text_width(metrics, text)
        if text and needs > room + 1:
            clips.append(Clip(_name(bar) + f" tab {index}", text, needs, room))
    return clips


def _combo(combo: QComboBox) -> Clip | None:
    text = combo.currentText() if not combo.isEditable() else ""
    if not text:
        line = combo.lineEdit()
        if line is not None and not line.text() and line.placeholderText():
            return _placeholder(line, owner=combo)
        return None
    option = QStyleOptionComboBox()
    combo.initStyleOption(option)
    field = combo.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                         QStyle.SubControl.SC_ComboBoxEditField, combo)
    needs = _text_width(combo.fontMetrics(), text)
    icon = combo.iconSize().width() + 4 if not combo.itemIcon(combo.currentIndex()).isNull() else 0
    room = field.width() - icon
    return Clip(_name(combo), text, needs, room) if needs > room + 1 else None


def _placeholder(line: QLineEdit, owner: QWidget | None = None) -> Clip | None:
    text = line.placeholderText()
    if line.text() or not text:
        return None
    margins = line.textMargins()
    room = line.width() - margins.left() - margins.right() - 8
    needs = _text_width(line.fontMetrics(), text)
    return Clip(_name(owner or line) + " placeholder", text, needs, room) if needs > room + 1 else None


def _wrapped_placeholder(view: QTextEdit) -> Clip | None:
    """A text view that draws its own wrapped placeholder (the transcript): all of its lines fit the view's height."""
    text = getattr(view, "placeholder", "")
    if not text or not view.document().isEmpty():
        return None
    margin = int(view.document().documentMargin())
    room = view.viewport().rect().adjusted(margin, margin, -margin, -margin)
    needs = view.fontMetrics().boundingRect(room, int(Qt.TextFlag.TextWordWrap), text)
    return Clip(_name(view) + " placeholder", text, needs.height(), room.height()) if needs.height() > room.height() \
        else None


def clipped(window: QWidget) -> list[Clip]:
    """Every visible text in ``window`` that does not fit its widget."""
    clips: list[Clip] = []
    for widget in [window, *window.findChildren(QWidget)]:
        if not _shown(widget):
            continue
        found: Clip | None = None
        if isinstance(widget, QLabel):
            found = _label(widget)
        elif isinstance(widget, QAbstractButton):
            found = _button(widget)
        elif isinstance(widget, QTabBar):
            clips.extend(_tabs(widget))
        elif isinstance(widget, QComboBox):
            found = _combo(widget)
        elif isinstance(widget, QLineEdit) and not isinstance(widget.parentWidget(), QComboBox):
            found = _placeholder(widget)
        elif isinstance(widget, QTextEdit):
            found = _wrapped_placeholder(widget)
        if found is not None:
            clips.append(found)
    return clips
