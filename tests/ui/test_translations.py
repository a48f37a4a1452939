"""The settings' tooltips (their descriptions in core/config.py) speak the window's language: lupdate sees them through
the generated ui/config_words.py, and the settings dialog shows them through tr."""

from __future__ import annotations

from pathlib import Path

from courtroom_desktop.core.config import LibrarySettings, RetrievalSettings
from courtroom_desktop.core.text import has_cjk
from testkit.scripts import load_script
from testkit.untranslated import speaking


def _generator():
    return load_script("config_words")


def test_the_tooltip_table_follows_core_config():
    generator = _generator()
    assert generator.TARGET.read_text(encoding="utf-8") == generator.render(), \
        "core/config.py changed a shown setting's description: run scripts/translations.sh"
    assert len(generator.descriptions()) >= 40


def test_the_embedder_choices_are_marked_for_translation_and_translated(qapp):
    """The embedder editor shows core.config.EMBEDDERS' labels through tr: its lupdate table must hold each of them,
    and each has Chinese (break: a label added to EMBEDDERS alone, and it fails)."""
    from courtroom_desktop.core.config import EMBEDDERS
    from courtroom_desktop.ui.dialogs.embedder_editor import EMBEDDER_WORDS
    from courtroom_desktop.ui.i18n import tr

    assert set(EMBEDDER_WORDS) == set(EMBEDDERS.values())
    with speaking("zh_CN"):
        untranslated = [label for label in EMBEDDERS.values() if tr(label) == label]
    assert untranslated == []


def test_every_settings_tooltip_has_a_chinese_translation(qapp):
    with speaking("zh_CN") as translator:
        missing = [d for d in _generator().descriptions() if not has_cjk(translator.translate("", d))]
    assert not missing, missing


def test_the_settings_dialog_shows_the_tooltip_in_the_windows_language(qapp):
    from courtroom_desktop.ui.dialogs.fields import field_editor

    english = field_editor(RetrievalSettings, "k").widget.toolTip()
    with speaking("zh_CN"):
        chinese = field_editor(RetrievalSettings, "k").widget.toolTip()
        languages = field_editor(LibrarySettings, "embedding_languages").widget.toolTip()
    assert english == RetrievalSettings.model_fields["k"].description
    assert has_cjk(chinese) and has_cjk(languages), (chinese, languages)


def test_every_task_title_is_marked_and_translated(qapp):
    """A task's title heads its error notice ("Reading the library: ..."), translated where it is shown
    (ui/tasks.py): each literal title a controller passes to ``spawn`` or ``_write`` must be marked for lupdate and have
    Chinese (break: one title passed as a bare string, and it fails)."""
    import ast

    from courtroom_desktop.ui.i18n import tr

    folder = Path(__file__).resolve().parents[2] / "courtroom_desktop" / "ui" / "controllers"
    bare, titles = [], []
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("spawn", "_write") and len(node.args) >= 2):
                continue
            title = node.args[1]
            if isinstance(title, ast.Constant):
                bare.append(f"{path.name}:{node.lineno} {title.value!r}")
            elif isinstance(title, ast.Call) and getattr(title.func, "id", "") == "QT_TRANSLATE_NOOP":
                titles.append(title.args[1].value)
    assert bare == []
    assert len(titles) >= 30
    with speaking("zh_CN"):
        assert [t for t in titles if tr(t) == t] == []
