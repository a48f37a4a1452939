"""Interactive controls a screen reader would announce without a name, found through Qt's own accessibility API
(``QAccessible.queryAccessibleInterface``, then ``child(i)`` / ``childCount()``, ``role()``,
``text(QAccessible.Text.Name)``, ``state()``): the tree Qt hands to AT-SPI on Linux, UIA on Windows and
NSAccessibility on macOS, so what is checked is what they are given.

    unnamed(window) -> list[str]      one line per unnamed interactive control ("Role Class#name in A > B"), or []
    unnamed_on_every_tab(window)      the same with every page of every tab widget brought to the front in turn
    controls(window) -> list[(role, name, where)]   every interactive control the walk met, named or not

What counts as interactive: buttons (push, tool, menu and drop-down buttons), check boxes, radio buttons, combo boxes,
text fields and text views (line edits, text edits, text browsers: the transcript), spin boxes, sliders and dials,
tabs of a tab bar, list, tree and table views (the view itself), their items and cells, and menu items (of the menu
bar and of every menu under it, open or not: a screen reader reads them when the menu opens). A cell or item is named
by its own text or by its column's header; a view, by its accessible name or a label whose buddy it is.

Which controls are walked: what is shown. A control that is hidden (its ``invisible`` state) is skipped with what is
under it, as AT clients skip it; the states a window passes through (tests/ui/fit_driver.py) show each control in turn.
A control that is shown but disabled is checked all the same: a screen reader still reads it ("Export, unavailable").
A menu's items are checked whether the menu is open or not (an item is skipped only if its action is hidden), and a
menu separator is not a control."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAccessibleInterface, QAction
from PySide6.QtWidgets import QApplication, QTabWidget, QWidget
from shiboken6 import getCppPointer

Role = QAccessible.Role
#: The roles of the controls that must carry a name.
INTERACTIVE = frozenset({
    Role.PushButton, Role.ButtonMenu, Role.ButtonDropDown, Role.ButtonDropGrid, Role.CheckBox, Role.RadioButton,
    Role.ComboBox, Role.EditableText, Role.SpinBox, Role.Slider, Role.Dial, Role.PageTab, Role.List, Role.Tree,
    Role.Table, Role.ListItem, Role.TreeItem, Role.Cell, Role.MenuItem, Role.HotkeyField,
})
#: Items of a view: named by their text or their column's header.
ITEMS = frozenset({Role.ListItem, Role.TreeItem, Role.Cell})
#: How deep the walk goes (a guard against a cycle in a custom interface).
DEPTH = 60


def _name(node: QAccessibleInterface) -> str:
    return (node.text(QAccessible.Text.Name) or "").replace("&", "").strip()


def _header(node: QAccessibleInterface) -> str:
    cell = node.tableCellInterface()
    if cell is None:
        return ""
    return " ".join(_name(h) for h in cell.columnHeaderCells() if h is not None and h.isValid()).strip()


def _where(node: QAccessibleInterface) -> str:
    """The control's class and object name, and the chain of widgets above it (their object names, or classes)."""
    obj = node.object()
    widget = obj if isinstance(obj, QWidget) else None
    if isinstance(obj, QAction):
        what = f"QAction {obj.text()!r}"
        parent = obj.parent()
        widget = parent if isinstance(parent, QWidget) else None
    elif obj is not None:
        what = f"{type(obj).__name__}#{obj.objectName()}"
    else:
        what = "?"
    if isinstance(obj, QWidget):
        hint = obj.toolTip() or obj.property("text") or obj.property("placeholderText") or ""
        if hint:
            what += f" ({str(hint)[:60]!r})"
    chain = []
    up = widget.parentWidget() if widget is not None and widget is obj else widget
    while up is not None and len(chain) < 4:
        chain.append(up.objectName() or type(up).__name__)
        up = up.parentWidget()
    return f"{what} in {' > '.join(chain)}" if chain else what


def _shown(node: QAccessibleInterface, role: Role) -> bool:
    obj = node.object()
    if role == Role.MenuItem and isinstance(obj, QAction):
        return obj.isVisible()
    if role == Role.PopupMenu:
        return True  # a menu, open or not: its items are read when it opens
    return not node.state().invisible


def _takes_focus(node: QAccessibleInterface, obj: object) -> bool:
    """A widget of another role that takes keyboard focus itself (a text browser, a scroll area): a screen reader
    announces it when it gets focus. A container that hands its focus on (a tab widget to its tab bar) does not."""
    return (isinstance(obj, QWidget) and bool(node.state().focusable) and obj.focusProxy() is None
            and obj.focusPolicy() != Qt.FocusPolicy.NoFocus)


def controls(window: QWidget) -> list[tuple[Role, str, str]]:
    """Every shown interactive control under ``window`` (itself included): (role, name, where); a cell's or item's
    name is its text, else its column header."""
    found: list[tuple[Role, str, str]] = []
    seen: set[tuple[int, int]] = set()

    def walk(node: QAccessibleInterface | None, depth: int) -> None:
        if node is None or not node.isValid() or depth > DEPTH:
            return
        role = node.role()
        if role == Role.Separator or not _shown(node, role):
            return
        obj = node.object()
        if obj is not None and role not in ITEMS:  # items share their view's object: never a cycle
            key = (getCppPointer(obj)[0], int(role.value))
            if key in seen:
                return
            seen.add(key)
        if role in INTERACTIVE or _takes_focus(node, obj):
            name = _name(node) or (_header(node) if role in ITEMS else "")
            found.append((role, name, _where(node)))
        for index in range(node.childCount()):
            walk(node.child(index), depth + 1)

    walk(QAccessible.queryAccessibleInterface(window), 0)
    return found


def unnamed(window: QWidget) -> list[str]:
    """One line per shown interactive control under ``window`` with no accessible name; [] when all are named."""
    return [f"{role.name} {where}" for role, name, where in controls(window) if not name]


def unnamed_on_every_tab(window: QWidget) -> list[str]:
    """``unnamed`` on every page of every shown tab widget under ``window`` (nested ones too), each page brought to
    the front in turn as a person would click its tab, then the tabs put back as they were."""
    found = dict.fromkeys(unnamed(window))

    def pages(tabs: QTabWidget) -> None:
        was = tabs.currentIndex()
        for index in range(tabs.count()):
            if not tabs.isTabVisible(index) or not tabs.isTabEnabled(index):
                continue
            tabs.setCurrentIndex(index)
            QApplication.processEvents()
            found.update(dict.fromkeys(unnamed(window)))
            page = tabs.widget(index)
            for inner in page.findChildren(QTabWidget) if page is not None else []:
                if inner.isVisible():
                    pages(inner)
        tabs.setCurrentIndex(was)
        QApplication.processEvents()

    for tabs in window.findChildren(QTabWidget):
        if tabs.isVisible() and not _inside_tab_page(tabs, window):
            pages(tabs)
    return list(found)


def _inside_tab_page(widget: QWidget, window: QWidget) -> bool:
    """Whether ``widget`` lies on a page of another tab widget under ``window`` (reached from that one's pages)."""
    up = widget.parentWidget()
    while up is not None and up is not window:
        if isinstance(up, QTabWidget):
            return True
        up = up.parentWidget()
    return False
