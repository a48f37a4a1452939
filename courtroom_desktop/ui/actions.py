"""The main window's actions, menus, toolbar and keyboard shortcuts, as tables: an action is one ``ActionSpec`` (its
slot named by its path on the window), a menu or the toolbar a list of action names. ``build`` makes them for a
window, as its ``act_<name>`` attributes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence

from courtroom_desktop.ui.i18n import QT_TRANSLATE_NOOP, tr

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QMainWindow, QMenu, QToolBar

Key = QKeySequence.StandardKey


@dataclass(frozen=True)
class ActionSpec:
    name: str                   # the window's act_<name>
    text: str
    slot: str                   # attribute path on the window: "add_files", "courtroom.start"
    keys: tuple[str | Key, ...] = ()  # shortcuts: strings or standard keys, the first is the primary one
    tip: str = ""
    object_name: str = ""       # what tests and the shortcut list find it by (default: the text)
    scope: str = ""             # attribute path of the widget whose focus the shortcut needs ("": the whole window)


ACTIONS = (
    ActionSpec("add_files", QT_TRANSLATE_NOOP("", "&Add files\u2026"), "add_files", (Key.Open,),
               QT_TRANSLATE_NOOP("", "Add PDF files to the library"), "addFiles"),
    ActionSpec("add_folder", QT_TRANSLATE_NOOP("", "Add &folder\u2026"), "add_folder", ("Ctrl+Shift+O",),
               QT_TRANSLATE_NOOP("", "Add every PDF under a folder"), "addFolder"),
    ActionSpec("samples", QT_TRANSLATE_NOOP("", "Add the &sample library"), "add_samples", (),
               QT_TRANSLATE_NOOP("", "Six short articles to try the app on"), "addSamples"),
    ActionSpec("start", QT_TRANSLATE_NOOP("", "&Start trial"), "courtroom.start", ("Ctrl+Return",),
               QT_TRANSLATE_NOOP("", "Put the claim on trial"), "start"),
    ActionSpec("stop", QT_TRANSLATE_NOOP("", "S&top trial"), "courtroom.stop", ("Ctrl+.",),
               QT_TRANSLATE_NOOP("", "Stop the trial (it can be resumed)"), "stop"),
    ActionSpec("resume", QT_TRANSLATE_NOOP("", "&Resume trial"), "courtroom.resume", ("Ctrl+Shift+R",),
               QT_TRANSLATE_NOOP("", "Continue the stopped or paused trial"), "resume"),
    ActionSpec("check_draft", QT_TRANSLATE_NOOP("", "Chec&k a draft\u2026"), "check_draft", ("Ctrl+Shift+K",),
               QT_TRANSLATE_NOOP("", "Check every claim of a draft (PDF, Word, Markdown, text) against the library"),
               "checkDraft"),
    ActionSpec("new", QT_TRANSLATE_NOOP("", "&New trial"), "courtroom.new_trial", (Key.New,),
               QT_TRANSLATE_NOOP("", "Clear the courtroom"), "new"),
    ActionSpec("export", QT_TRANSLATE_NOOP("", "&Export report\u2026"), "export_current", ("Ctrl+E",),
               QT_TRANSLATE_NOOP("", "Write the verdict report"), "export"),
    ActionSpec("settings", QT_TRANSLATE_NOOP("", "Se&ttings\u2026"), "open_settings", ("Ctrl+,",),
               QT_TRANSLATE_NOOP("", "Models, retrieval, debate, data folder"), "settings"),
    ActionSpec("quit", QT_TRANSLATE_NOOP("", "&Quit"), "close", (Key.Quit,), QT_TRANSLATE_NOOP("", "Close the window"),
               "quit"),
    ActionSpec("library", QT_TRANSLATE_NOOP("", "Show &library"), "show_library", ("Ctrl+1",),
               QT_TRANSLATE_NOOP("", "The library panel"), "showLibrary"),
    ActionSpec("history", QT_TRANSLATE_NOOP("", "Show trial &history"), "show_history", ("Ctrl+2",),
               QT_TRANSLATE_NOOP("", "Past trials"), "showHistory"),
    ActionSpec("claim", QT_TRANSLATE_NOOP("", "Edit the &claim"), "focus_claim", ("Ctrl+L",),
               QT_TRANSLATE_NOOP("", "Put the cursor in the claim"), "focusClaim"),
    ActionSpec("evidence", QT_TRANSLATE_NOOP("", "Show the &evidence"), "focus_evidence", ("Ctrl+3",),
               QT_TRANSLATE_NOOP("", "The evidence pool"), "showEvidence"),
    ActionSpec("zoom_in", QT_TRANSLATE_NOOP("", "Zoom &in"), "inspector.zoom_in", (Key.ZoomIn, "Ctrl+="),
               QT_TRANSLATE_NOOP("", "Zoom the page in"), "zoomIn"),
    ActionSpec("zoom_out", QT_TRANSLATE_NOOP("", "Zoom &out"), "inspector.zoom_out", (Key.ZoomOut,),
               QT_TRANSLATE_NOOP("", "Zoom the page out"), "zoomOut"),
    # PgUp/PgDown and Delete act only where they belong: elsewhere they still scroll the transcript and tables
    ActionSpec("prev_page", QT_TRANSLATE_NOOP("", "&Previous page"), "inspector.previous_page", ("PgUp",),
               QT_TRANSLATE_NOOP("", "Previous page of the document"), "previousPage", scope="inspector"),
    ActionSpec("next_page", QT_TRANSLATE_NOOP("", "Ne&xt page"), "inspector.next_page", ("PgDown",),
               QT_TRANSLATE_NOOP("", "Next page of the document"), "nextPage", scope="inspector"),
    ActionSpec("open_pdf", QT_TRANSLATE_NOOP("", "Open in the system &viewer"), "inspector.open_external",
               ("Ctrl+Shift+V",), QT_TRANSLATE_NOOP("", "Open the passage's PDF in the system's viewer"), "openPdf"),
    ActionSpec("refresh", QT_TRANSLATE_NOOP("", "&Refresh"), "refresh_all", (Key.Refresh,),
               QT_TRANSLATE_NOOP("", "Read the library and trials again"), "refresh"),
    ActionSpec("remove", QT_TRANSLATE_NOOP("", "&Remove documents"), "library_panel.remove_selected", (Key.Delete,),
               QT_TRANSLATE_NOOP("", "Remove the selected documents"), "removeDocuments", scope="library_panel.table"),
    ActionSpec("shortcuts", QT_TRANSLATE_NOOP("", "&Keyboard shortcuts"), "show_shortcuts", ("F1",),
               QT_TRANSLATE_NOOP("", "Every shortcut"), "shortcuts"),
    ActionSpec("about", QT_TRANSLATE_NOOP("", "&About"), "show_about", (), QT_TRANSLATE_NOOP("", "About the app"), "about"),
    ActionSpec("reset_layout", QT_TRANSLATE_NOOP("", "Reset the &layout"), "reset_layout", (),
               QT_TRANSLATE_NOOP("", "Panels back to their first sizes"), "resetLayout"),
)

#: Menus and the toolbar: action names in order, None for a separator.
MENUS = {
    QT_TRANSLATE_NOOP("", "&File"): ("add_files", "add_folder", "samples", None, "export", None, "settings", None, "quit"),
    QT_TRANSLATE_NOOP("", "&Trial"): ("start", "stop", "resume", "new", None, "claim", None, "check_draft"),
    QT_TRANSLATE_NOOP("", "&View"): ("library", "history", "evidence", None, "zoom_in", "zoom_out", "prev_page",
                                      "next_page", "open_pdf", None, "refresh", "reset_layout"),
    QT_TRANSLATE_NOOP("", "&Help"): ("shortcuts", "about"),
}
APPEARANCE_MENU = "&View"   # (its source text) holds the Appearance and Language submenus
APPEARANCES = (("system", QT_TRANSLATE_NOOP("", "Follow the &system")), ("light", QT_TRANSLATE_NOOP("", "&Light")),
               ("dark", QT_TRANSLATE_NOOP("", "&Dark")), ("high-contrast", QT_TRANSLATE_NOOP("", "&High contrast")))
TOOLBAR = ("add_files", "add_folder", None, "start", "stop", "resume", None, "check_draft", None, "export", "settings")
#: What the keyboard shortcuts dialog lists, in order.
SHORTCUTS = ("add_files", "add_folder", "start", "stop", "resume", "new", "check_draft", "export", "settings", "claim", "library",
             "history", "evidence", "zoom_in", "zoom_out", "prev_page", "next_page", "open_pdf", "remove", "refresh",
             "shortcuts", "quit")


def action(window: QMainWindow, name: str) -> QAction:
    act: QAction = getattr(window, f"act_{name}")
    return act


def make_action(window: QMainWindow, spec: ActionSpec) -> QAction:
    act = QAction(tr(spec.text), window)
    if spec.keys:
        act.setShortcuts([QKeySequence(key) for key in spec.keys])
    act.setToolTip(tr(spec.tip) if spec.tip else tr(spec.text).replace("&", "").rstrip("\u2026"))
    act.setStatusTip(tr(spec.tip) if spec.tip else "")
    act.setObjectName(spec.object_name or spec.text)
    act.triggered.connect(attrgetter(spec.slot)(window))
    if spec.scope:
        act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        attrgetter(spec.scope)(window).addAction(act)
    else:
        window.addAction(act)
    return act


def build(window: QMainWindow, settings: QSettings, set_appearance: Callable[[str], None]) -> tuple[QActionGroup,
                                                                                                   QActionGroup]:
    """The window's actions (``window.act_<name>``: each calls the window's method its spec names), its menus and its
    toolbar; returns the View menu's Appearance and Language choices (``set_appearance(value)`` applies the one
    chosen; the language is kept in ``settings`` for the next start)."""
    for spec in ACTIONS:
        setattr(window, f"act_{spec.name}", make_action(window, spec))
    menu_bar = window.menuBar()
    for title, names in MENUS.items():
        menu = menu_bar.addMenu(tr(title))
        _fill(window, menu, names)
        if title == APPEARANCE_MENU:
            appearance = _appearance_menu(window, menu.addMenu(tr("&Appearance")), settings, set_appearance)
            language = _language_menu(window, menu.addMenu(tr("Lan&guage")), settings)
    toolbar = window.addToolBar(tr("Main"))
    toolbar.setObjectName("mainToolbar")
    toolbar.setMovable(False)
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    _fill(window, toolbar, TOOLBAR)
    return appearance, language


def _fill(window: QMainWindow, container: QMenu | QToolBar, names: Iterable[str | None]) -> None:
    for name in names:
        if name is None:
            container.addSeparator()
        else:
            container.addAction(action(window, name))


def _appearance_menu(window: QMainWindow, menu: QMenu, settings: QSettings,
                     set_appearance: Callable[[str], None]) -> QActionGroup:
    group = QActionGroup(window)
    current = str(settings.value("appearance", "system", type=str))
    for value, label in APPEARANCES:
        act = QAction(tr(label), window, checkable=True)
        act.setObjectName(f"appearance_{value}")
        act.setChecked(value == current)
        act.triggered.connect(lambda _=False, v=value: set_appearance(v))
        group.addAction(act)
        menu.addAction(act)
    return group


def _language_menu(window: QMainWindow, menu: QMenu, settings: QSettings) -> QActionGroup:
    """The window's language: the system's, or one chosen (kept in the settings; it applies from the next start)."""
    from courtroom_desktop.ui.i18n import LANGUAGES

    group = QActionGroup(window)
    current = str(settings.value("language", "system", type=str))
    for value, label in (("system", tr("Follow the &system")), *LANGUAGES.items()):
        act = QAction(label, window, checkable=True)
        act.setObjectName(f"language_{value}")
        act.setChecked(value == current)
        act.triggered.connect(lambda _=False, v=value: _choose_language(window, settings, v))
        group.addAction(act)
        menu.addAction(act)
    return group


def _choose_language(window: QMainWindow, settings: QSettings, value: str) -> None:
    settings.setValue("language", value)
    settings.sync()
    window.statusBar().showMessage(tr("The window changes its language at its next start"), 8000)


def shortcut_actions(window: QMainWindow) -> list[QAction]:
    return [action(window, name) for name in SHORTCUTS]
