"""Private notes never go to a model server on another machine: a trial (or a resumed one) whose scope holds them
refuses while a role's server is remote, and names the notes, the role and the server (core.llm.servers)."""

from __future__ import annotations

import pytest

from courtroom_desktop.core.config import AppConfig, ModelSettings, ModelSpec
from courtroom_desktop.core.errors import TrialError
from courtroom_desktop.core.llm.pull import is_local
from courtroom_desktop.core.privacy import is_this_computer, remote_roles, server_of, servers
from courtroom_desktop.core.workspace import Workspace

REMOTE = ModelSpec(provider="openai", model="gpt-4o-mini", base_url="https://api.example.com/v1")
LOCAL_OLLAMA = ModelSpec(provider="ollama", model="qwen2.5:7b", base_url="http://127.0.0.1:11434")


@pytest.mark.parametrize(("url", "local"), [
    ("http://localhost:11434", True), ("http://LOCALHOST:11434", True), ("http://127.0.0.1:8080/v1", True),
    ("http://[::1]:11434", True), ("http://127.8.9.1", True), ("localhost:11434", True),
    ("http://[::ffff:127.0.0.1]:11434", True), ("http://[::ffff:7f00:2]:8000/v1", True),
    ("http://ollama.localhost:11434", False), ("http://0.0.0.0:11434", False), ("http://[::]:11434", False),
    ("http://[::ffff:10.0.0.2]:11434", False), ("http://192.168.1.20:11434", False), ("http://172.16.0.5", False),
    ("https://api.example.com/v1", False), ("http://localhost.evil.com", False), ("http://10.0.0.2", False),
    ("http://gpu-box.lan:11434", False), ("http://[fe80::1%25eth0]:11434", False), ("http://[::1", False), ("", False),
])
def test_one_rule_for_this_computer(url, local):
    """core.privacy's rule, the only one: the privacy checks and the pull's disk check agree on every address."""
    assert is_this_computer(url) is local
    assert is_local(url) is local


def test_where_each_role_sends_its_text():
    models = ModelSettings(default=ModelSpec(), judge=REMOTE, defense=LOCAL_OLLAMA)
    where = servers(models)
    assert where["prosecution"].local and "this computer" in where["prosecution"].label
    assert where["defense"].local and where["defense"].label == "Ollama at 127.0.0.1:11434 (this computer)"
    assert not where["judge"].local and where["judge"].label.startswith("OpenAI-compatible server at api.example.com")
    assert list(remote_roles(models)) == ["judge"]
    assert server_of(ModelSpec(provider="ollama")).local  # the default Ollama URL is localhost


@pytest.fixture
def notes(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "budget.md").write_text("# Budget\n\nRent in Lisbon is 1,250 euros a month for a one-bedroom flat in "
                                      "Arroios, groceries are cheaper than in Manchester.\n", encoding="utf-8")
    (folder / "offers.md").write_text("# Offers\n\nThe Berlin offer pays 68,000 euros a year; the Lisbon offer pays "
                                      "48,000 euros a year with a team of three.\n", encoding="utf-8")
    return folder


def workspace_with(tmp_path, models: ModelSettings) -> Workspace:
    return Workspace(tmp_path / "config", tmp_path / "data", AppConfig(models=models))


def test_a_trial_over_private_notes_refuses_a_remote_server_and_names_it(tmp_path, notes):
    ws = workspace_with(tmp_path, ModelSettings(default=ModelSpec(), judge=REMOTE))
    try:
        ws.library.ingest([notes / "budget.md"], private=True)
        ws.library.ingest([notes / "offers.md"])
        with pytest.raises(TrialError) as caught:
            ws.trials.start("Should I move to Lisbon?", "decision")
        message = str(caught.value)
        assert "private notes ('Budget')" in message
        assert "the judge would send it to OpenAI-compatible server at api.example.com" in message
        assert "https://api.example.com/v1" in message and "prosecution" not in message
        assert "Settings" in caught.value.fix and "scope" in caught.value.fix
        assert ws.trials.list() == []  # nothing was created
        # the same trial over the notes that are not private goes ahead
        offers = next(d for d in ws.parts.library.catalog.documents() if d.title == "Offers")
        run = ws.trials.start("Should I move to Lisbon?", "decision", documents=[offers.id])
        assert run.trial_id
    finally:
        ws.close()


def test_local_servers_may_read_private_notes_and_a_resume_checks_again(tmp_path, notes):
    ws = workspace_with(tmp_path, ModelSettings(default=ModelSpec(), judge=LOCAL_OLLAMA))
    try:
        ws.library.ingest([notes], private=True)
        run = ws.trials.start("Should I move to Lisbon?", "decision")
    finally:
        ws.close()
    # the settings change to a remote judge before the trial is resumed: the resume refuses
    ws = workspace_with(tmp_path, ModelSettings(default=ModelSpec(), judge=REMOTE))
    try:
        with pytest.raises(TrialError, match="the judge would send it to OpenAI-compatible server"):
            ws.trials.resume(run.trial_id)
    finally:
        ws.close()
