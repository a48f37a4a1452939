"""A new language for the window is one .ts file beside the others and one table in the core's lexicon: a
pseudo-language added that way is offered in the View menu by its own name, translates the window's strings, and is
the language the court's own wording takes in the window (tests/reports/test_lexicon.py: the reports' side)."""

from __future__ import annotations

import shutil

from courtroom_desktop.core import lexicon
from courtroom_desktop.core.court.reasons import Code, Reason
from courtroom_desktop.core.lexicon import en
from courtroom_desktop.ui import i18n

TS = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="xx">
<context>
    <name></name>
    <message>
        <source>&amp;Add files…</source>
        <translation>⟦&amp;Add files…⟧</translation>
    </message>
</context>
</TS>
"""


def test_a_pseudo_language_is_one_ts_file_and_one_lexicon_table(qapp, tmp_path, monkeypatch):
    folder = tmp_path / "translations"
    shutil.copytree(i18n.FOLDER, folder, ignore=shutil.ignore_patterns("*.qm"))
    (folder / "courtroom_xx.ts").write_text(TS, encoding="utf-8")
    monkeypatch.setattr(i18n, "FOLDER", folder)
    lexicon.register("xx", {key: f"\u27e6{value}\u27e7" if key == "language.name" or key.startswith("reason.")
                            else value for key, value in en.WORDS.items()})
    try:
        spoken = i18n.languages()
        assert spoken["xx"] == "\u27e6English\u27e7" and spoken["zh_CN"] == "\u7b80\u4f53\u4e2d\u6587"
        monkeypatch.setenv("COURTROOM_LANGUAGE", "xx")
        assert i18n.install(qapp) == "xx"
        assert i18n.tr("&Add files\u2026") == "\u27e6&Add files\u2026\u27e7"
        assert i18n.wording_language() == "xx"
        from courtroom_desktop.ui.text import said

        assert said(Reason(code=Code.stop_round_limit.value, params={"rounds": 3})) == "\u27e6round limit (3)\u27e7"
    finally:
        lexicon.unregister("xx")
        monkeypatch.setenv("COURTROOM_LANGUAGE", "en")
        i18n.install(qapp)
    assert i18n.tr("&Add files\u2026") == "&Add files\u2026" and i18n.wording_language() == "en"
