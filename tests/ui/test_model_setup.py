"""The model setup in the window, against the fake Ollama over HTTP: "Find models on this computer" on the settings
dialog's Models tab (off the GUI thread, the table, the proposal, "Use this assignment" filling the role editors),
pulling a model from the dialog (progress with bytes and MB/s, Cancel, resuming, errors), a GGUF file picked for the
embedded provider (threads and GPU layers, a file that is not a GGUF named), and the first-run offer."""

from __future__ import annotations

import asyncio
import socket
import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from courtroom_desktop.core.config import CONFIG_FILE, load_config
from courtroom_desktop.core.llm import discover, pull
from testkit.fake_ollama import FakeModel, FakeOllama

from .conftest import opened, run, until

CATALOG = [
    FakeModel("llama3.2:3b", size=2_019_393_189, parameter_size="3.2B", family="llama", context_length=131072),
    FakeModel("qwen2.5:14b", size=8_988_124_069, parameter_size="14.8B", family="qwen2", context_length=32768,
              parameter_count=14_770_033_664),
    FakeModel("nomic-embed-text:latest", size=274_302_450, parameter_size="137M", family="nomic-bert",
              quantization="F16", context_length=2048, capabilities=("embedding",)),
]


@pytest.fixture(autouse=True)
def roomy_disk(monkeypatch):
    monkeypatch.setattr(pull, "free_bytes", lambda path: 10**12)


def test_find_models_fills_the_table_and_the_assignment_fills_the_editors(make_window, qloop, qtbot, monkeypatch,
                                                                          tmp_path):
    threads = []
    real = discover.detect_blocking

    def recording(*args, **kwargs):
        threads.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(discover, "detect_blocking", recording)
    silent = socket.socket()  # a port that accepts and never answers: detection waits on it, the window must not
    silent.bind(("127.0.0.1", 0))
    silent.listen(4)
    window = make_window()
    run(qloop, opened(window))
    dialog = window.open_settings()
    setup = dialog.model_setup
    assert dialog.tabs.tabText(0) == "Models" and setup.isVisible() and not setup.use_button.isEnabled()
    ticks = []

    async def scenario():
        async def tick():
            while True:
                ticks.append(1)
                await asyncio.sleep(0.02)

        ticker = asyncio.ensure_future(tick())
        qtbot.mouseClick(setup.find_button, Qt.MouseButton.LeftButton)
        assert not setup.find_button.isEnabled()
        await until(lambda: setup.use_button.isEnabled(), 20, "the models to be found")
        ticker.cancel()

    try:
        with FakeOllama(catalog=CATALOG) as ollama:
            monkeypatch.setenv("COURTROOM_MODEL_SERVERS",
                               f"ollama={ollama.url},openai=http://127.0.0.1:{silent.getsockname()[1]}/v1")
            run(qloop, scenario(), 30)
    finally:
        silent.close()
    assert threads and not any(threads), "detection ran in worker threads (the first-run search too)"
    assert len(ticks) >= 20, "the event loop kept running while a probe waited on a silent port"
    model = setup.found_model
    assert model.rowCount() == 3
    cells = [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(3)]
    assert cells[1] == ["Ollama", "qwen2.5:14b", "9.0 GB", "14.8B", "qwen2", "Q4_K_M", "32k", "judge"]
    assert cells[0][1] == "llama3.2:3b" and cells[0][-1] == "prosecution, defense" and cells[0][6] == "128k"
    assert cells[2][1] == "nomic-embed-text:latest (embedding)" and cells[2][-1] == ""
    assert "Found Ollama (3 models)" in setup.find_status.text()
    assert "judge: qwen2.5:14b, the largest chat model on Ollama (14.8B, Q4_K_M, 32k context)" in \
        setup.proposal_text.text()

    qtbot.mouseClick(setup.use_button, Qt.MouseButton.LeftButton)
    judge, default = dialog.editors["judge"], dialog.editors["default"]
    assert not judge.inherits_role() and judge.provider_value() == "ollama" and judge.model_value() == "qwen2.5:14b"
    assert default.provider_value() == "ollama" and default.model_value() == "llama3.2:3b"
    assert dialog.editors["prosecution"].inherits_role() and dialog.editors["defense"].inherits_role()
    assert judge.base_url.text() == ollama.url and judge.fields["num_ctx"].value() == 8192
    assert not (tmp_path / "config" / CONFIG_FILE).exists(), "nothing saved before OK"
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    models = load_config(tmp_path / "config").models
    assert models.judge.model == "qwen2.5:14b" and models.for_role("defense").model == "llama3.2:3b"
    assert not window.courtroom.demo_banner.isVisible() and not window.courtroom.demo_note


def test_nothing_found_says_how_to_get_a_model(make_window, qloop, qtbot, monkeypatch):
    window = make_window()
    run(qloop, opened(window))
    dialog = window.open_settings()
    setup = dialog.model_setup
    task = setup.find_models()
    run(qloop, until(lambda: task.done(), 10, "detection"))
    assert "No model server answered" in setup.find_status.text() and "ollama serve" in setup.find_status.text()
    assert not setup.use_button.isEnabled() and setup.found_model.rowCount() == 0


def test_pull_from_the_dialog_with_progress_cancel_and_resume(make_window, qloop, qtbot):
    window = make_window()
    run(qloop, opened(window))
    dialog = window.open_settings()
    setup = dialog.model_setup
    with FakeOllama(catalog=CATALOG[:1], library={"qwen2.5:7b": [40_000_000, 1000]}, pull_chunk=400_000,
                    pull_delay_s=0.03) as ollama:
        judge = dialog.editors["judge"]
        judge.inherit.setChecked(False)
        judge.provider.setCurrentIndex(judge.provider.findData("ollama"))
        judge.base_url.setText(ollama.url)  # the dialog pulls through the Ollama its settings name
        setup.pull_name.setText("qwen2.5:7b")
        qtbot.mouseClick(setup.pull_button, Qt.MouseButton.LeftButton)
        run(qloop, until(lambda: max(ollama.downloaded.values(), default=0) >= 4_000_000, 20, "some progress"))
        run(qloop, until(lambda: "MB/s" in setup.pull_status.text(), 5, "the speed"))
        assert " of 40.0 MB" in setup.pull_status.text() and setup.pull_bar.isVisible()
        assert 0 < setup.pull_bar.value() < 1000 and setup.pull_bar.format().endswith("%")
        assert setup.cancel_button.isEnabled() and not setup.pull_button.isEnabled()
        qtbot.mouseClick(setup.cancel_button, Qt.MouseButton.LeftButton)
        run(qloop, until(lambda: setup.pull_button.isEnabled(), 10, "the cancel"))
        assert setup.pull_status.text().startswith("Cancelled: Ollama keeps what was downloaded of qwen2.5:7b")
        run(qloop, until(lambda: ollama.pull_disconnects == 1, 10, "the stream to close"))
        kept = max(ollama.downloaded.values())
        assert kept < 40_000_000

        ollama.pull_delay_s = 0.002
        qtbot.mouseClick(setup.pull_button, Qt.MouseButton.LeftButton)
        run(qloop, until(lambda: "resuming from" in setup.pull_status.text(), 10, "resuming"))
        run(qloop, until(lambda: setup.pull_status.text().startswith("Pulled qwen2.5:7b"), 30, "the pull"))
        assert setup.pull_bar.value() == 1000
        run(qloop, until(lambda: setup.found_model.rowCount() == 0 or not setup.find_button.isEnabled()
                         or setup.find_status.text(), 5, "a new search"))
    assert ollama.pulls_started == 2


def test_pull_errors_in_the_dialog(make_window, qloop, qtbot, monkeypatch):
    from testkit.loopback import free_port

    window = make_window()
    run(qloop, opened(window))
    setup = window.open_settings().model_setup
    with FakeOllama(library={}) as ollama:
        monkeypatch.setenv("OLLAMA_HOST", ollama.url)
        setup.pull_name.setText("nosuch:1b")
        task = setup.pull()
        run(qloop, until(lambda: task.done(), 10, "the pull"))
    assert "no model nosuch:1b in the Ollama library; see https://ollama.com/library" in setup.pull_status.text()
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{free_port()}")
    task = setup.pull()
    run(qloop, until(lambda: task.done(), 10, "the pull"))
    assert "cannot reach Ollama" in setup.pull_status.text() and "ollama serve" in setup.pull_status.text()
    setup.pull_name.setText("")
    assert setup.pull() is None and "Name the model" in setup.pull_status.text()
    assert not window.notice.isVisible(), "pull errors are shown where the pull is, once"


def test_a_gguf_file_for_the_embedded_provider(make_window, qloop, qtbot, tmp_path):
    window = make_window()
    run(qloop, opened(window))
    dialog = window.open_settings()
    judge = dialog.editors["judge"]
    judge.inherit.setChecked(False)
    judge.provider.setCurrentIndex(judge.provider.findData("ollama"))
    dialog.role_tabs.setCurrentWidget(judge)
    assert not judge.gguf_button.isVisible() and judge.list_button.isVisible()
    assert not judge.fields["threads"].widget.isEnabled() and not judge.fields["gpu_layers"].widget.isEnabled()
    notes = tmp_path / "notes.gguf"
    notes.write_text("not a model at all", encoding="utf-8")
    assert judge.choose_gguf(str(notes)) == str(notes)
    assert judge.provider_value() == "embedded" and judge.model_value() == str(notes)
    assert judge.gguf_button.isVisible() and not judge.list_button.isVisible()
    assert judge.fields["threads"].widget.isEnabled() and judge.fields["gpu_layers"].widget.isEnabled()
    labels = [dialog.editors["judge"].layout().labelForField(judge.fields[n].widget).text()
              for n in ("threads", "gpu_layers")]
    assert labels == ["CPU threads:", "GPU layers:"]
    judge.fields["threads"].widget.setValue(2)
    judge.fields["gpu_layers"].widget.setValue(-1)
    spec = dialog.models_settings().judge
    assert (spec.provider, spec.model, spec.threads, spec.gpu_layers) == ("embedded", str(notes), 2, -1)
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    run(qloop, until(lambda: any(r.role == "judge" for r in dialog.doctor_model._rows)
                     and dialog.test_button.isEnabled(), 120, "the doctor"))
    server = next(r for r in dialog.doctor_model._rows if r.role == "judge" and r.check == "server")
    assert server.ok is False and f"{notes} is not a GGUF file" in server.detail
    assert "1 check failed" in dialog.test_status.text() or "checks failed" in dialog.test_status.text()


def test_first_run_offers_the_models_found_in_one_click(make_window, qloop, qtbot, monkeypatch, tmp_path):
    with FakeOllama(catalog=CATALOG) as ollama:
        monkeypatch.setenv("COURTROOM_MODEL_SERVERS", f"ollama={ollama.url}")
        window = make_window()
        court = window.courtroom
        assert court.demo_banner.isVisibleTo(window) and "demo model" in court.demo_banner.text()
        run(qloop, opened(window))
        run(qloop, until(lambda: window.model_offer.isVisible(), 20, "the offer"))
    offer = window.model_offer
    assert "judge: qwen2.5:14b, the largest chat model on Ollama" in offer.text.text()
    assert "prosecution: llama3.2:3b" in offer.text.text()
    qtbot.mouseClick(offer.use_button, Qt.MouseButton.LeftButton)
    assert not offer.isVisible()
    models = load_config(tmp_path / "config").models
    assert models.judge.model == "qwen2.5:14b" and models.default.model == "llama3.2:3b"
    assert window.workspace.config.models.judge.model == "qwen2.5:14b", "in use from the next trial"
    assert not court.demo_banner.isVisible()


def test_first_run_offer_not_now_is_remembered_and_not_made_with_a_settings_file(make_window, qloop, qtbot,
                                                                                 monkeypatch, ui_settings, tmp_path):
    with FakeOllama(catalog=CATALOG) as ollama:
        monkeypatch.setenv("COURTROOM_MODEL_SERVERS", f"ollama={ollama.url}")
        window = make_window()
        run(qloop, opened(window))
        run(qloop, until(lambda: window.model_offer.isVisible(), 20, "the offer"))
        qtbot.mouseClick(window.model_offer.later_button, Qt.MouseButton.LeftButton)
        assert not window.model_offer.isVisible() and ui_settings.value("models/offer_dismissed", type=bool)
        assert window.offer_models() is None, "not offered again"
        assert not (tmp_path / "config" / CONFIG_FILE).exists()
        ui_settings.remove("models/offer_dismissed")
        (tmp_path / "config").mkdir(exist_ok=True)
        (tmp_path / "config" / CONFIG_FILE).write_text("schema_version = 1\n", encoding="utf-8")
        assert window.offer_models() is None, "a settings file: not a first run"
