"""`courtroom export` and the function `courtroom trial --report` calls."""

from __future__ import annotations

from courtroom_desktop.cli import main
from courtroom_desktop.cli.export import print_export
from courtroom_desktop.core.workspace import Workspace


def test_export_command_writes_the_chosen_formats(trial, tmp_path, capsys):
    out = tmp_path / "out"
    code = main(["--data-dir", str(trial.data_dir), "export", trial.trial_id[:15], "--format", "md", "--format", "json",
                 "--out", str(out), "--audience", "expert"])
    assert code == 0
    printed = capsys.readouterr().out.split()
    assert printed[:2] == [str(out / "report.md"), str(out / "report.json")]
    assert all(p.endswith(".pdf") and "sources" in p for p in printed[2:]) and len(printed) > 3
    assert not (out / "report.html").exists()
    assert "Rounds in detail" in (out / "report.md").read_text()


def test_export_command_defaults_to_every_format(trial, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["--data-dir", str(trial.data_dir), "export", trial.trial_id]) == 0
    folder = tmp_path / f"report-{trial.trial_id}"
    assert {p.name for p in folder.iterdir()} >= {"report.md", "report.html", "report.pdf", "report.json", "sources"}


def test_unknown_trial_is_an_error(trial, tmp_path, capsys):
    assert main(["--data-dir", str(trial.data_dir), "export", "nope", "--out", str(tmp_path)]) == 2
    assert "no trial" in capsys.readouterr().err


def test_export_trial_as_the_trial_command_calls_it(trial, tmp_path, capsys):
    workspace = Workspace(tmp_path / "config", trial.data_dir)
    try:
        result = workspace.trials.export(trial.trial_id, ["md", "html", "pdf", "json"], str(tmp_path / "report"))
        print_export(result)
        paths = result.paths
    finally:
        workspace.close()
    assert [p.name for p in paths[:4]] == ["report.md", "report.html", "report.pdf", "report.json"]
    assert all(p.is_file() for p in paths)
    assert capsys.readouterr().out.split()[0] == str(paths[0])
