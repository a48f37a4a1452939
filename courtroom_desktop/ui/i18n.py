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
_installed: list[QTranslator] = []
_current = "en"


def languages() -> dict[str, str]:
    """The languages the window speaks: English and one per ``translations/courtroom_<code>.ts``, code -> its own
    name (the core lexicon's ``language.name`` in that language, else Qt's name for it). Adding a language to the
    window is adding its .ts here and its table to the core's lexicon (core.lexicon), nothing else."""
    found = {"en": "English"}
    for source in sorted(FOLDER.glob("courtroom_*.ts")):
        code = source.stem.removeprefix("courtroom_")
        found[code] = _own_name(code)
    return found


def _own_name(code: str) -> str:
    from courtroom_desktop.core.services.export import lexicon

    primary = code.split("_")[0]
    if lexicon.has(primary):
        return lexicon.word(primary, "language.name")
    return QLocale(code).nativeLanguageName() or code


#: The languages the window speaks when it starts (the View menu's list): ``languages()``.
LANGUAGES = languages()


def wording_language() -> str:
    """The language of the core's own wording in the window (core.lexicon through core.reports.wording: reasons, the
    verdict card's sections): the window's language where the lexicon has a table for it, else 'en'."""
    from courtroom_desktop.core.services.export import lexicon

    primary = _current.split("_")[0]
    return primary if lexicon.has(primary) else "en"


def say(text: str) -> str:
    """A message the core wrote (an error, its fix, a doctor's detail, a skip reason) in the window's language: the
    core writes them as codes with parameters (core/lexicon/message.py), rendered from the lexicon's table; any other
    text is shown as it came."""
    from courtroom_desktop.core.services.export import lexicon

    return lexicon.say(wording_language(), text) if text else text


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
    spoken = languages()
    if chosen in spoken:
        return chosen
    primary = chosen.split("_")[0]
    return next((code for code in spoken if code.split("_")[0] == primary), "en")


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
