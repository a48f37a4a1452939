"""English left in a window that should speak another language: every visible text of a window (labels, buttons,
tabs, check boxes, combo boxes, placeholders, group box titles, table and list headers and cells, the lines of a text
browser (the transcript's cards), the menu bar and its menus,
the toolbar, the window title) collected, and the words of Latin letters in it found, less the names a translation
keeps (files, models, products, people: ``NAMES``, and whatever the caller adds).

    visible_texts(window) -> list[(where, text)]
    english(window, names=()) -> list[(where, text, words)]     empty when nothing English is left
    english_words(text, names=()) -> list[str]                  the same for one text
    with speaking("zh_CN") as translator: ...                   the app's translator for one language, inside only
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QCoreApplication, Qt, QTranslator
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QTabBar,
    QTextBrowser,
    QToolBar,
    QWidget,
)

#: What stays in Latin letters in any language: product and format names, model names, units.
NAMES = frozenset("""
courtroom desktop pdf pdfs zotero ollama openai markdown word docx txt md bm25 lancedb llama cpp gguf api url doi
minilm all l6 v2 smollm2 smollm ocr json html ray s3 qt ctrl shift alt enter esc f1 pgup pgdown del e1 e2 e3 e4 e5
q1 q2 ms kb mb gb cd4 hiv id all-minilm-l6-v2 llama.cpp qwen2.5 ollama.com smollm2-135m csv
""".split())
WORD = re.compile(r"[A-Za-z][\w'\-.]*[\w]|[A-Za-z]")
#: A command line the window quotes (``courtroom export --with-prompts``): typed as it is, in any language.
COMMAND = re.compile(r"\bcourtroom(?: [a-z][\w-]*| --[\w-]+)+")
#: An address (``http://127.0.0.1:11434``) and a setting's or field's name (``num_ctx``, ``base_url``: code, with
#: an underscore) are typed as they are in any language.
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+")
PATH = re.compile(r"(?:[A-Za-z]:)?[/\\][^\s:,;]+|\b[\w.-]+\.(?:pdf|md|txt|docx|gguf|json|html)\b", re.IGNORECASE)


def _plain(text: str) -> str:
    if "<" in text and ">" in text:
        document = QTextDocument()
        document.setHtml(text)
        return document.toPlainText()
    return text


def _columns(model) -> int:
    """A model's column count (a list widget's model keeps columnCount private: one column)."""
    try:
        return model.columnCount()
    except TypeError:
        return 1


def visible_texts(window: QWidget) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []

    def add(where: str, text: str) -> None:
        text = _plain(text or "").replace("&&", "\0").replace("&", "").replace("\0", "&").strip()
        if text:
            found.append((where, text))

    add("window title", window.windowTitle())
    for widget in [window, *window.findChildren(QWidget)]:
        if not widget.isVisible() or widget.visibleRegion().isEmpty():
            continue
        kind = f"{type(widget).__name__}#{widget.objectName()}"
        if isinstance(widget, QLabel):
            add(kind, widget.text())
        elif isinstance(widget, QAbstractButton):
            add(kind, widget.text())
        elif isinstance(widget, QTabBar):
            for index in range(widget.count()):
                add(f"{kind} tab", widget.tabText(index))
        elif isinstance(widget, QComboBox):
            line = widget.lineEdit()
            if line is None:
                add(kind, widget.currentText())
            elif not line.text():
                add(f"{kind} placeholder", line.placeholderText())
        elif isinstance(widget, QLineEdit) and not isinstance(widget.parentWidget(), QComboBox):
            if not widget.text():
                add(f"{kind} placeholder", widget.placeholderText())
        elif isinstance(widget, QGroupBox):
            add(kind, widget.title())
        elif isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            columns = [c for c in range(_columns(model))
                       if not getattr(widget, "isColumnHidden", lambda c: False)(c)]
            for column in columns:
                add(f"{kind} header", str(model.headerData(column, Qt.Orientation.Horizontal) or ""))
            for row in range(min(model.rowCount(), 50)):  # the cells' own wording (the documents' text is data)
                for column in columns:
                    value = model.data(model.index(row, column), Qt.ItemDataRole.DisplayRole)
                    if isinstance(value, str):
                        add(f"{kind} cell {row},{column}", value)
        elif isinstance(widget, QTextBrowser):  # the transcript's cards: their frame is the window's wording
            for number, line in enumerate(widget.document().toPlainText().splitlines()):
                add(f"{kind} line {number}", line)
        elif isinstance(widget, QToolBar):
            for action in widget.actions():
                if action.isVisible() and not action.isSeparator():
                    add(f"{kind} action", action.text())
        placeholder = getattr(widget, "placeholder", None)
        if isinstance(placeholder, str) and widget.document().isEmpty():  # a view that draws its own placeholder
            add(f"{kind} placeholder", placeholder)
    if isinstance(window, QMainWindow):
        for menu_action in window.menuBar().actions():
            add("menu", menu_action.text())
            menu = menu_action.menu()
            if isinstance(menu, QMenu):
                for action in menu.actions():
                    if not action.isSeparator():
                        add(f"menu {menu_action.text()}", action.text())
    return found


def english(window: QWidget, names: frozenset[str] | set[str] = frozenset()) -> list[tuple[str, str, list[str]]]:
    left = []
    for where, text in visible_texts(window):
        words = english_words(text, names)
        if words:
            left.append((where, text, words))
    return left


def english_words(text: str, names: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The English words left in one text (paths, quoted commands and ``NAMES`` aside)."""
    keep = NAMES | {n.lower() for n in names}
    return [w for w in WORD.findall(PATH.sub(" ", COMMAND.sub(" ", URL.sub(" ", text))))
            if w.lower().strip("'-.") not in keep and re.search(r"[A-Za-z]{2}", w) and "_" not in w]


@contextmanager
def speaking(code: str) -> Iterator[QTranslator]:
    """The window's translation for ``code`` (its compiled .qm) installed on the application inside the block, and
    removed after: what ``tr`` returns in a window that speaks it. Texts a model made before stay as they were."""
    from courtroom_desktop.ui.i18n import compiled

    path = compiled(code)
    translator = QTranslator()
    assert path is not None and translator.load(str(path)), f"no compiled translation for {code}"
    QCoreApplication.installTranslator(translator)
    try:
        yield translator
    finally:
        QCoreApplication.removeTranslator(translator)
