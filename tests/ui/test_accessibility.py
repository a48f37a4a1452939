"""Every interactive control has an accessible name, in English and in Chinese (issue #49).

The check reads Qt's own accessibility tree (testkit/accessibility.py: ``QAccessible.queryAccessibleInterface`` on the
window, then ``child(i)`` / ``childCount()``, ``role()``, ``text(QAccessible.Text.Name)``, ``state()``), the tree Qt
hands to AT-SPI on Linux, UIA on Windows and NSAccessibility on macOS, so a name counts only if a screen reader would
be given it: set with ``setAccessibleName``, taken from a button's or tab's text, or from a label whose buddy the
control is (or a form layout's label for its field).

Interactive: buttons (push, tool, menu, drop-down), check boxes, radio buttons, combo boxes (and an editable one's
text field), line edits and text edits, text browsers (the transcript, whose cards and citation chips are read in it;
a passage's text), spin boxes, sliders, tabs, list, tree and table views (the view itself; a cell or item is named by
its text or its column's header), every menu item of the menu bar (open or not), and any other widget that takes
keyboard focus (a scroll area: a reader announces it when it gets focus).

Hidden controls are not checked (a screen reader does not reach them): instead the window is walked in each state the
fit driver (tests/ui/fit_driver.py) takes it through, with every page of every tab widget brought to the front in
turn: the first run, a sample trial's verdict with a passage in the inspector, every dialog opened from there (the
coverage panel, a prompt viewer, export, shortcuts, about, the scope, Zotero, a new note, a decision's options), the
settings dialog, and the check window (its start page, the claims found in a draft, their verdicts in the check
table, their export). Controls shown but disabled are checked all the same: a reader still reads them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPushButton,
    QTableWidget,
    QTabWidget,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from testkit.accessibility import controls, unnamed, unnamed_on_every_tab

from .conftest import ROOT
from .test_fits_screen import LAPTOP

#: The window's states and dialogs the fit driver visits: every one of them is checked, or the test fails.
STATES = ("first_run", "verdict", "settings", "check", "check_review", "check_done", "check_export")
DIALOGS = ("coverage", "prompts", "export", "shortcuts", "about", "scope", "zotero", "note", "decision")


def test_the_walk_finds_an_unnamed_control_and_takes_the_names_a_reader_is_given(qapp):
    panel = QWidget()
    column = QVBoxLayout(panel)
    row = QHBoxLayout()
    named, icon_only, disabled = QPushButton("&Start"), QToolButton(), QToolButton()
    disabled.setEnabled(False)  # shown but disabled: still read, so still named
    hidden = QLineEdit()
    hidden.hide()  # not reached by a reader: not checked
    for widget in (named, icon_only, disabled, hidden):
        row.addWidget(widget)
    column.addLayout(row)
    form = QFormLayout()
    labelled, bare = QLineEdit(), QLineEdit()
    form.addRow("Claim:", labelled)  # a form's label names its field
    buddy = QLabel("&Folder:")
    buddy.setBuddy(bare)
    form.addRow(buddy, bare)
    column.addLayout(form)
    table = QTableWidget(2, 2)
    table.setHorizontalHeaderLabels(["Id", "Stance"])  # empty cells are named by their column's header
    column.addWidget(table)
    browser, combo = QTextBrowser(), QComboBox()
    combo.setEditable(True)
    column.addWidget(browser)
    column.addWidget(combo)
    panel.show()
    qapp.processEvents()
    found = unnamed(panel)
    assert len(found) == 6, found  # the icon-only and disabled buttons, the table, the browser, the combo and its field
    assert sum("QToolButton" in line for line in found) == 2
    assert any(line.startswith("Table ") for line in found) and any("QTextBrowser" in line for line in found)
    names = {name for _role, name, _where in controls(panel)}
    assert {"Start", "Claim:", "Folder:", "Id", "Stance"} <= names
    icon_only.setAccessibleName("Zoom in")
    disabled.setAccessibleName("Zoom out")
    table.setAccessibleName("Evidence")
    browser.setAccessibleName("Transcript")
    combo.setAccessibleName("Case")
    assert len(unnamed(panel)) == 1  # the combo's own text field: named apart
    combo.lineEdit().setAccessibleName("Case")
    assert unnamed(panel) == []
    panel.close()


def test_the_walk_reads_menus_closed_and_every_tab_page(qapp):
    window = QMainWindow()
    menu = window.menuBar().addMenu("&File")
    menu.addAction("&Quit")
    menu.addSeparator()  # not a control
    menu.addAction("")  # an item with no text: unnamed though its menu is closed
    tabs = QTabWidget()
    tabs.addTab(QLabel("first page"), "One")
    second = QWidget()
    QVBoxLayout(second).addWidget(QLineEdit())  # on the page behind: found once its tab is brought up
    tabs.addTab(second, "Two")
    window.setCentralWidget(tabs)
    window.show()
    qapp.processEvents()
    assert [line.split()[0] for line in unnamed(window)] == ["MenuItem"]
    assert [line.split()[0] for line in unnamed_on_every_tab(window)] == ["MenuItem", "EditableText"]
    assert tabs.currentIndex() == 0  # put back
    window.close()


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """The fit driver's report on a 1280x720 screen, in English and in Simplified Chinese."""
    out = {}
    for language in ("en", "zh_CN"):
        folder = tmp_path_factory.mktemp(language)
        config = folder / "screen.json"
        config.write_text(json.dumps({"screens": [{"name": "laptop", "x": 0, "y": 0, "logicalBaseDpi": 96,
                                                   **LAPTOP}]}))
        env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", COURTROOM_MODEL_SERVERS="none",
                   HOME=str(folder), COURTROOM_LANGUAGE=language)
        done = subprocess.run([sys.executable, "-m", "tests.ui.fit_driver", str(folder / "report.json")], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
        out[language] = json.loads((folder / "report.json").read_text())
    return out


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_control_of_every_window_and_dialog_has_a_name(reports, language):
    report = reports[language]
    assert set(report["dialogs"]) == set(DIALOGS), sorted(report["dialogs"])
    seen = [(state, report[state]) for state in STATES] + [(name, report["dialogs"][name]) for name in DIALOGS]
    left = {state: found["unnamed"] for state, found in seen if found["unnamed"]}
    assert left == {}, "\n".join(f"{state}: {line}" for state, lines in left.items() for line in lines)
