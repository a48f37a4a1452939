"""The window's language: every visible string goes through Qt's translation system.

    tr("Add files\u2026")                      the text in the window's language (call it when the text is shown)
    QT_TRANSLATE_NOOP("", "Start trial")     marks a string kept in a table for lupdate; ``tr`` it where it is shown
    install(app, settings)                   at start-up, before any window: the translator for the chosen language

The sources are ``translations/courtroom_<lang>.ts`` (pyside6-lupdate over the ui package writes them, with
``scripts/translations.sh``; people translate them in Qt Linguist or by hand); the set-up compiles them into ``.qm``
files with pyside6-lrelease, and ``install`` compiles a missing or older one on first use. All strings share one
context, the empty one (what lupdate gives a plain ``tr(...)`` call). Qt's own strings (the OK and Cancel of standard
buttons) come from Qt's translations. The language follows the system's locale unless the person chose one (View ->
Language; ``COURTROOM_LANGUAGE`` for a run); dates and numbers follow it too (``QLocale.setDefault``)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTranslator

if TYPE_CHECKING:
    # PySide6's stub types it (object, object) -> object; it returns its message as is, and every use here passes
    # and keeps a str
    def QT_TRANSLATE_NOOP(context: str, message: str, /) -> str: ...
else:
    from PySide6.QtCore import QT_TRANSLATE_NOOP

__all__ = ["LANGUAGES", "QT_TRANSLATE_NOOP", "install", "language", "tr"]

FOLDER = Path(__file__).resolve().parent / "translations"
#: The languages the window speaks: code -> its own name (shown in the View menu as is).
LANGUAGES = {"en": "English", "zh_CN": "\u7b80\u4f53\u4e2d\u6587"}
_installed: list[QTranslator] = []
_current = "en"


def wording_language() -> str:
    """The language of the court's own wording in the window (core.reports.wording: reasons, the verdict card's
    sections): 'zh' when the window speaks Chinese, else 'en'."""
    return "zh" if _current.startswith("zh") else "en"


def tr(text: str) -> str:
    """``text`` in the window's language (itself when there is no translation)."""
    return QCoreApplication.translate("", text)


def language(settings: QSettings | None = None) -> str:
    """The language to use: ``COURTROOM_LANGUAGE``, else the setting ('system' or a code), else the system's locale;
    one of ``LANGUAGES`` ('en' for any other)."""
    chosen = os.environ.get("COURTROOM_LANGUAGE", "") or (
        str(settings.value("language", "system", type=str)) if settings is not None else "system")
    if chosen in ("", "system"):
        chosen = QLocale.system().name()
    if chosen in LANGUAGES:
        return chosen
    if chosen.startswith("zh"):
        return "zh_CN"
    return "en"


def compiled(code: str) -> Path | None:
    """The .qm of ``code``: built from its .ts by pyside6-lrelease when missing or older (the set-up builds it; a
    source checkout run without the set-up builds it here, once). None when there is neither."""
    source, target = FOLDER / f"courtroom_{code}.ts", FOLDER / f"courtroom_{code}.qm"
    if source.is_file() and (not target.is_file() or target.stat().st_mtime < source.stat().st_mtime):
        release = _lrelease()
        if release is not None:
            try:
                subprocess.run([release, "-silent", str(source), "-qm", str(target)], check=True, timeout=60,
                               capture_output=True)
            except (OSError, subprocess.SubprocessError):
                pass
    return target if target.is_file() else None


def _lrelease() -> str | None:
    import PySide6

    bundled = Path(PySide6.__file__).parent / ("lrelease.exe" if os.name == "nt" else "lrelease")
    return str(bundled) if bundled.is_file() else shutil.which("pyside6-lrelease") or shutil.which("lrelease")


def install(app: QCoreApplication, settings: QSettings | None = None) -> str:
    """Install the translators of the chosen language (ours and Qt's own) and make its locale the default for dates
    and numbers; returns the language's code."""
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    global _current
    code = _current = language(settings)
    QLocale.setDefault(QLocale(code))
    if code == "en":
        return code
    ours = compiled(code)
    if ours is not None:
        translator = QTranslator(app)
        if translator.load(str(ours)):
            app.installTranslator(translator)
            _installed.append(translator)
    qt = QTranslator(app)
    if qt.load(QLocale(code), "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        _installed.append(qt)
    return code
