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
    assert workspace.court().k == 4
    assert workspace.court(settings=DebateSettings(passages_per_turn=9)).k == 9


def test_a_trial_needs_a_claim_and_a_library(workspace):
    with pytest.raises(TrialError, match="claim is empty"):
        workspace.start_trial("   ")
    with pytest.raises(TrialError) as caught:
        workspace.start_trial("Coffee prevents colds.")
    assert str(caught.value) == EMPTY_LIBRARY and "courtroom ingest" in EMPTY_LIBRARY


def test_round_bounds_given_on_the_command_line(workspace):
    debate = workspace.config.debate
    assert (debate.with_rounds(max_rounds=1).min_rounds, debate.with_rounds(max_rounds=1).max_rounds) == (1, 1)
    assert debate.with_rounds(min_rounds=6).max_rounds == 6
    with pytest.raises(ValueError, match="min_rounds \\(3\\) exceeds debate.max_rounds \\(2\\)"):
        debate.with_rounds(min_rounds=3, max_rounds=2)
