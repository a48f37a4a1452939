"""Secrets: an API key lives in the OS keyring, or (no keyring) in a file only its owner can read, with a
warning, and never anywhere else: not in logs (at DEBUG, every library's logger included), the settings file, the
trial store, the library, the exported reports, the doctor's rows or error messages, even when a server echoes
the key back in an error.

The run: set a key with no keyring backend (file, 0600, warning), run a trial with every role on a loopback
OpenAI-compatible server that refuses requests without that key, export the report in every format, run the
doctor, then point a role at a server that answers 401 quoting the key, and finally set a key with a keyring
backend present (no file). Then every file written and every log line is searched for the keys.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import secrets as pysecrets
import stat
import tempfile
import time
from pathlib import Path

from courtroom_desktop.core import secrets
from courtroom_desktop.core.config import AppConfig, DebateSettings, ModelSettings, ModelSpec, save_config
from courtroom_desktop.core.court import TrialSpec
from courtroom_desktop.core.workspace import Workspace
from stress.common import CLAIM, Section, actor, open_library, write_baseline
from testkit.fake_openai import MODEL, FakeOpenAI


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.lines.append(self.format(record))
        except Exception:  # noqa: BLE001 - a log record that cannot be formatted is not the point here
            self.lines.append(str(record.msg))


def files_holding(roots: list[Path], needles: list[str]) -> list[Path]:
    hits = []
    encoded = [n.encode() for n in needles]
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            data = path.read_bytes()
            if any(n in data for n in encoded):
                hits.append(path)
    return hits


def spec_for(url: str, **updates) -> ModelSpec:
    values = {"provider": "openai", "base_url": url, "model": MODEL, "read_timeout_s": 10.0, "connect_timeout_s": 2.0,
              "retries": 0, "max_tokens": 200}
    values.update(updates)
    return ModelSpec(**values)


async def _trial(workspace: Workspace) -> tuple[str, list]:
    settings = DebateSettings(min_rounds=2, max_rounds=2, max_switches=0, argument_format="text", novelty_min=0.0)
    court = workspace.parts.court(None, settings)
    trial_id = court.start(TrialSpec(claim=CLAIM, models=workspace.models.labels()))
    events = [e async for e in court.run(trial_id)]
    await workspace.parts.router.aclose()
    return trial_id, events


def run(work: Path | None = None, log=print) -> Section:
    import keyring
    from keyring.backends import fail

    from courtroom_desktop.core.llm.doctor import run_doctor
    from testkit.keyrings import MemoryKeyring

    section = Section("secrets")
    began = time.perf_counter()
    key = "sk-stress-" + pysecrets.token_hex(20)
    keyring_key = "sk-keyring-" + pysecrets.token_hex(20)
    saved_env = {k: os.environ.get(k) for k in ("COURTROOM_CONFIG_DIR", "COURTROOM_DATA_DIR")}
    saved_keyring = keyring.get_keyring()
    root_logger = logging.getLogger()
    saved_level = root_logger.level
    records = Records()
    printed = io.StringIO()
    with tempfile.TemporaryDirectory(prefix="stress-secrets-", dir=work) as tmp:
        root = Path(tmp)
        config_dir, data_dir, report_dir, log_dir = (root / n for n in ("config", "data", "report", "logs"))
        log_dir.mkdir()
        file_log = logging.FileHandler(log_dir / "app.log", encoding="utf-8")
        file_log.setLevel(logging.DEBUG)
        file_log.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
        os.environ["COURTROOM_CONFIG_DIR"], os.environ["COURTROOM_DATA_DIR"] = str(config_dir), str(data_dir)
        root_logger.addHandler(file_log)
        root_logger.addHandler(records)
        root_logger.setLevel(logging.DEBUG)
        try:
            with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
                with FakeOpenAI(key, answer=actor) as server, FakeOpenAI("another-key", echo_key=True, answer=actor) as echo:
                    # 1. no keyring: an owner-only file, and a warning
                    keyring.set_keyring(fail.Keyring())
                    secrets._warned = False
                    where = secrets.set_api_key(server.url, key)
                    secrets.set_api_key(echo.url, key)
                    fallback = data_dir / secrets.FALLBACK_FILE
                    mode = stat.S_IMODE(fallback.stat().st_mode) if fallback.exists() else None
                    section.counts["fallback file mode"] = oct(mode) if mode is not None else "missing"
                    if where != str(fallback) or mode != 0o600:
                        section.fail(f"without a keyring the key went to {where} with mode {mode and oct(mode)}")
                    if not any("no usable OS keyring" in line for line in records.lines):
                        section.fail("no warning when the key fell back to a file")
                    # 2. a trial on a server that needs the key, its report, the settings file, the doctor
                    config = AppConfig(models=ModelSettings(default=spec_for(server.url)))
                    save_config(config, config_dir)
                    workspace = Workspace(config_dir, data_dir, config)
                    workspace.parts._library = open_library(data_dir / "library")
                    try:
                        workspace.library.ingest(write_baseline(root / "docs"))
                        trial_id, events = asyncio.run(_trial(workspace))
                        workspace.trials.export(trial_id, ["md", "html", "pdf", "json"], report_dir)
                        rows = asyncio.run(run_doctor(config, roles=["judge"], data_dir=data_dir))
                        # 3. a server that quotes the key in its 401 answer
                        workspace.reconfigure(AppConfig(models=ModelSettings(default=spec_for(server.url),
                                                                             judge=spec_for(echo.url))))
                        echoed_id, echoed = asyncio.run(_trial(workspace))
                        rows += asyncio.run(run_doctor(workspace.config, roles=["judge"], data_dir=data_dir))
                    finally:
                        workspace.close()
                    section.counts["requests with the key"] = server.authorized
                    if events[-1].kind != "verdict" or server.refused or not server.authorized:
                        section.fail(f"the trial on the keyed server did not finish ({events[-1].kind}, "
                                     f"{server.refused} requests refused)")
                    if echoed[-1].kind != "error" or not echo.refused:
                        section.fail("the server that refuses the key did not pause the trial")
                    texts = [r.detail for r in rows] + [r.fix for r in rows] + [getattr(e, "message", "") for e in echoed]
                    if any(key in t for t in texts):
                        section.fail("an error message or doctor row quotes the key")
                    # 4. with a keyring: the key goes there and nowhere else
                    keyring.set_keyring(MemoryKeyring())
                    fallback_before = fallback.read_bytes()
                    where = secrets.set_api_key("http://127.0.0.1:9/v1", keyring_key)
                    if where != "keyring" or secrets.get_api_key("http://127.0.0.1:9/v1") != keyring_key:
                        section.fail(f"with a keyring the key went to {where}")
                    if fallback.read_bytes() != fallback_before:
                        section.fail("with a keyring the fallback file changed")
        finally:
            keyring.set_keyring(saved_keyring)
            root_logger.removeHandler(file_log)
            root_logger.removeHandler(records)
            root_logger.setLevel(saved_level)
            file_log.close()
            for name, value in saved_env.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
        (log_dir / "captured.txt").write_text("\n".join(records.lines) + "\n" + printed.getvalue(), encoding="utf-8")
        searched = [config_dir, data_dir, report_dir, log_dir]
        section.counts["files searched"] = sum(1 for r in searched for p in r.rglob("*") if p.is_file())
        section.counts["log lines searched"] = len(records.lines)
        hits = [p for p in files_holding(searched, [key, keyring_key]) if p != data_dir / secrets.FALLBACK_FILE]
        if keyring_key.encode() in (data_dir / secrets.FALLBACK_FILE).read_bytes():
            hits.append(data_dir / secrets.FALLBACK_FILE)
        section.counts["key found in logs, config, trial store, exports"] = len(hits)
        for path in hits:
            section.fail(f"the key is in {path.relative_to(root)}")
    section.seconds = time.perf_counter() - began
    log(f"  {section.counts}")
    return section
