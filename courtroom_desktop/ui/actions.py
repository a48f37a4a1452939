"""The main window's actions, menus, toolbar and keyboard shortcuts, as tables: an action is one ``ActionSpec`` (its
slot named by its path on the window), a menu or the toolbar a list of action names. ``build`` makes them for a
window, as its ``act_<name>`` attributes."""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence

from courtroom_desktop import APP_NAME

Key = QKeySequence.StandardKey


@dataclass(frozen=True)
class ActionSpec:
    name: str                   # the window's act_<name>
    text: str
    slot: str                   # attribute path on the window: "add_files", "courtroom.start"
    keys: tuple = ()            # shortcuts: strings or standard keys, the first is the primary one
    tip: str = ""
    object_name: str = ""       # what tests and the shortcut list find it by (default: the text)
    scope: str = ""             # attribute path of the widget whose focus the shortcut needs ("": the whole window)


ACTIONS = (
    ActionSpec("add_files", "&Add files\u2026", "add_files", (Key.Open,), "Add PDF files to the library", "addFiles"),
    ActionSpec("add_folder", "Add &folder\u2026", "add_folder", ("Ctrl+Shift+O",), "Add every PDF under a folder",
               "addFolder"),
    ActionSpec("samples", "Add the &sample library", "add_samples", (), "Six short articles to try the app on",
               "addSamples"),
    ActionSpec("start", "&Start trial", "courtroom.start", ("Ctrl+Return",), "Put the claim on trial", "start"),
    ActionSpec("stop", "S&top trial", "courtroom.stop", ("Ctrl+.",), "Stop the trial (it can be resumed)", "stop"),
    ActionSpec("resume", "&Resume trial", "courtroom.resume", ("Ctrl+Shift+R",),
               "Continue the stopped or paused trial", "resume"),
    ActionSpec("check_draft", "Chec&k a draft\u2026", "check_draft", ("Ctrl+Shift+K",),
               "Check every claim of a draft (PDF, Word, Markdown, text) against the library", "checkDraft"),
    ActionSpec("new", "&New trial", "courtroom.new_trial", (Key.New,), "Clear the courtroom", "new"),
    ActionSpec("export", "&Export report\u2026", "export_current", ("Ctrl+E",), "Write the verdict report", "export"),
    ActionSpec("settings", "Se&ttings\u2026", "open_settings", ("Ctrl+,",), "Models, retrieval, debate, data folder",
               "settings"),
    ActionSpec("quit", "&Quit", "close", (Key.Quit,), "Close the window", "quit"),
    ActionSpec("library", "Show &library", "show_library", ("Ctrl+1",), "The library panel", "showLibrary"),
    ActionSpec("history", "Show trial &history", "show_history", ("Ctrl+2",), "Past trials", "showHistory"),
    ActionSpec("claim", "Edit the &claim", "focus_claim", ("Ctrl+L",), "Put the cursor in the claim", "focusClaim"),
    ActionSpec("evidence", "Show the &evidence", "focus_evidence", ("Ctrl+3",), "The evidence pool", "showEvidence"),
    ActionSpec("zoom_in", "Zoom &in", "inspector.zoom_in", (Key.ZoomIn, "Ctrl+="), "Zoom the page in", "zoomIn"),
    ActionSpec("zoom_out", "Zoom &out", "inspector.zoom_out", (Key.ZoomOut,), "Zoom the page out", "zoomOut"),
    # PgUp/PgDown and Delete act only where they belong: elsewhere they still scroll the transcript and tables
    ActionSpec("prev_page", "&Previous page", "inspector.previous_page", ("PgUp",), "Previous page of the document",
               "previousPage", scope="inspector"),
    ActionSpec("next_page", "Ne&xt page", "inspector.next_page", ("PgDown",), "Next page of the document", "nextPage",
               scope="inspector"),
    ActionSpec("open_pdf", "Open in the system &viewer", "inspector.open_external", ("Ctrl+Shift+V",),
               "Open the passage's PDF in the system's viewer", "openPdf"),
    ActionSpec("refresh", "&Refresh", "refresh_all", (Key.Refresh,), "Read the library and trials again", "refresh"),
    ActionSpec("remove", "&Remove documents", "library_panel.remove_selected", (Key.Delete,),
               "Remove the selected documents", "removeDocuments", scope="library_panel.table"),
    ActionSpec("shortcuts", "&Keyboard shortcuts", "show_shortcuts", ("F1",), "Every shortcut", "shortcuts"),
    ActionSpec("about", "&About", "show_about", (), f"About {APP_NAME}", "about"),
    ActionSpec("reset_layout", "Reset the &layout", "reset_layout", (), "Panels back to their first sizes",
               "resetLayout"),
)

#: Menus and the toolbar: action names in order, None for a separator.
MENUS = {
    "&File": ("add_files", "add_folder", "samples", None, "export", None, "settings", None, "quit"),
    "&Trial": ("start", "stop", "resume", "new", None, "claim", None, "check_draft"),
    "&View": ("library", "history", "evidence", None, "zoom_in", "zoom_out", "prev_page", "next_page", "open_pdf", None,
              "refresh", "reset_layout"),
    "&Help": ("shortcuts", "about"),
}
APPEARANCE_MENU = "&View"   # holds the Appearance submenu
APPEARANCES = (("system", "Follow the &system"), ("light", "&Light"), ("dark", "&Dark"))
TOOLBAR = ("add_files", "add_folder", None, "start", "stop", "resume", None, "check_draft", None, "export", "settings")
#: What the keyboard shortcuts dialog lists, in order.
SHORTCUTS = ("add_files", "add_folder", "start", "stop", "resume", "new", "check_draft", "export", "settings", "claim", "library",
             "history", "evidence", "zoom_in", "zoom_out", "prev_page", "next_page", "open_pdf", "remove", "refresh",
             "shortcuts", "quit")


def action(window, name: str) -> QAction:
    return getattr(window, f"act_{name}")


def make_action(window, spec: ActionSpec) -> QAction:
    act = QAction(spec.text, window)
    if spec.keys:
        act.setShortcuts([QKeySequence(key) for key in spec.keys])
    act.setToolTip(spec.tip or spec.text.replace("&", "").rstrip("\u2026"))
    act.setStatusTip(spec.tip)
    act.setObjectName(spec.object_name or spec.text)
    act.triggered.connect(attrgetter(spec.slot)(window))
    if spec.scope:
        act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        attrgetter(spec.scope)(window).addAction(act)
    else:
        window.addAction(act)
    return act


def build(window) -> None:
    """The window's actions (``window.act_<name>``), its menus, its Appearance choices and its toolbar."""
    for spec in ACTIONS:
        setattr(window, f"act_{spec.name}", make_action(window, spec))
    menu_bar = window.menuBar()
    for title, names in MENUS.items():
        menu = menu_bar.addMenu(title)
        _fill(window, menu, names)
        if title == APPEARANCE_MENU:
            _appearance_menu(window, menu.addMenu("&Appearance"))
    toolbar = window.addToolBar("Main")
    toolbar.setObjectName("mainToolbar")
    toolbar.setMovable(False)
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    _fill(window, toolbar, TOOLBAR)


def _fill(window, container, names) -> None:
    for name in names:
        if name is None:
            container.addSeparator()
        else:
            container.addAction(action(window, name))


def _appearance_menu(window, menu) -> None:
    window.appearance_group = QActionGroup(window)
    current = str(window.settings.value("appearance", "system", type=str))
    for value, label in APPEARANCES:
        act = QAction(label, window, checkable=True)
        act.setObjectName(f"appearance_{value}")
        act.setChecked(value == current)
        act.triggered.connect(lambda _=False, v=value: window.set_appearance(v))
        window.appearance_group.addAction(act)
        menu.addAction(act)


def shortcut_actions(window) -> list[QAction]:
    return [action(window, name) for name in SHORTCUTS]
