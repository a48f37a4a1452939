"""Honest labelling: a trial run on the bundled demo model (provider embedded, no model path) says so next to its
verdict, in the window (the verdict card and the courtroom's banner), on the command line and in every report; a
trial on another model does not. Scripted trials over the hash-embedded sample library (tests/ui fixtures): the
labels come from the trial's recorded models, as they do for real models."""

from __future__ import annotations

from PySide6.QtCore import Qt

from courtroom_desktop.core.config import AppConfig, ModelSettings, ModelSpec
from courtroom_desktop.core.llm.demo import DEMO_NOTE, demo_line, demo_roles, is_demo_label, is_demo_spec
from courtroom_desktop.ui.qt_models.transcript import VerdictItem

from .conftest import FAST_DEBATE, make_workspace, opened, run, until

CLAIM = "Vitamin D deficiency is unrelated to birth weight."
OLLAMA = AppConfig(debate=FAST_DEBATE, models=ModelSettings(default=ModelSpec(provider="ollama", model="qwen2.5:14b")))


def run_trial(window, qtbot, qloop):
    court = window.courtroom

    async def scenario():
        await opened(window)
        await until(lambda: window.library.ready_documents(), 30, "the library")
        court.set_claim(CLAIM)
        qtbot.mouseClick(court.start_button, Qt.MouseButton.LeftButton)
        await until(lambda: window.trial.state == "finished", 60, "the verdict")

    run(qloop, scenario(), 90)
    court.view.flush()
    return len(window.transcript_model.items()) - 1


def test_the_demo_model_is_named_next_to_the_verdict_in_the_window(sample_window, qloop, qtbot):
    window = sample_window
    court = window.courtroom
    assert court.demo_banner.isVisibleTo(window), "before a trial: the next one will run on the demo model"
    assert DEMO_NOTE in court.demo_banner.text() and "Set up a model" in court.demo_banner.text()
    row = run_trial(window, qtbot, qloop)
    assert isinstance(window.transcript_model.items()[row], VerdictItem)
    assert window.trial.spec.models == {r: "embedded:bundled SmolLM2-135M" for r in ("prosecution", "defense",
                                                                                      "judge")}
    card = court.view.card_text(row)
    assert card.startswith("Verdict: Supported")
    assert card.splitlines()[1].startswith("\u26a0 " + DEMO_NOTE), card.splitlines()[:3]
    assert "Settings \u2192 Models" in card
    assert court.demo_banner.isVisible() and "every role" in court.demo_banner.toolTip()

    # the banner's link opens the model setup
    court.demo_banner.linkActivated.emit("setup:models")
    dialog = window.dialogs["settings"]
    assert dialog.tabs.currentIndex() == 0 and dialog.tabs.tabText(0) == "Models" and dialog.model_setup.isVisible()
    dialog.reject()


def test_a_trial_on_another_model_carries_no_demo_label(make_window, sample_library_template, qloop, qtbot,
                                                        tmp_path):
    window = make_window(workspace=make_workspace(tmp_path, sample_library_template, config=OLLAMA))
    court = window.courtroom
    assert not court.demo_banner.isVisibleTo(window)
    row = run_trial(window, qtbot, qloop)
    assert window.trial.spec.models["judge"] == "ollama:qwen2.5:14b"
    assert DEMO_NOTE not in court.view.card_text(row) and not court.demo_banner.isVisible()


def test_the_command_line_says_so_before_the_trial_and_after_the_verdict(sample_library_template, tmp_path, capsys,
                                                                        monkeypatch):
    from courtroom_desktop.cli.trial import drive

    monkeypatch.setenv("COLUMNS", "240")  # one line per line

    workspace = make_workspace(tmp_path, sample_library_template)
    try:
        run = workspace.trials.start(CLAIM)
        assert drive(workspace, run, None, stream=False) == 0
    finally:
        workspace.close()
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith(DEMO_NOTE) and "`courtroom models list`" in lines[0]
    verdict = next(i for i, line in enumerate(lines) if line.startswith("SUPPORTED (confidence"))
    assert lines[verdict + 1].startswith(DEMO_NOTE), lines[verdict:verdict + 3]


def test_the_command_line_says_nothing_for_another_model(sample_library_template, tmp_path, capsys):
    from courtroom_desktop.cli.trial import drive

    workspace = make_workspace(tmp_path, sample_library_template, config=OLLAMA)
    try:
        assert drive(workspace, workspace.trials.start(CLAIM), None, stream=False) == 0
    finally:
        workspace.close()
    assert DEMO_NOTE not in capsys.readouterr().out


def test_which_settings_and_labels_are_the_demo_model():
    assert is_demo_spec(ModelSpec()) and is_demo_spec(ModelSpec(model="bundled"))
    assert not is_demo_spec(ModelSpec(model="/models/qwen.gguf"))
    assert not is_demo_spec(ModelSpec(provider="ollama", model="qwen2.5:14b"))
    assert is_demo_label("embedded:bundled SmolLM2-135M") and is_demo_label("embedded:")
    assert not is_demo_label("embedded:/models/SmolLM2-135M-copy.gguf") and not is_demo_label("ollama:bundled")
    mixed = ModelSettings(judge=ModelSpec(provider="ollama", model="qwen2.5:14b"))
    assert demo_roles(mixed) == ["prosecution", "defense"]
    assert "(prosecution, defense on the bundled SmolLM2-135M" in demo_line(mixed)
    assert demo_line({"judge": "ollama:x"}) == "" and demo_line(None) == ""


def test_every_report_says_so_next_to_the_verdict(sample_library_template, tmp_path):
    import asyncio

    from courtroom_desktop.core.reports import TrialRecord, view

    def report(config=None):
        workspace = make_workspace(tmp_path / ("demo" if config is None else "ollama"), sample_library_template,
                                   config=config)
        try:
            run = workspace.trials.start(CLAIM)

            async def drain():
                async for _event in run.events():
                    pass

            asyncio.run(drain())
            out = tmp_path / f"report-{run.trial_id}"
            workspace.trials.export(run.trial_id, ["md", "html", "pdf", "json"], out)
            return out, TrialRecord.from_store(workspace.parts.trials, run.trial_id)
        finally:
            workspace.close()

    out, record = report()
    md = (out / "report.md").read_text(encoding="utf-8").splitlines()
    verdict = next(i for i, line in enumerate(md) if line.startswith("**Verdict: SUPPORTED**"))
    assert md[verdict + 2].startswith(f"> **\u26a0 {DEMO_NOTE}"), md[verdict:verdict + 3]
    assert "set up a model in the window's Settings \u2192 Models, or with \\`courtroom models list\\`" in md[verdict + 2]
    html = (out / "report.html").read_text(encoding="utf-8")
    box = html[html.index('<div class="verdict'):]
    box = box[:box.index("</div>")]
    assert f'<p class="warning"><b>\u26a0 {DEMO_NOTE} (prosecution, defense, judge on the bundled' in box
    import fitz  # the PDF is rendered from the HTML: the note is in it, on the first page

    with fitz.open(out / "report.pdf") as pdf:
        first = " ".join(pdf[0].get_text().split())
    assert DEMO_NOTE in first
    assert record.spec.models["judge"] == "embedded:bundled SmolLM2-135M"
    zh = record.model_copy(update={"spec": record.spec.model_copy(update={"claim": "维生素D缺乏与出生体重无关。"})})
    assert view.demo_note(zh).startswith("演示模型：仅供试用本应用，请勿依赖此裁决")

    out, record = report(OLLAMA)
    assert view.demo_note(record) == ""
    assert "demo model" not in (out / "report.md").read_text(encoding="utf-8")
    assert "demo model" not in (out / "report.html").read_text(encoding="utf-8")
