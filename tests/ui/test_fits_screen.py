"""The window fits the screen a person has, every label in it can be read whole, and in Chinese none is left in
English (issue #32).

The whole window is checked in its own process per screen (tests/ui/fit_driver.py: Qt's offscreen platform reads the
screen's size from a config file at start-up): a 1280x720 laptop, a 3840x2160 screen at 200 % scaling, a 2560x1440
one at QT_SCALE_FACTOR=2 and the laptop with the system font at twice its size (#49), through the
first run, a sample trial to its verdict, every dialog opened from there, the settings dialog and the check window. The clipping detector
(testkit.clipping) and the first-size arithmetic are checked here on their own, in English and Chinese."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from PySide6.QtCore import QRect, QSize
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from courtroom_desktop.ui.controls.flow import FlowLayout
from courtroom_desktop.ui.window_layout import fitted
from testkit.clipping import clipped

from .conftest import ROOT

LAPTOP = {"width": 1280, "height": 720, "logicalDpi": 96, "dpr": 1}
SCREENS = {  # name -> (screen, the window's language, more of the environment)
    "laptop": (LAPTOP, "en", {}),
    "4k-scaled": ({"width": 3840, "height": 2160, "logicalDpi": 192, "dpr": 1}, "en", {}),  # 200 %: 1920x1080 logical
    "laptop-zh": (LAPTOP, "zh_CN", {}),  # Simplified Chinese: longer labels in other places, and none may stay English
    # 200 % text (#49): Qt scaling everything on a 2560x1440 screen (1280x720 logical), and the system font at twice
    # its size on a 1280x720 one
    "qt-scale-2": ({"width": 2560, "height": 1440, "logicalDpi": 96, "dpr": 1}, "en", {"QT_SCALE_FACTOR": "2"}),
    "laptop-font-2x": (LAPTOP, "en", {"COURTROOM_TEST_FONT_SCALE": "2"}),
}


def test_a_first_window_fits_the_available_area():
    small = QRect(0, 0, 1280, 690)
    rect = fitted(QSize(1480, 900), small)
    assert small.contains(rect) and rect.width() < 1280 and rect.height() < 690
    assert rect.center() == small.center()
    big = QRect(0, 0, 1920, 1050)
    assert fitted(QSize(1480, 900), big).size() == QSize(1480, 900)  # as wanted where it fits


@pytest.mark.parametrize("text", ["Add folder\u2026", "\u6dfb\u52a0\u6587\u4ef6\u5939\u2026"])  # and 添加文件夹…
def test_the_detector_finds_a_cut_label(qapp, text):
    panel = QWidget()
    row = QHBoxLayout(panel)
    button, label = QPushButton(text), QLabel(text)
    row.addWidget(button)
    row.addWidget(label)
    panel.resize(600, 80)
    panel.show()
    qapp.processEvents()
    assert clipped(panel) == []
    button.setFixedWidth(button.fontMetrics().horizontalAdvance(text) // 2)
    label.setFixedWidth(label.fontMetrics().horizontalAdvance(text) // 2)
    qapp.processEvents()
    found = {clip.text for clip in clipped(panel)}
    assert found == {text}
    assert len(clipped(panel)) == 2
    panel.close()


def test_a_flowing_row_wraps_instead_of_widening(qapp):
    panel = QWidget()
    column = QVBoxLayout(panel)
    row = FlowLayout()
    buttons = [QPushButton(f"A rather long button label {n}") for n in range(6)]
    for button in buttons:
        row.addWidget(button)
    column.addLayout(row)
    widest = max(b.sizeHint().width() for b in buttons)
    assert panel.minimumSizeHint().width() < 2 * widest  # one button wide, not six
    panel.resize(widest + 40, 400)
    panel.show()
    qapp.processEvents()
    assert len({b.y() for b in buttons}) == 6  # one a line
    assert clipped(panel) == []
    panel.close()


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    out = {}
    for name, (screen, language, more) in SCREENS.items():
        folder = tmp_path_factory.mktemp(name)
        config = folder / "screen.json"
        config.write_text(json.dumps({"screens": [{"name": name, "x": 0, "y": 0, "logicalBaseDpi": 96, **screen}]}))
        env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", COURTROOM_MODEL_SERVERS="none",
                   HOME=str(folder), COURTROOM_LANGUAGE=language, **more)
        done = subprocess.run([sys.executable, "-m", "tests.ui.fit_driver", str(folder / "report.json")], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
        out[name] = json.loads((folder / "report.json").read_text())
    return out


@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_window_fits_its_screen_and_shows_its_labels_whole(reports, screen):
    report = reports[screen]
    available = QRect(*report["available"])
    for state, seen in _states(report):
        assert available.contains(QRect(*seen["frame"])), f"{state}: {seen['frame']} leaves {report['available']}"
        assert seen["minimum_width"] <= 1280, state
        assert seen["clipped"] == [], f"{state}: " + "; ".join(seen["clipped"])
    # the welcome banner leaves the transcript most of the height (at twice the font size its text takes about as
    # much height as the transcript: whole, not cut, which is what that screen asks)
    if screen != "laptop-font-2x":
        assert report["first_run"]["welcome_share"] < 1 / 3


def test_the_big_screen_gets_the_full_first_size(reports):
    frame = QRect(*reports["4k-scaled"]["first_run"]["frame"])
    assert reports["4k-scaled"]["ratio"] == 2.0
    assert frame.width() >= 1480 and frame.height() >= 900  # logical pixels: 1920x1080 at 200 %


def test_the_chinese_window_leaves_no_english(reports):
    """The window in Simplified Chinese, at its first run, after a sample trial's verdict (the transcript's cards
    included), in every dialog opened from there, in the settings dialog and in the check window (the claims found in
    a draft, the export of their verdicts): no visible text in English but names (of files, models, products:
    testkit.untranslated.NAMES), paths, command lines, the documents' own words and what the models wrote."""
    for state, seen in _states(reports["laptop-zh"]):
        assert seen["english"] == [], f"{state}: " + "; ".join(seen["english"])


STATES = ("first_run", "verdict", "settings", "check", "check_review", "check_export")
DIALOGS = ("coverage", "prompts", "export", "shortcuts", "about", "scope", "zotero", "note", "decision")


def _states(report: dict) -> list[tuple[str, dict]]:
    """(name, state) of the window's states and of every dialog the driver opened: all of them, or the test fails."""
    assert set(report["dialogs"]) == set(DIALOGS), sorted(report["dialogs"])
    return [(state, report[state]) for state in STATES] + [(name, report["dialogs"][name]) for name in DIALOGS]
