"""A team's library as the app opens it, on each store (``store``: S3, Google Cloud Storage, Azure Blob Storage, each
an emulator on loopback): library.uri and library.endpoint in the settings, credentials from the environment (never
the settings file), a trial argued over it with scripted models, a report whose cited page opens from the stored
copy; and `courtroom library credentials` putting a bucket's keys in the keyring."""

from __future__ import annotations

import asyncio
import shutil

import pytest

from courtroom_desktop.core.config import AppConfig, LibrarySettings, save_config
from courtroom_desktop.core.errors import ConfigError
from tests.court.fakes import assess_all, counsel, ruling, verdict
from tests.ui.conftest import FAST_DEBATE

from .test_shared_library import pdfs  # noqa: F401 - the fixture


def shared_config(store, prefix: str, **library) -> AppConfig:
    return AppConfig(debate=FAST_DEBATE, library=LibrarySettings(uri=store.uri(prefix), endpoint=store.endpoint,
                                                                 isolate_extraction=False, **library))


def test_a_trial_over_a_shared_library_opened_from_the_settings(store, tmp_path, pdfs, monkeypatch):  # noqa: F811
    from courtroom_desktop.core.llm import ModelRouter, ScriptedChatModel
    from courtroom_desktop.core.workspace import Workspace

    for name, value in store.environment().items():
        monkeypatch.setenv(name, value)
    config = shared_config(store, "team")
    ws = Workspace(tmp_path / "config", tmp_path / "data", config)
    assert ws.library.location.shared and f"{store.name}: {store.uri('team')} at http://127.0.0.1" in \
        ws.library.location.describe()
    assert ws.library.ingest(pdfs).added == 3
    saved = save_config(config, tmp_path / "config").read_text()
    assert store.uri("team") in saved and store.endpoint in saved
    saved = saved.replace(store.endpoint, "")  # Azurite's URL names its account, as an Azure account's URL does
    assert not any(value in saved for value in store.environment().values())
    shutil.rmtree(pdfs[0].parent)
    ws.close()

    colleague = Workspace(tmp_path / "config2", tmp_path / "data2", config)  # another machine, nothing local
    judge = ScriptedChatModel([ruling(0.85, ready=True, reason="[E1] decides it"), ruling(0.9, ready=True),
                               verdict()] * 3, role="judge", standing={"EvidenceAssessment": assess_all()})
    colleague.parts._router = ModelRouter(config.models, overrides={
        "prosecution": ScriptedChatModel([counsel] * 40, role="prosecution"),
        "defense": ScriptedChatModel([counsel] * 40, role="defense"), "judge": judge})
    run = colleague.trials.start("Vitamin D supplements in pregnancy raise birth weight.")

    async def drive():
        return [e async for e in run.events()]

    events = asyncio.run(drive())
    assert events[-1].kind == "verdict"
    cited = [e.entry.evidence for e in events if e.kind == "evidence_added"]
    assert cited
    located = colleague.library.locate(cited[0].chunk.doc_id)
    assert located and located.startswith(str(tmp_path / "data2"))  # fetched from the stored copy
    paths = colleague.trials.export(run.trial_id, ["html"], tmp_path / "report").paths
    assert any(p.suffix == ".pdf" for p in paths)  # the highlighted source pages, cut from the stored copy
    colleague.close()


def test_credentials_go_to_the_keyring_and_a_wrong_uri_is_named(store, tmp_path, memory_keyring):
    from courtroom_desktop.core.library.shared.location import locate, store_credentials

    location = locate(store.uri("keys"), tmp_path, endpoint=store.endpoint, data_dir=tmp_path)
    credentials = store.credentials()
    assert not set(credentials) & set(location.options)
    where = store_credentials(location, credentials, data_dir=tmp_path)
    assert where == "keyring" and any(f"{store.kind}://team-library" in k for k in map(str, memory_keyring.store))
    again = locate(store.uri("keys"), tmp_path, endpoint=store.endpoint, data_dir=tmp_path)
    assert all(again.options[k] == v and v not in repr(again) for k, v in credentials.items())
    with pytest.raises(ConfigError, match="ftp://"):
        locate("ftp://host/x", tmp_path)
    with pytest.raises(ConfigError, match="names no bucket"):
        locate("s3:///x", tmp_path)
    with pytest.raises(ConfigError, match="not a credential"):
        store_credentials(location, {"password": "x"}, data_dir=tmp_path)


def test_the_command_line_says_where_the_library_lives_and_stores_credentials(store, tmp_path, memory_keyring,
                                                                             monkeypatch, capsys):
    import io

    from courtroom_desktop.cli import main
    from courtroom_desktop.core.library.shared.location import CREDENTIAL_FIELDS

    base = ["--config-dir", str(tmp_path / "config"), "--data-dir", str(tmp_path / "data")]
    assert main([*base, "config", "set", "library.uri", store.uri("cli")]) == 0
    assert main([*base, "config", "set", "library.endpoint", store.endpoint]) == 0
    credentials = store.credentials()
    answers = "".join(f"{credentials.get(name, '')}\n" for name in CREDENTIAL_FIELDS[store.kind])  # empty: skipped
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    assert main([*base, "library", "credentials"]) == 0
    assert "stored in the OS keyring" in capsys.readouterr().out
    assert main([*base, "library", "where"]) == 0  # opens the library with the keyring's credentials
    out = capsys.readouterr().out
    assert f"{store.name}: {store.uri('cli')}" in out and "read-write" in out and str(tmp_path / "data") in out
    assert main([*base, "library", "check"]) == 0
    saved = "".join(p.read_text() for p in (tmp_path / "config").rglob("*.toml")).replace(store.endpoint, "")
    assert store.uri("cli") in saved and not any(value in saved for value in credentials.values())
