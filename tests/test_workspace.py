"""The use cases in core.workspace, as the command line and the window call them."""

from __future__ import annotations

import pytest

from courtroom_desktop.core.config import AppConfig, DebateSettings
from courtroom_desktop.core.errors import TrialError
from courtroom_desktop.core.workspace import EMPTY_LIBRARY, Workspace


@pytest.fixture
def workspace(tmp_path):
    ws = Workspace(tmp_path / "config", tmp_path / "data", AppConfig(debate=DebateSettings(passages_per_turn=4)))
    yield ws
    ws.close()


def test_the_court_takes_its_passages_per_turn_from_the_debate_settings(workspace):
    assert workspace.parts.court().k == 4
    assert workspace.parts.court(settings=DebateSettings(passages_per_turn=9)).k == 9


def test_a_trial_needs_a_claim_and_a_library(workspace):
    with pytest.raises(TrialError, match="claim is empty"):
        workspace.trials.start("   ")
    with pytest.raises(TrialError) as caught:
        workspace.trials.start("Coffee prevents colds.")
    assert str(caught.value) == EMPTY_LIBRARY and "courtroom ingest" in EMPTY_LIBRARY


def test_round_bounds_given_on_the_command_line(workspace):
    debate = workspace.config.debate
    assert (debate.with_rounds(max_rounds=1).min_rounds, debate.with_rounds(max_rounds=1).max_rounds) == (1, 1)
    assert debate.with_rounds(min_rounds=6).max_rounds == 6
    with pytest.raises(ValueError, match="min_rounds \\(3\\) exceeds debate.max_rounds \\(2\\)"):
        debate.with_rounds(min_rounds=3, max_rounds=2)


class _Model:
    def __init__(self, provider: str, loaded: list[str], fails: bool = False):
        self.provider, self.loaded, self.fails = provider, loaded, fails

    async def load(self) -> None:
        if self.fails:
            raise RuntimeError("no such GGUF file")
        self.loaded.append(self.provider)


class _Router:
    def __init__(self, models):
        self.models = models
        self.closed = False

    def for_role(self, role):
        return self.models[role]

    async def aclose(self):
        self.closed = True


def test_the_window_preloads_the_embedded_chat_models_through_the_workspace(workspace, caplog):
    """The use case the window calls right after it shows (it used to walk the router itself): embedded models are
    loaded, the others are not, and a model that fails to load stops the preload with a warning, never an error.
    Break: load every provider, and the first assertion fails."""
    import asyncio

    loaded: list[str] = []
    workspace.parts._router = _Router({"prosecution": _Model("embedded", loaded), "defense": _Model("ollama", loaded),
                                 "judge": _Model("embedded", loaded)})
    asyncio.run(workspace.models.preload())
    assert loaded == ["embedded", "embedded"]
    workspace.parts._router = _Router({"prosecution": _Model("embedded", loaded, fails=True),
                                 "defense": _Model("embedded", loaded), "judge": _Model("embedded", loaded)})
    asyncio.run(workspace.models.preload())
    assert loaded == ["embedded", "embedded"] and "preloading the prosecution model failed" in caplog.text
    asyncio.run(workspace.models.aclose())
    assert workspace.parts._router.closed


def test_a_documents_file_before_the_library_opens_is_its_stored_path(workspace):
    assert not workspace.library.is_open
    assert workspace.library.local_file("/papers/a.pdf") == "/papers/a.pdf"
    assert not workspace.library.is_open  # asking did not open it
