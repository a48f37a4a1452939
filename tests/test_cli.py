"""The `courtroom` command: version, help texts, config, ingest and library commands end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from courtroom_desktop import __version__
from courtroom_desktop.cli import SUBCOMMANDS, main

from .library.docs import make_not_pdf, make_structured


def courtroom(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "courtroom_desktop", *args], capture_output=True, text=True,
                            timeout=300)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def test_version():
    assert courtroom("--version").stdout.strip().endswith(__version__)


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_subcommand_has_help(command, capsys):
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    assert f"usage: courtroom {command}" in capsys.readouterr().out


def test_config_set_validates_and_persists(tmp_path, capsys):
    config_dir = tmp_path / "cfg"
    assert main(["--config-dir", str(config_dir), "config", "set", "debate.max_rounds", "6"]) == 0
    assert "max_rounds = 6" in (config_dir / "config.toml").read_text()
    assert main(["--config-dir", str(config_dir), "config", "set", "retrieval.k", "0"]) == 2
    assert "retrieval.k" in capsys.readouterr().err
    (config_dir / "config.toml").write_text("[retrieval]\nk = 'many'\n")
    assert main(["--config-dir", str(config_dir), "config", "show"]) == 2
    err = capsys.readouterr().err
    assert "config.toml" in err and "retrieval.k" in err


def test_ingest_list_show_remove(tmp_path):
    docs = tmp_path / "pdfs"
    docs.mkdir()
    make_structured(docs / "report.pdf", outline=True, title="Blood Pressure Trial")
    make_not_pdf(docs / "notes.pdf")
    data = ["--data-dir", str(tmp_path / "data")]
    result = courtroom(*data, "ingest", str(docs), "--quiet", check=False)
    assert result.returncode == 1  # one file failed
    assert "1 added" in result.stderr and "1 failed" in result.stderr
    assert "notes.pdf" in result.stderr and "not a PDF" in result.stderr
    listing = json.loads(courtroom(*data, "library", "list", "--json").stdout)
    [doc] = listing["documents"]
    assert doc["title"] == "Blood Pressure Trial" and doc["status"] == "ready"
    assert Path(listing["failures"][0]["path"]).name == "notes.pdf"
    shown = courtroom(*data, "library", "show", doc["id"][:6]).stdout
    assert "2 Methods > 2.1 Participants" in shown
    assert courtroom(*data, "library", "check").returncode == 0
    courtroom(*data, "library", "remove", doc["id"])
    assert json.loads(courtroom(*data, "library", "list", "--json").stdout)["documents"] == []
    missing = courtroom(*data, "library", "show", "ffff", check=False)
    assert missing.returncode == 2 and "no document" in missing.stderr


def test_watch_add_then_once_keeps_the_folder_in_step(tmp_path, capsys):
    """`courtroom watch add` then `courtroom watch --once`: the workspace's watcher ingests the folder's PDF and says
    so; without a watched folder it says how to add one (break: build no watcher in Workspace.folder_watcher)."""
    docs = tmp_path / "pdfs"
    docs.mkdir()
    make_structured(docs / "report.pdf", outline=True, title="Blood Pressure Trial")
    dirs = ["--config-dir", str(tmp_path / "config"), "--data-dir", str(tmp_path / "data")]
    assert main([*dirs, "watch", "--once"]) == 0
    assert "No watched folders" in capsys.readouterr().out
    assert main([*dirs, "watch", "add", str(docs)]) == 0
    assert main([*dirs, "watch", "--once"]) == 0
    assert "1 added" in capsys.readouterr().out
    listing = json.loads(courtroom(*dirs, "library", "list", "--json").stdout)
    assert [d["title"] for d in listing["documents"]] == ["Blood Pressure Trial"]


def test_the_command_line_speaks_the_users_language(tmp_path, capsys, monkeypatch):
    """--language zh (or COURTROOM_LANGUAGE, or the locale) says the core's errors, their fixes and a file's skip
    reason in Chinese from the lexicon's tables; without them the same words come in English (break: main printing
    str(exc) as it came, and it fails)."""
    from courtroom_desktop.core.text import has_cjk
    from testkit.untranslated import english_words

    config_dir, data_dir = tmp_path / "cfg", tmp_path / "data"
    config_dir.mkdir()
    (config_dir / "config.toml").write_text("[debate]\nmin_rounds = 5\nmax_rounds = 2\n", encoding="utf-8")
    base = ["--config-dir", str(config_dir), "--data-dir", str(data_dir)]
    monkeypatch.delenv("COURTROOM_LANGUAGE", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert main([*base, "library", "list"]) == 2
    english = capsys.readouterr().err
    assert english.startswith("error: ") and "exceeds debate.max_rounds" in english
    for how in ("option", "environment", "locale"):
        args = ["--language", "zh", *base] if how == "option" else base
        if how == "environment":
            monkeypatch.setenv("COURTROOM_LANGUAGE", "zh_CN")
        if how == "locale":
            monkeypatch.delenv("COURTROOM_LANGUAGE")
            monkeypatch.setenv("LANG", "zh_CN.UTF-8")
        assert main([*args, "library", "list"]) == 2
        chinese = capsys.readouterr().err
        assert chinese.startswith("错误：") and "debate.min_rounds" in chinese and has_cjk(chinese), (how, chinese)
        assert english_words(chinese, {"debate.min_rounds", "debate.max_rounds", "debate", "config.toml"}) == [], chinese
    monkeypatch.setenv("LANG", "C.UTF-8")
    (config_dir / "config.toml").unlink()
    broken = tmp_path / "broken.pdf"
    make_not_pdf(broken)
    main(["--language", "zh", *base, "ingest", str(broken)])
    out = capsys.readouterr()
    line = next(line for line in (out.out + out.err).splitlines() if "broken.pdf" in line)
    assert has_cjk(line), line
